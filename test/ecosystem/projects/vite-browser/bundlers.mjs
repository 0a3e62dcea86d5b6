// After `vite build`: the same page (src/main.js, the SDK and the mock generating "a treasure
// chest") bundled by webpack 5 into dist/webpack/ and by esbuild into dist/esbuild/, which
// preview.mjs serves beside the Vite build (issue #41). No bundler setting about the drawings.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import webpack from 'webpack';
import { check } from './project-helpers.mjs';

const html = (script) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Assetloom</title></head><body><p id="status">starting</p><img id="sprite" alt="generated sprite" />${script}</body></html>\n`;

// webpack 5: new URL('./sets/noto.bin', import.meta.url) is an asset module, emitted with its URL
const stats = await new Promise((resolve, reject) => {
  webpack({
    mode: 'development',
    devtool: false,
    target: 'web',
    context: process.cwd(),
    entry: './src/main.js',
    output: { path: `${process.cwd()}/dist/webpack`, filename: 'main.js', publicPath: 'auto' },
    infrastructureLogging: { level: 'error' },
  }).run((error, result) => (error ? reject(error) : resolve(result)));
});
const info = stats.toJson({ all: false, assets: true, cachedAssets: true, errors: true });
check(!stats.hasErrors(), `webpack built the page: ${JSON.stringify(info.errors?.map((e) => e.message))}`);
const emitted = info.assets.map((a) => a.name);
const files = emitted.filter((name) => /\.(bin|wasm)$/.test(name));
// 3 drawing sets, 2 fonts, resvg.wasm
check(files.length === 6, `webpack emitted the drawings' 6 files, got ${files.join(', ')}`);
writeFileSync('dist/webpack/index.html', html('<script src="main.js"></script>'));
console.log(`webpack ${webpack.version}: built, ${files.length} drawing files emitted`);

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
