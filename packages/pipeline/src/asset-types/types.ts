import type { Rgb } from '../palette.js';
import type { inspectModelOutput } from '../quality-model.js';
import type {
  AssetType,
  GeneratedAsset,
  GenerationParams,
  ImageInputs,
  ImageRequest,
  QualityCheck,
  StyleMap,
} from '../types/index.js';
import type { ExpectedLayout } from './layout.js';
import type { OutputContext, OutputFiles } from './output.js';

/** What the pipeline knows when a model's pictures come back (model post-processing). */
export interface ModelPictures {
  generated: GeneratedAsset;
  layout: ExpectedLayout;
  params: GenerationParams;
  userPrompt: string;
  tags: string[];
  style: StyleMap;
  seed: number;
  /** The enforced palette (style `palette` or `paletteFrom`), or null. */
  palette: readonly Rgb[] | null;
}

/** A model's pictures as native pixel art, and what the model-output checks compare them with. */
export interface FromModel {
  generated: GeneratedAsset;
  sources?: Parameters<typeof inspectModelOutput>[0]['sources'];
}

/** What a type's provider request and its assembly know of the run (beyond its params). */
interface RunContext {
  userPrompt: string;
  tags: readonly string[];
  style: StyleMap;
  /** The request's decoded pictures (a level's tileset), when it has any. */
  inputs?: ImageInputs;
}

/** The model-side prompt of an asset type is built from (providers/model-common.ts planSheet). */
interface ModelSheet {
  layout: ExpectedLayout;
  /** Cells across and down the one picture asked for. */
  columns: number;
  rows: number;
  /** Frames (or terrains) in the picture. */
  total: number;
  /** A tileset's terrain names, left to right. */
  terrainNames: string[];
  /** A direction's words for a model ("facing the viewer"). */
  directionWords(direction: string): string;
}

/**
 * One asset type: everything the stage loop and the providers need to know of it, so a new type is a
 * new module and a row in ASSET_TYPE_MODULES (docs/where-to-change-what.md). Its output may be any
 * set of files (`files`), so a type whose asset is a map with files of its own fits as well.
 */
/**
 * The language of an optimised prompt's section bodies (the markers 【主题】【风格】【技术】 are the
 * spec's, in every language): the caller's `Accept-Language` (decision 0037).
 */
export type PromptLanguage = 'zh' | 'en';

export interface AssetTypeModule<T extends AssetType = AssetType> {
  readonly type: T;
  /** Accepts `params.width` / `params.height` (a canvas of its own). */
  readonly canvas: boolean;
  /** Has directions × frames and playback (`params.frames`, `params.animation` count its frames). */
  readonly framed: boolean;
  /**
   * The pixels a task of this type draws — width × height × frames, a set's tiles — what the budgets
   * count (a server's TASK_MAX_PIXELS and pixels in flight, with the pictures it reads).
   */
  pixels(params: GenerationParams): number;
  /** The problems of this type's own params, in words (after the shared checks of validate.ts). */
  problems(params: GenerationParams): string[];
  /** The frames a request gets: size, count, directions, names, transparency. */
  layout(params: GenerationParams, subjectText: string): ExpectedLayout;
  /** The template prompt's 【技术】 parts after the size, in Chinese or English (prompt.ts). */
  promptParts(params: Partial<GenerationParams>, language: PromptLanguage): string[];
  /** The size part of the 【技术】 section, when it is not the canvas or the resolution square. */
  promptSize?(params: Partial<GenerationParams>, language: PromptLanguage): string | null;
  /** What a model is asked to draw in its one picture, in English (after the shared pixel-art words). */
  modelPrompt(sheet: ModelSheet): string[];
  /** Fields of the provider's request beyond the shared ones (a tileset's kind and tile size, a level's tiles and props). */
  providerRequest?(params: GenerationParams, run: RunContext): Partial<ImageRequest>;
  /**
   * Only the built-in generator draws it (a level: its tiles and props come from the generator's
   * drawings); a model provider is refused before any stage, with this reason.
   */
  readonly modelRefusal?: string;
  /**
   * After any provider drew (and a model's pictures were read): the asset put together from what was
   * drawn — a level grown with the attempt's seed, tiled and previewed. Absent: the drawing is the asset.
   */
  assemble?(
    generated: GeneratedAsset,
    run: RunContext & { params: GenerationParams; layout: ExpectedLayout; seed: number },
  ): GeneratedAsset;
  /** Quality checks of its own after the shared ones (a level's: joined, placed, by the rules, no seams). */
  checks?(generated: GeneratedAsset): QualityCheck[];
  /** A model's pictures → native pixel art (pixelize, or tiles cut from terrain pictures). */
  fromModel(pictures: ModelPictures): FromModel;
  /**
   * The model-output checks after the shared ones (quality-model.ts), or null for none: `tileable`
   * is the axis a tileable picture must wrap on.
   */
  readonly modelChecks: { tileable: 'x' | 'xy' } | null;
  /** The files the run writes, and the assets it reports. */
  files(ctx: OutputContext): OutputFiles;
}
