// Issue #41: msw's `server.listen()` replaces globalThis.Request; a client made before it kept the
// class from before, and every authenticated call to the mock answered 415 请求体必须是 JSON. The
// SDK now looks fetch and Request up when a call is made, so the order does not matter.
import { createAssetClient } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createAssetMock } from '../src/index.js';

const BASE = 'http://order.test';
const mock = createAssetMock({
  baseUrl: BASE,
  clock: 'manual',
  seed: {
    users: [{ username: 'ada', password: 'secret123' }],
    projects: [{ owner: 'ada', name: 'Forest' }],
  },
});
const server = setupServer(...mock.handlers);
afterAll(async () => {
  server.close();
  await mock.controls.close();
});

const makeClient = () =>
  createAssetClient({ baseUrl: BASE, WebSocket: mock.controls.WebSocket, throwOnError: true });

describe('a client made before server.listen() works', () => {
  // made at import time, before any listen(): the usual order in a test file
  const early = makeClient();
  let taskId = '';

  it('logs in and sends authenticated JSON (create a project, submit a task)', async () => {
    server.listen({ onUnhandledRequest: 'error' });
    await mock.controls.ready;
    await early.login({ username: 'ada', password: 'secret123' });
    const project = await early.POST('/api/v1/projects', { body: { name: 'Made early' } });
    expect(project.name).toBe('Made early');
    ({ taskId } = await early.generate({ projectId: project.id, prompt: 'a knight', assetType: 'sprite' }));
    await mock.controls.runToCompletion(taskId);
    const task = await early.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
    expect(task.status).toBe('completed');
  });

  it('the raw openapi-fetch client of that client too', async () => {
    const { response } = await early.raw.PUT('/api/v1/projects/{projectId}/style', {
      params: { path: { projectId: mock.controls.seeded.projects.Forest as string } },
      body: { kvPairs: { palette: 'sweetie16' } },
    });
    expect(response.status).toBe(200);
  });

  it('after close() and a second listen(), clients made before and in between still work', async () => {
    server.close();
    const between = makeClient();
    server.listen({ onUnhandledRequest: 'error' });
    for (const api of [early, between]) {
      await api.login({ username: 'ada', password: 'secret123' });
      const project = await api.POST('/api/v1/projects', { body: { name: `again ${Math.random()}` } });
      expect(project.id).toEqual(expect.any(String));
    }
  });
});
