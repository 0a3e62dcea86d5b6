import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MESSAGES } from '@assetloom/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDownloadRouter,
  createFilesRouter,
  createFsStorage,
  type FsObjectStorage,
  type ObjectStorage,
  type StorageRouteLogger,
} from '../../src/storage/index.js';
import { envelopeOf, PNG_1X1, rawRequest, SECRET, serveRouters, type TestApp, tempDir } from './helpers.js';

const KEY = 'projects/p1/tasks/t1/sprite.png';
const FORBIDDEN = { code: 403, message: MESSAGES.forbidden, data: { reason: 'forbidden' } };
const NOT_FOUND = { code: 404, message: MESSAGES.assetNotFound, data: { reason: 'asset_not_found' } };
const BAD_REQUEST = {
  code: 400,
  message: MESSAGES.badRequest,
  data: expect.objectContaining({ reason: 'invalid_request' }),
};
const INTERNAL = { code: 500, message: MESSAGES.internal, data: { reason: 'internal' } };

let dir: Awaited<ReturnType<typeof tempDir>>;
let outside: Awaited<ReturnType<typeof tempDir>>;
let storage: FsObjectStorage;
let app: TestApp;
let now: number;

beforeEach(async () => {
  dir = await tempDir('routes');
  outside = await tempDir('routes-outside');
  now = Date.now();
  storage = createFsStorage({ root: join(dir.path, 'objects'), secret: SECRET, now: () => now });
  await storage.put(KEY, PNG_1X1, 'image/png');
  app = await serveRouters(createFilesRouter(storage), createDownloadRouter(storage));
});
afterEach(async () => {
  await app.close();
  await dir.remove();
  await outside.remove();
});

/** The path and query of a signed URL (rawRequest takes the part after the origin). */
function pathOf(url: string): string {
  const parsed = new URL(url, 'http://placeholder');
  return `${parsed.pathname}${parsed.search}`;
}

