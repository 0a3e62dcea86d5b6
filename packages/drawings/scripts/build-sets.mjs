#!/usr/bin/env node
// Writes the drawings' SVG bodies into <build dir>/sets/<set>.bin, one file per set, after tsup has
// built the package (scripts/build-swap.mjs sets ASSETLOOM_BUILD_DIR), and copies resvg's
// WebAssembly module next to the bundle as resvg.wasm.
//
// A set file: "ALDS" (4 bytes), the length of a JSON header (uint32, little-endian), the header
// ({ names: string[], sizes: [width, height][], offsets: number[] }), then each drawing's body
// deflated on its own (fflate), so a reader inflates only the drawings it draws.
// Only the drawings in src/generated/catalog.ts are written.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'fflate';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '..');
const outDir = resolve(pkg, process.env.ASSETLOOM_BUILD_DIR ?? 'dist');
const catalog = readFileSync(join(pkg, 'src/generated/catalog.ts'), 'utf8');
const rows = JSON.parse(/export const DRAWINGS = \(\): string => (".*");/.exec(catalog)[1]).split('\n');
const wanted = new Map(); // prefix → names
const PREFIX = { f: 'fluent-emoji-flat', n: 'noto', g: 'game-icons' };
for (const row of rows) {
  const id = row.slice(0, row.indexOf('|'));
  const [key, name] = id.split('/');
  const prefix = PREFIX[key];
  (wanted.get(prefix) ?? wanted.set(prefix, []).get(prefix)).push(name);
}
mkdirSync(join(outDir, 'sets'), { recursive: true });
let total = 0;
for (const [prefix, names] of wanted) {
  const set = require(`@iconify-json/${prefix}/icons.json`);
  const chunks = [];
  const offsets = [];
  const sizes = [];
  let at = 0;
  for (const name of names) {
    const icon = set.icons[name];
    const z = deflateSync(new TextEncoder().encode(icon.body), { level: 9 });
    offsets.push(at);
    sizes.push([icon.width ?? set.width ?? 16, icon.height ?? set.height ?? 16]);
    chunks.push(z);
    at += z.length;
  }
  offsets.push(at);
  const header = new TextEncoder().encode(JSON.stringify({ names, sizes, offsets }));
  const head = new Uint8Array(8);
  head.set([0x41, 0x4c, 0x44, 0x53]);
  new DataView(head.buffer).setUint32(4, header.length, true);
  const file = Buffer.concat([head, header, ...chunks]);
  writeFileSync(join(outDir, 'sets', `${prefix}.bin`), file);
  total += file.length;
  console.log(
    `[assetloom/drawings] sets/${prefix}.bin: ${names.length} drawings, ${(file.length / 1024).toFixed(0)} KiB`,
  );
}
copyFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm'), join(outDir, 'resvg.wasm'));
console.log(`[assetloom/drawings] ${(total / 1024 / 1024).toFixed(2)} MiB of drawings, resvg.wasm copied`);
