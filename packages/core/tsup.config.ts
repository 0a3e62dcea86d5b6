import { defineConfig } from 'tsup';
import { asciiChunks } from '../../scripts/ascii-chunks.mjs';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

// One entry per subpath of package.json "exports" (decision 0039); api/*.api.md records each one.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    contract: 'src/entries/contract.ts',
    http: 'src/entries/http.ts',
    queue: 'src/entries/queue.ts',
    'store/index': 'src/entries/store.ts',
    'store/embedded': 'src/entries/store-embedded.ts',
    'store/mongodb': 'src/entries/store-mongodb.ts',
    uploads: 'src/entries/uploads.ts',
    'webhooks/index': 'src/webhooks/index.ts',
    'review/index': 'src/review/index.ts',
    // Deprecated aliases of store/mongodb, kept because 0.1 was published with them.
    mongodb: 'src/entries/mongodb.ts',
    'review/mongodb': 'src/entries/review-mongodb.ts',
  },
  outDir,
  format: ['esm'],
  // Shared chunks: each class — AssetloomError, DuplicateKeyError, StoreWriteError, … — exists once,
  // whichever entries are loaded, so `instanceof` holds across entries. ESM only (issue #41): Node
  // ≥ 20.19 require()s it.
  splitting: true,
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
  target: 'es2022',
  platform: 'neutral',
  external: ['mongodb', '@seald-io/nedb', 'ajv', 'ajv-formats', '@assetloom/openapi'],
  // ASCII chunks: V8 keeps a module's source one byte a character (decision 0089)
  plugins: [asciiChunks()],
});
