import { createAssetClient } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetMock } from '../src/index.js';

const BASE = 'http://seed.test';
const names = ['Forest Quest', 'Space Miner', 'Cave Run', 'Sky Port'];
const mock = createAssetMock({
  baseUrl: BASE,
  clock: 'manual', // time stands still: every seed record would share one timestamp
  seed: {
    users: [{ username: 'demo', password: 'demo-pass-1' }],
    projects: names.map((name) => ({ owner: 'demo', name })),
  },
});
const server = setupServer(...mock.handlers);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await mock.controls.ready;
});
afterAll(async () => {
  await mock.controls.close();
  server.close();
});

describe('seeding', () => {
  it('lists seeded projects newest first in seed order, before anything the client creates', async () => {
    const api = createAssetClient({ baseUrl: BASE, throwOnError: true });
    await api.login({ username: 'demo', password: 'demo-pass-1' });
    await api.POST('/api/v1/projects', { body: { name: 'Made by the client' } });
    const list = await api.GET('/api/v1/projects', {});
    expect(list.projects.map((p) => p.name)).toEqual(['Made by the client', ...[...names].reverse()]);
  });
});
