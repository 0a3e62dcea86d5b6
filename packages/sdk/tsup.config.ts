import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';

const common: Options = {
  entry: ['src/index.ts'],
  outDir,
  // The API's types come from @assetloom/openapi (a dev dependency): they are written into the
  // declarations, so the published types need no other package.
  dts: { compilerOptions: { composite: false }, resolve: ['@assetloom/openapi', '@assetloom/pipeline'] },
  sourcemap: process.env.ASSETLOOM_SOURCEMAPS === '1',
  target: 'es2022',
  platform: 'neutral',
  // The stage → progress formula has one home, @assetloom/pipeline/progress (a dev dependency):
  // both builds carry that small module, so the SDK installs without the pipeline.
  noExternal: ['@assetloom/pipeline'],
};

const browserRuntime = fileURLToPath(new URL('./src/internal/runtime.browser.ts', import.meta.url));

export default defineConfig([
  { ...common, format: ['esm'], clean: true },
  {
    ...common,
    format: ['cjs'],
    // ky is ESM-only and openapi-fetch's CommonJS build puts createClient on `exports.default`;
    // from a "type": "module" source esbuild imports both the way Node's ESM would (default = the
    // whole module), so `require('@assetloom/sdk')` broke at the first call (issue #21). The CommonJS
    // build carries its own copy of both instead; the ESM build keeps them as dependencies.
    noExternal: ['ky', 'openapi-fetch', '@assetloom/pipeline'],
  },
  {
    // The `browser` condition's build (issue #32): src/internal/runtime.ts swapped for
    // runtime.browser.ts, so it has no `import('ws')` for a dev server to fail on. Same API and types.
    // verifyWebhook lives in its own file there: standardwebhooks is CommonJS, which a bundler cannot
    // tree-shake, so a page that never verifies a webhook would otherwise carry it (≈ 4 KB gzip).
    ...common,
    entry: { browser: 'src/index.ts', webhooks: 'src/webhooks.ts' },
    format: ['esm'],
    dts: false,
    esbuildPlugins: [
      {
        name: 'assetloom-browser-build',
        setup(build) {
          build.onResolve({ filter: /^\.\/runtime\.js$/ }, () => ({ path: browserRuntime }));
          build.onResolve({ filter: /^\.\/webhooks\.js$/ }, (args) =>
            args.importer.endsWith('index.ts') ? { path: './webhooks.js', external: true } : undefined,
          );
        },
      },
    ],
  },
]);
