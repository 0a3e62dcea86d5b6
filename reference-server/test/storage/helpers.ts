import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Router from '@koa/router';
import Koa from 'koa';
import S3rver from 's3rver';

/** The files under `path` (recursively), as sorted paths relative to it. */
export async function filesUnder(path: string): Promise<string[]> {
  return (await readdir(path, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(path.length + 1))
    .sort();
}

/** A fresh temporary folder; `remove()` deletes it. */
export async function tempDir(label: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `assetloom-storage-${label}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export interface TestApp {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A bare Koa app on 127.0.0.1 (random port) mounting the given routers, nothing else. */
export async function serveRouters(...routers: Router[]): Promise<TestApp> {
  const app = new Koa();
  app.silent = true;
  for (const router of routers) app.use(router.routes());
  return listen(app);
}

/** Listens on 127.0.0.1 with a random free port. */
export async function listen(app: Koa<never, never> | Koa): Promise<TestApp> {
  const server: Server = await new Promise((resolve, reject) => {
    const s = (app as Koa).listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends `path` exactly as given (no URL normalization, unlike fetch), so `../`, `%2e%2e` and
 * `//` reach the server as written.
 */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export function envelopeOf(response: RawResponse): unknown {
  return JSON.parse(response.body.toString('utf8'));
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/** s3rver on 127.0.0.1 (random port) over a temporary folder, with one bucket; its own credentials S3RVER/S3RVER. */
export async function startS3rver(bucket = 'assetloom-test'): Promise<TestS3> {
  const dir = await tempDir('s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: dir.path,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      await server.close();
      await dir.remove();
    },
  };
}

/** A small but real PNG (1×1, opaque red). */
export const PNG_1X1 = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

export const SECRET = 'storage-test-secret-0123456789-abcdefghijklmnop';
