import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

// One entry per subpath of package.json "exports" (decision 0042); api/*.api.md records each one.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // `@assetloom/pipeline/progress`: the SDK bundles it without the rest.
    progress: 'src/progress.ts',
    formats: 'src/entries/formats.ts',
    inputs: 'src/entries/inputs.ts',
    interpret: 'src/entries/interpret.ts',
    pixel: 'src/entries/pixel.ts',
    providers: 'src/entries/providers.ts',
    tileset: 'src/entries/tileset.ts',
  },
  outDir,
  format: ['esm', 'cjs'],
  // Shared chunks for CommonJS too: each class (PipelineError, Painter, Rng, …) exists once whichever
  // entries a require() loads, so `instanceof` holds across entries as it does in ESM.
  splitting: true,
  // the package tsconfig is a composite project (for tsc -b); the declaration build is a plain one
  dts: { compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
});
