import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveryRecord,
  describeWebhookStoreContract,
  webhookRecord,
} from '../../test/contracts/webhook-store.contract.js';
import { makeTaskRecord, steppingClock } from '../../test/fakes.js';
import { createEmbeddedStore } from '../embedded.js';
import { createMongoStore } from '../mongodb.js';
import { createTaskQueue } from '../queue.js';
import type { Store, TaskRecord } from '../store.js';
import { createWebhookDispatcher, retryDelayMs, type WebhookSend } from './dispatcher.js';
import { createTaskWebhookOutbox } from './outbox.js';
import { newWebhookSecret, signWebhook } from './signing.js';
import { addressProblem, allowlistProblem, webhookUrlProblem } from './targets.js';

describeWebhookStoreContract('memory', () => createEmbeddedStore());

const uri = injectMongoUri('@assetloom/core webhook repositories on MongoDB');
const dbNames: string[] = [];
afterAll(async () => {
  if (!uri || dbNames.length === 0) return;
  const client = new MongoClient(uri);
  try {
    for (const name of dbNames)
      await client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
  } finally {
    await client.close();
  }
});
describe.skipIf(!uri)('MongoDB', () => {
  describeWebhookStoreContract('mongodb', () => {
    const dbName = uniqueDbName('core_webhooks');
    dbNames.push(dbName);
    return createMongoStore({ uri: uri as string, dbName });
  });
});

