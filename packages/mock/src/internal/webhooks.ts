import type { Store } from '@assetloom/core';
import {
  createTaskWebhookOutbox,
  createWebhookDispatcher,
  createWebhookService,
  type TaskWebhookOutbox,
  type WebhookSend,
  type WebhookService,
  webhookUrlProblem,
} from '@assetloom/core/webhooks';
import type { MockClock } from './clock.js';

export interface MockWebhooksConfig {
  /** Where deliveries are sent (default: the global fetch at the time of sending). */
  fetch?: typeof fetch;
  allowPrivateTargets: boolean;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

/** The mock's webhooks: core's service, outbox and dispatcher over its store, sending through `fetch`. */
export interface MockWebhooks {
  service: WebhookService;
  outbox: TaskWebhookOutbox;
  /** Delivers what is due now (and schedules the next retry on the mock's clock). */
  kick(): void;
  /** Resolves when no delivery round runs. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const FAR_FUTURE = new Date(8_640_000_000_000_000);

export function createMockWebhooks(
  store: Store,
  clock: MockClock,
  config: MockWebhooksConfig,
  onError: (error: unknown, context: string) => void,
): MockWebhooks {
  const policy = { allowPrivateTargets: config.allowPrivateTargets };
  // No DNS in a browser: the URL is judged as written (IP literals and localhost names).
  const send: WebhookSend = async ({ url, headers, body, signal }) => {
    const problem = webhookUrlProblem(url, policy);
    if (problem !== undefined) throw new Error(`refused target: ${problem}`);
    const fetchFn = config.fetch ?? globalThis.fetch;
    const res = await fetchFn(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  };
  let kickRef: () => void = () => {};
  const dispatcher = createWebhookDispatcher({
    store,
    send,
    owner: 'assetloom-mock',
    clock: { now: () => clock.now() },
    retryBaseMs: config.retryBaseMs,
    maxAttempts: config.maxAttempts,
    timeoutMs: config.timeoutMs,
    onError: (error, context) => onError(error, context.what),
  });
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let scheduledAt = Number.POSITIVE_INFINITY;

  async function round(): Promise<void> {
    do {
      again = false;
      while (!stop.signal.aborted && (await dispatcher.runOnce()) > 0) {
        // more may be due
      }
    } while (again && !stop.signal.aborted);
    // The next retry (or a terminal event waiting for its task): wake up then, on the mock's clock.
    const [next] = await store.webhookDeliveries.listDue(FAR_FUTURE, 1);
    const due = next?.nextAttemptAt?.getTime();
    if (due !== undefined && !stop.signal.aborted && due < scheduledAt) {
      scheduledAt = due;
      void clock.sleep(Math.max(0, due - clock.now().getTime()), stop.signal).then(() => {
        scheduledAt = Number.POSITIVE_INFINITY;
        if (!stop.signal.aborted) kickRef();
      });
    }
  }

  function kick(): void {
    if (stop.signal.aborted) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = round()
      .catch((error: unknown) => onError(error, 'webhook delivery'))
      .finally(() => {
        running = undefined;
      });
  }
  kickRef = kick;

  return {
    service: createWebhookService({ store, clock: { now: () => clock.now() }, policy, onQueued: kick }),
    outbox: createTaskWebhookOutbox({ store, now: () => clock.now(), onQueued: kick }),
    kick,
    async idle() {
      while (running !== undefined) await running;
    },
    async stop() {
      stop.abort();
      await running;
      await dispatcher.stop(0);
    },
  };
}
