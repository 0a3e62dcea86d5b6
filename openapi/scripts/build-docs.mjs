// Builds the static API reference pages (Redoc) into dist/docs, with the Redoc bundle served
// beside them instead of from a CDN, so /docs works on a machine without internet access.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'docs');
mkdirSync(out, { recursive: true });
const require = createRequire(import.meta.url);
const bundle = require.resolve('redoc/bundles/redoc.standalone.js');
copyFileSync(bundle, join(out, 'redoc.standalone.js'));

const redocly = join(root, 'node_modules', '.bin', 'redocly');
for (const name of ['asset-api', 'review-auth']) {
  const target = join(out, `${name}.html`);
  execFileSync(redocly, ['build-docs', join(root, `${name}.yaml`), '-o', target], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const html = readFileSync(target, 'utf8').replace(
    /https:\/\/cdn\.redocly\.com\/redoc\/[^"']*\/redoc\.standalone\.js/g,
    'redoc.standalone.js',
  );
  if (html.includes('cdn.redocly.com'))
    throw new Error(`[assetloom/openapi] ${name}.html still loads Redoc from a CDN`);
  writeFileSync(target, html);
}
console.log(`[assetloom/openapi] API reference pages written to ${out}`);
