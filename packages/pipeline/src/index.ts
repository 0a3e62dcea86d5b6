/**
 * `@assetloom/pipeline`: the four-stage pipeline (prompt_optimizer → asset_generator →
 * quality_supervisor → format_adapter) behind a provider port, its request and result types, and the
 * small pieces every caller needs (PNG codec, palettes, styles, storage, progress). The model
 * providers are `/providers`; pictures in `/inputs`; pixel tools `/pixel`; prompt reading `/interpret`; tilesets `/tileset`;
 * sheet layout and engine files `/formats`; the built-in generator is @assetloom/generator. Colour
 * helpers (`Rgb`, `parseHex`, `toHex`, `resolveStyle`) are `/pixel`'s; the tileset and animation
 * defaults are `/tileset`'s and `/formats`'s.
 *
 * @packageDocumentation
 */
export { assetTypeTraits } from './asset-types/index.js';
export { PipelineError } from './errors.js';
export { PARAM_DEFAULTS, PARAM_LIMITS } from './generated/params.js';
export { NAMED_PALETTES, parsePalette } from './palette.js';
export { type RunPipelineOptions, runPipelineWith } from './pipeline.js';
export { decodePng, type EncodePngOptions, encodePng } from './png.js';
export { overallProgress, taskStageOf, taskStatusOf } from './progress.js';
export {
  type LlmConfig,
  type OptimizedPrompt,
  type OptimizePromptInput,
  optimizePrompt,
  type PromptLanguage,
  templatePrompt,
} from './prompt.js';
export { runPipeline } from './run.js';
export { createMemoryStorage, type MemoryStorage, type StoredObject } from './storage.js';
export { mergeStyles } from './style.js';

export type {
  AnimationParams,
  AssetMetadata,
  AssetType,
  CharacterTaskParams,
  Directions,
  DrawingProvenance,
  GeneratedAsset,
  GenerationParams,
  ImageInputs,
  ImageProvider,
  ImageRequest,
  Interpretation,
  LevelArt,
  LevelDrawRequest,
  LevelMetadata,
  LevelParams,
  NineSlice,
  PipelineAsset,
  PipelineErrorCode,
  PipelineProgressEvent,
  PipelineRequest,
  PipelineResult,
  PipelineStage,
  PreflightResult,
  Provenance,
  ProviderImageInputs,
  QualityReport,
  RgbaImage,
  RigOutputFile,
  StoragePort,
  StyleMap,
  TilesetKind,
} from './types/index.js';

export { ASSET_TYPES } from './types/index.js';
export { validateRequest } from './validate.js';
