// After `vite build` (issue #41), with no bundler setting about the drawings: webpack 5 bundles
// @assetloom/drawings and must emit its 6 files; esbuild bundles the page (src/main.js, the SDK and
// the mock generating "a treasure chest") into dist/esbuild/, which preview.mjs serves.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import webpack from 'webpack';
import { check } from './project-helpers.mjs';

const html = (script) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Assetloom</title></head><body><p id="status">starting</p><img id="sprite" alt="generated sprite" />${script}</body></html>\n`;

// webpack 5: new URL('./sets/noto.bin', import.meta.url) is an asset module, emitted with its URL.
// The drawings' entry alone (a page of the whole mock costs ~12 s of webpack under CI's load).
writeFileSync('drawings-entry.js', "export { loadFont, renderDrawing } from '@assetloom/drawings';\n");
const stats = await new Promise((resolve, reject) => {
  webpack({
    mode: 'development',
    devtool: false,
    target: 'web',
    context: process.cwd(),
    entry: './drawings-entry.js',
    output: { path: `${process.cwd()}/dist/webpack`, filename: 'drawings.js', publicPath: 'auto' },
    infrastructureLogging: { level: 'error' },
  }).run((error, result) => (error ? reject(error) : resolve(result)));
});
const info = stats.toJson({ all: false, assets: true, cachedAssets: true, errors: true });
check(
  !stats.hasErrors(),
  `webpack built the drawings: ${JSON.stringify(info.errors?.map((e) => e.message))}`,
);
const files = info.assets.map((a) => a.name).filter((name) => /\.(bin|wasm)$/.test(name));
// 3 drawing sets, 2 fonts, resvg.wasm — and the bundle points at them, not at ./sets/… beside it
check(files.length === 6, `webpack emitted the drawings' 6 files, got ${files.join(', ')}`);
const bundle = readFileSync('dist/webpack/drawings.js', 'utf8');
check(
  !bundle.includes("new URL('./sets/") && !bundle.includes('new URL("./sets/'),
  'webpack rewrote the URLs',
);
console.log(
  `webpack ${webpack.version}: the drawings' ${files.length} files emitted and their URLs rewritten`,
);

// esbuild keeps new URL('./…', import.meta.url) as it is: the files belong beside its output
await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  outdir: 'dist/esbuild',
  logLevel: 'error',
});
writeFileSync('dist/esbuild/index.html', html('<script type="module" src="main.js"></script>'));
console.log('esbuild: built');
