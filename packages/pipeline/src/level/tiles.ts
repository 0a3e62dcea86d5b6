/**
 * A level's tileset and how its map is tiled. The tiles are either the pair sets the generator drew
 * for the level (a wang16 set per pair of terrains that meet: the plain tile of each terrain once,
 * then each pair's 14 mixed tiles — tiles of different pairs meet only on an edge of one terrain,
 * which every set draws the same, so they join) or a given tileset task's tiles (wang16 or blob47,
 * two terrains). Every tile carries its 3×3 lattice of terrain ids, and two tiles may touch exactly
 * when the lattice edge they share is the same — the rule Tiled's Wang ids and Godot's peering bits
 * state.
 */
import type { Rgb } from '../palette.js';
import { BLOB_MASKS, blobTileFor, fullTileDrawings, tilesetRules } from '../tileset/rules.js';
import { SEAM_GOALS, seamScore } from '../tileset/seams.js';
import type { TerrainName } from '../tileset/terrains.js';
import type { RgbaImage } from '../types/index.js';
import type { LevelSpace } from './space.js';

/** The worst seam a mirrored full tile may make with a drawing of its terrain (the level check allows SEAM_GOALS.worst). */
const MIRROR_SEAM = SEAM_GOALS.worst * 0.8;

/** The lattice value of a side between two terrains (a wang16 tile's mixed side). */
const mixed = (a: number, b: number) => 64 + Math.min(a, b) * 8 + Math.max(a, b);

export interface LevelTile {
  /** 3×3 lattice (TL, T, TR, L, C, R, BL, B, BR) of terrain ids (mixed sides: 64 + 8·a + b). */
  lattice: number[];
  image: RgbaImage;
  name: string;
}

export interface LevelTileset {
  kind: 'wang16' | 'blob47';
  tileSize: number;
  terrains: readonly TerrainName[];
  /** A colour per terrain (the editors' brushes). */
  colors: readonly Rgb[];
  tiles: LevelTile[];
  /** Tiles across the sheet. */
  columns: number;
  /** wang16: tile index by its corners `tl,tr,bl,br`. */
  byCorners: Map<string, number>;
  /** blob47 (given sets): the two terrains' ids, lower (fill) then upper (blobs). */
  blobTerrains?: [number, number];
  /** Where the tiles came from (a given task's id, or the pairs drawn). */
  source: string;
  /**
   * The full tiles drawn more than once (issue #42): a plain tile's id → the ids of its drawings, the
   * plain one first, its variants (same lattice, appended after the other tiles) after it.
   */
  fullVariants: Map<number, number[]>;
}

/** One terrain pair's wang16 tiles as drawn: index i has corners TL=i&1, TR=i>>1&1, BL=i>>2&1, BR=i>>3&1 (1 = b). */
export interface PairArt {
  a: number;
  b: number;
  tiles: RgbaImage[];
  /** Further drawings of the 16 tiles: the same joints, another shore wander inside (decision 0149). */
  drawings?: RgbaImage[][];
}

const wangLattice = (tl: number, tr: number, bl: number, br: number): number[] => {
  const side = (p: number, q: number) => (p === q ? p : mixed(p, q));
  const all = new Set([tl, tr, bl, br]);
  const centre = all.size === 1 ? tl : mixed(Math.min(...all), Math.max(...all));
  return [tl, side(tl, tr), tr, side(tl, bl), centre, side(tr, br), bl, side(bl, br), br];
};

/**
 * The level's tileset from the pairs drawn for it: each terrain's plain tile, then each used pair's
 * 14 mixed tiles, then each present terrain's full-tile variants (so the ids before them stay what
 * they were).
 */
