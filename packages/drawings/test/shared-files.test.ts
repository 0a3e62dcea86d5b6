// Issue #38 (decision 0072): a process's threads read the drawings' set files and fonts as one
// SharedArrayBuffer each — read once by the thread that asks (the server's main thread), handed to the
// others through `configureDrawings({ readFile })`. This file has its own module instance, so its
// configuration touches no other test.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configureDrawings, DrawingsError, loadFont, sharedDrawingsFile } from '../src/index.js';

const distFile = (name: string) => readFileSync(new URL(`../dist/${name}`, import.meta.url));

describe('sharedDrawingsFile', () => {
  it('reads a file once into one SharedArrayBuffer, the same bytes for every caller', async () => {
    const [a, b] = await Promise.all([
      sharedDrawingsFile('sets/noto.bin'),
      sharedDrawingsFile('sets/noto.bin'),
    ]);
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b).toBe(a);
    expect(await sharedDrawingsFile('sets/noto.bin')).toBe(a);
    expect(Buffer.from(a).equals(distFile('sets/noto.bin'))).toBe(true);
  });

  it('refuses a name that is not a file of the package', async () => {
    for (const name of ['../package.json', 'sets/nope.bin', '/etc/passwd']) {
      const error = await sharedDrawingsFile(name).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DrawingsError);
      expect((error as Error).message).toContain('ask for sets/<set>.bin, fonts/<font>.bin or resvg.wasm');
    }
  });

  it('is what a thread configured with readFile draws from, kept as given', async () => {
    const asked: string[] = [];
    configureDrawings({
      readFile: (name) => {
        asked.push(name);
        return sharedDrawingsFile(name);
      },
    });
    const font = await loadFont('assetloom-8');
    expect(asked).toEqual(['fonts/assetloom-8.bin']);
    expect(font.measure('START')).toBeGreaterThan(0);
    expect(font.covers('START')).toBe(true);
  });
});
