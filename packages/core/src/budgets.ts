import type { AssetType, TaskParams } from './types.js';

/**
 * Per-user budgets (issue #29, decision 0032). A task's cost to the workers grows with its pixels
 * (a 1024 px animation of 8 directions × 16 frames peaked at 833 MB in one worker), and nothing
 * stopped one user from asking for many at once, creating tens of thousands of projects, or filling
 * the object storage. Every limit is optional (absent or 0: no limit).
 */
export interface UserBudgets {
  /** Pixels one task may draw: width × height × frames (413 任务规模超出上限). */
  taskMaxPixels?: number;
  /** Pixels of one user's tasks running or saving at once (429 + Retry-After). */
  userMaxPixelsInFlight?: number;
  /** Projects one user may have (429). */
  userMaxProjects?: number;
  /** Bytes of object storage one user's completed tasks may take (413). */
  userMaxStorageBytes?: number;
}

/**
 * The pixels a task draws: its canvas (width × height, `resolution` squared unless a background or
 * ui piece asks for its own canvas) times its frames (directions × frames per direction for sprites
 * and animations; a tileset's tiles; 1 otherwise).
 */
export function taskPixels(assetType: AssetType, params: TaskParams): number {
  const canvas = params as TaskParams & { width?: number; height?: number };
  const width = canvas.width ?? params.resolution;
  const height = canvas.height ?? params.resolution;
  let frames = 1;
  if ((assetType === 'sprite' || assetType === 'animation') && params.frames !== undefined) {
    frames = params.frames.directions * params.frames.framesPerDirection;
  }
  if (assetType === 'tileset' && params.tileset !== undefined) {
    // A set's tiles at its tile size (blob sets have 47, wang 16, seamless 1), at most 48.
    const tiles = params.tileset.kind === 'blob47' ? 47 : params.tileset.kind === 'wang16' ? 16 : 1;
    return tiles * params.tileset.tileSize * params.tileset.tileSize + width * height;
  }
  return width * height * frames;
}

/** A limit that is set (a positive number). */
export function limitOf(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
