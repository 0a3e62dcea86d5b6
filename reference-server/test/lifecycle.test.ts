import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { call, client, newUser, startTestServer, TEST_SECRET, type TestServer } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Polls `probe` until it returns something (at most `timeoutMs`). */
async function waitFor<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((resolveDelay) => setTimeout(resolveDelay, 25));
  }
}

describe('embedded store persistence', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers.reverse()) await server.destroy();
  });

  it('keeps users, projects and tasks across a restart', async () => {
    const first = await startTestServer({ kind: 'embedded' });
    servers.push(first);
    const user = await newUser(first.url);
    const api = client(first.url);
    const project = await api.post(
      '/api/v1/projects',
      { name: 'Kept', style: { artStyle: 'pixel' } },
      { token: user.token },
    );
    const task = await api.post(
      '/api/v1/generate',
      { projectId: project.body.data.id, prompt: 'kept', assetType: 'sprite' },
      { token: user.token },
    );

    const second = await first.restart();
    servers.push(second);
    const again = client(second.url);
    // The token survives too: same secret, same user, same token version.
    expect((await again.get('/api/v1/auth/me', { token: user.token })).status).toBe(200);
    const login = await again.post('/auth/login', { username: user.username, password: user.password });
    expect(login.status).toBe(200);
    const list = await again.get('/api/v1/projects', { token: user.token });
    expect(list.body.data.projects).toMatchObject([{ id: project.body.data.id, name: 'Kept', taskCount: 1 }]);
    const style = await again.get(`/api/v1/projects/${project.body.data.id}/style`, { token: user.token });
    expect(style.body.data).toEqual({ kvPairs: { artStyle: 'pixel' } });
    expect((await again.get(`/api/v1/tasks/${task.body.data.taskId}`, { token: user.token })).status).toBe(
      200,
    );
  });
});

describe('API reference pages', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.destroy();
  });

  it('serves Redoc at /docs and /docs/review-auth with the bundle beside them', async () => {
    server = await startTestServer({ kind: 'embedded' });
    for (const path of ['/docs', '/docs/', '/docs/review-auth']) {
      const res = await call(server.url, 'GET', path, { unchecked: true });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('/docs/redoc.standalone.js');
    }
    const page = await call(server.url, 'GET', '/docs', { unchecked: true });
    expect(page.text).toContain('Assetloom Asset Generation API');
    const bundle = await call(server.url, 'GET', '/docs/redoc.standalone.js', { unchecked: true });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    const json = await call(server.url, 'GET', '/docs/asset-api.json', { unchecked: true });
    expect(json.body.openapi).toBe('3.1.0');
    const missing = await call(server.url, 'GET', '/docs/nothing-here');
    expect(missing.status).toBe(404);
    const wrongMethod = await call(server.url, 'POST', '/docs', { unchecked: true });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({
      code: 405,
      message: '请求方法不允许',
      data: { reason: 'method_not_allowed' },
    });
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then refuses new connections', async () => {
    const server = await startTestServer({ kind: 'embedded' });
    try {
      const url = new URL('/auth/register', server.url);
      let closing: Promise<void> | undefined;
      // Start a request, send half its body, begin the shutdown, then finish the body.
      const response = new Promise<{ status: number; body: string }>((resolvePromise, reject) => {
        const req = request(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json' } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('{"username":"inflight-user",');
        setTimeout(() => {
          closing = server.stop();
          setTimeout(() => req.end('"password":"abcdef"}'), 100);
        }, 100);
      });
      const result = await response;
      expect(result.status).toBe(201);
      expect(JSON.parse(result.body).data.username).toBe('inflight-user');
      await closing;
      await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
    } finally {
      await server.destroy();
    }
  });
});

describe('the CLI entry (src/main.ts)', () => {
  const tsx = join(root, 'node_modules', '.bin', 'tsx');

  /** Starts `tsx src/main.ts`; its stdout JSON log lines are collected into `logs` as they come. */
  function startCli(env: Record<string, string>): { child: ChildProcess; logs: Record<string, unknown>[] } {
    const child = spawn(tsx, [join(root, 'src', 'main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    });
    return { child, logs };
  }

  function exitCode(child: ChildProcess): Promise<number | null> {
    return new Promise((resolvePromise) => {
      if (child.exitCode !== null) resolvePromise(child.exitCode);
      else child.once('exit', (code) => resolvePromise(code));
    });
  }

  it('starts on the embedded store, serves, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-cli-'));
    const { child, logs } = startCli({
      NODE_ENV: 'test',
      PORT: '0',
      JWT_SECRET: TEST_SECRET,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SCRYPT_COST: '10',
    });
    try {
      const listening = await waitFor(() => logs.find((entry) => entry.msg === 'listening'));
      const url = listening.url as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await call(url as string, 'GET', '/api/v1/health', {
        headers: { 'x-request-id': 'cli-check' },
      });
      expect(health.status).toBe(200);

      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
      const requestLine = logs.find((entry) => entry.reqId === 'cli-check');
      expect(requestLine).toMatchObject({ method: 'GET', path: '/api/v1/health', status: 200 });
      expect(logs.map((entry) => entry.msg)).toEqual(
        expect.arrayContaining(['signal received, closing', 'stopped']),
      );
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start without JWT_SECRET outside development, naming the variable', async () => {
    const { child } = startCli({ NODE_ENV: 'production', PORT: '0' });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exitCode(child)).toBe(1);
    expect(stderr).toContain('JWT_SECRET');
    expect(stderr).toContain('[assetloom/server]');
  });
});
