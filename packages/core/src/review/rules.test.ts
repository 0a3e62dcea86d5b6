import { describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES, reviewFailure } from './messages.js';
import {
  checkLogin,
  checkRegistration,
  DEFAULT_SETTINGS,
  isValidEmail,
  normalizeEmail,
  utf8Length,
} from './rules.js';

const M = REVIEW_MESSAGES;

describe('checkRegistration', () => {
  const cases: [string, { given: unknown; want: { email: string } | { status: number; error: string } }][] = [
    [
      'a valid body, e-mail trimmed and lower-cased',
      { given: { email: '  Ann@Example.COM ', password: 'secret' }, want: { email: 'ann@example.com' } },
    ],
    [
      'a 6-byte password of 2 CJK characters',
      { given: { email: 'a@b.c', password: '密码' }, want: { email: 'a@b.c' } },
    ],
    ['no body', { given: undefined, want: { status: 400, error: M.required } }],
    ['null', { given: null, want: { status: 400, error: M.required } }],
    [
      'an array',
      { given: [{ email: 'a@b.c', password: 'secret' }], want: { status: 400, error: M.required } },
    ],
    ['a string', { given: 'email=a@b.c', want: { status: 400, error: M.required } }],
    ['missing e-mail', { given: { password: 'secret' }, want: { status: 400, error: M.required } }],
    ['missing password', { given: { email: 'a@b.c' }, want: { status: 400, error: M.required } }],
    ['empty e-mail', { given: { email: '', password: 'secret' }, want: { status: 400, error: M.required } }],
    [
      'blank e-mail',
      { given: { email: '   ', password: 'secret' }, want: { status: 400, error: M.required } },
    ],
    ['empty password', { given: { email: 'a@b.c', password: '' }, want: { status: 400, error: M.required } }],
    [
      'a numeric password',
      { given: { email: 'a@b.c', password: 123456 }, want: { status: 400, error: M.required } },
    ],
    [
      'an operator object as e-mail',
      { given: { email: { $gt: '' }, password: 'secret' }, want: { status: 400, error: M.required } },
    ],
    [
      'a password over 1024 bytes',
      { given: { email: 'a@b.c', password: '密'.repeat(342) }, want: { status: 400, error: M.required } },
    ],
    [
      'no @',
      {
        given: { email: 'ann.example.com', password: 'secret' },
        want: { status: 400, error: M.invalidEmail },
      },
    ],
    [
      'no dot',
      { given: { email: 'ann@example', password: 'secret' }, want: { status: 400, error: M.invalidEmail } },
    ],
    [
      'an e-mail over 254 characters',
      {
        given: { email: `${'a'.repeat(250)}@b.cn`, password: 'secret' },
        want: { status: 400, error: M.invalidEmail },
      },
    ],
    [
      'a 5-byte password',
      { given: { email: 'a@b.c', password: '12345' }, want: { status: 400, error: M.passwordTooShort } },
    ],
    [
      'e-mail checked before password length',
      { given: { email: 'nope', password: '1' }, want: { status: 400, error: M.invalidEmail } },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const result = checkRegistration(given);
    if ('email' in want) {
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.value.email).toBe(want.email);
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe(want.status);
        expect(result.error.message).toBe(want.error);
      }
    }
  });
});

describe('checkLogin', () => {
  it.each([
    ['a short password is still checked against the hash', { email: 'A@B.C', password: '1' }, true],
    [
      'an e-mail without @ is looked up (and fails with 401 later)',
      { email: 'nobody', password: 'secret' },
      true,
    ],
    ['a missing password', { email: 'a@b.c' }, false],
    ['a body that is not an object', 42, false],
  ] as const)('%s', (_name, given, ok) => {
    expect(checkLogin(given).ok).toBe(ok);
  });
});

describe('helpers', () => {
  it('normalizes, validates and measures', () => {
    expect(normalizeEmail('\t X@Y.Z \n')).toBe('x@y.z');
    expect(isValidEmail('x@y.z')).toBe(true);
    expect(isValidEmail('x@yz')).toBe(false);
    expect(utf8Length('密码')).toBe(6);
    expect(utf8Length('😀')).toBe(4);
  });

  it('has the seven default settings of spec 001', () => {
    expect(Object.fromEntries(DEFAULT_SETTINGS.map((s) => [s.key, s.value]))).toEqual({
      'llm.endpoint': expect.any(String),
      'llm.api_key': '',
      'llm.model': expect.any(String),
      'review.top_n': '20',
      'review.concurrency': '5',
      'cache.max_age_days': '7',
      'cache.max_size_mb': '5000',
    });
  });
});

describe('the refused fields of a review 400 (errors, decision 0037)', () => {
  const answer = (given: unknown, language: 'zh' | 'en' = 'zh') => {
    const result = checkRegistration(given);
    if (result.ok) throw new Error('expected a refusal');
    return reviewFailure(result.error, language);
  };

  it.each([
    [
      { email: '', password: '' },
      [
        { in: 'body', path: '/email', rule: 'required' },
        { in: 'body', path: '/password', rule: 'required' },
      ],
    ],
    [{ email: 'a@b.c' }, [{ in: 'body', path: '/password', rule: 'required' }]],
    [{ email: 5, password: 'secret' }, [{ in: 'body', path: '/email', rule: 'type' }]],
    [[1], [{ in: 'body', path: '', rule: 'json' }]],
    [
      { email: 'a@b.c', password: 'x'.repeat(1025) },
      [{ in: 'body', path: '/password', rule: 'maxLength', limit: 1024 }],
    ],
    [{ email: 'nope', password: 'secret' }, [{ in: 'body', path: '/email', rule: 'format' }]],
    [{ email: 'a@b.c', password: '12345' }, [{ in: 'body', path: '/password', rule: 'minLength', limit: 6 }]],
  ])('%j names %j and keeps the spec message', (given, want) => {
    const { status, body } = answer(given);
    expect(status).toBe(400);
    expect(Object.values(M)).toContain(body.error);
    expect(body.errors).toEqual(want.map((w) => expect.objectContaining(w)));
    expect(body.errors?.every((e) => e.message.length > 0)).toBe(true);
  });

  it('answers in English when asked, with the same reason', () => {
    expect(answer({ email: 'a@b.c', password: '12345' }, 'en').body).toEqual({
      error: 'The password must be at least 6 characters long',
      reason: 'password_too_short',
      errors: [
        {
          in: 'body',
          path: '/password',
          rule: 'minLength',
          limit: 6,
          message: 'must be at least 6 characters long',
        },
      ],
    });
    expect(answer({ email: 'a@b.c', password: '12345' }).body.reason).toBe('password_too_short');
    expect(reviewFailure(new Error('boom'), 'en')).toEqual({
      status: 500,
      body: { error: 'Server error', reason: 'server_error' },
    });
  });
});
