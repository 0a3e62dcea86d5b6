import { hash53, stableStringify } from './pixel/random.js';
import type { AssetType, GenerationParams, StyleMap } from './types/index.js';

export interface SeedInput {
  prompt: string;
  assetType: AssetType;
  style: StyleMap;
  params: GenerationParams;
}

/**
 * A deterministic 53-bit seed from prompt, asset type, merged style and params (key order does
 * not matter). Each quality retry uses `deriveSeed(input, attempt)` so a retry draws new art.
 */
export function deriveSeed(input: SeedInput, attempt = 0): number {
  const base = stableStringify({
    prompt: input.prompt.trim(),
    assetType: input.assetType,
    style: input.style,
    params: {
      resolution: input.params.resolution,
      frames: input.params.frames ?? null,
      format: input.params.format,
      // absent (undefined) leaves the seed of a request without one unchanged
      seed: input.params.seed ?? undefined,
    },
  });
  return hash53(attempt ? `${base}#${attempt}` : base);
}
