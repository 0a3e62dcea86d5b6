/** What every engine file of a level shares: names, the props sheet, collision boxes, ids. */
import type { LevelBuild } from '../build.js';
import { propRect } from '../build.js';
import { PROP_BLOCKS, type PropKind } from '../plan.js';
import type { LevelTile } from '../tiles.js';

/** The file names of a level's files, beside each other (engine files name each other by these). */
export const LEVEL_FILES = {
  preview: 'level.png',
  tiles: 'level-tiles.png',
  props: 'level-props.png',
  tsx: 'level.tsx',
  propsTsx: 'level-props.tsx',
  tmx: 'level.tmx',
  tmj: 'level.tmj',
  ldtk: 'level.ldtk',
  tres: 'level.tres',
  tscn: 'level.tscn',
  json: 'level.json',
} as const;

export const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A name as an identifier (LDtk and Godot want letters, digits and underscores). */
export const ident = (s: string) => {
  const w = s.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Za-z]/.test(w) ? w[0]!.toUpperCase() + w.slice(1) : `T_${w}`;
};

/**
 * The parts of a tile that stop a walker, as boxes in tile pixels (x, y, w, h): a quarter for each
 * corner whose terrain is not walked on (wang16: the corner; blob47: the corner when both sides
 * next to it agree, else the tile's centre), the whole tile when all four are.
 */
export function tileCollision(
  tile: LevelTile,
  walkable: readonly boolean[],
  size: number,
): Array<[number, number, number, number]> {
  const l = tile.lattice;
  const terrainOf = (corner: number, sideA: number, sideB: number) => {
    const c = l[corner]!;
    if (c < 64) return c;
    return l[sideA] === l[sideB] && l[sideA]! < 64
      ? l[sideA]!
      : l[4]! < 64
        ? l[4]!
        : Math.min(l[sideA]!, l[sideB]!);
  };
  const quarters = [terrainOf(0, 1, 3), terrainOf(2, 1, 5), terrainOf(6, 7, 3), terrainOf(8, 7, 5)].map(
    (t) => !walkable[t],
  );
  const h = size / 2;
  if (quarters.every(Boolean)) return [[0, 0, size, size]];
  const out: Array<[number, number, number, number]> = [];
  // join two blocked quarters on a side into one box
  const [tl, tr, bl, br] = quarters;
  if (tl && tr) out.push([0, 0, size, h]);
  else if (bl && br) out.push([0, h, size, h]);
  if (tl && bl && !(tl && tr)) out.push([0, 0, h, size]);
  else if (tr && br && !(tl && tr)) out.push([h, 0, h, size]);
  const covered = (x: number, y: number) =>
    out.some(([bx, by, bw, bh]) => x >= bx && y >= by && x < bx + bw && y < by + bh);
  const spots: Array<[boolean | undefined, number, number]> = [
    [tl, 0, 0],
    [tr, h, 0],
    [bl, 0, h],
    [br, h, h],
  ];
  for (const [blocked, x, y] of spots) if (blocked && !covered(x, y)) out.push([x, y, h, h]);
  return out;
}

/** A prop's collision box in its sprite's pixels (2 × 2 tiles): the bottom middle half tile, its foot. */
export function propCollision(tileSize: number): [number, number, number, number] {
  const w = Math.round(tileSize * 0.75);
  const h = Math.round(tileSize / 2);
  return [tileSize - w / 2, 2 * tileSize - h, w, h];
}

/** Each placed prop with its index in the props sheet and its rectangle on the map. */
export function placedProps(build: LevelBuild): Array<{
  kind: PropKind;
  x: number;
  y: number;
  index: number;
  rect: { x: number; y: number; size: number };
  blocks: boolean;
}> {
  return build.props.map((p) => ({
    ...p,
    index: build.propImages.findIndex((i) => i.kind === p.kind),
    rect: propRect(p, build.tileset.tileSize),
    blocks: PROP_BLOCKS[p.kind],
  }));
}

/** The walked-on places a game needs, in map pixels: the spawn and each place the layout asked for. */
export function places(build: LevelBuild): Array<{ name: string; x: number; y: number }> {
  const { columns } = build.plan;
  const s = build.tileset.tileSize;
  return build.plan.anchors.map((a) => ({
    name: a.name,
    x: (a.cell % columns) * s + s / 2,
    y: Math.floor(a.cell / columns) * s + s / 2,
  }));
}

/** Each feature's bounding box in map pixels (for regions a game scripts: "the lake", "the village"). */
export function regionBoxes(
  build: LevelBuild,
): Array<{ name: string; kind: string; x: number; y: number; width: number; height: number }> {
  const { columns } = build.plan;
  const s = build.tileset.tileSize;
  return build.plan.regions
    .filter((r) => r.cells.length > 0)
    .map((r) => {
      const xs = r.cells.map((c) => c % columns);
      const ys = r.cells.map((c) => Math.floor(c / columns));
      const x0 = Math.min(...xs);
      const y0 = Math.min(...ys);
      return {
        name: r.words[0] ?? r.kind,
        kind: r.kind,
        x: x0 * s,
        y: y0 * s,
        width: (Math.max(...xs) - x0 + 1) * s,
        height: (Math.max(...ys) - y0 + 1) * s,
      };
    });
}
