/**
 * The tiles of a tileset and the rules of which tiles may touch.
 *
 * Every tile is described by a 3×3 lattice of terrain values (0 = the first terrain, 1 = the second):
 * the four corners, the four side midpoints and the centre. The renderer draws the terrain field
 * from this lattice, and two tiles may touch exactly when the lattice column (or row) they share is
 * the same on both sides — which is what Tiled's Wang ids and Godot's peering bits say as well.
 */

import { TILESET_KINDS, type TilesetKind } from '../types/request.js';

export { TILESET_KINDS, type TilesetKind };

/** Lattice positions, row-major. */
const TL = 0;
const T = 1;
const TR = 2;
const L = 3;
const _C = 4;
const R = 5;
const BL = 6;
const B = 7;
const BR = 8;

/** Godot 4 `TileSet.CellNeighbor` names as they appear in `terrains_peering_bit/<name>`. */
export type PeeringBit =
  | 'top_left_corner'
  | 'top_side'
  | 'top_right_corner'
  | 'left_side'
  | 'right_side'
  | 'bottom_left_corner'
  | 'bottom_side'
  | 'bottom_right_corner';

export interface TileRule {
  /** Position in the sheet (row-major, `columns` per row). */
  index: number;
  /** 3×3 lattice, row-major (TL, T, TR, L, C, R, BL, B, BR); 0, 0.5 (undecided side of a Wang tile) or 1. */
  lattice: readonly number[];
  /**
   * Tiled Wang id: top, top-right, right, bottom-right, bottom, bottom-left, left, top-left; colour 1 is
   * the first terrain, 2 the second, 0 unused (the sides of a corner set).
   */
  wangid: readonly number[];
  /** Godot: terrain of the tile's centre (0 or 1). */
  terrain: 0 | 1;
  /** Godot peering bits (terrain 0 or 1) of the terrain set's mode. */
  peering: Readonly<Partial<Record<PeeringBit, 0 | 1>>>;
  /** A short human name, e.g. `corners_1010` or `blob_0x1f`. */
  name: string;
  /**
   * A full tile's other drawing (issue #39, decision 0094): the index of the plain tile it varies —
   * same lattice, same edges, another inside — appended after the rule tiles so their indices stay.
   */
  variantOf?: number;
}

export interface TilesetRules {
  kind: TilesetKind;
  tiles: TileRule[];
  columns: number;
  rows: number;
  /** Godot terrain-set mode: 0 match corners and sides, 1 match corners, 2 match sides. */
  godotMode: 0 | 1;
  /** Tiled wangset type. */
  tiledType: 'corner' | 'mixed';
}

/** Blob neighbour bits: N, NE, E, SE, S, SW, W, NW. */
const BLOB_N = 1;
const BLOB_NE = 2;
const BLOB_E = 4;
const BLOB_SE = 8;
const BLOB_S = 16;
const BLOB_SW = 32;
const BLOB_W = 64;
const BLOB_NW = 128;

/** Drops corner bits whose two sides are not both set (the blob's rule: a corner only counts between two sides). */
function canonicalBlobMask(mask: number): number {
  let m = mask & 0xff;
  if (!(m & BLOB_N && m & BLOB_E)) m &= ~BLOB_NE;
  if (!(m & BLOB_S && m & BLOB_E)) m &= ~BLOB_SE;
  if (!(m & BLOB_S && m & BLOB_W)) m &= ~BLOB_SW;
  if (!(m & BLOB_N && m & BLOB_W)) m &= ~BLOB_NW;
  return m;
}

/** The 47 canonical blob masks, ascending (0 = isolated, 255 = surrounded). */
export const BLOB_MASKS: readonly number[] = (() => {
  const out: number[] = [];
  for (let m = 0; m < 256; m++) if (canonicalBlobMask(m) === m) out.push(m);
  return out;
})();

const wangOf = (lat: readonly number[], sides: boolean): number[] => {
  const c = (v: number) => (v >= 1 ? 2 : 1);
  return [
    sides ? c(lat[T]!) : 0,
    c(lat[TR]!),
    sides ? c(lat[R]!) : 0,
    c(lat[BR]!),
    sides ? c(lat[B]!) : 0,
    c(lat[BL]!),
    sides ? c(lat[L]!) : 0,
    c(lat[TL]!),
  ];
};

const bit = (v: number): 0 | 1 => (v >= 1 ? 1 : 0);

function wangTiles(): TileRule[] {
  const tiles: TileRule[] = [];
  for (let i = 0; i < 16; i++) {
    const tl = i & 1;
    const tr = (i >> 1) & 1;
    const bl = (i >> 2) & 1;
    const br = (i >> 3) & 1;
    const lattice = [
      tl,
      (tl + tr) / 2,
      tr,
      (tl + bl) / 2,
      (tl + tr + bl + br) / 4,
      (tr + br) / 2,
      bl,
      (bl + br) / 2,
      br,
    ];
    const count = tl + tr + bl + br;
    tiles.push({
      index: i,
      lattice,
      wangid: wangOf(lattice, false),
      // Godot's centre terrain of a corner tile: the terrain of most corners (ties: the second)
      terrain: count >= 2 ? 1 : 0,
      peering: {
        top_left_corner: bit(tl),
        top_right_corner: bit(tr),
        bottom_left_corner: bit(bl),
        bottom_right_corner: bit(br),
      },
      name: `corners_${tl}${tr}${bl}${br}`,
    });
  }
  return tiles;
}

