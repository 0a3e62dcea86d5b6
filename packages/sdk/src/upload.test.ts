import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createAssetClient } from './asset-client.js';
import { sniffImageType } from './upload.js';

// uploadImage over a real socket on 127.0.0.1: the server here keeps what arrives and answers the
// contract's envelope (the reference server's own upload tests cover what it does with the bytes).
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function receiver() {
  const got: Array<{ type: string | undefined; chunked: boolean; bytes: Buffer; auth: string | undefined }> =
    [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      got.push({
        type: req.headers['content-type'],
        chunked: req.headers['transfer-encoding'] === 'chunked',
        bytes,
        auth: req.headers.authorization,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 0,
          message: 'ok',
          data: {
            uploadId: 'u1',
            width: 1,
            height: 1,
            format: 'png',
            bytes: bytes.length,
            animated: false,
            createdAt: '2026-01-01T00:00:00.000Z',
            expiresAt: null,
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, got };
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, ...new Array(300_000).fill(7)]);

describe('uploadImage', () => {
  test('sends a file path’s bytes with the type read from them, streamed with progress up to the total', async () => {
    const { url, got } = await receiver();
    const dir = await mkdtemp(join(tmpdir(), 'assetloom-sdk-'));
    const path = join(dir, 'picture.bin');
    await writeFile(path, PNG);
    const api = createAssetClient({ baseUrl: url, token: 'tok' });
    const progress: number[] = [];
    const result = await api.uploadImage(path, { onProgress: (p) => progress.push(p.loaded / p.total) });
    expect(result.error).toBeUndefined();
    expect(result.data?.uploadId).toBe('u1');
    expect(got[0]).toMatchObject({ type: 'image/png', chunked: true, auth: 'Bearer tok' });
    expect(Buffer.compare(got[0]!.bytes, Buffer.from(PNG))).toBe(0);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  test('a Blob keeps its own image type; bytes without progress go whole', async () => {
    const { url, got } = await receiver();
    const api = createAssetClient({ baseUrl: url, token: 'tok' });
    await api.uploadImage(new Blob([PNG.subarray(0, 100)], { type: 'image/webp' }));
    await api.uploadImage(PNG.subarray(0, 50));
    expect(got.map((g) => [g.type, g.chunked, g.bytes.length])).toEqual([
      ['image/webp', false, 100],
      ['image/png', false, 50],
    ]);
  });

  test('a path that does not exist is an error result, nothing sent', async () => {
    const { url, got } = await receiver();
    const api = createAssetClient({ baseUrl: url });
    const result = await api.uploadImage('/nonexistent/picture.png');
    expect(result.error?.message).toMatch(/ENOENT|no such file/);
    expect(got).toHaveLength(0);
  });

  test.each([
    [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], 'image/gif'],
    [[0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50], 'image/webp'],
    [[1, 2, 3], 'application/octet-stream'],
  ])('sniffs %j as %s', (bytes, type) => {
    expect(sniffImageType(Uint8Array.from(bytes))).toBe(type);
  });
});
