import type { Store } from '@assetloom/core';
import {
  type ClaimedTask,
  createTaskQueue,
  type RunClaimedTaskOptions,
  runClaimedTask,
  TaskLeaseLostError,
  TaskStoppedError,
} from '@assetloom/core/queue';
import type { TaskWebhookOutbox } from '@assetloom/core/webhooks';
import { createProceduralProvider } from '@assetloom/generator';
import type { ImageProvider, MemoryStorage } from '@assetloom/pipeline';
import type { MockClock } from './clock.js';

export interface TaskRunnerOptions {
  store: Store;
  storage: MemoryStorage;
  clock: MockClock;
  /** Virtual ms between two pipeline events of one task. */
  stepMs: () => number;
  maxQualityRetries: number;
  /** Told after every persisted event of a task. */
  notify: (taskId: string) => void;
  onError: (error: unknown, taskId: string) => void;
  /** Where the tasks' webhook events are queued. */
  webhooks?: TaskWebhookOutbox;
  /** The pictures a task names (its uploads, decoded). */
  loadInputs?: RunClaimedTaskOptions['loadInputs'];
}

export interface TaskRunner {
  /** Claims and starts every claimable task (called after a submission). */
  kick(): void;
  /** Tasks running now. */
  readonly active: number;
  /** True while some task is computing (not sleeping on the clock) or a claim is in flight. */
  readonly busy: boolean;
  /** Resolves when no task runs (real clock), or at once when none runs. */
  idle(): Promise<void>;
  /** The next `n` generated images are blank, so the quality supervisor rejects them. */
  rejectQualityNext(n: number): void;
  /** The next `n` generations throw in the image provider (`provider_failed`) with `message`. */
  failGenerationNext(n: number, message: string): void;
  /** Stops every running task (no more writes) and waits for them. */
  stop(): Promise<void>;
}

/**
 * The mock's generation worker: core's durable task queue over the in-memory store and the real
 * @assetloom/pipeline, with the same task-record moves as the server's worker (running → saving →
 * completed | failed; stage, progress, retryCount; every event persisted with its seq). Between two
 * events a task sleeps `stepMs` on the mock's clock, so tests can walk it stage by stage.
 */
export function createTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const { store, clock } = options;
  const queue = createTaskQueue({
    store,
    owner: 'assetloom-mock',
    // Virtual time may jump far ahead; leases are renewed on every event and never lapse in practice.
    leaseMs: 24 * 60 * 60 * 1000,
    maxAttempts: 3,
    clock: { now: () => clock.now() },
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
  });
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let computing = 0;
  let claiming = 0;
  let rejectBudget = 0;
  let failBudget = 0;
  let failMessage = 'injected provider failure';
  let idleWaiters: Array<() => void> = [];
  let stopped = false;

  const procedural = createProceduralProvider();
  const provider: ImageProvider = {
    name: 'procedural',
    async generate(request, ctx) {
      if (failBudget > 0) {
        failBudget--;
        // Marked fit for end users, so the task's error shows the message the test chose.
        throw Object.assign(new Error(failMessage), { expose: true });
      }
      const generated = await procedural.generate(request, ctx);
      if (rejectBudget > 0) {
        rejectBudget--;
        // A blank (fully transparent) image: the real quality supervisor rejects it (not_blank).
        return {
          ...generated,
          frames: generated.frames.map((f) => ({
            width: f.width,
            height: f.height,
            data: new Uint8Array(f.data.length),
          })),
        };
      }
      return generated;
    },
  };

  function settleIdle() {
    if (running.size > 0 || claiming > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  async function runOne(claimed: ClaimedTask, abort: AbortController): Promise<void> {
    const task = claimed.task;
    computing++;
    try {
      await runClaimedTask(claimed, {
        store,
        storage: options.storage,
        signal: abort.signal,
        maxQualityRetries: options.maxQualityRetries,
        llm: null,
        imageProvider: provider,
        projectDeletedError: '[assetloom/mock] the project was deleted',
        ...(options.loadInputs === undefined ? {} : { loadInputs: options.loadInputs }),
        // Time passes between two events; the task is "sleeping", not computing.
        pause: async (signal) => {
          computing--;
          try {
            await clock.sleep(options.stepMs(), signal);
          } finally {
            computing++;
          }
        },
        now: () => clock.now(),
        // Virtual time may jump far past the lease; renew it on every event.
        renewEachEvent: true,
        notify: options.notify,
        ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
      });
    } catch (error) {
      if (!(error instanceof TaskLeaseLostError) && !(error instanceof TaskStoppedError)) {
        options.onError(error, task.id);
      }
    } finally {
      computing--;
      options.notify(task.id);
    }
  }

  async function claimAll(): Promise<void> {
    claiming++;
    try {
      for (;;) {
        if (stopped) return;
        const claimed = await queue.claim(8);
        if (claimed.length === 0) return;
        for (const c of claimed) {
          const abort = new AbortController();
          const entry = { abort, done: Promise.resolve() };
          entry.done = runOne(c, abort).finally(() => {
            running.delete(c.task.id);
            settleIdle();
          });
          running.set(c.task.id, entry);
        }
      }
    } catch (error) {
      options.onError(error, '(claim)');
    } finally {
      claiming--;
      settleIdle();
    }
  }

  return {
    kick() {
      void claimAll();
    },
    get active() {
      return running.size;
    },
    get busy() {
      return computing > 0 || claiming > 0;
    },
    idle() {
      if (running.size === 0 && claiming === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    rejectQualityNext(n) {
      rejectBudget += Math.max(0, Math.floor(n));
    },
    failGenerationNext(n, message) {
      failBudget += Math.max(0, Math.floor(n));
      failMessage = message;
    },
    async stop() {
      stopped = true;
      for (const r of running.values()) r.abort.abort();
      await Promise.all([...running.values()].map((r) => r.done));
      rejectBudget = 0;
      failBudget = 0;
      stopped = false;
    },
  };
}
