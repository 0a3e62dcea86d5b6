import type { AssetApiSchemas } from '@assetloom/openapi';
import { ID_PATTERN, randomIds, systemClock } from '../defaults.js';
import { errors } from '../errors.js';
import type { Clock, IdGenerator, RateLimiter } from '../ports.js';
import type { Store } from '../store.js';
import type { AuthUser, PageInput } from '../types.js';
import type { WebhookDeliveryRecord, WebhookEventType, WebhookPatch, WebhookRecord } from './records.js';
import { newWebhookSecret, randomEventId } from './signing.js';
import { type WebhookTargetPolicy, webhookTargetProblem, webhookUrlSyntaxProblem } from './targets.js';

export type Webhook = AssetApiSchemas['Webhook'];
export type WebhookCreated = AssetApiSchemas['WebhookCreated'];
export type WebhookDelivery = AssetApiSchemas['WebhookDelivery'];
export type CreateWebhookInput = AssetApiSchemas['CreateWebhookRequest'];
export type UpdateWebhookInput = AssetApiSchemas['UpdateWebhookRequest'];

/** Webhooks a project may hold. */
export const MAX_WEBHOOKS_PER_PROJECT = 10;
/** Attempts kept in a delivery's log. */
export const DELIVERY_LOG_LENGTH = 20;

export interface WebhookServiceDeps {
  store: Store;
  clock?: Clock;
  ids?: IdGenerator;
  /** Which targets are allowed (private ones only for development). */
  policy?: WebhookTargetPolicy;
  /**
   * Resolves a named host and answers why it may not receive webhooks (the server: every address
   * DNS gives must pass `addressProblem`); undefined when it may — also when it does not resolve
   * now (each delivery resolves and checks again). Without it only the URL is judged.
   */
  checkHost?: (hostname: string) => Promise<string | undefined>;
  /** Pings per user (429 beyond). */
  pingLimiter?: RateLimiter;
  /** Told about every delivery queued here (pings): an in-process dispatcher starts at once. */
  onQueued?: () => void;
}

/** The registration and delivery-log operations of the contract's `webhooks` tag. */
export interface WebhookService {
  list(user: AuthUser, projectId: string): Promise<{ webhooks: Webhook[] }>;
  create(user: AuthUser, projectId: string, input: CreateWebhookInput): Promise<WebhookCreated>;
  get(user: AuthUser, projectId: string, webhookId: string): Promise<Webhook>;
  update(user: AuthUser, projectId: string, webhookId: string, input: UpdateWebhookInput): Promise<Webhook>;
  delete(user: AuthUser, projectId: string, webhookId: string): Promise<void>;
  ping(user: AuthUser, projectId: string, webhookId: string): Promise<WebhookDelivery>;
  deliveries(
    user: AuthUser,
    projectId: string,
    webhookId: string,
    page: PageInput,
  ): Promise<{ total: number; deliveries: WebhookDelivery[] }>;
  /** Drops a deleted project's webhooks and deliveries (the project's ownership was checked by the caller). */
  deleteProject(projectId: string): Promise<void>;
}

