import type { Store } from '@assetloom/core';
import { createMemoryRateLimiter } from '@assetloom/core/http';
import {
  createTaskWebhookOutbox,
  createWebhookDispatcher,
  createWebhookService,
  type TaskWebhookOutbox,
  type WebhookDispatcher,
  type WebhookService,
  type WebhookTargetPolicy,
} from '@assetloom/core/webhooks';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import { createWebhookSender, hostProblem } from './sender.js';

export { createWebhookSender, hostProblem, WebhookTargetError } from './sender.js';

/** The SSRF policy of the configuration (WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_HOSTS). */
export function webhookPolicyOf(config: Pick<ServerConfig, 'webhooks'>): WebhookTargetPolicy {
  return {
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    allowedHosts: config.webhooks.allowedHosts ?? [],
  };
}

/** The registration service the API's operation table serves (hosts resolved and checked at registration). */
export function webhookServiceFor(
  config: Pick<ServerConfig, 'webhooks'>,
  deps: { store: Store; onQueued?: () => void },
): WebhookService {
  const policy = webhookPolicyOf(config);
  return createWebhookService({
    store: deps.store,
    policy,
    checkHost: (hostname) => hostProblem(hostname, policy),
    pingLimiter: createMemoryRateLimiter({ limit: config.webhooks.pingsPerMinute, windowMs: 60_000 }),
    ...(deps.onQueued === undefined ? {} : { onQueued: deps.onQueued }),
  });
}

/** The outbox a generation worker writes its tasks' events into. */
export function webhookOutboxFor(store: Store, onQueued?: () => void): TaskWebhookOutbox {
  return createTaskWebhookOutbox({ store, ...(onQueued === undefined ? {} : { onQueued }) });
}

/**
 * The delivery loop of a worker process (in the API process with WORKER_IN_PROCESS, or
 * assetloom-worker): signs and sends due deliveries, every address checked again at delivery time.
 */
export function webhookDispatcherFor(
  config: Pick<ServerConfig, 'webhooks'>,
  deps: { store: Store; logger: Logger; owner: string },
): WebhookDispatcher {
  const log = deps.logger.child({ component: 'webhooks' });
  return createWebhookDispatcher({
    store: deps.store,
    send: createWebhookSender(webhookPolicyOf(config)),
    owner: deps.owner,
    timeoutMs: config.webhooks.timeoutMs,
    maxAttempts: config.webhooks.maxAttempts,
    retryBaseMs: config.webhooks.retryBaseMs,
    pollMs: config.webhooks.pollMs,
    retentionMs: config.webhooks.logRetentionDays * 24 * 60 * 60 * 1000,
    onError: (error, context) => log.warn({ err: error, ...context }, context.what),
  });
}
