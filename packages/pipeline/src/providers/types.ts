import type { AssetType, Directions, NineSlice, RgbaImage, StyleMap } from '../types.js';

export interface ImageRequest {
  assetType: AssetType;
  /** The optimised three-section prompt. */
  prompt: string;
  /** The user's raw prompt (stable across LLM replies; the procedural provider reads subjects from it). */
  userPrompt: string;
  tags: string[];
  /** Merged style (project style overridden by task style). */
  style: StyleMap;
  resolution: number;
  directions: Directions;
  framesPerDirection: number;
  /** Deterministic seed for this attempt. */
  seed: number;
  /** Zero-based attempt number (0 for the first try, then one per quality retry). */
  attempt: number;
}

export interface GeneratedAsset {
  /** Direction-major: frames[d * framesPerDirection + f]. */
  frames: RgbaImage[];
  /** Animation or piece name used in atlas files, e.g. `walk`, `idle`, `button`. */
  animation: string;
  /** Per-frame names for UI pieces (normal/hover/pressed, track/fill, panel). */
  frameNames?: string[];
  subject?: string;
  nineSlice?: NineSlice;
  uiKind?: string;
  tileable?: boolean;
}

/** An image generator. Throwing (or rejecting) fails the task with code provider_failed. */
export interface ImageProvider {
  readonly name: string;
  generate(request: ImageRequest, context: { signal?: AbortSignal }): Promise<GeneratedAsset>;
}

export type { Directions };
