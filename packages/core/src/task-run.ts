import {
  type ImageProvider,
  type LlmConfig,
  overallProgress,
  type PipelineAsset,
  type PipelineProgressEvent,
  type PipelineRequest,
  type PipelineResult,
  type RunPipelineOptions,
  runPipeline,
  type StoragePort,
  taskStageOf,
  taskStatusOf,
} from '@assetloom/pipeline';
import type { ClaimedTask, ProgressPatch, QueueEvent, TaskOutcome } from './queue.js';
import type { AssetRecord, Store, TaskRecord } from './store.js';
import type { TaskPictures } from './uploads/service.js';
import type { TaskWebhookOutbox } from './webhooks/outbox.js';

/** The asset as events and the assets endpoint present it (the URL is signed when sent). */
export interface StoredAssetView {
  key: string;
  format: string;
  width: number;
  height: number;
  metadata: Record<string, unknown>;
}

/** Raised (or used as an abort reason) when a task attempt is stopped: shutdown, lease lost, mock stop. */
export class TaskStoppedError extends Error {
  override readonly name = 'TaskStoppedError';
}

/** The asset record a finished task stores for one pipeline asset. */
export function toAssetRecord(
  asset: PipelineAsset,
  task: Pick<TaskRecord, 'id' | 'projectId' | 'ownerId'>,
  at: Date,
): AssetRecord {
  return {
    taskId: task.id,
    projectId: task.projectId,
    ownerId: task.ownerId,
    key: asset.key,
    format: asset.format,
    width: asset.width,
    height: asset.height,
    metadata: asset.metadata as unknown as Record<string, unknown>,
    contentType: asset.contentType,
    createdAt: at,
  };
}

/** The asset as the terminal event carries it. */
export function toAssetView(asset: Pick<PipelineAsset, 'key' | 'format' | 'width' | 'height' | 'metadata'>) {
  const view: StoredAssetView = {
    key: asset.key,
    format: asset.format,
    width: asset.width,
    height: asset.height,
    metadata: asset.metadata as unknown as Record<string, unknown>,
  };
  return view;
}

/** What one pipeline event does to its task: a progress record, or the end of the task. */
export type TaskEventUpdate =
  | { kind: 'progress'; event: QueueEvent; patch: ProgressPatch }
  | { kind: 'finish'; event: QueueEvent; outcome: TaskOutcome };

/**
 * The one rule mapping a pipeline event to the task record (server worker and mock alike): the
 * format_adapter completion finishes the task with its assets; a failed event carrying `error` fails
 * it (stage and progress where it stopped); every other event moves stage and progress, with status
 * `saving` while format_adapter runs and `running` before. `retryCount` is the attempt's count so far
 * (the caller keeps it from `event.retryCount`).
 */
export function taskUpdateFor(
  event: PipelineProgressEvent,
  context: { task: Pick<TaskRecord, 'id' | 'projectId' | 'ownerId'>; retryCount: number; at: Date },
): TaskEventUpdate {
  const { retryCount } = context;
  if (event.stage === 'format_adapter' && event.status === 'completed') {
    const assets = event.result?.assets ?? [];
    return {
      kind: 'finish',
      event: { ...event, result: { assets: assets.map(toAssetView) } },
      outcome: {
        status: 'completed',
        assets: assets.map((a) => toAssetRecord(a, context.task, context.at)),
        retryCount,
      },
    };
  }
  if (event.status === 'failed' && typeof event.error === 'string') {
    return {
      kind: 'finish',
      event: { ...event },
      outcome: {
        status: 'failed',
        error: event.error,
        retryCount,
        stage: taskStageOf(event.stage),
        progress: overallProgress(event),
      },
    };
  }
  return {
    kind: 'progress',
    event: { ...event },
    patch: {
      stage: taskStageOf(event.stage),
      progress: overallProgress(event),
      retryCount,
      status: taskStatusOf(event.stage),
    },
  };
}

export interface RunClaimedTaskOptions {
  /** Where the project (its style) is read. */
  store: Pick<Store, 'projects'>;
  /** Where the pipeline writes files. */
  storage: StoragePort;
  /** Aborting stops the attempt: nothing more is written (the pipeline ends with event_sink_failed). */
  signal: AbortSignal;
  /** Quality retries per attempt. */
  maxQualityRetries: number;
  /** Prompt optimizer LLM; null → template. */
  llm: LlmConfig | null;
  /**
   * The image provider (the built-in one is `createProceduralProvider()` of @assetloom/generator: core
   * draws nothing itself). Null only with `runPipeline`, which brings its own.
   */
  imageProvider: ImageProvider | null;
  /**
   * Runs the pipeline; default `runPipeline` of @assetloom/pipeline on this thread with
   * `imageProvider`. The server passes its pipeline threads here (the runner then builds the image
   * provider from its own settings).
   */
  runPipeline?: (request: PipelineRequest, options: RunPipelineOptions) => Promise<PipelineResult>;
  /** The task's error when its project was deleted before it ran (name the package in it). */
  projectDeletedError: string;
  /** Limits of the attempt (TASK_ATTEMPT_CPU_SECONDS, TASK_ATTEMPT_WALL_SECONDS; issue #37). */
  deadline?: RunPipelineOptions['deadline'];
  /**
   * Waits between two events of the attempt (before every event but the first); the mock sleeps on
   * its virtual clock here. A throw ends the attempt like a failed write.
   */
  pause?: (signal: AbortSignal) => Promise<void>;
  /** When given, every event's `at` and the assets' `createdAt` come from it (virtual time). */
  now?: () => Date;
  /** Renew the lease after every progress record (a clock that jumps far ahead). */
  renewEachEvent?: boolean;
  /** The bytes the attempt stored so far (recorded on the task when it completes: the storage budget). */
  storedBytes?: () => number;
  /** Told after every persisted event. */
  notify?: (taskId: string) => void;
  /**
   * The pictures the task's params name (decision 0034): references to their stored PNGs and the
   * source the pipeline reads them from, decoded where it runs (issue #37). A rejection fails the
   * task with its message (an upload that is gone).
   */
  loadInputs?: (task: TaskRecord) => Promise<TaskPictures | undefined>;
  /**
   * Queues webhook deliveries of the task's events: the terminal one before the task is ended (so a
   * crash in between loses nothing), task.stage ones after each progress record.
   */
  webhooks?: TaskWebhookOutbox;
  /**
   * Removes what the attempt stored (its task's folder), called before a failure is recorded: a
   * failed task keeps no files, and a client that sees `failed` finds none left. A rejection is the
   * caller's to log; the failure is recorded all the same.
   */
  removeFiles?: () => Promise<void>;
}

