import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { client, newUser, startTestServer, type TestServer, testEnv } from '../helpers.js';
import { startS3rver, type TestS3 } from '../storage/helpers.js';
import { waitForTaskEnd } from '../task-helpers.js';

/**
 * S3_PUBLIC_ENDPOINT: the server talks to the bucket at S3_ENDPOINT (s3rver here, MinIO's
 * `http://minio:9000` in compose) while presigned URLs carry the origin clients use — here a
 * loopback reverse proxy in front of s3rver that keeps the Host header, as a public proxy would.
 */
function proxyTo(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

describe('S3_PUBLIC_ENDPOINT', () => {
  let server: TestServer | undefined;
  let s3: TestS3 | undefined;
  let proxy: Server | undefined;
  afterEach(async () => {
    await server?.destroy();
    server = undefined;
    proxy?.closeAllConnections();
    await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    proxy = undefined;
    await s3?.close();
    s3 = undefined;
  });

  it('signs download URLs for the public origin; they download through it', async () => {
    s3 = await startS3rver('public-bucket');
    const front = await proxyTo(s3.endpoint);
    proxy = front.server;
    server = await startTestServer(
      { kind: 'embedded' },
      {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_PUBLIC_ENDPOINT: front.url,
        S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
        WORKER_POLL_MS: '50',
      },
    );
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Public' }, { token: user.token });
    const task = await api.post(
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'a lantern',
        assetType: 'sprite',
        params: { resolution: 16 },
      },
      { token: user.token },
    );
    const taskId = task.body.data.taskId as string;
    expect(await waitForTaskEnd(server.url, user.token, taskId)).toMatchObject({ status: 'completed' });
    const assets = await api.get(`/api/v1/tasks/${taskId}/assets`, { token: user.token });
    const sheet = (assets.body.data.assets as { key: string; url: string }[]).find((a) =>
      a.key.endsWith('.png'),
    );
    const url = sheet?.url ?? '';
    expect(url.startsWith(`${front.url}/${s3.bucket}/`)).toBe(true);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    // (s3rver does not check the signed Host, so the URL sent to its own origin would pass too;
    // MinIO and S3 refuse it.) The server never signs for its own endpoint once a public one is set:
    expect(url.startsWith(s3.endpoint)).toBe(false);
  });

  it('must be an http(s) URL', () => {
    const loaded = loadConfig(
      testEnv({ STORAGE_DRIVER: 's3', S3_BUCKET: 'bucket-name', S3_PUBLIC_ENDPOINT: 'ftp://x' }),
    );
    expect(!loaded.ok && loaded.error.message).toMatch(/S3_PUBLIC_ENDPOINT/);
  });
});
