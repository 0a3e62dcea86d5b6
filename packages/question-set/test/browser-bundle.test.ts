/**
 * The library entry must run in browsers and compile nothing at run time: bundle it for the browser
 * platform with esbuild (which fails on Node built-ins) and look at what ends up inside.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('library entry (src/index.ts)', () => {
  it('bundles for browsers without Node built-ins, ajv core or code generation', async () => {
    const result = await build({
      entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => i.startsWith('node:'))).toEqual([]);
    expect(inputs.filter((i) => /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?ajv\//.test(i))).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/new Function\(|\beval\(/);
    expect(inputs.some((i) => i.includes('ajv-formats/dist/formats.js'))).toBe(true);
  });

  it('keeps the CLI, which uses the file system, out of the library entry', async () => {
    const result = await build({
      entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(Object.keys(result.metafile.inputs).some((i) => i.includes('cli'))).toBe(false);
  });
});