describe('GET /files/<key> (filesystem driver)', () => {
  it('serves the object at a signed URL with its type, length, ETag and a bounded private cache', async () => {
    const url = await storage.signedUrl(KEY, { baseUrl: app.url, ttlSeconds: 600 });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(PNG_1X1.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // .png implies the type: no sidecar, so a weak ETag from inode, size and modification time.
    expect(response.headers.get('etag')).toMatch(/^W\/"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(600);
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(PNG_1X1))).toBe(true);
  });

  it('max-age never exceeds the remaining lifetime', async () => {
    const url = await storage.signedUrl(KEY, { ttlSeconds: 100 });
    now += 90_000;
    const response = await rawRequest(app.port, pathOf(url));
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=10');
  });

  it('HEAD answers the headers without a body; If-None-Match answers 304', async () => {
    const path = pathOf(await storage.signedUrl(KEY));
    const head = await rawRequest(app.port, path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(PNG_1X1.length));
    expect(head.headers['content-type']).toBe('image/png');
    expect(head.body.length).toBe(0);

    const etag = head.headers.etag as string;
    const again = await rawRequest(app.port, path, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves the stored content type of other files', async () => {
    const key = 'projects/p1/tasks/t1/sprite.json';
    await storage.put(key, new TextEncoder().encode('{"frames":{}}'), 'application/json');
    const response = await fetch(await storage.signedUrl(key, { baseUrl: app.url }));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ frames: {} });
    // A type kept in the sidecar comes with a strong ETag (its SHA-256).
    const custom = 'projects/p1/tasks/t1/sprite.atlas';
    await storage.put(custom, new TextEncoder().encode('atlas'), 'application/vnd.assetloom.atlas+json');
    const atlas = await fetch(await storage.signedUrl(custom, { baseUrl: app.url }));
    expect(atlas.headers.get('content-type')).toBe('application/vnd.assetloom.atlas+json');
    expect(atlas.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });

  it('an expired URL answers 403 无权访问该资源', async () => {
    const path = pathOf(await storage.signedUrl(KEY, { ttlSeconds: 1 }));
    expect((await rawRequest(app.port, path)).status).toBe(200);
    now += 2_000;
    const response = await rawRequest(app.port, path);
    expect(response.status).toBe(403);
    expect(envelopeOf(response)).toEqual(FORBIDDEN);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a tampered URL answers 403', async () => {
    await storage.put('projects/p1/tasks/t1/other.png', PNG_1X1, 'image/png');
    const url = new URL(await storage.signedUrl(KEY, { baseUrl: app.url }));
    const token = url.searchParams.get('token') ?? '';
    const e = url.searchParams.get('e') ?? '';
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const variants: [string, string][] = [
      ['a changed token', `/files/${KEY}?e=${e}&token=${flipped}`],
      ['a later expiry', `/files/${KEY}?e=${Number(e) + 3600}&token=${token}`],
      ['another key', `/files/projects/p1/tasks/t1/other.png?e=${e}&token=${token}`],
      ['no token', `/files/${KEY}?e=${e}`],
      ['no expiry', `/files/${KEY}?token=${token}`],
      ['no query', `/files/${KEY}`],
      ['a repeated token', `/files/${KEY}?e=${e}&token=${token}&token=${token}`],
      ['a repeated expiry', `/files/${KEY}?e=${e}&e=${e}&token=${token}`],
      ['a padded token', `/files/${KEY}?e=${e}&token=${token}%3D`],
      ['an empty token', `/files/${KEY}?e=${e}&token=`],
      ['a huge expiry', `/files/${KEY}?e=99999999999999999999&token=${token}`],
    ];
    for (const [name, path] of variants) {
      const response = await rawRequest(app.port, path);
      expect(response.status, name).toBe(403);
      expect(envelopeOf(response), name).toEqual(FORBIDDEN);
    }
  });

  it('a validly signed URL of a missing object answers 404 资源不存在', async () => {
    const path = pathOf(await storage.signedUrl('projects/p1/tasks/t1/never.png'));
    const response = await rawRequest(app.port, path);
    expect(response.status).toBe(404);
    expect(envelopeOf(response)).toEqual(NOT_FOUND);
  });

  it('a key sent as one path parameter (slashes as %2F) serves the same object', async () => {
    const path = pathOf(await storage.signedUrl(KEY));
    const encoded = path.replace(`/files/${KEY}`, `/files/${encodeURIComponent(KEY)}`);
    expect(encoded).toContain('%2F');
    const response = await rawRequest(app.port, encoded);
    expect(response.status).toBe(200);
    expect(response.body.equals(Buffer.from(PNG_1X1))).toBe(true);
  });

  it('a key with a segment longer than 127 characters answers 404, not 500', async () => {
    const key = `projects/p1/${'a'.repeat(128)}.png`;
    const e = Math.floor(now / 1000) + 60;
    const response = await rawRequest(app.port, `/files/${key}?e=${e}&token=${storage.signer.token(key, e)}`);
    expect(response.status).toBe(404);
    expect(envelopeOf(response)).toEqual(NOT_FOUND);
  });

  it('no path leaves the root: ../, encoded dots and slashes, absolute paths answer 404 and serve nothing', async () => {
    await writeFile(join(dir.path, 'outside.txt'), 'SECRET-OUTSIDE');
    const attempts = [
      '/files/../outside.txt',
      '/files/../../../../etc/passwd',
      '/files/projects/../../outside.txt',
      '/files/%2e%2e/outside.txt',
      '/files/%2E%2E/%2E%2E/etc/passwd',
      '/files/projects%2F..%2F..%2Foutside.txt',
      '/files/..%5Coutside.txt',
      '/files//etc/passwd',
      '/files/%2Fetc%2Fpasswd',
      '/files/projects/p1/%00.png',
      '/files/.meta/projects/p1/tasks/t1/sprite.png.json',
      '/files/%c0%ae%c0%ae/outside.txt',
      '/files/',
    ];
    for (const attempt of attempts) {
      // Even with a token made for the literal text, the key is refused before the token is looked at.
      const key = attempt.slice('/files/'.length);
      const e = Math.floor(now / 1000) + 60;
      const path = `${attempt}?e=${e}&token=${storage.signer.token(key, e)}`;
      const response = await rawRequest(app.port, path);
      expect(response.status, attempt).toBe(404);
      expect(envelopeOf(response), attempt).toEqual(NOT_FOUND);
      expect(response.body.toString('utf8'), attempt).not.toContain('SECRET-OUTSIDE');
      expect(response.body.toString('utf8'), attempt).not.toContain('root:');
    }
  });

  it('a symlink that escapes the root answers 404 even with a valid token', async () => {
    await writeFile(join(outside.path, 'secret.png'), 'SECRET-OUTSIDE');
    await mkdir(join(dir.path, 'objects/projects'), { recursive: true });
    await symlink(outside.path, join(dir.path, 'objects/projects/evil'));
    await symlink(join(outside.path, 'secret.png'), join(dir.path, 'objects/projects/p1/link.png'));
    for (const key of ['projects/evil/secret.png', 'projects/p1/link.png']) {
      const response = await rawRequest(app.port, pathOf(await storage.signedUrl(key)));
      expect(response.status, key).toBe(404);
      expect(response.body.toString('utf8'), key).not.toContain('SECRET-OUTSIDE');
    }
  });

  it('other methods answer 405 with Allow', async () => {
    const path = pathOf(await storage.signedUrl(KEY));
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await rawRequest(app.port, path, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
      expect(envelopeOf(response)).toEqual({
        code: 405,
        message: MESSAGES.methodNotAllowed,
        data: { reason: 'method_not_allowed' },
      });
    }
    expect(await storage.exists(KEY)).toBe(true);
  });

  it('refuses to mount over the S3 driver', () => {
    const s3Like = { kind: 's3' } as unknown as FsObjectStorage;
    expect(() => createFilesRouter(s3Like)).toThrow(/filesystem storage driver/);
  });
});

