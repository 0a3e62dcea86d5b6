import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { client, startTestServer, type TestServer, uniqueName } from '../helpers.js';
import { openStream, waitForTaskEnd } from '../task-helpers.js';

/**
 * Audit findings 5 and 6: with PUBLIC_BASE_URL unset, `Host: evil.example` went straight into
 * `Location` and into asset URLs; the WebSocket cookie check accepted `Origin: null` and compared
 * hosts without schemes. In production signed and asset URLs now use PUBLIC_BASE_URL or are
 * root-relative, never a request header; the WebSocket refuses `null` and compares scheme, host and
 * port.
 */
const PRODUCTION = { NODE_ENV: 'production', SCRYPT_COST: '17', PIPELINE_THREADS: '0' };

/** A request over node:http with a Host header of our choosing. */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The terminal event's asset URLs over a WebSocket opened with a Host header of our choosing. */
function streamUrls(base: string, taskId: string, token: string, host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/tasks/${taskId}/ws`, {
      headers: { authorization: `Bearer ${token}`, host },
    });
    const urls: string[] = [];
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as { result?: { assets: { url: string }[] } };
      for (const asset of event.result?.assets ?? []) urls.push(asset.url);
    });
    ws.on('close', () => resolve(urls));
    ws.on('error', reject);
  });
}

async function generatedTask(server: TestServer) {
  const api = client(server.url);
  const username = uniqueName();
  expect((await api.post('/auth/register', { username, password: 'secret-pass' })).status).toBe(201);
  const login = await api.post('/auth/login', { username, password: 'secret-pass' });
  const token = login.body.data.token as string;
  const project = await api.post('/api/v1/projects', { name: 'Origins' }, { token });
  const generated = await api.post(
    '/api/v1/generate',
    {
      projectId: project.body.data.id,
      prompt: 'a small red slime',
      assetType: 'sprite',
      params: { resolution: 16 },
    },
    { token },
  );
  const taskId = generated.body.data.taskId as string;
  expect((await waitForTaskEnd(server.url, token, taskId)).status).toBe('completed');
  return { token, taskId };
}

describe('production without PUBLIC_BASE_URL: root-relative URLs', () => {
  let server: TestServer;
  let task: Awaited<ReturnType<typeof generatedTask>>;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' }, PRODUCTION);
    task = await generatedTask(server);
  }, 120_000);
  afterAll(async () => {
    await server?.destroy();
  });

  it('asset URLs, the download redirect and the stream never take the Host header', async () => {
    for (const host of ['evil.example', 'evil.example:8443']) {
      const assets = await rawGet(server.url, `/api/v1/tasks/${task.taskId}/assets`, {
        authorization: `Bearer ${task.token}`,
        host,
      });
      expect(assets.status).toBe(200);
      const urls = (JSON.parse(assets.body) as { data: { assets: { key: string; url: string }[] } }).data
        .assets;
      expect(urls.length).toBeGreaterThan(0);
      for (const asset of urls) {
        expect(asset.url).toMatch(/^\/files\//);
        expect(asset.url).not.toContain('evil');
      }
      const key = urls[0]?.key as string;
      const download = await rawGet(server.url, `/api/v1/assets/download?key=${encodeURIComponent(key)}`, {
        host,
      });
      expect(download.status).toBe(302);
      expect(download.headers.location).toMatch(/^\/files\//);
      // The relative URL works against the server's real origin.
      const file = await fetch(`${server.url}${download.headers.location as string}`);
      expect(file.status).toBe(200);
      const streamed = await streamUrls(server.url, task.taskId, task.token, host);
      expect(streamed.length).toBeGreaterThan(0);
      for (const url of streamed) expect(url).toMatch(/^\/files\//);
    }
  });

  it('the WebSocket cookie check refuses Origin null and compares scheme, host and port', async () => {
    const port = new URL(server.url).port;
    const refused = [
      'null',
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${Number(port) + 1}`,
      'http://127.0.0.1',
      `http://evil.example:${port}`,
    ];
    for (const origin of refused) {
      const res = await openStream(server.url, task.taskId, { cookie: task.token, origin });
      expect(res.refused, origin).toMatchObject({ status: 403, body: { code: 403 } });
    }
    const own = await openStream(server.url, task.taskId, {
      cookie: task.token,
      origin: `http://127.0.0.1:${port}`,
    });
    expect(own.refused).toBeUndefined();
    expect(own.messages.length).toBeGreaterThan(0);
    // No Origin at all (a non-browser client) still passes.
    const none = await openStream(server.url, task.taskId, { cookie: task.token });
    expect(none.refused).toBeUndefined();
  });
});

describe('production with PUBLIC_BASE_URL: that origin, whatever the Host header', () => {
  let server: TestServer;
  let task: Awaited<ReturnType<typeof generatedTask>>;
  beforeAll(async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      { ...PRODUCTION, PUBLIC_BASE_URL: 'https://assets.example.com' },
    );
    task = await generatedTask(server);
  }, 120_000);
  afterAll(async () => {
    await server?.destroy();
  });

  it('asset URLs and the download redirect use PUBLIC_BASE_URL', async () => {
    const assets = await rawGet(server.url, `/api/v1/tasks/${task.taskId}/assets`, {
      authorization: `Bearer ${task.token}`,
      host: 'evil.example',
    });
    const list = (JSON.parse(assets.body) as { data: { assets: { key: string; url: string }[] } }).data
      .assets;
    for (const asset of list) expect(asset.url).toMatch(/^https:\/\/assets\.example\.com\/files\//);
    const download = await rawGet(
      server.url,
      `/api/v1/assets/download?key=${encodeURIComponent(list[0]?.key as string)}`,
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    );
    expect(download.headers.location).toMatch(/^https:\/\/assets\.example\.com\/files\//);
  });

  it('the WebSocket accepts the cookie from the configured origin', async () => {
    const res = await openStream(server.url, task.taskId, {
      cookie: task.token,
      origin: 'https://assets.example.com',
    });
    expect(res.refused).toBeUndefined();
    const other = await openStream(server.url, task.taskId, {
      cookie: task.token,
      origin: 'http://assets.example.com',
    });
    expect(other.refused).toMatchObject({ status: 403 });
  });

  it("the WebSocket takes no origin from the request's Host (issue #37)", async () => {
    // the page's origin equals the Host the request reached: before, that alone was accepted
    const hostOrigin = new URL(server.url).origin;
    const res = await openStream(server.url, task.taskId, { cookie: task.token, origin: hostOrigin });
    expect(res.refused).toMatchObject({ status: 403 });
  });
});
