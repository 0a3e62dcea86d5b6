import { sha256Hex, systemClock } from '../defaults.js';
import type { QueueEvent, TaskOutcome } from '../queue.js';
import { DuplicateKeyError, type Store, type TaskRecord } from '../store.js';
import type {
  WebhookDeliveryRecord,
  WebhookDeliveryType,
  WebhookEventType,
  WebhookRecord,
} from './records.js';
import { MAX_WEBHOOKS_PER_PROJECT } from './service.js';

/** The deterministic event id of a task event for one webhook (the same whichever worker enqueues it). */
export async function taskEventId(
  webhookId: string,
  taskId: string,
  type: WebhookDeliveryType,
  seq?: number,
): Promise<string> {
  const hex = await sha256Hex(`${webhookId}\u0000${taskId}\u0000${type}\u0000${seq ?? ''}`);
  return `msg_${hex.slice(0, 32)}`;
}

/** What the task run tells the outbox (see `runClaimedTask`'s `webhooks` option). */
export interface TaskWebhookRun {
  /**
   * Queues the terminal event (task.completed / task.failed) BEFORE the task is ended, so a worker
   * that dies in between loses nothing: the next owner queues the same ids again (stored once), and
   * the dispatcher sends a terminal event only once the task has really ended that way.
   */
  finishing(outcome: TaskOutcome): Promise<void>;
  /** Queues a task.stage event after its progress event was recorded. */
  recorded(event: QueueEvent): Promise<void>;
}

/** Creates the per-run outbox writers of task events. */
export interface TaskWebhookOutbox {
  forTask(task: TaskRecord): TaskWebhookRun;
}

export interface TaskWebhookOutboxOptions {
  store: Pick<Store, 'webhooks' | 'webhookDeliveries'>;
  now?: () => Date;
  /** Told after deliveries were queued (an in-process dispatcher starts at once). */
  onQueued?: () => void;
}

/**
 * The outbox of task events: for each enabled webhook of the task's project that subscribes to the
 * event type, one delivery record (id deterministic, payload the exact JSON to sign and send). The
 * project's webhooks are read once per run, at its first event: a webhook registered while a task
 * runs receives the events of the tasks that start after it.
 */
export function createTaskWebhookOutbox(options: TaskWebhookOutboxOptions): TaskWebhookOutbox {
  const { store } = options;
  const now = options.now ?? (() => systemClock.now());

  return {
    forTask(task) {
      let hooks: Promise<WebhookRecord[]> | undefined;
      const subscribed = async (type: WebhookEventType): Promise<WebhookRecord[]> => {
        hooks ??= store.webhooks.listByProject(task.projectId, MAX_WEBHOOKS_PER_PROJECT);
        let list: WebhookRecord[];
        try {
          list = await hooks;
        } catch (error) {
          hooks = undefined; // read again next time
          throw error;
        }
        return list.filter((w) => w.enabled && w.events.includes(type));
      };

      async function queue(
        type: WebhookEventType,
        data: Record<string, unknown>,
        seq?: number,
      ): Promise<void> {
        const targets = await subscribed(type);
        if (targets.length === 0) return;
        const at = now();
        const payload = JSON.stringify({ type, timestamp: at.toISOString(), data });
        for (const webhook of targets) {
          const record: WebhookDeliveryRecord = {
            id: await taskEventId(webhook.id, task.id, type, seq),
            webhookId: webhook.id,
            projectId: task.projectId,
            ownerId: task.ownerId,
            taskId: task.id,
            type,
            payload,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: at,
            lease: null,
            log: [],
            createdAt: at,
            updatedAt: at,
          };
          try {
            await store.webhookDeliveries.insert(record);
          } catch (error) {
            // Queued already by an attempt that died before it ended the task: stored once.
            if (!(error instanceof DuplicateKeyError)) throw error;
          }
        }
        options.onQueued?.();
      }

      return {
        async finishing(outcome) {
          const base = { taskId: task.id, projectId: task.projectId };
          if (outcome.status === 'completed') {
            await queue('task.completed', {
              ...base,
              status: 'completed',
              stage: 'format_adapter',
              progress: 100,
              retryCount: outcome.retryCount ?? task.retryCount,
              error: null,
              assets: outcome.assets.map((a) => ({
                key: a.key,
                format: a.format,
                width: a.width,
                height: a.height,
              })),
            });
          } else {
            await queue('task.failed', {
              ...base,
              status: 'failed',
              stage: outcome.stage ?? task.stage,
              progress: outcome.progress ?? task.progress,
              retryCount: outcome.retryCount ?? task.retryCount,
              error: outcome.error,
            });
          }
        },
        async recorded(event) {
          const { result: _result, ...rest } = event as QueueEvent & { result?: unknown };
          await queue('task.stage', { taskId: task.id, projectId: task.projectId, event: rest }, event.seq);
        },
      };
    },
  };
}
