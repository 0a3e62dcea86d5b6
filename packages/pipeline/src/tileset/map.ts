import { Rng } from '../pixel/random.js';
import type { RgbaImage } from '../types/index.js';
import { VARIANT_PROBABILITY } from './formats.js';
import { blobTileFor, fullTileDrawings, type TilesetRules, wangTileFor } from './rules.js';
import { seamScore } from './seams.js';

export interface PaintedMap {
  /** Tile index per cell, row-major. */
  cells: number[];
  columns: number;
  rows: number;
  image: RgbaImage;
  /** Seam scores of every joint in the map (worst and mean). */
  seams: { worst: number; mean: number; joints: number };
}

/**
 * Paints a `columns × rows` map the way a map editor's terrain brush would: a random terrain grid
 * (corner terrains for wang16, cell terrains for blob47, smoothed so regions form) turned into
 * tiles by the set's autotile rules (a full tile one of its drawings, at random by their
 * probabilities), drawn into one image, every joint's seam measured.
 */
export function paintMap(
  tiles: readonly RgbaImage[],
  rules: TilesetRules,
  options: { columns: number; rows: number; seed: number; fill?: number },
): PaintedMap {
  const { columns, rows } = options;
  const rng = new Rng(options.seed);
  const fill = options.fill ?? 0.45;
  const cells: number[] = [];
  if (rules.kind === 'wang16') {
    const gw = columns + 1;
    const gh = rows + 1;
    const corners = smooth(
      Array.from({ length: gw * gh }, () => (rng.chance(fill) ? 1 : 0)),
      gw,
      gh,
    );
    const c = (x: number, y: number) => corners[y * gw + x]!;
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < columns; x++)
        cells.push(wangTileFor(c(x, y), c(x + 1, y), c(x, y + 1), c(x + 1, y + 1)));
  } else if (rules.kind === 'blob47') {
    const terrain = smooth(
      Array.from({ length: columns * rows }, () => (rng.chance(fill) ? 1 : 0)),
      columns,
      rows,
    );
    const t = (x: number, y: number) =>
      x < 0 || y < 0 || x >= columns || y >= rows ? 0 : terrain[y * columns + x]!;
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < columns; x++)
        cells.push(
          blobTileFor(t(x, y), [
            t(x, y - 1),
            t(x + 1, y - 1),
            t(x + 1, y),
            t(x + 1, y + 1),
            t(x, y + 1),
            t(x - 1, y + 1),
            t(x - 1, y),
            t(x - 1, y - 1),
          ]),
        );
  } else {
    for (let i = 0; i < columns * rows; i++) cells.push(0);
  }
  // a full tile drawn more than once: the brush lays one of its drawings, by their probabilities
  // (the plain one 1, each variant VARIANT_PROBABILITY)
  const drawings = fullTileDrawings(rules);
  const pick = rng.fork('variants');
  cells.forEach((index, i) => {
    const ids = drawings.get(index);
    if (!ids) return;
    let r = pick.next() * (1 + (ids.length - 1) * VARIANT_PROBABILITY);
    let chosen = ids[0]!;
    for (const [k, id] of ids.entries()) {
      r -= k === 0 ? 1 : VARIANT_PROBABILITY;
      if (r < 0) {
        chosen = id;
        break;
      }
    }
    cells[i] = chosen;
  });
  const tw = tiles[0]!.width;
  const th = tiles[0]!.height;
  const width = columns * tw;
  const height = rows * th;
  const data = new Uint8Array(width * height * 4);
  cells.forEach((index, i) => {
    const tile = tiles[index]!;
    const ox = (i % columns) * tw;
    const oy = Math.floor(i / columns) * th;
    for (let y = 0; y < th; y++)
      data.set(tile.data.subarray(y * tw * 4, (y + 1) * tw * 4), ((oy + y) * width + ox) * 4);
  });
  let worst = 0;
  let sum = 0;
  let joints = 0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const a = tiles[cells[y * columns + x]!]!;
      if (x + 1 < columns) {
        const s = seamScore(a, tiles[cells[y * columns + x + 1]!]!, 'x');
        worst = Math.max(worst, s);
        sum += s;
        joints++;
      }
      if (y + 1 < rows) {
        const s = seamScore(a, tiles[cells[(y + 1) * columns + x]!]!, 'y');
        worst = Math.max(worst, s);
        sum += s;
        joints++;
      }
    }
  }
  return {
    cells,
    columns,
    rows,
    image: { width, height, data },
    seams: { worst, mean: joints ? sum / joints : 0, joints },
  };
}

/** One pass of a majority filter so the random grid forms regions (lakes, islands) rather than salt and pepper. */
function smooth(values: number[], w: number, h: number): number[] {
  return values.map((v, i) => {
    const x = i % w;
    const y = Math.floor(i / w);
    let ones = 0;
    let all = 0;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        all++;
        ones += values[yy * w + xx]!;
      }
    return ones * 2 > all ? 1 : ones * 2 < all ? 0 : v;
  });
}
