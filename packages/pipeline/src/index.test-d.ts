import { expectTypeOf, test } from 'vitest';
import {
  type OptimizedPrompt,
  optimizePrompt,
  type PipelineResult,
  type PipelineStage,
  runPipeline,
  taskStageOf,
} from './index.js';
import type { TaskStage } from './types/index.js';

test('public signatures', () => {
  expectTypeOf(runPipeline).returns.toEqualTypeOf<Promise<PipelineResult>>();
  expectTypeOf(optimizePrompt).returns.toEqualTypeOf<Promise<OptimizedPrompt>>();
  expectTypeOf(taskStageOf).parameter(0).toEqualTypeOf<PipelineStage>();
  expectTypeOf(taskStageOf).returns.toEqualTypeOf<TaskStage>();
  expectTypeOf<Extract<PipelineResult, { ok: false }>['code']>().toEqualTypeOf<
    | 'invalid_request'
    | 'quality_rejected'
    | 'provider_failed'
    | 'aborted'
    | 'storage_failed'
    | 'event_sink_failed'
    | 'subject_not_drawable'
    | 'unsupported'
    | 'deadline_exceeded'
  >();
});
