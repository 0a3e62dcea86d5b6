/**
 * `pnpm --filter @assetloom/server bench:audit` (after audit-repro.ts) — the upload attacks of the
 * second audit (issue #37, findings 1 and 3), against the built server started by its bin in
 * production mode on loopback, with figures:
 *
 *   A. six many-scan progressive JPEGs (4096², 2,647 scans, 186 KB each) uploaded at once by one
 *      account, each sent again 2 s after its answer, for 20 s: another user's login, /api/v1/health and a signed
 *      download, their median and worst latency; the server's peak resident memory (VmHWM).
 *   B. ten uploads at once against a 2 MB quota (USER_MAX_UPLOAD_BYTES): bytes stored.
 *   C. 4096² noise JPEGs, two at once, three rounds: bytes sent and stored, another user's login.
 *
 * Goal (issue #37): another user's login under 3 s during any upload attack.
 * `AUDIT_SERVER_DIR=<a build of the server before the change>` measures that build instead (its
 * "before"); each attack's requests are bounded in count and time, and the server is stopped after.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manyScanJpeg, noiseJpeg, noisePng } from '../test/uploads/fixtures.js';
import { type BuiltServer, benchServerEnv, startBuiltServer } from './built-server.js';

interface Answer {
  status: number;
  body: { code?: number; message?: string; data?: Record<string, unknown> | null } | null;
  ms: number;
}

function http(
  base: string,
  method: string,
  path: string,
  options: { json?: unknown; raw?: Uint8Array; type?: string; token?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const body =
      options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : (options.raw ?? undefined);
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: {
          ...(body === undefined
            ? {}
            : {
                'content-type':
                  options.json !== undefined ? 'application/json' : (options.type ?? 'image/jpeg'),
                'content-length': String(body.length),
              }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        },
        timeout: options.timeoutMs ?? 120_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let parsed: Answer['body'] = null;
          try {
            parsed = text.startsWith('{') ? (JSON.parse(text) as Answer['body']) : null;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - started });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: null, ms: performance.now() - started }));
    req.end(body);
  });
}

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PRODUCTION = {
  NODE_ENV: 'production',
  SCRYPT_COST: '17',
  JWT_SECRET: 'audit-secret-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789',
  REGISTER_IP_MAX: '1000',
};

async function user(base: string) {
  const username = `u${randomUUID().slice(0, 10)}`;
  const password = 'secret-pass';
  await http(base, 'POST', '/auth/register', { json: { username, password } });
  const login = await http(base, 'POST', '/auth/login', { json: { username, password } });
  return { username, password, token: String(login.body?.data?.token) };
}

/** Peak and current resident memory of a process (Linux /proc), in MB. */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
  } catch {
    return { peakMb: 0, rssMb: 0 };
  }
}

const fmt = (ms: number[]) => {
  if (ms.length === 0) return 'none';
  const sorted = [...ms].sort((a, b) => a - b);
  const show = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'no answer within 120 s');
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return `median ${show(median)}, worst ${show(sorted.at(-1) as number)} (${ms.length})`;
};

/** Another user's login, health and a signed download, sampled while `attack` runs. */
async function probeDuring(
  base: string,
  victim: { username: string; password: string; token: string },
  fileUrl: string,
  attack: Promise<unknown>,
): Promise<{ login: number[]; health: number[]; download: number[] }> {
  const out = { login: [] as number[], health: [] as number[], download: [] as number[] };
  let running = true;
  void attack.finally(() => {
    running = false;
  });
  const loop = async (sample: () => Promise<Answer>, into: number[], everyMs: number) => {
    while (running) {
      const a = await sample();
      into.push(a.status === 0 ? Number.POSITIVE_INFINITY : a.ms);
      await sleep(everyMs);
    }
  };
  await Promise.all([
    loop(
      () =>
        http(base, 'POST', '/auth/login', { json: { username: victim.username, password: victim.password } }),
      out.login,
      500,
    ),
    loop(() => http(base, 'GET', '/api/v1/health'), out.health, 200),
    loop(() => http(base, 'GET', fileUrl), out.download, 200),
    attack,
  ]);
  return out;
}

