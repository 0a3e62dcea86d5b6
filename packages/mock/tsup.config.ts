import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';
const require = createRequire(import.meta.url);

/**
 * Node's modules that the in-memory store (NeDB inside @assetloom/core) imports, as the browser build
 * gets them: a two-function `util` (the npm polyfill reads `process` when it loads) and the `events`
 * polyfill, bundled in, so a page needs no `process`, no `define` and no alias (issue #32).
 */
const browserBuiltins: Record<string, string> = {
  util: fileURLToPath(new URL('./src/internal/browser/util.ts', import.meta.url)),
  events: require.resolve('events/'),
};

export default defineConfig([
  {
    entry: ['src/index.ts'],
    outDir,
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { composite: false } },
    clean: true,
    sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
    target: 'es2022',
    platform: 'neutral',
    external: ['msw', '@assetloom/core', '@assetloom/pipeline', '@assetloom/generator', '@assetloom/openapi'],
  },
  {
    // The `browser` condition's build: @assetloom/core and what it needs (NeDB, ajv, …) bundled in,
    // with the store's Node modules replaced (above). msw, the pipeline, the generator and the contract stay
    // imports: the pipeline runs in browsers as it is, and one copy of each is what the app gets.
    entry: { browser: 'src/index.ts' },
    outDir,
    format: ['esm'],
    dts: false,
    sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
    target: 'es2022',
    platform: 'browser',
    external: ['msw', '@assetloom/pipeline', '@assetloom/generator', '@assetloom/openapi'],
    noExternal: ['@assetloom/core'],
    esbuildPlugins: [
      {
        name: 'assetloom-browser-builtins',
        setup(build) {
          build.onResolve({ filter: /^(node:)?(util|events)\/?$/ }, (args) => ({
            path: browserBuiltins[args.path.replace(/^node:|\/$/g, '')]!,
          }));
        },
      },
    ],
  },
]);
