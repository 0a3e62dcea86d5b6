// GET /api/v1/capabilities on the real server: what the configured image provider honours (decision 0048).
import { afterEach, describe, expect, it } from 'vitest';
import { client, expectDocumented, startTestServer, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.destroy();
  server = undefined;
});

async function capabilities(env: Record<string, string>) {
  server = await startTestServer({ kind: 'embedded' }, env);
  const answer = await client(server.url).get('/api/v1/capabilities'); // public: no token
  expect(answer.status).toBe(200);
  expectDocumented('GET', '/api/v1/capabilities', 200, answer.body);
  expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
  return answer.body.data;
}

describe('GET /api/v1/capabilities', () => {
  it('states that the default procedural provider cannot redraw, inpaint or follow references', async () => {
    const data = await capabilities({});
    expect(data).toMatchObject({
      provider: { name: 'procedural', kind: 'procedural' },
      inputs: { image: false, mask: false, references: false, pixelate: true, paletteFrom: true },
      uploads: true,
      limits: { maxResolution: 1024, maxUploadSide: 4096 },
    });
    expect(data.assetTypes).toContain('tileset');
    expect(data.assetTypes).toContain('level');
  });

  it('states what a configured model provider honours, under the server upload limits', async () => {
    // a1111 is never called to answer: the address only has to be well formed.
    const data = await capabilities({
      IMAGE_PROVIDER: 'a1111',
      A1111_URL: 'http://127.0.0.1:9',
      UPLOAD_MAX_SIDE: '2048',
    });
    expect(data).toMatchObject({
      provider: { name: 'a1111', kind: 'model' },
      inputs: { image: true, mask: true, references: false },
      limits: { maxUploadSide: 2048 },
    });
  });
});