describe('GET /api/v1/assets/download', () => {
  it('redirects (302) to a signed URL that downloads the object', async () => {
    const response = await fetch(`${app.url}/api/v1/assets/download?key=${encodeURIComponent(KEY)}`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = response.headers.get('location') ?? '';
    const url = new URL(location);
    expect(url.origin).toBe(app.url);
    expect(url.pathname).toBe(`/files/${KEY}`);
    const e = Number(url.searchParams.get('e'));
    // SIGNED_URL_TTL_SECONDS: 3600 by default.
    expect(e).toBe(Math.floor(now / 1000) + 3600);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await response.json()).toEqual({ code: 0, message: 'ok', data: { url: location } });

    const followed = await fetch(`${app.url}/api/v1/assets/download?key=${encodeURIComponent(KEY)}`);
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await followed.arrayBuffer()).equals(Buffer.from(PNG_1X1))).toBe(true);
  });

  it('uses the configured lifetime', async () => {
    const custom = await serveRouters(createDownloadRouter(storage, { ttlSeconds: 120 }));
    try {
      const response = await rawRequest(custom.port, `/api/v1/assets/download?key=${KEY}`);
      const e = Number(new URL(response.headers.location ?? '').searchParams.get('e'));
      expect(e).toBe(Math.floor(now / 1000) + 120);
    } finally {
      await custom.close();
    }
  });

  it('answers 400 参数错误 for a missing, empty, repeated or invalid key', async () => {
    const queries = [
      '',
      '?',
      '?key=',
      '?other=1',
      `?key=${KEY}&key=${KEY}`,
      '?key=../../etc/passwd',
      '?key=%2Fetc%2Fpasswd',
      '?key=a%00b',
      `?key=${'a'.repeat(1025)}`,
      '?key=projects//x',
      '?key=%E0%A4%A',
    ];
    for (const query of queries) {
      const response = await rawRequest(app.port, `/api/v1/assets/download${query}`);
      expect(response.status, query).toBe(400);
      expect(envelopeOf(response), query).toEqual(BAD_REQUEST);
      expect(response.headers.location, query).toBeUndefined();
    }
  });

  it('answers 404 资源不存在 when there is no such object', async () => {
    const response = await rawRequest(app.port, '/api/v1/assets/download?key=projects/p1/tasks/t1/none.png');
    expect(response.status).toBe(404);
    expect(envelopeOf(response)).toEqual(NOT_FOUND);
  });

  it('answers 400 for keys with a segment longer than 127 characters (the issue-14 500), and logs no error', async () => {
    const errors: unknown[] = [];
    const logger: StorageRouteLogger = { error: (o) => errors.push(o), warn: () => undefined };
    const logged = await serveRouters(createDownloadRouter(storage, { logger }));
    try {
      for (const key of ['0'.repeat(256), `projects/p1/${'x'.repeat(128)}/a.png`, 'a'.repeat(1024)]) {
        const response = await rawRequest(logged.port, `/api/v1/assets/download?key=${key}`);
        expect(response.status, key.slice(0, 20)).toBe(400);
        expect(envelopeOf(response)).toEqual(BAD_REQUEST);
      }
      // 127 characters is a valid segment: an unknown object.
      const longest = await rawRequest(logged.port, `/api/v1/assets/download?key=${'0'.repeat(127)}`);
      expect(longest.status).toBe(404);
      expect(envelopeOf(longest)).toEqual(NOT_FOUND);
      expect(errors).toEqual([]);
    } finally {
      await logged.close();
    }
  });

  it('answers 404, not 500, when a valid key makes a path the filesystem cannot hold (a very deep root)', async () => {
    const deep = join(dir.path, ...Array.from({ length: 16 }, () => 'd'.repeat(250)));
    const deepStorage = createFsStorage({ root: deep, secret: SECRET });
    const deepApp = await serveRouters(createDownloadRouter(deepStorage));
    try {
      const response = await rawRequest(
        deepApp.port,
        `/api/v1/assets/download?key=projects/${'p'.repeat(120)}/${'q'.repeat(120)}/a.png`,
      );
      expect(response.status).toBe(404);
      expect(envelopeOf(response)).toEqual(NOT_FOUND);
    } finally {
      await deepApp.close();
    }
  });

  it('refuses to store a key whose path the filesystem cannot hold, with an invalid_key error', async () => {
    const deep = createFsStorage({
      root: join(dir.path, ...Array.from({ length: 16 }, () => 'd'.repeat(250))),
      secret: SECRET,
    });
    const error = await deep
      .put(`projects/${'p'.repeat(120)}/${'q'.repeat(120)}/a.png`, PNG_1X1, 'image/png')
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('invalid_key');
    expect(String((error as Error).message)).toMatch(/longer than the filesystem/);
  });

  it('answers 500 服务器内部错误 when signing fails, and logs the cause', async () => {
    const logged: { object: Record<string, unknown>; message: string }[] = [];
    const logger: StorageRouteLogger = {
      error: (object, message) => logged.push({ object, message }),
      warn: () => undefined,
    };
    const failing: ObjectStorage = {
      ...storage,
      kind: 'fs',
      signedUrl: async () => {
        throw new Error('HSM unreachable');
      },
    };
    const broken = await serveRouters(createDownloadRouter(failing, { logger }));
    try {
      const response = await rawRequest(broken.port, `/api/v1/assets/download?key=${KEY}`);
      expect(response.status).toBe(500);
      expect(envelopeOf(response)).toEqual(INTERNAL);
      expect(response.headers.location).toBeUndefined();
      expect(response.body.toString('utf8')).not.toContain('HSM');
      expect(logged).toHaveLength(1);
      expect(logged[0]?.message).toBe('producing a download link failed');
      expect((logged[0]?.object.err as Error | undefined)?.message).toBe('HSM unreachable');
    } finally {
      await broken.close();
    }
  });

  it('answers 500 when the storage cannot be asked or signs something unusable', async () => {
    const cases: [string, Partial<ObjectStorage>][] = [
      [
        'exists throws',
        {
          exists: async () => {
            throw new Error('disk gone');
          },
        },
      ],
      ['signedUrl returns a non-string', { signedUrl: async () => undefined as unknown as string }],
      ['signedUrl returns a header injection', { signedUrl: async () => '/files/x\r\nSet-Cookie: a=b' }],
    ];
    for (const [name, override] of cases) {
      const broken = await serveRouters(createDownloadRouter({ ...storage, ...override }));
      try {
        const response = await rawRequest(broken.port, `/api/v1/assets/download?key=${KEY}`);
        expect(response.status, name).toBe(500);
        expect(envelopeOf(response), name).toEqual(INTERNAL);
        expect(response.headers['set-cookie'], name).toBeUndefined();
      } finally {
        await broken.close();
      }
    }
  });

  it('falls back to a root-relative URL when the Host header is not a usable origin', async () => {
    const response = await rawRequest(app.port, `/api/v1/assets/download?key=${KEY}`, {
      headers: { Host: 'bad host"<>' },
    });
    expect(response.status).toBe(302);
    expect(response.headers.location?.startsWith(`/files/${KEY}?e=`)).toBe(true);
  });

  it('answers 405 to other methods', async () => {
    const response = await rawRequest(app.port, `/api/v1/assets/download?key=${KEY}`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });
});
