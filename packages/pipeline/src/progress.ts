import {
  PIPELINE_STAGES,
  type PipelineProgressEvent,
  type PipelineStage,
  type TaskStage,
} from './types/index.js';

// The one home of the stage → task mapping. The server (via @assetloom/core), the mock, the SDK
// (which bundles this module from `@assetloom/pipeline/progress`) and the CLI (@assetloom/cli) all use it.

/** The task's `stage` value for a pipeline stage (prompt_optimizer is prompt_builder there). */
export function taskStageOf(stage: PipelineStage): TaskStage {
  return stage === 'prompt_optimizer' ? 'prompt_builder' : stage;
}

/** The task's `status` while a stage runs: `saving` during format_adapter, `running` before. */
export function taskStatusOf(stage: PipelineStage): 'running' | 'saving' {
  return stage === 'format_adapter' ? 'saving' : 'running';
}

/**
 * 0–100 across the four stages (each worth 25), for the task's `progress` field: a stage at p %
 * is `25 × index + p / 4`; a failed stage counts as not started. Unknown stages give 0.
 */
export function overallProgress(event: Pick<PipelineProgressEvent, 'stage' | 'status' | 'progress'>): number {
  const index = PIPELINE_STAGES.indexOf(event.stage);
  if (index < 0) return 0;
  const within = Math.max(0, Math.min(100, Number.isFinite(event.progress) ? event.progress : 0));
  if (event.status === 'failed') return index * 25;
  return Math.round(index * 25 + within / 4);
}
