/**
 * Part of `pnpm --filter @assetloom/server bench:audit`: the reproductions of the second outside audit
 * (issue #37) that concern image inputs on the workers — findings 2 and 5 — against the built server
 * in production mode on loopback. Each prints what the audit saw and what this server does, with the
 * same measure taken at rest in the same run as the baseline:
 *
 * - 2: a generate naming a 4096² upload as image, palette and four references (the audit: health
 *   frozen 6.5 s, 1.37 GB); and the same picture pixelated with its own palette, which the built-in
 *   generator does honour: health latency during it, peak memory of the server process.
 * - 5: six pixelations of a 1024² noise picture at 1024 px from one account (the audit: 55-61 s each,
 *   another user's plain sprite waited 8 minutes), then another user's sprite: how long it takes,
 *   with USER_MAX_RUNNING_TASKS at its default (1) and off (0).
 *
 * Goals (issue #37): health under 1 s during any input-heavy task; a plain sprite within 30 s behind
 * any one account's queue of heavy tasks.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { http, project, say, sleep, user, waitEnd, withServer } from './audit-client.js';

/** The server process's resident memory in MB (Linux /proc), or NaN elsewhere. */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Polls health every 50 ms (from another address) and the server's memory until `stop` resolves. */
async function watch(base: string, pid: number, stop: Promise<unknown>) {
  let done = false;
  void stop.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  let peak = rssMb(pid);
  while (!done) {
    const res = await http(base, 'GET', '/api/v1/health', { from: '127.0.0.77' });
    latencies.push(res.ms);
    peak = Math.max(peak, rssMb(pid));
    await sleep(50);
  }
  latencies.sort((a, b) => a - b);
  return {
    p50: latencies[Math.floor(latencies.length / 2)] ?? Number.NaN,
    max: latencies.at(-1) ?? Number.NaN,
    peakMb: peak,
  };
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** A shaded disc on white, 4096² (a PNG of a few hundred KB: within the 10 MiB upload limit). */
function gradientPng(size: number): Promise<Buffer> {
  const data = Buffer.alloc(size * size * 3, 255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (Math.hypot(x - size / 2, y - size / 2) >= size * 0.35) continue;
      const i = (y * size + x) * 3;
      data[i] = 60 + (x * 180) / size;
      data[i + 1] = 40 + (y * 120) / size;
      data[i + 2] = 90;
    }
  }
  return sharp(data, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

/** Uniform noise, `size` square (the worst case of colour quantisation). */
function noisePng(size: number): Promise<Buffer> {
  const data = Buffer.alloc(size * size * 3);
  let s = 12345;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = (s >>> 16) & 255;
  }
  return sharp(data, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

async function uploadPng(base: string, token: string, png: Buffer): Promise<string> {
  const res = await http(base, 'POST', '/api/v1/uploads', {
    token,
    raw: png,
    headers: { 'content-type': 'image/png' },
  });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
  return String(res.body?.data?.uploadId);
}

async function finding2() {
  say('\n2. A 4096² upload named as image, palette and four references, then pixelated with its own palette');
  say('   audit: /api/v1/health frozen for 6.5 s, 1.37 GB, then the task failed as "unsupported"');
  await withServer({ PIPELINE_THREADS: '1' }, async (server) => {
    const a = await user(server.url);
    const pid = await project(server.url, a.token);
    const picture = await uploadPng(server.url, a.token, await gradientPng(4096));
    const rest = await watch(server.url, server.pid, sleep(2_000));
    say(`   at rest: health p50 ${fmt(rest.p50)}, max ${fmt(rest.max)}; server ${rest.peakMb.toFixed(0)} MB`);
    const refused = await http(server.url, 'POST', '/api/v1/generate', {
      token: a.token,
      json: {
        projectId: pid,
        prompt: 'a hero',
        assetType: 'sprite',
        params: {
          image: { uploadId: picture, strength: 0.5 },
          paletteFrom: { uploadId: picture },
          references: [1, 2, 3, 4].map(() => ({ uploadId: picture })),
        },
      },
    });
    const errors = (refused.body?.data as { errors?: { path: string }[] } | undefined)?.errors ?? [];
    say(
      `   now: answered ${refused.status} in ${fmt(refused.ms)} naming ${errors.map((e) => e.path).join(', ')} — no task, nothing read`,
    );
    const submitted = await http(server.url, 'POST', '/api/v1/generate', {
      token: a.token,
      json: {
        projectId: pid,
        prompt: 'pixelate',
        assetType: 'sprite',
        params: {
          resolution: 256,
          image: { uploadId: picture, strength: 0 },
          paletteFrom: { uploadId: picture, maxColors: 16 },
        },
      },
    });
    const started = performance.now();
    const ended = waitEnd(server.url, a.token, String(submitted.body?.data?.taskId));
    const during = await watch(server.url, server.pid, ended);
    const task = await ended;
    say(
      `   now: pixelated in ${fmt(performance.now() - started)} (${String(task.body?.data?.status)}${task.body?.data?.error ? `: ${String(task.body.data.error)}` : ''}); health p50 ${fmt(during.p50)}, max ${fmt(during.max)} (${(during.max / rest.max).toFixed(1)}× at rest); server peak ${during.peakMb.toFixed(0)} MB`,
    );
  });
}

async function finding5(cap: string) {
  say(
    `\n5. One account's six pixelations of 1024² noise at 1024 px, then another user's sprite (USER_MAX_RUNNING_TASKS ${cap})`,
  );
  say("   audit: 55-61 s each; another user's plain sprite waited 8 minutes");
  return withServer({ USER_MAX_RUNNING_TASKS: cap, GENERATE_MAX_REQUESTS: '1000' }, async (server) => {
    const a = await user(server.url);
    const b = await user(server.url);
    const pa = await project(server.url, a.token);
    const pb = await project(server.url, b.token);
    const noise = await uploadPng(server.url, a.token, await noisePng(1024));
    const heavy: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await http(server.url, 'POST', '/api/v1/generate', {
        token: a.token,
        json: {
          projectId: pa,
          prompt: `pixelate ${i}`,
          assetType: 'background',
          params: { resolution: 1024, image: { uploadId: noise, strength: 0 } },
        },
      });
      heavy.push(String(res.body?.data?.taskId));
    }
    await sleep(500);
    const started = performance.now();
    const sprite = await http(server.url, 'POST', '/api/v1/generate', {
      token: b.token,
      json: { projectId: pb, prompt: 'a green slime', assetType: 'sprite' },
    });
    const done = await waitEnd(server.url, b.token, String(sprite.body?.data?.taskId), 900_000);
    const waited = performance.now() - started;
    const first = await waitEnd(server.url, a.token, heavy[0] as string, 900_000);
    say(
      `   now: the other user's sprite ${String(done.body?.data?.status)} after ${fmt(waited)}; one heavy task: ${String(first.body?.data?.status)}`,
    );
    for (const id of heavy) await waitEnd(server.url, a.token, id, 900_000);
    return waited;
  });
}

say('Issue #37, findings 2 and 5: image inputs on the workers (the built server in production mode)');
await finding2();
const capped = await finding5('1');
const open = await finding5('0');
say(
  `\n   the sprite behind the queue: ${fmt(capped)} with the cap, ${fmt(open)} without (${(open / capped).toFixed(1)}×)`,
);
