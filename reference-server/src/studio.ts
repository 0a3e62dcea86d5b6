import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errors } from '@assetloom/core';
import type Koa from 'koa';

/** The URL prefix the studio (packages/studio) is served under. */
export const STUDIO_PREFIX = '/studio';

/** One file of the studio build, ready to send. */
export interface StudioFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

/** The studio as the server serves it: its files by request path, or why it is not there. */
export type StudioFiles =
  | { ok: true; dir: string; files: ReadonlyMap<string, StudioFile> }
  | { ok: false; reason: string };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Hashed build outputs (Vite's `assets/name-<hash>.ext`) never change under their name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Where the built studio is, first match wins: `STUDIO_DIR`; the workspace's
 * packages/studio/dist (a checkout, always the freshest build); `dist/studio` beside the server's
 * own files (the published tarball carries a copy made at build time). Null when none has an index.html.
 */
export function studioDirectory(env: NodeJS.ProcessEnv = process.env): string | null {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [
    env.STUDIO_DIR?.trim() || undefined,
    join(here, '..', '..', 'packages', 'studio', 'dist'),
    join(here, 'studio'),
  ];
  for (const dir of candidates) if (dir !== undefined && existsSync(join(dir, 'index.html'))) return dir;
  return null;
}

const MISSING =
  'Assetloom Studio is not built: run `pnpm --filter @assetloom/studio build` (the server’s `pnpm start` builds it), or set STUDIO_DIR to a built studio.';

/** Reads every file of the built studio once (it is small: about 150 KB). */
export async function loadStudio(dir: string | null = studioDirectory()): Promise<StudioFiles> {
  if (dir === null) return { ok: false, reason: MISSING };
  const files = new Map<string, StudioFile>();
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && !entry.name.endsWith('.map')) {
        const path = relative(dir, full).split(sep).join('/');
        const hashed = path.startsWith('assets/') && /-[A-Za-z0-9_-]{8,}\.\w+$/.test(path);
        files.set(`${STUDIO_PREFIX}/${path}`, {
          body: await readFile(full),
          contentType: TYPES[extname(entry.name)] ?? 'application/octet-stream',
          cacheControl: hashed ? IMMUTABLE : 'no-cache',
        });
      }
    }
  };
  await walk(dir);
  const index = files.get(`${STUDIO_PREFIX}/index.html`);
  if (index === undefined) return { ok: false, reason: MISSING };
  files.set(`${STUDIO_PREFIX}/`, index);
  return { ok: true, dir, files };
}

/**
 * The studio's Content-Security-Policy: scripts and styles only from the server's own files (no
 * 'unsafe-inline'), images also as blob: (the generated PNGs are shown from downloaded bytes),
 * connections to the same origin (API and progress WebSocket) and, with S3 storage, the bucket
 * the signed download URLs point at.
 */
export function studioCsp(extraConnect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    `connect-src 'self' ${extraConnect.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The part of the app that answers /studio and /studio/*: GET and HEAD of the built files. */
export function createStudioMiddleware(
  studio: StudioFiles | (() => Promise<StudioFiles>),
  options: { connectSources?: readonly string[] } = {},
): Koa.Middleware {
  let loading: Promise<StudioFiles> | undefined;
  const load = () => {
    if (typeof studio !== 'function') return Promise.resolve(studio);
    loading ??= studio().catch((error: unknown) => {
      loading = undefined;
      throw errors.internal(error);
    });
    return loading;
  };
  const csp = studioCsp(options.connectSources);
  return async (ctx, next) => {
    if (ctx.path !== STUDIO_PREFIX && !ctx.path.startsWith(`${STUDIO_PREFIX}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw errors.methodNotAllowed();
    }
    if (ctx.path === STUDIO_PREFIX) {
      ctx.status = 308;
      ctx.redirect(`${STUDIO_PREFIX}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      ctx.body = '';
      return;
    }
    const found = await load();
    if (!found.ok) {
      ctx.status = 503;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `${found.reason}\n`;
      return;
    }
    const file = found.files.get(ctx.path);
    if (file === undefined) return next();
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('Content-Security-Policy', csp);
    ctx.type = file.contentType;
    ctx.body = file.body;
  };
}

/** With S3 storage the studio downloads from the bucket's signed URLs: their origin joins connect-src. */
export function studioConnectSources(config: {
  storage: { driver: string; endpoint?: string | null; region?: string };
}): string[] {
  const storage = config.storage;
  if (storage.driver !== 's3') return [];
  if (storage.endpoint) return [new URL(storage.endpoint).origin, ...virtualHostOrigin(storage.endpoint)];
  return ['https://*.amazonaws.com'];
}

/** Virtual-hosted buckets live on a subdomain of the endpoint (`bucket.host`). */
function virtualHostOrigin(endpoint: string): string[] {
  const url = new URL(endpoint);
  if (/^[\d.]+$/.test(url.hostname) || url.hostname === 'localhost' || url.hostname.startsWith('['))
    return [];
  return [`${url.protocol}//*.${url.host}`];
}
