import type { ImageInputRefs, ImageInputs } from './inputs.js';
import type { Interpretation } from './interpretation.js';
import type { LevelMetadata, LevelParams } from './level.js';

/** `params.tileset.kind`: a Wang set of 16 corner tiles, a blob set of 47 (+1), or one wrapping tile. */
export type TilesetKind = 'wang16' | 'blob47' | 'seamless';
export const TILESET_KINDS: readonly TilesetKind[] = ['wang16', 'blob47', 'seamless'];

/** The four pipeline stages as they appear in PipelineProgress events (spec 000). */
export type PipelineStage = 'prompt_optimizer' | 'asset_generator' | 'quality_supervisor' | 'format_adapter';
/** The stage names used in a task's `stage` field (prompt_optimizer is called prompt_builder there). */
export type TaskStage = 'prompt_builder' | 'asset_generator' | 'quality_supervisor' | 'format_adapter';
export type StageStatus = 'running' | 'completed' | 'failed';
/** The four asset types of spec 000, then `tileset` and `level` (Assetloom extensions). */
export type AssetType = 'sprite' | 'background' | 'ui' | 'animation' | 'tileset' | 'level';
export type OutputFormat = 'spritesheet' | 'individual';
export type Directions = 1 | 4 | 8;
export type StyleMap = Record<string, string>;

export const ASSET_TYPES: readonly AssetType[] = [
  'sprite',
  'background',
  'ui',
  'animation',
  'tileset',
  'level',
];
export const PIPELINE_STAGES: readonly PipelineStage[] = [
  'prompt_optimizer',
  'asset_generator',
  'quality_supervisor',
  'format_adapter',
];

interface FramesParams {
  directions: Directions;
  framesPerDirection: number;
}

export interface GenerationParams {
  /** Integer 16–1024: the edge of one frame in pixels (UI buttons and bars are shorter, see README). */
  resolution: number;
  /**
   * Background and ui only: integers 16–1024, the canvas of the background or of each state of the
   * UI piece. When only one of the two is given the other is `resolution`; when neither is, the
   * canvas is `resolution` square (a UI button or bar its kind's shape). Refused for other types.
   */
  width?: number | null;
  height?: number | null;
  /** Sprite and animation only; defaults to 4 directions × 4 frames for animation, 1 × 1 for sprite. */
  frames?: FramesParams | null;
  format: OutputFormat;
  /** Integer 0–4294967295 selecting a variation: the same seed and request give the same bytes. */
  seed?: number | null;
  /** Sprite and animation: playback written into every atlas file (see AnimationParams). */
  animation?: AnimationParams | null;
  /** Tileset only: which set and the tile edge (defaults: wang16, 16 px). */
  tileset?: TilesetParams | null;
  /** Level only: the size in tiles, the tile edge and the tileset (issue #42). */
  level?: LevelParams | null;
  /**
   * Sprite and animation: when the built-in generator cannot draw the subject, draw a marked
   * placeholder (named in `interpretation.substitute`) instead of failing. Default false.
   */
  placeholder?: boolean | null;
  /**
   * A kept character's task (issue #40, set by the character service, never by a client): the
   * built-in generator draws the named action from the stored rig identity, not from the prompt.
   */
  character?: CharacterTaskParams | null;
}

/** `params.character`: which character, which action, and the rig identity it is drawn from. */
export interface CharacterTaskParams {
  characterId: string;
  /** idle, walk, run, jump, attack, cast, hurt or death (a turn draws idle's first frame). */
  action: string;
  /** The character's rig identity (the generator's `characterIdentity`), as plain JSON. */
  identity: Record<string, unknown>;
}

/** How each direction's frames play: 0,1,2,3… (`forward`), 3,2,1,0… (`reverse`), 0,1,2,3,2,1… (`pingpong`). */
export type AnimationLoop = 'forward' | 'reverse' | 'pingpong';

/** Playback of a sheet's animations; every field optional (defaults: 8 fps, forward). */
export interface AnimationParams {
  /** Integer 1–60: frames per second; each frame shows round(1000 / fps) ms unless frameDurations says otherwise. */
  fps?: number;
  /** Milliseconds (integers 1–65535) each frame of a direction shows: one entry per frame of a direction. */
  frameDurations?: number[];
  loop?: AnimationLoop;
}

export interface PipelineRequest {
  prompt: string;
  assetType: AssetType;
  projectStyle: StyleMap;
  taskStyle?: StyleMap | null;
  params: GenerationParams;
  /** Storage key prefix such as `projects/<pid>/tasks/<tid>/`. */
  keyPrefix: string;
  /** Style tags for the prompt optimizer; defaults to the merged style's values. */
  tags?: string[];
  /** The pictures `params.image`, `mask`, `references` and `paletteFrom` name, decoded (decision 0034). */
  inputs?: ImageInputs;
  /**
   * The same pictures as references to stored PNGs, read and decoded by the run itself through
   * `RunPipelineOptions.pictures` (issue #37: off the server's event loop). Ignored when `inputs` is given.
   */
  inputRefs?: ImageInputRefs;
}