/**
 * How an attempt ended: the pipeline's result, or `project_deleted` when there was nothing to run.
 * A failed result whose events could not all be recorded carries what the store threw
 * (`sinkError`), so the caller can name the real cause (a full disk) and fail the task with it.
 */
export type ClaimedTaskResult =
  | (PipelineResult & { sinkError?: unknown })
  | { ok: false; code: 'project_deleted'; error: string };

/**
 * Runs one claimed attempt of a task: reads the project, runs @assetloom/pipeline with the attempt's
 * first seq, and persists every event with the task record moves of `taskUpdateFor` (running →
 * saving → completed | failed; stage, progress, retryCount). Once `signal` aborts, nothing more is
 * written. Store failures end the pipeline (`event_sink_failed`); a lost lease is thrown by the
 * claim's writes as TaskLeaseLostError (reported through the result's `event_sink_failed` as well).
 */
export async function runClaimedTask(
  claimed: ClaimedTask,
  options: RunClaimedTaskOptions,
): Promise<ClaimedTaskResult> {
  const task = claimed.task;
  const { signal } = options;
  const project = await options.store.projects.byId(task.projectId);
  if (project === null) {
    // The project was deleted: its tasks go with it; nothing to produce.
    await claimed.finish({ status: 'failed', error: options.projectDeletedError }).catch(() => undefined);
    return { ok: false, code: 'project_deleted', error: options.projectDeletedError };
  }
  let inputs: TaskPictures | undefined;
  try {
    inputs = await options.loadInputs?.(task);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // failed at once, with a terminal failed event (a picture that is gone never comes back)
    await claimed.fail(message).catch(() => undefined);
    options.notify?.(task.id);
    return { ok: false, code: 'invalid_request', error: message, retryCount: task.retryCount };
  }
  let retryCount = task.retryCount;
  let first = true;
  const hooks = options.webhooks?.forTask(task);
  const run = options.runPipeline ?? runPipeline;
  let sinkError: unknown;
  const result = await run(
    {
      prompt: task.prompt,
      assetType: task.assetType,
      projectStyle: project.style,
      taskStyle: task.taskStyle,
      params: task.params,
      keyPrefix: `projects/${task.projectId}/tasks/${task.id}/`,
      ...(inputs === undefined ? {} : { inputRefs: inputs.refs }),
    },
    {
      storage: options.storage,
      signal,
      maxRetries: options.maxQualityRetries,
      startSeq: claimed.startSeq,
      ...(inputs === undefined ? {} : { pictures: inputs.pictures }),
      ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
      providers: {
        prompt: options.llm === null ? null : { llm: options.llm },
        image: options.imageProvider,
      },
      onEvent: async (raw: PipelineProgressEvent) => {
        if (!first && options.pause !== undefined) await options.pause(signal);
        first = false;
        // Stopping or lease lost: write nothing more; the next owner re-runs the task.
        if (signal.aborted) throw new TaskStoppedError('stopped');
        const event = options.now === undefined ? raw : { ...raw, at: options.now().toISOString() };
        if (event.retryCount !== undefined) retryCount = event.retryCount;
        const update = taskUpdateFor(event, { task, retryCount, at: options.now?.() ?? new Date() });
        try {
          if (update.kind === 'finish') {
            const outcome =
              update.outcome.status === 'completed' && options.storedBytes !== undefined
                ? { ...update.outcome, storedBytes: options.storedBytes() }
                : update.outcome;
            if (outcome.status === 'failed') await options.removeFiles?.().catch(() => undefined);
            await hooks?.finishing(outcome);
            await claimed.finish(outcome, update.event);
          } else {
            await claimed.record(update.event, update.patch);
            await hooks?.recorded(update.event);
            if (options.renewEachEvent) await claimed.renew();
          }
        } catch (error) {
          sinkError ??= error;
          throw error;
        }
        options.notify?.(task.id);
      },
    },
  );
  // A store that refused a write (the run's progress or its end) is named to the caller.
  return !result.ok && sinkError !== undefined ? { ...result, sinkError } : result;
}
