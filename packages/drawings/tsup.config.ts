import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done;
// scripts/build-sets.mjs then writes sets/*.bin and resvg.wasm into the same directory.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  entry: ['src/index.ts'],
  outDir,
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  // import.meta.url in the CommonJS build (the set files are found next to the module)
  shims: true,
});
