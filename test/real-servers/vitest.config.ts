import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The real model servers (issue #30): ComfyUI (one for the run, started by the global setup) and
// llama.cpp's OpenAI-compatible server (one per file). Installed by `bash scripts/install-real-servers.sh`
// (bootstrap.sh --test); in CI a missing server fails the run instead of skipping.
export default defineProject({
  resolve: {
    alias: {
      // the code under test from source, not a dist that may lag behind
      '@assetloom/server': fileURLToPath(new URL('../../reference-server/src/index.ts', import.meta.url)),
      '@assetloom/pipeline': fileURLToPath(new URL('../../packages/pipeline/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'real-servers',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.test.ts'],
    globalSetup: ['@assetloom/testing/real-servers-global-setup'],
    // one ComfyUI queue for the run: files must not interrupt each other's prompts
    fileParallelism: false,
    // CPU generation shares 2 cores with the rest of `npm test`: time limits far above a quiet run's
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
