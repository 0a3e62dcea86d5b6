import type { Interpretation } from '../interpret/index.js';
import type { Rgb } from '../palette.js';
import type { AssetType, Directions, NineSlice, RgbaImage, StyleMap, TilesetParams } from '../types.js';

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
  /** Tilesets: the kind of set and the tile edge (frames are the tiles, row-major). */
  tileset?: TilesetParams;
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
  /** How the provider read the prompt (the procedural provider: what it drew, and what it did not). */
  interpretation?: Interpretation;
  /** Tilesets: the kind, the terrain names (first, second) and a representative colour of each. */
  tileset?: { kind: TilesetParams['kind']; terrains: string[]; colors: Rgb[] };
}

/** An image generator. Throwing (or rejecting) fails the task with code provider_failed. */
export interface ImageProvider {
  readonly name: string;
  /**
   * 'model' for image models (ComfyUI, AUTOMATIC1111, OpenAI Images): their pictures of fat,
   * soft pixels go through pixelize (one scale, one palette, one baseline for the sheet) before
   * the quality check, and the model-output checks run. Absent: frames are used as they are.
   */
  readonly kind?: 'procedural' | 'model';
  /** `onProgress` (0–100 within asset_generator) is forwarded as asset_generator progress events. */
  generate(
    request: ImageRequest,
    context: { signal?: AbortSignal; onProgress?: (progress: number, message?: string) => void },
  ): Promise<GeneratedAsset>;
}

export type { Directions };
