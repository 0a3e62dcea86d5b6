// params.width / params.height (issue #28): backgrounds and UI pieces on a canvas of their own, from
// the request through validation, the expected layout, the provider's request and the stored PNG.
import { describe, expect, it } from 'vitest';
import {
  createMemoryStorage,
  decodePng,
  type GenerationParams,
  type ImageProvider,
  type ImageRequest,
  type PipelineRequest,
  runPipeline,
  templatePrompt,
  validateRequest,
} from '../src/index.js';
import { expectedLayout } from '../src/layout.js';
import { createA1111Provider } from '../src/providers/a1111.js';
import { planSheet } from '../src/providers/model-common.js';
import { createOpenAIImageProvider } from '../src/providers/openai-images.js';
import type { RgbaImage } from '../src/types/index.js';
import { type FakeServer, json, startFakeServer } from './helpers.js';
import { pngOf } from './pixel-art.js';

const request = (
  over: Partial<PipelineRequest> = {},
  params: Partial<GenerationParams> = {},
): PipelineRequest => ({
  prompt: 'a quiet meadow',
  assetType: 'background',
  projectStyle: {},
  params: { resolution: 64, format: 'spritesheet', ...params },
  keyPrefix: 'projects/p1/tasks/t1/',
  ...over,
});

describe('validateRequest: width and height', () => {
  const cases: [
    string,
    { assetType: PipelineRequest['assetType']; params: Record<string, unknown>; want: RegExp | null },
  ][] = [
    ['background 320 × 180', { assetType: 'background', params: { width: 320, height: 180 }, want: null }],
    ['ui 480 × 270', { assetType: 'ui', params: { width: 480, height: 270 }, want: null }],
    ['background, width only', { assetType: 'background', params: { width: 320 }, want: null }],
    ['the bounds', { assetType: 'ui', params: { width: 16, height: 1024 }, want: null }],
    [
      'a sprite',
      {
        assetType: 'sprite',
        params: { width: 320, height: 180 },
        want: /params.width is for background and ui only, not sprite/,
      },
    ],
    [
      'an animation',
      {
        assetType: 'animation',
        params: { height: 180 },
        want: /params.height is for background and ui only/,
      },
    ],
    [
      'a tileset',
      { assetType: 'tileset', params: { width: 64 }, want: /params.width is for background and ui only/ },
    ],
    [
      'below 16',
      {
        assetType: 'background',
        params: { width: 15, height: 180 },
        want: /params.width must be an integer from 16 to 1024/,
      },
    ],
    [
      'above 1024',
      {
        assetType: 'background',
        params: { width: 320, height: 1025 },
        want: /params.height must be an integer from 16 to 1024/,
      },
    ],
    ['a fraction', { assetType: 'ui', params: { width: 99.5 }, want: /params.width must be an integer/ }],
    [
      'a string',
      { assetType: 'background', params: { height: '180' }, want: /params.height must be an integer/ },
    ],
  ];
  it.each(cases)('%s', (_name, { assetType, params, want }) => {
    const problems = validateRequest(request({ assetType }, params as Partial<GenerationParams>));
    if (want === null) expect(problems).toEqual([]);
    else expect(problems.join('; ')).toMatch(want);
  });
});

describe('expectedLayout: the frame of a background or UI piece is width × height', () => {
  const cases: [
    string,
    {
      assetType: 'background' | 'ui';
      text: string;
      params: Partial<GenerationParams>;
      want: [number, number];
    },
  ][] = [
    [
      'background 320 × 180',
      { assetType: 'background', text: 'a meadow', params: { width: 320, height: 180 }, want: [320, 180] },
    ],
    [
      'background, neither: resolution square',
      { assetType: 'background', text: 'a meadow', params: { resolution: 96 }, want: [96, 96] },
    ],
    [
      'background, width only: height is the resolution',
      {
        assetType: 'background',
        text: 'a meadow',
        params: { width: 320, resolution: 180 },
        want: [320, 180],
      },
    ],
    [
      'background, height only: width is the resolution',
      { assetType: 'background', text: 'a meadow', params: { height: 200 }, want: [64, 200] },
    ],
    [
      'ui panel 256 × 128',
      { assetType: 'ui', text: 'a stone panel', params: { width: 256, height: 128 }, want: [256, 128] },
    ],
    [
      'ui button, neither: its kind’s 2:1',
      { assetType: 'ui', text: 'a start button', params: { resolution: 64 }, want: [64, 32] },
    ],
    [
      'ui button 96 × 24: every state is the canvas',
      { assetType: 'ui', text: 'a start button', params: { width: 96, height: 24 }, want: [96, 24] },
    ],
  ];
  it.each(cases)('%s', (_name, { assetType, text, params, want }) => {
    const layout = expectedLayout(assetType, { resolution: 64, format: 'spritesheet', ...params }, text);
    expect([layout.frameWidth, layout.frameHeight]).toEqual(want);
  });

  it('ignores them for other asset types (the pipeline refuses them before)', () => {
    const layout = expectedLayout(
      'sprite',
      { resolution: 32, format: 'spritesheet', width: 320, height: 180 },
      'a knight',
    );
    expect([layout.frameWidth, layout.frameHeight]).toEqual([32, 32]);
  });
});

