import { type Rgb, toHex } from '../palette.js';
import type { PeeringBit, TilesetRules } from './rules.js';

export interface TilesetFileInput {
  /** File name of the PNG beside the engine files. */
  image: string;
  /** Pixel size of the whole sheet. */
  width: number;
  height: number;
  tileSize: number;
  rules: TilesetRules;
  /** Terrain names, first then second (one for a seamless set). */
  terrains: readonly string[];
  /** A representative colour per terrain (the editors colour their terrain brushes with it). */
  colors: readonly Rgb[];
  name: string;
}

const PEERING_ORDER: readonly PeeringBit[] = [
  'right_side',
  'bottom_right_corner',
  'bottom_side',
  'bottom_left_corner',
  'left_side',
  'top_left_corner',
  'top_side',
  'top_right_corner',
];

const godotString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const godotColor = (c: Rgb) => `Color(${c.map((v) => Number((v / 255).toFixed(4))).join(', ')}, 1)`;

/**
 * How often an editor's terrain brush lays a full tile's variant against its plain drawing (1):
 * the plain tile stays the common ground, each variant (a crack, a tuft, a pebble cluster) half as
 * common (decision 0094).
 */
export const VARIANT_PROBABILITY = 0.5;

/** A seamless set's tiles as one terrain's corner tiles: its plain tile and variants, all corners 0. */
const SEAMLESS_PEERING: Readonly<Partial<Record<PeeringBit, 0 | 1>>> = {
  top_left_corner: 0,
  top_right_corner: 0,
  bottom_left_corner: 0,
  bottom_right_corner: 0,
};

/**
 * A Godot 4 TileSet resource (text `.tres`, format 3): one TileSetAtlasSource over the PNG, one
 * terrain set (mode 1 "match corners" for wang16 and seamless, mode 0 "match corners and sides" for
 * blob47) with the terrains, and for every tile its `terrain_set`, centre `terrain` and
 * `terrains_peering_bit/*` — so the terrain brush of the TileMap editor paints with it at once. A
 * full tile's variants carry the same terrain and bits and a `probability` (the brush picks among
 * the matching tiles by it), so a filled area scatters them.
 */
export function godotTileSet(input: TilesetFileInput): string {
  const { rules, tileSize } = input;
  const lines: string[] = [
    `[gd_resource type="TileSet" load_steps=3 format=3]`,
    '',
    `[ext_resource type="Texture2D" path=${godotString(`res://${input.image}`)} id="1_tex"]`,
    '',
    `[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_1"]`,
    `texture = ExtResource("1_tex")`,
    `texture_region_size = Vector2i(${tileSize}, ${tileSize})`,
  ];
  for (const tile of rules.tiles) {
    const at = `${tile.index % rules.columns}:${Math.floor(tile.index / rules.columns)}/0`;
    lines.push(`${at} = 0`);
    if (tile.variantOf !== undefined) lines.push(`${at}/probability = ${VARIANT_PROBABILITY}`);
    lines.push(`${at}/terrain_set = 0`, `${at}/terrain = ${tile.terrain}`);
    const peering = rules.kind === 'seamless' ? SEAMLESS_PEERING : tile.peering;
    for (const bit of PEERING_ORDER) {
      const v = peering[bit];
      if (v !== undefined) lines.push(`${at}/terrains_peering_bit/${bit} = ${v}`);
    }
  }
  lines.push('', '[resource]', `tile_size = Vector2i(${tileSize}, ${tileSize})`);
  lines.push(`terrain_set_0/mode = ${rules.godotMode}`);
  input.terrains.forEach((name, i) => {
    lines.push(`terrain_set_0/terrain_${i}/name = ${godotString(name)}`);
    lines.push(`terrain_set_0/terrain_${i}/color = ${godotColor(input.colors[i] ?? [128, 128, 128])}`);
  });
  // sources come last: their tiles' terrain data rely on the terrain sets above (tile_set.cpp)
  lines.push(`sources/0 = SubResource("TileSetAtlasSource_1")`, '');
  return lines.join('\n');
}

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A Tiled tileset (`.tsx`, TMX format 1.10) over the PNG with one Wang set: type `corner` for
 * wang16 and seamless, `mixed` (corners and edges) for blob47, each tile's `wangid` listing top,
 * top-right, right, bottom-right, bottom, bottom-left, left, top-left (colour 1 = first terrain,
 * 2 = second, 0 = unused). A full tile's variants share its Wang id and carry a tile `probability`:
 * the Wang brush picks among the tiles of one id by it, so a filled area scatters them.
 */
