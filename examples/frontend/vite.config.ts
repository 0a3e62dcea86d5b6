import { createRequire } from 'node:module';
import { defineConfig } from 'vite';

const require = createRequire(import.meta.url);

export default defineConfig({
  build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
  resolve: {
    // The mock runs @assetloom/core's embedded store (NeDB) in the page; NeDB's browser build still
    // imports Node's `events` and `util`, so the page gets their npm polyfills.
    alias: {
      events: require.resolve('events/'),
      util: require.resolve('util/'),
    },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
