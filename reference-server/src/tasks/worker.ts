import { hostname } from 'node:os';
import { randomId, type Store } from '@assetloom/core';
import {
  type ClaimedTask,
  createTaskQueue,
  type RunClaimedTaskOptions,
  runClaimedTask,
  TaskLeaseLostError,
  TaskStoppedError,
} from '@assetloom/core/queue';
import type { TaskWebhookOutbox, WebhookDispatcher } from '@assetloom/core/webhooks';
import type { ImageProvider, LlmConfig, StoragePort } from '@assetloom/pipeline';
import type { Logger } from 'pino';
import type { QueueSettings } from '../config.js';
import { isStorageFull, putNamingFullStorage, STORAGE_FULL } from '../internal/storage-full.js';
import type { ServerMetrics } from '../metrics.js';
import type { PutOptions } from '../storage/types.js';
import type { TaskNotifier } from './notifier.js';
import type { PipelineThreadPool } from './pipeline-threads.js';

/**
 * Where a worker's pipeline writes files: a StoragePort whose puts take the attempt's abort signal
 * (the server's ObjectStorage), and can remove a deleted project's folder (the worker's own sweep).
 */
export type WorkerStorage = StoragePort & {
  put(key: string, bytes: Uint8Array, contentType: string, options?: PutOptions): Promise<void>;
  deletePrefix?(prefix: string): Promise<void>;
};

/** Why an attempt was stopped because its task (its project) was deleted. */
export class TaskCancelledError extends TaskStoppedError {}

/**
 * A worker's queue settings: the fields of the server's `queue` settings group (ServerConfig.queue,
 * handed down whole by workerFor) — concurrency (WORKER_CONCURRENCY), claim lifetime (TASK_LEASE_MS,
 * renewed every third of it), idle poll interval (WORKER_POLL_MS), attempts before a task whose
 * workers keep dying is failed (TASK_MAX_ATTEMPTS), and optionally the cancel check
 * (TASK_CANCEL_CHECK_MS, default 1000: while tasks run, how often the worker asks the store — one
 * command for all of them — whether they still exist, so a project deleted through another process
 * stops its runs; 0 off) and the event batch window (EVENT_BATCH_MS, default 25: a
 * task's progress events arriving within it are written together, one guarded task update and one
 * events insert per batch; see createTaskQueue's batchMs; 0 writes each event before the pipeline goes on).
 */
export type WorkerQueueSettings = Pick<QueueSettings, 'concurrency' | 'leaseMs' | 'pollMs' | 'maxAttempts'> &
  Partial<
    Pick<
      QueueSettings,
      'cancelCheckMs' | 'eventBatchMs' | 'userMaxRunning' | 'attemptCpuSeconds' | 'attemptWallSeconds'
    >
  >;

export interface GenerationWorkerOptions extends WorkerQueueSettings {
  store: Store;
  /** Where the pipeline writes files (the ObjectStorage satisfies it). */
  storage: WorkerStorage;
  logger: Logger;
  /** Quality retries per attempt (MAX_QUALITY_RETRIES). */
  maxQualityRetries: number;
  /** Prompt optimizer LLM; null → template. */
  llm: LlmConfig | null;
  /** Image provider; the procedural one by default. */
  imageProvider?: ImageProvider;
  /** Told about every persisted event (in-process WebSocket streams wake up at once). */
  notifier?: TaskNotifier;
  /** This worker's id; `<host>:<pid>:<random>` by default. */
  owner?: string;
  /** Webhooks: the outbox the tasks' events are queued in, and the loop that delivers them (started and stopped with the worker). */
  webhooks?: { outbox: TaskWebhookOutbox; dispatcher: WebhookDispatcher };
  /** Times stages and counts task outcomes (METRICS_ENABLED). */
  metrics?: ServerMetrics;
  /**
   * Pipeline threads (PIPELINE_THREADS) that draw the tasks off the event loop; closed when the
   * worker stops. Absent: the pipeline runs on the event loop with `imageProvider`.
   */
  threads?: PipelineThreadPool;
  /** Told when the store refused a write of a run (the server's /ready reports it). */
  onStoreWriteFailure?: (cause: unknown) => void;
  /** The pictures a task's params name, decoded (its uploads; decision 0034). */
  loadInputs?: RunClaimedTaskOptions['loadInputs'];
}