/** Three bands (sky, hills, grass) filling the canvas the pipeline asks for. */
function bands(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const c = y < height / 2 ? [120, 180, 230] : y < (height * 3) / 4 ? [70, 130, 70] : [90, 160, 60];
    for (let x = 0; x < width; x++) data.set([c[0]!, c[1]!, c[2]!, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

/** A provider drawing its frames at the size it is asked for, recording each request. */
function sizedProvider(): ImageProvider & { seen: ImageRequest[] } {
  const seen: ImageRequest[] = [];
  return {
    name: 'sized',
    seen,
    async generate(req) {
      seen.push(req);
      return {
        frames: [bands(req.width ?? req.resolution, req.height ?? req.resolution)],
        animation: 'background',
      };
    },
  };
}

describe('the pipeline hands the canvas to the provider and stores it', () => {
  it('a 320 × 180 background: the provider is asked for 320 × 180 and the PNG is 320 × 180', async () => {
    const provider = sizedProvider();
    const storage = createMemoryStorage();
    const result = await runPipeline(request({}, { width: 320, height: 180 }), {
      storage,
      providers: { image: provider },
    });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(provider.seen[0]).toMatchObject({ resolution: 64, width: 320, height: 180 });
    if (!result.ok) return;
    const png = result.assets.find((a) => a.format === 'png')!;
    expect([png.width, png.height]).toEqual([320, 180]);
    expect(png.metadata).toMatchObject({ frameWidth: 320, frameHeight: 180, frameCount: 1 });
    const decoded = decodePng(storage.get(png.key)!.bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    expect([decoded.image.width, decoded.image.height]).toEqual([320, 180]);
  });

  it('without a canvas the provider is asked for the resolution square, as before', async () => {
    const provider = sizedProvider();
    const result = await runPipeline(request({}, { resolution: 48 }), {
      storage: createMemoryStorage(),
      providers: { image: provider },
    });
    expect(result.ok).toBe(true);
    expect(provider.seen[0]).toMatchObject({ resolution: 48, width: 48, height: 48 });
  });

  it('a provider that ignores the canvas fails the size check (no silent square)', async () => {
    const square: ImageProvider = {
      name: 'square',
      async generate(req) {
        return { frames: [bands(req.resolution, req.resolution)], animation: 'background' };
      },
    };
    const result = await runPipeline(request({}, { width: 320, height: 180 }), {
      storage: createMemoryStorage(),
      providers: { image: square },
      maxRetries: 0,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/size/);
  });

  it('a sprite with a canvas is an invalid request, before any stage runs', async () => {
    const provider = sizedProvider();
    const result = await runPipeline(
      request({ assetType: 'sprite', prompt: 'a knight' }, { width: 320, height: 180 }),
      {
        storage: createMemoryStorage(),
        providers: { image: provider },
      },
    );
    expect(result).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(provider.seen).toHaveLength(0);
  });
});

describe('the prompt’s technical section names the canvas', () => {
  it.each([
    ['background', { resolution: 64, width: 320, height: 180 }, '320×180 像素'],
    ['ui', { resolution: 128, height: 48 }, '128×48 像素'],
    ['background', { resolution: 96 }, '96×96 像素'],
  ] as const)('%s %j → %s', (assetType, params, want) => {
    const text = templatePrompt({ tags: ['pixel'], assetType, prompt: 'a meadow', params });
    expect(text.split('【技术】')[1]).toContain(want);
  });
});

describe('model providers ask for the canvas’s aspect', () => {
  const base: ImageRequest = {
    assetType: 'background',
    prompt: 'a meadow',
    userPrompt: 'a meadow',
    tags: [],
    style: {},
    resolution: 64,
    directions: 1,
    framesPerDirection: 1,
    seed: 7,
    attempt: 0,
  };
  const cases: [string, { width?: number; height?: number; maxEdge: number; wide: boolean | null }][] = [
    ['320 × 180 is wide', { width: 320, height: 180, maxEdge: 1024, wide: true }],
    ['180 × 320 is tall', { width: 180, height: 320, maxEdge: 1024, wide: false }],
    ['480 × 270 on a small server (512)', { width: 480, height: 270, maxEdge: 512, wide: true }],
    ['180 × 320 on a small server (512)', { width: 180, height: 320, maxEdge: 512, wide: false }],
    ['no canvas is square', { maxEdge: 1024, wide: null }],
  ];
  it.each(cases)('planSheet: %s, within the longest edge', (_name, { width, height, maxEdge, wide }) => {
    const plan = planSheet({ ...base, ...(width ? { width } : {}), ...(height ? { height } : {}) }, maxEdge);
    expect(Math.max(plan.width, plan.height)).toBeLessThanOrEqual(Math.max(maxEdge, 256));
    if (wide === null) expect(plan.width).toBe(plan.height);
    else if (wide) expect(plan.width / plan.height).toBeGreaterThan(1.5);
    else expect(plan.height / plan.width).toBeGreaterThan(1.5);
    if (width && height) expect([plan.layout.frameWidth, plan.layout.frameHeight]).toEqual([width, height]);
  });

  let server: FakeServer | undefined;
  const close = async () => {
    await server?.close();
    server = undefined;
  };

  it('AUTOMATIC1111 gets a wide txt2img for a 320 × 180 background', async () => {
    const picture = Buffer.from(pngOf(bands(896, 512))).toString('base64');
    server = await startFakeServer((req, _body, res) => {
      if (req.url === '/sdapi/v1/txt2img')
        return json(res, 200, { images: [picture], parameters: {}, info: '{}' });
      json(res, 200, { progress: 0, state: {}, current_image: null, textinfo: null });
    });
    try {
      await createA1111Provider({ baseUrl: server.url, pollMs: 1000 }).generate(
        { ...base, width: 320, height: 180 },
        {},
      );
      const body = JSON.parse(server.requests.find((r) => r.url === '/sdapi/v1/txt2img')!.body);
      expect(body.width / body.height).toBeGreaterThan(1.5);
    } finally {
      await close();
    }
  });

  it('through the pipeline, an AUTOMATIC1111 picture becomes a 320 × 180 background', async () => {
    server = await startFakeServer((req, body, res) => {
      if (req.url === '/sdapi/v1/txt2img') {
        // the picture the model was asked for (its size), in fat pixels of the scene
        const { width, height } = JSON.parse(body) as { width: number; height: number };
        const native = bands(Math.round(width / 2.8), Math.round(height / 2.8));
        const big = new Uint8Array(width * height * 4);
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) {
            const nx = Math.min(native.width - 1, Math.floor(x / 2.8));
            const ny = Math.min(native.height - 1, Math.floor(y / 2.8));
            big.set(
              native.data.subarray((ny * native.width + nx) * 4, (ny * native.width + nx) * 4 + 4),
              (y * width + x) * 4,
            );
          }
        return json(res, 200, {
          images: [Buffer.from(pngOf({ width, height, data: big })).toString('base64')],
          parameters: {},
          info: '{}',
        });
      }
      json(res, 200, { progress: 0, state: {}, current_image: null, textinfo: null });
    });
    try {
      const storage = createMemoryStorage();
      const result = await runPipeline(request({}, { width: 320, height: 180 }), {
        storage,
        providers: { image: createA1111Provider({ baseUrl: server.url, pollMs: 1000 }) },
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (!result.ok) return;
      const png = result.assets.find((a) => a.format === 'png')!;
      const decoded = decodePng(storage.get(png.key)!.bytes);
      expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([320, 180]);
      const sent = JSON.parse(server.requests.find((r) => r.url === '/sdapi/v1/txt2img')!.body);
      expect(sent.width / sent.height).toBeGreaterThan(1.5);
    } finally {
      await close();
    }
  });

  it('OpenAI Images gets its landscape size for a wide background and portrait for a tall one', async () => {
    const picture = Buffer.from(pngOf(bands(64, 64))).toString('base64');
    server = await startFakeServer((_req, _b, res) =>
      json(res, 200, { created: 1, data: [{ b64_json: picture }] }),
    );
    try {
      const provider = createOpenAIImageProvider({
        baseUrl: `${server.url}/v1`,
        apiKey: 'k',
        model: 'gpt-image-1',
      });
      await provider.generate({ ...base, width: 320, height: 180 }, {});
      await provider.generate({ ...base, width: 180, height: 320 }, {});
      await provider.generate(base, {});
      expect(server.requests.map((r) => JSON.parse(r.body).size)).toEqual([
        '1536x1024',
        '1024x1536',
        '1024x1024',
      ]);
    } finally {
      await close();
    }
  });
});
