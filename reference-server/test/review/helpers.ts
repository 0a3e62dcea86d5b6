import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { reviewAuthDocument } from '@assetloom/openapi';
import { uniqueDbName } from '@assetloom/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { loadConfig, type ServerConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { ReviewPartsOptions } from '../../src/review/setup.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { type StoreTarget, testEnv } from '../helpers.js';

export interface ReviewTestServer {
  url: string;
  running: RunningServer;
  config: ServerConfig;
  /** Every log line the server wrote (JSON text). */
  logs: string[];
  destroy(): Promise<void>;
}

/** Starts the whole server (asset API + review helper) on 127.0.0.1:0 over a fresh store. */
export async function startReviewServer(
  target: StoreTarget,
  options: { env?: Record<string, string>; review?: Omit<ReviewPartsOptions, 'logger'> } = {},
): Promise<ReviewTestServer> {
  const storeEnv: Record<string, string> =
    target.kind === 'embedded'
      ? { DATA_DIR: await mkdtemp(join(tmpdir(), 'assetloom-review-')) }
      : { MONGODB_URI: target.uri, MONGODB_DB: uniqueDbName('review') };
  const loaded = loadConfig(testEnv({ ...storeEnv, LOG_LEVEL: 'info', ...options.env }));
  if (!loaded.ok) throw loaded.error;
  const config = loaded.value;
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const running = await startServer(config, {
    logger: createLogger(config.logging.level, sink),
    review: { purgeEveryMs: 0, ...options.review },
  });
  return {
    url: running.url,
    running,
    config,
    logs,
    async destroy() {
      await running.close();
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
  };
}

// ---- responses checked against openapi/review-auth.yaml ----

const ajv = new Ajv2020({ strict: false });
const doc = reviewAuthDocument as unknown as {
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> }
    >
  >;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  };
};
ajv.addSchema({ $id: 'urn:assetloom:review-auth', components: doc.components });

function schemaFor(path: string, method: string, status: number): unknown | null | undefined {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation) return undefined;
  let response = operation.responses[String(status)];
  if (!response) return undefined;
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop() as string] ?? {};
  const schema = response.content?.['application/json']?.schema;
  if (schema === undefined) return null;
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"urn:assetloom:review-auth#/'));
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are inspected field by field
  body: any;
  /** The `review_sid` value this response set ('' when it cleared it, undefined when untouched). */
  cookie: string | undefined;
  setCookie: string | undefined;
}

export interface SendOptions {
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  cookie?: string;
}

/** One request; documented operations are checked against the contract (status declared, body valid). */
export async function send(
  base: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  if (options.cookie !== undefined) headers.cookie = `review_sid=${options.cookie}`;
  const response = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const parsed = type.startsWith('application/json') && text.length > 0 ? JSON.parse(text) : null;
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('review_sid='));
  const cookie = setCookie === undefined ? undefined : (/^review_sid=([^;]*)/.exec(setCookie)?.[1] ?? '');

  const schema = schemaFor(path, method, response.status);
  if (doc.paths[path]?.[method.toLowerCase()] && !(response.status === 405)) {
    expect(
      schema,
      `${method} ${path} → ${response.status} is not declared in review-auth.yaml`,
    ).not.toBeUndefined();
    if (schema) {
      const validate = ajv.compile(schema as object);
      expect(
        validate(parsed),
        `${method} ${path} → ${response.status}: ${JSON.stringify(validate.errors)} in ${text}`,
      ).toBe(true);
    }
  }
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return { status: response.status, headers: response.headers, text, body: parsed, cookie, setCookie };
}

let counter = 0;
/** An e-mail no other test of the run uses. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}
