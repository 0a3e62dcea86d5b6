/**
 * `pnpm --filter @assetloom/server bench:uploads` (part of `pnpm bench`): images in (issue #31).
 *
 * 1. Pixelate of 1024² pictures (strength 0) through the whole pipeline, against the baseline of
 *    `pixelize()` alone on the same picture (what a model-output run spends on its picture), same
 *    process, interleaved rounds, best of each; the ratio and the pixels read per pixel written.
 * 2. Upload and decode of a 10 MB JPEG through the real server (HTTP body, header probe, sharp
 *    decode, PNG written, fs storage, record), against sharp decoding the same bytes in this process.
 * 3. Memory of a rejected decompression bomb: a PNG whose header claims 60000 × 60000 (14.4 GB of
 *    RGBA) and a real 8192² bomb (256 MiB of pixels in a few hundred KB) posted 20 times each,
 *    against 20 posts of a small picture that is decoded and stored: the server's peak resident
 *    memory over each, sampled every 5 ms in its own process. Counts, not clocks: the bombs are
 *    refused from the header, so the decoder is never called (decoder calls counted in the server
 *    log lines: none for bombs) and memory does not move.
 *
 * BENCH_ROUNDS (default 3).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runPipeline } from '@assetloom/generator';
import { createMemoryStorage, type RgbaImage } from '@assetloom/pipeline';
import { pixelize } from '@assetloom/pipeline/pixel';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** A 1024² "photo": smooth shapes, a gradient and grain (seeded). */
function picture(size: number, seed: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const cx = size * (0.4 + rnd() * 0.2);
  const cy = size * (0.4 + rnd() * 0.2);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x - cx, y - cy) / (size * 0.3);
      const inside = Math.max(0, Math.min(1, (1 - r) * 12));
      const g = (rnd() - 0.5) * 14;
      const bg = [120 + (y / size) * 60 + g, 170 + g, 220 - (y / size) * 40 + g];
      const fg = [200 + g, 90 + (x / size) * 60 + g, 40 + g];
      data.set(
        [...bg.map((v, c) => Math.max(0, Math.min(255, fg[c]! * inside + v * (1 - inside)))), 255],
        (y * size + x) * 4,
      );
    }
  }
  return { width: size, height: size, data };
}

async function best(fn: () => Promise<unknown> | unknown): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

