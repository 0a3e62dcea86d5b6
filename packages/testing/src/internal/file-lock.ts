import { link, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { describeError, TestingError } from '../errors.js';

export interface FileLockOptions {
  /** Give up waiting for another holder after this long (default 15 minutes). */
  timeoutMs?: number;
  /** A lock older than this whose holder cannot be checked is taken over (default 30 minutes). */
  staleMs?: number;
  /** Pause between attempts (default 250 ms). */
  pollMs?: number;
  /** Called once when the lock is held by someone else and we start waiting. */
  onWait?: (holder: string) => void;
}

export interface FileLock {
  readonly path: string;
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  host: string;
  since: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readRaw(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function parseOwner(raw: string | null): LockOwner | null {
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { pid, host, since } = parsed as Record<string, unknown>;
    if (typeof pid !== 'number' || typeof host !== 'string' || typeof since !== 'number') return null;
    return { pid, host, since };
  } catch {
    return null;
  }
}

async function readOwner(path: string): Promise<LockOwner | null> {
  return parseOwner(await readRaw(path));
}

/** Whether the lock at `path` (with content `raw`) may be taken over: its holder died, or it is older than `staleMs`. */
async function isStale(path: string, raw: string | null, staleMs: number): Promise<boolean> {
  const owner = parseOwner(raw);
  if (owner && owner.host === hostname()) return !pidAlive(owner.pid);
  try {
    const info = await stat(path);
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    return false;
  }
}

/**
 * Removes a stale lock without removing a fresh one that another process created meanwhile:
 * the file is moved aside atomically, and put back (without overwriting) if it is not the one
 * that was judged stale.
 */
async function breakStaleLock(path: string, judgedRaw: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${Date.now().toString(36)}`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  if ((await readRaw(aside)) !== judgedRaw) {
    await link(aside, path).catch(() => undefined);
  }
  await rm(aside, { force: true });
}

/**
 * Takes an exclusive lock between processes: a file created with O_EXCL that holds the owner's
 * pid and host. A lock left by a process that died (same host) or older than `staleMs` is taken over.
 */
export async function acquireFileLock(path: string, options: FileLockOptions = {}): Promise<FileLock> {
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const staleMs = options.staleMs ?? 30 * 60_000;
  const pollMs = options.pollMs ?? 250;
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(path), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      const owner: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
      await handle.writeFile(JSON.stringify(owner));
      await handle.close();
      let released = false;
      return {
        path,
        async release() {
          if (released) return;
          released = true;
          const current = await readOwner(path);
          if (current && current.pid === owner.pid && current.since === owner.since) {
            await rm(path, { force: true });
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new TestingError(
          'LOCK_TIMEOUT',
          `cannot create the lock file ${path}: ${describeError(error)}`,
          {
            cause: error,
          },
        );
      }
    }
    const raw = await readRaw(path);
    if (raw !== null && (await isStale(path, raw, staleMs))) {
      await breakStaleLock(path, raw);
      continue;
    }
    if (!announced) {
      announced = true;
      const owner = await readOwner(path);
      options.onWait?.(owner ? `pid ${owner.pid} on ${owner.host}` : 'another process');
    }
    if (Date.now() >= deadline) {
      const owner = await readOwner(path);
      throw new TestingError(
        'LOCK_TIMEOUT',
        `gave up after ${timeoutMs} ms waiting for the lock ${path} (held by ${owner ? `pid ${owner.pid} on ${owner.host}` : 'an unknown process'}). If no such process runs, delete the file and retry.`,
      );
    }
    await sleep(pollMs);
  }
}
