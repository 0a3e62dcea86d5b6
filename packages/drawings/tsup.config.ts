import { defineConfig } from 'tsup';
import { asciiChunks } from '../../scripts/ascii-chunks.mjs';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done;
// scripts/build-sets.mjs then writes sets/*.bin and resvg.wasm into the same directory.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

export default defineConfig({
  // resvg.js: resvg's glue built in beside resvg.wasm (src/resvg.ts), its own file so that Node can
  // load a fresh copy after a panic
  entry: { index: 'src/index.ts', resvg: 'src/resvg.ts' },
  // resvg's glue and fflate's few functions built in (licenses/): one copy of resvg.wasm, and no
  // 0.8 MB fflate package installed (issue #41); @assetloom/text-bytes, the UTF-8 slice reader the
  // pipeline and the generator share (a private workspace package, decision 0090), carried the same way
  noExternal: ['@resvg/resvg-wasm', 'fflate', '@assetloom/text-bytes'],
  outDir,
  format: ['esm'],
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
  target: 'es2022',
  platform: 'neutral',
  // ASCII chunks: V8 keeps a module's source one byte a character (decision 0089)
  plugins: [asciiChunks()],
});
