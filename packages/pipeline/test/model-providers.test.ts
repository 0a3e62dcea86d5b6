// The model providers against loopback fakes that speak each project's real wire format (the
// faults a real server will not produce on demand: 5xx, malformed answers, time-outs):
// - ComfyUI: replays the messages recorded from the real ComfyUI 0.30.0 (fixtures/comfyui-wire.json,
//   recorded by test/real-servers/comfyui-provider.suite.ts, which also runs the provider against the real server):
//   POST /prompt → { prompt_id, number, node_errors }, GET /ws?clientId= messages { type, data }
//   (status, execution_start, execution_cached, progress_state, executing, progress, binary preview
//   frames, executed, execution_success / execution_interrupted), GET /view, POST /interrupt, /queue.
// - AUTOMATIC1111 / Forge: modules/api/api.py — POST /sdapi/v1/txt2img → { images: [base64 PNG],
//   parameters, info }, GET /sdapi/v1/progress → { progress, eta_relative, state, current_image,
//   textinfo }, POST /sdapi/v1/interrupt.
// - OpenAI Images: POST /v1/images/generations → { created, data: [{ b64_json }] }.
import type { AddressInfo } from 'node:net';
import {
  type ComfyMessage,
  type ComfyRecording,
  type ComfyWireFixture,
  messageShapes,
  readFixture,
  wireShape,
} from '@assetloom/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createA1111Provider } from '../src/providers/a1111.js';
import { createComfyUIProvider, DEFAULT_COMFYUI_WORKFLOW } from '../src/providers/comfyui.js';
import { createOpenAIImageProvider, openAIImageBody } from '../src/providers/openai-images.js';
import type { ImageRequest } from '../src/types/index.js';
import { type FakeServer, json, startFakeServer } from './helpers.js';
import { figure, hconcat, modelPicture, pngOf } from './pixel-art.js';

const sprite: ImageRequest = {
  assetType: 'sprite',
  prompt: 'a knight',
  userPrompt: 'a knight',
  tags: [],
  style: {},
  resolution: 32,
  directions: 1,
  framesPerDirection: 1,
  seed: 1234,
  attempt: 0,
};
const walk: ImageRequest = { ...sprite, assetType: 'animation', framesPerDirection: 2 };

const onePng = Buffer.from(pngOf(modelPicture(figure(0), 8, { x: 3, y: 1 }))).toString('base64');
const sheetPng = pngOf(
  hconcat([modelPicture(figure(0), 8, { x: 0, y: 0 }), modelPicture(figure(1), 8, { x: 0, y: 0 })]),
);

let server: FakeServer | undefined;
let wss: WebSocketServer | undefined;
afterEach(async () => {
  for (const c of wss?.clients ?? []) c.terminate();
  await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
  wss = undefined;
  await server?.close();
  server = undefined;
});

// The ComfyUI fake replays the messages recorded from the real ComfyUI (test/real-servers/comfyui-provider.suite.ts
// records them into fixtures/comfyui-wire.json): the same types, fields and order, with the prompt id of
// this run. Only faults a real server will not produce on demand are written here by hand: HTTP 500, a
// broken PNG, an execution_error.
const wire = readFixture<ComfyWireFixture>('comfyui-wire.json');
type Mode =
  | 'ok'
  | 'cached'
  | 'interrupted'
  | 'hang'
  | 'error500'
  | 'badpng'
  | 'exec_error'
  | 'badworkflow'
  | 'own-id';

/** A recorded run's messages with its prompt id swapped for `promptId` (binary frames as buffers). */
function replay(run: ComfyRecording, promptId: string): Array<string | Buffer> {
  const recordedId = String(run.queued.body.prompt_id);
  return run.messages.map((m) => {
    if ('binary' in m) {
      // ComfyUI's preview frame: event type 1 (PREVIEW_IMAGE), image type 2 (PNG), then the image
      const frame = Buffer.alloc(m.binary);
      frame.writeUInt32BE(1, 0);
      frame.writeUInt32BE(2, 4);
      return frame;
    }
    return JSON.stringify(m).split(recordedId).join(promptId);
  });
}

