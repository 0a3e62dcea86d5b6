import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The real model servers (issue #30): ComfyUI (one for the run, started by the global setup) and
// llama.cpp's OpenAI-compatible server (one per file). Installed by `bash scripts/install-real-servers.sh`
// (bootstrap.sh --test); in CI a missing server fails the run instead of skipping.
export default defineProject({
  resolve: {
    // the code under test from source, not a dist that may lag behind. The pipeline's subpaths
    // (`@assetloom/pipeline/providers` …) map to their entry files, as its tsup.config.ts builds them:
    // a plain prefix alias would send them to `src/index.ts/providers`.
    alias: [
      {
        find: '@assetloom/server',
        replacement: fileURLToPath(new URL('../../reference-server/src/index.ts', import.meta.url)),
      },
      {
        find: /^@assetloom\/pipeline$/,
        replacement: fileURLToPath(new URL('../../packages/pipeline/src/index.ts', import.meta.url)),
      },
      {
        find: /^@assetloom\/pipeline\/progress$/,
        replacement: fileURLToPath(new URL('../../packages/pipeline/src/progress.ts', import.meta.url)),
      },
      {
        find: /^@assetloom\/pipeline\/(formats|inputs|interpret|pixel|providers|tileset)$/,
        replacement: `${fileURLToPath(new URL('../../packages/pipeline/src/entries/', import.meta.url))}$1.ts`,
      },
    ],
  },
  test: {
    name: 'real-servers',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.test.ts'],
    globalSetup: ['@assetloom/testing/real-servers-global-setup'],
    // one ComfyUI queue for the run: the suites that use it are imported by one file, comfyui.test.ts,
    // so they never interrupt each other's prompts, and the project runs beside the rest of the run
    // (decision 0139; it was one file at a time, after everything else)
    // CPU generation shares 2 cores with the rest of `npm test`: time limits far above a quiet run's
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
