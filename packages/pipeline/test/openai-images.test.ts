// The OpenAI Images provider through the whole pipeline, against a loopback stand-in that answers
// like POST /v1/images/generations ({ created, data: [{ b64_json }] }).
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStorage, decodePng, NAMED_PALETTES, runPipeline } from '../src/index.js';
import { createOpenAIImageProvider } from '../src/providers/openai-images.js';
import { type FakeServer, json, startFakeServer } from './helpers.js';
import { figure, hconcat, modelPicture, pngOf } from './pixel-art.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// what a model sends for "a 2-frame walk sheet in pixel art": fat 8-px pixels, off-grid, noisy
const sheet = Buffer.from(
  pngOf(
    hconcat([
      modelPicture(figure(0), 8, { x: 3, y: 5 }, { jitter: 9, pad: 6 }),
      modelPicture(figure(1), 8, { x: 3, y: 5 }, { jitter: 9, pad: 6 }),
    ]),
  ),
).toString('base64');

describe('OpenAI Images provider in the pipeline', () => {
  it('turns one sheet picture into palette-locked, aligned pixel-art frames that pass the model checks', async () => {
    server = await startFakeServer((_req, _body, res) =>
      json(res, 200, { created: 1, data: [{ b64_json: sheet }] }),
    );
    const provider = createOpenAIImageProvider({
      baseUrl: `${server.url}/v1`,
      apiKey: 'sk-img',
      model: 'gpt-image-1',
    });
    const storage = createMemoryStorage();
    const result = await runPipeline(
      {
        prompt: 'a walking knight',
        assetType: 'animation',
        projectStyle: { palette: 'sweetie16' },
        params: { resolution: 32, frames: { directions: 1, framesPerDirection: 2 }, format: 'individual' },
        keyPrefix: 'k/',
      },
      { storage, providers: { image: provider }, maxRetries: 0 },
    );
    expect(server.requests).toHaveLength(1); // one request for the whole sheet
    const body = JSON.parse(server.requests[0]!.body);
    expect(body).toMatchObject({ model: 'gpt-image-1', background: 'transparent', output_format: 'png' });
    expect(body).not.toHaveProperty('response_format');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-img');
    if (!result.ok) throw new Error(`${result.code}: ${result.error}`);
    const names = result.provenance.quality.checks.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'palette',
        'grid_fidelity',
        'transparency',
        'stray_alpha',
        'orphan_pixels',
        'silhouette',
      ]),
    );
    expect(result.assets[0]!.metadata.provenance.quality.passed).toBe(true);
    const pal = NAMED_PALETTES.sweetie16!;
    const bottoms: number[] = [];
    for (const asset of result.assets.filter((a) => a.key.endsWith('.png'))) {
      const png = decodePng(storage.get(asset.key)!.bytes);
      if (!png.ok) throw new Error(png.error);
      let bottom = -1;
      for (let i = 0; i < png.image.data.length; i += 4) {
        const a = png.image.data[i + 3]!;
        expect(a === 0 || a === 255).toBe(true);
        if (!a) continue;
        bottom = Math.floor(i / 4 / png.image.width);
        const [r, g, b] = [png.image.data[i]!, png.image.data[i + 1]!, png.image.data[i + 2]!];
        expect(pal.some((c) => c[0] === r && c[1] === g && c[2] === b)).toBe(true);
      }
      bottoms.push(bottom);
    }
    expect(bottoms).toHaveLength(2);
    expect(bottoms[0]).toBe(bottoms[1]); // one baseline
  });

  it.each([
    ['HTTP 500 twice', 500, {}, /HTTP 500/],
    ['no images', 200, { data: [] }, /without a b64_json image/],
    ['not a PNG', 200, { data: [{ b64_json: 'aGVsbG8=' }] }, /not a readable PNG/],
  ] as const)(
    'fails the task as provider_failed on %s, saying why',
    async (_name, status, reply, message) => {
      server = await startFakeServer((_req, _body, res) => json(res, status, reply));
      const provider = createOpenAIImageProvider({
        baseUrl: server.url,
        apiKey: 'k',
        model: 'dall-e-3',
        retries: 1,
      });
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
      expect(r).toMatchObject({ ok: false, code: 'provider_failed' });
      if (!r.ok) expect(r.error).toMatch(message);
    },
  );
});
