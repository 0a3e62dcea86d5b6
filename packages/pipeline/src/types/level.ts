/** Levels (issue #42): the plain types of the request, what a provider draws for a level, and the metadata. */
import type { Rgb, RgbaImage } from './image.js';

/** `params.level`: the size in tiles, the tile edge, and the tileset (a task's, or terrains to draw one). */
export interface LevelParams {
  /** Integer 8–256: tiles across. */
  columns: number;
  /** Integer 8–256: tiles down. */
  rows: number;
  /** Integer 8–64: the edge of one tile in pixels (a given tileset's own tile size wins). */
  tileSize: number;
  /** A completed wang16 or blob47 tileset task of the same project: its tiles and terrains. */
  tilesetTaskId?: string | null;
  /** The terrains to draw the level's tileset with (2–6 names; absent: read from the prompt). */
  terrains?: string[] | null;
}

/** What a provider draws for a level: each pair of terrains' wang16 tiles (unless given) and the props. */
export interface LevelDrawRequest {
  tileSize: number;
  /** Terrain names in id order. */
  terrains: string[];
  /** The pairs (a < b, terrain ids) whose wang16 tiles to draw; empty when a tileset is given. */
  pairs: Array<[number, number]>;
  /** The props to draw, each a sprite on a cell of 2 × 2 tiles. */
  props: string[];
}

/** What a provider hands back for a level (`GeneratedAsset.levelArt`). */
export interface LevelArt {
  /** Per pair: 16 wang16 tiles, index i with corners TL=i&1, TR=i>>1&1, BL=i>>2&1, BR=i>>3&1 (1 = b). */
  pairs: Array<{
    a: number;
    b: number;
    tiles: RgbaImage[];
    /** Further drawings of the 16 tiles (decision 0149): the same joints, another shore wander inside. */
    drawings?: RgbaImage[][];
  }>;
  /** A colour per terrain, for the editors' brushes. */
  colors: Rgb[];
  /** Each terrain's plain tile, in id order (a level of one terrain has no pair to take it from). */
  plains?: RgbaImage[];
  /**
   * Each terrain's other full tiles, in id order (issue #42): the same terrain and the same edges as
   * its plain tile, other detail inside, so a map may pick among them and its full tiles do not
   * repeat as a grid. The level's tileset appends them after its other tiles.
   */
  variants?: RgbaImage[][];
  /** Each prop's sprite, 2 × 2 tiles, its foot on the bottom row's middle. */
  props: Array<{ kind: string; image: RgbaImage; as: string }>;
}

/** A level as assembled by the pipeline (level/build.ts): opaque here, its shape is the level module's. */
export interface LevelAssembly {
  readonly assembled: 'level';
}

/** What a level asset carries in its metadata. */
export interface LevelMetadata {
  columns: number;
  rows: number;
  tileSize: number;
  /** wang16 (corners; the level's own pair sets or a given set) or blob47 (a given set). */
  kind: 'wang16' | 'blob47';
  terrains: string[];
  /** The given tileset task, when one was used. */
  tilesetTaskId?: string;
  /** What the prompt was read as: the level's base, biome and features with their placements. */
  layout: {
    base: string;
    biome: string;
    features: Array<{ kind: string; placements: string[]; count: number; words: string[] }>;
  };
  /** Seed of the attempt that grew it. */
  seed: number;
  tileCount: number;
  props: Record<string, number>;
  rooms?: number;
  /** The checks' figures: regions joined, features placed, rule-breaking joints, worst seam. */
  checks: { connected: boolean; placed: number; misplaced: string[]; ruleBreaks: number; worstSeam: number };
}
