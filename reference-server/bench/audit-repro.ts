/**
 * `pnpm --filter @assetloom/server bench:audit` — the reproductions of the outside audit of issue #29,
 * re-run against the built server (dist/main.js) in production mode on loopback, each printing the
 * audit's answer and today's. Findings 1-10; finding 11 (the fleet) is `bench:fleet`. Finding 8 (a
 * full disk) runs on a small tmpfs and needs root on Linux (skipped otherwise, with the reason).
 *
 * Distinct clients are distinct socket addresses (127.0.0.x), as in the test suite.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { type Answer, http, project, say, sleep, user, waitEnd, withServer } from './audit-client.js';

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

// ---- 1. deleting a running project ---------------------------------------------------------------
async function finding1(base: string, dataDir: string) {
  say('\n1. Deleting a running project (512 px animation, 8 directions × 16 frames)');
  say(
    '   audit: DELETE 200, then download 302 and the PNG served 8 s later; 2 PNGs + sidecars left, 2 asset records',
  );
  const u = await user(base);
  for (const delayMs of [300, 1500]) {
    const pid = await project(base, u.token, `doomed ${delayMs}`);
    const generated = await http(base, 'POST', '/api/v1/generate', {
      token: u.token,
      json: {
        projectId: pid,
        prompt: 'a knight walking',
        assetType: 'animation',
        params: { resolution: 512, frames: { directions: 8, framesPerDirection: 16 } },
      },
    });
    const taskId = String(generated.body?.data?.taskId);
    await sleep(delayMs);
    const deleted = await http(base, 'DELETE', `/api/v1/projects/${pid}`, { token: u.token });
    await sleep(8000);
    const key = `projects/${pid}/tasks/${taskId}/animation.png`;
    const download = await http(base, 'GET', `/api/v1/assets/download?key=${encodeURIComponent(key)}`);
    const left = filesUnder(join(dataDir, 'objects', 'projects', pid));
    say(
      `   now (DELETE after ${delayMs} ms): DELETE ${deleted.status} in ${Math.round(deleted.ms)} ms; 8 s later download ${download.status}, ${left.length} files under objects/projects/P, task ${(await http(base, 'GET', `/api/v1/tasks/${taskId}`, { token: u.token })).status}`,
    );
  }
}

// ---- 2. the login flood ------------------------------------------------------------------------
async function finding2(base: string) {
  say('\n2. Anonymous login flood (10 connections × 15 s, random usernames)');
  say(
    '   audit: 14 answers, median 7.9 s; a real user 8.5 s; memory 165 → 690 MB; one IP tried 8 usernames without a 429',
  );
  const real = await user(base, 'real-password');
  const answers: Answer[] = [];
  const deadline = performance.now() + 15_000;
  const flood = Array.from({ length: 10 }, async (_, i) => {
    while (performance.now() < deadline) {
      answers.push(
        await http(base, 'POST', '/auth/login', {
          json: { username: `x${randomUUID().slice(0, 12)}`, password: 'guess-123456' },
          from: `127.0.0.${i + 2}`,
        }),
      );
    }
  });
  await sleep(2000);
  // A returning user (it logged in from this address before), then the same user from a new address.
  const realLogin = await http(base, 'POST', '/auth/login', {
    json: { username: real.username, password: real.password },
    from: '127.0.0.250',
  });
  const realElsewhere = await http(base, 'POST', '/auth/login', {
    json: { username: real.username, password: real.password },
    from: '127.0.0.200',
  });
  await Promise.all(flood);
  const byStatus = new Map<number, number[]>();
  for (const a of answers) byStatus.set(a.status, [...(byStatus.get(a.status) ?? []), a.ms]);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  say(
    `   now: ${answers.length} answers (${[...byStatus].map(([s, t]) => `${s} × ${t.length}, median ${Math.round(median(t))} ms`).join('; ')}); the real user ${realLogin.status} in ${Math.round(realLogin.ms)} ms from its usual address, ${realElsewhere.status} in ${Math.round(realElsewhere.ms)} ms from a new one`,
  );
  const oneIp: number[] = [];
  for (let i = 0; i < 40; i++) {
    oneIp.push(
      (
        await http(base, 'POST', '/auth/login', {
          json: { username: `y${randomUUID().slice(0, 12)}`, password: 'guess-123456' },
          from: '127.0.0.99',
        })
      ).status,
    );
  }
  say(
    `   now: one IP, 40 different usernames: ${oneIp.filter((s) => s === 401).length} × 401 then ${oneIp.filter((s) => s === 429).length} × 429`,
  );
  const reviewIp: number[] = [];
  for (let i = 0; i < 40; i++) {
    reviewIp.push(
      (
        await http(base, 'POST', '/api/auth/login', {
          json: { email: `${randomUUID().slice(0, 12)}@example.com`, password: 'guess-123456' },
          from: '127.0.0.98',
        })
      ).status,
    );
  }
  say(
    `   now: review helper, one IP, 40 different e-mails: ${reviewIp.filter((s) => s === 401).length} × 401 then ${reviewIp.filter((s) => s === 429).length} × 429`,
  );
}

// ---- 3. SSRF -------------------------------------------------------------------------------------
async function finding3(base: string) {
  say('\n3. Webhook SSRF with IPv4-compatible IPv6 literals');
  say('   audit: http://[::127.0.0.1]:…, [::a9fe:a9fe], [::a00:1] accepted');
  const u = await user(base);
  const pid = await project(base, u.token);
  const results: string[] = [];
  for (const url of [
    'http://[::127.0.0.1]:8080/x',
    'http://[::a9fe:a9fe]/latest/meta-data',
    'http://[::a00:1]/x',
    'http://[64:ff9b::a9fe:a9fe]/x',
    'http://[2002:a9fe:a9fe::1]/x',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
  ]) {
    const res = await http(base, 'POST', `/api/v1/projects/${pid}/webhooks`, {
      token: u.token,
      json: { url, events: ['task.completed'] },
    });
    results.push(`${url} → ${res.status} ${res.body?.message ?? ''}`);
  }
  for (const line of results) say(`   now: ${line}`);
}

// ---- 4. simultaneous password changes ------------------------------------------------------------
async function finding4(base: string) {
  say('\n4. Two simultaneous password changes with the same token');
  say('   audit: both 200, both new tokens work, only one password logs in');
  const u = await user(base, 'old-password');
  const [a, b] = await Promise.all(
    ['new-password-a', 'new-password-b'].map((newPassword) =>
      http(base, 'PUT', '/api/v1/auth/password', {
        token: u.token,
        json: { oldPassword: 'old-password', newPassword },
      }),
    ),
  );
  say(`   now: ${a?.status} and ${b?.status}`);
}

// ---- 5 and 6. origins --------------------------------------------------------------------------
async function findings5and6(base: string) {
  say('\n5. Host header in signed URLs (production, PUBLIC_BASE_URL unset)');
  say('   audit: Host: evil.example went into Location and into asset URLs');
  const u = await user(base);
  const pid = await project(base, u.token);
  const generated = await http(base, 'POST', '/api/v1/generate', {
    token: u.token,
    json: { projectId: pid, prompt: 'a red slime', assetType: 'sprite', params: { resolution: 16 } },
  });
  const taskId = String(generated.body?.data?.taskId);
  await waitEnd(base, u.token, taskId);
  const assets = await http(base, 'GET', `/api/v1/tasks/${taskId}/assets`, {
    token: u.token,
    headers: { host: 'evil.example' },
  });
  const list = (assets.body?.data?.assets ?? []) as { key: string; url: string }[];
  const download = await http(
    base,
    'GET',
    `/api/v1/assets/download?key=${encodeURIComponent(list[0]?.key ?? '')}`,
    {
      headers: { host: 'evil.example' },
    },
  );
  say(
    `   now: asset URL ${list[0]?.url.slice(0, 60)}…; Location ${String(download.headers.location).slice(0, 60)}…`,
  );

  say('\n6. The WebSocket cookie login with Origin: null, and hosts compared without schemes');
  say('   audit: Origin null accepted; https://host:port accepted for an http server');
  const port = new URL(base).port;
  for (const origin of ['null', `https://127.0.0.1:${port}`, `http://127.0.0.1:${port}`]) {
    const status = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/tasks/${taskId}/ws`, {
        headers: { cookie: `assetloom_token=${u.token}`, origin },
      });
      ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.on('open', () => {
        resolve('open');
        ws.close();
      });
      ws.on('error', () => resolve('error'));
    });
    say(`   now: Origin ${origin} → ${status === 'open' ? 'accepted' : `refused (${status})`}`);
  }
}

// ---- 7. usernames --------------------------------------------------------------------------------
async function finding7(base: string) {
  say('\n7. Usernames not normalised');
  say(
    '   audit: alice\\u200b, ALICE beside alice, adm\\u202Enimx, ab\\u0000cd, café NFC and NFD all accepted as different users',
  );
  const suffix = randomUUID().slice(0, 6);
  const names = [
    ['alice', `alice${suffix}`],
    ['alice\\u200b', `alice${suffix}\u200b`],
    ['ALICE', `ALICE${suffix}`],
    ['adm\\u202Enimx', `adm\u202enimx${suffix}`],
    ['ab\\u0000cd', `ab\u0000cd${suffix}`],
    ['café (NFC)', `caf\u00e9${suffix}`],
    ['café (NFD)', `cafe\u0301${suffix}`],
  ];
  for (const [label, username] of names) {
    const res = await http(base, 'POST', '/auth/register', {
      json: { username, password: 'secret-pass' },
      from: '127.0.0.251',
    });
    say(`   now: ${label} → ${res.status} ${res.body?.message ?? ''}`);
  }
}

// ---- 9. heavy tasks and many projects --------------------------------------------------------------
async function finding9(base: string) {
  say('\n9. Heavy tasks and many projects');
  say('   audit: 1024 px 8 × 16 accepted (9 s, 833 MB); 38,656 projects created by one user in 15 s');
  const u = await user(base);
  const pid = await project(base, u.token);
  const heavy = await http(base, 'POST', '/api/v1/generate', {
    token: u.token,
    json: {
      projectId: pid,
      prompt: 'a knight walking',
      assetType: 'animation',
      params: { resolution: 1024, frames: { directions: 8, framesPerDirection: 16 } },
    },
  });
  say(`   now: 1024 px 8 × 16 → ${heavy.status} ${heavy.body?.message ?? ''}`);
  const deadline = performance.now() + 15_000;
  let created = 1;
  let refused = 0;
  let firstRefusal = '';
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < deadline) {
        const res = await http(base, 'POST', '/api/v1/projects', { token: u.token, json: { name: 'many' } });
        if (res.status === 200) created++;
        else {
          refused++;
          firstRefusal ||= `${res.status} ${res.body?.message ?? ''}`;
          if (refused > 50) return;
        }
      }
    }),
  );
  say(`   now: projects created by one user in ≤ 15 s: ${created}, then ${firstRefusal}`);
}

// ---- 10. X-Request-Id ------------------------------------------------------------------------------
async function finding10(base: string) {
  say('\n10. X-Request-Id echoed verbatim');
  say('   audit: any value echoed');
  for (const id of ['<script>alert(1)</script>', 'x'.repeat(128), 'req-42']) {
    const res = await http(base, 'GET', '/api/v1/health', { headers: { 'x-request-id': id } });
    say(`   now: ${JSON.stringify(id.slice(0, 30))} → ${String(res.headers['x-request-id'])}`);
  }
}

// ---- 8. a full disk --------------------------------------------------------------------------------
async function finding8() {
  say('\n8. A full disk');
  say(
    '   audit: a task whose progress could not be saved showed running ~90 s, then "abandoned by 3 workers"',
  );
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    say('   now: skipped (needs root on Linux to mount a tmpfs)');
    return;
  }
  const mountPoint = await mkdtemp(join(tmpdir(), 'assetloom-audit-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
  try {
    await withServer(
      {
        DATA_DIR: join(mountPoint, 'data'),
        STORAGE_MIN_FREE_BYTES: String(1024 * 1024),
        TASK_LEASE_MS: '30000',
      },
      async (server) => {
        const u = await user(server.url);
        const pid = await project(server.url, u.token);
        const stats = statfsSync(mountPoint);
        writeFileSync(
          join(mountPoint, 'filler'),
          Buffer.alloc(Math.max(0, stats.bavail * stats.bsize - 512 * 1024)),
        );
        const started = Date.now();
        const generated = await http(server.url, 'POST', '/api/v1/generate', {
          token: u.token,
          json: {
            projectId: pid,
            prompt: 'a knight walking',
            assetType: 'animation',
            params: { resolution: 512, frames: { directions: 8, framesPerDirection: 16 } },
          },
        });
        const ended = await waitEnd(server.url, u.token, String(generated.body?.data?.taskId));
        const ready = await http(server.url, 'GET', '/api/v1/ready');
        say(
          `   now: ${String(ended.body?.data?.status)} after ${((Date.now() - started) / 1000).toFixed(1)} s: ${String(ended.body?.data?.error)}; /ready ${ready.status} X-Not-Ready: ${String(ready.headers['x-not-ready'])}`,
        );
        rmSync(join(mountPoint, 'filler'), { force: true });
        say(`   now: after freeing space /ready ${(await http(server.url, 'GET', '/api/v1/ready')).status}`);
      },
    );
  } finally {
    execFileSync('umount', ['-l', mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  }
}

await withServer({}, async (server, dataDir) => {
  say(`the built server in production mode on ${server.url} (scrypt 2^17, PUBLIC_BASE_URL unset)`);
  await finding10(server.url);
  await finding7(server.url);
  await finding3(server.url);
  await finding4(server.url);
  await findings5and6(server.url);
  await finding1(server.url, dataDir);
  await finding9(server.url);
  await finding2(server.url);
});
await finding8();
say('\n11. The fleet: `pnpm --filter @assetloom/server bench:fleet` (docs/benchmarks/database.md)');
