import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDocumented, startTestServer, type TestServer } from '../helpers.js';

/**
 * Audit finding 2: limits were per username + IP only and every attempt cost a full scrypt hash, so
 * anonymous logins with random usernames queued hashes without bound (answers after 8 s, a real
 * user's too, memory +500 MB), and one IP could try any number of usernames or e-mails.
 *
 * A bounded flood on loopback. Distinct clients are distinct SOCKET addresses: Linux routes all of
 * 127.0.0.0/8 to loopback, so each client binds its socket to its own 127.0.0.x (`localAddress`)
 * and the server sees that address, with TRUST_PROXY off (no header can pick a bucket). Asserted
 * are outcomes, never timings (those are in `pnpm --filter @assetloom/server bench:login-flood`).
 */
interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | undefined;
}

function post(base: string, from: string, path: string, json: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(JSON.stringify(json));
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text.length > 0 ? JSON.parse(text) : null,
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

async function floodServer(extra: Record<string, string>): Promise<TestServer> {
  return startTestServer(
    { kind: 'embedded' },
    {
      // A hash that costs something (2^14), and small bounds so a test-sized flood reaches them.
      SCRYPT_COST: '14',
      PASSWORD_HASH_CONCURRENCY: '2',
      PASSWORD_HASH_QUEUE: '4',
      PASSWORD_HASH_PER_CLIENT: '4',
      ...extra,
    },
  );
}

describe('the hash gate: a real user gets in while other addresses keep the hashes busy', () => {
  let server: TestServer;
  beforeAll(async () => {
    // No per-address budget in the way here: the flood keeps costing hashes the whole time.
    server = await floodServer({ LOGIN_IP_MAX_FAILURES: '100000' });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('a real user logs in while random-username logins from 8 other addresses flood the server', async () => {
    const real = { username: `real${randomUUID().slice(0, 8)}`, password: 'real-password' };
    expect((await post(server.url, '127.0.0.50', '/auth/register', real)).status).toBe(201);
    // A returning user: it has logged in from its address before (the gate serves such clients first).
    expect((await post(server.url, '127.0.0.51', '/auth/login', real)).status).toBe(200);

    const floodIps = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);
    const flood: Answer[] = [];
    const perIp = new Map<string, Answer[]>();
    let stop = false;
    // 8 addresses × 3 connections, each until the real user is done (at most 100 requests): bounded.
    const attackers = floodIps.flatMap((ip) =>
      Array.from({ length: 3 }, async () => {
        for (let i = 0; i < 100 && !stop; i++) {
          const answer = await post(server.url, ip, '/auth/login', {
            username: `x${randomUUID().slice(0, 12)}`,
            password: 'guess-123456',
          });
          flood.push(answer);
          perIp.set(ip, [...(perIp.get(ip) ?? []), answer]);
        }
      }),
    );
    // Once every flooding address has had an answer (so each has failed or been refused, and the
    // gate knows it), the real user logs in three times from its own address, the flood still on.
    while (floodIps.some((ip) => (perIp.get(ip)?.length ?? 0) < 1))
      await new Promise((r) => setTimeout(r, 10));
    const logins: Answer[] = [];
    for (let i = 0; i < 3; i++) logins.push(await post(server.url, '127.0.0.51', '/auth/login', real));
    // And from an address it never used (in good standing, not yet trusted): it waits for a clean
    // slot ahead of the flood, but gets in.
    logins.push(await post(server.url, '127.0.0.52', '/auth/login', real));
    const floodStillRunning = flood.length;
    stop = true;
    await Promise.all(attackers);

    for (const login of logins) {
      expect(login.status).toBe(200);
      expectDocumented('POST', '/auth/login', login.status, login.body);
    }
    // The flood kept going past the real user's logins.
    expect(flood.length).toBeGreaterThan(floodStillRunning - 1);
    expect(flood.length).toBeGreaterThan(24);
    // The flood got 401s, and 429 (an address over its share of the queue) or 503 (queue full).
    for (const answer of flood) {
      expect([401, 429, 503]).toContain(answer.status);
      expectDocumented('POST', '/auth/login', answer.status, answer.body);
      if (answer.status !== 401) expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect(count(flood, 429) + count(flood, 503)).toBeGreaterThan(0);
  });

  it('a burst from 30 fresh addresses at once is shed with 503 + Retry-After, never queued without bound', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(server.url, `127.0.1.${i + 1}`, '/auth/login', {
          username: `y${randomUUID().slice(0, 12)}`,
          password: 'guess-123456',
        }),
      ),
    );
    for (const answer of answers) {
      expect([401, 503]).toContain(answer.status);
      expectDocumented('POST', '/auth/login', answer.status, answer.body);
    }
    // 2 running + 4 waiting: the rest is refused at once, without a hash.
    expect(count(answers, 503)).toBeGreaterThan(0);
    const busy = answers.find((a) => a.status === 503);
    expect(busy?.body).toEqual({ code: 503, message: '服务繁忙，请稍后再试', data: { reason: 'busy' } });
    expect(Number(busy?.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});

describe('per-address limits across usernames, on both apps', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await floodServer({ LOGIN_IP_MAX_FAILURES: '10', REGISTER_IP_MAX: '5' });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('one address trying many usernames gets 429 once its failures reach the budget', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 14; i++) {
      answers.push(
        await post(server.url, '127.0.0.40', '/auth/login', {
          username: `z${randomUUID().slice(0, 12)}`,
          password: 'guess-123456',
        }),
      );
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), 429, 429, 429, 429]);
    expectDocumented('POST', '/auth/login', 429, answers[13]?.body);
    expect(Number(answers[13]?.retryAfter)).toBeGreaterThanOrEqual(1);
    // Another address is not affected.
    const other = await post(server.url, '127.0.0.41', '/auth/login', {
      username: 'nobody-here',
      password: 'x-123456',
    });
    expect(other.status).toBe(401);
  });

  it('registrations per address are limited across usernames', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 8; i++) {
      answers.push(
        await post(server.url, '127.0.0.60', '/auth/register', {
          username: `r${randomUUID().slice(0, 12)}`,
          password: 'secret-pass',
        }),
      );
    }
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expectDocumented('POST', '/auth/register', 429, answers[7]?.body);
    // Another address is not affected.
    expect(
      (
        await post(server.url, '127.0.0.61', '/auth/register', {
          username: `r${randomUUID().slice(0, 12)}`,
          password: 'secret-pass',
        })
      ).status,
    ).toBe(201);
  });

  it('the review helper: failed logins per address across e-mails, registrations per address', async () => {
    const logins: Answer[] = [];
    for (let i = 0; i < 14; i++) {
      logins.push(
        await post(server.url, '127.0.0.70', '/api/auth/login', {
          email: `${randomUUID().slice(0, 12)}@example.com`,
          password: 'guess-123456',
        }),
      );
    }
    expect(logins.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(401));
    for (const answer of logins.slice(10)) {
      expect(answer.status).toBe(429);
      expect(answer.body).toEqual({ error: '登录尝试过于频繁，请稍后再试', reason: 'too_many_attempts' });
    }
    const registrations: Answer[] = [];
    for (let i = 0; i < 7; i++) {
      registrations.push(
        await post(server.url, '127.0.0.71', '/api/auth/register', {
          email: `${randomUUID().slice(0, 12)}@example.com`,
          password: 'secret-pass',
        }),
      );
    }
    expect(registrations.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(registrations[6]?.body).toEqual({
      error: '注册过于频繁，请稍后再试',
      reason: 'too_many_registrations',
    });
    expect(Number(registrations[6]?.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
