import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routesOf } from '@assetloom/core/http';
import { assetApiDocument } from '@assetloom/openapi';
import { uniqueDbName } from '@assetloom/testing';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { loadConfig, type ServerConfig } from '../src/config.js';
import { type RunningServer, type StartOptions, startServer } from '../src/server.js';

// ajv-formats is CommonJS; under ESM its function may sit on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export const TEST_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** Where a test server keeps its data. */
export type StoreTarget = { kind: 'embedded' } | { kind: 'mongodb'; uri: string };

export interface TestServer {
  url: string;
  running: RunningServer;
  config: ServerConfig;
  /** Stops the server (and, for the embedded store, keeps the data folder for a restart). */
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  destroy(): Promise<void>;
  /** Starts a fresh server on the same data (a restart). */
  restart(): Promise<TestServer>;
}

/** The environment a test server starts from: NODE_ENV=test, a fixed secret, a cheap scrypt cost. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET: TEST_SECRET,
    SCRYPT_COST: '10',
    LOG_LEVEL: 'silent',
    LOGIN_MAX_FAILURES: '5',
    LOGIN_WINDOW_SECONDS: '900',
    // Suites register and log in many users from 127.0.0.1; the per-address limits have their own
    // tests (test/audit/login-flood.test.ts).
    LOGIN_IP_MAX_FAILURES: '100000',
    REGISTER_IP_MAX: '100000',
    PASSWORD_HASH_PER_CLIENT: '1000',
    ...extra,
  };
}

/** Starts a real server on 127.0.0.1 with a random port on a fresh store of the given kind. */
export async function startTestServer(
  target: StoreTarget,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestServer> {
  const storeEnv: Record<string, string> =
    target.kind === 'embedded'
      ? { DATA_DIR: await mkdtemp(join(tmpdir(), 'assetloom-server-')) }
      : { MONGODB_URI: target.uri, MONGODB_DB: uniqueDbName('server') };
  return startOn(testEnv({ ...storeEnv, ...env }), options);
}

async function startOn(env: Record<string, string>, options: StartOptions = {}): Promise<TestServer> {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw loaded.error;
  const config = loaded.value;
  const running = await startServer(config, options);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await running.close();
  };
  return {
    url: running.url,
    running,
    config,
    stop,
    async destroy() {
      await stop();
      if (config.store.mongodbUri === null) {
        await rm(config.store.dataDir, { recursive: true, force: true });
      } else {
        const { MongoClient } = await import('mongodb');
        const client = new MongoClient(config.store.mongodbUri);
        try {
          await client.db(config.store.mongodbDb).dropDatabase();
        } finally {
          await client.close();
        }
      }
    },
    async restart() {
      await stop();
      return startOn(env, options);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Response checking: every response of the suites is validated against the OpenAPI document.
// ---------------------------------------------------------------------------------------------

const SCHEMA_ID = 'urn:assetloom:asset-api';

interface ResponseSchemas {
  /** operationId → status → validator (null when the status declares no JSON body). */
  byOperation: Map<string, Map<number, ValidateFunction | null>>;
  errorResponse: ValidateFunction;
  matchers: { method: string; regex: RegExp; operationId: string }[];
  /** The compiler holding the document's components (`urn:assetloom:asset-api#/components/...`). */
  ajv: Ajv2020;
}

let compiled: ResponseSchemas | undefined;

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof inner === 'string' && inner.startsWith('#/')
          ? `${SCHEMA_ID}${inner}`
          : rewriteRefs(inner);
    }
    return out;
  }
  return value;
}

/** Compiles every response schema of the asset API once (ajv 2020 + formats). */
export function responseSchemas(): ResponseSchemas {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const document = rewriteRefs(assetApiDocument) as typeof assetApiDocument;
  ajv.addSchema({ $id: SCHEMA_ID, components: document.components });
  const responsesComponent = (document.components as { responses?: Record<string, unknown> }).responses ?? {};

  const byOperation = new Map<string, Map<number, ValidateFunction | null>>();
  const matchers: ResponseSchemas['matchers'] = [];
  for (const route of routesOf(assetApiDocument)) {
    const operation = (document.paths[route.path] as Record<string, { responses: Record<string, unknown> }>)[
      route.method
    ];
    const statuses = new Map<number, ValidateFunction | null>();
    for (const [status, raw] of Object.entries(operation?.responses ?? {})) {
      let response = raw as { $ref?: string; content?: Record<string, { schema?: unknown }> };
      if (typeof response.$ref === 'string') {
        const name = response.$ref.split('/').pop() as string;
        response = responsesComponent[name] as typeof response;
      }
      const schema = response.content?.['application/json']?.schema;
      statuses.set(Number(status), schema === undefined ? null : ajv.compile(schema as object));
    }
    byOperation.set(route.operationId, statuses);
    const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}/g, '[^/]+');
    matchers.push({
      method: route.method.toUpperCase(),
      regex: new RegExp(`^${pattern}/?$`),
      operationId: route.operationId,
    });
  }
  const errorResponse = ajv.compile({ $ref: `${SCHEMA_ID}#/components/schemas/ErrorResponse` });
  compiled = { byOperation, errorResponse, matchers, ajv };
  return compiled;
}

