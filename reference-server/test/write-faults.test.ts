import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { client, newUser, startTestServer, type TestServer } from './helpers.js';
import { openStream, waitForTaskEnd } from './task-helpers.js';

/**
 * Faults injected into the real files of a running server on the embedded store. A data file is
 * swapped for a folder (appends then fail with EISDIR), and the storage's temp folder for a file
 * (writes fail with ENOTDIR): real file-system faults that stop root as well, unlike chmod.
 */
async function breakDataFile(dataDir: string, collection: string): Promise<() => Promise<void>> {
  const file = join(dataDir, `${collection}.db`);
  await rename(file, `${file}.aside`);
  await mkdir(file);
  return async () => {
    await rmdir(file);
    await rename(`${file}.aside`, file);
  };
}

/** A logger whose JSON lines the test can read. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const INTERNAL = { code: 500, message: '服务器内部错误', data: { reason: 'internal' } };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.destroy();
  server = undefined;
});

describe('a write the embedded store cannot append (HTTP)', () => {
  it('answers 500 and leaves no project and no task behind, before and after a restart', async () => {
    server = await startTestServer({ kind: 'embedded' }, { WORKER_POLL_MS: '20' });
    const dataDir = server.config.store.dataDir;
    const user = await newUser(server.url);
    const api = client(server.url);
    const auth = { token: user.token };

    let heal = await breakDataFile(dataDir, 'projects');
    const refused = await api.post('/api/v1/projects', { name: 'Ghost' }, auth);
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual(INTERNAL);
    await heal();
    expect((await api.get('/api/v1/projects', auth)).body.data).toEqual({ total: 0, projects: [] });

    const created = await api.post('/api/v1/projects', { name: 'Real' }, auth);
    expect(created.status).toBe(200);
    const projectId = created.body.data.id as string;
    const body = { projectId, prompt: 'wooden button', assetType: 'ui' };

    heal = await breakDataFile(dataDir, 'tasks');
    const plain = await api.post('/api/v1/generate', body, auth);
    const keyed = await api.call('POST', '/api/v1/generate', {
      ...auth,
      json: { ...body, prompt: 'health bar' },
      headers: { 'idempotency-key': 'retry-me' },
    });
    expect([plain.status, keyed.status]).toEqual([500, 500]);
    expect(plain.body).toEqual(INTERNAL);
    // the worker polls every 20 ms: give it many rounds to find a task that should not exist
    await new Promise((resolve) => setTimeout(resolve, 400));
    await heal();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const noTasks = { total: 0, tasks: [] };
    expect((await api.get(`/api/v1/projects/${projectId}/tasks`, auth)).body.data).toEqual(noTasks);
    expect((await api.get('/api/v1/projects', auth)).body.data.projects[0]).toMatchObject({ taskCount: 0 });

    server = await server.restart();
    const again = client(server.url);
    expect((await again.get(`/api/v1/projects/${projectId}/tasks`, auth)).body.data).toEqual(noTasks);
    expect(
      (await again.get('/api/v1/projects', auth)).body.data.projects.map((p: { name: string }) => p.name),
    ).toEqual(['Real']);

    // the retries go through as first submissions: no ghost behind the dedupe or idempotency key
    const retried = await again.post('/api/v1/generate', body, auth);
    const retriedKeyed = await again.call('POST', '/api/v1/generate', {
      ...auth,
      json: { ...body, prompt: 'health bar' },
      headers: { 'idempotency-key': 'retry-me' },
    });
    expect([retried.status, retriedKeyed.status]).toEqual([200, 200]);
    expect(retriedKeyed.body.data.taskId).not.toBe(retried.body.data.taskId);
    const done = await waitForTaskEnd(server.url, user.token, retried.body.data.taskId as string);
    expect(done.status).toBe('completed');
    const listed = await again.get(`/api/v1/projects/${projectId}/tasks`, auth);
    expect(listed.body.data.total).toBe(2);
  });

  it('answers success once the task is stored, even when the project counter cannot be moved', async () => {
    const { logger, lines } = capturedLogger();
    server = await startTestServer({ kind: 'embedded' }, { WORKER_POLL_MS: '20' }, { logger });
    const user = await newUser(server.url);
    const api = client(server.url);
    const auth = { token: user.token };
    const projectId = (await api.post('/api/v1/projects', { name: 'P' }, auth)).body.data.id as string;

    const heal = await breakDataFile(server.config.store.dataDir, 'projects');
    let submitted: Awaited<ReturnType<typeof api.post>>;
    try {
      submitted = await api.post('/api/v1/generate', { projectId, prompt: 'a slime', assetType: 'ui' }, auth);
    } finally {
      await heal();
    }
    expect(submitted.status).toBe(200);
    const taskId = submitted.body.data.taskId as string;
    expect((await waitForTaskEnd(server.url, user.token, taskId)).status).toBe('completed');
    const warned = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'project task counter not moved');
    expect(warned).toMatchObject({ level: 40, projectId, taskId, err: { type: 'StoreWriteError' } });
  });
});

describe('a failed task tells the client why without server internals', () => {
  it('names the storage failure, keeps paths out of the task and its events, and logs them', async () => {
    const { logger, lines } = capturedLogger();
    server = await startTestServer({ kind: 'embedded' }, { WORKER_POLL_MS: '20' }, { logger });
    const root =
      server.running.storage.kind === 'fs' ? join(server.config.store.dataDir, 'objects') : undefined;
    expect(root, 'the test server stores files on the file system').toBeDefined();
    const user = await newUser(server.url);
    const api = client(server.url);
    const auth = { token: user.token };
    const projectId = (await api.post('/api/v1/projects', { name: 'P' }, auth)).body.data.id as string;

    // the storage writes every file into <root>/.tmp first: make that a file, not a folder
    await rm(join(root as string, '.tmp'), { recursive: true, force: true });
    await writeFile(join(root as string, '.tmp'), 'not a folder');
    const submitted = await api.post(
      '/api/v1/generate',
      { projectId, prompt: 'wooden button', assetType: 'ui' },
      auth,
    );
    const taskId = submitted.body.data.taskId as string;
    const task = await waitForTaskEnd(server.url, user.token, taskId);
    const reason = '[assetloom/pipeline] the generated files could not be stored';
    expect(task).toMatchObject({ status: 'failed', stage: 'format_adapter', error: reason });

    const stream = await openStream(server.url, taskId, { token: user.token });
    expect(stream.messages.at(-1)).toMatchObject({ status: 'failed', error: reason });
    const seenByClient = JSON.stringify([task, stream.messages]);
    expect(seenByClient).not.toContain(server.config.store.dataDir);
    expect(seenByClient).not.toMatch(/ENOTDIR|EACCES|\.part|storage\.put/);

    // the operator still gets the whole story
    const failed = lines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'task failed' && l.taskId === taskId);
    expect(failed).toMatchObject({ level: 40, code: 'storage_failed', error: reason });
    expect(failed.detail).toMatch(/^storage\.put\("projects\/.+"\) failed: .+; check the storage adapter$/);
  });
});
