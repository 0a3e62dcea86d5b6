import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsStorage } from '../../src/storage/index.js';
import { tempDir } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..', '..');

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('crash');
});
afterEach(async () => {
  await dir.remove();
});

describe('filesystem driver under kill -9', () => {
  it('a writer killed mid-put leaves every object whole (old or new), never torn', async () => {
    const root = join(dir.path, 'objects');
    for (let attempt = 0; attempt < 3; attempt++) {
      // node itself with tsx as a loader (the tsx CLI would put a second process between us and the writer).
      const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures', 'writer.ts'), root], {
        cwd: packageRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, signal) => resolve(signal)),
      );
      for await (const line of createInterface({ input: child.stdout })) {
        if (line === 'writing') break;
      }
      // Let it run into the middle of further writes, then kill it without warning.
      await new Promise((resolve) => setTimeout(resolve, 50 + attempt * 70));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      const storage = createFsStorage({ root, secret: 'crash-test-secret-0123456789-abcdefghij' });
      for (const [i, type] of [
        [0, 'image/png'],
        [1, 'image/png'],
        [2, 'application/x-crash-test'],
      ] as const) {
        const got = await storage.get(`projects/p1/tasks/t${i}/sheet${i === 2 ? '.bin' : '.png'}`);
        expect(got, `object ${i}`).not.toBeNull();
        expect(got?.bytes.length).toBe(512 * 1024);
        const first = got?.bytes[0];
        expect(
          got?.bytes.every((b) => b === first),
          `object ${i} is torn`,
        ).toBe(true);
        expect(got?.contentType).toBe(type);
      }
      // Only temporary files can be left behind, and only in .tmp.
      const leftovers = (await readdir(join(root, '.tmp'))).filter((name) => !name.endsWith('.part'));
      expect(leftovers).toEqual([]);
    }
  }, 60_000);
});
