import { encodePng } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../embedded.js';
import { type AssetService, createAssetService } from '../service.js';
import type { AuthUser } from '../types.js';
import { extractMultipartFile } from './multipart.js';
import { createPngDecoder } from './png-decoder.js';
import { declaredFormat, probeImage } from './probe.js';
import { createUploadService, type UploadService } from './service.js';

const png = (w: number, h: number, rgb = [200, 30, 30]) => {
  const data = new Uint8Array(w * h * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return encodePng(data, w, h);
};

/** A baseline JPEG's first bytes up to its frame header (SOF0 stating `w × h`) and a little scan. */
function jpegHead(w: number, h: number): Uint8Array {
  return Uint8Array.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    0xff,
    0xc0,
    0,
    11,
    8,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    1,
    1,
    0x11,
    0,
    0xff,
    0xda,
    0,
    8,
    1,
    1,
    0,
    0,
    63,
    0,
    1,
    2,
    3,
    4,
  ]);
}

function gifHead(w: number, h: number, frames: number): Uint8Array {
  const head = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, w & 255, w >> 8, h & 255, h >> 8, 0, 0, 0];
  const image = [0x2c, 0, 0, 0, 0, w & 255, w >> 8, h & 255, h >> 8, 0, 2, 2, 0x4c, 0x01, 0];
  return Uint8Array.from([...head, ...Array.from({ length: frames }, () => image).flat(), 0x3b]);
}

function webpLossless(w: number, h: number): Uint8Array {
  const bits = (w - 1) | ((h - 1) << 14);
  const b = new Uint8Array(30);
  b.set([...new TextEncoder().encode('RIFF')], 0);
  b.set([...new TextEncoder().encode('WEBPVP8L')], 8);
  b[20] = 0x2f;
  b.set([bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, (bits >>> 24) & 255], 21);
  return b;
}

describe('probeImage: format by signature, size from the header, before any decoding', () => {
  it.each([
    ['png', png(7, 5), { format: 'png', width: 7, height: 5, animated: false }],
    ['jpeg', jpegHead(640, 480), { format: 'jpeg', width: 640, height: 480, animated: false }],
    ['gif', gifHead(33, 21, 1), { format: 'gif', width: 33, height: 21, animated: false }],
    ['animated gif', gifHead(33, 21, 2), { format: 'gif', width: 33, height: 21, animated: true }],
    ['webp lossless', webpLossless(300, 200), { format: 'webp', width: 300, height: 200, animated: false }],
  ] as const)('%s', (_n, bytes, want) => {
    expect(probeImage(bytes)).toEqual({ ok: true, ...want });
  });

  it.each([
    ['empty', new Uint8Array(), 'empty'],
    ['text', new TextEncoder().encode('<html>not an image</html>'), 'unknown-format'],
    ['a PNG cut in its header', png(7, 5).subarray(0, 20), 'truncated'],
    ['a PNG without image data', png(7, 5).subarray(0, 33), 'truncated'],
    ['a JPEG cut before its frame', jpegHead(10, 10).subarray(0, 22), 'truncated'],
    ['a GIF cut in its first image', gifHead(5, 5, 1).subarray(0, 20), 'truncated'],
  ] as const)('refuses %s', (_n, bytes, reason) => {
    expect(probeImage(bytes)).toMatchObject({ ok: false, reason });
  });

  it("counts a JPEG's scans and refuses more than the limit, as TurboJPEG's scan limit does (issue #37)", () => {
    // a frame header, then `scans` scans of one byte of entropy data each (stuffed 0xFF 0x00 and a
    // restart marker inside the data are no markers)
    const withScans = (scans: number) => {
      const scan = [0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0x12, 0xff, 0x00, 0xff, 0xd0, 0x34];
      const head = jpegHead(16, 16).subarray(0, 33);
      return Uint8Array.from([...head, ...Array.from({ length: scans }, () => scan).flat(), 0xff, 0xd9]);
    };
    expect(probeImage(withScans(64))).toMatchObject({ ok: true, width: 16, height: 16 });
    expect(probeImage(withScans(65))).toMatchObject({ ok: false, reason: 'too-many-scans' });
    expect(probeImage(withScans(10), { maxJpegScans: 9 })).toMatchObject({ reason: 'too-many-scans' });
    expect(probeImage(withScans(2649))).toMatchObject({ ok: false, reason: 'too-many-scans' });
  });

  it('reads declared content types', () => {
    expect(declaredFormat('image/png')).toBe('png');
    expect(declaredFormat('IMAGE/JPEG; q=1')).toBe('jpeg');
    expect(declaredFormat('application/octet-stream')).toBe('any');
    expect(declaredFormat('multipart/form-data; boundary=x')).toBe('multipart');
    expect(declaredFormat('text/plain')).toBeNull();
    expect(declaredFormat(undefined)).toBeNull();
  });
});

describe('extractMultipartFile', () => {
  it('takes the first part with a file name, with its bytes exactly', async () => {
    const form = new FormData();
    form.append('note', 'hello');
    const bytes = png(3, 3);
    form.append('file', new Blob([bytes as BlobPart], { type: 'image/png' }), 'a.png');
    const request = new Request('http://x', { method: 'POST', body: form });
    const body = new Uint8Array(await request.arrayBuffer());
    const got = extractMultipartFile(body, request.headers.get('content-type'));
    expect(got).toMatchObject({ ok: true, contentType: 'image/png', filename: 'a.png' });
    if (got.ok) expect([...got.bytes]).toEqual([...bytes]);
  });
  it('refuses a body without a boundary or without a file', () => {
    expect(extractMultipartFile(new Uint8Array(3), 'multipart/form-data')).toMatchObject({ ok: false });
    const body = new TextEncoder().encode(
      '--b\r\ncontent-disposition: form-data; name="x"\r\n\r\nv\r\n--b--\r\n',
    );
    expect(extractMultipartFile(body, 'multipart/form-data; boundary=b')).toMatchObject({ ok: false });
  });
});

