import { assetApiDocument } from '@assetloom/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeHasher, fakeTokens, steppingClock } from '../../test/fakes.js';
import { createEmbeddedStore } from '../embedded.js';
import { AssetloomError, MESSAGES } from '../errors.js';
import type { JsonBodyResult } from '../json-body.js';
import { parseJsonBytes } from '../json-body.js';
import { type AssetService, createAssetService } from '../service.js';
import type { Store } from '../store.js';
import { createRequestValidator } from '../validation.js';
import { createOkEnvelope, okEnvelopeText } from './envelope.js';
import {
  createOperationTable,
  type OperationAnswer,
  type OperationContext,
  type OperationRequest,
  type OperationTable,
  tokenCookie,
} from './operations.js';
import { type RouteSpec, routesOf } from './routes.js';

const routes = routesOf(assetApiDocument);
const route = (operationId: string): RouteSpec => {
  const found = routes.find((r) => r.operationId === operationId);
  if (found === undefined) throw new Error(`no route ${operationId}`);
  return found;
};

interface Call {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  token?: string;
  /** A JSON text, or a body failure the transport's reader reported. */
  body?: string | Exclude<JsonBodyResult, { ok: true }>;
}

let store: Store;
let service: AssetService;
let table: OperationTable;
let token: string;
const created: string[] = [];
const issued: string[] = [];
const signed = new Map<string, string>();

beforeAll(async () => {
  store = createEmbeddedStore();
  await store.init();
  const clock = steppingClock();
  service = createAssetService({ store, hasher: fakeHasher(), tokens: fakeTokens(clock), clock });
  table = createOperationTable({
    service,
    validator: createRequestValidator(),
    version: '9.9.9',
    bodyLimitBytes: 1024,
    storage: {
      exists: async (key) => key === 'projects/p/tasks/t/sprite.png',
      signedUrl: async (key, baseUrl) => {
        const url = `${baseUrl ?? ''}/files/${key}?sig=1`;
        signed.set(key, url);
        return url;
      },
    },
    onTaskCreated: (taskId) => created.push(taskId),
    onTokenIssued: (t) => issued.push(t),
  });
  await service.register({ username: 'alice', password: 'alice-pw' });
  token = (await service.login({ username: 'alice', password: 'alice-pw' }, { ip: 'x' })).token;
});

function run(operationId: string, call: Call = {}): Promise<OperationAnswer> {
  const handler = table.handler(route(operationId));
  if (handler === undefined) throw new Error(`no operation ${operationId}`);
  let bodyReads = 0;
  const request: OperationRequest & OperationContext & { bodyReads(): number } = {
    params: call.params ?? {},
    query: call.query ?? {},
    headers: call.headers ?? {},
    authorization: call.token === undefined ? undefined : `Bearer ${call.token}`,
    readBody: async (limit) => {
      bodyReads++;
      if (call.body === undefined) return { ok: true, value: undefined };
      if (typeof call.body !== 'string') return call.body;
      return parseJsonBytes(new TextEncoder().encode(call.body), limit);
    },
    bodyReads: () => bodyReads,
    log: { warn: () => undefined, error: () => undefined },
    ip: () => '127.0.0.1',
    baseUrl: () => 'http://api.test',
  };
  return handler(request, request);
}

async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AssetloomError);
  return { code: (error as AssetloomError).code, message: (error as AssetloomError).message };
}

