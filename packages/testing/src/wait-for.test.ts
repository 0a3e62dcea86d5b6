import { describe, expect, it } from 'vitest';
import { TestingError } from './errors.js';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('resolves with the first truthy value', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : null), { intervalMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('awaits async predicates and treats throws as "not yet"', async () => {
    let calls = 0;
    const value = await waitFor(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('not ready');
        return 'ready';
      },
      { intervalMs: 1 },
    );
    expect(value).toBe('ready');
    expect(calls).toBe(3);
  });

  it('times out with a TIMEOUT error that quotes the last failure and keeps it as cause', async () => {
    const last = new Error('connection refused');
    const error = await waitFor(
      () => {
        throw last;
      },
      { timeoutMs: 30, intervalMs: 5, description: 'server up' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestingError);
    expect(error).toMatchObject({ code: 'TIMEOUT', cause: last });
    expect((error as Error).message).toMatch(
      /^\[assetloom\/testing\] waitFor: server up not met within 30 ms/,
    );
    expect((error as Error).message).toContain('connection refused');
  });

  it('tries at least once even with timeoutMs 0', async () => {
    await expect(waitFor(() => 1, { timeoutMs: 0 })).resolves.toBe(1);
    await expect(waitFor(() => 0, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it.each([
    ['negative timeout', { timeoutMs: -1 }],
    ['NaN timeout', { timeoutMs: Number.NaN }],
    ['infinite interval', { intervalMs: Number.POSITIVE_INFINITY }],
  ])('rejects bad options: %s', async (_name, options) => {
    await expect(waitFor(() => true, options)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 10);
    await expect(
      waitFor(() => false, { timeoutMs: 5_000, intervalMs: 2, signal: controller.signal }),
    ).rejects.toThrow('cancelled');
  });
});
