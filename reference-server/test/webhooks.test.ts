import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTaskQueue } from '@assetloom/core/queue';
import { verifyWebhook, WebhookVerificationError } from '@assetloom/sdk';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { workerFor } from '../src/server.js';
import { createWebhookSender, WebhookTargetError } from '../src/webhooks/index.js';
import { client, newUser, startTestServer, type TestServer, testEnv } from './helpers.js';
import { type ServerProcess, spawnServer } from './processes.js';

/**
 * Webhooks over real HTTP: a receiver server on 127.0.0.1, the real server (its worker delivers),
 * signatures checked with the SDK's verifyWebhook. Loopback targets need the development setting
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true; the default refuses them (tested below).
 */

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  answered: number | null;
}

/** A receiver: `answer(n)` decides the status of the n-th request (0-based); null never answers. */
async function startReceiver(answer: (n: number) => number | null = () => 200) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = answer(received.length);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      for (const w of waiters.splice(0)) w();
      if (status === null) held.push(res);
      else res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** Resolves once `predicate` holds for the requests so far (bounded by `timeoutMs`). */
    async until(predicate: (r: Received[]) => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(`receiver: condition not met; got ${received.length} requests`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;

async function generate(base: string, token: string, projectId: string, prompt: string): Promise<string> {
  const res = await client(base).post(
    '/api/v1/generate',
    {
      projectId,
      prompt,
      assetType: 'sprite',
      params: { resolution: 32, frames: { directions: 1, framesPerDirection: 1 } },
    },
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.data.taskId as string;
}

describe('webhooks on the embedded store (private targets allowed for the test)', () => {
  let server: TestServer;
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it('registers, signs, retries with backoff and logs deliveries; the SDK verifies them', async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_BASE_MS: '100',
        WEBHOOK_POLL_MS: '50',
        WORKER_POLL_MS: '50',
      },
    );
    cleanups.push(() => server.destroy());
    // The first request fails with 500: the delivery is retried and then succeeds.
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    cleanups.push(() => receiver.close());
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Hooks' }, { token: user.token });
    const projectId = project.body.data.id as string;

    const created = await api.post(
      `/api/v1/projects/${projectId}/webhooks`,
      { url: receiver.url, events: ['task.completed', 'task.failed'], description: 'ci' },
      { token: user.token },
    );
    expect(created.status).toBe(200);
    const secret = created.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const webhookId = created.body.data.id as string;

    // The secret is shown once: reads and lists never carry it.
    const read = await api.get(`/api/v1/projects/${projectId}/webhooks/${webhookId}`, { token: user.token });
    expect(read.body.data).toMatchObject({ id: webhookId, url: receiver.url, enabled: true });
    expect(read.body.data.secret).toBeUndefined();
    const listed = await api.get(`/api/v1/projects/${projectId}/webhooks`, { token: user.token });
    expect(listed.body.data.webhooks.map((w: { id: string }) => w.id)).toEqual([webhookId]);

    const taskId = await generate(server.url, user.token, projectId, 'a webhook knight');
    await receiver.until((r) => r.some((x) => x.answered === 200));

    // Two requests for one event: the same webhook-id, each with a valid signature.
    const requests = receiver.received.filter((r) => typeOf(r) === 'task.completed');
    expect(requests.map((r) => r.answered)).toEqual([500, 200]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of requests) {
      const event = verifyWebhook(r.body, r.headers as Record<string, string>, secret);
      expect(event.type).toBe('task.completed');
      expect(event.data).toMatchObject({ taskId, projectId, status: 'completed', progress: 100 });
      expect((event.data as { assets: unknown[] }).assets.length).toBeGreaterThan(0);
    }
    // A tampered body or another secret is refused.
    const last = requests[1] as Received;
    expect(() =>
      verifyWebhook(last.body.replace('completed', 'failed'), last.headers as Record<string, string>, secret),
    ).toThrow(WebhookVerificationError);
    const other = await api.post(
      `/api/v1/projects/${projectId}/webhooks`,
      { url: receiver.url, events: ['task.failed'] },
      { token: user.token },
    );
    expect(() =>
      verifyWebhook(last.body, last.headers as Record<string, string>, other.body.data.secret),
    ).toThrow(WebhookVerificationError);

    // The delivery log: two attempts (500, then 200), delivered, no next retry.
    let log = await api.get(`/api/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`, {
      token: user.token,
    });
    for (let i = 0; i < 50 && log.body.data.deliveries[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = await api.get(`/api/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`, {
        token: user.token,
      });
    }
    expect(log.body.data.total).toBe(1);
    const delivery = log.body.data.deliveries[0];
    expect(delivery).toMatchObject({
      id: last.headers['webhook-id'],
      type: 'task.completed',
      taskId,
      status: 'delivered',
      attempts: 2,
      nextAttemptAt: null,
    });
    expect(delivery.log.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(delivery.log[0].error).toMatch(/HTTP 500/);

    // A ping is queued, delivered and signed like an event.
    const ping = await api.post(`/api/v1/projects/${projectId}/webhooks/${webhookId}/ping`, undefined, {
      token: user.token,
    });
    expect(ping.status).toBe(200);
    expect(ping.body.data).toMatchObject({ type: 'webhook.ping', status: 'pending', attempts: 0 });
    await receiver.until((r) => r.some((x) => typeOf(x) === 'webhook.ping'));
    const pinged = receiver.received.find((x) => typeOf(x) === 'webhook.ping') as Received;
    expect(pinged.headers['webhook-id']).toBe(ping.body.data.id);
    expect(verifyWebhook(pinged.body, pinged.headers as Record<string, string>, secret).data).toEqual({
      webhookId,
      projectId,
    });

    // Update: disable and change the events; a disabled webhook gets no task events.
    const patched = await api.call('PATCH', `/api/v1/projects/${projectId}/webhooks/${webhookId}`, {
      token: user.token,
      json: { enabled: false, events: ['task.stage'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ enabled: false, events: ['task.stage'] });
    const empty = await api.call('PATCH', `/api/v1/projects/${projectId}/webhooks/${webhookId}`, {
      token: user.token,
      json: {},
    });
    expect(empty.status).toBe(400);

    // Delete: gone, with its log.
    expect(
      (await api.del(`/api/v1/projects/${projectId}/webhooks/${webhookId}`, { token: user.token })).status,
    ).toBe(200);
    const gone = await api.get(`/api/v1/projects/${projectId}/webhooks/${webhookId}`, { token: user.token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Webhook 不存在');
  });

  it('checks ownership and input like the rest of the API', async () => {
    const api = client(server.url);
    const alice = await newUser(server.url);
    const bob = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Mine' }, { token: alice.token });
    const projectId = project.body.data.id as string;
    const bobs = await api.post('/api/v1/projects', { name: 'Bobs' }, { token: bob.token });
    const hook = await api.post(
      `/api/v1/projects/${projectId}/webhooks`,
      { url: 'http://127.0.0.1:9/x', events: ['task.failed'] },
      { token: alice.token },
    );
    expect(hook.status).toBe(200);
    const path = `/api/v1/projects/${projectId}/webhooks/${hook.body.data.id}`;

    expect((await api.get(path)).status).toBe(401);
    expect((await api.get(path, { token: bob.token })).status).toBe(403);
    expect((await api.post(`${path}/ping`, undefined, { token: bob.token })).status).toBe(403);
    // Through another project (Bob's own) the webhook does not exist.
    const cross = await api.get(`/api/v1/projects/${bobs.body.data.id}/webhooks/${hook.body.data.id}`, {
      token: bob.token,
    });
    expect(cross.status).toBe(404);
    expect(
      (await api.get(`/api/v1/projects/${projectId}/webhooks/no$such`, { token: alice.token })).status,
    ).toBe(404);

    for (const body of [
      { url: 'ftp://example.com/x', events: ['task.failed'] },
      { url: 'https://example.com/x', events: [] },
      { url: 'https://example.com/x', events: ['task.deleted'] },
      { url: 'https://user:pw@example.com/x', events: ['task.failed'] },
      { url: 'https://example.com/x#frag', events: ['task.failed'] },
      { url: 'https://example.com/x', events: ['task.failed'], secret: 'mine' },
    ]) {
      const res = await api.post(`/api/v1/projects/${projectId}/webhooks`, body, { token: alice.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('参数错误');
    }
    // At most 10 webhooks per project: the 11th is a conflict.
    for (let i = 1; i < 10; i++) {
      const more = await api.post(
        `/api/v1/projects/${projectId}/webhooks`,
        { url: `http://127.0.0.1:9/${i}`, events: ['task.failed'] },
        { token: alice.token },
      );
      expect(more.status).toBe(200);
    }
    const eleventh = await api.post(
      `/api/v1/projects/${projectId}/webhooks`,
      { url: 'http://127.0.0.1:9/11', events: ['task.failed'] },
      { token: alice.token },
    );
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.message).toBe('Webhook 数量已达上限');
    expect(eleventh.body.data).toEqual({ reason: 'webhook_limit', limit: { max: 10, unit: 'count' } });
    const all = await api.get(`/api/v1/projects/${projectId}/webhooks`, { token: alice.token });
    expect(all.body.data.webhooks).toHaveLength(10);
    // Deleting the project drops its webhooks.
    expect((await api.del(`/api/v1/projects/${projectId}`, { token: alice.token })).status).toBe(200);
    expect(await server.running.store.webhooks.byId(hook.body.data.id)).toBeNull();
  });
});

describe('settings', () => {
  it('refuses WEBHOOK_ALLOW_PRIVATE_TARGETS in production, naming the variable', () => {
    const loaded = loadConfig(
      testEnv({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SCRYPT_COST: '17' }),
    );
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
    const dev = loadConfig(testEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_ATTEMPTS: '3' }));
    expect(dev.ok && dev.value.webhooks).toMatchObject({
      allowPrivateTargets: true,
      maxAttempts: 3,
      timeoutMs: 10_000,
    });
    expect(loadConfig(testEnv({ WEBHOOK_TIMEOUT_MS: 'soon' })).ok).toBe(false);
    const listed = loadConfig(
      testEnv({ WEBHOOK_ALLOWED_HOSTS: ' hooks.example.com, *.partner.example ,127.0.0.1' }),
    );
    expect(listed.ok && listed.value.webhooks.allowedHosts).toEqual([
      'hooks.example.com',
      '*.partner.example',
      '127.0.0.1',
    ]);
    const bad = loadConfig(testEnv({ WEBHOOK_ALLOWED_HOSTS: 'https://hooks.example.com/' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toContain('WEBHOOK_ALLOWED_HOSTS');
  });
});

describe('SSRF guard (default settings)', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.destroy();
  });

  it('refuses loopback, private, link-local, unique-local and multicast targets at registration', async () => {
    server = await startTestServer({ kind: 'embedded' });
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Guard' }, { token: user.token });
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost:8080/x',
      'http://[::1]/x',
      'http://10.1.2.3/x',
      'http://192.168.0.10/x',
      'http://172.16.5.4/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/x',
      'http://[fd00::1]/x',
      'http://224.0.0.1/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
      'http://2130706433/x',
    ]) {
      const res = await api.post(
        `/api/v1/projects/${project.body.data.id}/webhooks`,
        { url, events: ['task.completed'] },
        { token: user.token },
      );
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe('不允许的 Webhook 地址');
    }
  });

  it('accepts a name that does not resolve now, and each delivery resolves it again', async () => {
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Later' }, { token: user.token });
    const projectId = project.body.data.id as string;
    const hook = await api.post(
      `/api/v1/projects/${projectId}/webhooks`,
      { url: 'https://hooks.assetloom.invalid/x', events: ['task.completed'] },
      { token: user.token },
    );
    expect(hook.status).toBe(200);
    await api.post(`/api/v1/projects/${projectId}/webhooks/${hook.body.data.id}/ping`, undefined, {
      token: user.token,
    });
    const path = `/api/v1/projects/${projectId}/webhooks/${hook.body.data.id}/deliveries`;
    let log = await api.get(path, { token: user.token });
    for (let i = 0; i < 100 && log.body.data.deliveries[0]?.attempts !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = await api.get(path, { token: user.token });
    }
    for (let i = 0; i < 100 && log.body.data.deliveries[0]?.log.length !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = await api.get(path, { token: user.token });
    }
    // No answer (the name does not resolve): logged, and retried later with backoff.
    expect(log.body.data.deliveries[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(log.body.data.deliveries[0].log[0]).toMatchObject({ statusCode: null });
    expect(log.body.data.deliveries[0].log[0].error).toMatch(/ENOTFOUND|EAI_AGAIN|resolve/);
    expect(Date.parse(log.body.data.deliveries[0].nextAttemptAt)).toBeGreaterThan(Date.now());
  });

  it('re-checks at delivery time: literal and resolved private addresses are refused', async () => {
    const receiver = await startReceiver();
    try {
      const send = createWebhookSender({});
      const request = (url: string) =>
        send({ url, headers: {}, body: '{}', signal: AbortSignal.timeout(2000) });
      await expect(request(receiver.url)).rejects.toThrow(WebhookTargetError);
      // A name that resolves to loopback is refused in the socket's own lookup.
      await expect(request(receiver.url.replace('127.0.0.1', 'localhost'))).rejects.toThrow(/refused target/);
      expect(receiver.received).toHaveLength(0);
      // With the development setting the same request goes through.
      const allowed = createWebhookSender({ allowPrivateTargets: true });
      await expect(
        allowed({ url: receiver.url, headers: {}, body: '{}', signal: AbortSignal.timeout(2000) }),
      ).resolves.toEqual({
        status: 200,
      });
      // An allowlist (WEBHOOK_ALLOWED_HOSTS) is judged before the connection, private targets or not.
      const listed = createWebhookSender({ allowPrivateTargets: true, allowedHosts: ['hooks.example.com'] });
      await expect(
        listed({ url: receiver.url, headers: {}, body: '{}', signal: AbortSignal.timeout(2000) }),
      ).rejects.toThrow(/not in the allowed webhook hosts/);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

const mongoUri = injectMongoUri('reference-server webhooks kill -9 test on MongoDB');

describe.each([
  ['embedded', true],
  ['mongodb', mongoUri !== null],
] as const)('kill -9 of the delivering process (%s store)', (kind, available) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it.skipIf(!available)(
    'another process finishes the delivery; the repeat carries the same webhook-id',
    async () => {
      // The first request is never answered: the process delivering it is killed meanwhile.
      const receiver = await startReceiver((n) => (n === 0 ? null : 200));
      cleanups.push(() => receiver.close());
      const dir = await mkdtemp(join(tmpdir(), 'assetloom-webhooks-kill-'));
      const db = uniqueDbName('webhooks');
      cleanups.push(async () => {
        await rm(dir, { recursive: true, force: true });
        if (kind === 'mongodb') {
          const c = new MongoClient(mongoUri as string);
          await c
            .db(db)
            .dropDatabase()
            .finally(() => c.close());
        }
      });
      const env: Record<string, string> = {
        DATA_DIR: dir,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_MS: '3000',
        WEBHOOK_POLL_MS: '50',
        WORKER_POLL_MS: '50',
        ...(kind === 'mongodb' ? { MONGODB_URI: mongoUri as string, MONGODB_DB: db } : {}),
      };
      // embedded: one process (API + worker) killed and started again on the same data;
      // mongodb: an API process without workers, worker A killed, worker B takes over.
      const api =
        kind === 'embedded'
          ? await spawnServer(env)
          : await spawnServer({ ...env, WORKER_IN_PROCESS: 'false' });
      const procs: ServerProcess[] = [api];
      cleanups.push(async () => {
        for (const p of procs) await p.kill9();
      });
      const first = kind === 'embedded' ? api : await spawnServer(env, 30_000, 'worker-main.ts');
      if (first !== api) procs.push(first);

      const http = client(api.url);
      const user = await newUser(api.url);
      const project = await http.post('/api/v1/projects', { name: 'Kill' }, { token: user.token });
      const projectId = project.body.data.id as string;
      const hook = await http.post(
        `/api/v1/projects/${projectId}/webhooks`,
        { url: receiver.url, events: ['task.completed'] },
        { token: user.token },
      );
      const taskId = await generate(api.url, user.token, projectId, 'a doomed courier');
      await receiver.until((r) => r.length === 1, 30_000);
      await first.kill9();

      // With the lease of the dead attempt (timeout + 5 s) over, another process delivers again.
      let base = api.url;
      if (kind === 'embedded') {
        const again = await spawnServer(env);
        procs.push(again);
        base = again.url;
      } else {
        procs.push(await spawnServer(env, 30_000, 'worker-main.ts'));
      }
      await receiver.until((r) => r.some((x) => x.answered === 200), 60_000);
      const [held, delivered] = receiver.received as [Received, Received];
      expect(delivered.headers['webhook-id']).toBe(held.headers['webhook-id']);
      expect(delivered.body).toBe(held.body);
      const event = verifyWebhook(
        delivered.body,
        delivered.headers as Record<string, string>,
        hook.body.data.secret,
      );
      expect(event.data).toMatchObject({ taskId, status: 'completed' });

      const path = `/api/v1/projects/${projectId}/webhooks/${hook.body.data.id}/deliveries`;
      let log = await client(base).get(path, { token: user.token });
      for (let i = 0; i < 50 && log.body.data.deliveries[0]?.status !== 'delivered'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        log = await client(base).get(path, { token: user.token });
      }
      // The dead attempt left no log entry (its process died mid-request); the second one did.
      expect(log.body.data.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(log.body.data.deliveries[0].log.map((a: { statusCode: number }) => a.statusCode)).toEqual([200]);
    },
    120_000,
  );
});

describe.each([
  ['embedded', true],
  ['mongodb', mongoUri !== null],
] as const)('a task abandoned by its workers (%s store)', (kind, available) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it.skipIf(!available)(
    'is failed by the claim after the last attempt, and its webhook receives a signed task.failed',
    async () => {
      // The API alone (no worker yet), so the test can play the workers that die.
      const server = await startTestServer(
        kind === 'embedded' ? { kind } : { kind, uri: mongoUri as string },
        {
          WORKER_IN_PROCESS: 'false',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_POLL_MS: '50',
          WORKER_POLL_MS: '50',
          TASK_LEASE_MS: '500',
          TASK_MAX_ATTEMPTS: '2',
        },
      );
      cleanups.push(() => server.destroy());
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const api = client(server.url);
      const user = await newUser(server.url);
      const project = await api.post('/api/v1/projects', { name: 'Abandoned' }, { token: user.token });
      const projectId = project.body.data.id as string;
      const hook = await api.post(
        `/api/v1/projects/${projectId}/webhooks`,
        { url: receiver.url, events: ['task.failed'] },
        { token: user.token },
      );
      expect(hook.status).toBe(200);
      const taskId = await generate(server.url, user.token, projectId, 'a knight nobody finishes');

      // Two workers claim the task in turn and die: no renewal, their 500 ms leases run out.
      const { store, storage, logger } = server.running;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const dying = createTaskQueue({ store, owner: `dying-${attempt}`, leaseMs: 500, maxAttempts: 2 });
        const [claimed] = await dying.claim(1);
        expect(claimed?.task.id).toBe(taskId);
        expect(claimed?.attempt).toBe(attempt);
        await new Promise((r) => setTimeout(r, 600));
      }

      // The server's worker (its queue and delivery loop as configured) gives up on the third claim.
      const worker = workerFor(server.config, { store, storage, logger });
      worker.start();
      cleanups.push(() => worker.stop(1000));
      await receiver.until((r) => r.some((x) => x.answered === 200), 20_000);

      const task = await api.get(`/api/v1/tasks/${taskId}`, { token: user.token });
      expect(task.body.data).toMatchObject({ status: 'failed' });
      expect(task.body.data.error).toMatch(/abandoned by 2 workers.*giving up after 2 attempts/);
      expect(receiver.received).toHaveLength(1);
      const [delivery] = receiver.received as [Received];
      const event = verifyWebhook(
        delivery.body,
        delivery.headers as Record<string, string>,
        hook.body.data.secret,
      );
      expect(event.type).toBe('task.failed');
      expect(event.data).toMatchObject({ taskId, projectId, status: 'failed', error: task.body.data.error });

      const log = await api.get(`/api/v1/projects/${projectId}/webhooks/${hook.body.data.id}/deliveries`, {
        token: user.token,
      });
      expect(log.body.data.deliveries).toHaveLength(1);
      expect(log.body.data.deliveries[0]).toMatchObject({ type: 'task.failed', attempts: 1 });
    },
    60_000,
  );
});
