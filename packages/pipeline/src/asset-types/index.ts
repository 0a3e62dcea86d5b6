/**
 * The asset types, one module each, in one typed table the stage loop (pipeline.ts), the layout,
 * the request checks, the template prompt, the model providers and the format adapter read. A new
 * asset type is a new module and a row here (docs/where-to-change-what.md).
 */
import type { AssetType, GenerationParams } from '../types/index.js';
import { background } from './background.js';
import { animation, sprite } from './framed.js';
import { level } from './level.js';
import { tileset } from './tileset.js';
import type { AssetTypeModule } from './types.js';
import { ui } from './ui.js';

export const ASSET_TYPE_MODULES: { readonly [T in AssetType]: AssetTypeModule<T> } = {
  sprite,
  background,
  ui,
  animation,
  tileset,
  level,
};

/**
 * What callers outside the pipeline (request normalisation, a UI) need of an asset type: whether it
 * takes a canvas of its own (`params.width` / `params.height`) and whether it has directions ×
 * frames (`params.frames`, `params.animation`).
 */
export function assetTypeTraits(type: AssetType): {
  canvas: boolean;
  framed: boolean;
  /** The pixels a task of the type draws (what the budgets count). */
  pixels(params: GenerationParams): number;
} {
  const { canvas, framed, pixels } = ASSET_TYPE_MODULES[type];
  return { canvas, framed, pixels };
}

/** The module of an asset type (undefined for a name that is none). */
export function assetTypeModule(type: unknown): AssetTypeModule | undefined {
  return typeof type === 'string' && Object.hasOwn(ASSET_TYPE_MODULES, type)
    ? ASSET_TYPE_MODULES[type as AssetType]
    : undefined;
}

export type { AssetTypeModule } from './types.js';
