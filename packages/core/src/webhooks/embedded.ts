import type Datastore from '@seald-io/nedb';
import { MAX_SKIP, requireDate, requireInt, requireString, sanitizeWindow } from '../store.js';
import {
  deliveryPatchToSet,
  deliveryToDoc,
  docToDelivery,
  docToWebhook,
  type WebhookDeliveryDoc,
  type WebhookDoc,
  webhookPatchToSet,
  webhookToDoc,
} from './documents.js';
import type { WebhookDeliveryRepository, WebhookRepository } from './records.js';

type Doc = Record<string, unknown>;

/** One collection of the embedded store as the webhook repositories use it. */
export interface NedbCollectionOps {
  db: Datastore<Doc>;
  /** Inserts through the store (unique violations become DuplicateKeyError, appends are atomic). */
  insert(doc: Doc): Promise<void>;
  /** Counts `n` writes (compaction). */
  wrote(n?: number): void;
}

function limitOf(limit: number): number {
  const n = requireInt(limit, 'limit');
  if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] limit must be 1-1000');
  return n;
}

/** The webhook repositories of the embedded store (collections `webhooks`, `webhook_deliveries`). */
export function embeddedWebhookRepositories(
  use: () => Promise<void>,
  hooks: NedbCollectionOps,
  deliveries: NedbCollectionOps,
): { webhooks: WebhookRepository; webhookDeliveries: WebhookDeliveryRepository } {
  async function update(c: NedbCollectionOps, query: Doc, set: Doc): Promise<Doc | null> {
    await use();
    const res = await c.db.updateAsync(query, { $set: set }, { multi: false, returnUpdatedDocs: true });
    if (res.numAffected === 0 || !res.affectedDocuments) return null;
    c.wrote();
    return res.affectedDocuments as unknown as Doc;
  }
  async function remove(c: NedbCollectionOps, query: Doc): Promise<number> {
    await use();
    const n = await c.db.removeAsync(query, { multi: true });
    if (n > 0) c.wrote(n);
    return n;
  }

  const webhooks: WebhookRepository = {
    async insert(webhook) {
      requireString(webhook.id, 'webhook id');
      requireString(webhook.projectId, 'project id');
      requireInt(webhook.ownerId, 'owner id');
      await use();
      await hooks.insert(webhookToDoc(webhook) as unknown as Doc);
    },
    async byId(id) {
      await use();
      const doc = await hooks.db.findOneAsync({ _id: requireString(id, 'webhook id') });
      return doc ? docToWebhook(doc as unknown as WebhookDoc) : null;
    },
    async listByProject(projectId, limit) {
      await use();
      const docs = await hooks.db
        .findAsync({ projectId: requireString(projectId, 'project id') })
        .sort({ createdAt: -1, _id: -1 })
        .limit(limitOf(limit));
      return (docs as unknown as WebhookDoc[]).map(docToWebhook);
    },
    async update(id, patch) {
      const doc = await update(
        hooks,
        { _id: requireString(id, 'webhook id') },
        webhookPatchToSet({ ...patch, updatedAt: requireDate(patch?.updatedAt, 'updatedAt') }),
      );
      return doc ? docToWebhook(doc as unknown as WebhookDoc) : null;
    },
    async delete(id) {
      return (await remove(hooks, { _id: requireString(id, 'webhook id') })) > 0;
    },
    deleteByProject: async (projectId) =>
      remove(hooks, { projectId: requireString(projectId, 'project id') }),
  };

  const webhookDeliveries: WebhookDeliveryRepository = {
    async insert(delivery) {
      requireString(delivery.id, 'delivery id');
      requireString(delivery.webhookId, 'webhook id');
      requireString(delivery.payload, 'payload');
      await use();
      await deliveries.insert(deliveryToDoc(delivery) as unknown as Doc);
    },
    async byId(id) {
      await use();
      const doc = await deliveries.db.findOneAsync({ _id: requireString(id, 'delivery id') });
      return doc ? docToDelivery(doc as unknown as WebhookDeliveryDoc) : null;
    },
    async listByWebhook(webhookId, window) {
      await use();
      const { skip, limit } = sanitizeWindow(window);
      const query = { webhookId: requireString(webhookId, 'webhook id') };
      const total = await deliveries.db.countAsync(query);
      if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
      const docs = await deliveries.db
        .findAsync(query)
        .sort({ createdAt: -1, _id: -1 })
        .skip(skip)
        .limit(limit);
      return { total, items: (docs as unknown as WebhookDeliveryDoc[]).map(docToDelivery) };
    },
    async listDue(now, limit) {
      await use();
      const at = requireDate(now, 'now');
      const docs = await deliveries.db
        .findAsync({
          status: 'pending',
          nextAttemptAt: { $lte: at },
          $or: [{ lease: null }, { 'lease.until': { $lte: at } }],
        })
        .sort({ nextAttemptAt: 1, _id: 1 })
        .limit(limitOf(limit));
      return (docs as unknown as WebhookDeliveryDoc[]).map(docToDelivery);
    },
    async updateIfAttempts(id, attempts, patch) {
      const doc = await update(
        deliveries,
        {
          _id: requireString(id, 'delivery id'),
          attempts: requireInt(attempts, 'attempts'),
          status: 'pending',
        },
        deliveryPatchToSet({ ...patch, updatedAt: requireDate(patch?.updatedAt, 'updatedAt') }),
      );
      return doc ? docToDelivery(doc as unknown as WebhookDeliveryDoc) : null;
    },
    deleteByWebhook: async (webhookId) =>
      remove(deliveries, { webhookId: requireString(webhookId, 'webhook id') }),
    deleteByProject: async (projectId) =>
      remove(deliveries, { projectId: requireString(projectId, 'project id') }),
    deleteSettledBefore: async (before) =>
      remove(deliveries, {
        status: { $in: ['delivered', 'failed', 'cancelled'] },
        updatedAt: { $lt: requireDate(before, 'before') },
      }),
  };

  return { webhooks, webhookDeliveries };
}

/** The indexes of the two collections (called from the embedded store's init). */
export async function ensureEmbeddedWebhookIndexes(
  hooks: Datastore<Doc>,
  deliveries: Datastore<Doc>,
): Promise<void> {
  await hooks.ensureIndexAsync({ fieldName: 'projectId' });
  await deliveries.ensureIndexAsync({ fieldName: 'webhookId' });
  await deliveries.ensureIndexAsync({ fieldName: 'status' });
  await deliveries.ensureIndexAsync({ fieldName: 'projectId' });
}
