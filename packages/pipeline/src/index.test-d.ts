import { expectTypeOf, test } from 'vitest';
import {
  type GeneratedAsset,
  type OptimizedPrompt,
  optimizePrompt,
  type PipelineResult,
  type PipelineStage,
  renderProcedural,
  runPipeline,
  type TaskStage,
  taskStageOf,
} from './index.js';

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
  expectTypeOf(renderProcedural).returns.toEqualTypeOf<Promise<GeneratedAsset>>();
});
