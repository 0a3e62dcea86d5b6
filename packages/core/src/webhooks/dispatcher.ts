import { systemClock } from '../defaults.js';
import type { Clock } from '../ports.js';
import type { Store } from '../store.js';
import { ACTIVE_TASK_STATUSES, type TaskStatus } from '../types.js';
import type {
  WebhookAttempt,
  WebhookDeliveryPatch,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './records.js';
import { DELIVERY_LOG_LENGTH } from './service.js';
import { signWebhook } from './signing.js';

/** One HTTP request of a delivery attempt. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborted at the attempt's timeout. */
  signal: AbortSignal;
}

/**
 * Sends one request and answers the receiver's status; throws when no answer came (refused
 * target, DNS, connection, timeout). The server's sender re-checks every resolved address.
 */
export type WebhookSend = (request: WebhookRequest) => Promise<{ status: number }>;

export interface WebhookDispatcherOptions {
  store: Pick<Store, 'webhooks' | 'webhookDeliveries' | 'tasks'>;
  send: WebhookSend;
  /** This dispatcher's id, recorded on the leases of its attempts. */
  owner: string;
  clock?: Clock;
  /** Attempts before a delivery is given up (default 10). */
  maxAttempts?: number;
  /** The first retry's delay; each next one doubles (default 10 000 ms). */
  retryBaseMs?: number;
  /** The longest delay between two attempts (default 6 h). */
  retryMaxMs?: number;
  /** One attempt's deadline (default 10 000 ms). */
  timeoutMs?: number;
  /** How long an attempt holds its delivery (default timeoutMs + 5 000): a dead worker's attempt ends then. */
  leaseMs?: number;
  /** Attempts under way at once (default 4). */
  concurrency?: number;
  /** Idle poll interval (default 1 000 ms). */
  pollMs?: number;
  /**
   * How long settled deliveries (delivered, failed, cancelled) stay in the log (default 30 days);
   * older ones are deleted by the loop, at most once an hour. 0 keeps them.
   */
  retentionMs?: number;
  /** [0, 1) random numbers for the jitter (Math.random by default). */
  random?: () => number;
  /** Told about failures of the loop itself (store errors); attempts' failures go to the delivery log. */
  onError?: (error: unknown, context: { what: string; deliveryId?: string }) => void;
}

export interface WebhookDispatcher {
  readonly owner: string;
  /** Starts the delivery loop (idempotent). */
  start(): void;
  /** Looks for due deliveries now. */
  wake(): void;
  /** Delivers what is due now, once; the number of deliveries looked at. */
  runOnce(): Promise<number>;
  /** Stops the loop and waits (at most `graceMs`) for the attempts under way. */
  stop(graceMs?: number): Promise<void>;
}

/** Delay before attempt `attempt + 1` after `attempt` failed: exponential, capped, "equal jitter". */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}