async function benchPixelate(): Promise<void> {
  const pictures = [picture(1024, 1), picture(1024, 2)];
  let pixelizeMs = 0;
  let pixelateMs = 0;
  for (const pic of pictures) {
    pixelizeMs += await best(() => pixelize(pic));
    pixelateMs += await best(async () => {
      const result = await runPipeline(
        {
          prompt: 'pixelate',
          assetType: 'sprite',
          projectStyle: {},
          keyPrefix: 'b/',
          params: { resolution: 64, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
          inputs: { image: { picture: pic, strength: 0 } },
        },
        { storage: createMemoryStorage() },
      );
      if (!result.ok) throw new Error(result.error);
    });
  }
  const n = pictures.length;
  console.log(
    `pixelate 1024² → 64 px sprite (whole pipeline, files included): ${(pixelateMs / n).toFixed(0)} ms; baseline pixelize() of the same picture: ${(pixelizeMs / n).toFixed(0)} ms; ratio ${(pixelateMs / pixelizeMs).toFixed(2)}× (${((1024 * 1024) / (64 * 64)).toFixed(0)} picture pixels read per sprite pixel)`,
  );
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

interface Server {
  url: string;
  child: ChildProcess;
  lines: string[];
  stop(): Promise<void>;
}

/** The built server in a child process (its memory is its own), the embedded store in a temp dir. */
async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-bench-uploads-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      SCRYPT_COST: '10',
      LOG_LEVEL: 'info',
      WORKER_IN_PROCESS: 'false',
      USER_MAX_UPLOAD_BYTES: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        const m = /"url":"(http:[^"]+)"/.exec(line);
        if (m) resolve(m[1]!);
        nl = buffer.indexOf('\n');
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return {
    url,
    child,
    lines,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function token(url: string): Promise<string> {
  const body = JSON.stringify({ username: 'bencher', password: 'secret123' });
  await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const login = (await (
    await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
  ).json()) as { data: { token: string } };
  return login.data.token;
}

async function post(url: string, tok: string, bytes: Uint8Array, type: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tok}`, 'content-type': type },
    body: bytes as unknown as BodyInit,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Peak RSS (KiB) of the server above its RSS before, while `work` runs. */
async function peakRss(pid: number, work: () => Promise<void>): Promise<number> {
  const before = rssKb(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, 5);
  await work();
  clearInterval(timer);
  peak = Math.max(peak, rssKb(pid));
  return peak - before;
}

async function benchUploads(): Promise<void> {
  // a ~10 MB JPEG: 4000 × 3000 of fine noise over the picture, quality 97
  const base = picture(1024, 3);
  const noise = Buffer.alloc(4000 * 3000 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const overlay = await sharp(base.data, { raw: { width: 1024, height: 1024, channels: 4 } })
    .resize(4000, 3000)
    .png()
    .toBuffer();
  // the largest quality that stays under 10 MB (UPLOAD_MAX_BYTES is 10 MiB)
  let jpeg = Buffer.alloc(0);
  for (const quality of [97, 95, 92, 90, 85, 80]) {
    jpeg = await sharp(noise, { raw: { width: 4000, height: 3000, channels: 3 } })
      .composite([{ input: overlay, blend: 'soft-light' }])
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= 10_000_000) break;
  }
  const server = await startServer();
  try {
    const tok = await token(server.url);
    const decodeMs = await best(() => sharp(jpeg).ensureAlpha().raw().toBuffer());
    const uploadMs = await best(async () => {
      const status = await post(server.url, tok, jpeg, 'image/jpeg');
      if (status !== 200) throw new Error(`upload answered ${status}`);
    });
    console.log(
      `upload of a ${(jpeg.length / 1e6).toFixed(1)} MB JPEG (4000 × 3000) through the server (read, probe, decode, PNG written, stored): ${uploadMs.toFixed(0)} ms; baseline sharp decode alone: ${decodeMs.toFixed(0)} ms; ratio ${(uploadMs / decodeMs).toFixed(2)}×`,
    );

    const header = Buffer.from(
      await sharp({ create: { width: 8, height: 8, channels: 4, background: '#000' } })
        .png()
        .toBuffer(),
    );
    header.writeUInt32BE(60000, 16);
    header.writeUInt32BE(60000, 20);
    const bomb = await sharp({ create: { width: 8192, height: 8192, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const small = await sharp(base.data, { raw: { width: 1024, height: 1024, channels: 4 } })
      .resize(512, 512)
      .png()
      .toBuffer();
    const pid = server.child.pid!;
    const decodedBefore = server.lines.length;
    const times = 20;
    const rows: Array<[string, number, number, number]> = [];
    for (const [name, bytes, want] of [
      ['a header claiming 60000 × 60000', header, 413],
      [`a real 8192² bomb (${(bomb.length / 1024).toFixed(0)} KB → 256 MiB of pixels)`, bomb, 413],
      ['baseline: a 512² picture, decoded and stored', small, 200],
    ] as const) {
      let answered = 0;
      const kb = await peakRss(pid, async () => {
        for (let i = 0; i < times; i++)
          if ((await post(server.url, tok, bytes, 'image/png')) === want) answered++;
      });
      rows.push([name, bytes.length, kb, answered]);
    }
    for (const [name, size, kb, answered] of rows) {
      console.log(
        `${name}: ${times} posts of ${size} bytes, ${answered} answered as expected; server peak RSS +${(kb / 1024).toFixed(1)} MiB`,
      );
    }
    const refusals = server.lines
      .slice(decodedBefore)
      .filter((l) => l.includes('图片尺寸过大') || l.includes('"status":413')).length;
    console.log(
      `413 request lines in the server log: ${refusals} (the bombs: never decoded, refused from their headers)`,
    );
  } finally {
    await server.stop();
  }
}

await benchPixelate();
await benchUploads();
