import { defineConfig } from 'vite';

// No polyfills and no `define`: @assetloom/mock's `browser` build runs in the page as it is (issue #32).
export default defineConfig({
  build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
