import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

// ESM only: a command-line tool run by Node ≥ 20.19 (bin/assetloom.js imports dist/main.js). The
// pipeline (for `pixelize`) and cli-progress are imported when a command needs them, so a run of
// `assetloom projects` loads neither.
export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  outDir,
  format: ['esm'],
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false } },
  sourcemap: false,
  clean: true,
  target: 'node20',
  platform: 'node',
  splitting: true,
});