/** The operation a request addresses, if any (HEAD is checked as GET). */
export function operationFor(method: string, path: string): string | undefined {
  const pathname = path.split('?')[0] as string;
  const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return responseSchemas().matchers.find((m) => m.method === wanted && m.regex.test(pathname))?.operationId;
}

/**
 * Asserts that a response matches the OpenAPI document: the status is one the operation declares
 * and the body matches that status's schema; responses of unknown routes and wrong methods must
 * be the error envelope (404/405). Also checks that the HTTP status equals the envelope code.
 */
export function expectDocumented(method: string, path: string, status: number, body: unknown): void {
  const schemas = responseSchemas();
  const operationId = operationFor(method, path);
  const label = `${method} ${path} → ${status}`;
  if (operationId === undefined || status === 405) {
    expect([404, 405], `${label}: no operation matches, so only 404/405 are allowed`).toContain(status);
    const valid = schemas.errorResponse(body);
    expect(
      valid,
      `${label}: ${JSON.stringify(schemas.errorResponse.errors)} in ${JSON.stringify(body)}`,
    ).toBe(true);
    return;
  }
  const statuses = schemas.byOperation.get(operationId);
  expect(statuses?.has(status), `${label}: status not declared for ${operationId}`).toBe(true);
  const validate = statuses?.get(status);
  if (validate) {
    const valid = validate(body);
    expect(valid, `${label}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`).toBe(true);
  }
  if (status >= 400 && body !== null && typeof body === 'object') {
    expect((body as { code?: unknown }).code, `${label}: HTTP status must equal the envelope code`).toBe(
      status,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// A small HTTP client over fetch for the error rows and the security cases (the SDK covers the
// happy paths); every response it sees is checked with expectDocumented.
// ---------------------------------------------------------------------------------------------

export interface CallOptions {
  token?: string;
  /** A JSON value to send (Content-Type application/json). */
  json?: unknown;
  /** A raw body (sent as given, with the headers given). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Skip the response check (only for responses that are not the API's, like /docs). */
  unchecked?: boolean;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: T extends unknown ? any : T;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body as BodyInit | undefined,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json') && text.length > 0) parsed = JSON.parse(text);
  if (!options.unchecked && method !== 'HEAD') {
    expect(type, `${method} ${path}: every API response is JSON`).toMatch(/^application\/json/);
    expectDocumented(method, path, response.status, parsed);
  }
  expect(response.headers.get('x-request-id'), `${method} ${path}: X-Request-Id`).toBeTruthy();
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** A bound client for one server. */
export function client(base: string) {
  return {
    call: (method: string, path: string, options?: CallOptions) => call(base, method, path, options),
    get: (path: string, options?: CallOptions) => call(base, 'GET', path, options),
    post: (path: string, json?: unknown, options?: CallOptions) =>
      call(base, 'POST', path, { ...options, json }),
    put: (path: string, json?: unknown, options?: CallOptions) =>
      call(base, 'PUT', path, { ...options, json }),
    del: (path: string, options?: CallOptions) => call(base, 'DELETE', path, options),
  };
}

let counter = 0;
/** A username no other test of the run uses (3-32 characters). */
export function uniqueName(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`.slice(0, 32);
}

/** Registers and logs in a fresh user; returns the token and ids. */
export async function newUser(
  base: string,
  options: { password?: string; email?: string } = {},
): Promise<{ token: string; id: number; username: string; password: string }> {
  const api = client(base);
  const username = uniqueName();
  const password = options.password ?? 'secret-pass';
  const registered = await api.post('/auth/register', {
    username,
    password,
    ...(options.email === undefined ? {} : { email: options.email }),
  });
  expect(registered.status).toBe(201);
  const login = await api.post('/auth/login', { username, password });
  expect(login.status).toBe(200);
  return { token: login.body.data.token, id: login.body.data.user.id, username, password };
}
