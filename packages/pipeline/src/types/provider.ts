import type { Rgb, RgbaImage } from './image.js';
import type { ProviderImageInputs } from './inputs.js';
import type { Interpretation } from './interpretation.js';
import type { LevelArt, LevelAssembly, LevelDrawRequest } from './level.js';
import type {
  AssetType,
  Directions,
  DrawingProvenance,
  NineSlice,
  StyleMap,
  TilesetParams,
} from './request.js';

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
  /**
   * The frame the pipeline expects, in pixels (what the quality check's size test holds each frame
   * to): `params.width` × `params.height` for a background or UI piece that asked for a canvas,
   * else `resolution` square (a UI button or bar its kind's shape, a tileset its tile). The pipeline
   * always sets both; absent (direct callers of a provider): derive them from `resolution` as before.
   */
  width?: number;
  height?: number;
  directions: Directions;
  framesPerDirection: number;
  /** Deterministic seed for this attempt. */
  seed: number;
  /**
   * Which variation the request asks for: `params.seed` as given, 1 when absent (the pipeline
   * always sets it). A provider that draws variations draws its best for 1 and a visibly different
   * one for each other number; `seed` stays the seed of the details. Absent (direct callers of a
   * provider): the provider reads the variation from `seed`.
   */
  variation?: number;
  /** Zero-based attempt number (0 for the first try, then one per quality retry). */
  attempt: number;
  /** Tilesets: the kind of set and the tile edge (frames are the tiles, row-major). */
  tileset?: TilesetParams;
  /** Levels: the terrain pairs' tiles and the props to draw (the pipeline grows and tiles the map). */
  level?: LevelDrawRequest;
  /** `params.placeholder`: draw a marked placeholder instead of refusing a subject it cannot draw. */
  placeholder?: boolean;
  /**
   * The pictures to start from, edit within and follow (decision 0034), when the request has any the
   * provider draws with: only providers that declare them in `inputs` are handed them.
   */
  inputs?: ProviderImageInputs;
  /**
   * A kept character's task (issue #40, `params.character`): the action to draw from its stored rig
   * identity, never from the prompt; `rig` asks for the skeleton files beside the frames, named
   * `<stem>-rig…`, played at `fps`. Providers that do not keep characters ignore it.
   */
  character?: { identity: Record<string, unknown>; action: string; rig: boolean; stem: string; fps: number };
}

/** A file of a kept character's rig (`GeneratedAsset.rig`), named by its atlas key. */
export interface RigOutputFile {
  role: 'spine' | 'spineAtlas' | 'spineImage' | 'dragonBones' | 'dragonBonesAtlas';
  /** The file name (`<stem>-rig.json` …): the files name each other by it. */
  name: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface GeneratedAsset {
  /** Direction-major: frames[d * framesPerDirection + f]. */
  frames: RgbaImage[];
  /** Animation or piece name used in atlas files, e.g. `walk`, `idle`, `button`. */
  animation: string;
  /**
   * A still thing's sprite (nothing in the request asks it to move): each direction's frames are its
   * one picture, so the sheet holds still when a game plays it as an idle; the quality check's
   * `frames_distinct` allows its identical frames.
   */
  still?: boolean;
  /** Per-frame names for UI pieces (button: normal/hover/pressed/disabled; bar: empty/full; panel, label, icon). */
  frameNames?: string[];
  subject?: string;
  nineSlice?: NineSlice;
  uiKind?: string;
  tileable?: boolean;
  /**
   * Backgrounds the scene composer drew: its depth layers back to front (sky, far, mid, near, props,
   * weather), each the full canvas and transparent where empty, with the parallax scroll factor a
   * game moves it at (0 = fixed to the camera's back, 1 = moves with the ground).
   */
  layers?: Array<{ name: string; scroll: number; image: RgbaImage }>;
  /** How the provider read the prompt (the procedural provider: what it drew, and what it did not). */
  interpretation?: Interpretation;
  /** Tilesets: the kind, the terrain names (first, second) and a representative colour of each. */
  tileset?: { kind: TilesetParams['kind']; terrains: string[]; colors: Rgb[] };
  /** Levels: the tiles and props a provider drew (`ImageRequest.level`). */
  levelArt?: LevelArt;
  /** Levels: the level the pipeline assembled from them (frames then hold its preview). */
  level?: LevelAssembly;
  /**
   * A one-view drawing: how each direction shows it — the view itself (drawn facing that way), its
   * mirror (drawn facing the other way), or a repeat of the view in a row it has no view for (its
   * back for "up", a front view's sides), or a front view of a living thing turned: its face moved
   * towards the row's side, or gone for its back, or a thing seen from above rotated a quarter at a
   * time in the picture's plane (`rotated`). The rig draws every direction: each row `source`.
   */
  views?: Array<{ direction: string; view: 'source' | 'mirror' | 'repeat' | 'turned' | 'rotated' }>;
  /** The licensed drawing the subject came from (its set, licence and attribution). */
  drawing?: DrawingProvenance;
  /** A kept character's frames: the point between the feet (pixels, y down), in every engine file. */
  anchor?: { x: number; y: number };
  /** A kept character's animation: its rig's files, written beside the sheet (`ImageRequest.character`). */
  rig?: RigOutputFile[];
}

/** A provider's answer before a run: whether it can draw the request at all. */
export type PreflightResult =
  | { ok: true }
  | { ok: false; message: string; word: string | null; suggestions: string[] };

/** An image generator. Throwing (or rejecting) fails the task with code provider_failed. */
export interface ImageProvider {
  readonly name: string;
  /**
   * 'model' for image models (ComfyUI, AUTOMATIC1111, OpenAI Images): their pictures of fat,
   * soft pixels go through pixelize (one scale, one palette, one baseline for the sheet) before
   * the quality check, and the model-output checks run. Absent: frames are used as they are.
   */
  readonly kind?: 'procedural' | 'model';
  /**
   * The image inputs it honours (decision 0034): `image` redraws a picture with a strength above 0,
   * `mask` edits only where the mask is white, `references` follows pictures. The pipeline refuses
   * what a provider does not declare, naming the param; pixelate and a palette from a picture work
   * everywhere.
   */
  readonly inputs?: { image?: boolean; mask?: boolean; references?: boolean };
  /** `onProgress` (0–100 within asset_generator) is forwarded as asset_generator progress events. */
  generate(
    request: ImageRequest,
    context: { signal?: AbortSignal; onProgress?: (progress: number, message?: string) => void },
  ): Promise<GeneratedAsset>;
  /**
   * Optional: whether the provider can draw the request, asked before the run starts (and by servers
   * when a task is submitted), so a subject it cannot draw fails at once and is never retried.
   */
  preflight?(request: {
    assetType: AssetType;
    userPrompt: string;
    tags: readonly string[];
    style: StyleMap;
    directions?: number;
    placeholder?: boolean;
  }): Promise<PreflightResult>;
}
