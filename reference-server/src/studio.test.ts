import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AssetloomError, fail } from '@assetloom/core';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioMiddleware, loadStudio, studioConnectSources, studioCsp } from './studio.js';

/** The middleware alone in a Koa app on 127.0.0.1, with the envelope for errors as the server has. */
async function serve(middleware: Koa.Middleware): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { code: 404, message: '接口不存在', data: { reason: 'route_not_found' } };
      }
    } catch (error) {
      const e = error as AssetloomError;
      ctx.status = e.code;
      ctx.body = fail(e);
    }
  });
  app.use(middleware);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the studio files', () => {
  let dir: string;
  let built: { url: string; server: Server };
  let missing: { url: string; server: Server };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-studio-files-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>Studio</title>');
    await writeFile(join(dir, 'assets', 'index-Ab3dEf9h.js'), 'export {};');
    await writeFile(join(dir, 'assets', 'index-Ab3dEf9h.js.map'), '{}');
    built = await serve(createStudioMiddleware(() => loadStudio(dir)));
    missing = await serve(createStudioMiddleware(() => loadStudio(null)));
  });
  afterAll(async () => {
    for (const running of [built, missing]) await new Promise((r) => running?.server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the page no-cache and hashed assets immutable, both under the CSP', async () => {
    const page = await fetch(`${built.url}/studio/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toBe(studioCsp());
    const asset = await fetch(`${built.url}/studio/assets/index-Ab3dEf9h.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('export {};');
    // Source maps stay home; unknown files fall through to the API's 404.
    expect((await fetch(`${built.url}/studio/assets/index-Ab3dEf9h.js.map`)).status).toBe(404);
    const head = await fetch(`${built.url}/studio/index.html`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(`${built.url}/studio/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const bare = await fetch(`${built.url}/studio?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/studio/?x=1');
    expect((await fetch(`${built.url}/studios`)).status).toBe(404);
  });

  it('answers 503 naming the build command when no studio is built', async () => {
    const answer = await fetch(`${missing.url}/studio/`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.text()).toContain('pnpm --filter @assetloom/studio build');
  });

  it('keeps unsafe-inline out and lets the S3 bucket of signed URLs into connect-src', () => {
    expect(studioCsp()).not.toContain('unsafe-inline');
    expect(studioCsp()).toContain("script-src 'self';");
    expect(studioConnectSources({ storage: { driver: 'fs' } })).toEqual([]);
    expect(studioConnectSources({ storage: { driver: 's3', endpoint: null } })).toEqual([
      'https://*.amazonaws.com',
    ]);
    expect(studioConnectSources({ storage: { driver: 's3', endpoint: 'http://127.0.0.1:9000' } })).toEqual([
      'http://127.0.0.1:9000',
    ]);
    expect(
      studioConnectSources({ storage: { driver: 's3', endpoint: 'https://minio.example.com' } }),
    ).toEqual(['https://minio.example.com', 'https://*.minio.example.com']);
    expect(studioCsp(['http://127.0.0.1:9000'])).toContain("connect-src 'self' http://127.0.0.1:9000;");
  });
});