function blobTiles(): TileRule[] {
  const tiles: TileRule[] = BLOB_MASKS.map((m, index) => {
    const has = (b: number) => (m & b ? 1 : 0);
    const lattice = [
      has(BLOB_NW),
      has(BLOB_N),
      has(BLOB_NE),
      has(BLOB_W),
      1,
      has(BLOB_E),
      has(BLOB_SW),
      has(BLOB_S),
      has(BLOB_SE),
    ];
    return {
      index,
      lattice,
      wangid: wangOf(lattice, true),
      terrain: 1 as const,
      peering: peeringAll(lattice),
      name: `blob_0x${m.toString(16).padStart(2, '0')}`,
    };
  });
  // the 48th tile: plain first terrain, so both terrains can be painted with the set alone
  const plain = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  tiles.push({
    index: tiles.length,
    lattice: plain,
    wangid: wangOf(plain, true),
    terrain: 0,
    peering: peeringAll(plain),
    name: 'fill_0',
  });
  return tiles;
}

function peeringAll(lat: readonly number[]): Record<PeeringBit, 0 | 1> {
  return {
    right_side: bit(lat[R]!),
    bottom_right_corner: bit(lat[BR]!),
    bottom_side: bit(lat[B]!),
    bottom_left_corner: bit(lat[BL]!),
    left_side: bit(lat[L]!),
    top_left_corner: bit(lat[TL]!),
    top_side: bit(lat[T]!),
    top_right_corner: bit(lat[TR]!),
  };
}

/**
 * Appends `count` variants of each full tile (`plains`, in order) to `tiles`: the same lattice, Wang
 * id and peering bits, so an editor's terrain brush scatters them where it would lay the plain one.
 */
function withVariants(tiles: TileRule[], plains: readonly number[], count: number): TileRule[] {
  const out = [...tiles];
  for (const plain of plains) {
    const of = tiles[plain]!;
    for (let k = 1; k <= count; k++)
      out.push({ ...of, index: out.length, name: `${of.name}_v${k}`, variantOf: plain });
  }
  return out;
}

/**
 * How many other drawings each full tile has (issue #39, decision 0094: a fill of one tile repeats
 * on a visible grid): as many as fill whole rows of the sheet — wang16 2 a terrain (one row of 4),
 * blob47 4 (one row of 8), seamless 3 (a 2 × 2 sheet, which itself wraps).
 */
export const FULL_TILE_VARIANTS: Readonly<Record<TilesetKind, number>> = {
  wang16: 2,
  blob47: 4,
  seamless: 3,
};

/** The tiles of a set of `kind` and their sheet layout. */
export function tilesetRules(kind: TilesetKind): TilesetRules {
  const more = FULL_TILE_VARIANTS[kind];
  if (kind === 'wang16') {
    // the plain tiles: corners 0000 (index 0) and 1111 (index 15)
    const tiles = withVariants(wangTiles(), [0, 15], more);
    return { kind, tiles, columns: 4, rows: 5, godotMode: 1, tiledType: 'corner' };
  }
  if (kind === 'blob47') {
    // the plain tiles: the first terrain's fill (47) and the surrounded blob (46)
    const tiles = withVariants(blobTiles(), [47, 46], more);
    return { kind, tiles, columns: 8, rows: 7, godotMode: 0, tiledType: 'mixed' };
  }
  const flat = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const one: TileRule = {
    index: 0,
    lattice: flat,
    wangid: wangOf(flat, false),
    terrain: 0,
    peering: {},
    name: 'seamless',
  };
  return {
    kind,
    tiles: withVariants([one], [0], more),
    columns: 2,
    rows: 2,
    godotMode: 1,
    tiledType: 'corner',
  };
}

/** The drawings of each full tile drawn more than once: its index → its own and its variants' indices. */
export function fullTileDrawings(rules: TilesetRules): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const t of rules.tiles)
    if (t.variantOf !== undefined)
      out.set(t.variantOf, [...(out.get(t.variantOf) ?? [t.variantOf]), t.index]);
  return out;
}

/** Whether `a` may sit directly left of `b` (axis x) or directly above `b` (axis y). */
export function mayTouch(a: TileRule, b: TileRule, axis: 'x' | 'y'): boolean {
  const la = a.lattice;
  const lb = b.lattice;
  if (axis === 'x') return la[TR] === lb[TL] && la[R] === lb[L] && la[BR] === lb[BL];
  return la[BL] === lb[TL] && la[B] === lb[T] && la[BR] === lb[TR];
}

/** Every ordered pair of tiles the rules allow to touch, on both axes. */
export function touchingPairs(rules: TilesetRules): Array<{ a: number; b: number; axis: 'x' | 'y' }> {
  const out: Array<{ a: number; b: number; axis: 'x' | 'y' }> = [];
  for (const a of rules.tiles) {
    for (const b of rules.tiles) {
      if (mayTouch(a, b, 'x')) out.push({ a: a.index, b: b.index, axis: 'x' });
      if (mayTouch(a, b, 'y')) out.push({ a: a.index, b: b.index, axis: 'y' });
    }
  }
  return out;
}

/**
 * The tile for a map cell. wang16: the four corner terrains (0/1) TL, TR, BL, BR. blob47: the cell's
 * terrain and its 8 neighbours' (N, NE, E, SE, S, SW, W, NW; 1 = the second terrain).
 */
export function wangTileFor(tl: number, tr: number, bl: number, br: number): number {
  return (tl ? 1 : 0) | (tr ? 2 : 0) | (bl ? 4 : 0) | (br ? 8 : 0);
}

export function blobTileFor(centre: number, neighbours: readonly number[]): number {
  if (!centre) return BLOB_MASKS.length; // the plain fill tile
  let m = 0;
  neighbours.forEach((v, i) => {
    if (v) m |= 1 << i;
  });
  return BLOB_MASKS.indexOf(canonicalBlobMask(m));
}
