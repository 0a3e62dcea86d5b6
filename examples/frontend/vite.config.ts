import { defineConfig } from 'vite';

// No polyfills and no `define`: @assetloom/mock's `browser` build runs in the page as it is (issue #32).
// VITE_ASSETLOOM_PROXY=http://127.0.0.1:8080 puts a real server behind the dev server's own origin
// (no CORS needed): the API, register/login, the signed /files/ downloads and the progress WebSocket.
const proxyTarget = process.env.VITE_ASSETLOOM_PROXY;
const proxy =
  proxyTarget === undefined || proxyTarget === ''
    ? undefined
    : Object.fromEntries(
        ['/api', '/auth', '/files'].map((path) => [path, { target: proxyTarget, ws: path === '/api' }]),
      );

export default defineConfig({
  build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
  server: { host: '127.0.0.1', ...(proxy ? { proxy } : {}) },
  preview: { host: '127.0.0.1', ...(proxy ? { proxy } : {}) },
});
