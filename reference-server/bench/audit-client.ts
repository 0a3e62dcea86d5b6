/**
 * What the audit benches share (bench:audit): plain HTTP from chosen loopback addresses, users,
 * projects, waiting for a task, and the built server in production mode around a piece of work.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuiltServer, benchServerEnv, startBuiltServer } from './built-server.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { code?: number; message?: string; data?: Record<string, unknown> | null; error?: string } | null;
  ms: number;
}

export function http(
  base: string,
  method: string,
  path: string,
  options: {
    json?: unknown;
    /** A body sent as it is (with the headers given). */
    raw?: Uint8Array;
    token?: string;
    headers?: Record<string, string>;
    from?: string;
  } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const body =
      options.raw !== undefined
        ? Buffer.from(options.raw)
        : options.json === undefined
          ? undefined
          : Buffer.from(JSON.stringify(options.json));
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: false,
        ...(options.from === undefined ? {} : { localAddress: options.from }),
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(body.length) }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let parsed: Answer['body'] = null;
          try {
            parsed = text.length > 0 ? (JSON.parse(text) as Answer['body']) : null;
          } catch {
            parsed = null;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: parsed,
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const say = (line: string) => console.log(line);

export async function user(base: string, password = 'secret-pass') {
  const username = `a${randomUUID().slice(0, 10)}`;
  await http(base, 'POST', '/auth/register', { json: { username, password }, from: '127.0.0.250' });
  const login = await http(base, 'POST', '/auth/login', {
    json: { username, password },
    from: '127.0.0.250',
  });
  return { username, password, token: String(login.body?.data?.token) };
}

export async function project(base: string, token: string, name = 'audit') {
  const created = await http(base, 'POST', '/api/v1/projects', { json: { name }, token });
  return String(created.body?.data?.id);
}

export async function waitEnd(base: string, token: string, taskId: string, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const task = await http(base, 'GET', `/api/v1/tasks/${taskId}`, { token });
    const status = task.body?.data?.status;
    if (status === 'completed' || status === 'failed' || task.status === 404) return task;
    if (Date.now() > deadline) return task;
    await sleep(100);
  }
}

export const PRODUCTION = {
  NODE_ENV: 'production',
  SCRYPT_COST: '17',
  // The shipped per-address limit (benchServerEnv lifts it for the other benches).
  REGISTER_IP_MAX: '20',
  JWT_SECRET: 'audit-secret-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789',
};

export async function withServer<T>(
  extra: Record<string, string>,
  work: (s: BuiltServer, dataDir: string) => Promise<T>,
) {
  const dataDir =
    (extra.DATA_DIR as string | undefined) ?? (await mkdtemp(join(tmpdir(), 'assetloom-audit-')));
  const server = await startBuiltServer(benchServerEnv(dataDir, { ...PRODUCTION, ...extra }));
  try {
    return await work(server, dataDir);
  } finally {
    await server.close();
    if (extra.DATA_DIR === undefined) await rm(dataDir, { recursive: true, force: true });
  }
}