export function tilesetFromPairs(
  pairs: readonly PairArt[],
  plains: readonly RgbaImage[],
  used: ReadonlySet<string>,
  terrains: readonly TerrainName[],
  colors: readonly Rgb[],
  tileSize: number,
  variants: readonly (readonly RgbaImage[])[] = [],
): LevelTileset {
  const tiles: LevelTile[] = [];
  const byCorners = new Map<string, number>();
  const add = (corners: [number, number, number, number], image: RgbaImage, name: string) => {
    const key = corners.join(',');
    if (byCorners.has(key)) return;
    byCorners.set(key, tiles.length);
    tiles.push({ lattice: wangLattice(...corners), image, name });
  };
  const present = new Set<number>();
  for (const k of used) for (const t of k.split(',')) present.add(Number(t));
  for (let t = 0; t < terrains.length; t++) {
    if (!present.has(t)) continue;
    const pair = pairs.find((p) => p.a === t || p.b === t);
    const plain = plains[t] ?? pair?.tiles[pair.a === t ? 0 : 15];
    if (plain) add([t, t, t, t], plain, `${terrains[t]}`);
  }
  for (const pair of pairs) {
    if (!used.has(`${pair.a},${pair.b}`)) continue;
    for (let i = 1; i < 15; i++) {
      const c = [i & 1, (i >> 1) & 1, (i >> 2) & 1, (i >> 3) & 1].map((bit) => (bit ? pair.b : pair.a)) as [
        number,
        number,
        number,
        number,
      ];
      add(c, pair.tiles[i]!, `${terrains[pair.a]}-${terrains[pair.b]}_${i.toString(2).padStart(4, '0')}`);
    }
  }
  const fullVariants = new Map<number, number[]>();
  for (let t = 0; t < terrains.length; t++) {
    const plain = byCorners.get(`${t},${t},${t},${t}`);
    const more = variants[t] ?? [];
    if (plain === undefined || more.length === 0) continue;
    const ids = [plain];
    more.forEach((image, k) => {
      ids.push(tiles.length);
      tiles.push({ lattice: wangLattice(t, t, t, t), image, name: `${terrains[t]}_v${k + 1}` });
    });
    // and each drawing mirrored left to right (decision 0124: the drawings share their outer ring,
    // so a fill of them still repeated on the tile's period — a honeycomb of rock, a wallpaper of
    // sea): a full tile's lattice is the same mirrored, and a mirrored tile meets its neighbours on
    // a reflected column, which a fill's texture hides where a repeat of its ring did not
    // — kept only where every joint of a mirrored drawing with any drawing, either way round and
    // either axis, passes the seam measure with room to spare (lava's plates and flow do not: a
    // mirrored row under an unmirrored one breaks them)
    const drawn = ids.map((id) => tiles[id]!.image);
    const flips = drawn.map(mirrored);
    const joins = (a: RgbaImage, b: RgbaImage) =>
      Math.max(seamScore(a, b, 'x'), seamScore(b, a, 'x'), seamScore(a, b, 'y'), seamScore(b, a, 'y'));
    const fits = flips.every((m) => drawn.every((d) => joins(m, d) <= MIRROR_SEAM));
    if (fits)
      flips.forEach((image, k) => {
        ids.push(tiles.length);
        tiles.push({ lattice: wangLattice(t, t, t, t), image, name: `${terrains[t]}_m${k}` });
      });
    fullVariants.set(plain, ids);
  }
  // each pair's mixed tiles drawn again with its terrains' other drawings (decision 0149: one drawing
  // repeated 8–14 times down a coast or a rim): where a mixed tile shows a terrain's plain texture
  // pixel for pixel, its k-th variant shows that terrain's k-th full-tile drawing — which keeps the
  // plain tile's outer ring, so every joint is the pixels it was, and the shore line is untouched
  const plainOf = (t: number) => {
    const id = byCorners.get(`${t},${t},${t},${t}`);
    return id === undefined ? undefined : tiles[fullVariants.get(id)?.[0] ?? id]!.image;
  };
  for (const pair of pairs) {
    if (!used.has(`${pair.a},${pair.b}`)) continue;
    const pa = plainOf(pair.a);
    const pb = plainOf(pair.b);
    const va = variants[pair.a] ?? [];
    const vb = variants[pair.b] ?? [];
    const k = Math.max(Math.min(va.length, vb.length), pair.drawings?.length ?? 0);
    if (!pa || !pb || k === 0) continue;
    for (let i = 1; i < 15; i++) {
      const c = [i & 1, (i >> 1) & 1, (i >> 2) & 1, (i >> 3) & 1].map((bit) => (bit ? pair.b : pair.a));
      const id = byCorners.get(c.join(','));
      if (id === undefined || fullVariants.has(id)) continue;
      const own = tiles[id]!;
      const ids = [id];
      for (let v = 0; v < k; v++) {
        const shape = pair.drawings?.[v]?.[i] ?? own.image;
        const image =
          va[v] && vb[v] ? redrawn(shape, [pa, va[v]!], [pb, vb[v]!]) : shape === own.image ? null : shape;
        if (!image) break;
        ids.push(tiles.length);
        tiles.push({ lattice: own.lattice, image, name: `${own.name}_v${v + 1}` });
      }
      if (ids.length > 1) fullVariants.set(id, ids);
    }
  }
  return {
    kind: 'wang16',
    tileSize,
    terrains,
    colors,
    tiles,
    columns: Math.min(16, Math.max(1, tiles.length)),
    byCorners,
    source: 'drawn',
    fullVariants,
  };
}

/**
 * A mixed tile with each terrain's plain texture swapped for another drawing of it (`[plain, other]`
 * per terrain): the pixels the tile shares with a plain tile take the other drawing's, the rest (the
 * shore, its shading) stay.
 */
