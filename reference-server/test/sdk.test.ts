import { createAssetClient, type FetchLike } from '@assetloom/sdk';
import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectDocumented,
  type StoreTarget,
  startTestServer,
  type TestServer,
  uniqueName,
} from './helpers.js';

/**
 * The happy paths through the SDK (@assetloom/sdk), the client users will hold. The SDK is given a
 * fetch that checks every response against the OpenAPI document before handing it on.
 */
const checkedFetch: FetchLike = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(input.url);
  const text = await response.clone().text();
  expectDocumented(input.method, url.pathname + url.search, response.status, text ? JSON.parse(text) : null);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return response;
};

const mongoUri = injectMongoUri('reference-server SDK happy paths on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

describe.each(targets)('SDK happy paths on the %s store', (_name, target) => {
  let server: TestServer;
  beforeAll(async () => {
    if (target !== null) server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it.skipIf(target === null)(
    'registers, logs in, manages projects and styles, submits and reads tasks',
    async () => {
      const api = createAssetClient({
        baseUrl: server.url,
        fetch: checkedFetch,
        throwOnError: true,
        retry: false,
      });
      const username = uniqueName('sdk');

      const health = await api.GET('/api/v1/health');
      expect(health.status).toBe('ok');

      const registered = await api.POST('/auth/register', {
        body: { username, password: 'sdk-pass-1', email: `${username}@example.org` },
      });
      expect(registered.username).toBe(username);
      const login = await api.login({ username, password: 'sdk-pass-1' });
      expect(login.user).toMatchObject({ id: registered.id, username, email: `${username}@example.org` });

      const me = await api.GET('/api/v1/auth/me');
      expect(me).toMatchObject({ id: String(registered.id), username });

      const project = await api.POST('/api/v1/projects', {
        body: { name: 'SDK project', style: { artStyle: 'pixel', palette: 'sweetie16' } },
      });
      expect(project).toMatchObject({
        name: 'SDK project',
        taskCount: 0,
        style: { kvPairs: { artStyle: 'pixel' } },
      });
      const path = { params: { path: { projectId: project.id } } };

      const renamed = await api.PUT('/api/v1/projects/{projectId}', { ...path, body: { name: 'Renamed' } });
      expect(renamed.name).toBe('Renamed');
      expect((await api.GET('/api/v1/projects/{projectId}', path)).name).toBe('Renamed');

      const style = await api.PUT('/api/v1/projects/{projectId}/style', {
        ...path,
        body: { kvPairs: { artStyle: 'hand-drawn', lighting: 'top-left' } },
      });
      expect(style.kvPairs).toEqual({ artStyle: 'hand-drawn', lighting: 'top-left' });
      expect((await api.GET('/api/v1/projects/{projectId}/style', path)).kvPairs).toEqual(style.kvPairs);

      const submitted = await api.generate({
        projectId: project.id,
        prompt: 'a fox, walking',
        assetType: 'animation',
        taskStyle: { mood: 'playful' },
        params: { resolution: 32, frames: { directions: 8, framesPerDirection: 6 }, format: 'individual' },
      });
      const task = await api.GET('/api/v1/tasks/{taskId}', {
        params: { path: { taskId: submitted.taskId } },
      });
      expect(task).toMatchObject({
        taskId: submitted.taskId,
        projectId: project.id,
        taskStyle: { mood: 'playful' },
        params: { resolution: 32, frames: { directions: 8, framesPerDirection: 6 }, format: 'individual' },
        status: 'running',
        stage: 'prompt_builder',
      });
      const tasks = await api.GET('/api/v1/projects/{projectId}/tasks', path);
      expect(tasks.tasks.map((t) => t.id)).toEqual([submitted.taskId]);

      const listed = [];
      for await (const item of api.paginate('/api/v1/projects')) listed.push(item);
      expect(listed).toMatchObject([{ id: project.id, taskCount: 1 }]);

      const changed = await api.changePassword({ oldPassword: 'sdk-pass-1', newPassword: 'sdk-pass-2' });
      expect(changed.expiresIn).toBeGreaterThan(0);
      expect((await api.GET('/api/v1/auth/me')).username).toBe(username);

      expect(await api.DELETE('/api/v1/projects/{projectId}', path)).toBeNull();
      expect(
        (await api.GET('/api/v1/projects', { params: { query: { page: 1, pageSize: 20 } } })).total,
      ).toBe(0);
    },
  );
});
