// The real server started with IMAGE_PROVIDER=a1111 against a loopback stand-in for
// AUTOMATIC1111 / Forge. The stand-in speaks the wire format of the webui's API
// (modules/api/api.py: POST /sdapi/v1/txt2img → { images: [base64 PNG], parameters, info },
// GET /sdapi/v1/progress, POST /sdapi/v1/interrupt) and paints what a model sends back for
// "pixel art": the sheet's cells with one walking figure each (two poses) in fat, noisy, off-grid pixels (7.5 px) and
// off-palette colours on a white backdrop. Through HTTP, a generate must reach `completed` with a
// pixelized, palette-locked sheet on one baseline, and a provider failure must reach `failed` with
// a clean error: no server paths, no raw provider text.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePng, encodePng, NAMED_PALETTES } from '@assetloom/pipeline';
import { afterEach, describe, expect, it } from 'vitest';
import { client, newUser, startTestServer, type TestServer } from './helpers.js';
import { openStream, waitForTaskEnd } from './task-helpers.js';

const FIGURE = [
  '....oooo....',
  '...oyyyyo...',
  '...osssso...',
  '...oswsso...',
  '....oooo....',
  '..oorrrroo..',
  '.or.orrro.ro',
  '.or.orrro.ro',
  '....orrro...',
  '....obbbo...',
  '....obbo....',
  '....oooo....',
];
// the second pose of the walk: legs apart
const STRIDE = [...FIGURE.slice(0, 10), '...ob..bo...', '...oo..oo...'];
// colours near, not on, sweetie16: the palette lock has to map them
const INK: Record<string, [number, number, number]> = {
  o: [30, 36, 58],
  y: [250, 210, 100],
  s: [240, 180, 140],
  w: [250, 250, 250],
  r: [180, 60, 80],
  b: [60, 90, 160],
};

/** A "model" picture: cols × rows cells, a figure in each, scale 7.5, noise, white backdrop. */
function modelSheet(width: number, height: number, cols: number, rows: number): Uint8Array {
  const scale = 7.5;
  const data = new Uint8Array(width * height * 4);
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return ((seed >>> 8) % 13) - 6;
  };
  const cw = Math.floor(width / cols);
  const ch = Math.floor(height / rows);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const col = Math.floor(x / cw);
      const row = Math.floor(y / ch);
      // the figure sits 3.3 cells in (an offset off the picture's grid), one frame bobbing a cell
      const fx = Math.floor((x - col * cw - 3.3 * scale) / scale);
      const fy = Math.floor((y - row * ch - (3.3 + (col % 2)) * scale) / scale);
      const ch0 = (col % 2 ? STRIDE : FIGURE)[fy]?.[fx];
      const c = ch0 && ch0 !== '.' ? INK[ch0]! : ([255, 255, 255] as const);
      const i = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) data[i + k] = Math.max(0, Math.min(255, c[k]! + noise()));
      data[i + 3] = 255;
    }
  }
  return encodePng(data, width, height);
}

interface Fake {
  url: string;
  paths: string[];
  close(): Promise<void>;
}

