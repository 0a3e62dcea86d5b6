import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createAssetMock, installWebSocketGlobal } from '@assetloom/mock';
import { createAssetClient } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

installWebSocketGlobal();
const { handlers, controls } = createAssetMock({
  baseUrl: 'http://api.test',
  clock: 'manual',
  seed: {
    users: [{ username: 'ada', password: 'secret123' }],
    projects: [{ owner: 'ada', name: 'Forest', style: { palette: 'sweetie16' } }],
  },
});
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => controls.reset());
afterAll(() => {
  server.close();
  controls.close();
});

const api = () => createAssetClient({ baseUrl: 'http://api.test', WebSocket: controls.WebSocket });

describe('@assetloom/mock installed from its tarball', () => {
  it('runs a task to completion on the manual clock, with progress over the WebSocket', async () => {
    const client = api();
    await client.login({ username: 'ada', password: 'secret123' });
    const { data } = await client.generate({
      projectId: controls.seeded.projects.Forest,
      prompt: 'a knight',
      assetType: 'sprite',
    });
    const events = [];
    const waiting = client.waitForTask(data.taskId, {
      transport: 'ws',
      onEvent: (e) => events.push(e.stage),
    });
    await controls.runToCompletion(data.taskId);
    const done = await waiting;
    expect(done.data.status).toBe('completed');
    expect(events).toContain('asset_generator');
    const assets = await client.GET('/api/v1/tasks/{taskId}/assets', {
      params: { path: { taskId: data.taskId } },
    });
    const file = await client.downloadAsset(assets.data.assets[0]);
    expect(file.data.bytes.length).toBeGreaterThan(0);
  }, 60_000); // the mock draws the task for real: seconds of CPU, more on a loaded machine

  it('answers like the server: a wrong password is 401 with its message, injected 429s are retried', async () => {
    const client = api();
    const wrong = await client.login({ username: 'ada', password: 'nope-nope' });
    expect(wrong.error.httpStatus).toBe(401);
    controls.failNext({ path: '/api/v1/projects', method: 'GET', status: 429, retryAfter: 0, times: 1 });
    await client.login({ username: 'ada', password: 'secret123' });
    const list = await client.GET('/api/v1/projects');
    expect(list.error).toBeUndefined();
    expect(list.data.projects.map((p) => p.name)).toEqual(['Forest']);
  });

  it('brings no database driver: neither mongodb nor bson is installed', () => {
    const require = createRequire(import.meta.url);
    const resolves = (name) => {
      try {
        require.resolve(name);
        return true;
      } catch {
        return false;
      }
    };
    expect(resolves('mongodb')).toBe(false);
    expect(resolves('bson')).toBe(false);
    expect(existsSync('node_modules/mongodb')).toBe(false);
  });
});
