// Image inputs on the model providers (issue #31) against loopback fakes of their wire formats:
// AUTOMATIC1111's POST /sdapi/v1/img2img (init_images, mask, denoising_strength; modules/api/models.py
// StableDiffusionImg2ImgProcessingAPI) and OpenAI's POST /v1/images/edits (multipart: image or
// image[], mask with transparency where to edit, prompt, model, size, input_fidelity). ComfyUI's image
// paths run against the real ComfyUI (test/real-servers/comfyui-images.suite.ts); its graph rewrite is
// checked here.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

// the fakes answer 256² to 1024² PNGs, encoded and decoded in pure TypeScript: slow on a busy machine
vi.setConfig({ testTimeout: 60_000 });

import { createMemoryStorage, decodePng, encodePng, type RgbaImage, runPipeline } from '../src/index.js';
import { createA1111Provider } from '../src/providers/a1111.js';
import { DEFAULT_COMFYUI_WORKFLOW, fillWorkflow, withImageNodes } from '../src/providers/comfyui.js';
import { createOpenAIImageProvider } from '../src/providers/openai-images.js';
import type { ImageRequest } from '../src/types/index.js';

interface Seen {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A fake on 127.0.0.1 keeping each request's raw bytes; `answer` gives status and JSON. */
async function fake(answer: (seen: Seen) => [number, unknown]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { url: req.url ?? '', headers: req.headers, bytes: Buffer.concat(chunks) };
      seen.push(s);
      const [status, body] = answer(s);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function flat(w: number, h: number, rgb: [number, number, number]): RgbaImage {
  const data = new Uint8Array(w * h * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return { width: w, height: h, data };
}

/** A 64 × 64 picture: left half red, right half blue. */
function picture(): RgbaImage {
  const img = flat(64, 64, [30, 60, 200]);
  for (let y = 0; y < 64; y++)
    for (let x = 0; x < 32; x++) img.data.set([210, 40, 40, 255], (y * 64 + x) * 4);
  return img;
}

/** White over the top half (edit there), black below. */
function topMask(): RgbaImage {
  const img = flat(64, 64, [0, 0, 0]);
  for (let y = 0; y < 32; y++)
    for (let x = 0; x < 64; x++) img.data.set([255, 255, 255, 255], (y * 64 + x) * 4);
  return img;
}

const req = (strength: number, extra: Partial<ImageRequest> = {}): ImageRequest => ({
  assetType: 'sprite',
  prompt: 'a knight',
  userPrompt: 'a knight',
  tags: [],
  style: {},
  resolution: 32,
  directions: 1,
  framesPerDirection: 1,
  seed: 9,
  attempt: 0,
  inputs: { image: { picture: picture(), strength }, mask: topMask() },
  ...extra,
});

const px = (img: RgbaImage, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];
const b64png = (img: RgbaImage) => Buffer.from(encodePng(img.data, img.width, img.height)).toString('base64');
const decode = (bytes: Uint8Array) => (decodePng(bytes) as { ok: true; image: RgbaImage }).image;

describe('AUTOMATIC1111: /sdapi/v1/img2img', () => {
  it('sends init_images, the mask and denoising_strength, and keeps the picture outside the mask', async () => {
    const green = flat(256, 256, [20, 200, 40]);
    const a1111 = await fake((s) =>
      s.url === '/sdapi/v1/img2img'
        ? [200, { images: [b64png(green)], parameters: {}, info: '{}' }]
        : [200, {}],
    );
    const out = await createA1111Provider({ baseUrl: a1111.url, pollMs: 1000 }).generate(req(0.35), {});
    const sent = JSON.parse(a1111.seen.find((s) => s.url === '/sdapi/v1/img2img')!.bytes.toString('utf8'));
    expect(sent).toMatchObject({
      denoising_strength: 0.35,
      seed: 9,
      inpainting_fill: 1,
      inpainting_mask_invert: 0,
    });
    expect(a1111.seen.some((s) => s.url === '/sdapi/v1/txt2img')).toBe(false);
    const init = decode(Buffer.from(sent.init_images[0], 'base64'));
    const mask = decode(Buffer.from(sent.mask, 'base64'));
    expect([init.width, init.height]).toEqual([sent.width, sent.height]);
    expect(px(mask, 5, 5)).toEqual([255, 255, 255, 255]);
    expect(px(mask, 5, init.height - 5)).toEqual([0, 0, 0, 255]);
    const frame = out.frames[0]!;
    // inside the mask: what the model drew; outside: the picture as it was sent, pixel for pixel
    expect(px(frame, 10, 10)).toEqual([20, 200, 40, 255]);
    expect(px(frame, 10, frame.height - 10)).toEqual(px(init, 10, init.height - 10));
    expect(px(frame, frame.width - 10, frame.height - 10)).toEqual(
      px(init, init.width - 10, init.height - 10),
    );
  });

  it('is refused for reference pictures, naming params.references, before anything is sent', async () => {
    const a1111 = await fake(() => [500, {}]);
    const result = await runPipeline(
      {
        prompt: 'a knight like this',
        assetType: 'sprite',
        projectStyle: {},
        params: { resolution: 32, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
        keyPrefix: 't/',
        inputs: { references: [picture()] },
      },
      { storage: createMemoryStorage(), providers: { image: createA1111Provider({ baseUrl: a1111.url }) } },
    );
    expect(result).toMatchObject({ ok: false, code: 'unsupported' });
    if (!result.ok) expect(result.error).toContain('params.references');
    expect(a1111.seen).toHaveLength(0);
  });
});

describe('OpenAI: /v1/images/edits', () => {
  it('gpt-image: image[] (the picture, then the references), a transparent-where-to-edit mask, input_fidelity', async () => {
    const drawn = flat(1024, 1024, [240, 200, 20]);
    const openai = await fake(() => [200, { created: 1, data: [{ b64_json: b64png(drawn) }] }]);
    const provider = createOpenAIImageProvider({
      baseUrl: `${openai.url}/v1`,
      apiKey: 'sk-test',
      model: 'gpt-image-1',
      retries: 0,
    });
    expect(provider.inputs).toEqual({ image: true, mask: true, references: true });
    const out = await provider.generate(
      req(0.3, {
        inputs: {
          image: { picture: picture(), strength: 0.3 },
          mask: topMask(),
          references: [flat(40, 40, [0, 0, 0])],
        },
      }),
      {},
    );
    const call = openai.seen[0]!;
    expect(call.url).toBe('/v1/images/edits');
    expect(call.headers.authorization).toBe('Bearer sk-test');
    const form = await new Request('http://x', {
      method: 'POST',
      headers: { 'content-type': String(call.headers['content-type']) },
      body: new Uint8Array(call.bytes),
    }).formData();
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('input_fidelity')).toBe('high');
    expect(String(form.get('prompt'))).toContain('a knight');
    const images = form.getAll('image[]') as File[];
    expect(images).toHaveLength(2);
    const mask = decode(new Uint8Array(await (form.get('mask') as File).arrayBuffer()));
    expect(mask.data[(5 * mask.width + 5) * 4 + 3]).toBe(0); // transparent: edit here
    expect(mask.data[((mask.height - 5) * mask.width + 5) * 4 + 3]).toBe(255); // opaque: keep
    const init = decode(new Uint8Array(await images[0]!.arrayBuffer()));
    const frame = out.frames[0]!;
    expect(px(frame, 10, 10)).toEqual([240, 200, 20, 255]);
    expect(px(frame, 10, frame.height - 10)).toEqual(px(init, 10, init.height - 10));
  });

  it('dall-e-2: one image field and b64_json; references are refused by name', async () => {
    const openai = await fake(() => [
      200,
      { created: 1, data: [{ b64_json: b64png(flat(256, 256, [9, 9, 9])) }] },
    ]);
    const provider = createOpenAIImageProvider({
      baseUrl: openai.url,
      apiKey: 'k',
      model: 'dall-e-2',
      retries: 0,
    });
    expect(provider.inputs?.references).toBe(false);
    await provider.generate(req(0.8, { inputs: { image: { picture: picture(), strength: 0.8 } } }), {});
    const call = openai.seen[0]!;
    const form = await new Request('http://x', {
      method: 'POST',
      headers: { 'content-type': String(call.headers['content-type']) },
      body: new Uint8Array(call.bytes),
    }).formData();
    expect(form.getAll('image')).toHaveLength(1);
    expect(form.get('response_format')).toBe('b64_json');
    expect(form.get('mask')).toBeNull();
  });
});

describe('ComfyUI: the txt2img graph made img2img', () => {
  it('replaces the empty latent by LoadImage → VAEEncode (→ SetLatentNoiseMask) and sets denoise', () => {
    const filled = fillWorkflow(DEFAULT_COMFYUI_WORKFLOW, {
      prompt: 'p',
      negativePrompt: 'n',
      seed: 1,
      width: 512,
      height: 512,
      batch: 1,
    });
    const wf = withImageNodes(filled, {
      image: 'assetloom/a.png',
      mask: 'assetloom/m.png',
      references: [],
      strength: 0.4,
    });
    expect(Object.values(wf).some((n) => n.class_type === 'EmptyLatentImage')).toBe(false);
    expect(wf.assetloom_image).toEqual({ class_type: 'LoadImage', inputs: { image: 'assetloom/a.png' } });
    expect(wf.assetloom_encode?.inputs).toEqual({ pixels: ['assetloom_image', 0], vae: ['4', 2] });
    expect(wf.assetloom_mask?.inputs).toEqual({ image: 'assetloom/m.png', channel: 'red' });
    expect(wf['3']?.inputs.latent_image).toEqual(['assetloom_noise_mask', 0]);
    expect(wf['3']?.inputs.denoise).toBe(0.4);
  });

  it('fills the LoadImage nodes titled "reference…", and says how many a workflow takes', () => {
    const base = {
      ...DEFAULT_COMFYUI_WORKFLOW,
      r1: { class_type: 'LoadImage', inputs: { image: 'x.png' }, _meta: { title: 'Reference 1' } },
    };
    const wf = withImageNodes(base, { references: ['assetloom/r.png'], strength: 1 });
    expect(wf.r1?.inputs.image).toBe('assetloom/r.png');
    expect(() => withImageNodes(base, { references: ['a', 'b'], strength: 1 })).toThrow(/takes 1 reference/);
  });
});
