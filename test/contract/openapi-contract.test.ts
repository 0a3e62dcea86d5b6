// The hand-written OpenAPI documents against the specs they describe: every endpoint, every
// error message and every limit of spec 000 and spec 001 must be stated, and every example in
// the documents must be valid against its own schema.
import { assetApiDocument, type OpenApiDocument, reviewAuthDocument } from '@assetloom/openapi';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function operations(doc: OpenApiDocument) {
  const out: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op) out.push({ path, method, op });
    }
  }
  return out;
}

function resolve(doc: OpenApiDocument, value: unknown): Json {
  let node = value as Json;
  while (node && typeof node.$ref === 'string') {
    const parts = (node.$ref as string).replace(/^#\//, '').split('/');
    node = parts.reduce<Json>(
      (acc, p) => acc[p.replace(/~1/g, '/').replace(/~0/g, '~')] as Json,
      doc as Json,
    );
  }
  return node;
}

/** Every example of every response: [status, schema, example value]. */
function responseExamples(doc: OpenApiDocument) {
  const out: { where: string; schema: Json; value: unknown }[] = [];
  for (const { path, method, op } of operations(doc)) {
    for (const [status, raw] of Object.entries((op.responses ?? {}) as Json)) {
      const response = resolve(doc, raw);
      const json = (response.content as Json | undefined)?.['application/json'] as Json | undefined;
      if (!json) continue;
      for (const [name, ex] of Object.entries((json.examples ?? {}) as Json)) {
        out.push({
          where: `${method.toUpperCase()} ${path} ${status} ${name}`,
          schema: json.schema as Json,
          value: (ex as Json).value,
        });
      }
    }
  }
  return out;
}

function compilerFor(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  return (schema: Json) => {
    const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));
    return ajv.compile(rewritten);
  };
}

