// Builds the static API reference pages (Redoc) into dist/docs. The Redoc bundle is copied beside
// the pages instead of loaded from a CDN, and each page inlines its bundled OpenAPI document, so
// /docs works on a machine without internet access.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// ASSETLOOM_BUILD_DIR: the temporary dist/ of scripts/build-swap.mjs
const out = join(root, process.env.ASSETLOOM_BUILD_DIR ?? 'dist', 'docs');
mkdirSync(out, { recursive: true });
const require = createRequire(import.meta.url);
copyFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), join(out, 'redoc.standalone.js'));

const escapeHtml = (s) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

for (const name of ['asset-api', 'review-auth']) {
  const doc = JSON.parse(readFileSync(join(root, 'generated', `${name}.json`), 'utf8'));
  // JSON inside <script>: escape "<" so no "</script>" or "<!--" can close or confuse the element.
  const inline = JSON.stringify(doc).replace(/</g, '\\u003c');
  const title = escapeHtml(`${doc.info.title} ${doc.info.version}`);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body { margin: 0; } noscript { display: block; padding: 2rem; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<noscript>This API reference needs JavaScript. The raw description is the OpenAPI document ${escapeHtml(name)}.json.</noscript>
<div id="redoc"></div>
<script src="./redoc.standalone.js"></script>
<script id="openapi-document" type="application/json">${inline}</script>
<script>
  Redoc.init(JSON.parse(document.getElementById('openapi-document').textContent), {
    expandResponses: '200,201',
    jsonSampleExpandLevel: 3,
    hideDownloadButton: true,
    sortPropsAlphabetically: false,
  }, document.getElementById('redoc'));
</script>
</body>
</html>
`;
  writeFileSync(join(out, `${name}.html`), html);
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}
console.log(`[assetloom/openapi] API reference pages written to ${out}`);