export function toWebhook(w: WebhookRecord): Webhook {
  return {
    id: w.id,
    projectId: w.projectId,
    url: w.url,
    events: [...w.events],
    description: w.description,
    enabled: w.enabled,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function toWebhookDelivery(d: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    webhookId: d.webhookId,
    type: d.type,
    taskId: d.taskId,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt === null ? null : d.nextAttemptAt.toISOString(),
    log: d.log.map((a) => ({
      at: a.at.toISOString(),
      statusCode: a.statusCode,
      error: a.error,
      durationMs: a.durationMs,
    })),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

/**
 * Webhook registration over the storage port. The caller (the operation table) has checked that the
 * project exists and is the user's (404/403) before any call here; a webhook of another project
 * answers 404 `Webhook 不存在` like an unknown one.
 */
export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  const { store } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  const policy = deps.policy ?? {};

  /** 400 for a URL that is not one; 403 for a target the policy refuses (SSRF guard). */
  async function checkUrl(url: string): Promise<void> {
    const invalid = webhookUrlSyntaxProblem(url);
    if (invalid !== undefined)
      throw errors.invalid([{ in: 'body', path: '/url', rule: 'url' }], { url: invalid });
    const refused = webhookTargetProblem(url, policy);
    if (refused !== undefined) throw errors.webhookTargetRefused({ url: refused });
    if (deps.checkHost !== undefined && policy.allowPrivateTargets !== true) {
      const hostProblem = await deps.checkHost(new URL(url).hostname);
      if (hostProblem !== undefined) throw errors.webhookTargetRefused({ url: hostProblem });
    }
  }

  async function own(user: AuthUser, projectId: string, webhookId: string): Promise<WebhookRecord> {
    if (!ID_PATTERN.test(webhookId)) throw errors.webhookNotFound();
    const webhook = await store.webhooks.byId(webhookId);
    if (webhook === null || webhook.projectId !== projectId || webhook.ownerId !== user.id) {
      throw errors.webhookNotFound();
    }
    return webhook;
  }

  return {
    async list(_user, projectId) {
      const list = await store.webhooks.listByProject(projectId, MAX_WEBHOOKS_PER_PROJECT);
      return { webhooks: list.map(toWebhook) };
    },
    async create(user, projectId, input) {
      await checkUrl(input.url);
      const existing = await store.webhooks.listByProject(projectId, MAX_WEBHOOKS_PER_PROJECT);
      if (existing.length >= MAX_WEBHOOKS_PER_PROJECT) {
        throw errors.webhookLimit(MAX_WEBHOOKS_PER_PROJECT);
      }
      const now = clock.now();
      const record: WebhookRecord = {
        id: ids.id(),
        projectId,
        ownerId: user.id,
        url: input.url,
        events: [...new Set(input.events)] as WebhookEventType[],
        description: input.description ?? '',
        enabled: input.enabled ?? true,
        secret: newWebhookSecret(),
        createdAt: now,
        updatedAt: now,
      };
      await store.webhooks.insert(record);
      return { ...toWebhook(record), secret: record.secret };
    },
    async get(user, projectId, webhookId) {
      return toWebhook(await own(user, projectId, webhookId));
    },
    async update(user, projectId, webhookId, input) {
      await own(user, projectId, webhookId);
      if (input.url !== undefined) await checkUrl(input.url);
      const patch: WebhookPatch = { updatedAt: clock.now() };
      if (input.url !== undefined) patch.url = input.url;
      if (input.events !== undefined) patch.events = [...new Set(input.events)] as WebhookEventType[];
      if (input.description !== undefined) patch.description = input.description;
      if (input.enabled !== undefined) patch.enabled = input.enabled;
      const updated = await store.webhooks.update(webhookId, patch);
      if (updated === null) throw errors.webhookNotFound();
      return toWebhook(updated);
    },
    async delete(user, projectId, webhookId) {
      await own(user, projectId, webhookId);
      await store.webhooks.delete(webhookId);
      await store.webhookDeliveries.deleteByWebhook(webhookId);
    },
    async ping(user, projectId, webhookId) {
      const webhook = await own(user, projectId, webhookId);
      if (deps.pingLimiter !== undefined) {
        const limited = await deps.pingLimiter.hit(`ping|${user.id}`);
        if (!limited.allowed) throw errors.tooManyRequests(limited.retryAfterSeconds);
      }
      const now = clock.now();
      const id = randomEventId();
      const delivery: WebhookDeliveryRecord = {
        id,
        webhookId: webhook.id,
        projectId,
        ownerId: user.id,
        taskId: null,
        type: 'webhook.ping',
        payload: JSON.stringify({
          type: 'webhook.ping',
          timestamp: now.toISOString(),
          data: { webhookId: webhook.id, projectId },
        }),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        lease: null,
        log: [],
        createdAt: now,
        updatedAt: now,
      };
      await store.webhookDeliveries.insert(delivery);
      deps.onQueued?.();
      return toWebhookDelivery(delivery);
    },
    async deliveries(user, projectId, webhookId, page) {
      await own(user, projectId, webhookId);
      const pageSize = page.pageSize ?? 20;
      const skip = ((page.page ?? 1) - 1) * pageSize;
      const result = await store.webhookDeliveries.listByWebhook(webhookId, { skip, limit: pageSize });
      return { total: result.total, deliveries: result.items.map(toWebhookDelivery) };
    },
    async deleteProject(projectId) {
      await store.webhooks.deleteByProject(projectId);
      await store.webhookDeliveries.deleteByProject(projectId);
    },
  };
}
