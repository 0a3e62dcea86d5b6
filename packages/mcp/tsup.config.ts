import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// scripts/build-swap.mjs builds into a temporary directory and swaps it in for dist/ when done.
const outDir = process.env.ASSETLOOM_BUILD_DIR ?? 'dist';
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig([
  {
    // the library: ESM + CJS with their declarations
    entry: ['src/index.ts'],
    outDir,
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { composite: false } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    define: { __ASSETLOOM_MCP_VERSION__: JSON.stringify(version) },
  },
  {
    // the bin (bin/assetloom-mcp.js imports dist/main.js)
    entry: ['src/main.ts'],
    outDir,
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    define: { __ASSETLOOM_MCP_VERSION__: JSON.stringify(version) },
  },
]);