export interface GenerationWorker {
  readonly owner: string;
  /** Tasks running now. */
  readonly active: number;
  /**
   * Its pipeline threads alive now (0 without PIPELINE_THREADS): one after the first task, up to the
   * pool's size while tasks run at once, back to one when the others have been idle for
   * PIPELINE_THREAD_IDLE_MS (decision 0077).
   */
  readonly pipelineThreads: number;
  /** The webhook delivery loop this worker runs, if any. */
  readonly webhooks: WebhookDispatcher | null;
  /** Starts the claim loop (idempotent). */
  start(): void;
  /** Looks for work now (called after a submission in the same process). */
  wake(): void;
  /**
   * Stops claiming, lets running tasks finish for at most `graceMs`, then aborts the rest. Aborted
   * tasks write nothing more and release their claims, so another worker takes them over at once.
   */
  stop(graceMs?: number): Promise<void>;
  /**
   * Cancels the attempts of these tasks running here (their project was deleted): the abort reaches
   * the pipeline (threads included) and the puts in flight, what the attempt wrote is swept, and the
   * promise resolves once they have ended (at most `waitMs`, default 10 s).
   */
  cancel(taskIds: readonly string[], waitMs?: number): Promise<void>;
}

/**
 * A generation worker: claims tasks from the store's durable queue (claims by unique insert, see
 * @assetloom/core createTaskQueue), runs @assetloom/pipeline for each with the lease renewed while it
 * runs, persists every progress event with its sequence number and keeps the task record current
 * (status running → saving → completed | failed, stage, progress, retryCount, error).
 */
