import { describe, expect, it } from 'vitest';
import { AssetloomError, errors, fail, MESSAGES, ok, toAssetloomError } from './errors.js';
import { DuplicateKeyError } from './store.js';

describe('envelope', () => {
  it('wraps data as {code:0, message:ok, data}', () => {
    expect(ok({ id: 1 })).toEqual({ code: 0, message: 'ok', data: { id: 1 } });
    expect(ok(null)).toEqual({ code: 0, message: 'ok', data: null });
  });

  it.each([
    ['badRequest', errors.badRequest({ detail: 'never sent' }), 400, MESSAGES.badRequest],
    ['unauthenticated', errors.unauthenticated(), 401, MESSAGES.unauthenticated],
    ['projectForbidden', errors.projectForbidden(), 403, MESSAGES.projectForbidden],
    ['taskNotFound', errors.taskNotFound(), 404, MESSAGES.taskNotFound],
    ['methodNotAllowed', errors.methodNotAllowed(), 405, MESSAGES.methodNotAllowed],
    ['usernameTaken', errors.usernameTaken(), 409, MESSAGES.usernameTaken],
    ['payloadTooLarge', errors.payloadTooLarge(), 413, MESSAGES.payloadTooLarge],
    ['unsupportedMediaType', errors.unsupportedMediaType(), 415, MESSAGES.unsupportedMediaType],
    ['tooManyRequests', errors.tooManyRequests(7), 429, MESSAGES.tooManyRequests],
    ['internal', errors.internal(new Error('secret')), 500, MESSAGES.internal],
  ])('fail(%s) answers its code and message with data null, never details', (_n, err, code, message) => {
    expect(fail(err)).toEqual({ code, message, data: null });
    expect(JSON.stringify(fail(err))).not.toMatch(/never sent|secret/);
  });

  it('turns anything else into 500 服务器内部错误', () => {
    for (const thrown of [
      new Error('db password in message'),
      'text',
      null,
      undefined,
      { code: 400, message: 'fake' },
    ]) {
      expect(fail(thrown)).toEqual({ code: 500, message: MESSAGES.internal, data: null });
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
