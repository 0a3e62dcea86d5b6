import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newUser, startTestServer, type TestServer } from '../helpers.js';
import { waitForTaskEnd } from '../task-helpers.js';

/**
 * Audit finding 9: a 1024 px 8 × 16 animation took 9 s and 833 MB in one worker, 30 such requests a
 * minute were allowed per user, and one user created 38,656 projects in 15 s. Per-user budgets now:
 * pixels per task (413), pixels of a user's tasks in flight (429 + Retry-After), projects per user
 * (429), storage bytes per user (413), each with its own message in the envelope. Decision 0032.
 */
const animation = (resolution: number, directions: number, framesPerDirection: number) => ({
  resolution,
  frames: { directions, framesPerDirection },
});

describe('per-user budgets with the default settings', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' }, { WORKER_IN_PROCESS: 'false' });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it("refuses the audit's 1024 px 8 × 16 animation with 413 任务规模超出上限; 512 px 8 × 16 fits", async () => {
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Heavy' }, { token: user.token });
    const heavy = await api.post(
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'a knight',
        assetType: 'animation',
        params: animation(1024, 8, 16),
      },
      { token: user.token },
    );
    expect(heavy.status).toBe(413);
    expect(heavy.body).toEqual({
      code: 413,
      message: '任务规模超出上限',
      // the bound and this task's own pixels (1024² × 8 × 16), decision 0052
      data: {
        reason: 'task_too_large',
        limit: { max: expect.any(Number), unit: 'pixels', actual: 1024 * 1024 * 128 },
      },
    });
    const fits = await api.post(
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'a knight',
        assetType: 'animation',
        params: animation(512, 8, 16),
      },
      { token: user.token },
    );
    expect(fits.status).toBe(200);
  });
});

describe('per-user budgets, set small', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      {
        // No worker: submitted tasks stay in flight.
        WORKER_IN_PROCESS: 'false',
        TASK_MAX_PIXELS: String(64 * 64 * 16),
        USER_MAX_PIXELS_IN_FLIGHT: String(2 * 64 * 64 * 16),
        USER_MAX_PROJECTS: '3',
      },
    );
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('pixels per task (413) and of the tasks in flight (429 + Retry-After); another user is not affected', async () => {
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Budget' }, { token: user.token });
    const projectId = project.body.data.id as string;
    const submit = (token: string, pid: string, prompt: string, params: object) =>
      api.post('/api/v1/generate', { projectId: pid, prompt, assetType: 'animation', params }, { token });
    const tooBig = await submit(user.token, projectId, 'a slime', animation(64, 8, 4));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('任务规模超出上限');
    expect((await submit(user.token, projectId, 'a slime', animation(64, 4, 4))).status).toBe(200);
    expect((await submit(user.token, projectId, 'a bat', animation(64, 4, 4))).status).toBe(200);
    // The same task again is the existing one (dedupe), not a new load.
    expect((await submit(user.token, projectId, 'a bat', animation(64, 4, 4))).status).toBe(200);
    const third = await submit(user.token, projectId, 'a ghost', animation(64, 4, 4));
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      code: 429,
      message: '进行中的任务过多，请稍后再试',
      data: { reason: 'too_many_in_flight' },
    });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await newUser(server.url);
    const theirs = await api.post('/api/v1/projects', { name: 'Theirs' }, { token: other.token });
    expect((await submit(other.token, theirs.body.data.id, 'a ghost', animation(64, 4, 4))).status).toBe(200);
  });

  it('projects per user: 429 工程数量已达上限 at the cap; deleting one frees a slot', async () => {
    const api = client(server.url);
    const user = await newUser(server.url);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await api.post('/api/v1/projects', { name: `P${i}` }, { token: user.token });
      expect(created.status).toBe(200);
      ids.push(created.body.data.id);
    }
    const fourth = await api.post('/api/v1/projects', { name: 'P3' }, { token: user.token });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({
      code: 429,
      message: '工程数量已达上限',
      data: { reason: 'project_limit', limit: { max: 3, unit: 'count', actual: 3 } },
    });
    expect((await api.del(`/api/v1/projects/${ids[0]}`, { token: user.token })).status).toBe(200);
    expect((await api.post('/api/v1/projects', { name: 'P3' }, { token: user.token })).status).toBe(200);
  });
});

describe('storage bytes per user', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' }, { USER_MAX_STORAGE_BYTES: '1000' });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('a user whose files take the allowance gets 413 存储空间已达上限 for the next task', async () => {
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Files' }, { token: user.token });
    const projectId = project.body.data.id as string;
    const first = await api.post(
      '/api/v1/generate',
      { projectId, prompt: 'a slime', assetType: 'sprite', params: { resolution: 32 } },
      { token: user.token },
    );
    expect((await waitForTaskEnd(server.url, user.token, first.body.data.taskId)).status).toBe('completed');
    // The task's files are counted on it.
    expect((await server.running.store.tasks.byId(first.body.data.taskId))?.storedBytes).toBeGreaterThan(
      1000,
    );
    const next = await api.post(
      '/api/v1/generate',
      { projectId, prompt: 'a bat', assetType: 'sprite', params: { resolution: 32 } },
      { token: user.token },
    );
    expect(next.status).toBe(413);
    expect(next.body).toEqual({
      code: 413,
      message: '存储空间已达上限',
      data: { reason: 'storage_quota', limit: { max: 1000, unit: 'bytes', actual: expect.any(Number) } },
    });
    // Deleting the project frees the space.
    expect((await api.del(`/api/v1/projects/${projectId}`, { token: user.token })).status).toBe(200);
    const again = await api.post('/api/v1/projects', { name: 'Files 2' }, { token: user.token });
    const fresh = await api.post(
      '/api/v1/generate',
      { projectId: again.body.data.id, prompt: 'a bat', assetType: 'sprite', params: { resolution: 32 } },
      { token: user.token },
    );
    expect(fresh.status).toBe(200);
  });
});
