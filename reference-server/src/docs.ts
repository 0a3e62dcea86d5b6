import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One static file of the API reference. */
export interface DocFile {
  body: Buffer;
  contentType: string;
  /** The page's Content-Security-Policy (HTML pages only). */
  csp?: string;
}

/** The files served under /docs, by request path. */
export type DocFiles = ReadonlyMap<string, DocFile>;

const BUNDLE = 'redoc.standalone.js';

/** The pages as built by `@assetloom/openapi` (`pnpm --filter @assetloom/openapi build`). */
export function docsDirectory(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@assetloom/openapi/docs/asset-api.html'));
}

/**
 * Loads the Redoc pages once. The pages refer to the bundle as `./redoc.standalone.js`, which a
 * browser at `/docs` (no trailing slash) would look up at `/redoc.standalone.js`; the reference is
 * made absolute so `/docs`, `/docs/` and `/docs/review-auth` all find it at `/docs/redoc.standalone.js`.
 */
export async function loadDocs(dir: string = docsDirectory()): Promise<DocFiles> {
  const [assetApi, reviewAuth, bundle] = await Promise.all([
    readFile(join(dir, 'asset-api.html'), 'utf8'),
    readFile(join(dir, 'review-auth.html'), 'utf8'),
    readFile(join(dir, BUNDLE)),
  ]);
  const fix = (html: string) => html.replaceAll(`"./${BUNDLE}"`, `"/docs/${BUNDLE}"`);
  const pageOf = (html: string): DocFile => {
    const text = fix(html);
    return { body: Buffer.from(text, 'utf8'), contentType: 'text/html; charset=utf-8', csp: docsCsp(text) };
  };
  const page = pageOf(assetApi);
  return new Map<string, DocFile>([
    ['/docs', page],
    ['/docs/', page],
    ['/docs/review-auth', pageOf(reviewAuth)],
    [`/docs/${BUNDLE}`, { body: bundle, contentType: 'text/javascript; charset=utf-8' }],
  ]);
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of an API reference page (issue #37): scripts only from /docs and the
 * page's own inline scripts by hash (the JSON document block is data, not script), no connections
 * but to this server, nothing framed or framing. Redoc adds its styles at run time (styled-components),
 * so styles take 'unsafe-inline'; its search runs in a blob: worker.
 */
export function docsCsp(html: string): string {
  const inline: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
    const type = /\btype="([^"]*)"/.exec(match[1] ?? '')?.[1];
    if (type !== undefined && type !== 'module' && !/javascript/.test(type)) continue;
    inline.push(sha256(match[2] ?? ''));
  }
  return [
    "default-src 'none'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
