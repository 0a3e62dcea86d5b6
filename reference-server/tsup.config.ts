import { cpSync, existsSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { asciiChunks } from '../scripts/ascii-chunks.mjs';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  // The pipeline thread's code is an entry of its own: dist/pipeline-thread.js, beside the chunk
  // that starts the threads (src/tasks/pipeline-threads.ts looks for it there).
  entry: {
    index: 'src/index.ts',
    main: 'src/main.ts',
    'worker-main': 'src/worker-main.ts',
    'pipeline-thread': 'src/tasks/pipeline-thread.ts',
  },
  outDir,
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false } },
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
  clean: true,
  // The published server carries the built web studio (packages/studio) as dist/studio, served at
  // /studio; without a studio build the server answers /studio with a 503 naming the build command.
  onSuccess: async () => {
    const studio = '../packages/studio/dist';
    if (existsSync(`${studio}/index.html`)) cpSync(studio, `${outDir}/studio`, { recursive: true });
    else console.warn('[assetloom/server] packages/studio/dist is missing: the build carries no studio');
  },
  // ASCII chunks: V8 keeps a module's source one byte a character (decision 0089)
  plugins: [asciiChunks()],
});