/** Where the pipeline writes its files. `put` must be idempotent for the same key. */
export interface StoragePort {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
}

export interface QualityCheck {
  name:
    | 'size'
    | 'frame_count'
    | 'not_blank'
    | 'alpha_coverage'
    | 'palette'
    | 'frames_distinct'
    | 'frames_consistent'
    | 'prompt_adherence'
    // model output (after pixelize): see quality-model.ts
    | 'palette_adherence'
    | 'grid_fidelity'
    | 'transparency'
    | 'stray_alpha'
    | 'orphan_pixels'
    | 'silhouette'
    | 'seams'
    // tilesets: every pair of tiles the rules allow to touch, joined
    | 'tile_seams_worst'
    | 'tile_seams_mean'
    // levels: the walked-on regions joined, the features where the words put them, every joint
    // allowed by the tiles' rules and no visible seam
    | 'level_connected'
    | 'level_placement'
    | 'level_tile_rules'
    | 'level_seams';
  passed: boolean;
  /** The measured value (ratio, count or pixels), for the report. */
  value: number;
  /** What the value was compared against, in words. */
  expected: string;
  detail?: string;
}

export interface QualityReport {
  passed: boolean;
  /** 0–1: share of checks passed. */
  score: number;
  checks: QualityCheck[];
  /** Set when `passed` is false: the first failed check, in words. */
  rejectReason?: string;
  /** Tilesets: the seam check — worst pair (tile indices, axis x = side by side, y = stacked) and mean. */
  seams?: {
    worst: number;
    mean: number;
    pairs: number;
    worstPair: { a: number; b: number; axis: 'x' | 'y' } | null;
  };
}

/** Where a licensed drawing comes from and what its licence asks for (`provenance.drawing`). */
export interface DrawingProvenance {
  /** The drawing's id in @assetloom/drawings (`f/dog`), its name and its Iconify set. */
  drawing: string;
  name: string;
  set: string;
  setName: string;
  version: string;
  /** SPDX id of the drawing's licence: MIT, Apache-2.0, CC-BY-3.0 or CC0-1.0. */
  license: string;
  licenseUrl: string;
  author: string;
  /** The credit the licence asks for, to show with the asset. */
  attribution: string;
  modified: true;
}

export interface Provenance {
  seed: number;
  provider: string;
  optimizedPrompt: string;
  templateUsed: boolean;
  /** Merged style (project style overridden by task style). */
  style: StyleMap;
  quality: QualityReport;
  /** Zero-based attempt that produced the asset (equals retryCount). */
  attempt: number;
  /** The licensed drawing the subject was drawn from (built-in generator). */
  drawing?: DrawingProvenance;
}

/** `params.tileset`: the kind of set and the edge of one tile. */
export interface TilesetParams {
  /** wang16 (16 corner tiles), blob47 (47 blob tiles + one plain tile) or seamless (one wrapping tile). */
  kind: TilesetKind;
  /** Integer 8–64. */
  tileSize: number;
}

/** What a tileset asset carries in its metadata. */
interface TilesetMetadata {
  kind: TilesetKind;
  tileSize: number;
  columns: number;
  rows: number;
  tileCount: number;
  /** The first and second terrain (one for seamless). */
  terrains: string[];
  /** Worst and mean seam score over every pair of tiles the rules allow to touch. */
  seams: { worst: number; mean: number; pairs: number };
}

export interface AtlasKeys {
  /** TexturePacker "JSON (Hash)" file for Phaser and PixiJS; only for spritesheet layout. */
  texturePacker?: string;
  /** Godot 4 SpriteFrames resource (.tres), over every page. */
  godot?: string;
  /** Aseprite JSON export (array of frames, `meta.frameTags` per direction); one per page. */
  aseprite?: string;
  /** Phaser 3 multi-atlas JSON (`textures: [...]`, one per page) for `load.multiatlas`. */
  phaser?: string;
  /** Phaser 3 animation JSON for `this.anims.fromJSON`. */
  phaserAnimations?: string;
  /** Unity `.meta` beside the PNG: TextureImporter, sprite mode Multiple, one rect per frame. */
  unity?: string;
  /** Tilesets: Tiled tileset (.tsx) with its Wang set. */
  tiled?: string;
  /** Tilesets: JSON description of tiles, terrains and rules for other engines. */
  tileset?: string;
  /** Levels: the Tiled map as JSON (.tmj); `tiled` is then the Tiled map as XML (.tmx). */
  tiledJson?: string;
  /** Levels: the Tiled tilesets of the terrain tiles (.tsx, with the Wang set and collision) and of the props. */
  tiledTileset?: string;
  tiledProps?: string;
  /** Levels: the LDtk project (.ldtk). */
  ldtk?: string;
  /** Levels: the Godot 4 TileSet (.tres) the scene (`godot`, .tscn) uses. */
  godotTileSet?: string;
  /** Levels: the tileset and props sheets (PNG) and the level described as JSON. */
  tilesetImage?: string;
  propsImage?: string;
  level?: string;
  /**
   * Layered backgrounds (`format: individual`): the layers and their scroll factors as JSON; `godot`
   * is then a Godot 4 scene (.tscn) of Parallax2D nodes.
   */
  parallax?: string;
  /**
   * With an enforced palette (style `palette` or `paletteFrom`): the palette as a GIMP palette
   * (`palette.gpl`, which Aseprite, Krita, Godot's and Unity's palette tools read), every PNG of the
   * task being indexed with exactly its colours.
   */
  palette?: string;
  /**
   * A kept character's animation (issue #40): its Spine 4.2 skeleton (`spine`, JSON), atlas
   * (`spineAtlas`) and part images (`spineImage`, PNG), and the same rig for DragonBones 5.5
   * (`dragonBones`, `_ske.json`; `dragonBonesAtlas`, `_tex.json` over the same PNG).
   */
  spine?: string;
  spineAtlas?: string;
  spineImage?: string;
  dragonBones?: string;
  dragonBonesAtlas?: string;
  /** The same palette as one `rrggbb` a line (`palette.hex`, Lospec's hex format). */
  paletteHex?: string;
}