function redrawn(image: RgbaImage, ...swaps: readonly (readonly [RgbaImage, RgbaImage])[]): RgbaImage {
  const data = new Uint8Array(image.data);
  let changed = 0;
  for (let p = 0; p < data.length; p += 4)
    for (const [plain, other] of swaps) {
      if (
        image.data[p] !== plain.data[p] ||
        image.data[p + 1] !== plain.data[p + 1] ||
        image.data[p + 2] !== plain.data[p + 2]
      )
        continue;
      for (let q = 0; q < 4; q++) {
        if (data[p + q] !== other.data[p + q]) changed++;
        data[p + q] = other.data[p + q]!;
      }
      break;
    }
  return changed > 0 ? { width: image.width, height: image.height, data } : image;
}

/** A tile's picture mirrored left to right. */
function mirrored(image: RgbaImage): RgbaImage {
  const { width, height } = image;
  const data = new Uint8Array(image.data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      data.set(
        image.data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
        (y * width + width - 1 - x) * 4,
      );
  return { width, height, data };
}

/**
 * A given tileset task's tiles: its sheet cut by its kind's grid, its two terrains mapped to the
 * level's ids (`ids[k]` for the set's terrain k).
 */
export function tilesetFromSheet(
  sheet: RgbaImage,
  kind: 'wang16' | 'blob47',
  tileSize: number,
  ids: [number, number],
  terrains: readonly TerrainName[],
  colors: readonly Rgb[],
  source: string,
): LevelTileset {
  const all = tilesetRules(kind);
  // a sheet drawn before its set had variants (decision 0094) holds the rule tiles alone
  const rules = {
    ...all,
    tiles: all.tiles.filter((t) => Math.floor(t.index / all.columns) * tileSize < sheet.height),
  };
  const tiles: LevelTile[] = rules.tiles.map((rule) => {
    const image = cut(
      sheet,
      (rule.index % rules.columns) * tileSize,
      Math.floor(rule.index / rules.columns) * tileSize,
      tileSize,
    );
    const lattice =
      kind === 'wang16'
        ? wangLattice(
            ...([rule.lattice[0], rule.lattice[2], rule.lattice[6], rule.lattice[8]].map(
              (v) => ids[v! >= 1 ? 1 : 0],
            ) as [number, number, number, number]),
          )
        : rule.lattice.map((v) => ids[v >= 1 ? 1 : 0]);
    return { lattice, image, name: rule.name };
  });
  const byCorners = new Map<string, number>();
  if (kind === 'wang16')
    tiles.forEach((t, i) => {
      if (rules.tiles[i]!.variantOf === undefined)
        byCorners.set([t.lattice[0], t.lattice[2], t.lattice[6], t.lattice[8]].join(','), i);
    });
  // the set's full tiles drawn more than once: a fill picks among their drawings
  const fullVariants = fullTileDrawings(rules);
  return {
    kind,
    tileSize,
    terrains,
    colors,
    tiles,
    columns: rules.columns,
    byCorners,
    ...(kind === 'blob47' ? { blobTerrains: ids } : {}),
    source,
    fullVariants,
  };
}

function cut(sheet: RgbaImage, ox: number, oy: number, size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    data.set(
      sheet.data.subarray(((oy + y) * sheet.width + ox) * 4, ((oy + y) * sheet.width + ox + size) * 4),
      y * size * 4,
    );
  return { width: size, height: size, data };
}

/** The pairs of terrains the map's tiles hold (`a,b`, a < b): the pair sets it needs. */
export function pairsUsed(space: LevelSpace): Set<string> {
  const out = new Set<string>();
  for (let y = 0; y < space.rows; y++)
    for (let x = 0; x < space.columns; x++) {
      const t = space.cellTerrains(x, y).sort((a, b) => a - b);
      if (t.length === 2) out.add(`${t[0]},${t[1]}`);
      if (t.length === 1) out.add(`${t[0]},${t[0]}`);
    }
  return out;
}

/** A hash of a cell and the level's seed, in 0…2³²: the same cell of the same level picks the same. */
function cellHash(x: number, y: number, seed: number): number {
  let h =
    Math.imul(x + 0x9e37, 0x85ebca6b) ^ Math.imul(y + 0x7f4a, 0xc2b2ae35) ^ Math.imul(seed | 0, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 13), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Which drawing of a full tile a cell shows: picked by the cell's hash among those its left, upper
 * and upper-left neighbours do not show (with 2 drawings, among those the left and upper ones do not),
 * so no two cells side by side or one above the other repeat a drawing and no 2 × 2 block of them
 * is a repeat of its neighbour — the grid is broken up, deterministically by position and seed.
 */
function pickVariant(
  out: Int32Array,
  columns: number,
  x: number,
  y: number,
  ids: readonly number[],
  seed: number,
) {
  // with 2 or 3 drawings, never repeating the left and the upper one forces a diagonal pattern:
  // 2 drawings are picked by the hash alone, 3 avoid one neighbour (which, by the hash) (decision 0104)
  const near =
    ids.length > 3
      ? [x > 0 ? out[y * columns + x - 1] : -1, y > 0 ? out[(y - 1) * columns + x] : -1]
      : ids.length === 3
        ? [
            cellHash(y, x, ~seed) & 1 && y > 0
              ? out[(y - 1) * columns + x]
              : x > 0
                ? out[y * columns + x - 1]
                : -1,
          ]
        : [];
  if (ids.length > 3) near.push(x > 0 && y > 0 ? out[(y - 1) * columns + x - 1] : -1);
  const free = ids.filter((id) => !near.includes(id));
  const from = free.length > 0 ? free : ids;
  return from[cellHash(x, y, seed) % from.length]!;
}

/**
 * The tile of every map cell (−1 where no tile fits: three terrains in one tile); a full tile drawn
 * more than once shows one of its drawings, picked by the cell and `seed`.
 */
export function tileMap(space: LevelSpace, set: LevelTileset, seed = 0): Int32Array {
  const { columns, rows } = space;
  const out = new Int32Array(columns * rows).fill(-1);
  if (set.kind === 'wang16') {
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < columns; x++) {
        const [tl, tr, bl, br] = space.cellPoints(x, y).map((p) => space.grid.cells[p]!);
        const tile = set.byCorners.get(`${tl},${tr},${bl},${br}`) ?? -1;
        const ids = set.fullVariants.get(tile);
        out[y * columns + x] = ids ? pickVariant(out, columns, x, y, ids, seed) : tile;
      }
    return out;
  }
  const [lower, upper] = set.blobTerrains!;
  const t = (x: number, y: number, own: number) =>
    x < 0 || y < 0 || x >= columns || y >= rows ? own : space.grid.cells[y * columns + x]!;
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < columns; x++) {
      const c = space.grid.cells[y * columns + x]!;
      if (c !== lower && c !== upper) continue;
      const is = (v: number) => (v === upper ? 1 : 0);
      const tile =
        c === lower
          ? BLOB_MASKS.length
          : blobTileFor(
              1,
              [
                t(x, y - 1, c),
                t(x + 1, y - 1, c),
                t(x + 1, y, c),
                t(x + 1, y + 1, c),
                t(x, y + 1, c),
                t(x - 1, y + 1, c),
                t(x - 1, y, c),
                t(x - 1, y - 1, c),
              ].map(is),
            );
      const ids = set.fullVariants.get(tile);
      out[y * columns + x] = ids ? pickVariant(out, columns, x, y, ids, seed) : tile;
    }
  return out;
}

