import type { TilesetDescription } from './viewer.js';

/** A small seeded generator (mulberry32): the same seed paints the same map. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random 0/1 terrain, one majority pass so it forms regions (lakes, islands) instead of noise. */
function terrainGrid(width: number, height: number, next: () => number): number[] {
  const raw = Array.from({ length: width * height }, () => (next() < 0.45 ? 1 : 0));
  return raw.map((value, i) => {
    const x = i % width;
    const y = Math.floor(i / width);
    let ones = 0;
    let all = 0;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= width || yy >= height) continue;
        all++;
        ones += raw[yy * width + xx]!;
      }
    return ones * 2 > all ? 1 : ones * 2 < all ? 0 : value;
  });
}

export interface PaintedCells {
  /** Tile id per cell, row-major; -1 where the set has no tile for the cell's terrain. */
  tiles: number[];
  columns: number;
  rows: number;
}

/**
 * Paints `columns × rows` cells the way a map editor's terrain brush does, from the rules the
 * set's JSON description states (decision 0023): wang16 picks a cell's tile from the terrains of its
 * four corners; blob47 gives a terrain-1 cell the tile whose blobMask equals its 8 neighbours (a
 * corner counts only when both sides next to it do) and a terrain-0 cell the plain tile; a seamless
 * set repeats its one tile.
 */
export function paintCells(
  set: Pick<TilesetDescription, 'kind' | 'tiles'>,
  columns: number,
  rows: number,
  seed: number,
): PaintedCells {
  const next = random(seed);
  const tiles: number[] = [];
  if (set.kind === 'wang16') {
    const byCorners = new Map(set.tiles.map((tile) => [tile.corners.join(','), tile.id]));
    const corners = terrainGrid(columns + 1, rows + 1, next);
    const c = (x: number, y: number) => corners[y * (columns + 1) + x]!;
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < columns; x++) {
        // corners in the description's order: TL, TR, BR, BL
        const key = [c(x, y), c(x + 1, y), c(x + 1, y + 1), c(x, y + 1)].join(',');
        tiles.push(byCorners.get(key) ?? -1);
      }
  } else if (set.kind === 'blob47') {
    const byMask = new Map(
      set.tiles.filter((tile) => tile.blobMask !== undefined).map((tile) => [tile.blobMask!, tile.id]),
    );
    const plain = set.tiles.find((tile) => tile.center === 0 && tile.blobMask === undefined)?.id ?? -1;
    const terrain = terrainGrid(columns, rows, next);
    const t = (x: number, y: number) =>
      x < 0 || y < 0 || x >= columns || y >= rows ? 0 : terrain[y * columns + x]!;
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < columns; x++) {
        if (t(x, y) === 0) {
          tiles.push(plain);
          continue;
        }
        const n = t(x, y - 1);
        const e = t(x + 1, y);
        const s = t(x, y + 1);
        const w = t(x - 1, y);
        const mask =
          n |
          (n && e && t(x + 1, y - 1) ? 2 : 0) |
          (e ? 4 : 0) |
          (s && e && t(x + 1, y + 1) ? 8 : 0) |
          (s ? 16 : 0) |
          (s && w && t(x - 1, y + 1) ? 32 : 0) |
          (w ? 64 : 0) |
          (n && w && t(x - 1, y - 1) ? 128 : 0);
        tiles.push(byMask.get(mask) ?? -1);
      }
  } else {
    const only = set.tiles[0]?.id ?? -1;
    for (let i = 0; i < columns * rows; i++) tiles.push(only);
  }
  return { tiles, columns, rows };
}