async function withServer<T>(
  extra: Record<string, string>,
  work: (s: BuiltServer) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-audit-uploads-'));
  const dir = process.env.AUDIT_SERVER_DIR;
  const server = await startBuiltServer(
    benchServerEnv(dataDir, { ...PRODUCTION, ...extra }),
    dir === undefined ? {} : { dir },
  );
  try {
    return await work(server);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function attackA(extra: Record<string, string> = {}): Promise<void> {
  say(
    '\nA. Six many-scan progressive JPEGs at once from one account (4096², 2,647 scans), each sent again 2 s after its answer, for 20 s',
  );
  say('   audit: decode ~15 s each; others waited up to 69 s (uploads, downloads, logins); memory 796 MB');
  const jpeg = manyScanJpeg(4096, 4096, 2647);
  if (Object.keys(extra).length > 0)
    say(
      `   with ${Object.entries(extra)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
  await withServer(extra, async (server) => {
    const base = server.url;
    const victim = await user(base);
    const attacker = await user(base);
    const project = await http(base, 'POST', '/api/v1/projects', {
      json: { name: 'v' },
      token: victim.token,
    });
    const task = await http(base, 'POST', '/api/v1/generate', {
      token: victim.token,
      json: {
        projectId: project.body?.data?.id,
        prompt: 'a red slime',
        assetType: 'sprite',
        params: { resolution: 32 },
      },
    });
    let fileUrl = '';
    for (let i = 0; i < 100 && fileUrl === ''; i++) {
      await sleep(200);
      const assets = await http(base, 'GET', `/api/v1/tasks/${task.body?.data?.taskId}/assets`, {
        token: victim.token,
      });
      const list = (assets.body?.data?.assets ?? []) as { url: string }[];
      if (list[0] !== undefined)
        fileUrl = new URL(list[0].url, base).pathname + new URL(list[0].url, base).search;
    }
    const before = await probeDuring(base, victim, fileUrl, sleep(3000));
    const statuses = new Map<number, number>();
    const deadline = performance.now() + 20_000;
    const attack = Promise.all(
      Array.from({ length: 6 }, async () => {
        // each of six connections sends the picture again 2 s after its answer, until the deadline
        while (performance.now() < deadline) {
          const a = await http(base, 'POST', '/api/v1/uploads', {
            raw: jpeg,
            token: attacker.token,
            timeoutMs: Math.max(1000, deadline - performance.now()),
          });
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          await sleep(2000);
        }
      }),
    );
    const during = await probeDuring(base, victim, fileUrl, attack);
    const memory = memoryOf(server.pid);
    say(
      `   quiet:  login ${fmt(before.login)}; health ${fmt(before.health)}; download ${fmt(before.download)}`,
    );
    say(
      `   attack: login ${fmt(during.login)}; health ${fmt(during.health)}; download ${fmt(during.download)}`,
    );
    say(
      `   attacker's answers: ${[...statuses].map(([s, n]) => `${n} × ${s === 0 ? 'no answer within the 20 s' : s}`).join(', ')}; server peak RSS ${memory.peakMb} MB`,
    );
    const worstLogin = Math.max(...during.login);
    say(
      `   goal: another user's login under 3 s — ${worstLogin < 3000 ? 'met' : 'NOT met'} (worst ${Math.round(worstLogin)} ms)`,
    );
  });
}

async function attackB(): Promise<void> {
  say('\nB. Ten uploads at once against a 2 MB quota (USER_MAX_UPLOAD_BYTES=2097152), 400² noise PNGs');
  say('   audit: 10 concurrent uploads stored 11 MB against 2 MB');
  const picture = await noisePng(400, 400);
  await withServer({ USER_MAX_UPLOAD_BYTES: String(2 * 1024 * 1024) }, async (server) => {
    const base = server.url;
    const victim = await user(base);
    const attacker = await user(base);
    const attack = Promise.all(
      Array.from({ length: 10 }, () =>
        http(base, 'POST', '/api/v1/uploads', { raw: picture, type: 'image/png', token: attacker.token }),
      ),
    );
    const loginDuring = http(base, 'POST', '/auth/login', {
      json: { username: victim.username, password: victim.password },
    });
    const answers = await attack;
    const stored = answers
      .filter((a) => a.status === 200)
      .reduce((sum, a) => sum + Number(a.body?.data?.bytes ?? 0), 0);
    const byStatus = new Map<number, number>();
    for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    say(
      `   now: ${[...byStatus].map(([s, n]) => `${n} × ${s}`).join(', ')}; stored ${(stored / 1e6).toFixed(2)} MB of a 2.10 MB quota; another user's login ${Math.round((await loginDuring).ms)} ms; peak RSS ${memoryOf(server.pid).peakMb} MB`,
    );
  });
}

async function attackC(): Promise<void> {
  say('\nC. 4096² noise JPEGs (quality 20), two at once from one account, three rounds');
  say('   audit: a 2.9 MB noise JPEG stored as a 69 MB PNG');
  const jpeg = await noiseJpeg(4096, 4096, 20);
  await withServer({}, async (server) => {
    const base = server.url;
    const victim = await user(base);
    const attacker = await user(base);
    const answers: Answer[] = [];
    const attack = (async () => {
      for (let round = 0; round < 3; round++) {
        answers.push(
          ...(await Promise.all(
            [0, 1].map(() => http(base, 'POST', '/api/v1/uploads', { raw: jpeg, token: attacker.token })),
          )),
        );
      }
    })();
    const during = await probeDuring(base, victim, '/api/v1/health', attack);
    const a = answers[0] as Answer;
    say(
      `   now: sent ${(jpeg.length / 1e6).toFixed(1)} MB → ${a.status} ${a.status === 200 ? `stored ${(Number(a.body?.data?.bytes) / 1e6).toFixed(1)} MB` : `${a.body?.message} (${String(a.body?.data?.reason)})`}; each answered in ${fmt(answers.map((x) => x.ms))}; peak RSS ${memoryOf(server.pid).peakMb} MB`,
    );
    say(`   another user's login meanwhile: ${fmt(during.login)}; health ${fmt(during.health)}`);
  });
}

say(`# upload attacks (issue #37) against ${process.env.AUDIT_SERVER_DIR ?? 'this build'}`);
await attackA();
// The same with the scan limit lifted: the decodes run, two at a time behind the gate, each holding
// one of libuv's eight threads (the scan limit is what stops them; this shows what the gate keeps).
if (process.env.AUDIT_SERVER_DIR === undefined) await attackA({ UPLOAD_JPEG_MAX_SCANS: '10000' });
await attackB();
await attackC();
