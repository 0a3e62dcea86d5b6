import { assetTypeTraits } from '@assetloom/pipeline';
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
 * The pixels a task draws, as its asset type's module counts them (@assetloom/pipeline's
 * asset-types: width × height × frames for sprites and animations, the canvas of a background or ui
 * piece, a tileset's tiles at its tile size): no branch on the type here (issue #38).
 */
export function taskPixels(assetType: AssetType, params: TaskParams): number {
  return assetTypeTraits(assetType).pixels(
    params as Parameters<ReturnType<typeof assetTypeTraits>['pixels']>[0],
  );
}

/** A limit that is set (a positive number). */
export function limitOf(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
