import {
  overallProgress as pipelineOverallProgress,
  taskStageOf as pipelineTaskStageOf,
  taskStatusOf as pipelineTaskStatusOf,
} from '@assetloom/pipeline/progress';
import type { PipelineProgress, Task } from './types.js';

// The server's own mapping from a progress event to the task's stage, status and progress, bundled
// from @assetloom/pipeline/progress (its one home) and typed with the contract's names here.

/** The task's overall progress (0–100, 25 per stage) after a PipelineProgress event. */
export const overallProgress: (event: Pick<PipelineProgress, 'stage' | 'status' | 'progress'>) => number =
  pipelineOverallProgress;

/** The task's `stage` for an event's stage (prompt_optimizer is prompt_builder on the task). */
export const taskStageOf: (stage: PipelineProgress['stage']) => Task['stage'] = pipelineTaskStageOf;

/** The task's `status` while a stage runs: `saving` during format_adapter, `running` before. */
export const taskStatusOf: (stage: PipelineProgress['stage']) => 'running' | 'saving' = pipelineTaskStatusOf;
