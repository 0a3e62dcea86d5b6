import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryStorage,
  createOpenAIImageProvider,
  decodePng,
  encodePng,
  runPipeline,
} from '../src/index.js';
import { type FakeServer, json, startFakeServer } from './helpers.js';

/** A 200×100 RGB picture: a red disc on a flat white ground, as an image model would paint it. */
function fakePicture(): string {
  const w = 200;
  const h = 100;
  const d = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const inside = (x - 100) ** 2 + (y - 50) ** 2 < 35 ** 2;
      d[i] = inside ? 200 : 255;
      d[i + 1] = inside ? (x % 7) * 20 : 255;
      d[i + 2] = inside ? 40 : 255;
      d[i + 3] = 255;
    }
  }
  return Buffer.from(encodePng(d, w, h)).toString('base64');
}

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAI-compatible images provider', () => {
  it('requests b64_json images, decodes, removes the backdrop and resizes', async () => {
    const picture = fakePicture();
    server = await startFakeServer((_req, _body, res) =>
      json(res, 200, { created: 1, data: [{ b64_json: picture }] }),
    );
    const provider = createOpenAIImageProvider({
      baseUrl: `${server.url}/v1`,
      apiKey: 'sk-img',
      model: 'img-1',
      retries: 0,
    });
    const storage = createMemoryStorage();
    const result = await runPipeline(
      {
        prompt: 'a red ball',
        assetType: 'animation',
        projectStyle: {},
        params: { resolution: 48, frames: { directions: 1, framesPerDirection: 2 }, format: 'spritesheet' },
        keyPrefix: 'k/',
      },
      { storage, providers: { image: provider }, maxRetries: 0 },
    );
    // two identical replies make a cycle that does not move: the quality supervisor says so
    expect(result).toMatchObject({ ok: false, code: 'quality_rejected' });
    expect(server.requests).toHaveLength(2);
    const body = JSON.parse(server.requests[0]!.body);
    expect(body).toMatchObject({ model: 'img-1', n: 1, response_format: 'b64_json', size: '1024x1024' });
    expect(server.requests[0]!.url).toBe('/v1/images/generations');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-img');

    const frame = await provider.generate(
      {
        assetType: 'sprite',
        prompt: 'p',
        userPrompt: 'p',
        tags: [],
        style: {},
        resolution: 48,
        directions: 1,
        framesPerDirection: 1,
        seed: 1,
        attempt: 0,
      },
      {},
    );
    const img = frame.frames[0]!;
    expect([img.width, img.height]).toEqual([48, 48]);
    expect(img.data[3]).toBe(0); // corner made transparent
    expect(img.data[(24 * 48 + 24) * 4 + 3]).toBe(255); // the disc stays
    const png = decodePng(encodePng(img.data, 48, 48));
    expect(png.ok).toBe(true);
  });

  it('passes a background through the whole pipeline', async () => {
    const picture = fakePicture();
    server = await startFakeServer((_req, _body, res) => json(res, 200, { data: [{ b64_json: picture }] }));
    const provider = createOpenAIImageProvider({ baseUrl: server.url, apiKey: 'k', model: 'm' });
    const storage = createMemoryStorage();
    const r = await runPipeline(
      {
        prompt: 'sky',
        assetType: 'background',
        projectStyle: {},
        params: { resolution: 64, format: 'spritesheet' },
        keyPrefix: '',
      },
      { storage, providers: { image: provider } },
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.provenance.provider).toBe('openai-images:m');
  });

  it.each([
    ['HTTP 500 twice', (res: Parameters<typeof json>[0]) => json(res, 500, {}), /HTTP 500/],
    ['no images', (res: Parameters<typeof json>[0]) => json(res, 200, { data: [] }), /expected 1 b64_json/],
    [
      'not a PNG',
      (res: Parameters<typeof json>[0]) => json(res, 200, { data: [{ b64_json: 'aGVsbG8=' }] }),
      /decodePng/,
    ],
  ])('fails the task as provider_failed on %s', async (_name, answer, message) => {
    server = await startFakeServer((_req, _body, res) => answer(res));
    const provider = createOpenAIImageProvider({ baseUrl: server.url, apiKey: 'k', model: 'm', retries: 1 });
    const r = await runPipeline(
      {
        prompt: 'x',
        assetType: 'background',
        projectStyle: {},
        params: { resolution: 32, format: 'spritesheet' },
        keyPrefix: '',
      },
      { storage: createMemoryStorage(), providers: { image: provider } },
    );
    expect(r).toMatchObject({
      ok: false,
      code: 'provider_failed',
      error: '[assetloom/pipeline] image provider "openai-images:m" failed',
    });
    if (!r.ok) expect(r.detail).toMatch(message);
  });
});
