import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const require = createRequire(import.meta.url);

/**
 * The files the built-in generator loads at run time beside @assetloom/drawings' module — the drawing
 * sets (`sets/*.bin`), the pixel fonts UI pieces are lettered with (`fonts/*.bin`) and resvg's
 * WebAssembly — served at `<base>drawings/` by the dev server and copied there by the build. The
 * bundle moves the module away from its `dist/`, so the mock in the page points the package at this
 * folder (`configureDrawings` in src/mock.ts). Mock builds only: the real studio draws nothing.
 */
function drawingsFiles(): Plugin {
  const dist = join(dirname(require.resolve('@assetloom/drawings/package.json')), 'dist');
  const files = () => [
    ...['sets', 'fonts'].flatMap((dir) =>
      readdirSync(join(dist, dir))
        .filter((name) => name.endsWith('.bin'))
        .map((name) => `${dir}/${name}`),
    ),
    'resvg.wasm',
  ];
  let base = '/';
  return {
    name: 'assetloom-drawings-files',
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        if (!path.startsWith(`${base}drawings/`)) return next();
        const name = path.slice(`${base}drawings/`.length);
        if (!files().includes(name)) return next();
        res.setHeader(
          'content-type',
          name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream',
        );
        res.end(readFileSync(join(dist, name)));
      });
    },
    generateBundle() {
      for (const name of files())
        this.emitFile({
          type: 'asset',
          fileName: `drawings/${name}`,
          source: readFileSync(join(dist, name)),
        });
    },
  };
}

/**
 * `virtual:assetloom-style-catalog`: the palettes the `palette` style key names (the pipeline's
 * NAMED_PALETTES, one source), the art styles and the keys the built-in generator reads — what the
 * studio's pickers offer when the server has no `GET /api/v1/styles/catalog`. Read at build time, so
 * the page carries a few hundred bytes of colours, not the pipeline.
 */
function styleCatalog(): Plugin {
  const id = 'virtual:assetloom-style-catalog';
  return {
    name: 'assetloom-style-catalog',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    async load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const { NAMED_PALETTES } = await import('@assetloom/pipeline');
      const { toHex } = await import('@assetloom/pipeline/pixel');
      const palettes = Object.entries(NAMED_PALETTES)
        .filter(([name]) => name !== 'default')
        .map(([name, colors]) => ({ name, colors: colors.map(toHex) }));
      const catalog = {
        palettes,
        // The values the generator's resolveStyle tells apart (pipeline README, "Style keys").
        artStyles: ['pixel', '8-bit', 'smooth', 'cartoon', 'painterly'],
        keys: ['artStyle', 'palette', 'lineWeight', 'lighting', 'tileable'],
      };
      return `export default ${JSON.stringify(catalog)};`;
    },
  };
}

/**
 * The studio is served by the reference server at /studio/ (hashed assets under /studio/assets/).
 * `--mode mock` builds the msw mock into the page (dev and the mock browser test); the default
 * build talks to its own origin and contains no mock code.
 */
export default defineConfig(({ mode }) => ({
  base: '/studio/',
  plugins: mode === 'mock' ? [styleCatalog(), drawingsFiles()] : [styleCatalog()],
  // mockServiceWorker.js (public/) only ships in mock builds.
  publicDir: mode === 'mock' ? 'public' : false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    target: 'es2022',
    outDir: mode === 'mock' ? 'dist-mock' : 'dist',
    emptyOutDir: true,
    // No inline modulepreload polyfill: the CSP forbids inline scripts, and every target browser has modulepreload.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2048,
  },
  // The mock runs in the page with no configuration: @assetloom/mock's `browser` build brings the
  // in-memory store without Node's `util`/`events` or `process` (issue #32; before, mock mode needed
  // both polyfills aliased and `process.env.NODE_DEBUG` defined away).
  ...(mode === 'mock'
    ? {
        // Every dependency pre-bundled at start-up, so the dev server never re-optimizes (and
        // reloads the page) when a lazily imported one is first met.
        optimizeDeps: {
          include: [
            'preact',
            'preact/hooks',
            'preact/jsx-runtime',
            'msw/browser',
            '@assetloom/mock',
            '@assetloom/drawings',
            '@assetloom/sdk',
            'fflate',
          ],
        },
      }
    : {}),
  // `vite` (not mock): the API, its WebSocket and the signed files come from a running server.
  server: {
    host: '127.0.0.1',
    ...(mode === 'mock'
      ? {}
      : {
          proxy: Object.fromEntries(
            ['/api', '/auth', '/files'].map((path) => [
              path,
              { target: process.env.ASSETLOOM_API ?? 'http://127.0.0.1:8080', ws: path === '/api' },
            ]),
          ),
        }),
  },
  preview: { host: '127.0.0.1' },
}));