async function startA1111(mode: 'ok' | 'crash'): Promise<Fake> {
  const paths: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/sdapi/v1/progress') {
        return send(200, { progress: 0.5, eta_relative: 1, state: {}, current_image: null, textinfo: null });
      }
      if (req.url === '/sdapi/v1/interrupt') return send(200, {});
      if (req.url === '/sdapi/v1/txt2img' && req.method === 'POST') {
        if (mode === 'crash') {
          // a webui traceback, with the GPU box's paths in it
          return send(500, {
            error: 'OutOfMemoryError',
            detail: '',
            body: '',
            errors:
              'CUDA out of memory. File "/home/gpu/stable-diffusion-webui/modules/processing.py", line 845',
          });
        }
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          prompt: string;
          width: number;
          height: number;
        };
        const grid = /grid of (\d+) columns × (\d+) rows/.exec(body.prompt);
        const png = modelSheet(body.width, body.height, Number(grid?.[1] ?? 1), Number(grid?.[2] ?? 1));
        return send(200, { images: [Buffer.from(png).toString('base64')], parameters: {}, info: '{}' });
      }
      send(404, { detail: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let server: TestServer | undefined;
let fake: Fake | undefined;
afterEach(async () => {
  await server?.destroy();
  await fake?.close();
  server = undefined;
  fake = undefined;
});

async function generate(mode: 'ok' | 'crash') {
  fake = await startA1111(mode);
  server = await startTestServer(
    { kind: 'embedded' },
    { WORKER_POLL_MS: '20', IMAGE_PROVIDER: 'a1111', A1111_URL: fake.url, IMAGE_TIMEOUT_MS: '20000' },
  );
  const user = await newUser(server.url);
  const api = client(server.url);
  const auth = { token: user.token };
  const project = await api.post(
    '/api/v1/projects',
    { name: 'Model', style: { palette: 'sweetie16' } },
    auth,
  );
  expect(project.status).toBe(200);
  const submitted = await api.post(
    '/api/v1/generate',
    {
      projectId: project.body.data.id,
      prompt: 'a walking knight',
      assetType: 'animation',
      params: { resolution: 32, frames: { directions: 1, framesPerDirection: 2 }, format: 'individual' },
    },
    auth,
  );
  expect(submitted.status).toBe(200);
  const taskId = submitted.body.data.taskId as string;
  const task = await waitForTaskEnd(server.url, user.token, taskId, 60_000);
  return { api, auth, user, taskId, task };
}

describe('IMAGE_PROVIDER=a1111 (the real server, a loopback AUTOMATIC1111)', () => {
  it('completes a generate with a pixelized, palette-locked sheet on one baseline', async () => {
    const { api, auth, taskId, task } = await generate('ok');
    expect(task).toMatchObject({ status: 'completed', error: null });
    expect(fake?.paths.filter((p) => p === '/sdapi/v1/txt2img')).toHaveLength(1); // one picture for the sheet
    const assets = await api.get(`/api/v1/tasks/${taskId}/assets`, auth);
    const frames = (assets.body.data.assets as Array<{ key: string; url: string; metadata: unknown }>).filter(
      (a) => a.key.endsWith('.png'),
    );
    expect(frames).toHaveLength(2);
    // the model-output checks ran and are stored with the asset
    const report = JSON.stringify(frames[0]!.metadata);
    for (const name of ['palette_adherence', 'grid_fidelity', 'stray_alpha', 'orphan_pixels', 'silhouette'])
      expect(report).toContain(name);
    const palette = NAMED_PALETTES.sweetie16!;
    const bottoms: number[] = [];
    for (const f of frames) {
      const res = await fetch(f.url);
      expect(res.status).toBe(200);
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      if (!png.ok) throw new Error(png.error);
      expect([png.image.width, png.image.height]).toEqual([32, 32]);
      let bottom = -1;
      let left = 32;
      let right = -1;
      const colours = new Set<string>();
      for (let p = 0; p < 32 * 32; p++) {
        const [r, g, b, a] = png.image.data.subarray(p * 4, p * 4 + 4);
        expect(a === 0 || a === 255, 'alpha is 0 or 255').toBe(true);
        if (!a) continue;
        colours.add(`${r},${g},${b}`);
        expect(palette.some((c) => c[0] === r && c[1] === g && c[2] === b)).toBe(true);
        bottom = Math.floor(p / 32);
        left = Math.min(left, p % 32);
        right = Math.max(right, p % 32);
      }
      // native resolution: the figure's own 11 columns, not a blur of the 1024 px picture
      expect(right - left + 1).toBe(11);
      expect(colours.size).toBeGreaterThanOrEqual(5);
      bottoms.push(bottom);
    }
    expect(bottoms[0]).toBe(bottoms[1]); // one baseline although the model drew frame 2 a cell lower
  });

  it('a provider failure reaches failed with a clean error (no paths, no raw reply)', async () => {
    const { taskId, task, user } = await generate('crash');
    expect(task).toMatchObject({ status: 'failed', stage: 'asset_generator' });
    expect(task.error).toMatch(/image provider "a1111" failed: AUTOMATIC1111 answered HTTP 500/);
    const stream = await openStream(server!.url, taskId, { token: user.token });
    expect(stream.messages.at(-1)).toMatchObject({ status: 'failed' });
    const seen = JSON.stringify([task, stream.messages]);
    expect(seen).not.toMatch(/\/home\/gpu|processing\.py|CUDA|OutOfMemory/);
    expect(seen).not.toContain(server!.config.store.dataDir);
    expect(fake?.paths).toContain('/sdapi/v1/interrupt');
  });
});
