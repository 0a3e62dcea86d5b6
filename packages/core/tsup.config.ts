import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    mongodb: 'src/mongodb.ts',
    'review/index': 'src/review/index.ts',
    'review/mongodb': 'src/review/mongodb.ts',
  },
  outDir,
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['mongodb', '@seald-io/nedb', 'ajv', 'ajv-formats', '@assetloom/openapi'],
});