export function createGenerationWorker(options: GenerationWorkerOptions): GenerationWorker {
  const { store, logger } = options;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomId().slice(0, 8)}`;
  const queue = createTaskQueue({
    store,
    owner,
    leaseMs: options.leaseMs,
    maxAttempts: options.maxAttempts,
    batchMs: options.eventBatchMs ?? 25,
    // One account never holds every slot; the users holding the fewest run first (issue #37).
    userMaxRunning: options.userMaxRunning ?? 0,
    // In-process streams read a task's events as soon as they are stored.
    onPersisted: (taskId) => options.notifier?.notify(taskId),
    // A task failed as abandoned (attempts run out) gets its task.failed delivery too.
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks.outbox }),
  });
  const log = logger.child({ worker: owner });
  const running = new Map<string, { claimed: ClaimedTask; abort: AbortController; done: Promise<void> }>();
  const cancelCheckMs = Math.max(0, Math.floor(options.cancelCheckMs ?? 1000));
  let cancelTimer: NodeJS.Timeout | undefined;
  let checkingCancels = false;

  /** Every `cancelCheckMs` while tasks run: one read of their statuses; a task gone was deleted. */
  function watchForCancels(): void {
    if (cancelCheckMs === 0 || cancelTimer !== undefined || store.tasks.statusByIds === undefined) return;
    cancelTimer = setInterval(() => {
      if (running.size === 0) {
        clearInterval(cancelTimer);
        cancelTimer = undefined;
        return;
      }
      if (checkingCancels) return;
      checkingCancels = true;
      const ids = [...running.keys()];
      (store.tasks.statusByIds as NonNullable<Store['tasks']['statusByIds']>)
        .call(store.tasks, ids)
        .then(
          (statuses) => {
            for (const id of ids) {
              if (!statuses.has(id)) running.get(id)?.abort.abort(new TaskCancelledError('task deleted'));
            }
          },
          (error: unknown) => log.warn({ err: error }, 'checking running tasks for deletion failed'),
        )
        .finally(() => {
          checkingCancels = false;
        });
    }, cancelCheckMs);
    cancelTimer.unref();
  }

  /**
   * The attempt's view of the storage: every put carries the attempt's abort signal, and a put that
   * failed because the storage is full says so to the task's error (StorageFullError, exposed).
   */
  function attemptStorage(signal: AbortSignal) {
    const storage = options.storage;
    let stored = 0;
    return {
      put: async (key: string, bytes: Uint8Array, contentType: string) => {
        signal.throwIfAborted();
        await putNamingFullStorage(() => storage.put(key, bytes, contentType, { signal }));
        stored += bytes.byteLength;
      },
      // Files a pipeline thread wrote itself are counted when it reports them (pipeline-threads.ts).
      countStoredBytes: (n: number) => {
        stored += n;
      },
      storedBytes: () => stored,
    };
  }

  /** Removes what an attempt stored under its task's folder (a failed task keeps no files). */
  async function removeTaskFiles(claimed: ClaimedTask, taskLog: Logger): Promise<void> {
    await options.storage
      .deletePrefix?.(`projects/${claimed.task.projectId}/tasks/${claimed.task.id}/`)
      .catch((error: unknown) => taskLog.warn({ err: error }, "removing the failed task's files failed"));
  }

  /**
   * A run whose progress the store refused to record because the storage is full: the task fails now
   * with that cause (a few tries: a full disk often still takes the one small write) instead of
   * running on until its lease ends and being failed as abandoned. false when even that is refused.
   * What the attempt stored is removed first: a failed task keeps no files.
   */
  async function failForFullStorage(
    claimed: ClaimedTask,
    taskLog: Logger,
    cause: unknown,
    error: string,
  ): Promise<boolean> {
    // The files this attempt stored are the failed task's (it has no assets): removing them frees
    // the room its failure needs, where they had taken the last bytes a small store write needed.
    await removeTaskFiles(claimed, taskLog);
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        await options.webhooks?.outbox
          .forTask(claimed.task)
          .finishing({ status: 'failed', error, retryCount: claimed.task.retryCount })
          .catch(() => undefined);
        await claimed.fail(error);
        taskLog.warn({ err: cause }, 'task failed: the store could not record its progress (storage full)');
        return true;
      } catch (failure) {
        if (failure instanceof TaskLeaseLostError) return false;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
    taskLog.error(
      { err: cause },
      'the store is full and refused even the failure of the task; it is left to its lease',
    );
    return false;
  }

  /**
   * After an attempt that was stopped or lost its claim: when its task is gone with its project (a
   * delete), remove what the attempt may have written after the delete's own clean-up — files,
   * asset records, events, claims. A task taken over by another worker is left alone.
   */
  async function sweepIfDeleted(taskLog: Logger, task: ClaimedTask['task']): Promise<void> {
    try {
      if ((await store.tasks.byId(task.id)) !== null) return;
      if ((await store.projects.byId(task.projectId)) !== null) return;
      await options.storage.deletePrefix?.(`projects/${task.projectId}/`);
      await store.assets.deleteByProject(task.projectId);
      await store.events.deleteByTask([task.id]);
      await store.claims.deleteByTask([task.id]);
      taskLog.info('the project was deleted while the task ran; what the attempt wrote was removed');
    } catch (error) {
      taskLog.warn({ err: error }, 'removing what a cancelled attempt wrote failed');
    }
  }
  let started = false;
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let loopDone: Promise<void> = Promise.resolve();

  function wake(): void {
    const w = wakeUp;
    wakeUp = undefined;
    w?.();
  }

  function idle(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async function runOne(claimedTask: ClaimedTask, abort: AbortController): Promise<void> {
    const claimed = options.metrics?.observeClaimed(claimedTask) ?? claimedTask;
    const task = claimed.task;
    const taskLog = log.child({ taskId: task.id, attempt: claimed.attempt });
    let lastRenewOk = Date.now();
    const renewEvery = Math.max(50, Math.floor(options.leaseMs / 3));
    const renewTimer = setInterval(() => {
      claimed.renew().then(
        (ok) => {
          if (ok) {
            lastRenewOk = Date.now();
            return;
          }
          taskLog.warn('lease lost (another worker took the task over); stopping this attempt');
          abort.abort(new TaskStoppedError('lease lost'));
        },
        (error: unknown) => {
          taskLog.warn({ err: error }, 'lease renewal failed');
          if (Date.now() - lastRenewOk > options.leaseMs * 0.8) {
            abort.abort(new TaskStoppedError('lease could not be renewed'));
          }
        },
      );
    }, renewEvery);
    renewTimer.unref();

    let stopped = false;
    const storage = attemptStorage(abort.signal);
    const threads = options.threads;
    try {
      const result = await runClaimedTask(claimed, {
        store,
        storage,
        storedBytes: storage.storedBytes,
        signal: abort.signal,
        maxQualityRetries: options.maxQualityRetries,
        llm: options.llm,
        imageProvider: threads === undefined ? (options.imageProvider ?? null) : null,
        ...(threads === undefined
          ? {}
          : {
              // The thread writes the files itself when the attempt's storage wraps the pool's own driver.
              runPipeline: (request, runOptions) =>
                threads.run(request, runOptions, {
                  storage: options.storage,
                  countStoredBytes: storage.countStoredBytes,
                }),
            }),
        projectDeletedError: '[assetloom/server] the project was deleted',
        deadline: {
          cpuMs: (options.attemptCpuSeconds ?? 0) * 1000,
          wallMs: (options.attemptWallSeconds ?? 0) * 1000,
        },
        ...(options.loadInputs === undefined ? {} : { loadInputs: options.loadInputs }),
        ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks.outbox }),
        // before the failure is recorded: a client that sees `failed` finds no files left
        removeFiles: () => removeTaskFiles(claimed, taskLog),
      });
      if (!result.ok && result.code === 'project_deleted') {
        taskLog.info('the project was deleted; task failed');
      } else if (result.ok) {
        taskLog.info({ assets: result.assets.length, retryCount: result.retryCount }, 'task completed');
      } else if (result.code === 'event_sink_failed' || result.code === 'aborted') {
        stopped = true;
        const cause = 'sinkError' in result ? result.sinkError : undefined;
        if (abort.signal.aborted || claimed.lost || cause instanceof TaskLeaseLostError) {
          taskLog.info({ reason: String(abort.signal.reason ?? 'lease lost') }, 'attempt stopped');
        } else {
          options.onStoreWriteFailure?.(cause);
          const message = `[assetloom/server] the task could not record its progress: ${STORAGE_FULL}`;
          if (isStorageFull(cause) && (await failForFullStorage(claimed, taskLog, cause, message))) {
            // Failed at once with the real cause (decision 0031).
          } else {
            // Another store failure (a connection lost, a primary stepping down): a later attempt may
            // well succeed, so the task is left to the lease and claimed again when it ends.
            taskLog.error(
              { error: result.error, detail: result.detail, err: cause },
              'could not persist progress; the task will be retried',
            );
          }
        }
      } else if ('sinkError' in result && result.sinkError !== undefined && !claimed.lost) {
        // The run failed and the store refused to record even that (a full disk took the files and
        // the task's end alike): record the failure now, or leave it to the lease.
        stopped = true;
        options.onStoreWriteFailure?.(result.sinkError);
        if (
          !(
            isStorageFull(result.sinkError) &&
            (await failForFullStorage(claimed, taskLog, result.sinkError, result.error))
          )
        ) {
          taskLog.error(
            { error: result.error, detail: result.detail, err: result.sinkError },
            'could not record the failure of the task; it will be retried',
          );
        }
      } else {
        // The task's error is what clients see; the underlying error (paths, hosts, replies) is logged here.
        const failure = { code: result.code, error: result.error, detail: result.detail };
        if (result.code === 'storage_failed' || result.code === 'provider_failed') {
          taskLog.warn(failure, 'task failed');
        } else taskLog.info(failure, 'task failed');
        // (the files a failed save stored were removed before its failure was recorded: removeFiles)
      }
    } catch (error) {
      stopped = true;
      if (error instanceof TaskLeaseLostError) taskLog.info('lease lost; stopping this attempt');
      else taskLog.error({ err: error }, 'task attempt crashed; it will be retried when its lease ends');
    } finally {
      clearInterval(renewTimer);
      // Stopped by shutdown mid-run: hand the task back so another worker starts it at once.
      if (stopping && abort.signal.aborted && !claimed.lost) await claimed.release();
      // Cancelled (its project deleted) or its writes refused: sweep what it wrote after the delete.
      if (stopped || abort.signal.reason instanceof TaskCancelledError) await sweepIfDeleted(taskLog, task);
      options.notifier?.notify(task.id);
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      const free = options.concurrency - running.size;
      let claimedAny = false;
      if (free > 0) {
        try {
          const claimed = await queue.claim(free);
          for (const c of claimed) {
            if (stopping) break;
            claimedAny = true;
            const abort = new AbortController();
            const entry = { claimed: c, abort, done: Promise.resolve() };
            entry.done = runOne(c, abort).finally(() => {
              running.delete(c.task.id);
              wake();
            });
            running.set(c.task.id, entry);
            watchForCancels();
          }
        } catch (error) {
          log.error({ err: error }, 'claiming tasks failed; retrying after the poll interval');
        }
      }
      if (stopping) break;
      // More may be waiting when this round filled every free slot.
      if (claimedAny && running.size < options.concurrency) continue;
      await idle(options.pollMs);
    }
  }

  return {
    owner,
    get active() {
      return running.size;
    },
    webhooks: options.webhooks?.dispatcher ?? null,
    get pipelineThreads() {
      return options.threads?.live ?? 0;
    },
    start() {
      if (started) return;
      started = true;
      loopDone = loop().catch((error: unknown) => {
        log.fatal({ err: error }, 'worker loop crashed');
      });
      options.webhooks?.dispatcher.start();
      log.info({ concurrency: options.concurrency, leaseMs: options.leaseMs }, 'worker started');
      log.flush();
    },
    wake,
    async cancel(taskIds, waitMs = 10_000) {
      const entries = taskIds.flatMap((id) => {
        const entry = running.get(id);
        return entry === undefined ? [] : [entry];
      });
      if (entries.length === 0) return;
      for (const entry of entries) entry.abort.abort(new TaskCancelledError('project deleted'));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(entries.map((e) => e.done)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, waitMs);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    },
    async stop(graceMs = 10_000) {
      if (stopping) {
        await loopDone;
        return;
      }
      stopping = true;
      wake();
      const webhooksStopped = options.webhooks?.dispatcher.stop(graceMs) ?? Promise.resolve();
      await loopDone;
      const all = [...running.values()];
      if (all.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
          timer.unref();
        });
        await Promise.race([Promise.all(all.map((r) => r.done)), deadline]);
        clearTimeout(timer);
        for (const r of running.values()) r.abort.abort(new TaskStoppedError('worker stopping'));
        await Promise.all(all.map((r) => r.done));
      }
      await webhooksStopped;
      if (cancelTimer !== undefined) clearInterval(cancelTimer);
      cancelTimer = undefined;
      await options.threads?.close();
      log.info('worker stopped');
    },
  };
}
