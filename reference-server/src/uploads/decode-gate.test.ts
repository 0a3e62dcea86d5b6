import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDecodeGate } from './decode-gate.js';

/** A decode that ends when told to. */
function held() {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { decode: () => done, release };
}

describe('the decode gate (issue #37, decision 0043)', () => {
  it('runs at most `concurrency` decodes, their pixels within `maxPixels`, first come first served', async () => {
    const gate = createDecodeGate({ concurrency: 2, maxPixels: 100 });
    const [a, b, c, d] = [held(), held(), held(), held()];
    const started: string[] = [];
    const run = (name: string, pixels: number, h: ReturnType<typeof held>) =>
      gate.run(pixels, () => {
        started.push(name);
        return h.decode();
      });
    const all = [run('a', 60, a), run('b', 60, b), run('c', 10, c), run('d', 500, d)];
    await Promise.resolve();
    // b does not fit beside a (120 > 100 pixels); c waits behind b (no overtaking)
    expect(started).toEqual(['a']);
    expect(gate.stats()).toEqual({ running: 1, pixels: 60, waiting: 3 });
    a.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['a', 'b', 'c']);
    b.release();
    c.release();
    await new Promise((r) => setTimeout(r, 0));
    // a picture larger than the bound runs alone
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(gate.stats()).toEqual({ running: 1, pixels: 100, waiting: 0 });
    d.release();
    await Promise.all(all);
  });

  it('answers 503 服务繁忙 to a decode that waited past maxWaitMs', async () => {
    const gate = createDecodeGate({ concurrency: 1, maxPixels: 100, maxWaitMs: 20 });
    const first = held();
    const running = gate.run(1, first.decode);
    await expect(gate.run(1, async () => 'never')).rejects.toMatchObject({ code: 503, retryAfter: 5 });
    first.release();
    await running;
    expect(await gate.run(1, async () => 'next')).toBe('next');
  });

  it('keeps threads of libuv and a core for logins and I/O: the concurrency is capped by UV_THREADPOOL_SIZE and the cores', () => {
    const base = { NODE_ENV: 'test', JWT_SECRET: 's'.repeat(32), PASSWORD_HASH_CONCURRENCY: '2' };
    const small = loadConfig({ ...base, UV_THREADPOOL_SIZE: '4', UPLOAD_DECODE_CONCURRENCY: '2' });
    expect(small.ok && small.value.uploads.decodeConcurrency).toBe(1);
    expect(
      small.ok && small.warnings.some((w) => w.includes('UPLOAD_DECODE_CONCURRENCY=2 lowered to 1')),
    ).toBe(true);
    const bin = loadConfig({ ...base, UV_THREADPOOL_SIZE: '8' });
    // and by the cores: one is left to logins and the event loop
    expect(bin.ok && bin.value.uploads.decodeConcurrency).toBe(
      Math.max(1, Math.min(2, availableParallelism() - 1)),
    );
  });
});
