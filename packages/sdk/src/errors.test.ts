import { describe, expect, test } from 'vitest';
import { createAssetClient } from './asset-client.js';
import { AssetloomApiError, describeLimit } from './errors.js';
import { json, sequence } from './internal/testing.js';

const baseUrl = 'http://api.test';

const refused = () =>
  json(400, {
    code: 400,
    message: '参数错误',
    data: {
      errors: [
        { path: '/password', rule: 'minLength', message: '密码长度为 6-64 个字符' },
        { path: '/username', rule: 'minLength', message: '用户名长度为 3-32 个字符' },
        { path: 7, message: 'no rule, a number path' },
        'not an item',
      ],
    },
  });

describe('field-level errors (data.errors of a 400)', () => {
  test('are listed on the error as {path, rule, message}; the envelope message stays as it is', async () => {
    const api = createAssetClient({ baseUrl, fetch: sequence(refused()), retry: false });
    const { error } = await api.POST('/auth/register', { body: { username: 'ab', password: '1' } });
    expect(error?.code).toBe(400);
    expect(error?.message).toBe('参数错误');
    expect(error?.errors).toEqual([
      { path: '/password', rule: 'minLength', message: '密码长度为 6-64 个字符' },
      { path: '/username', rule: 'minLength', message: '用户名长度为 3-32 个字符' },
      { path: '', rule: '', message: 'no rule, a number path' },
    ]);
    expect(error?.data).toMatchObject({ errors: expect.any(Array) });
  });

  test('an answer without them (data: null) gives an empty list', async () => {
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(json(400, { code: 400, message: '参数错误', data: null })),
      retry: false,
    });
    const { error } = await api.POST('/api/v1/projects', { body: { name: '' } });
    expect(error?.errors).toEqual([]);
    expect(error?.data).toBeNull();
  });
});

describe('the error names its request', () => {
  test('method, URL (path parameters filled), status and request id in toString() and the stack', async () => {
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(json(404, { code: 404, message: '任务不存在', data: null }, { 'x-request-id': 'r-1' })),
      retry: false,
    });
    const { error } = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: 'a b' } } });
    expect(error?.method).toBe('GET');
    expect(error?.url).toBe('http://api.test/api/v1/tasks/a%20b');
    const text = String(error);
    expect(text).toBe(
      'AssetloomApiError: 任务不存在 (404, GET http://api.test/api/v1/tasks/a%20b, request r-1)',
    );
    // Node prints the stack of an uncaught error: its first line is the same text.
    expect(error?.stack?.split('\n')[0]).toBe(text);
    expect(error?.stack?.split('\n').length).toBeGreaterThan(1);
  });

  test('the refused fields follow in the text', async () => {
    const api = createAssetClient({ baseUrl, fetch: sequence(refused()), retry: false });
    const { error } = await api.POST('/auth/register', { body: { username: 'ab', password: '1' } });
    expect(String(error)).toMatch(
      /^AssetloomApiError: 参数错误 \(400, POST http:\/\/api\.test\/auth\/register, request [0-9a-f-]{36}\) — \/password: 密码长度为 6-64 个字符; \/username: /,
    );
  });

  test('client-side failures name it too', async () => {
    const api = createAssetClient({ baseUrl, fetch: sequence(new TypeError('fetch failed')), retry: false });
    const { error } = await api.DELETE('/api/v1/projects/{projectId}', {
      params: { path: { projectId: 'p1' } },
    });
    expect(error).toBeInstanceOf(AssetloomApiError);
    expect(error).toMatchObject({
      code: 'network_error',
      method: 'DELETE',
      url: 'http://api.test/api/v1/projects/p1',
    });
  });
});

describe('the limit a refusal met (data.limit of a 409, 413 or 429)', () => {
  test('is read into error.limit and named in toString(); describeLimit says it in English or Chinese', async () => {
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(
        json(413, {
          code: 413,
          message: '图片尺寸过大',
          data: { reason: 'image_dimensions', limit: { max: 4096, unit: 'side', actual: 5000 } },
        }),
      ),
      retry: false,
    });
    const { error } = await api.POST('/api/v1/projects', { body: { name: 'Big' } });
    expect(error?.limit).toEqual({ max: 4096, unit: 'side', actual: 5000 });
    expect(String(error)).toContain('at most 4,096 px per side; this one: 5,000 px');
    expect(describeLimit({ max: 2 * 1024 * 1024, unit: 'bytes' })).toBe('at most 2 MiB');
    expect(describeLimit({ max: 16_777_216, unit: 'pixels', actual: 25_000_000 }, 'zh')).toBe(
      '上限：16.78 百万像素；本次：25 百万像素',
    );
    expect(describeLimit({ max: 3, unit: 'count' })).toBe('at most 3');
  });

  test('a malformed limit is ignored, never thrown', async () => {
    for (const limit of [{ max: 'big', unit: 'bytes' }, { max: 1, unit: 'furlongs' }, 7, null]) {
      const api = createAssetClient({
        baseUrl,
        fetch: sequence(
          json(413, { code: 413, message: '图片过大', data: { reason: 'image_too_large', limit } }),
        ),
        retry: false,
      });
      const { error } = await api.POST('/api/v1/projects', { body: { name: 'Big' } });
      expect(error?.code).toBe(413);
      expect(error?.limit).toBeUndefined();
    }
  });
});