/**
 * Delivers the webhook outbox: claims due deliveries with a guarded update (attempts + 1, a lease),
 * signs each attempt (Standard Webhooks, a fresh timestamp, the stored payload and id), sends it, and
 * records the outcome: delivered on 2xx; else retried with exponential backoff and jitter until
 * `maxAttempts`. A worker killed mid-attempt leaves its lease, after which any dispatcher takes the
 * delivery up again (at least once; the receiver recognises a repeat by `webhook-id`). A terminal
 * task event waits while its task is still active and is cancelled when the task ended otherwise.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { store, send, owner } = options;
  const clock = options.clock ?? systemClock;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 10));
  const retryBaseMs = Math.max(1, Math.floor(options.retryBaseMs ?? 10_000));
  const retryMaxMs = Math.max(retryBaseMs, Math.floor(options.retryMaxMs ?? 6 * 60 * 60 * 1000));
  const timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? 10_000));
  const leaseMs = Math.max(timeoutMs + 100, Math.floor(options.leaseMs ?? timeoutMs + 5_000));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const pollMs = Math.max(10, Math.floor(options.pollMs ?? 1_000));
  const random = options.random ?? Math.random;
  const report = options.onError ?? (() => {});
  const retentionMs = Math.max(0, Math.floor(options.retentionMs ?? 30 * 24 * 60 * 60 * 1000));
  /** When the loop last pruned the log (0: not yet; the first prune runs at the first round). */
  let prunedAt = 0;

  let started = false;
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let loopDone: Promise<void> = Promise.resolve();
  const inFlight = new Set<Promise<void>>();
  /** Attempts of the current round that failed with an error of our own (store down): then idle. */
  let roundErrors = 0;

  const later = (ms: number) => new Date(clock.now().getTime() + ms);

  async function settle(
    d: WebhookDeliveryRecord,
    patch: Omit<WebhookDeliveryPatch, 'updatedAt'>,
  ): Promise<void> {
    await store.webhookDeliveries.updateIfAttempts(d.id, d.attempts, { ...patch, updatedAt: clock.now() });
  }

  async function attempt(
    due: WebhookDeliveryRecord,
    webhooks: Map<string, Promise<WebhookRecord | null>>,
    statuses: (taskId: string) => Promise<TaskStatus | undefined>,
  ): Promise<void> {
    // One read per webhook and round: a burst of events to one endpoint reads it once.
    let read = webhooks.get(due.webhookId);
    if (read === undefined) {
      read = store.webhooks.byId(due.webhookId);
      webhooks.set(due.webhookId, read);
      read.catch(() => webhooks.delete(due.webhookId));
    }
    const webhook = await read;
    if (webhook === null) return settle(due, { status: 'cancelled', nextAttemptAt: null, lease: null });
    if (!webhook.enabled && due.type !== 'webhook.ping') {
      return settle(due, { status: 'cancelled', nextAttemptAt: null, lease: null });
    }
    if ((due.type === 'task.completed' || due.type === 'task.failed') && due.taskId !== null) {
      const status = await statuses(due.taskId);
      if (status !== undefined && ACTIVE_TASK_STATUSES.includes(status)) {
        // Queued just before the task ends (or by a worker that died): look again shortly.
        return settle(due, { nextAttemptAt: later(Math.min(1_000, retryBaseMs)), lease: null });
      }
      const expected = due.type === 'task.completed' ? 'completed' : 'failed';
      if (status !== expected) {
        return settle(due, { status: 'cancelled', nextAttemptAt: null, lease: null });
      }
    }
    const claimed = await store.webhookDeliveries.updateIfAttempts(due.id, due.attempts, {
      attempts: due.attempts + 1,
      lease: { owner, until: later(leaseMs) },
      updatedAt: clock.now(),
    });
    if (claimed === null) return; // another dispatcher took it, or it settled

    const at = clock.now();
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        ...signWebhook(webhook.secret, claimed.id, at, claimed.payload),
        'content-type': 'application/json',
        'user-agent': 'Assetloom-Webhooks/1',
      };
      const answer = await send({
        url: webhook.url,
        headers,
        body: claimed.payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
      statusCode = answer.status;
      if (statusCode < 200 || statusCode > 299) error = `the receiver answered HTTP ${statusCode}`;
    } catch (err) {
      const e = err as { name?: string; message?: string };
      error =
        e?.name === 'TimeoutError' || e?.name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : String(e?.message ?? err).slice(0, 300);
    }
    const entry: WebhookAttempt = { at, statusCode, error, durationMs: Math.max(0, Date.now() - started) };
    const log = [...claimed.log, entry].slice(-DELIVERY_LOG_LENGTH);
    if (error === null) {
      await settle(claimed, { status: 'delivered', nextAttemptAt: null, lease: null, log });
    } else if (claimed.attempts >= maxAttempts) {
      await settle(claimed, { status: 'failed', nextAttemptAt: null, lease: null, log });
    } else {
      const delay = retryDelayMs(claimed.attempts, retryBaseMs, retryMaxMs, random);
      await settle(claimed, { nextAttemptAt: later(delay), lease: null, log });
    }
  }

  async function runOnce(): Promise<number> {
    const due = await store.webhookDeliveries.listDue(clock.now(), concurrency * 2);
    const queue = [...due];
    const webhooks = new Map<string, Promise<WebhookRecord | null>>();
    // The statuses of the round's terminal events' tasks: one command where the store can (statusByIds).
    const taskIds = [
      ...new Set(
        due.flatMap((d) =>
          d.taskId !== null && (d.type === 'task.completed' || d.type === 'task.failed') ? [d.taskId] : [],
        ),
      ),
    ];
    const batch =
      taskIds.length > 1 && store.tasks.statusByIds ? store.tasks.statusByIds(taskIds) : undefined;
    batch?.catch(() => undefined);
    const statuses = async (taskId: string): Promise<TaskStatus | undefined> => {
      if (batch !== undefined) return (await batch).get(taskId);
      return (await store.tasks.byId(taskId))?.status;
    };
    const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        if (stopping) return;
        const run = attempt(next, webhooks, statuses).catch((error: unknown) => {
          roundErrors++;
          report(error, { what: 'webhook delivery failed', deliveryId: next?.id });
        });
        inFlight.add(run);
        await run;
        inFlight.delete(run);
      }
    });
    await Promise.all(workers);
    return due.length;
  }

  function idle(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
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

  /** Deletes settled deliveries past the retention, at most once an hour per dispatcher. */
  async function prune(): Promise<void> {
    const now = clock.now().getTime();
    if (retentionMs === 0 || now - prunedAt < 60 * 60 * 1000) return;
    prunedAt = now;
    await store.webhookDeliveries
      .deleteSettledBefore(new Date(now - retentionMs))
      .catch((error: unknown) => report(error, { what: 'pruning the webhook delivery log failed' }));
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      await prune();
      let seen = 0;
      roundErrors = 0;
      try {
        seen = await runOnce();
      } catch (error) {
        report(error, { what: 'listing due webhook deliveries failed' });
      }
      if (stopping) break;
      // More may be due; but a round whose writes failed waits, so a store outage is not hammered.
      if (seen > 0 && roundErrors === 0) continue;
      await idle(pollMs);
    }
  }

  return {
    owner,
    start() {
      if (started) return;
      started = true;
      loopDone = loop();
    },
    wake() {
      const w = wakeUp;
      wakeUp = undefined;
      if (w) w();
      else woken = true;
    },
    runOnce,
    async stop(graceMs = 10_000) {
      stopping = true;
      const w = wakeUp;
      wakeUp = undefined;
      w?.();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all([loopDone, ...inFlight]), deadline]);
      clearTimeout(timer);
    },
  };
}
