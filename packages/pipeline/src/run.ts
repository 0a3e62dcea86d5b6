import { type RunPipelineOptions, runPipelineWith } from './pipeline.js';
import { createProceduralProvider } from './providers/procedural.js';
import type { PipelineRequest, PipelineResult } from './types/index.js';

/**
 * Runs prompt_optimizer → asset_generator → quality_supervisor (→ retry) → format_adapter and
 * emits PipelineProgress events as spec 000 lists them. Never rejects: failures come back as
 * `{ ok: false, code, error }` after a final `failed` event carrying `error`.
 *
 * Draws with `options.providers.image`, else with the built-in procedural provider. This module is
 * the only place that binds a provider to the pipeline's core (pipeline.ts).
 */
export function runPipeline(request: PipelineRequest, options: RunPipelineOptions): Promise<PipelineResult> {
  const image = (options as Partial<RunPipelineOptions> | null | undefined)?.providers?.image;
  return runPipelineWith(image ?? createProceduralProvider(), request, options);
}
