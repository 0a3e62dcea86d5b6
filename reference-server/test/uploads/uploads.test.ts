import { injectMongoUri } from '@assetloom/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, client, newUser, type StoreTarget, startTestServer, type TestServer } from '../helpers.js';
import { waitForTaskEnd } from '../task-helpers.js';
import {
  animatedGif,
  asApng,
  bombHeader,
  gif,
  jpeg,
  pngChunkTypes,
  pngVariants,
  realBomb,
  webp,
} from './fixtures.js';

/** The stable reasons of the upload messages (decision 0037; the contract's ErrorReason). */
const REASONS: Record<string, string> = {
  图片无法读取: 'image_unreadable',
  图片过大: 'image_too_large',
  图片尺寸过大: 'image_dimensions',
};

/**
 * POST /api/v1/uploads (issue #31, decision 0034) over real sockets with the real decoder (sharp):
 * every format and PNG colour type read, every bad upload answered with the envelope (never 500),
 * metadata gone from what is stored, ownership like tasks, the per-user quota, and a project's
 * deletion taking the uploads only its tasks used.
 */
const mongoUri = injectMongoUri('reference-server uploads suite on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

const LIMIT_BYTES = 300_000;
const LIMIT_PIXELS = 1_000_000;

async function upload(base: string, token: string, body: Uint8Array | FormData, type?: string) {
  return call(base, 'POST', '/api/v1/uploads', {
    token,
    ...(body instanceof FormData ? {} : { raw: body }),
    ...(type === undefined ? {} : { headers: { 'content-type': type } }),
    ...(body instanceof FormData ? { raw: undefined } : {}),
  }).catch(async () => {
    throw new Error('upload call failed');
  });
}

async function uploadForm(base: string, token: string, form: FormData) {
  const res = await fetch(`${base}/api/v1/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: number; message: string; data: Record<string, unknown> | null },
  };
}

describe.each(targets)('uploads on the %s store', (_name, target) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let alice: Awaited<ReturnType<typeof newUser>>;
  let bob: Awaited<ReturnType<typeof newUser>>;

  beforeAll(async () => {
    if (target === null) return;
    server = await startTestServer(target, {
      UPLOAD_MAX_BYTES: String(LIMIT_BYTES),
      UPLOAD_MAX_PIXELS: String(LIMIT_PIXELS),
      UPLOAD_MAX_SIDE: '2048',
      USER_MAX_UPLOAD_BYTES: '0',
    });
    api = client(server.url);
    alice = await newUser(server.url);
    bob = await newUser(server.url);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it.skipIf(target === null)('reads every PNG colour type and bit depth, interlaced too', async () => {
    for (const [name, bytes] of Object.entries(await pngVariants())) {
      const res = await upload(server.url, alice.token, bytes, 'image/png');
      expect(res.status, name).toBe(200);
      expect(res.body.data, name).toMatchObject({ width: 48, height: 32, format: 'png', animated: false });
      expect(res.body.data.expiresAt, name).toBeTypeOf('string');
    }
  });

  it.skipIf(target === null)(
    'reads JPEG (baseline, progressive), WebP (lossy, lossless) and GIF',
    async () => {
      const cases: [string, Uint8Array, string, string][] = [
        ['baseline jpeg', await jpeg(), 'image/jpeg', 'jpeg'],
        ['progressive jpeg', await jpeg({ progressive: true }), 'image/jpeg', 'jpeg'],
        ['lossy webp', await webp(false), 'image/webp', 'webp'],
        ['lossless webp', await webp(true), 'image/webp', 'webp'],
        ['gif', await gif(), 'image/gif', 'gif'],
        ['octet-stream png', (await pngVariants())['rgb-8']!, 'application/octet-stream', 'png'],
      ];
      for (const [name, bytes, type, format] of cases) {
        const res = await upload(server.url, alice.token, bytes, type);
        expect(res.status, name).toBe(200);
        expect(res.body.data, name).toMatchObject({ width: 48, height: 32, format });
      }
    },
  );

  it.skipIf(target === null)(
    'keeps the first frame of an animated GIF or APNG and says it was animated',
    async () => {
      const res = await upload(server.url, alice.token, await animatedGif(), 'image/gif');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ width: 48, height: 32, animated: true });
      const stored = await server.running.storage.get(
        `users/${alice.id}/uploads/${res.body.data.uploadId}.png`,
      );
      const { data } = await import('sharp').then((m) =>
        m.default(stored!.bytes).raw().toBuffer({ resolveWithObject: true }),
      );
      // pixel (0, 0) of the first frame is blue; the second frame is all green
      expect([...data.subarray(0, 3)]).toEqual([20, 40, 200]);
      const apng = await upload(
        server.url,
        alice.token,
        asApng((await pngVariants())['rgba-8']!),
        'image/png',
      );
      expect(apng.status).toBe(200);
      expect(apng.body.data.animated).toBe(true);
    },
  );

  it.skipIf(target === null)('stores a PNG without the metadata it came with', async () => {
    const withExif = await jpeg({ exif: true });
    expect(Buffer.from(withExif).includes('secret camera owner')).toBe(true);
    const res = await upload(server.url, alice.token, withExif, 'image/jpeg');
    expect(res.status).toBe(200);
    const stored = await server.running.storage.get(
      `users/${alice.id}/uploads/${res.body.data.uploadId}.png`,
    );
    expect(stored?.contentType).toBe('image/png');
    const types = pngChunkTypes(stored!.bytes);
    expect(types.filter((t) => !['IHDR', 'IDAT', 'IEND'].includes(t))).toEqual([]);
    expect(Buffer.from(stored!.bytes).includes('secret camera owner')).toBe(false);
  });

  it.skipIf(target === null)('takes multipart/form-data (the first file part)', async () => {
    const form = new FormData();
    form.append('note', 'not the picture');
    form.append('file', new Blob([await webp(true)], { type: 'image/webp' }), 'me.webp');
    const res = await uploadForm(server.url, alice.token, form);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ width: 48, height: 32, format: 'webp' });
    const none = new FormData();
    none.append('note', 'no file here');
    const bad = await uploadForm(server.url, alice.token, none);
    expect(bad.body).toEqual({
      code: 400,
      message: '图片无法读取',
      data: expect.objectContaining({ reason: 'image_unreadable' }),
    });
  });

  it.skipIf(target === null)(
    'answers every bad upload with the envelope: 400 or 413, never 500',
    async () => {
      const png = (await pngVariants())['rgba-8']!;
      const photo = await jpeg();
      const bigNoise = new Uint8Array(LIMIT_BYTES + 1);
      bigNoise.set(png.subarray(0, 64));
      const cases: [string, Uint8Array, string | undefined, number, string][] = [
        ['zero bytes', new Uint8Array(), 'image/png', 400, '图片无法读取'],
        ['not an image', new TextEncoder().encode('hello, I am text'), 'image/png', 400, '图片无法读取'],
        ['a PNG cut short', png.subarray(0, 60), 'image/png', 400, '图片无法读取'],
        [
          'a JPEG cut in its scan',
          photo.subarray(0, Math.floor(photo.length * 0.6)),
          'image/jpeg',
          400,
          '图片无法读取',
        ],
        ['a GIF cut short', (await gif()).subarray(0, 20), 'image/gif', 400, '图片无法读取'],
        ['JPEG bytes declared PNG', photo, 'image/png', 400, '图片无法读取'],
        ['no content type', png, undefined, 400, '图片无法读取'],
        ['a text content type', png, 'text/plain', 400, '图片无法读取'],
        ['a JSON content type', png, 'application/json', 400, '图片无法读取'],
        [
          'an SVG',
          new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          'image/svg+xml',
          400,
          '图片无法读取',
        ],
      ];
      for (const [name, bytes, type, status, message] of cases) {
        const res = await upload(server.url, alice.token, bytes, type);
        const reason = REASONS[message];
        expect(res.body, name).toEqual({ code: status, message, data: { reason } });
        expect(res.status, name).toBe(status);
      }
      // A refusal by a limit names the bound and the picture's own figure (decision 0052).
      const limited: [string, Uint8Array, string, object][] = [
        [
          'over UPLOAD_MAX_BYTES',
          bigNoise,
          '图片过大',
          // the body is read up to the bound and no further: its own size is not known
          { max: LIMIT_BYTES, unit: 'bytes' },
        ],
        [
          'a header claiming 60000 × 60000',
          bombHeader(60000, 60000),
          '图片尺寸过大',
          { max: 2048, unit: 'side', actual: 60000 },
        ],
        [
          'a side over UPLOAD_MAX_SIDE',
          bombHeader(4000, 10),
          '图片尺寸过大',
          { max: 2048, unit: 'side', actual: 4000 },
        ],
        [
          'more pixels than UPLOAD_MAX_PIXELS',
          await realBomb(1200),
          '图片尺寸过大',
          { max: LIMIT_PIXELS, unit: 'pixels', actual: 1200 * 1200 },
        ],
      ];
      for (const [name, bytes, message, limit] of limited) {
        const res = await upload(server.url, alice.token, bytes, 'image/png');
        expect(res.body, name).toEqual({ code: 413, message, data: { reason: REASONS[message], limit } });
      }
    },
  );

  it.skipIf(target === null)('asks for a token first', async () => {
    const res = await call(server.url, 'POST', '/api/v1/uploads', {
      raw: (await pngVariants())['rgb-8']!,
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(401);
  });

  it.skipIf(target === null)("refuses another user's upload like a task: 403, unknown 404", async () => {
    const mine = await upload(server.url, alice.token, await gif(), 'image/gif');
    const id = mine.body.data.uploadId as string;
    expect((await api.get(`/api/v1/uploads/${id}`, { token: alice.token })).status).toBe(200);
    expect((await api.get(`/api/v1/uploads/${id}`, { token: bob.token })).body).toEqual({
      code: 403,
      message: '无权访问该上传',
      data: { reason: 'upload_forbidden' },
    });
    expect((await api.get('/api/v1/uploads/nope', { token: bob.token })).body.code).toBe(404);
    expect((await api.get('/api/v1/uploads/..%2F..', { token: bob.token })).body.code).toBe(404);
    expect((await api.del(`/api/v1/uploads/${id}`, { token: bob.token })).body.code).toBe(403);
    const project = await api.post('/api/v1/projects', { name: 'bob' }, { token: bob.token });
    const stolen = await api.post(
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'pixelate it',
        assetType: 'sprite',
        params: { image: { uploadId: id, strength: 0 } },
      },
      { token: bob.token },
    );
    expect(stolen.body).toEqual({
      code: 403,
      message: '无权访问该上传',
      data: { reason: 'upload_forbidden' },
    });
    const unknown = await api.post(
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'pixelate it',
        assetType: 'sprite',
        params: { paletteFrom: { uploadId: 'AAAAAAAAAAAAAAAAAAAAAAAA' } },
      },
      { token: bob.token },
    );
    expect(unknown.body).toEqual({ code: 404, message: '上传不存在', data: { reason: 'upload_not_found' } });
    // the object itself is no download either
    const key = `users/${alice.id}/uploads/${id}.png`;
    expect(
      (await call(server.url, 'GET', `/api/v1/assets/download?key=${encodeURIComponent(key)}`)).status,
    ).toBe(404);
  });

  it.skipIf(target === null)('a mask must be the size of its image, with a strength above 0', async () => {
    const project = await api.post('/api/v1/projects', { name: 'mask' }, { token: alice.token });
    const image = (await upload(server.url, alice.token, await gif(), 'image/gif')).body.data.uploadId;
    const small = (await upload(server.url, alice.token, await smallPng(), 'image/png')).body.data.uploadId;
    const body = (params: unknown) => ({
      projectId: project.body.data.id,
      prompt: 'a knight',
      assetType: 'sprite',
      params,
    });
    const wrongSize = await api.post(
      '/api/v1/generate',
      body({ image: { uploadId: image, strength: 0.6 }, mask: { uploadId: small } }),
      { token: alice.token },
    );
    expect(wrongSize.body).toEqual({
      code: 400,
      message: '参数错误',
      data: expect.objectContaining({ reason: 'invalid_request' }),
    });
    const pixelate = await api.post(
      '/api/v1/generate',
      body({ image: { uploadId: image, strength: 0 }, mask: { uploadId: image } }),
      { token: alice.token },
    );
    // the refusal names the field (issue #37: it carried no data.errors)
    expect(pixelate.body).toEqual({
      code: 400,
      message: '参数错误',
      data: {
        reason: 'invalid_request',
        errors: [
          {
            in: 'body',
            path: '/params/mask',
            rule: 'image',
            message: '需要 params.image.strength 大于 0（strength 为 0 会把整张图像素化）',
          },
        ],
      },
    });
    const alone = await api.post('/api/v1/generate', body({ mask: { uploadId: image } }), {
      token: alice.token,
      headers: { 'accept-language': 'en' },
    });
    expect(alone.body.code).toBe(400);
    expect(alone.body.data.errors).toEqual([
      {
        in: 'body',
        path: '/params/mask',
        rule: 'image',
        message: 'needs params.image (the picture to edit)',
      },
    ]);
  });

  it.skipIf(target === null)('deleting a project removes the uploads only its tasks used', async () => {
    const p1 = (await api.post('/api/v1/projects', { name: 'one' }, { token: alice.token })).body.data.id;
    const p2 = (await api.post('/api/v1/projects', { name: 'two' }, { token: alice.token })).body.data.id;
    const only = (await upload(server.url, alice.token, await jpeg(), 'image/jpeg')).body.data.uploadId;
    const shared = (await upload(server.url, alice.token, await webp(true), 'image/webp')).body.data.uploadId;
    const unused = (await upload(server.url, alice.token, await gif(), 'image/gif')).body.data.uploadId;
    const submit = async (projectId: string, uploadId: string, prompt: string) => {
      const res = await api.post(
        '/api/v1/generate',
        {
          projectId,
          prompt,
          assetType: 'sprite',
          params: { resolution: 32, image: { uploadId, strength: 0 } },
        },
        { token: alice.token },
      );
      expect(res.status).toBe(200);
      return res.body.data.taskId as string;
    };
    const t1 = await submit(p1, only, 'one');
    await submit(p1, shared, 'shared here');
    const t3 = await submit(p2, shared, 'shared there');
    for (const t of [t1, t3]) await waitForTaskEnd(server.url, alice.token, t);
    // used uploads never expire while their task exists
    expect((await api.get(`/api/v1/uploads/${only}`, { token: alice.token })).body.data.expiresAt).toBeNull();
    expect((await api.del(`/api/v1/uploads/${only}`, { token: alice.token })).body).toEqual({
      code: 409,
      message: '上传正被任务使用',
      data: { reason: 'upload_in_use' },
    });
    expect((await api.del(`/api/v1/projects/${p1}`, { token: alice.token })).status).toBe(200);
    expect((await api.get(`/api/v1/uploads/${only}`, { token: alice.token })).status).toBe(404);
    expect(await server.running.storage.exists(`users/${alice.id}/uploads/${only}.png`)).toBe(false);
    expect((await api.get(`/api/v1/uploads/${shared}`, { token: alice.token })).status).toBe(200);
    expect((await api.get(`/api/v1/uploads/${unused}`, { token: alice.token })).status).toBe(200);
    expect((await api.del(`/api/v1/uploads/${unused}`, { token: alice.token })).status).toBe(200);
    expect(await server.running.storage.exists(`users/${alice.id}/uploads/${unused}.png`)).toBe(false);
  });
});

describe('the per-user upload quota', () => {
  it('answers 413 上传空间已达上限 once the stored uploads reach USER_MAX_UPLOAD_BYTES', async () => {
    const server = await startTestServer({ kind: 'embedded' }, { USER_MAX_UPLOAD_BYTES: '2000' });
    try {
      const user = await newUser(server.url);
      const png = (await pngVariants())['rgba-8']!;
      const statuses: number[] = [];
      for (let i = 0; i < 20 && !statuses.includes(413); i++) {
        statuses.push((await upload(server.url, user.token, png, 'image/png')).status);
      }
      expect(statuses[0]).toBe(200);
      expect(statuses.at(-1)).toBe(413);
      const last = await upload(server.url, user.token, png, 'image/png');
      expect(last.body).toEqual({
        code: 413,
        message: '上传空间已达上限',
        data: { reason: 'upload_quota', limit: { max: 2000, unit: 'bytes', actual: expect.any(Number) } },
      });
      expect(last.body.data.limit.actual).toBeGreaterThan(2000);
      // another user has a quota of their own
      const other = await newUser(server.url);
      expect((await upload(server.url, other.token, png, 'image/png')).status).toBe(200);
    } finally {
      await server.destroy();
    }
  });
});

/** A valid 8 × 8 PNG (for a mask of the wrong size). */
function smallPng(): Promise<Uint8Array> {
  return sharp({ create: { width: 8, height: 8, channels: 4, background: '#ffffff' } })
    .png()
    .toBuffer();
}

describe('images in, end to end', () => {
  it('pixelates an uploaded JPEG (strength 0): a 48 px sprite with its backdrop gone, every engine file', async () => {
    const server = await startTestServer({ kind: 'embedded' });
    try {
      const api = client(server.url);
      const user = await newUser(server.url);
      const photo = await sharp({
        create: { width: 800, height: 600, channels: 3, background: { r: 245, g: 245, b: 240 } },
      })
        .composite([
          {
            input: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><circle cx="400" cy="300" r="220" fill="#d83a2a"/><circle cx="330" cy="240" r="60" fill="#ffd0a0"/></svg>',
            ),
          },
        ])
        .jpeg({ quality: 85 })
        .toBuffer();
      const uploaded = await upload(server.url, user.token, photo, 'image/jpeg');
      expect(uploaded.body.data).toMatchObject({ width: 800, height: 600, format: 'jpeg' });
      const project = (await api.post('/api/v1/projects', { name: 'pixelate' }, { token: user.token })).body
        .data.id;
      const submitted = await api.post(
        '/api/v1/generate',
        {
          projectId: project,
          prompt: 'pixelate my picture',
          assetType: 'sprite',
          params: { resolution: 48, image: { uploadId: uploaded.body.data.uploadId, strength: 0 } },
        },
        { token: user.token },
      );
      expect(submitted.status).toBe(200);
      const task = await waitForTaskEnd(server.url, user.token, submitted.body.data.taskId);
      expect(task, JSON.stringify(task)).toMatchObject({
        status: 'completed',
        params: { image: { strength: 0 }, frames: { directions: 1, framesPerDirection: 1 } },
      });
      const assets = (await api.get(`/api/v1/tasks/${task.taskId}/assets`, { token: user.token })).body.data
        .assets;
      const sheet = assets.find((a: { format: string }) => a.format === 'png');
      expect(sheet).toMatchObject({ width: 48, height: 48 });
      expect(Object.keys(sheet.metadata.atlas)).toEqual(
        expect.arrayContaining(['godot', 'aseprite', 'unity']),
      );
      const bytes = new Uint8Array(await (await fetch(sheet.url)).arrayBuffer());
      const { data } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect(data[3]).toBe(0); // corner: backdrop removed
      expect(data[(24 * 48 + 30) * 4 + 3]).toBe(255); // the red disc
    } finally {
      await server.destroy();
    }
  });

  it('refuses a mask on the built-in generator by name at submission (issue #37: no task that can only fail)', async () => {
    const server = await startTestServer({ kind: 'embedded' });
    try {
      const api = client(server.url);
      const user = await newUser(server.url);
      const image = (await upload(server.url, user.token, await gif(), 'image/gif')).body.data.uploadId;
      const project = (await api.post('/api/v1/projects', { name: 'mask' }, { token: user.token })).body.data
        .id;
      const submitted = await api.post(
        '/api/v1/generate',
        {
          projectId: project,
          prompt: 'a red hat',
          assetType: 'sprite',
          params: { image: { uploadId: image, strength: 0.6 }, mask: { uploadId: image } },
        },
        { token: user.token, headers: { 'accept-language': 'en' } },
      );
      expect(submitted.status).toBe(400);
      expect(submitted.body.data.errors).toEqual([
        {
          in: 'body',
          path: '/params/mask',
          rule: 'image',
          message: expect.stringMatching(/the built-in generator cannot repaint part of a picture/),
        },
      ]);
      const tasks = await api.get(`/api/v1/projects/${project}/tasks`, { token: user.token });
      expect(tasks.body.data.total).toBe(0);
    } finally {
      await server.destroy();
    }
  });
});
