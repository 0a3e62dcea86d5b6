import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One static file of the API reference. */
export interface DocFile {
  body: Buffer;
  contentType: string;
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
  const fix = (html: string) => Buffer.from(html.replaceAll(`"./${BUNDLE}"`, `"/docs/${BUNDLE}"`), 'utf8');
  const html = 'text/html; charset=utf-8';
  const page = { body: fix(assetApi), contentType: html };
  return new Map<string, DocFile>([
    ['/docs', page],
    ['/docs/', page],
    ['/docs/review-auth', { body: fix(reviewAuth), contentType: html }],
    [`/docs/${BUNDLE}`, { body: bundle, contentType: 'text/javascript; charset=utf-8' }],
  ]);
}
