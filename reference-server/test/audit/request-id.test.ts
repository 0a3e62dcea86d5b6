import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdFrom } from '../../src/internal/request-id.js';
import { client, startTestServer, type TestServer } from '../helpers.js';

/**
 * Audit finding 10: X-Request-Id was echoed verbatim whatever it held (quotes, angle brackets,
 * semicolons, 128 characters). Only a safe charset and length are echoed now; anything else gets
 * a fresh id, on the asset API and on the review helper.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it.each([
    ['a UUID', '0b7c6f2e-7f2a-4d3e-9a51-3c1e0f2d4b6a'],
    ['a trace id with dots, colons and underscores', 'trace_123.abc:7'],
    ['64 characters', 'a'.repeat(64)],
  ])('echoes %s', (_case, id) => {
    expect(requestIdFrom(id)).toBe(id);
  });

  it.each([
    ['HTML', '<script>alert(1)</script>'],
    ['quotes', '"abc"'],
    ['a semicolon and a space', 'abc; def'],
    ['a log-injection attempt', 'abc\\n{"level":60}'],
    ['65 characters', 'a'.repeat(65)],
    ['128 visible characters', 'x'.repeat(128)],
    ['non-ASCII', 'trace-é'],
    ['a leading dash', '-abc'],
    ['a slash', 'a/b'],
    ['empty', ''],
  ])('replaces %s with a fresh UUID', (_case, id) => {
    expect(requestIdFrom(id)).toMatch(UUID);
  });

  it('replaces a repeated header with a fresh UUID', () => {
    expect(requestIdFrom(['abc', 'def'])).toMatch(UUID);
  });

  describe('over HTTP', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ kind: 'embedded' });
    });
    afterAll(async () => {
      await server?.destroy();
    });

    it('the asset API and the review helper echo only a safe id', async () => {
      const api = client(server.url);
      const bad = '<script>alert(1)</script>';
      const asset = await api.get('/api/v1/health', { headers: { 'x-request-id': bad } });
      expect(asset.headers.get('x-request-id')).toMatch(UUID);
      const good = await api.get('/api/v1/health', { headers: { 'x-request-id': 'req-42' } });
      expect(good.headers.get('x-request-id')).toBe('req-42');
      const review = await fetch(`${server.url}/login`, { headers: { 'x-request-id': bad } });
      expect(review.headers.get('x-request-id')).toMatch(UUID);
      const reviewGood = await fetch(`${server.url}/login`, { headers: { 'x-request-id': 'req-43' } });
      expect(reviewGood.headers.get('x-request-id')).toBe('req-43');
    });
  });
});
