import { ASSET_TYPE_MODULES } from './asset-types/index.js';
import { canvasOf, type ExpectedLayout } from './asset-types/layout.js';
import type { AssetType, GenerationParams } from './types/index.js';

export { DEFAULT_FRAMES, type ExpectedLayout } from './asset-types/layout.js';

/**
 * The canvas a background or UI piece asked for (`params.width` × `params.height`, the one not
 * given being `resolution`), or null when it asked for none (or its type takes no canvas).
 */
export function canvasSize(
  assetType: AssetType,
  params: Pick<GenerationParams, 'resolution' | 'width' | 'height'>,
): { width: number; height: number } | null {
  return ASSET_TYPE_MODULES[assetType]?.canvas ? canvasOf(params) : null;
}

/** What a request asks for, frame by frame: its asset type's layout (asset-types/). */
export function expectedLayout(assetType: AssetType, params: GenerationParams, text: string): ExpectedLayout {
  return ASSET_TYPE_MODULES[assetType].layout(params, text);
}
