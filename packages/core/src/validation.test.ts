import { describe, expect, it } from 'vitest';
import { AssetloomError, fail, MESSAGES } from './errors.js';
import { normalizeParams } from './params.js';
import { createRequestValidator, type RawRequest } from './validation.js';

const validator = createRequestValidator();

function rejection(operationId: string, raw: RawRequest): AssetloomError {
  try {
    validator.validate(operationId, raw);
  } catch (err) {
    expect(err).toBeInstanceOf(AssetloomError);
    return err as AssetloomError;
  }
  throw new Error(`expected ${operationId} to be rejected`);
}

describe('createRequestValidator', () => {
  it('knows every operation of the asset API', () => {
    expect(validator.operations).toEqual(
      expect.arrayContaining([
        'getHealth',
        'register',
        'login',
        'getMe',
        'changePassword',
        'optimizePrompt',
        'listProjects',
        'createProject',
        'getProject',
        'updateProject',
        'deleteProject',
        'listProjectTasks',
        'getProjectStyle',
        'replaceProjectStyle',
        'generate',
        'getTask',
        'getTaskAssets',
        'streamTaskProgress',
        'downloadAsset',
      ]),
    );
    expect(() => validator.validate('nope', {})).toThrow(/unknown operationId/);
  });

  const badRequests: [string, { op: string; raw: RawRequest; message?: string }][] = [
    [
      'register: username too short',
      { op: 'register', raw: { body: { username: 'ab', password: 'secret1' } } },
    ],
    [
      'register: username too long',
      { op: 'register', raw: { body: { username: 'a'.repeat(33), password: 'secret1' } } },
    ],
    [
      'register: password too short',
      { op: 'register', raw: { body: { username: 'alice', password: '12345' } } },
    ],
    [
      'register: password too long',
      { op: 'register', raw: { body: { username: 'alice', password: 'x'.repeat(65) } } },
    ],
    [
      'register: e-mail invalid',
      { op: 'register', raw: { body: { username: 'alice', password: 'secret1', email: 'nope' } } },
    ],
    [
      'register: unknown field',
      { op: 'register', raw: { body: { username: 'alice', password: 'secret1', isAdmin: true } } },
    ],
    [
      'register: operator object as username',
      { op: 'register', raw: { body: { username: { $gt: '' }, password: 'secret1' } } },
    ],
    ['register: body missing', { op: 'register', raw: {} }],
    ['register: body an array', { op: 'register', raw: { body: [] } }],
    [
      'login: operator object as username',
      { op: 'login', raw: { body: { username: { $gt: '' }, password: 'x' } } },
    ],
    [
      'login: operator object as password',
      { op: 'login', raw: { body: { username: 'alice', password: { $ne: null } } } },
    ],
    [
      'login: __proto__ field',
      { op: 'login', raw: { body: JSON.parse('{"username":"a","password":"b","__proto__":{"x":1}}') } },
    ],
    [
      'changePassword: new password too short',
      { op: 'changePassword', raw: { body: { oldPassword: 'x', newPassword: '123' } } },
    ],
    ['listProjects: pageSize 0', { op: 'listProjects', raw: { query: { pageSize: '0' } } }],
    ['listProjects: pageSize 101', { op: 'listProjects', raw: { query: { pageSize: '101' } } }],
    ['listProjects: page 0', { op: 'listProjects', raw: { query: { page: '0' } } }],
    ['listProjects: page not a number', { op: 'listProjects', raw: { query: { page: 'abc' } } }],
    ['listProjects: page fractional', { op: 'listProjects', raw: { query: { page: '1.5' } } }],
    ['listProjects: page hex', { op: 'listProjects', raw: { query: { page: '0x10' } } }],
    ['listProjects: repeated key', { op: 'listProjects', raw: { query: { page: ['1', '2'] } } }],
    [
      'listProjects: repeated key (URLSearchParams)',
      { op: 'listProjects', raw: { query: new URLSearchParams('page=1&page=2') } },
    ],
    ['listProjects: object in query', { op: 'listProjects', raw: { query: { page: { $gt: '' } } } }],
    ['createProject: blank name', { op: 'createProject', raw: { body: { name: '   ' } } }],
    ['createProject: name too long', { op: 'createProject', raw: { body: { name: 'n'.repeat(101) } } }],
    [
      'createProject: non-string style value',
      { op: 'createProject', raw: { body: { name: 'P', style: { a: 1 } } } },
    ],
    [
      'createProject: style value too long',
      { op: 'createProject', raw: { body: { name: 'P', style: { a: 'v'.repeat(257) } } } },
    ],
    [
      'createProject: style key too long',
      { op: 'createProject', raw: { body: { name: 'P', style: { ['k'.repeat(65)]: 'v' } } } },
    ],
    [
      'createProject: 33 style pairs',
      {
        op: 'createProject',
        raw: {
          body: {
            name: 'P',
            style: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v'])),
          },
        },
      },
    ],
    [
      'updateProject: unknown field',
      { op: 'updateProject', raw: { params: { projectId: 'p1' }, body: { name: 'x', ownerId: 2 } } },
    ],
    [
      'replaceProjectStyle: kvPairs missing',
      { op: 'replaceProjectStyle', raw: { params: { projectId: 'p1' }, body: {} } },
    ],
    [
      'replaceProjectStyle: nested value',
      {
        op: 'replaceProjectStyle',
        raw: { params: { projectId: 'p1' }, body: { kvPairs: { a: { b: 'c' } } } },
      },
    ],
    ['getProject: id too long', { op: 'getProject', raw: { params: { projectId: 'x'.repeat(65) } } }],
    [
      'generate: bad assetType',
      { op: 'generate', raw: { body: { projectId: 'p', prompt: 'x', assetType: 'tile' } } },
    ],
    [
      'generate: resolution below 16',
      {
        op: 'generate',
        raw: { body: { projectId: 'p', prompt: 'x', assetType: 'ui', params: { resolution: 8 } } },
      },
    ],
    [
      'generate: resolution above 1024',
      {
        op: 'generate',
        raw: { body: { projectId: 'p', prompt: 'x', assetType: 'ui', params: { resolution: 2048 } } },
      },
    ],
    [
      'generate: directions 3',
      {
        op: 'generate',
        raw: {
          body: { projectId: 'p', prompt: 'x', assetType: 'sprite', params: { frames: { directions: 3 } } },
        },
      },
    ],
    [
      'generate: framesPerDirection 17',
      {
        op: 'generate',
        raw: {
          body: {
            projectId: 'p',
            prompt: 'x',
            assetType: 'sprite',
            params: { frames: { framesPerDirection: 17 } },
          },
        },
      },
    ],
    [
      'generate: seed negative',
      {
        op: 'generate',
        raw: { body: { projectId: 'p', prompt: 'x', assetType: 'sprite', params: { seed: -1 } } },
      },
    ],
    [
      'generate: seed not an integer',
      {
        op: 'generate',
        raw: { body: { projectId: 'p', prompt: 'x', assetType: 'sprite', params: { seed: 1.5 } } },
      },
    ],
    [
      'generate: seed above 2^32 - 1',
      {
        op: 'generate',
        raw: { body: { projectId: 'p', prompt: 'x', assetType: 'sprite', params: { seed: 2 ** 32 } } },
      },
    ],
    [
      'generate: format gif',
      {
        op: 'generate',
        raw: { body: { projectId: 'p', prompt: 'x', assetType: 'sprite', params: { format: 'gif' } } },
      },
    ],
    [
      'generate: prompt a number',
      { op: 'generate', raw: { body: { projectId: 'p', prompt: 5, assetType: 'sprite' } } },
    ],
    [
      'generate: prompt too long',
      { op: 'generate', raw: { body: { projectId: 'p', prompt: 'x'.repeat(2001), assetType: 'sprite' } } },
    ],
    [
      'generate: projectId an operator',
      { op: 'generate', raw: { body: { projectId: { $ne: '' }, prompt: 'x', assetType: 'sprite' } } },
    ],
    [
      'generate: bad Idempotency-Key',
      {
        op: 'generate',
        raw: {
          headers: { 'Idempotency-Key': 'has space' },
          body: { projectId: 'p', prompt: 'x', assetType: 'ui' },
        },
      },
    ],
    ['optimizePrompt: empty tags', { op: 'optimizePrompt', raw: { body: { tags: [], assetType: 'ui' } } }],
    ['downloadAsset: key missing', { op: 'downloadAsset', raw: { query: {} } }],
    [
      'deeply nested body',
      {
        op: 'createProject',
        raw: { body: { name: 'P', style: JSON.parse(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`) } },
      },
    ],
  ];

  it.each(badRequests)('400 参数错误: %s', (_name, { op, raw, message }) => {
    const err = rejection(op, raw);
    expect(err.code).toBe(400);
    expect(err.message).toBe(message ?? MESSAGES.badRequest);
  });

  const emptyPrompts: [string, unknown][] = [
    ['missing', undefined],
    ['empty', ''],
    ['blank', ' \t\n '],
    ['only a byte-order mark and no-break spaces', '\ufeff\u00a0\u3000'],
    ['null', null],
  ];
  it.each(emptyPrompts)(
    '400 prompt 不能为空 when the prompt is %s (before other errors)',
    (_name, prompt) => {
      const body: Record<string, unknown> = { projectId: 'p', assetType: 'nonsense', extra: 1 };
      if (prompt !== undefined) body.prompt = prompt;
      const err = rejection('generate', { body });
      expect(err.code).toBe(400);
      expect(err.message).toBe(MESSAGES.emptyPrompt);
    },
  );

  it('page is 1-1000000 (the contract maximum): above it, and above 2^53 where numbers lose precision, 400', () => {
    expect(validator.validate('listProjects', { query: { page: '1000000' } }).query).toEqual({
      page: 1000000,
      pageSize: 20,
    });
    for (const page of ['1000001', '9007199254740993', '412058479339830837248']) {
      const err = rejection('listProjects', { query: { page } });
      expect(err.code, page).toBe(400);
      expect(err.message).toBe(MESSAGES.badRequest);
      const tasks = rejection('listProjectTasks', { params: { projectId: 'abc' }, query: { page } });
      expect(tasks.code, page).toBe(400);
    }
  });

  it('a prompt with one character that is not white space is not blank', () => {
    const body = { projectId: 'p', prompt: '\u00a0x', assetType: 'sprite' };
    expect(validator.validate('generate', { body }).body).toMatchObject({ prompt: '\u00a0x' });
  });

  it('applies page defaults and coerces query integers', () => {
    expect(validator.validate('listProjects', {}).query).toEqual({ page: 1, pageSize: 20 });
    expect(
      validator.validate('listProjects', { query: { page: '3', pageSize: '100', extra: 'dropped' } }).query,
    ).toEqual({
      page: 3,
      pageSize: 100,
    });
    expect(
      validator.validate('listProjectTasks', {
        params: { projectId: 'abc' },
        query: new URLSearchParams('page=2'),
      }),
    ).toEqual({
      params: { projectId: 'abc' },
      query: { page: 2, pageSize: 20 },
      headers: {},
      body: undefined,
    });
  });

  const generateDefaults: [string, { body: Record<string, unknown>; params: unknown }][] = [
    [
      'sprite without params',
      {
        body: { assetType: 'sprite' },
        params: { resolution: 64, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
      },
    ],
    [
      'animation with partial frames',
      {
        body: { assetType: 'animation', params: { frames: { directions: 8 } } },
        params: { resolution: 64, format: 'spritesheet', frames: { directions: 8, framesPerDirection: 4 } },
      },
    ],
    [
      'background ignores frames',
      {
        body: { assetType: 'background', params: { resolution: 256, frames: { directions: 8 } } },
        params: { resolution: 256, format: 'spritesheet' },
      },
    ],
    [
      'ui with format',
      {
        body: { assetType: 'ui', params: { format: 'individual' } },
        params: { resolution: 64, format: 'individual' },
      },
    ],
  ];
  it.each(generateDefaults)(
    'a valid generate body normalizes to the contract defaults: %s',
    (_name, { body, params }) => {
      // the validator checks the body; the service normalizes it once (normalizeParams)
      const out = validator.validate('generate', { body: { projectId: 'p1', prompt: 'knight', ...body } });
      expect(normalizeParams(out.body.assetType, out.body.params)).toEqual(params);
    },
  );

  it('reads declared headers case-insensitively and leaves the caller’s body untouched', () => {
    const body = { projectId: 'p1', prompt: 'knight', assetType: 'sprite' };
    const out = validator.validate('generate', {
      headers: { 'IDEMPOTENCY-KEY': 'abc-123', cookie: 'x' },
      body,
    });
    expect(out.headers).toEqual({ 'idempotency-key': 'abc-123' });
    expect(body).toEqual({ projectId: 'p1', prompt: 'knight', assetType: 'sprite' });
    expect(out.body.taskStyle).toBeUndefined();
  });

  it('accepts valid bodies as they are', () => {
    expect(
      validator.validate('register', {
        body: { username: 'alice', password: 'secret1', email: 'a@example.com' },
      }).body,
    ).toEqual({
      username: 'alice',
      password: 'secret1',
      email: 'a@example.com',
    });
    expect(
      validator.validate('replaceProjectStyle', { params: { projectId: 'p' }, body: { kvPairs: {} } }).body,
    ).toEqual({ kvPairs: {} });
    expect(
      validator.validate('generate', {
        body: { projectId: 'p', prompt: 'x', assetType: 'ui', taskStyle: null },
      }).body.taskStyle,
    ).toBeNull();
    expect(validator.validate('getHealth', { body: { ignored: true } }).body).toBeUndefined();
  });
});

describe('field-level errors (data.errors, decision 0037)', () => {
  const fields = (operationId: string, raw: RawRequest, language: 'zh' | 'en' = 'zh') =>
    fail(rejection(operationId, raw), language);

  it('names every refused field of a registration at once, with its JSON pointer, rule and limit', () => {
    const answer = fields('register', { body: { username: 'ab', password: '123', email: 'not-mail' } });
    expect(answer.code).toBe(400);
    expect(answer.message).toBe(MESSAGES.badRequest);
    expect(answer.data?.errors).toEqual([
      { in: 'body', path: '/username', rule: 'minLength', limit: 3, message: '长度至少为 3 个字符' },
      { in: 'body', path: '/email', rule: 'format', message: '不是有效的邮箱地址' },
      { in: 'body', path: '/password', rule: 'minLength', limit: 6, message: '长度至少为 6 个字符' },
    ]);
  });

  it.each([
    [
      'an empty project name',
      'createProject',
      { body: { name: '' } },
      { in: 'body', path: '/name', rule: 'minLength', limit: 1, message: 'must not be empty' },
    ],
    [
      'resolution 5000',
      'generate',
      { body: { projectId: 'p', prompt: 'a knight', assetType: 'sprite', params: { resolution: 5000 } } },
      {
        in: 'body',
        path: '/params/resolution',
        rule: 'maximum',
        limit: 1024,
        message: 'must be at most 1024',
      },
    ],
    [
      'a non-string style value',
      'replaceProjectStyle',
      { params: { projectId: 'p' }, body: { kvPairs: { lighting: 7 } } },
      { in: 'body', path: '/kvPairs/lighting', rule: 'type', message: 'must be a string' },
    ],
    [
      'a non-string value of a nullable task style',
      'generate',
      { body: { projectId: 'p', prompt: 'a knight', assetType: 'sprite', taskStyle: { mood: 1 } } },
      { in: 'body', path: '/taskStyle/mood', rule: 'type', message: 'must be a string' },
    ],
    [
      'an unknown field',
      'createProject',
      { body: { name: 'x', owner: 1 } },
      { in: 'body', path: '/owner', rule: 'additionalProperties', message: 'is not a known field' },
    ],
    [
      'a missing field',
      'login',
      { body: { username: 'alice' } },
      { in: 'body', path: '/password', rule: 'required', message: 'is required' },
    ],
    [
      'an unknown asset type',
      'generate',
      { body: { projectId: 'p', prompt: 'a knight', assetType: 'spaceship' } },
      {
        in: 'body',
        path: '/assetType',
        rule: 'enum',
        allowed: ['sprite', 'background', 'ui', 'animation', 'tileset', 'level'],
        message: 'must be one of: sprite, background, ui, animation, tileset, level',
      },
    ],
    [
      'pageSize 500',
      'listProjects',
      { query: { pageSize: '500' } },
      { in: 'query', path: '/pageSize', rule: 'maximum', limit: 100, message: 'must be at most 100' },
    ],
    [
      'a repeated query parameter',
      'listProjects',
      { query: { page: ['1', '2'] } },
      { in: 'query', path: '/page', rule: 'repeated', message: 'must be given only once' },
    ],
    [
      'a missing body',
      'createProject',
      {},
      { in: 'body', path: '', rule: 'required', message: 'is required' },
    ],
  ])('%s: 400 参数错误 naming the field (in English on request)', (_name, operationId, raw, want) => {
    const answer = fields(operationId, raw as RawRequest, 'en');
    expect(answer.message).toBe('Invalid parameters');
    expect(answer.data?.reason).toBe('invalid_request');
    expect(answer.data?.errors).toEqual([want]);
  });

  it('keeps the spec message of an empty prompt and names /prompt', () => {
    const answer = fields('generate', { body: { projectId: 'p', prompt: '  ', assetType: 'sprite' } });
    expect(answer).toEqual({
      code: 400,
      message: MESSAGES.emptyPrompt,
      data: {
        reason: 'empty_prompt',
        errors: [{ in: 'body', path: '/prompt', rule: 'notBlank', message: '不能为空' }],
      },
    });
  });

  it('names width for a sprite and frameDurations against the frame count (rules the schema cannot state)', () => {
    const raise = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return fail(error, 'en').data?.errors;
      }
      throw new Error('expected a 400');
    };
    expect(raise(() => normalizeParams('sprite', { width: 64 }))).toEqual([
      {
        in: 'body',
        path: '/params/width',
        rule: 'assetType',
        allowed: ['background', 'ui'],
        message: 'is only for background, ui',
      },
    ]);
    expect(
      raise(() =>
        normalizeParams('animation', {
          frames: { framesPerDirection: 3 },
          animation: { frameDurations: [100] },
        }),
      ),
    ).toEqual([
      {
        in: 'body',
        path: '/params/animation/frameDurations',
        rule: 'frameCount',
        limit: 3,
        message: 'must have one duration per frame of a direction (3)',
      },
    ]);
  });
});
