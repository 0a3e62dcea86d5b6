import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { newUser, startTestServer, TEST_SECRET, type TestServer } from './helpers.js';

/**
 * CORS (issue #41) over real HTTP on 127.0.0.1: what a browser reads from the answers to a page of
 * an allowed origin, of a refused one, to a preflight, and with credentials.
 */
const PAGE = 'http://localhost:5173';
const OTHER = 'https://evil.example';

async function send(base: string, path: string, init: RequestInit & { origin?: string } = {}) {
  const { origin, headers, ...rest } = init;
  return fetch(`${base}${path}`, {
    redirect: 'manual',
    ...rest,
    headers: { ...(origin === undefined ? {} : { origin }), ...(headers as Record<string, string>) },
  });
}

function preflight(base: string, path: string, origin: string, method = 'POST') {
  return send(base, path, {
    method: 'OPTIONS',
    origin,
    headers: {
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type,idempotency-key,x-request-id',
    },
  });
}

const corsHeaders = (res: Response) =>
  [...res.headers.keys()].filter((name) => name.startsWith('access-control-')).sort();

describe('CORS is off unless origins are listed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' });
  });
  afterAll(() => server?.destroy());

  it('no CORS header to a page of any origin, nor to a preflight', async () => {
    const health = await send(server.url, '/api/v1/health', { origin: PAGE });
    expect(health.status).toBe(200);
    expect(corsHeaders(health)).toEqual([]);
    expect(corsHeaders(await preflight(server.url, '/api/v1/projects', PAGE))).toEqual([]);
  });
});

describe('CORS_ORIGINS lists the origins whose pages may call the API', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      { CORS_ORIGINS: `${PAGE}, https://app.example.com` },
    );
    ({ token } = await newUser(server.url));
  });
  afterAll(() => server?.destroy());

  it('an allowed origin reads the answer and the headers the SDK needs; no credentials', async () => {
    const res = await send(server.url, '/api/v1/projects', {
      method: 'POST',
      origin: PAGE,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cross-origin' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',');
    expect(exposed).toEqual(expect.arrayContaining(['Retry-After', 'X-Request-Id', 'Content-Language']));
  });

  it('error answers carry the headers too, so the page can read the envelope', async () => {
    const res = await send(server.url, '/api/v1/projects', { origin: PAGE });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect((await res.json()).code).toBe(401);
  });

  it('a refused origin gets no CORS header, and its request is answered as the spec says', async () => {
    const health = await send(server.url, '/api/v1/health', { origin: OTHER });
    expect(health.status).toBe(200);
    expect((await health.json()).code).toBe(0);
    expect(corsHeaders(health)).toEqual([]);
    const projects = await send(server.url, '/api/v1/projects', { origin: OTHER });
    expect(projects.status).toBe(401);
    expect(corsHeaders(projects)).toEqual([]);
    expect(corsHeaders(await preflight(server.url, '/api/v1/projects', OTHER))).toEqual([]);
    // an origin is compared whole: another port is another origin
    const port = await send(server.url, '/api/v1/health', { origin: 'http://localhost:5174' });
    expect(corsHeaders(port)).toEqual([]);
  });

  it('a preflight is answered 204 with the methods, the SDK’s headers and a max age', async () => {
    const res = await preflight(server.url, '/api/v1/generate', PAGE);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
    );
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'idempotency-key',
        'x-request-id',
        'accept-language',
      ]),
    );
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(await res.text()).toBe('');
  });

  it('register and login, the download route and /files/ answer with CORS; /docs, /studio and the review helper never', async () => {
    const login = await preflight(server.url, '/auth/login', 'https://app.example.com');
    expect(login.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const download = await send(server.url, '/api/v1/assets/download', { origin: PAGE });
    expect(download.status).toBe(400);
    expect(download.headers.get('access-control-allow-origin')).toBe(PAGE);
    const file = await send(server.url, '/files/projects/p/none.png?e=1&token=x', { origin: PAGE });
    expect(file.headers.get('access-control-allow-origin')).toBe(PAGE);
    for (const path of ['/docs/asset-api.json', '/studio/', '/login', '/api/auth/login']) {
      const res = await send(server.url, path, { origin: PAGE });
      expect(corsHeaders(res), path).toEqual([]);
    }
  });
});

describe('CORS_CREDENTIALS and "*"', () => {
  let withCredentials: TestServer;
  let anyOrigin: TestServer;
  beforeAll(async () => {
    [withCredentials, anyOrigin] = await Promise.all([
      startTestServer(
        { kind: 'embedded' },
        { CORS_ORIGINS: PAGE, CORS_CREDENTIALS: 'true', CORS_MAX_AGE_SECONDS: '60' },
      ),
      startTestServer({ kind: 'embedded' }, { CORS_ORIGINS: '*' }),
    ]);
  });
  afterAll(async () => {
    await withCredentials?.destroy();
    await anyOrigin?.destroy();
  });

  it('credentials: the origin itself (never *) and Allow-Credentials, on answers and preflights', async () => {
    const res = await send(withCredentials.url, '/api/v1/health', { origin: PAGE });
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const pre = await preflight(withCredentials.url, '/auth/login', PAGE);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-max-age')).toBe('60');
    const refused = await send(withCredentials.url, '/api/v1/health', { origin: OTHER });
    expect(corsHeaders(refused)).toEqual([]);
  });

  it('"*": any page, without credentials', async () => {
    const res = await send(anyOrigin.url, '/api/v1/health', { origin: OTHER });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it.each([
    [
      '"*" with credentials',
      { CORS_ORIGINS: '*', CORS_CREDENTIALS: 'true' },
      /browsers refuse with credentials/,
    ],
    ['"*" beside origins', { CORS_ORIGINS: `*,${PAGE}` }, /give "\*" alone/],
    [
      'a path',
      { CORS_ORIGINS: 'https://app.example.com/studio' },
      /not an origin: write scheme, host and port only/,
    ],
    ['no scheme', { CORS_ORIGINS: 'app.example.com' }, /not an origin/],
    ['a max age past a day', { CORS_MAX_AGE_SECONDS: '86401' }, /from 0 to 86400/],
  ])('a bad setting stops the start with the variable named: %s', (_name, env, message) => {
    const loaded = loadConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_SECRET, ...env });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.issues.map((i) => `${i.variable} ${i.message}`).join('\n')).toMatch(message);
  });
});
