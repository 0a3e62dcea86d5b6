import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender, hostProblem, WebhookTargetError } from '../../src/webhooks/index.js';
import { client, newUser, startTestServer, type TestServer } from '../helpers.js';

/**
 * Audit finding 3: the webhook guard accepted IPv4-compatible IPv6 literals (`[::127.0.0.1]`,
 * `[::a9fe:a9fe]` = 169.254.169.254, `[::a00:1]` = 10.0.0.1) and other IPv4-embedding ranges. They
 * are refused at registration (403 不允许的 Webhook 地址) and again at delivery, before any
 * connection. (Each range of the table has its own test in packages/core/src/webhooks/special-ranges.test.ts.)
 */
const EMBEDDING_TARGETS = [
  'http://[::127.0.0.1]:{port}/x',
  'http://[::7f00:1]:{port}/x',
  'http://[::a9fe:a9fe]/latest/meta-data',
  'http://[::a00:1]/x',
  'http://[::8.8.8.8]/x',
  'http://[64:ff9b::7f00:1]/x',
  'http://[64:ff9b::a9fe:a9fe]/x',
  'http://[2002:7f00:1::1]/x',
  'http://[2002:a9fe:a9fe::1]/x',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
  'http://[::ffff:0:7f00:1]/x',
  'http://[::ffff:a9fe:a9fe]/x',
  'http://[100::1]/x',
  'http://[fec0::1]/x',
  'http://[5f00::1]/x',
];

describe('SSRF guard: IPv4-embedding and other special-purpose IPv6 ranges', () => {
  let server: TestServer;
  let hits = 0;
  const receiver = createServer((_req, res) => {
    hits += 1;
    res.end('ok');
  });
  let port = 0;

  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await server?.destroy();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('refuses them at registration with 403 不允许的 Webhook 地址', async () => {
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Guard v6' }, { token: user.token });
    for (const template of EMBEDDING_TARGETS) {
      const url = template.replace('{port}', String(port));
      const res = await api.post(
        `/api/v1/projects/${project.body.data.id}/webhooks`,
        { url, events: ['task.completed'] },
        { token: user.token },
      );
      expect(res.status, url).toBe(403);
      expect(res.body.message, url).toBe('不允许的 Webhook 地址');
    }
  });

  it('refuses them at delivery, before connecting', async () => {
    const send = createWebhookSender({});
    for (const template of EMBEDDING_TARGETS) {
      const url = template.replace('{port}', String(port));
      await expect(
        send({ url, headers: {}, body: '{}', signal: AbortSignal.timeout(2000) }),
        url,
      ).rejects.toThrow(WebhookTargetError);
    }
    expect(hits).toBe(0);
  });

  it('judges literals the same way in the registration-time host check', async () => {
    expect(await hostProblem('[::a9fe:a9fe]', {})).toContain('IPv4-compatible');
    expect(await hostProblem('[2002:a00:1::1]', {})).toContain('6to4');
    expect(await hostProblem('[2606:4700:4700::1111]', {})).toBeUndefined();
  });
});
