import type { Collection, CollectionSpec } from '../store/driver.js';
import { requireDate, requireInt, requireString, sanitizeWindow } from '../store.js';
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

/** The two collections of the webhook repositories (the only unique key of both is `_id`). */
export const WEBHOOK_COLLECTIONS = {
  webhooks: {
    name: WEBHOOKS_COLLECTION,
    indexes: [
      { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' },
      { name: 'webhooks_project_newest', key: { projectId: 1, createdAt: -1, _id: -1 } },
    ],
  },
  deliveries: {
    name: WEBHOOK_DELIVERIES_COLLECTION,
    indexes: [
      { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' },
      { name: 'webhook_deliveries_due', key: { status: 1, nextAttemptAt: 1 } },
      { name: 'webhook_deliveries_webhook_newest', key: { webhookId: 1, createdAt: -1, _id: -1 } },
      { name: 'webhook_deliveries_project', key: { projectId: 1 } },
    ],
  },
} as const satisfies Record<string, CollectionSpec>;

function limitOf(limit: number): number {
  const n = requireInt(limit, 'limit');
  if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] limit must be 1-1000');
  return n;
}

/**
 * The webhook repositories (collections `webhooks`, `webhook_deliveries`), written once over the
 * collection driver. `ready` opens the store first.
 */
export function webhookRepositories(
  ready: () => Promise<void>,
  hooks: Collection<WebhookDoc>,
  deliveries: Collection<WebhookDeliveryDoc>,
): { webhooks: WebhookRepository; webhookDeliveries: WebhookDeliveryRepository } {
  const webhooks: WebhookRepository = {
    async insert(webhook) {
      requireString(webhook.id, 'webhook id');
      requireString(webhook.projectId, 'project id');
      requireInt(webhook.ownerId, 'owner id');
      await ready();
      await hooks.insertOne(webhookToDoc(webhook));
    },
    async byId(id) {
      const filter = { _id: requireString(id, 'webhook id') };
      await ready();
      return hooks.findOne(filter, docToWebhook);
    },
    async listByProject(projectId, limit) {
      const filter = { projectId: requireString(projectId, 'project id') };
      const n = limitOf(limit);
      await ready();
      const docs = await hooks.find(filter, { sort: { createdAt: -1, _id: -1 }, limit: n });
      return docs.map(docToWebhook);
    },
    async update(id, patch) {
      const $set = webhookPatchToSet({ ...patch, updatedAt: requireDate(patch?.updatedAt, 'updatedAt') });
      const filter = { _id: requireString(id, 'webhook id') };
      await ready();
      const doc = await hooks.findOneAndUpdate(filter, { $set });
      return doc ? docToWebhook(doc) : null;
    },
    async delete(id) {
      const filter = { _id: requireString(id, 'webhook id') };
      await ready();
      return hooks.deleteOne(filter);
    },
    async deleteByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await ready();
      return hooks.deleteMany(filter);
    },
  };

  const webhookDeliveries: WebhookDeliveryRepository = {
    async insert(delivery) {
      requireString(delivery.id, 'delivery id');
      requireString(delivery.webhookId, 'webhook id');
      requireString(delivery.payload, 'payload');
      await ready();
      await deliveries.insertOne(deliveryToDoc(delivery));
    },
    async byId(id) {
      const filter = { _id: requireString(id, 'delivery id') };
      await ready();
      return deliveries.findOne(filter, docToDelivery);
    },
    async listByWebhook(webhookId, window) {
      const win = sanitizeWindow(window);
      const webhook = requireString(webhookId, 'webhook id');
      await ready();
      return deliveries.page('webhookId', webhook, win, docToDelivery);
    },
    async listDue(now, limit) {
      const at = requireDate(now, 'now');
      const n = limitOf(limit);
      await ready();
      const docs = await deliveries.find(
        {
          status: 'pending',
          nextAttemptAt: { $lte: at },
          $or: [{ lease: null }, { 'lease.until': { $lte: at } }],
        },
        { sort: { nextAttemptAt: 1, _id: 1 }, limit: n },
      );
      return docs.map(docToDelivery);
    },
    async updateIfAttempts(id, attempts, patch) {
      const $set = deliveryPatchToSet({ ...patch, updatedAt: requireDate(patch?.updatedAt, 'updatedAt') });
      const filter = {
        _id: requireString(id, 'delivery id'),
        attempts: requireInt(attempts, 'attempts'),
        status: 'pending',
      } as const;
      await ready();
      const doc = await deliveries.findOneAndUpdate(filter, { $set });
      return doc ? docToDelivery(doc) : null;
    },
    async deleteByWebhook(webhookId) {
      const filter = { webhookId: requireString(webhookId, 'webhook id') };
      await ready();
      return deliveries.deleteMany(filter);
    },
    async deleteByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await ready();
      return deliveries.deleteMany(filter);
    },
    async deleteSettledBefore(before) {
      const at = requireDate(before, 'before');
      await ready();
      return deliveries.deleteMany({
        status: { $in: ['delivered', 'failed', 'cancelled'] },
        updatedAt: { $lt: at },
      });
    },
  };

  return { webhooks, webhookDeliveries };
}
