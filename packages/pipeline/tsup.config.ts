import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  // progress.ts is its own entry (`@assetloom/pipeline/progress`): the SDK bundles it without the rest.
  entry: ['src/index.ts', 'src/progress.ts'],
  outDir,
  format: ['esm', 'cjs'],
  // the package tsconfig is a composite project (for tsc -b); the declaration build is a plain one
  dts: { compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
});
