/**
 * The bottom layer: plain types (and a few constant lists) that every other module of the pipeline
 * and its providers import, and that import nothing but each other — so the pipeline has no import
 * cycle through its types (decision 0042).
 */
export type { RgbaImage } from './image.js';
export type {
  ImageInputRefs,
  ImageInputs,
  LevelTilesetInput,
  PictureRef,
  PictureSource,
  ProviderImageInputs,
} from './inputs.js';
export * from './interpretation.js';
export type { LevelArt, LevelAssembly, LevelDrawRequest, LevelMetadata, LevelParams } from './level.js';
export type {
  GeneratedAsset,
  ImageProvider,
  ImageRequest,
  PreflightResult,
  RigOutputFile,
} from './provider.js';
export * from './request.js';