/** Whether tile `a` may sit left of (x) or above (y) tile `b`: the lattice edge they share is the same. */
export function tilesMayTouch(a: LevelTile, b: LevelTile, axis: 'x' | 'y'): boolean {
  const la = a.lattice;
  const lb = b.lattice;
  return axis === 'x'
    ? la[2] === lb[0] && la[5] === lb[3] && la[8] === lb[6]
    : la[6] === lb[0] && la[7] === lb[1] && la[8] === lb[2];
}

/** Draws the map's tiles into one picture. */
export function paintTiles(map: Int32Array, columns: number, rows: number, set: LevelTileset): RgbaImage {
  const s = set.tileSize;
  const width = columns * s;
  const height = rows * s;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < map.length; i++) {
    const tile = set.tiles[map[i]!];
    if (!tile) continue;
    const ox = (i % columns) * s;
    const oy = Math.floor(i / columns) * s;
    for (let y = 0; y < s; y++)
      data.set(tile.image.data.subarray(y * s * 4, (y + 1) * s * 4), ((oy + y) * width + ox) * 4);
  }
  return { width, height, data };
}

/** The tileset's sheet: its tiles row-major, `columns` across. */
export function tilesetSheet(set: LevelTileset): RgbaImage {
  const s = set.tileSize;
  const rows = Math.ceil(set.tiles.length / set.columns);
  const width = set.columns * s;
  const height = rows * s;
  const data = new Uint8Array(width * height * 4);
  set.tiles.forEach((t, i) => {
    const ox = (i % set.columns) * s;
    const oy = Math.floor(i / set.columns) * s;
    for (let y = 0; y < s; y++)
      data.set(t.image.data.subarray(y * s * 4, (y + 1) * s * 4), ((oy + y) * width + ox) * 4);
  });
  return { width, height, data };
}
