import { type RunPipelineOptions, runPipelineWith } from './pipeline.js';
import type { PipelineRequest, PipelineResult } from './types/index.js';

/**
 * Runs prompt_optimizer → asset_generator → quality_supervisor (→ retry) → format_adapter and
 * emits PipelineProgress events as spec 000 lists them. Never rejects: failures come back as
 * `{ ok: false, code, error }` after a final `failed` event carrying `error`.
 *
 * Draws with `options.providers.image`: the pipeline knows no provider of its own. The built-in
 * generator is `createProceduralProvider()` of @assetloom/generator, whose own `runPipeline` draws
 * with it when no provider is given.
 */
export function runPipeline(request: PipelineRequest, options: RunPipelineOptions): Promise<PipelineResult> {
  const image = (options as Partial<RunPipelineOptions> | null | undefined)?.providers?.image;
  if (!image) {
    return Promise.resolve({
      ok: false,
      code: 'invalid_request',
      error:
        '[assetloom/pipeline] no image provider: pass options.providers.image (a model provider, or createProceduralProvider() of @assetloom/generator), or call runPipeline of @assetloom/generator, which draws with the built-in generator by default',
      retryCount: 0,
    });
  }
  return runPipelineWith(image, request, options);
}