export function tiledTileset(input: TilesetFileInput): string {
  const { rules, tileSize } = input;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tileset version="1.10" tiledversion="1.10.2" name="${xml(input.name)}" tilewidth="${tileSize}" tileheight="${tileSize}" tilecount="${rules.tiles.length}" columns="${rules.columns}">`,
    ` <image source="${xml(input.image)}" width="${input.width}" height="${input.height}"/>`,
  ];
  if (rules.kind === 'blob47') {
    // the isolated blob has the same Wang id as the plain tile (Tiled's ids carry no centre):
    // probability 0 keeps the brush from scattering it, a mapper can still place it by hand
    out.push(' <tile id="0" probability="0"/>');
  }
  for (const tile of rules.tiles)
    if (tile.variantOf !== undefined)
      out.push(` <tile id="${tile.index}" probability="${VARIANT_PROBABILITY}"/>`);
  {
    // the set's icon: the plain tile of the second terrain (wang16) or the surrounded blob (blob47),
    // a seamless set's one plain tile
    const icon = Math.max(
      0,
      rules.tiles.findIndex((t) => t.lattice.every((v) => v === input.terrains.length - 1)),
    );
    out.push(' <wangsets>');
    out.push(
      `  <wangset name="${xml(input.terrains.join(' / '))}" type="${rules.tiledType}" tile="${icon}">`,
    );
    input.terrains.forEach((name, i) => {
      const plain = rules.tiles.findIndex((t) => t.lattice.every((v) => v === i));
      out.push(
        `   <wangcolor name="${xml(name)}" color="${toHex(input.colors[i] ?? [128, 128, 128])}" tile="${plain}" probability="1"/>`,
      );
    });
    for (const tile of rules.tiles) {
      out.push(`   <wangtile tileid="${tile.index}" wangid="${tile.wangid.join(',')}"/>`);
    }
    out.push('  </wangset>', ' </wangsets>');
  }
  out.push('</tileset>', '');
  return out.join('\n');
}

export interface TilesetDescription {
  format: 'assetloom-tileset';
  version: 1;
  image: string;
  imageWidth: number;
  imageHeight: number;
  kind: TilesetRules['kind'];
  tileSize: number;
  columns: number;
  rows: number;
  terrains: Array<{ id: number; name: string; color: string }>;
  /**
   * `corners`: TL, TR, BR, BL terrain ids; `sides`: top, right, bottom, left (blob47 only);
   * `center`: the terrain of the tile's middle; `blobMask`: the 8-neighbour bits N=1, NE=2, E=4, SE=8,
   * S=16, SW=32, W=64, NW=128 of the second terrain (blob47 only).
   */
  tiles: Array<{
    id: number;
    name: string;
    x: number;
    y: number;
    corners: [number, number, number, number];
    sides?: [number, number, number, number];
    center: number;
    blobMask?: number;
    /** A full tile's variant: the id of the plain tile it varies (same edges, another inside). */
    variantOf?: number;
    /** How often to lay it against the plain tile (1); variants only. */
    probability?: number;
  }>;
  rules: string;
}

/** The JSON description for other engines: the grid, the terrains and each tile's corner (and side) terrains. */
export function tilesetDescription(input: TilesetFileInput): TilesetDescription {
  const { rules, tileSize } = input;
  const t = (v: number) => (v >= 1 ? 1 : 0);
  return {
    format: 'assetloom-tileset',
    version: 1,
    image: input.image,
    imageWidth: input.width,
    imageHeight: input.height,
    kind: rules.kind,
    tileSize,
    columns: rules.columns,
    rows: rules.rows,
    terrains: input.terrains.map((name, id) => ({
      id,
      name,
      color: toHex(input.colors[id] ?? [128, 128, 128]),
    })),
    tiles: rules.tiles.map((tile) => {
      const l = tile.lattice;
      const blob = rules.kind === 'blob47';
      const mask =
        (t(l[1]!) ? 1 : 0) |
        (t(l[2]!) ? 2 : 0) |
        (t(l[5]!) ? 4 : 0) |
        (t(l[8]!) ? 8 : 0) |
        (t(l[7]!) ? 16 : 0) |
        (t(l[6]!) ? 32 : 0) |
        (t(l[3]!) ? 64 : 0) |
        (t(l[0]!) ? 128 : 0);
      return {
        id: tile.index,
        name: tile.name,
        x: (tile.index % rules.columns) * tileSize,
        y: Math.floor(tile.index / rules.columns) * tileSize,
        corners: [t(l[0]!), t(l[2]!), t(l[8]!), t(l[6]!)],
        ...(blob
          ? { sides: [t(l[1]!), t(l[5]!), t(l[7]!), t(l[3]!)] as [number, number, number, number] }
          : {}),
        center: tile.terrain,
        ...(blob && tile.terrain === 1 ? { blobMask: mask } : {}),
        ...(tile.variantOf !== undefined
          ? { variantOf: tile.variantOf, probability: VARIANT_PROBABILITY }
          : {}),
      };
    }),
    rules: `${
      rules.kind === 'wang16'
        ? 'Two tiles may touch when the corners they share carry the same terrain. Pick a cell’s tile from the terrains at its four corners.'
        : rules.kind === 'blob47'
          ? 'Cells of terrain 1 pick the tile whose blobMask equals their 8 neighbours of terrain 1 (a corner counts only when both sides next to it do); cells of terrain 0 use the plain tile with center 0.'
          : 'One tile that wraps on both axes.'
    } A tile with variantOf is another drawing of that tile (the same edges): lay any of them where it goes, the variants with their probability against the plain tile's 1.`,
  };
}
