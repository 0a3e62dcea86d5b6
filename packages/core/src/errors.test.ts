import { describe, expect, it } from 'vitest';
import { AssetloomError, errors, fail, MESSAGES, ok, toAssetloomError } from './errors.js';
import { DuplicateKeyError } from './store.js';

describe('envelope', () => {
  it('wraps data as {code:0, message:ok, data}', () => {
    expect(ok({ id: 1 })).toEqual({ code: 0, message: 'ok', data: { id: 1 } });
    expect(ok(null)).toEqual({ code: 0, message: 'ok', data: null });
  });

  it.each([
    ['badRequest', errors.badRequest({ detail: 'never sent' }), 400, MESSAGES.badRequest, 'invalid_request'],
    ['projectForbidden', errors.projectForbidden(), 403, MESSAGES.projectForbidden, 'project_forbidden'],
    ['taskNotFound', errors.taskNotFound(), 404, MESSAGES.taskNotFound, 'task_not_found'],
    ['methodNotAllowed', errors.methodNotAllowed(), 405, MESSAGES.methodNotAllowed, 'method_not_allowed'],
    ['usernameTaken', errors.usernameTaken(), 409, MESSAGES.usernameTaken, 'username_taken'],
    ['payloadTooLarge', errors.payloadTooLarge(), 413, MESSAGES.payloadTooLarge, 'payload_too_large'],
    [
      'unsupportedMediaType',
      errors.unsupportedMediaType(),
      415,
      MESSAGES.unsupportedMediaType,
      'unsupported_media_type',
    ],
    ['tooManyRequests', errors.tooManyRequests(7), 429, MESSAGES.tooManyRequests, 'too_many_requests'],
    ['internal', errors.internal(new Error('secret')), 500, MESSAGES.internal, 'internal'],
  ])(
    'fail(%s) answers its code, its message and its stable reason, never details',
    (_n, err, code, message, reason) => {
      expect(fail(err)).toEqual({ code, message, data: { reason } });
      expect(JSON.stringify(fail(err))).not.toMatch(/never sent|secret/);
    },
  );

  it('names the limit a refusal met in data.limit (decision 0052), never its details', () => {
    expect(fail(errors.taskTooLarge({ pixels: 5_000_000, limit: 4_194_304 }))).toEqual({
      code: 413,
      message: MESSAGES.taskTooLarge,
      data: { reason: 'task_too_large', limit: { max: 4_194_304, unit: 'pixels', actual: 5_000_000 } },
    });
    expect(fail(errors.payloadTooLarge(1_048_576)).data).toEqual({
      reason: 'payload_too_large',
      limit: { max: 1_048_576, unit: 'bytes' },
    });
    expect(fail(errors.webhookLimit(10), 'en')).toEqual({
      code: 409,
      message: 'The project has as many webhooks as allowed',
      data: { reason: 'webhook_limit', limit: { max: 10, unit: 'count' } },
    });
    expect(JSON.stringify(fail(errors.projectLimit({ projects: 3, limit: 3 })))).not.toMatch(/projects/);
  });

  it('answers the 401 未登录或 Token 已过期 with data null, as spec 000 fixes it', () => {
    expect(fail(errors.unauthenticated())).toEqual({
      code: 401,
      message: MESSAGES.unauthenticated,
      data: null,
    });
    expect(fail(errors.unauthenticated(), 'en')).toEqual({
      code: 401,
      message: 'Not logged in, or the token has expired',
      data: null,
    });
  });

  it('says the message in English when asked, keeping code and reason', () => {
    expect(fail(errors.projectNotFound(), 'en')).toEqual({
      code: 404,
      message: 'Project not found',
      data: { reason: 'project_not_found' },
    });
    expect(fail(errors.emptyPrompt(), 'en')).toEqual({
      code: 400,
      message: 'prompt must not be empty',
      data: {
        reason: 'empty_prompt',
        errors: [{ in: 'body', path: '/prompt', rule: 'notBlank', message: 'must not be empty' }],
      },
    });
  });

  it('lists the refused fields of a 400 in the language asked for, at most 20', () => {
    const fields = Array.from({ length: 25 }, (_, i) => ({
      in: 'body' as const,
      path: `/f${i}`,
      rule: 'maximum',
      limit: 9,
    }));
    const zh = fail(errors.invalid(fields));
    expect(zh.message).toBe('参数错误');
    expect(zh.data?.errors).toHaveLength(20);
    expect(zh.data?.errors?.[0]).toEqual({
      in: 'body',
      path: '/f0',
      rule: 'maximum',
      message: '不能大于 9',
      limit: 9,
    });
    expect(fail(errors.invalid(fields), 'en').data?.errors?.[0]?.message).toBe('must be at most 9');
  });

  it('turns anything else into 500 服务器内部错误', () => {
    for (const thrown of [
      new Error('db password in message'),
      'text',
      null,
      undefined,
      { code: 400, message: 'fake' },
    ]) {
      expect(fail(thrown)).toEqual({ code: 500, message: MESSAGES.internal, data: { reason: 'internal' } });
      expect(toAssetloomError(thrown).code).toBe(500);
    }
  });

  it('keeps retryAfter a whole number of seconds ≥ 1', () => {
    expect(errors.tooManyRequests(0.2).retryAfter).toBe(1);
    expect(errors.tooManyRequests(12.1).retryAfter).toBe(13);
  });

  it('recognises errors from another copy of the package by their registered brand', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('assetloom.core.AssetloomError')]: true,
      code: 403,
    });
    expect(foreign instanceof AssetloomError).toBe(true);
    const foreignDup = Object.assign(new Error('x'), {
      [Symbol.for('assetloom.core.DuplicateKeyError')]: true,
      field: 'username',
    });
    expect(foreignDup instanceof DuplicateKeyError).toBe(true);
    expect(new Error('plain') instanceof AssetloomError).toBe(false);
    expect(new DuplicateKeyError('email') instanceof DuplicateKeyError).toBe(true);
    expect(errors.badRequest() instanceof Error).toBe(true);
  });
});
