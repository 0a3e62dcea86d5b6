export { DIRECTION_NAMES } from './directions.js';
export { PipelineError } from './errors.js';
export {
  composeSheet,
  FRAMES_PER_SECOND,
  type FrameRect,
  godotSpriteFrames,
  texturePackerAtlas,
} from './format.js';
export { layoutPages, MAX_PAGE_SIZE, type PageLayout, type SheetPage } from './formats/pages.js';
export { ANIMATION_DEFAULTS } from './formats/playback.js';
export { PARAM_DEFAULTS, PARAM_LIMITS } from './generated/params.js';
export { type InputRefusal, type SubmittedInputs, submissionRefusal } from './image-input/run.js';
export {
  ACTIONS,
  type Action,
  type BodyPlan,
  type ColorWord,
  type Feature,
  type Interpretation,
  type InterpretInput,
  interpret,
  KINDS,
  type KindSpec,
  SCENE_NAMES,
  type Scene,
  subjectText,
  type TimeOfDay,
  type Weather,
} from './interpret/index.js';
export { canvasSize, DEFAULT_FRAMES, type ExpectedLayout, expectedLayout } from './layout.js';
export { NAMED_PALETTES, parseHex, parsePalette, type Rgb, toHex } from './palette.js';
export type { RunPipelineOptions } from './pipeline.js';
export {
  detectGrid,
  type PixelGrid,
  type PixelizeOptions,
  type PixelizeResult,
  pixelize,
} from './pixelize.js';
export { type PixelizedFrames, type PixelizeFramesOptions, pixelizeFrames } from './pixelize-frames.js';
export { type DecodePngResult, decodePng, type EncodePngOptions, encodePng } from './png.js';
export { overallProgress, taskStageOf, taskStatusOf } from './progress.js';
export {
  buildMetaPrompt,
  DEFAULT_LLM_MAX_TOKENS,
  type LlmConfig,
  normalizeSections,
  type OptimizedPrompt,
  type OptimizePromptInput,
  optimizePrompt,
  type PromptOptimizerOptions,
  SECTION_MARKERS,
  templatePrompt,
} from './prompt.js';
export { type A1111ProviderOptions, createA1111Provider } from './providers/a1111.js';
export {
  type ComfyUIProviderOptions,
  type ComfyWorkflow,
  createComfyUIProvider,
  DEFAULT_COMFYUI_WORKFLOW,
} from './providers/comfyui.js';
export { createOpenAIImageProvider, type OpenAIImageProviderOptions } from './providers/openai-images.js';
export {
  createProceduralProvider,
  preflightProcedural,
  refusalMessage,
  renderProcedural,
} from './providers/procedural.js';
export { inspectQuality, type QualityInput } from './quality.js';
export {
  DEFAULT_MODEL_THRESHOLDS,
  gridError,
  inspectModelOutput,
  type ModelQualityInput,
  type ModelQualityThresholds,
} from './quality-model.js';
export { runPipeline } from './run.js';
export { deriveSeed, type SeedInput } from './seed.js';
export { createMemoryStorage, type MemoryStorage, type StoredObject } from './storage.js';
export { mergeStyles, type ResolvedStyle, resolveStyle } from './style.js';
export {
  godotTileSet,
  type TilesetDescription,
  type TilesetFileInput,
  tiledTileset,
  tilesetDescription,
} from './tileset/formats.js';
export { type RenderedTileset, renderTileset, type TilesetJob } from './tileset/generate.js';
export {
  type PaintedMap,
  paintMap,
} from './tileset/map.js';
export { TILESET_DEFAULTS, TILESET_LIMITS, tilesetParams } from './tileset/params.js';
export {
  BLOB_MASKS,
  blobTileFor,
  mayTouch,
  type PeeringBit,
  TILESET_KINDS,
  type TileRule,
  type TilesetRules,
  tilesetRules,
  touchingPairs,
  wangTileFor,
} from './tileset/rules.js';
export {
  innerDifference,
  jointDifference,
  measureSeams,
  SEAM_GOALS,
  type SeamPair,
  type SeamReport,
  seamScore,
} from './tileset/seams.js';
export {
  chooseTerrains,
  TERRAINS,
  type TerrainChoice,
  type TerrainName,
  type TerrainSpec,
} from './tileset/terrains.js';
export type {
  GeneratedAsset,
  ImageInputRefs,
  ImageInputs,
  ImageProvider,
  ImageRequest,
  PictureRef,
  PictureSource,
  PreflightResult,
  ProviderImageInputs,
} from './types/index.js';
export * from './types/index.js';
export { validateRequest } from './validate.js';
