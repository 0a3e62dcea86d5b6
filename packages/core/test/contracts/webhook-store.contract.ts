import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Store } from '../../src/store.js';
import type { WebhookDeliveryRecord, WebhookRecord } from '../../src/webhooks/records.js';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

export function webhookRecord(over: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    id: `wh${Math.random().toString(36).slice(2, 10)}`,
    projectId: 'p1',
    ownerId: 1,
    url: 'https://hooks.example.com/a',
    events: ['task.completed'],
    description: '',
    enabled: true,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  };
}

export function deliveryRecord(over: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord {
  return {
    id: `msg_${Math.random().toString(36).slice(2, 12)}`,
    webhookId: 'wh1',
    projectId: 'p1',
    ownerId: 1,
    taskId: 't1',
    type: 'task.completed',
    payload: '{"type":"task.completed"}',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at(0),
    lease: null,
    log: [],
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  };
}

/** What every store adapter must do for the webhook collections (embedded and MongoDB alike). */
export function describeWebhookStoreContract(name: string, create: () => Store | Promise<Store>): void {
  describe(`${name}: webhook repositories`, () => {
    it('stores, lists newest first, updates and deletes webhooks', async () => {
      const store = await create();
      await store.init();
      const a = webhookRecord({ id: 'whA', createdAt: at(1) });
      const b = webhookRecord({ id: 'whB', createdAt: at(2), events: ['task.failed', 'task.stage'] });
      const other = webhookRecord({ id: 'whC', projectId: 'p2' });
      for (const w of [a, b, other]) await store.webhooks.insert(w);
      expect(await store.webhooks.byId('whB')).toEqual(b);
      expect((await store.webhooks.listByProject('p1', 10)).map((w) => w.id)).toEqual(['whB', 'whA']);
      expect((await store.webhooks.listByProject('p1', 1)).map((w) => w.id)).toEqual(['whB']);
      const updated = await store.webhooks.update('whA', {
        enabled: false,
        url: 'https://x.example.com/b',
        updatedAt: at(5),
      });
      expect(updated).toMatchObject({
        id: 'whA',
        enabled: false,
        url: 'https://x.example.com/b',
        events: ['task.completed'],
      });
      expect(await store.webhooks.update('nope', { enabled: true, updatedAt: at(5) })).toBeNull();
      expect(await store.webhooks.delete('whA')).toBe(true);
      expect(await store.webhooks.delete('whA')).toBe(false);
      expect(await store.webhooks.deleteByProject('p1')).toBe(1);
      expect(await store.webhooks.byId('whC')).not.toBeNull();
      await expect(store.webhooks.byId({ $gt: '' } as unknown as string)).rejects.toMatchObject({
        code: 400,
      });
      await store.close();
    });

    it('keeps one delivery per id, lists the due ones and guards updates on attempts', async () => {
      const store = await create();
      await store.init();
      const due = deliveryRecord({ id: 'msg_due', nextAttemptAt: at(10) });
      const later = deliveryRecord({ id: 'msg_later', nextAttemptAt: at(99_000) });
      const leased = deliveryRecord({
        id: 'msg_leased',
        nextAttemptAt: at(5),
        lease: { owner: 'w1', until: at(50_000) },
      });
      const expired = deliveryRecord({
        id: 'msg_expired',
        nextAttemptAt: at(1),
        lease: { owner: 'w1', until: at(20) },
      });
      const done = deliveryRecord({ id: 'msg_done', status: 'delivered', nextAttemptAt: null });
      for (const d of [due, later, leased, expired, done]) await store.webhookDeliveries.insert(d);
      await expect(store.webhookDeliveries.insert(deliveryRecord({ id: 'msg_due' }))).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await store.webhookDeliveries.byId('msg_leased')).toEqual(leased);
      // Due at t=1000: pending, due, and no live lease; earliest first.
      expect((await store.webhookDeliveries.listDue(at(1000), 10)).map((d) => d.id)).toEqual([
        'msg_expired',
        'msg_due',
      ]);
      expect((await store.webhookDeliveries.listDue(at(1000), 1)).map((d) => d.id)).toEqual(['msg_expired']);

      const claimed = await store.webhookDeliveries.updateIfAttempts('msg_due', 0, {
        attempts: 1,
        lease: { owner: 'w2', until: at(2000) },
        updatedAt: at(1000),
      });
      expect(claimed).toMatchObject({ attempts: 1, lease: { owner: 'w2' } });
      // A second claimer that read attempts 0 loses.
      expect(
        await store.webhookDeliveries.updateIfAttempts('msg_due', 0, { attempts: 1, updatedAt: at(1000) }),
      ).toBeNull();
      const log = [{ at: at(1100), statusCode: 200, error: null, durationMs: 12 }];
      const settled = await store.webhookDeliveries.updateIfAttempts('msg_due', 1, {
        status: 'delivered',
        nextAttemptAt: null,
        lease: null,
        log,
        updatedAt: at(1100),
      });
      expect(settled).toMatchObject({ status: 'delivered', nextAttemptAt: null, lease: null, log });
      // Settled deliveries take no more guarded updates.
      expect(
        await store.webhookDeliveries.updateIfAttempts('msg_due', 1, { attempts: 2, updatedAt: at(1200) }),
      ).toBeNull();

      const page = await store.webhookDeliveries.listByWebhook('wh1', { skip: 0, limit: 2 });
      expect(page.total).toBe(5);
      expect(page.items).toHaveLength(2);
      expect(await store.webhookDeliveries.deleteByWebhook('wh1')).toBe(5);
      await store.webhookDeliveries.insert(deliveryRecord({ id: 'msg_p', projectId: 'p9' }));
      expect(await store.webhookDeliveries.deleteByProject('p9')).toBe(1);

      // Retention: settled deliveries last updated before the cut go; pending ones stay whatever their age.
      await store.webhookDeliveries.insert(
        deliveryRecord({ id: 'msg_old', status: 'delivered', updatedAt: at(1) }),
      );
      await store.webhookDeliveries.insert(
        deliveryRecord({ id: 'msg_oldfail', status: 'failed', updatedAt: at(2) }),
      );
      await store.webhookDeliveries.insert(
        deliveryRecord({ id: 'msg_new', status: 'delivered', updatedAt: at(9_000) }),
      );
      await store.webhookDeliveries.insert(
        deliveryRecord({ id: 'msg_pend', status: 'pending', updatedAt: at(1) }),
      );
      expect(await store.webhookDeliveries.deleteSettledBefore(at(5_000))).toBe(2);
      expect(await store.webhookDeliveries.byId('msg_old')).toBeNull();
      expect(await store.webhookDeliveries.byId('msg_new')).not.toBeNull();
      expect(await store.webhookDeliveries.byId('msg_pend')).not.toBeNull();
      await store.close();
    });
  });
}
