import {
  type PipelineRequest,
  type PipelineResult,
  type RunPipelineOptions,
  runPipelineWith,
} from '@assetloom/pipeline';
import { createProceduralProvider } from './provider.js';

/**
 * Runs the pipeline (prompt_optimizer → asset_generator → quality_supervisor (→ retry) →
 * format_adapter, see @assetloom/pipeline) with `options.providers.image`, else with the built-in
 * generator. Never rejects: failures come back as `{ ok: false, code, error }` after a final
 * `failed` event carrying `error`.
 */
export function runPipeline(request: PipelineRequest, options: RunPipelineOptions): Promise<PipelineResult> {
  const image = (options as Partial<RunPipelineOptions> | null | undefined)?.providers?.image;
  return runPipelineWith(image ?? createProceduralProvider(), request, options);
}
