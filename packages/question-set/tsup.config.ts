import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    outDir,
    format: ['esm', 'cjs'],
    // The package tsconfig is a composite project (for tsc -b); the declaration build is a plain one.
    dts: { compilerOptions: { composite: false, incremental: false } },
    clean: false,
    sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
    target: 'es2022',
    platform: 'neutral',
    // ajv-formats' format functions (CommonJS) are bundled in: the published ESM then loads no
    // CommonJS at all, which keeps cold start low and spares browser bundlers an interop step.
    noExternal: ['ajv-formats'],
    // The JSON Schema is published too, for tools that want the file rather than the constant.
    onSuccess: async () => {
      copyFileSync('../../openapi/schemas/question-set.schema.json', `${outDir}/question-set.schema.json`);
    },
  },
  {
    entry: { cli: 'src/cli.ts' },
    outDir,
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
