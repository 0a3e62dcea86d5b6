import { afterEach, describe, expect, test, vi } from 'vitest';
import { errorEnvelope, hangingFetch, json, scriptedFetch, sequence } from './testing.js';
import { createTransport, type RetryEvent } from './transport.js';

const url = 'http://api.test/api/v1/projects';
const noDelay = { backoff: () => 0 };

afterEach(() => {
  vi.useRealTimers();
});

describe('retries of idempotent requests', () => {
  test.each([
    ['GET', 'GET'],
    ['PUT', 'PUT'],
    ['DELETE', 'DELETE'],
  ])('%s is retried on 503 and the final answer is returned', async (_name, method) => {
    const fetch = sequence(
      errorEnvelope(500, '服务器内部错误'),
      errorEnvelope(503, 'busy'),
      json(200, { ok: 1 }),
    );
    const response = await createTransport({ fetch, retry: noDelay })(new Request(url, { method }));
    expect(response.status).toBe(200);
    expect(fetch.calls.map((c) => c.method)).toEqual([method, method, method]);
  });

  test('a POST without Idempotency-Key is sent once', async () => {
    const fetch = sequence(errorEnvelope(503, 'busy'), json(200, {}));
    const response = await createTransport({ fetch, retry: noDelay })(
      new Request(url, { method: 'POST', body: '{}' }),
    );
    expect(response.status).toBe(503);
    expect(fetch.calls).toHaveLength(1);
  });

  test('a POST with Idempotency-Key is retried with the same key and body', async () => {
    const fetch = sequence(new TypeError('fetch failed'), errorEnvelope(502, 'bad gateway'), json(200, {}));
    const request = new Request(url, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'Idempotency-Key': 'k-1' },
    });
    const response = await createTransport({ fetch, retry: noDelay })(request);
    expect(response.status).toBe(200);
    expect(fetch.calls.map((c) => c.headers.get('idempotency-key'))).toEqual(['k-1', 'k-1', 'k-1']);
    expect(fetch.calls.map((c) => c.body)).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
  });

  test('statuses that are not transient (400, 401, 404, 409) are not retried', async () => {
    for (const status of [400, 401, 404, 409, 413]) {
      const fetch = sequence(errorEnvelope(status, 'x'), json(200, {}));
      const response = await createTransport({ fetch, retry: noDelay })(new Request(url));
      expect(response.status).toBe(status);
      expect(fetch.calls).toHaveLength(1);
    }
  });

  test('when the retries are spent the last answer comes back (no throw)', async () => {
    const fetch = sequence(errorEnvelope(503, 'busy'));
    const response = await createTransport({ fetch, retry: { ...noDelay, limit: 3 } })(new Request(url));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ code: 503, message: 'busy', data: null });
    expect(fetch.calls).toHaveLength(4);
  });

  test('network errors are retried, then rethrown', async () => {
    const fetch = sequence(new TypeError('fetch failed'));
    await expect(createTransport({ fetch, retry: noDelay })(new Request(url))).rejects.toThrow(
      'fetch failed',
    );
    expect(fetch.calls).toHaveLength(3);
  });

  test('retry: false and an isRetryable veto mean one attempt', async () => {
    const off = sequence(errorEnvelope(503, 'busy'));
    await createTransport({ fetch: off, retry: false })(new Request(url));
    expect(off.calls).toHaveLength(1);
    const vetoed = sequence(errorEnvelope(503, 'busy'));
    await createTransport({ fetch: vetoed, retry: noDelay, isRetryable: () => false })(new Request(url));
    expect(vetoed.calls).toHaveLength(1);
  });

  test('onRetry reports each retry with its reason', async () => {
    const events: RetryEvent[] = [];
    const fetch = sequence(errorEnvelope(503, 'busy'), new TypeError('reset'), json(200, {}));
    await createTransport({ fetch, retry: { ...noDelay, onRetry: (e) => events.push(e) } })(new Request(url));
    expect(events).toEqual([
      { attempt: 1, method: 'GET', url, reason: 'status', status: 503 },
      { attempt: 2, method: 'GET', url, reason: 'network_error' },
    ]);
  });
});

describe('delays', () => {
  test('Retry-After (seconds) on 429 is waited for before the retry', async () => {
    vi.useFakeTimers();
    const fetch = sequence(
      errorEnvelope(429, '请求过于频繁，请稍后再试', { 'retry-after': '2' }),
      json(200, {}),
    );
    const pending = createTransport({ fetch, retry: { backoff: () => 0 } })(new Request(url));
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
    expect(fetch.calls).toHaveLength(2);
  });

  test('Retry-After as an HTTP date on 503 is honoured', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-31T12:00:00.000Z') });
    const fetch = sequence(
      errorEnvelope(503, 'busy', { 'retry-after': 'Sat, 31 Jan 2026 12:00:03 GMT' }),
      json(200, {}),
    );
    const pending = createTransport({ fetch, retry: noDelay })(new Request(url));
    await vi.advanceTimersByTimeAsync(2900);
    expect(fetch.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect((await pending).status).toBe(200);
  });

  test('a Retry-After beyond maxRetryAfterMs is not waited for: the 429 returns at once', async () => {
    const fetch = sequence(errorEnvelope(429, 'slow down', { 'retry-after': '120' }), json(200, {}));
    const response = await createTransport({ fetch, retry: { maxRetryAfterMs: 60_000 } })(new Request(url));
    expect(response.status).toBe(429);
    expect(fetch.calls).toHaveLength(1);
  });

  test('exponential backoff with full jitter stays within base * 2^(n-1)', async () => {
    vi.useFakeTimers();
    const fetch = sequence(errorEnvelope(503, 'busy'), errorEnvelope(503, 'busy'), json(200, {}));
    const pending = createTransport({ fetch, retry: { baseDelayMs: 1000, maxDelayMs: 10_000 } })(
      new Request(url),
    );
    // First retry waits at most 1000 ms, the second at most 2000 ms.
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch.calls.length).toBeGreaterThanOrEqual(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect((await pending).status).toBe(200);
    expect(fetch.calls).toHaveLength(3);
  });

  test('the injected backoff decides each delay', async () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const fetch = sequence(errorEnvelope(503, 'busy'), errorEnvelope(503, 'busy'), json(200, {}));
    const backoff = (attempt: number) => {
      seen.push(attempt);
      return attempt * 100;
    };
    const pending = createTransport({ fetch, retry: { backoff } })(new Request(url));
    await vi.advanceTimersByTimeAsync(99);
    expect(fetch.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    expect((await pending).status).toBe(200);
    expect(seen).toEqual([1, 2]);
  });
});

describe('timeouts and aborts', () => {
  test('each attempt times out after timeoutMs; timeouts are retried then reported', async () => {
    vi.useFakeTimers();
    const fetch = hangingFetch();
    const pending = createTransport({ fetch, timeoutMs: 50, retry: { ...noDelay, limit: 1 } })(
      new Request(url),
    );
    const settled = expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(51);
    expect(fetch.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(51);
    await settled;
  });

  test("the caller's signal stops the request and the backoff wait", async () => {
    const controller = new AbortController();
    const fetch = scriptedFetch(() => {
      controller.abort(new Error('user gave up'));
      return errorEnvelope(503, 'busy');
    });
    const request = new Request(url, { signal: controller.signal });
    await expect(createTransport({ fetch, retry: { backoff: () => 60_000 } })(request)).rejects.toThrow(
      'user gave up',
    );
    expect(fetch.calls).toHaveLength(1);
  });
});