describe('asset-api.yaml states spec 000', () => {
  const ops = operations(assetApiDocument);
  const has = (method: string, path: string) => ops.some((o) => o.method === method && o.path === path);

  it.each([
    ['get', '/api/v1/health'],
    ['post', '/auth/register'],
    ['post', '/auth/login'],
    ['get', '/api/v1/auth/me'],
    ['put', '/api/v1/auth/password'],
    ['post', '/api/v1/prompt/optimize'],
    ['get', '/api/v1/projects'],
    ['post', '/api/v1/projects'],
    ['get', '/api/v1/projects/{projectId}'],
    ['put', '/api/v1/projects/{projectId}'],
    ['delete', '/api/v1/projects/{projectId}'],
    ['get', '/api/v1/projects/{projectId}/tasks'],
    ['get', '/api/v1/projects/{projectId}/style'],
    ['put', '/api/v1/projects/{projectId}/style'],
    ['post', '/api/v1/generate'],
    ['get', '/api/v1/tasks/{taskId}'],
    ['get', '/api/v1/tasks/{taskId}/assets'],
    ['get', '/api/v1/assets/download'],
    ['get', '/api/v1/tasks/{taskId}/ws'],
  ])('documents %s %s', (method, path) => {
    expect(has(method, path)).toBe(true);
  });

  it('marks exactly health, readiness, register, login, download, the signed file route, the style catalogue and the capabilities as public', () => {
    const pub = ops.filter((o) => Array.isArray(o.op.security) && (o.op.security as unknown[]).length === 0);
    expect(pub.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'get /api/v1/assets/download',
        'get /api/v1/capabilities',
        'get /api/v1/health',
        'get /api/v1/ready',
        'get /api/v1/styles/catalog',
        'get /files/{key}',
        'post /auth/login',
        'post /auth/register',
      ].sort(),
    );
  });

  it.each([
    [400, '参数错误'],
    [401, '未登录或 Token 已过期'],
    [403, '无权访问该资源'],
    [403, '无权访问该工程'],
    [403, '无权访问该任务'],
    [404, '工程不存在'],
    [404, '任务不存在'],
    [409, '用户名已被注册'],
    [400, '原密码不正确'],
    [400, 'prompt 不能为空'],
  ])('gives the exact message %i %s as an example', (code, message) => {
    const found = responseExamples(assetApiDocument).some(
      (e) => (e.value as Json).code === code && (e.value as Json).message === message,
    );
    expect(found).toBe(true);
  });

  it('answers register with 201 and every error with the envelope whose code equals the status', () => {
    const register = ops.find((o) => o.path === '/auth/register')!;
    expect(Object.keys(register.op.responses as Json)).toContain('201');
    for (const e of responseExamples(assetApiDocument)) {
      const status = Number(e.where.split(' ')[2]);
      if (status >= 400) expect((e.value as Json).code, e.where).toBe(status);
    }
  });

  it('validates every example against its own schema', () => {
    const compile = compilerFor(assetApiDocument);
    const examples = responseExamples(assetApiDocument);
    expect(examples.length).toBeGreaterThan(20);
    for (const e of examples) {
      const validate = compile(e.schema);
      expect(validate(e.value), `${e.where}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('rejects unknown fields in every JSON request body (no mass assignment)', () => {
    for (const { path, method, op } of ops) {
      const body = op.requestBody as Json | undefined;
      if (!body) continue;
      // Only JSON bodies (an upload takes an image or multipart form, decision 0034).
      const json = (resolve(assetApiDocument, body).content as Json)['application/json'] as Json | undefined;
      if (json === undefined) continue;
      const schema = resolve(assetApiDocument, json.schema);
      expect(schema.additionalProperties, `${method} ${path}`).toBe(false);
    }
  });

  it.each([
    ['Username', { minLength: 3, maxLength: 32 }],
    ['Resolution', { minimum: 16, maximum: 1024, default: 64 }],
    ['OutputFormat', { enum: ['spritesheet', 'individual'], default: 'spritesheet' }],
    // spec 000's four types, then the tileset extension (decision 0023)
    ['AssetType', { enum: ['sprite', 'background', 'ui', 'animation', 'tileset', 'level'] }],
    ['TaskStatus', { enum: ['running', 'completed', 'failed', 'saving'] }],
    ['TaskStage', { enum: ['prompt_builder', 'asset_generator', 'quality_supervisor', 'format_adapter'] }],
    [
      'PipelineStage',
      { enum: ['prompt_optimizer', 'asset_generator', 'quality_supervisor', 'format_adapter'] },
    ],
  ])('states the limits of %s', (name, want) => {
    expect(assetApiDocument.components.schemas[name]).toMatchObject(want);
  });

  it('documents tileset as an extension of spec 000 with its own params, absent from the four spec types', () => {
    const s = assetApiDocument.components.schemas as Json;
    expect((s.AssetType as Json).description).toMatch(
      /four asset types of spec 000, plus `tileset` \(Assetloom extension/,
    );
    expect(s.TilesetKind).toMatchObject({ enum: ['wang16', 'blob47', 'seamless'], default: 'wang16' });
    expect(s.Tileset).toMatchObject({ properties: { tileSize: { minimum: 8, maximum: 64, default: 16 } } });
    expect(((s.GenerateParams as Json).properties as Json).tileset).toEqual({
      $ref: '#/components/schemas/Tileset',
    });
  });

  it('states the frame defaults, the page limits and the password rule', () => {
    const s = assetApiDocument.components.schemas;
    expect(s.Frames).toMatchObject({
      properties: {
        directions: { enum: [1, 4, 8], default: 4 },
        framesPerDirection: { minimum: 1, maximum: 16, default: 4 },
      },
    });
    const params = assetApiDocument.components.parameters as Json;
    expect(params.PageSize).toMatchObject({ schema: { minimum: 1, maximum: 100, default: 20 } });
    expect(params.Page).toMatchObject({ schema: { minimum: 1, default: 1 } });
    expect(s.RegisterRequest).toMatchObject({ properties: { password: { minLength: 6, maxLength: 64 } } });
    expect(s.PromptOptimizeRequest).toMatchObject({ properties: { tags: { minItems: 1 } } });
  });

  it('describes the PipelineProgress message with every field of the spec', () => {
    const p = assetApiDocument.components.schemas.PipelineProgress as Json;
    expect(Object.keys(p.properties as Json)).toEqual(
      expect.arrayContaining([
        'stage',
        'status',
        'progress',
        'message',
        'retryCount',
        'rejectReason',
        'result',
        'error',
      ]),
    );
  });

  it('writes every decision of design.md section 3 into the description', () => {
    const text = String(assetApiDocument.info.description);
    for (const phrase of [
      'expiresIn',
      'HS256',
      'httpOnly',
      'newest first',
      'pageSize',
      'at most 2',
      '16-1024',
      '1, 4 or 8',
      '1-16',
      '256',
      'Idempotency-Key',
      'running → saving → completed',
      'Retry-After',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
  });
});

describe('review-auth.yaml states spec 001', () => {
  const ops = operations(reviewAuthDocument);

  it.each([
    ['post', '/api/auth/login', ['200', '400', '401', '500']],
    ['post', '/api/auth/register', ['200', '400', '409', '500']],
    ['post', '/api/auth/logout', ['302']],
    ['get', '/login', ['200']],
    ['get', '/register', ['200']],
  ])('documents %s %s with its statuses', (method, path, statuses) => {
    const op = ops.find((o) => o.method === method && o.path === path);
    expect(op).toBeDefined();
    expect(Object.keys(op!.op.responses as Json)).toEqual(expect.arrayContaining(statuses));
  });

  it.each([
    [400, '邮箱和密码为必填项'],
    [400, '邮箱格式不正确'],
    [400, '密码长度至少为 6 位'],
    [401, '邮箱或密码错误'],
    [409, '该邮箱已被注册'],
    [500, '服务器错误'],
    [500, '会话保存失败'],
    [500, '密码加密失败'],
    [500, '注册失败'],
  ])('gives the exact message %i %s', (status, message) => {
    const found = responseExamples(reviewAuthDocument).some(
      (e) => Number(e.where.split(' ')[2]) === status && (e.value as Json).error === message,
    );
    expect(found).toBe(true);
  });

  it('validates every example against its own schema', () => {
    const compile = compilerFor(reviewAuthDocument);
    for (const e of responseExamples(reviewAuthDocument)) {
      const validate = compile(e.schema);
      expect(validate(e.value), `${e.where}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('redirects logout to /login', () => {
    const logout = ops.find((o) => o.path === '/api/auth/logout')!;
    expect(((logout.op.responses as Json)['302'] as Json).headers).toMatchObject({
      Location: { schema: { const: '/login' } },
    });
  });
});
