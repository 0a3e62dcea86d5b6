import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAssetClient, verifyWebhook } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetMock, installWebSocketGlobal } from '../src/index.js';

installWebSocketGlobal();

/**
 * The mock delivers webhooks through core's outbox and dispatcher, signed as the server signs them,
 * to whatever fetch it is given: here the unpatched global fetch, reaching a real receiver on 127.0.0.1.
 */
const BASE = 'http://mock-webhooks.test';
const realFetch = globalThis.fetch;
const received: Array<{ headers: IncomingHttpHeaders; body: string; status: number }> = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    // The first request fails: the mock retries it like the server.
    const status = received.length === 0 ? 503 : 204;
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
    res.writeHead(status).end();
  });
});

const mock = createAssetMock({
  baseUrl: BASE,
  stepMs: 5,
  seed: { users: [{ username: 'ada', password: 'secret123' }], projects: [{ owner: 'ada', name: 'Hooks' }] },
  webhooks: { fetch: (...args) => realFetch(...args), allowPrivateTargets: true, retryBaseMs: 50 },
});
const strict = createAssetMock({
  baseUrl: 'http://mock-strict.test',
  seed: { users: [{ username: 'bob', password: 'secret123' }], projects: [{ owner: 'bob', name: 'Guard' }] },
});
const server = setupServer(...mock.handlers, ...strict.handlers);

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server.listen({ onUnhandledRequest: 'error' });
  await mock.controls.ready;
  await strict.controls.ready;
});
afterAll(async () => {
  await mock.controls.close();
  await strict.controls.close();
  server.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function until(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not met; ${received.length} requests received`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('webhooks in the mock', () => {
  it('delivers signed task events with retries; the delivery log shows them', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const api = createAssetClient({ baseUrl: BASE, throwOnError: true });
    await api.login({ username: 'ada', password: 'secret123' });
    const projectId = mock.controls.seeded.projects.Hooks as string;
    const hook = await api.POST('/api/v1/projects/{projectId}/webhooks', {
      params: { path: { projectId } },
      body: { url, events: ['task.completed'] },
    });
    expect(hook.secret).toMatch(/^whsec_/);
    const { taskId } = await api.generate({ projectId, prompt: 'a mock courier', assetType: 'sprite' });
    await until(() => received.some((r) => r.status === 204));

    expect(received.map((r) => r.status)).toEqual([503, 204]);
    expect(received[0]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
    const event = verifyWebhook(
      received[1]?.body as string,
      received[1]?.headers as Record<string, string>,
      hook.secret,
    );
    expect(event).toMatchObject({ type: 'task.completed', data: { taskId, projectId, status: 'completed' } });

    const readLog = () =>
      api.GET('/api/v1/projects/{projectId}/webhooks/{webhookId}/deliveries', {
        params: { path: { projectId, webhookId: hook.id } },
      });
    // The receiver answered before the dispatcher wrote the outcome: read until it is recorded.
    let log = await readLog();
    for (let i = 0; i < 100 && log.deliveries[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      log = await readLog();
    }
    expect(log.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, taskId });
    expect(log.deliveries[0]?.log.map((a) => a.statusCode)).toEqual([503, 204]);
  });

  it('refuses loopback targets unless allowed, as the server does', async () => {
    const api = createAssetClient({ baseUrl: 'http://mock-strict.test' });
    await api.login({ username: 'bob', password: 'secret123' });
    const projectId = strict.controls.seeded.projects.Guard as string;
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://[::1]/x',
      'http://10.0.0.8/x',
    ]) {
      const res = await api.POST('/api/v1/projects/{projectId}/webhooks', {
        params: { path: { projectId } },
        body: { url, events: ['task.failed'] },
      });
      expect(res.error?.code, url).toBe(403);
    }
  });
});
