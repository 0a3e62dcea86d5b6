// The built pages served by `vite preview` on 127.0.0.1, driven in the system Chromium (one launch):
// the Vite build, which generates "a treasure chest" with the mock, loading the drawings' files
// through their new URL(…, import.meta.url) — no configureDrawings (issue #41); then the esbuild
// bundle of the same page (bundlers.mjs): esbuild does not emit those files, so the page shows the
// message a developer gets for a file the page cannot load.
import { preview } from 'vite';
import { checkSpritePage, withChromium } from './project-helpers.mjs';

const server = await preview({
  preview: { host: '127.0.0.1', port: 0, strictPort: false },
  logLevel: 'warn',
});
const url = server.resolvedUrls.local[0];
const ok = await withChromium(async (browser) => {
  const results = [
    await checkSpritePage(browser, url, 'vite build + preview'),
    // esbuild emits nothing: the page fails naming the file, where it looked and what to do
    await checkSpritePage(browser, `${url}esbuild/index.html`, 'esbuild build without the files', {
      expectError: [
        // (the first file it needs: a drawing set, or resvg.wasm for a drawing of Assetloom's own,
        // as the treasure chest is since decision 0110)
        /could not load http:\/\/127\.0\.0\.1:\d+\/esbuild\/(sets\/[a-z-]+\.bin|resvg\.wasm) \((HTTP 404|an HTML page came back)/,
        /loads (sets\/[a-z-]+\.bin|resvg\.wasm) of @assetloom\/drawings/,
        /copy its sets\/, fonts\/ and resvg\.wasm to http:\/\/127\.0\.0\.1:\d+\/esbuild\//,
        /serve the folder node_modules\/@assetloom\/drawings\/dist\/ and call configureDrawings\(\{ baseUrl/,
      ],
    }),
  ];
  return results.every(Boolean);
});
await new Promise((resolve) => server.httpServer.close(resolve));
process.exit(ok ? 0 : 1);
