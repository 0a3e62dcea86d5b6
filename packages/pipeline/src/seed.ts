import { hash53, stableStringify } from './pixel/random.js';
import type { AssetType, GenerationParams, StyleMap } from './types/index.js';

export interface SeedInput {
  prompt: string;
  assetType: AssetType;
  style: StyleMap;
  params: GenerationParams;
}

/**
 * A deterministic 53-bit seed from prompt, asset type, merged style and the request's own seed (key
 * order does not matter). Each quality retry uses `deriveSeed(input, attempt)` so a retry draws new
 * art. The size, the frame grid and the file format are not part of it: one request at 32 px and at
 * 64 px, or as one frame and as a sheet, is one design (a knight of seed 1 was gold at 64 px, green
 * at 32 and red at 128: issue #39, decision 0115).
 */
export function deriveSeed(input: SeedInput, attempt = 0): number {
  const base = stableStringify({
    prompt: input.prompt.trim(),
    assetType: input.assetType,
    style: input.style,
    // absent (undefined) leaves the seed of a request without one unchanged
    params: { seed: input.params.seed ?? undefined },
  });
  return hash53(attempt ? `${base}#${attempt}` : base);
}
