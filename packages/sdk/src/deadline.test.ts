import { afterEach, describe, expect, test, vi } from 'vitest';
import { type AssetloomWarning, createAssetClient } from './asset-client.js';
import { envelope, errorEnvelope, hangingFetch, sequence } from './internal/testing.js';
import type { RetryWaitEvent } from './internal/transport.js';

const baseUrl = 'http://api.test';
const submit = { projectId: 'p1', prompt: 'a knight', assetType: 'sprite' } as const;

afterEach(() => {
  vi.useRealTimers();
});

describe('a total deadline across retries', () => {
  test('a 429 whose Retry-After ends past the deadline comes back at once, with retryAfter', async () => {
    const fetch = sequence(
      errorEnvelope(429, '请求过于频繁', { 'retry-after': '30' }),
      envelope({ taskId: 't1' }),
    );
    const api = createAssetClient({ baseUrl, fetch });
    const started = Date.now();
    const { error } = await api.generate(submit, { deadline: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toMatchObject({ code: 429, retryAfter: 30 });
    expect(fetch.calls).toHaveLength(1);
  });

  test('within the deadline the Retry-After is waited for, announced through onWait first', async () => {
    vi.useFakeTimers();
    const fetch = sequence(
      errorEnvelope(429, '请求过于频繁', { 'retry-after': '2' }),
      envelope({ taskId: 't1' }),
    );
    const waits: RetryWaitEvent[] = [];
    const callsWhenAnnounced: number[] = [];
    const api = createAssetClient({
      baseUrl,
      fetch,
      deadline: 60_000,
      retry: {
        onWait: (event) => {
          waits.push(event);
          callsWhenAnnounced.push(fetch.calls.length);
        },
      },
    });
    const pending = api.generate(submit);
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    const { data } = await pending;
    expect(data?.taskId).toBe('t1');
    expect(waits).toEqual([
      {
        attempt: 1,
        method: 'POST',
        url: 'http://api.test/api/v1/generate',
        reason: 'status',
        status: 429,
        delayMs: 2000,
        retryAfter: 2,
      },
    ]);
    expect(callsWhenAnnounced).toEqual([1]); // before the wait, not after it
  });

  test('an attempt still under way at the deadline is stopped: code timeout naming the deadline', async () => {
    vi.useFakeTimers();
    const fetch = hangingFetch();
    const api = createAssetClient({ baseUrl, fetch, timeoutMs: false });
    const pending = api.GET('/api/v1/projects', { deadline: 250 });
    await vi.advanceTimersByTimeAsync(251);
    const { error } = await pending;
    expect(error?.code).toBe('timeout');
    expect(error?.message).toMatch(/deadline of 250 ms/);
  });

  test('attempts with their own timeouts and backoffs share one deadline', async () => {
    vi.useFakeTimers();
    const fetch = hangingFetch();
    const api = createAssetClient({
      baseUrl,
      fetch,
      timeoutMs: 100,
      retry: { limit: 10, backoff: () => 50 },
    });
    const pending = api.GET('/api/v1/projects', { deadline: 400 });
    await vi.advanceTimersByTimeAsync(1000);
    const { error } = await pending;
    expect(error?.code).toBe('timeout');
    // 100 ms attempts with 50 ms waits: 3 attempts fit in 400 ms, never the 11 the retry limit allows.
    expect(fetch.calls.length).toBeLessThanOrEqual(3);
  });

  test('bad deadlines are refused', async () => {
    expect(() => createAssetClient({ baseUrl, deadline: 0 })).toThrow(/deadline must be a positive/);
    const api = createAssetClient({ baseUrl, fetch: sequence(envelope(null)) });
    await expect(api.GET('/api/v1/projects', { deadline: -1 })).rejects.toThrow(RangeError);
  });
});

describe('a long wait nobody watches is a warning', () => {
  test('without onWait, a 429 wait of 5 s or more is reported once through onWarning', async () => {
    vi.useFakeTimers();
    const fetch = sequence(
      errorEnvelope(429, '请求过于频繁', { 'retry-after': '6' }),
      errorEnvelope(429, '请求过于频繁', { 'retry-after': '6' }),
      envelope({ taskId: 't1' }),
    );
    const warnings: AssetloomWarning[] = [];
    const api = createAssetClient({ baseUrl, fetch, onWarning: (w) => warnings.push(w) });
    const pending = api.generate(submit);
    await vi.advanceTimersByTimeAsync(12_001);
    expect((await pending).data?.taskId).toBe('t1');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe('long_wait');
    expect(warnings[0]?.message).toMatch(
      /POST http:\/\/api\.test\/api\/v1\/generate answered HTTP 429: waiting 6 s to retry/,
    );
  });

  test('short backoffs say nothing', async () => {
    const warnings: AssetloomWarning[] = [];
    const fetch = sequence(errorEnvelope(503, 'busy'), envelope(null));
    const api = createAssetClient({
      baseUrl,
      fetch,
      retry: { backoff: () => 0 },
      onWarning: (w) => warnings.push(w),
    });
    await api.GET('/api/v1/projects');
    expect(warnings).toEqual([]);
  });
});
