import type { Collection, Db } from 'mongodb';
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

export const WEBHOOKS_COLLECTION = 'webhooks';
export const WEBHOOK_DELIVERIES_COLLECTION = 'webhook_deliveries';

/** The indexes of the two collections, in the shape the store's `ensureIndexes` takes. */
export const WEBHOOK_INDEXES = {
  [WEBHOOKS_COLLECTION]: [{ key: { projectId: 1, createdAt: -1, _id: -1 }, name: 'webhooks_project_newest' }],
  [WEBHOOK_DELIVERIES_COLLECTION]: [
    { key: { status: 1, nextAttemptAt: 1 }, name: 'webhook_deliveries_due' },
    { key: { webhookId: 1, createdAt: -1, _id: -1 }, name: 'webhook_deliveries_webhook_newest' },
    { key: { projectId: 1 }, name: 'webhook_deliveries_project' },
  ],
} as const;

function limitOf(limit: number): number {
  const n = requireInt(limit, 'limit');
  if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] limit must be 1-1000');
  return n;
}

/**
 * The webhook repositories of the MongoDB store. `mapDuplicateKey` turns E11000 into
 * DuplicateKeyError (the only unique key of both collections is `_id`).
 */
export function mongoWebhookRepositories(
  db: () => Promise<Db>,
  mapDuplicateKey: (err: unknown) => never,
): { webhooks: WebhookRepository; webhookDeliveries: WebhookDeliveryRepository } {
  const hooks = async (): Promise<Collection<WebhookDoc>> =>
    (await db()).collection<WebhookDoc>(WEBHOOKS_COLLECTION);
  const deliveries = async (): Promise<Collection<WebhookDeliveryDoc>> =>
    (await db()).collection<WebhookDeliveryDoc>(WEBHOOK_DELIVERIES_COLLECTION);

  const webhooks: WebhookRepository = {
    async insert(webhook) {
      requireString(webhook.id, 'webhook id');
      requireString(webhook.projectId, 'project id');
      requireInt(webhook.ownerId, 'owner id');
      await (await hooks()).insertOne(webhookToDoc(webhook)).catch(mapDuplicateKey);
    },
    async byId(id) {
      const doc = await (await hooks()).findOne({ _id: { $eq: requireString(id, 'webhook id') } });
      return doc ? docToWebhook(doc as WebhookDoc) : null;
    },
    async listByProject(projectId, limit) {
      const docs = await (await hooks())
        .find({ projectId: { $eq: requireString(projectId, 'project id') } })
        .sort({ createdAt: -1, _id: -1 })
        .limit(limitOf(limit))
        .toArray();
      return (docs as WebhookDoc[]).map(docToWebhook);
    },
    async update(id, patch) {
      const set = webhookPatchToSet({ ...patch, updatedAt: requireDate(patch?.updatedAt, 'updatedAt') });
      const doc = await (await hooks()).findOneAndUpdate(
        { _id: { $eq: requireString(id, 'webhook id') } },
        { $set: set as Partial<WebhookDoc> },
        { returnDocument: 'after' },
      );
      return doc ? docToWebhook(doc as WebhookDoc) : null;
    },
    async delete(id) {
      const res = await (await hooks()).deleteOne({ _id: { $eq: requireString(id, 'webhook id') } });
      return res.deletedCount > 0;
    },
    async deleteByProject(projectId) {
      const res = await (await hooks()).deleteMany({
        projectId: { $eq: requireString(projectId, 'project id') },
      });
      return res.deletedCount;
    },
  };

  const webhookDeliveries: WebhookDeliveryRepository = {
    async insert(delivery) {
      requireString(delivery.id, 'delivery id');
      requireString(delivery.webhookId, 'webhook id');
      requireString(delivery.payload, 'payload');
      await (await deliveries()).insertOne(deliveryToDoc(delivery)).catch(mapDuplicateKey);
    },
    async byId(id) {
      const doc = await (await deliveries()).findOne({ _id: { $eq: requireString(id, 'delivery id') } });
      return doc ? docToDelivery(doc as WebhookDeliveryDoc) : null;
    },
    async listByWebhook(webhookId, window) {
      const { skip, limit } = sanitizeWindow(window);
      const filter = { webhookId: { $eq: requireString(webhookId, 'webhook id') } };
      const c = await deliveries();
      const total = await c.countDocuments(filter);
      if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
      const docs = await c.find(filter).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray();
      return { total, items: (docs as WebhookDeliveryDoc[]).map(docToDelivery) };
    },
    async listDue(now, limit) {
      const at = requireDate(now, 'now');
      const docs = await (await deliveries())
        .find({
          status: { $eq: 'pending' },
          nextAttemptAt: { $lte: at },
          $or: [{ lease: { $eq: null } }, { 'lease.until': { $lte: at } }],
        })
        .sort({ nextAttemptAt: 1, _id: 1 })
        .limit(limitOf(limit))
        .toArray();
      return (docs as WebhookDeliveryDoc[]).map(docToDelivery);
    },
    async updateIfAttempts(id, attempts, patch) {
      const set = deliveryPatchToSet({ ...patch, updatedAt: requireDate(patch?.updatedAt, 'updatedAt') });
      const doc = await (await deliveries()).findOneAndUpdate(
        {
          _id: { $eq: requireString(id, 'delivery id') },
          attempts: { $eq: requireInt(attempts, 'attempts') },
          status: { $eq: 'pending' },
        },
        { $set: set as Partial<WebhookDeliveryDoc> },
        { returnDocument: 'after' },
      );
      return doc ? docToDelivery(doc as WebhookDeliveryDoc) : null;
    },
    async deleteByWebhook(webhookId) {
      const res = await (await deliveries()).deleteMany({
        webhookId: { $eq: requireString(webhookId, 'webhook id') },
      });
      return res.deletedCount;
    },
    async deleteByProject(projectId) {
      const res = await (await deliveries()).deleteMany({
        projectId: { $eq: requireString(projectId, 'project id') },
      });
      return res.deletedCount;
    },
    async deleteSettledBefore(before) {
      const res = await (await deliveries()).deleteMany({
        status: { $in: ['delivered', 'failed', 'cancelled'] },
        updatedAt: { $lt: requireDate(before, 'before') },
      });
      return res.deletedCount;
    },
  };

  return { webhooks, webhookDeliveries };
}
