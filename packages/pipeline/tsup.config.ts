import { defineConfig } from 'tsup';
import { asciiChunks } from '../../scripts/ascii-chunks.mjs';

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
  // fflate's few functions built in (licenses/fflate.txt): its package is 0.8 MB installed (issue #41);
  // @assetloom/text-bytes, the UTF-8 slice reader the drawings and the generator share (a private
  // workspace package, decision 0090), carried the same way
  noExternal: ['fflate', '@assetloom/text-bytes'],
  format: ['esm'],
  // Shared chunks: each class (PipelineError, Painter, Rng, …) exists once whichever entries are
  // loaded, so `instanceof` holds across entries. ESM only (issue #41): Node ≥ 20.19 require()s it.
  splitting: true,
  // the package tsconfig is a composite project (for tsc -b); the declaration build is a plain one
  dts: { compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
  target: 'es2022',
  platform: 'neutral',
  // ASCII chunks: V8 keeps a module's source one byte a character (decision 0089)
  plugins: [asciiChunks()],
});
