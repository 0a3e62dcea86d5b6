/**
 * Tiled files of a level (TMX format as Tiled 1.8 reads it, docs/reference/tmx-map-format.rst):
 * the terrain tileset (`level.tsx`: the sheet, one Wang set — corner for wang16, mixed for blob47 —
 * with a colour per terrain, and each tile's `walkable` property and collision boxes), the props
 * tileset (`level-props.tsx`), and the map as XML (`level.tmx`) and JSON (`level.tmj`): a tile layer
 * `terrain`, an object layer `props` (tile objects, top to bottom) and a hidden object layer
 * `places` (the spawn, the places to reach, each feature's box).
 */
import { toHex } from '../../palette.js';
import type { LevelBuild } from '../build.js';
import { tilesetSheet } from '../tiles.js';
import {
  LEVEL_FILES,
  placedProps,
  places,
  propCollision,
  regionBoxes,
  tileCollision,
  xml,
} from './shared.js';

const VERSION = '1.8';
const TILED_VERSION = '1.8.2';

/** Tiled's Wang id of a tile: top, top-right, right, bottom-right, bottom, bottom-left, left, top-left (terrain id + 1; 0 unused). */
function wangId(lattice: readonly number[], kind: 'wang16' | 'blob47'): number[] {
  const c = (v: number) => (v >= 64 ? 0 : v + 1);
  const [tl, t, tr, l, , r, bl, b, br] = lattice as number[];
  return kind === 'wang16'
    ? [0, c(tr!), 0, c(br!), 0, c(bl!), 0, c(tl!)]
    : [c(t!), c(tr!), c(r!), c(br!), c(b!), c(bl!), c(l!), c(tl!)];
}

export function levelTsx(build: LevelBuild): string {
  const set = build.tileset;
  const sheet = tilesetSheet(set);
  const s = set.tileSize;
  const walkable = build.space.walkable;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tileset version="${VERSION}" tiledversion="${TILED_VERSION}" name="terrain" tilewidth="${s}" tileheight="${s}" tilecount="${set.tiles.length}" columns="${set.columns}">`,
    ` <image source="${LEVEL_FILES.tiles}" width="${sheet.width}" height="${sheet.height}"/>`,
  ];
  set.tiles.forEach((tile, id) => {
    const boxes = tileCollision(tile, walkable, s);
    const walk = boxes.length === 0;
    out.push(
      `  <tile id="${id}">`,
      '   <properties>',
      `    <property name="walkable" type="bool" value="${walk}"/>`,
      `    <property name="name" value="${xml(tile.name)}"/>`,
      '   </properties>',
    );
    if (!walk) {
      out.push('   <objectgroup draworder="index" id="2">');
      boxes.forEach(([x, y, w, h], i) => {
        out.push(`    <object id="${i + 1}" type="collision" x="${x}" y="${y}" width="${w}" height="${h}"/>`);
      });
      out.push('   </objectgroup>');
    }
    out.push('  </tile>');
  });
  out.push(
    ' <wangsets>',
    `  <wangset name="terrains" type="${set.kind === 'wang16' ? 'corner' : 'mixed'}" tile="-1">`,
  );
  set.terrains.forEach((name, t) => {
    const plain = set.tiles.findIndex((x) => x.lattice.every((v) => v === t));
    out.push(
      `   <wangcolor name="${xml(name)}" color="${toHex(set.colors[t] ?? [128, 128, 128])}" tile="${plain}" probability="1"/>`,
    );
  });
  set.tiles.forEach((tile, id) => {
    out.push(`   <wangtile tileid="${id}" wangid="${wangId(tile.lattice, set.kind).join(',')}"/>`);
  });
  out.push('  </wangset>', ' </wangsets>', '</tileset>', '');
  return out.join('\n');
}

export function propsTsx(build: LevelBuild): string {
  const s = build.tileset.tileSize * 2;
  const n = Math.max(1, build.propImages.length);
  const [cx, cy, cw, ch] = propCollision(build.tileset.tileSize);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tileset version="${VERSION}" tiledversion="${TILED_VERSION}" name="props" tilewidth="${s}" tileheight="${s}" tilecount="${n}" columns="${n}" objectalignment="bottom">`,
    ` <image source="${LEVEL_FILES.props}" width="${n * s}" height="${s}"/>`,
  ];
  build.propImages.forEach((p, id) => {
    const blocks = placedProps(build).find((q) => q.kind === p.kind)?.blocks ?? false;
    out.push(
      `  <tile id="${id}" type="${p.kind}">`,
      '   <properties>',
      `    <property name="blocks" type="bool" value="${blocks}"/>`,
      `    <property name="drawn_as" value="${xml(p.as)}"/>`,
      '   </properties>',
    );
    if (blocks)
      out.push(
        '   <objectgroup draworder="index" id="2">',
        `    <object id="1" type="collision" x="${cx}" y="${cy}" width="${cw}" height="${ch}"/>`,
        '   </objectgroup>',
      );
    out.push('  </tile>');
  });
  out.push('</tileset>', '');
  return out.join('\n');
}