describe('the operation table', () => {
  it('has an operation for every operationId of the contract but the signed file route', () => {
    const missing = routes.filter((r) => table.handler(r) === undefined).map((r) => r.operationId);
    expect(missing).toEqual(['getSignedFile']);
  });

  it('checks in order: credential (401), then the id (404), then the body (415/413/400), then the schema (400)', async () => {
    // No token: 401 though the id is malformed and the body is not JSON.
    expect(
      await failure(
        run('updateProject', {
          params: { projectId: 'bad id!' },
          body: { ok: false, error: 'unsupported-media-type' },
        }),
      ),
    ).toEqual({ code: 401, message: MESSAGES.unauthenticated });
    // A token: the malformed id answers 404 before the body is looked at.
    expect(
      await failure(
        run('updateProject', {
          token,
          params: { projectId: 'bad id!' },
          body: { ok: false, error: 'unsupported-media-type' },
        }),
      ),
    ).toEqual({ code: 404, message: MESSAGES.projectNotFound });
    const id = { projectId: 'p'.repeat(22) };
    expect(
      await failure(
        run('updateProject', { token, params: id, body: { ok: false, error: 'unsupported-media-type' } }),
      ),
    ).toEqual({ code: 415, message: MESSAGES.unsupportedMediaType });
    expect(
      await failure(run('updateProject', { token, params: id, body: `{"name":"${'x'.repeat(2000)}"}` })),
    ).toEqual({ code: 413, message: MESSAGES.payloadTooLarge });
    expect(await failure(run('updateProject', { token, params: id, body: '{"name":' }))).toEqual({
      code: 400,
      message: MESSAGES.badRequest,
    });
    expect(await failure(run('updateProject', { token, params: id, body: '{"name":42}' }))).toEqual({
      code: 400,
      message: MESSAGES.badRequest,
    });
    // Valid input reaches the service: an unknown project.
    expect(await failure(run('updateProject', { token, params: id, body: '{"name":"n"}' }))).toEqual({
      code: 404,
      message: MESSAGES.projectNotFound,
    });
  });

  it('runs the service and answers status, data and headers (201 register, cookie on login, health)', async () => {
    const registered = await run('register', { body: '{"username":"bob","password":"bob-pw1"}' });
    expect(registered).toEqual({ status: 201, data: { id: expect.any(Number), username: 'bob' } });
    const login = await run('login', { body: '{"username":"bob","password":"bob-pw1"}' });
    const data = login.data as { token: string; expiresIn: number };
    expect(login.status).toBe(200);
    expect(login.headers).toEqual([['Set-Cookie', tokenCookie(data.token, data.expiresIn)]]);
    expect(issued).toContain(data.token);
    const health = await run('getHealth');
    expect(health.data).toMatchObject({ status: 'ok', version: '9.9.9' });
  });

  it('creates a task once per Idempotency-Key and tells the transport about new tasks only', async () => {
    const project = (await run('createProject', { token, body: '{"name":"p"}' })).data as { id: string };
    const body = JSON.stringify({ projectId: project.id, prompt: 'a knight', assetType: 'sprite' });
    const headers = { 'idempotency-key': 'key-1' };
    const first = await run('generate', { token, body, headers });
    const again = await run('generate', { token, body, headers });
    expect(again.data).toEqual(first.data);
    expect(created).toEqual([(first.data as { taskId: string }).taskId]);
    const task = await run('getTask', {
      token,
      params: { taskId: (first.data as { taskId: string }).taskId },
    });
    expect(task.data).toMatchObject({ prompt: 'a knight', status: 'running' });
    // Not finished yet: no assets, nothing signed.
    const assets = await run('getTaskAssets', {
      token,
      params: { taskId: (first.data as { taskId: string }).taskId },
    });
    expect(assets.data).toEqual({ assets: [] });
  });

  it('optimizes prompts through the service and says where the prompt came from', async () => {
    const answer = await run('optimizePrompt', { token, body: '{"tags":["knight"],"assetType":"sprite"}' });
    expect(answer.headers).toEqual([
      ['X-Prompt-Source', 'template'],
      ['Content-Language', 'zh-CN'],
      ['Vary', 'Accept-Language'],
    ]);
    expect((answer.data as { prompt: string }).prompt).toContain('【主题】');
  });

  it('redirects a download to a signed URL of the request origin, 404 for no object, 400 for a bad key', async () => {
    const key = 'projects/p/tasks/t/sprite.png';
    // A task's file answers only while its task exists and has completed (issue #29).
    const task = (status: 'running' | 'completed') => ({
      id: 't',
      ownerId: 1,
      projectId: 'p',
      prompt: 'a slime',
      assetType: 'sprite' as const,
      taskStyle: null,
      params: { resolution: 64, format: 'spritesheet' as const },
      status,
      stage: 'format_adapter' as const,
      progress: status === 'completed' ? 100 : 50,
      retryCount: 0,
      error: null,
      dedupeKey: `dk-${status}`,
      idempotencyKey: null,
      lastSeq: 0,
      lease: null,
      attempts: 1,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    });
    expect(await failure(run('downloadAsset', { query: { key } }))).toEqual({
      code: 404,
      message: MESSAGES.assetNotFound,
    });
    await store.tasks.insert(task('running'));
    expect(await failure(run('downloadAsset', { query: { key } }))).toEqual({
      code: 404,
      message: MESSAGES.assetNotFound,
    });
    await store.tasks.update('t', { status: 'completed', updatedAt: new Date(1) });
    const answer = await run('downloadAsset', { query: { key } });
    expect(answer).toEqual({
      status: 302,
      data: { url: `http://api.test/files/${key}?sig=1` },
      headers: [['Location', `http://api.test/files/${key}?sig=1`]],
    });
    expect(await failure(run('downloadAsset', { query: { key: 'projects/p/none.png' } }))).toEqual({
      code: 404,
      message: MESSAGES.assetNotFound,
    });
    expect(await failure(run('downloadAsset', { query: { key: 'projects/../etc' } }))).toEqual({
      code: 400,
      message: MESSAGES.badRequest,
    });
  });
});

describe('success envelopes', () => {
  it('are JSON.stringify of the envelope; frozen data is encoded once and reused', () => {
    let encodings = 0;
    const envelope = createOkEnvelope((text) => {
      encodings++;
      return `<${text}>`;
    });
    const page = Object.freeze({
      total: 1,
      projects: Object.freeze([Object.freeze({ id: 'p1', name: '工程' })]),
    });
    const text = JSON.stringify({ code: 0, message: 'ok', data: page });
    expect(envelope(page)).toBe(`<${text}>`);
    expect(envelope(page)).toBe(`<${text}>`);
    expect(encodings).toBe(1);
    const loose = { total: 2 };
    expect(envelope(loose)).toBe(okEnvelopeText(loose));
    expect(okEnvelopeText(loose)).toBe(JSON.stringify({ code: 0, message: 'ok', data: loose }));
    expect(encodings).toBe(1);
  });
});
