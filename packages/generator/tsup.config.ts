import { defineConfig } from 'tsup';
import { asciiChunks } from '../../scripts/ascii-chunks.mjs';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  entry: ['src/index.ts'],
  outDir,
  // @assetloom/text-bytes (the UTF-8 slice reader the drawings and the pipeline share, a private
  // workspace package, decision 0090) built in: nothing installs it
  noExternal: ['@assetloom/text-bytes'],
  format: ['esm'],
  // the package tsconfig is a composite project (for tsc -b); the declaration build is a plain one
  dts: { compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
  target: 'es2022',
  platform: 'neutral',
  // ASCII chunks: V8 keeps a module's source one byte a character (decision 0089)
  plugins: [asciiChunks()],
});
