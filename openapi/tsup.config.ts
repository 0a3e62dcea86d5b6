import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  entry: ['src/index.ts'],
  outDir,
  format: ['esm'],
  dts: { compilerOptions: { composite: false } },
  clean: false,
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
});