describe('ComfyUI provider', () => {
  // ComfyUI serves HTTP and /ws on one port: a dedicated fake with both
  async function start(mode: Mode) {
    const { createServer } = await import('node:http');
    const requests: Array<{ method: string; url: string; body: string }> = [];
    const sent: ComfyMessage[] = [];
    let socket: import('ws').WebSocket | undefined;
    const send = (m: string | Buffer) => {
      sent.push(typeof m === 'string' ? (JSON.parse(m) as ComfyMessage) : { binary: m.length });
      socket?.send(m);
    };
    const http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        requests.push({ method: req.method ?? '', url: req.url ?? '', body });
        const url = new URL(req.url ?? '/', 'http://x');
        if (req.method === 'POST' && url.pathname === '/prompt') {
          if (mode === 'error500') return json(res, 500, { error: 'boom' });
          // server.py post_prompt: a workflow that does not validate is a 400 with node_errors
          if (mode === 'badworkflow') return json(res, wire.invalid.status, wire.invalid.body);
          // ComfyUI ≥ 0.3.x keeps a client's prompt_id; older servers mint their own
          const asked = (JSON.parse(body) as { prompt_id?: string }).prompt_id;
          const promptId = mode === 'own-id' || !asked ? 'c0ffee00-0000-4000-8000-000000000001' : asked;
          const recorded =
            mode === 'cached' ? wire.cached : mode === 'interrupted' ? wire.interrupted : wire.success;
          json(
            res,
            200,
            JSON.parse(
              JSON.stringify(recorded.queued.body)
                .split(String(recorded.queued.body.prompt_id))
                .join(promptId),
            ),
          );
          let messages = replay(recorded, promptId);
          if (mode === 'hang' || mode === 'exec_error') {
            // the recorded run up to its first sampler step, then silence (or the failure)
            const firstProgress = messages.findIndex(
              (m) => typeof m === 'string' && m.includes('"type":"progress"'),
            );
            messages = messages.slice(0, firstProgress + 1);
          }
          setTimeout(() => {
            for (const m of messages) send(m);
            if (mode === 'exec_error') {
              // execution.py's execution_error (not recorded: a random-weight model does not fail)
              send(
                JSON.stringify({
                  type: 'execution_error',
                  data: {
                    prompt_id: promptId,
                    node_id: '3',
                    node_type: 'KSampler',
                    executed: ['4', '5', '6', '7'],
                    exception_type: 'torch.OutOfMemoryError',
                    exception_message: 'CUDA out of memory. /home/gpu/ComfyUI/comfy/sample.py',
                    traceback: ['  File "/home/gpu/ComfyUI/execution.py", line 151'],
                    current_inputs: {},
                    current_outputs: {},
                    timestamp: 1,
                  },
                }),
              );
            }
          }, 20);
          return;
        }
        if (req.method === 'GET' && url.pathname === '/view') {
          res.writeHead(200, { 'content-type': wire.success.view?.contentType ?? 'image/png' });
          return res.end(mode === 'badpng' ? Buffer.from('not a png') : Buffer.from(sheetPng));
        }
        if (req.method === 'POST' && (url.pathname === '/interrupt' || url.pathname === '/queue')) {
          res.writeHead(200);
          return res.end();
        }
        json(res, 404, {});
      });
    });
    wss = new WebSocketServer({ server: http, path: '/ws' });
    wss.on('connection', (ws) => {
      socket = ws;
      send(JSON.stringify(wire.hello));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const { port } = http.address() as AddressInfo;
    server = {
      url: `http://127.0.0.1:${port}`,
      requests: [],
      close: () =>
        new Promise<void>((r) => {
          http.closeAllConnections();
          http.close(() => r());
        }),
    };
    return { url: `http://127.0.0.1:${port}`, requests, sent };
  }

  it('queues the filled workflow, forwards progress, fetches the sheet through /view and splits it', async () => {
    const fake = await start('ok');
    const provider = createComfyUIProvider({ baseUrl: fake.url, checkpoint: 'pixel.safetensors', WebSocket });
    const progress: Array<string | undefined> = [];
    const out = await provider.generate(walk, { onProgress: (_p, m) => progress.push(m) });
    expect(provider.kind).toBe('model');
    expect(out.frames).toHaveLength(2);
    const queued = JSON.parse(fake.requests.find((r) => r.url === '/prompt')!.body);
    expect(queued.client_id).toBeTruthy();
    expect(queued.prompt_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(queued.prompt['3'].inputs.seed).toBe(1234);
    expect(queued.prompt['6'].inputs.text).toContain('a knight');
    expect(queued.prompt['7'].inputs.text).toContain('blurry');
    expect(queued.prompt['5'].inputs).toMatchObject({ batch_size: 1 });
    expect(queued.prompt['5'].inputs.width).toBeGreaterThan(queued.prompt['5'].inputs.height);
    expect(queued.prompt['4'].inputs.ckpt_name).toBe('pixel.safetensors');
    expect(fake.requests.some((r) => r.url.startsWith('/view?filename=assetloom_'))).toBe(true);
    expect(progress).toEqual(['queued in ComfyUI', 'sampling 1/2', 'sampling 2/2', 'downloading images']);
    expect(fake.requests.map((r) => r.url.split('?')[0])).toEqual(['/prompt', '/view']);
  });

  it("answered from ComfyUI's cache (only cached messages): the re-sent output is used", async () => {
    const fake = await start('cached');
    const progress: Array<string | undefined> = [];
    const out = await createComfyUIProvider({ baseUrl: fake.url, WebSocket }).generate(walk, {
      onProgress: (_p, m) => progress.push(m),
    });
    expect(out.frames).toHaveLength(2);
    expect(progress).toEqual(['queued in ComfyUI', 'downloading images']);
  });

  it('a server that mints its own prompt id (before client ids): its id is followed', async () => {
    const fake = await start('own-id');
    const out = await createComfyUIProvider({ baseUrl: fake.url, WebSocket }).generate(walk, {});
    expect(out.frames).toHaveLength(2);
  });

  it('every message the fake sends has a type and shape recorded from the real ComfyUI', async () => {
    const recorded = messageShapes([
      wire.hello,
      ...wire.success.messages,
      ...wire.cached.messages,
      ...wire.batch.messages,
      ...wire.interrupted.messages,
    ]);
    for (const mode of ['ok', 'cached', 'interrupted', 'hang'] as const) {
      const fake = await start(mode);
      const p = createComfyUIProvider({ baseUrl: fake.url, WebSocket, timeoutMs: 400 });
      await p.generate(walk, {}).catch(() => undefined);
      const now = messageShapes(fake.sent);
      for (const [type, shapes] of Object.entries(now.shapes))
        for (const shape of shapes as unknown[])
          expect(recorded.shapes[type], `${mode}: ${type}`).toContainEqual(shape);
      if (mode === 'ok') expect(fake.sent.some((m) => 'binary' in m)).toBe(true); // the previews too
      await server?.close();
      for (const c of wss?.clients ?? []) c.terminate();
    }
    expect(wireShape(wire.invalid.body)).toEqual(
      wireShape({
        error: { type: 's', message: 's', details: 's', extra_info: {} },
        node_errors: {
          '4': {
            errors: [
              {
                type: 's',
                message: 's',
                details: 's',
                extra_info: { input_name: 's', input_config: [['s'], { tooltip: 's' }], received_value: 's' },
              },
            ],
            dependent_outputs: ['s'],
            class_type: 's',
          },
        },
      }),
    );
  });

  it('rejects a workflow without a sampler at creation', () => {
    const { '3': _sampler, ...rest } = DEFAULT_COMFYUI_WORKFLOW;
    expect(() => createComfyUIProvider({ baseUrl: 'http://127.0.0.1:1', workflow: rest, WebSocket })).toThrow(
      /KSampler/,
    );
  });

  it.each([
    ['error500', /HTTP 500/],
    ['badpng', /not a readable PNG/],
    ['exec_error', /^ComfyUI failed in node KSampler \(torch\.OutOfMemoryError\)$/],
    ['interrupted', /^ComfyUI interrupted the generation$/],
    [
      'badworkflow',
      /^ComfyUI answered HTTP 400: the workflow does not validate in node CheckpointLoaderSimple \(Value not in list: ckpt_name: 'missing\.safetensors' not in \['assetloom-random-sd15\.safetensors'\]\)$/,
    ],
  ] as const)('%s → a clear provider error', async (mode, message) => {
    const fake = await start(mode);
    const provider = createComfyUIProvider({ baseUrl: fake.url, timeoutMs: 5000, WebSocket });
    await expect(provider.generate(sprite, {})).rejects.toThrow(message);
    // refused before anything was queued: nothing to take back
    if (mode === 'badworkflow' || mode === 'error500')
      expect(fake.requests.map((r) => r.url)).toEqual(['/prompt']);
  });

  it('interrupts (that prompt only) and takes it out of the queue on time-out and on abort', async () => {
    let fake = await start('hang');
    const slow = createComfyUIProvider({ baseUrl: fake.url, timeoutMs: 300, WebSocket });
    await expect(slow.generate(sprite, {})).rejects.toThrow(/time limit/);
    const id = JSON.parse(fake.requests[0]!.body).prompt_id as string;
    const cleanup = fake.requests.filter((r) => r.url === '/interrupt' || r.url === '/queue');
    expect(cleanup.map((r) => [r.url, JSON.parse(r.body)])).toEqual([
      ['/interrupt', { prompt_id: id }],
      ['/queue', { delete: [id] }],
    ]);
    await server?.close();
    for (const c of wss?.clients ?? []) c.terminate();
    fake = await start('hang');
    const ac = new AbortController();
    const p = createComfyUIProvider({ baseUrl: fake.url, WebSocket }).generate(sprite, {
      signal: ac.signal,
      onProgress: () => ac.abort(new Error('user cancelled')),
    });
    await expect(p).rejects.toThrow(/user cancelled/);
    expect(fake.requests.some((r) => r.url === '/interrupt')).toBe(true);
    expect(fake.requests.some((r) => r.url === '/queue')).toBe(true);
  });

  it('never sends an /interrupt without a prompt id (that would stop whatever runs on the server)', async () => {
    const fake = await start('hang');
    const ac = new AbortController();
    // aborted while POST /prompt is on its way: the prompt may be queued under the id the provider chose
    const p = createComfyUIProvider({
      baseUrl: fake.url,
      WebSocket,
      fetch: async (url, init) => {
        if (String(url).endsWith('/prompt')) ac.abort(new Error('user cancelled'));
        return fetch(url, init);
      },
    }).generate(sprite, { signal: ac.signal });
    await expect(p).rejects.toThrow(/user cancelled/);
    await new Promise((r) => setTimeout(r, 50));
    const interrupts = fake.requests.filter((r) => r.url === '/interrupt');
    expect(interrupts.length).toBeGreaterThan(0);
    for (const r of interrupts) expect(JSON.parse(r.body).prompt_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('without a global WebSocket and no WebSocket option, creation says what to pass', () => {
    const original = (globalThis as { WebSocket?: unknown }).WebSocket;
    (globalThis as { WebSocket?: unknown }).WebSocket = undefined;
    try {
      expect(() => createComfyUIProvider({ baseUrl: 'http://127.0.0.1:1' })).toThrow(
        /options\.WebSocket.*'ws'/,
      );
    } finally {
      (globalThis as { WebSocket?: unknown }).WebSocket = original;
    }
  });

  it('a server that is not there is a clean error', async () => {
    const provider = createComfyUIProvider({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000, WebSocket });
    await expect(provider.generate(sprite, {})).rejects.toThrow(/could not be reached|WebSocket/);
  });
});

describe('AUTOMATIC1111 provider', () => {
  it('posts txt2img with the sheet size and seed, reads progress, splits the sheet', async () => {
    server = await startFakeServer((req, _body, res) => {
      if (req.url?.startsWith('/sdapi/v1/progress'))
        return json(res, 200, {
          progress: 0.5,
          eta_relative: 1,
          state: {},
          current_image: null,
          textinfo: null,
        });
      if (req.url === '/sdapi/v1/txt2img') {
        setTimeout(
          () =>
            json(res, 200, {
              images: [Buffer.from(sheetPng).toString('base64')],
              parameters: {},
              info: '{}',
            }),
          150,
        );
        return;
      }
      json(res, 404, {});
    });
    const progress: number[] = [];
    const out = await createA1111Provider({ baseUrl: server.url, pollMs: 30 }).generate(walk, {
      onProgress: (p) => progress.push(p),
    });
    expect(out.frames).toHaveLength(2);
    const body = JSON.parse(server.requests.find((r) => r.url === '/sdapi/v1/txt2img')!.body);
    expect(body).toMatchObject({ seed: 1234, batch_size: 1 });
    expect(body.prompt).toContain('a knight');
    expect(body.negative_prompt).toContain('blurry');
    expect(progress.some((p) => p > 40 && p < 50)).toBe(true);
  });

  it.each([
    ['5xx', (res: import('node:http').ServerResponse) => json(res, 503, { detail: 'busy' }), /HTTP 503/],
    [
      // FastAPI's validation error shape (modules/api/api.py models are pydantic)
      '422',
      (res: import('node:http').ServerResponse) =>
        json(res, 422, {
          detail: [{ loc: ['body', 'sampler_name'], msg: 'field required', type: 'value_error.missing' }],
        }),
      /HTTP 422: the request was refused at sampler_name: field required/,
    ],
    ['malformed', (res: import('node:http').ServerResponse) => res.end('<html>'), /not JSON/],
    [
      'no images',
      (res: import('node:http').ServerResponse) => json(res, 200, { images: [] }),
      /without images/,
    ],
    [
      'bad base64',
      (res: import('node:http').ServerResponse) => json(res, 200, { images: ['%%%'] }),
      /not base64/,
    ],
  ] as const)('%s → a clear provider error and an interrupt', async (_n, answer, message) => {
    server = await startFakeServer((req, _b, res) => {
      if (req.url === '/sdapi/v1/txt2img') {
        answer(res);
        return;
      }
      json(res, 200, {});
    });
    await expect(createA1111Provider({ baseUrl: server.url }).generate(sprite, {})).rejects.toThrow(message);
    expect(server.requests.some((r) => r.url === '/sdapi/v1/interrupt')).toBe(true);
  });

  it('times out and interrupts', async () => {
    server = await startFakeServer((req, _b, res) => {
      if (req.url === '/sdapi/v1/txt2img') return; // never answers
      json(res, 200, {});
    });
    await expect(
      createA1111Provider({ baseUrl: server.url, timeoutMs: 200 }).generate(sprite, {}),
    ).rejects.toThrow(/did not answer within 200 ms/);
    expect(server.requests.some((r) => r.url === '/sdapi/v1/interrupt')).toBe(true);
  });
});

describe('OpenAI Images provider', () => {
  it('sends gpt-image models background + output_format and never response_format', () => {
    const g = openAIImageBody('gpt-image-1', 'p', '1024x1024');
    expect(g).toMatchObject({ background: 'transparent', output_format: 'png', n: 1 });
    expect(g).not.toHaveProperty('response_format');
    const d = openAIImageBody('dall-e-3', 'p', '1024x1024');
    expect(d).toMatchObject({ response_format: 'b64_json' });
    expect(d).not.toHaveProperty('background');
  });

  it('draws a whole animation sheet in ONE request', async () => {
    const b64 = Buffer.from(sheetPng).toString('base64');
    server = await startFakeServer((_req, _b, res) =>
      json(res, 200, { created: 1, data: [{ b64_json: b64 }] }),
    );
    const provider = createOpenAIImageProvider({
      baseUrl: `${server.url}/v1`,
      apiKey: 'k',
      model: 'gpt-image-1',
    });
    const out = await provider.generate(walk, {});
    expect(out.frames).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
    const body = JSON.parse(server.requests[0]!.body);
    expect(body.prompt).toMatch(/2 columns × 1 rows/);
    expect(body.size).toBe('1536x1024');
    expect(body).not.toHaveProperty('response_format');
  });

  it.each([
    ['5xx twice', () => [503, { error: {} }] as const, /HTTP 503/],
    [
      // the Images API's error object for a refused prompt (dall-e-3: content_policy_violation)
      'a content-policy refusal',
      () =>
        [
          400,
          {
            error: {
              code: 'content_policy_violation',
              message: 'Your request was rejected as a result of our safety system.',
              param: null,
              type: 'invalid_request_error',
            },
          },
        ] as const,
      /HTTP 400: the service refused the prompt under its content policy/,
    ],
    [
      'gpt-image-1 moderation',
      () =>
        [
          400,
          { error: { code: 'moderation_blocked', message: 'blocked', type: 'image_generation_user_error' } },
        ] as const,
      /content policy/,
    ],
    [
      'a wrong key',
      () =>
        [401, { error: { code: 'invalid_api_key', message: 'Incorrect API key provided: sk-…' } }] as const,
      /HTTP 401: the service rejected the API key/,
    ],
    ['no image', () => [200, { data: [] }] as const, /without a b64_json/],
    [
      'not a png',
      () => [200, { data: [{ b64_json: Buffer.from('nope').toString('base64') }] }] as const,
      /PNG/,
    ],
  ] as const)('%s → a clear provider error', async (_n, answer, message) => {
    server = await startFakeServer((_req, _b, res) => {
      const [status, body] = answer();
      json(res, status, body);
    });
    const provider = createOpenAIImageProvider({
      baseUrl: server.url,
      apiKey: 'k',
      model: 'gpt-image-1',
      retries: 1,
    });
    await expect(provider.generate(sprite, {})).rejects.toThrow(message);
  });

  it('uses the single picture of a one-frame sprite', async () => {
    server = await startFakeServer((_req, _b, res) => json(res, 200, { data: [{ b64_json: onePng }] }));
    const provider = createOpenAIImageProvider({ baseUrl: server.url, apiKey: 'k', model: 'dall-e-3' });
    const out = await provider.generate(sprite, {});
    expect(out.frames).toHaveLength(1);
    expect(JSON.parse(server.requests[0]!.body).response_format).toBe('b64_json');
  });
});

describe('browser safety of the model providers', () => {
  it('library sources import only relative modules, fflate, @assetloom/drawings and @assetloom/text-bytes (no ws, no node:)', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const bad: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.test-d.ts')) {
          const text = readFileSync(p, 'utf8');
          // the module specifier ends its line (a word table's `from: ['from']` is not an import)
          const statics =
            /^(?:import|export)\b[^;]*?from\s*['"]([^'"]+)['"];?\s*$|^import\s*['"]([^'"]+)['"]/gm;
          const dynamics = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
          for (const m of [...text.matchAll(statics), ...text.matchAll(dynamics)]) {
            const spec = (m[1] ?? m[2])!;
            // @assetloom/drawings is browser-safe too (its own test holds it to the same rule);
            // @assetloom/text-bytes (decision 0090) is built in and uses only TextEncoder/TextDecoder
            const allowed = ['fflate', '@assetloom/drawings', '@assetloom/text-bytes'];
            if (!spec.startsWith('.') && !allowed.includes(spec)) bad.push(`${p}: ${spec}`);
          }
        }
      }
    };
    walk(join(__dirname, '../src'));
    expect(bad).toEqual([]);
  });
});
