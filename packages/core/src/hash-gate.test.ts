import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssetloomError } from './errors.js';
import { createHashGate } from './hash-gate.js';

/** A hash whose end the test decides. */
function controllable() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const work = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { started, work, finish };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createHashGate (decision 0030)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most `concurrency` hashes; the next one starts when a slot frees', async () => {
    const gate = createHashGate({ concurrency: 2, queueSize: 4 });
    const h = controllable();
    const runs = ['a', 'b', 'c'].map((n) => gate.run(`ip-${n}`, h.work(n)));
    await settle();
    expect(h.started).toEqual(['a', 'b']);
    expect(gate.stats).toMatchObject({ running: 2, waiting: 1 });
    await h.finish('a');
    expect(h.started).toEqual(['a', 'b', 'c']);
    await h.finish('b');
    await h.finish('c');
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
  });

  it('refuses with 503 服务繁忙 + Retry-After, unhashed, when the lane is full', async () => {
    const gate = createHashGate({ concurrency: 1, queueSize: 2 });
    const h = controllable();
    const admitted = ['a', 'b', 'c'].map((n) => gate.run(`ip-${n}`, h.work(n)));
    const refused = gate.run('ip-d', h.work('d'));
    await expect(refused).rejects.toSatisfy(
      (e) =>
        e instanceof AssetloomError &&
        e.code === 503 &&
        e.message === '服务繁忙，请稍后再试' &&
        (e.retryAfter ?? 0) >= 1,
    );
    expect(h.started).not.toContain('d');
    expect(gate.stats.refusedBusy).toBe(1);
    for (const n of ['a', 'b', 'c']) await h.finish(n);
    await Promise.all(admitted);
  });

  it('a client may have `perKey` hashes waiting; one more that would wait gets 429', async () => {
    const gate = createHashGate({ concurrency: 1, queueSize: 10, perKey: 2 });
    const h = controllable();
    const runs = ['a', 'b', 'c'].map((n) => gate.run('same', h.work(n)));
    await expect(gate.run('same', h.work('d'))).rejects.toMatchObject({ code: 429 });
    expect(gate.stats.refusedPerKey).toBe(1);
    for (const n of ['a', 'b', 'c']) await h.finish(n);
    await Promise.all(runs);
  });

  it('suspect clients (a failed login) hold at most concurrency − 1 slots: one stays free for others', async () => {
    const gate = createHashGate({ concurrency: 2, queueSize: 4 });
    const h = controllable();
    gate.failed('flood-1');
    gate.failed('flood-2');
    gate.succeeded('real-user');
    const f1 = gate.run('flood-1', h.work('f1'));
    const f2 = gate.run('flood-2', h.work('f2'));
    await settle();
    // The second suspect hash waits although a slot is free...
    expect(h.started).toEqual(['f1']);
    // ...and a client in good standing takes that slot at once.
    const real = gate.run('real-user', h.work('real'));
    await settle();
    expect(h.started).toEqual(['f1', 'real']);
    await h.finish('real');
    expect(await real).toBe('real');
    await h.finish('f1');
    expect(h.started).toEqual(['f1', 'real', 'f2']);
    await h.finish('f2');
    await Promise.all([f1, f2]);
  });

  it('waiting clean hashes go before waiting suspect ones', async () => {
    const gate = createHashGate({ concurrency: 1, queueSize: 4 });
    const h = controllable();
    gate.failed('s');
    const first = gate.run('c0', h.work('c0'));
    const s = gate.run('s', h.work('s'));
    const c = gate.run('c1', h.work('c1'));
    await settle();
    await h.finish('c0');
    expect(h.started).toEqual(['c0', 'c1']);
    await h.finish('c1');
    expect(h.started).toEqual(['c0', 'c1', 's']);
    await h.finish('s');
    await Promise.all([first, s, c]);
  });

  it('a waiting hash whose client starts failing meanwhile moves behind the clean ones', async () => {
    const gate = createHashGate({ concurrency: 1, queueSize: 4 });
    const h = controllable();
    const first = gate.run('c0', h.work('c0'));
    const early = gate.run('flood', h.work('flood'));
    const real = gate.run('real', h.work('real'));
    gate.failed('flood');
    await h.finish('c0');
    expect(h.started).toEqual(['c0', 'real']);
    await h.finish('real');
    await h.finish('flood');
    await Promise.all([first, early, real]);
  });

  it('a client that logged in successfully goes first, and a slot stays free for it while others fail', async () => {
    const gate = createHashGate({ concurrency: 2, queueSize: 8 });
    const h = controllable();
    gate.succeeded('real-user');
    gate.failed('flood');
    // A flood hash (suspect) runs; clean newcomers may not take the last slot meanwhile.
    const f = gate.run('flood', h.work('f'));
    const c1 = gate.run('new-1', h.work('c1'));
    await settle();
    expect(h.started).toEqual(['f']);
    // The trusted client starts at once in the free slot.
    const real = gate.run('real-user', h.work('real'));
    await settle();
    expect(h.started).toEqual(['f', 'real']);
    await h.finish('real');
    expect(await real).toBe('real');
    // With the suspect hash done, the clean one runs.
    await h.finish('f');
    expect(h.started).toEqual(['f', 'real', 'c1']);
    await h.finish('c1');
    await Promise.all([f, c1]);
  });

  it('without failing clients, clean hashes use every slot; trusted ones still go first', async () => {
    const gate = createHashGate({ concurrency: 2, queueSize: 8 });
    const h = controllable();
    gate.succeeded('real-user');
    const c1 = gate.run('new-1', h.work('c1'));
    const c2 = gate.run('new-2', h.work('c2'));
    const c3 = gate.run('new-3', h.work('c3'));
    const real = gate.run('real-user', h.work('real'));
    await settle();
    expect(h.started).toEqual(['c1', 'c2']);
    await h.finish('c1');
    expect(h.started).toEqual(['c1', 'c2', 'real']);
    for (const n of ['c2', 'real', 'c3']) await h.finish(n);
    await Promise.all([c1, c2, c3, real]);
  });

  it("a success clears a client's suspect mark; a failure clears its trust", async () => {
    const gate = createHashGate({ concurrency: 2, queueSize: 4 });
    const h = controllable();
    gate.failed('office');
    gate.succeeded('office');
    gate.failed('other');
    // 'office' is no longer suspect: it and a suspect run side by side (one suspect slot).
    const a = gate.run('other', h.work('other'));
    const b = gate.run('office', h.work('office'));
    await settle();
    expect(h.started).toEqual(['other', 'office']);
    await h.finish('other');
    await h.finish('office');
    await Promise.all([a, b]);
  });

  it('a hash that waited longer than maxWaitMs is refused with 503', async () => {
    vi.useFakeTimers();
    const gate = createHashGate({ concurrency: 1, queueSize: 4, maxWaitMs: 1000 });
    const h = controllable();
    const first = gate.run('a', h.work('a'));
    const waiting = gate.run('b', h.work('b'));
    const outcome = waiting.then(
      () => 'ran',
      (e: AssetloomError) => e.code,
    );
    await vi.advanceTimersByTimeAsync(1001);
    expect(await outcome).toBe(503);
    expect(h.started).toEqual(['a']);
    vi.useRealTimers();
    await h.finish('a');
    await first;
  });

  it('remembers at most maxSuspects clients (memory stays bounded)', async () => {
    const gate = createHashGate({ concurrency: 1, queueSize: 4, maxSuspects: 2 });
    const h = controllable();
    gate.failed('a');
    gate.failed('b');
    gate.failed('c'); // drops 'a'
    const first = gate.run('x', h.work('x'));
    const b = gate.run('b', h.work('b'));
    const a = gate.run('a', h.work('a'));
    await h.finish('x');
    // 'a' is clean again: it goes before the suspect 'b'.
    expect(h.started).toEqual(['x', 'a']);
    await h.finish('a');
    await h.finish('b');
    await Promise.all([first, a, b]);
  });
});