describe('targets', () => {
  it.each([
    ['203.0.113.9', 'documentation'], // TEST-NET-3 is documentation space, not routable
    ['127.0.0.1', 'loopback'],
    ['10.2.3.4', 'private-use'],
    ['172.31.0.1', 'private-use'],
    ['192.168.1.1', 'private-use'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'this host'],
    ['255.255.255.255', 'limited broadcast'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private-use'],
  ])('%s is refused (%s)', (address, range) => {
    expect(addressProblem(address)).toContain(range);
    expect(addressProblem(address, { allowPrivateTargets: true })).toBeUndefined();
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.4.4'])('%s is allowed', (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });

  it.each([
    ['https://hooks.example.com/a?b=1', undefined],
    ['http://8.8.8.8/x', undefined],
    ['ftp://example.com/', 'only http and https'],
    ['https://u:p@example.com/', 'credentials'],
    ['https://example.com/#frag', 'fragment'],
    ['not a url', 'absolute URL'],
    ['http://localhost:3000/', 'localhost'],
    ['http://api.localhost/', 'localhost'],
    ['http://intranet/', 'fully qualified'],
    ['http://[::1]:80/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
  ])('%s → %s', (url, problem) => {
    const found = webhookUrlProblem(url);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('allowed hosts (WEBHOOK_ALLOWED_HOSTS)', () => {
  const policy = { allowedHosts: ['hooks.example.com', '*.partner.example', '127.0.0.1', '[::1]'] };

  it.each([
    ['https://hooks.example.com/a', undefined],
    ['https://HOOKS.example.com./a', undefined],
    ['https://a.partner.example/x', undefined],
    ['https://a.b.partner.example/x', undefined],
    ['https://partner.example/x', 'not in the allowed webhook hosts'],
    ['https://evilpartner.example/x', 'not in the allowed webhook hosts'],
    ['https://example.com/x', 'not in the allowed webhook hosts'],
    ['http://8.8.8.8/x', 'not in the allowed webhook hosts'],
    // In the list, but the address rules still apply unless private targets are allowed.
    ['http://127.0.0.1:9/x', 'loopback'],
  ])('%s → %s', (url, problem) => {
    const found = webhookUrlProblem(url, policy);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('keeps its say when private targets are allowed, and is off when empty', () => {
    const dev = { ...policy, allowPrivateTargets: true };
    expect(webhookUrlProblem('http://127.0.0.1:9/x', dev)).toBeUndefined();
    expect(webhookUrlProblem('http://[::1]:9/x', dev)).toBeUndefined();
    expect(webhookUrlProblem('http://10.0.0.1/x', dev)).toContain('not in the allowed webhook hosts');
    expect(allowlistProblem('anything.example', { allowedHosts: [] })).toBeUndefined();
    expect(allowlistProblem('anything.example', {})).toBeUndefined();
  });
});

describe('signing', () => {
  it('signs as the Standard Webhooks reference library verifies', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const now = new Date();
    const headers = signWebhook(secret, 'msg_1', now, '{"a":1}');
    expect(new Webhook(secret).verify('{"a":1}', { ...headers })).toEqual({ a: 1 });
    expect(() => new Webhook(newWebhookSecret()).verify('{"a":1}', { ...headers })).toThrow();
  });
});

describe('retry delays', () => {
  it('double from the base up to the cap, jittered within the upper half', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 60_000, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 60_000, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(30, 1000, 60_000, () => 1)).toBe(60_000);
  });
});

describe('dispatcher and outbox over a real receiver', () => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send: WebhookSend = async ({ url: target, headers, body, signal }) => {
    const res = await fetch(target, { method: 'POST', headers, body, signal });
    await res.arrayBuffer();
    return { status: res.status };
  };

  function task(over: Partial<TaskRecord> = {}): TaskRecord {
    const now = new Date();
    return {
      id: 'task1',
      ownerId: 1,
      projectId: 'p1',
      prompt: 'x',
      assetType: 'sprite',
      taskStyle: null,
      params: { resolution: 32, format: 'spritesheet' },
      status: 'running',
      stage: 'asset_generator',
      progress: 40,
      retryCount: 0,
      error: null,
      dedupeKey: 'k',
      idempotencyKey: null,
      lastSeq: 3,
      lease: null,
      attempts: 1,
      createdAt: now,
      updatedAt: now,
      ...over,
    } as TaskRecord;
  }

  async function setup(): Promise<{ store: Store; secret: string }> {
    const store = createEmbeddedStore();
    await store.init();
    const hook = webhookRecord({ id: 'wh1', url, events: ['task.completed', 'task.failed', 'task.stage'] });
    await store.webhooks.insert(hook);
    return { store, secret: hook.secret };
  }

  it('queues a terminal event once, waits while the task runs, then delivers it signed', async () => {
    received.length = 0;
    status = 200;
    const { store, secret } = await setup();
    const t = task();
    await store.tasks.insert(t);
    const outbox = createTaskWebhookOutbox({ store });
    const outcome = { status: 'completed' as const, assets: [], retryCount: 0 };
    // Two runs (a worker that died before ending the task, then the next one) queue the same event.
    await outbox.forTask(t).finishing(outcome);
    await outbox.forTask(t).finishing(outcome);
    const dispatcher = createWebhookDispatcher({ store, send, owner: 'd1', retryBaseMs: 20 });
    await dispatcher.runOnce();
    expect(received).toHaveLength(0); // the task is still running
    const [waiting] = (await store.webhookDeliveries.listByWebhook('wh1', { skip: 0, limit: 10 })).items;
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0 });

    await store.tasks.update(t.id, { status: 'completed', updatedAt: new Date() });
    await new Promise((r) => setTimeout(r, 30));
    await dispatcher.runOnce();
    expect(received).toHaveLength(1);
    const payload = new Webhook(secret).verify(
      received[0]?.body as string,
      received[0]?.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({ type: 'task.completed', data: { taskId: 'task1', status: 'completed' } });
    const page = await store.webhookDeliveries.listByWebhook('wh1', { skip: 0, limit: 10 });
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it("reads the statuses of a round's tasks together and sends only the ended ones", async () => {
    received.length = 0;
    status = 200;
    const { store } = await setup();
    const ended = task({ id: 'taskDone', status: 'completed', dedupeKey: 'k1' });
    const running = task({ id: 'taskRunning', dedupeKey: 'k2' });
    await store.tasks.insert(ended);
    await store.tasks.insert(running);
    const outbox = createTaskWebhookOutbox({ store });
    for (const t of [ended, running]) await outbox.forTask(t).finishing({ status: 'completed', assets: [] });
    let batches = 0;
    const counting: Store = {
      ...store,
      tasks: {
        ...store.tasks,
        statusByIds: (ids) => {
          batches++;
          return store.tasks.statusByIds?.(ids) ?? Promise.resolve(new Map());
        },
      },
    };
    await createWebhookDispatcher({ store: counting, send, owner: 'd1' }).runOnce();
    expect(batches).toBe(1);
    expect(received.map((r) => JSON.parse(r.body).data.taskId)).toEqual(['taskDone']);
  });

  it('cancels a terminal event when the task ended the other way, or the webhook is gone', async () => {
    received.length = 0;
    const { store } = await setup();
    await store.tasks.insert(task({ status: 'failed', error: 'boom' }));
    await createTaskWebhookOutbox({ store }).forTask(task()).finishing({ status: 'completed', assets: [] });
    const dispatcher = createWebhookDispatcher({ store, send, owner: 'd1' });
    await dispatcher.runOnce();
    expect(received).toHaveLength(0);
    const [cancelled] = (await store.webhookDeliveries.listByWebhook('wh1', { skip: 0, limit: 1 })).items;
    expect(cancelled?.status).toBe('cancelled');
  });

  it('the loop delivers what is due and prunes settled deliveries past the retention', async () => {
    received.length = 0;
    status = 200;
    const { store } = await setup();
    const old = new Date(Date.now() - 10_000);
    await store.webhookDeliveries.insert(
      deliveryRecord({
        id: 'msg_settled',
        webhookId: 'wh1',
        status: 'delivered',
        nextAttemptAt: null,
        updatedAt: old,
      }),
    );
    await store.webhookDeliveries.insert(
      deliveryRecord({
        id: 'msg_due',
        webhookId: 'wh1',
        taskId: null,
        type: 'webhook.ping',
        nextAttemptAt: new Date(),
      }),
    );
    const dispatcher = createWebhookDispatcher({ store, send, owner: 'd1', retentionMs: 5_000, pollMs: 20 });
    dispatcher.start();
    try {
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await dispatcher.stop(1000);
    }
    expect(received).toHaveLength(1);
    expect(await store.webhookDeliveries.byId('msg_settled')).toBeNull();
    expect((await store.webhookDeliveries.byId('msg_due'))?.status).toBe('delivered');
  });

  it('retries failures with backoff, gives up after maxAttempts, and takes over a dead attempt', async () => {
    received.length = 0;
    status = 500;
    const { store } = await setup();
    await store.webhookDeliveries.insert(
      deliveryRecord({
        id: 'msg_r',
        webhookId: 'wh1',
        taskId: null,
        type: 'webhook.ping',
        nextAttemptAt: new Date(),
      }),
    );
    const dispatcher = createWebhookDispatcher({
      store,
      send,
      owner: 'd1',
      retryBaseMs: 10,
      maxAttempts: 3,
      random: () => 1,
    });
    for (let i = 0; i < 50; i++) {
      await dispatcher.runOnce();
      const d = await store.webhookDeliveries.byId('msg_r');
      if (d?.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const failed = await store.webhookDeliveries.byId('msg_r');
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    expect(failed?.log.map((a) => a.statusCode)).toEqual([500, 500, 500]);
    expect(received).toHaveLength(3);
    // The gaps grow: 10 ms, then 20 ms (random 1 → the full delay).
    const times = failed?.log.map((a) => a.at.getTime()) ?? [];
    expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(18);

    // An attempt whose worker died: claimed (attempts 1, a lease) and never settled.
    status = 200;
    const past = new Date(Date.now() - 1000);
    await store.webhookDeliveries.insert(
      deliveryRecord({
        id: 'msg_dead',
        webhookId: 'wh1',
        taskId: null,
        type: 'webhook.ping',
        nextAttemptAt: past,
        attempts: 1,
        lease: { owner: 'dead', until: new Date(Date.now() + 150) },
      }),
    );
    const other = createWebhookDispatcher({ store, send, owner: 'd2' });
    await other.runOnce();
    expect((await store.webhookDeliveries.byId('msg_dead'))?.status).toBe('pending'); // lease still live
    await new Promise((r) => setTimeout(r, 200));
    await other.runOnce();
    expect(await store.webhookDeliveries.byId('msg_dead')).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lease: null,
    });
  });
});

describe.each([
  ['embedded', true],
  ['mongodb', uri !== null],
] as const)('a task failed as abandoned gets its task.failed delivery (%s store)', (kind, available) => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  let url = '';
  const opened: Store[] = [];
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    for (const s of opened.splice(0)) await s.close().catch(() => undefined);
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const send: WebhookSend = async ({ url: target, headers, body, signal }) => {
    const res = await fetch(target, { method: 'POST', headers, body, signal });
    await res.arrayBuffer();
    return { status: res.status };
  };

  it.skipIf(!available)(
    'attempts run out → the task is failed and a signed task.failed is delivered once',
    async () => {
      let store: Store;
      if (kind === 'embedded') store = createEmbeddedStore();
      else {
        const dbName = uniqueDbName('core_abandoned');
        dbNames.push(dbName);
        store = createMongoStore({ uri: uri as string, dbName });
      }
      await store.init();
      opened.push(store);
      const hook = webhookRecord({ id: 'whAbandon', projectId: 'pAbandon', url, events: ['task.failed'] });
      await store.webhooks.insert(hook);
      const t = makeTaskRecord({ projectId: 'pAbandon' });
      await store.tasks.insert(t);

      const clock = steppingClock(Date.now());
      const outbox = createTaskWebhookOutbox({ store });
      const queueOf = (owner: string) =>
        createTaskQueue({ store, owner, leaseMs: 1000, maxAttempts: 2, clock, webhooks: outbox });
      const a = queueOf('worker-a');
      const b = queueOf('worker-b');
      // Two workers claim the task in turn and die: their leases run out without renewal.
      expect((await a.claim(1))[0]?.attempt).toBe(1);
      clock.advance(2000);
      const [second] = await b.claim(1);
      expect(second?.attempt).toBe(2);
      // The second got as far as the generator before it died.
      await second?.record(
        { seq: second.startSeq, stage: 'asset_generator', status: 'started', progress: 0 },
        { stage: 'asset_generator', progress: 40 },
      );
      clock.advance(2000);
      // The third claim gives up: the task is failed, nothing is handed out.
      expect(await a.claim(1)).toEqual([]);
      const failed = await store.tasks.byId(t.id);
      expect(failed).toMatchObject({ status: 'failed', lease: null });
      expect(failed?.error).toMatch(/giving up after 2 attempts/);

      // The claim that failed it queued the task.failed delivery.
      const queued = await store.webhookDeliveries.listByWebhook(hook.id, { skip: 0, limit: 10 });
      expect(queued.total).toBe(1);
      expect(queued.items[0]).toMatchObject({ type: 'task.failed', taskId: t.id, status: 'pending' });
      // Queuing the same event again (a claimer that died after queuing, a racing one) is stored once.
      await outbox.forTask(t).finishing({ status: 'failed', error: 'again' });
      const again = await store.webhookDeliveries.listByWebhook(hook.id, { skip: 0, limit: 10 });
      expect(again.total).toBe(1);
      expect(again.items[0]?.payload).toBe(queued.items[0]?.payload);

      await createWebhookDispatcher({ store, send, owner: 'd-abandon' }).runOnce();
      expect(received).toHaveLength(1);
      const payload = new Webhook(hook.secret).verify(
        received[0]?.body as string,
        received[0]?.headers as Record<string, string>,
      );
      expect(payload).toMatchObject({
        type: 'task.failed',
        data: {
          taskId: t.id,
          projectId: 'pAbandon',
          status: 'failed',
          stage: 'asset_generator',
          progress: 40,
        },
      });
      expect((payload as { data: { error: string } }).data.error).toBe(failed?.error);
      expect(received[0]?.headers['webhook-id']).toBe(queued.items[0]?.id);
      expect(await store.webhookDeliveries.byId(queued.items[0]?.id as string)).toMatchObject({
        status: 'delivered',
        attempts: 1,
      });
    },
  );
});