export interface NineSlice {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface AssetMetadata {
  frameWidth: number;
  frameHeight: number;
  frameCount: number;
  directions: number;
  framesPerDirection: number;
  layout: OutputFormat;
  /** For individual frames: index in direction-major order. */
  frameIndex?: number;
  /** Direction name of this frame (individual layout), e.g. `down`. */
  direction?: string;
  /** Wrapped sheets (wider or taller than 4096 px): this PNG's page index, from 0. */
  page?: number;
  /** Wrapped sheets: how many pages the sheet has. */
  pageCount?: number;
  /** Animation names in the atlas files, e.g. `walk_down`. */
  animations?: string[];
  atlas?: AtlasKeys;
  /**
   * A kept character's frames: the point between the feet in every frame and direction (pixels, y
   * down), written into the engine files (TexturePacker pivot, Aseprite slice, Unity pivot, Godot
   * `metadata/anchor`) and the rig's origin.
   */
  anchor?: { x: number; y: number };
  /** UI pieces: 9-slice insets in pixels. */
  nineSlice?: NineSlice;
  /** UI pieces: panel, button or bar. */
  uiKind?: string;
  /** Backgrounds: whether the image tiles seamlessly (horizontally for landscapes, both ways for textures). */
  tileable?: boolean;
  /** How the built-in generator read the prompt: what it drew and which words it did not honour. */
  interpretation?: Interpretation;
  /**
   * The prompt's words that would change the picture and that the picture does not show ("rusty" in
   * "a rusty sword", "lion" in "a shield with a lion"): the task succeeds, and says so here. Absent
   * when every word is honoured. A noun that would make another thing is refused instead (issue #39).
   */
  notHonoured?: string[];
  /** Tilesets: kind, tile size, grid, terrains and seam scores (engine files in `atlas`). */
  tileset?: TilesetMetadata;
  /** Levels: size, tiles, terrains, the layout read from the prompt and the checks' figures. */
  level?: LevelMetadata;
  /** A layered background's layer file: its name, parallax scroll factor and place back to front. */
  layer?: { name: string; scroll: number; index: number };
  provenance: Provenance;
}

export interface PipelineAsset {
  key: string;
  format: 'png';
  width: number;
  height: number;
  contentType: 'image/png';
  metadata: AssetMetadata;
}

export interface PipelineProgressEvent {
  /** Integer, increasing by 1 from `startSeq` (default 1). */
  seq: number;
  /** ISO 8601 UTC timestamp. */
  at: string;
  stage: PipelineStage;
  status: StageStatus;
  /** 0–100 within the stage. */
  progress: number;
  message?: string;
  retryCount?: number;
  rejectReason?: string;
  result?: { assets: PipelineAsset[] };
  error?: string;
}

export type PipelineErrorCode =
  | 'invalid_request'
  | 'quality_rejected'
  | 'provider_failed'
  | 'aborted'
  | 'storage_failed'
  | 'event_sink_failed'
  /** The built-in generator cannot draw the subject (the message names the word); never retried. */
  | 'subject_not_drawable'
  /** The provider cannot honour an image input; the message names the param (decision 0034). Never retried. */
  | 'unsupported'
  /** The attempt passed its computing or end-to-end limit (RunPipelineOptions.deadline). Never retried. */
  | 'deadline_exceeded';

export type PipelineResult =
  | { ok: true; assets: PipelineAsset[]; provenance: Provenance; retryCount: number }
  | {
      ok: false;
      /**
       * Why the run failed, fit to show an end user: the same text as the failed progress event's
       * `error`. It never carries a raw exception's message (file paths, hosts, provider replies)
       * unless that error set `expose: true`; such details are in `detail`.
       */
      error: string;
      code: PipelineErrorCode;
      retryCount: number;
      /** The underlying error's own message, for logs only (absent when there is nothing more to say). */
      detail?: string;
    };
