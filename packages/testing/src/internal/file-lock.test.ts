import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock } from './file-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assetloom-lock-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('acquireFileLock', () => {
  it('records the holder and removes the file on release', async () => {
    const path = join(dir, 'a.lock');
    const lock = await acquireFileLock(path);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await lock.release();
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    await lock.release();
  });

  it('lets only one holder into the critical section at a time', async () => {
    const path = join(dir, 'b.lock');
    let inside = 0;
    let maxInside = 0;
    const waits: string[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const lock = await acquireFileLock(path, { pollMs: 2, onWait: (holder) => waits.push(holder) });
        inside += 1;
        maxInside = Math.max(maxInside, inside);
        await sleep(5);
        inside -= 1;
        await lock.release();
      }),
    );
    expect(maxInside).toBe(1);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toContain(`pid ${process.pid}`);
  });

  it('takes over a lock whose holder process has died', async () => {
    const path = join(dir, 'c.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(dead.stdout);
    await writeFile(path, JSON.stringify({ pid: deadPid, host: hostname(), since: Date.now() }));
    const lock = await acquireFileLock(path, { timeoutMs: 2_000, pollMs: 5 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('takes over an unreadable lock file once it is older than staleMs', async () => {
    const path = join(dir, 'd.lock');
    await writeFile(path, 'garbage{');
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    const lock = await acquireFileLock(path, { staleMs: 1_000, timeoutMs: 2_000, pollMs: 5 });
    await lock.release();
  });

  it('gives up with LOCK_TIMEOUT while a live process holds the lock', async () => {
    const path = join(dir, 'e.lock');
    const held = await acquireFileLock(path);
    await expect(acquireFileLock(path, { timeoutMs: 50, pollMs: 5 })).rejects.toMatchObject({
      code: 'LOCK_TIMEOUT',
      message: expect.stringContaining(`held by pid ${process.pid}`),
    });
    await held.release();
  });

  it('a released holder does not delete a lock someone else took over', async () => {
    const path = join(dir, 'f.lock');
    const first = await acquireFileLock(path);
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), since: 1 }));
    await first.release();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ since: 1 });
  });
});