describe('the upload service over a store', () => {
  async function setup() {
    let now = new Date('2026-01-01T00:00:00Z');
    const clock = { now: () => now };
    const store = createEmbeddedStore();
    await store.init();
    const objects = new Map<string, Uint8Array>();
    const uploads: UploadService = createUploadService({
      store,
      clock,
      decoder: createPngDecoder(),
      objects: {
        put: async (key, bytes) => void objects.set(key, bytes),
        get: async (key) => (objects.has(key) ? { bytes: objects.get(key)! } : null),
        delete: async (keys) => {
          for (const k of keys) objects.delete(k);
        },
      },
      limits: { ttlSeconds: 3600 },
    });
    const service: AssetService = createAssetService({
      store,
      clock,
      uploads,
      hasher: { hash: async (p) => p, verify: async (p, s) => p === s },
      tokens: { issue: async () => ({ token: 't', expiresIn: 1 }), verify: async () => null },
    });
    const user: AuthUser = {
      id: 1,
      username: 'a',
      email: null,
      tokenVersion: 0,
      createdAt: '',
      updatedAt: '',
    };
    const project = await service.createProject(user, { name: 'p' });
    return {
      store,
      uploads,
      service,
      user,
      project,
      objects,
      advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    };
  }

  it('dedupes by content: the same picture uploaded twice is the same task; another picture is another', async () => {
    const { uploads, service, user, project } = await setup();
    const a = await uploads.upload(user, { bytes: png(8, 8), contentType: 'image/png' });
    const b = await uploads.upload(user, { bytes: png(8, 8), contentType: 'image/png' });
    const c = await uploads.upload(user, { bytes: png(8, 8, [0, 0, 255]), contentType: 'image/png' });
    expect(a.uploadId).not.toBe(b.uploadId);
    const submit = (uploadId: string) =>
      service.submitTask(user, {
        projectId: project.id,
        prompt: 'pixelate',
        assetType: 'sprite',
        params: { image: { uploadId, strength: 0 } },
      });
    const first = await submit(a.uploadId);
    expect((await submit(b.uploadId)).taskId).toBe(first.taskId);
    // the task keeps the inputs it names (the worker reads them from its stored params)
    expect((await service.getTask(user, first.taskId)).params.image).toEqual({
      uploadId: a.uploadId,
      strength: 0,
    });
    expect((await submit(c.uploadId)).taskId).not.toBe(first.taskId);
  });

  it('sweeps an upload no task uses after its lifetime, keeps one a task uses, and a naming restarts it', async () => {
    const { uploads, service, user, project, objects, advance } = await setup();
    const idle = await uploads.upload(user, { bytes: png(4, 4), contentType: 'image/png' });
    const used = await uploads.upload(user, { bytes: png(4, 4, [1, 2, 3]), contentType: 'image/png' });
    const named = await uploads.upload(user, { bytes: png(4, 4, [9, 9, 9]), contentType: 'image/png' });
    await service.submitTask(user, {
      projectId: project.id,
      prompt: 'p',
      assetType: 'sprite',
      params: { image: { uploadId: used.uploadId, strength: 0 } },
    });
    advance(3000 * 1000);
    // naming an upload in a submission restarts its lifetime (its check touches it)
    await uploads.checkInputs(user, {
      resolution: 64,
      format: 'spritesheet',
      paletteFrom: { uploadId: named.uploadId, maxColors: 16 },
    });
    expect(await uploads.sweep()).toBe(0);
    advance(700 * 1000);
    expect(await uploads.sweep()).toBe(1);
    await expect(uploads.get(user, idle.uploadId)).rejects.toMatchObject({ code: 404 });
    expect(objects.has(`users/1/uploads/${idle.uploadId}.png`)).toBe(false);
    expect((await uploads.get(user, used.uploadId)).expiresAt).toBeNull();
    expect((await uploads.get(user, named.uploadId)).expiresAt).not.toBeNull();
    // the task's pictures come back for the worker as references, read where the pipeline runs
    const inputs = await uploads.loadInputs({
      resolution: 64,
      format: 'spritesheet',
      image: { uploadId: used.uploadId, strength: 0 },
      paletteFrom: { uploadId: used.uploadId, maxColors: 8 },
    });
    const ref = inputs?.refs.image?.ref;
    expect(ref).toMatchObject({ uploadId: used.uploadId, width: 4, height: 4 });
    expect(inputs?.refs.paletteFrom?.ref).toEqual(ref);
    const stored = await inputs?.pictures.read(ref as NonNullable<typeof ref>);
    // the stored PNG's signature
    expect(Array.from(stored?.subarray(1, 4) ?? [])).toEqual([0x50, 0x4e, 0x47]);
  });

  it('the pure PNG decoder refuses other formats (→ 400)', async () => {
    const { uploads, user } = await setup();
    await expect(
      uploads.upload(user, { bytes: jpegHead(4, 4), contentType: 'image/jpeg' }),
    ).rejects.toMatchObject({ code: 400 });
  });
});