/** The map's objects with their ids: props (tile objects, by their bottom middle) then places. */
function mapObjects(build: LevelBuild) {
  const first = build.tileset.tiles.length + 1;
  let id = 1;
  const props = placedProps(build).map((p) => ({
    id: id++,
    name: p.kind,
    type: p.kind,
    gid: first + p.index,
    x: p.rect.x + p.rect.size / 2,
    y: p.rect.y + p.rect.size,
    width: p.rect.size,
    height: p.rect.size,
  }));
  const points = places(build).map((p) => ({
    id: id++,
    name: p.name,
    type: p.name === 'spawn' ? 'spawn' : 'place',
    x: p.x,
    y: p.y,
  }));
  const boxes = regionBoxes(build).map((r) => ({
    id: id++,
    name: r.name,
    type: r.kind,
    x: r.x,
    y: r.y,
    width: r.width,
    height: r.height,
  }));
  return { props, points, boxes, next: id, propsFirstGid: first };
}

const mapProperties = (build: LevelBuild): Array<{ name: string; type: string; value: string | number }> => [
  { name: 'base', type: 'string', value: build.layout.base },
  { name: 'biome', type: 'string', value: build.layout.biome },
  { name: 'seed', type: 'int', value: build.seed },
  { name: 'generator', type: 'string', value: 'assetloom' },
];

export function levelTmx(build: LevelBuild): string {
  const { columns, rows } = build.plan;
  const s = build.tileset.tileSize;
  const o = mapObjects(build);
  const csv: string[] = [];
  for (let y = 0; y < rows; y++) {
    const row: number[] = [];
    for (let x = 0; x < columns; x++) row.push(build.map[y * columns + x]! + 1);
    csv.push(row.join(','));
  }
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<map version="${VERSION}" tiledversion="${TILED_VERSION}" orientation="orthogonal" renderorder="right-down" width="${columns}" height="${rows}" tilewidth="${s}" tileheight="${s}" infinite="0" nextlayerid="4" nextobjectid="${o.next}">`,
    ' <properties>',
    ...mapProperties(build).map(
      (p) =>
        `  <property name="${p.name}"${p.type === 'string' ? '' : ` type="${p.type}"`} value="${xml(String(p.value))}"/>`,
    ),
    ' </properties>',
    ` <tileset firstgid="1" source="${LEVEL_FILES.tsx}"/>`,
    ` <tileset firstgid="${o.propsFirstGid}" source="${LEVEL_FILES.propsTsx}"/>`,
    ` <layer id="1" name="terrain" width="${columns}" height="${rows}">`,
    '  <data encoding="csv">',
    csv.join(',\n'),
    '</data>',
    ' </layer>',
    ' <objectgroup id="2" name="props" draworder="index">',
    ...o.props.map(
      (p) =>
        `  <object id="${p.id}" name="${p.name}" type="${p.type}" gid="${p.gid}" x="${p.x}" y="${p.y}" width="${p.width}" height="${p.height}"/>`,
    ),
    ' </objectgroup>',
    ' <objectgroup id="3" name="places" visible="0">',
    ...o.points.map(
      (p) =>
        `  <object id="${p.id}" name="${xml(p.name)}" type="${p.type}" x="${p.x}" y="${p.y}">\n   <point/>\n  </object>`,
    ),
    ...o.boxes.map(
      (b) =>
        `  <object id="${b.id}" name="${xml(b.name)}" type="${b.type}" x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}"/>`,
    ),
    ' </objectgroup>',
    '</map>',
    '',
  ];
  return out.join('\n');
}

export function levelTmj(build: LevelBuild): string {
  const { columns, rows } = build.plan;
  const s = build.tileset.tileSize;
  const o = mapObjects(build);
  const object = (x: Record<string, unknown>) => ({ rotation: 0, visible: true, width: 0, height: 0, ...x });
  const map = {
    type: 'map',
    version: VERSION,
    tiledversion: TILED_VERSION,
    orientation: 'orthogonal',
    renderorder: 'right-down',
    width: columns,
    height: rows,
    tilewidth: s,
    tileheight: s,
    infinite: false,
    compressionlevel: -1,
    nextlayerid: 4,
    nextobjectid: o.next,
    properties: mapProperties(build),
    tilesets: [
      { firstgid: 1, source: LEVEL_FILES.tsx },
      { firstgid: o.propsFirstGid, source: LEVEL_FILES.propsTsx },
    ],
    layers: [
      {
        type: 'tilelayer',
        id: 1,
        name: 'terrain',
        width: columns,
        height: rows,
        x: 0,
        y: 0,
        opacity: 1,
        visible: true,
        data: Array.from(build.map, (t) => t + 1),
      },
      {
        type: 'objectgroup',
        id: 2,
        name: 'props',
        draworder: 'index',
        x: 0,
        y: 0,
        opacity: 1,
        visible: true,
        objects: o.props.map(object),
      },
      {
        type: 'objectgroup',
        id: 3,
        name: 'places',
        draworder: 'index',
        x: 0,
        y: 0,
        opacity: 1,
        visible: false,
        objects: [...o.points.map((p) => object({ ...p, point: true })), ...o.boxes.map(object)],
      },
    ],
  };
  return `${JSON.stringify(map, null, 1)}\n`;
}
