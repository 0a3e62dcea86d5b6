import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, client, newUser, startTestServer, type TestServer } from '../helpers.js';
import { waitForTaskEnd } from '../task-helpers.js';

/**
 * Issue #37, findings 2 and 5: image inputs were decoded on the API process's event loop, once per
 * param, before an input the provider cannot honour was refused; their pixels counted in no budget;
 * and a task could compute for as long as it liked. Now a submission naming an input the provider
 * cannot honour answers 400 naming it (no task), the pictures' pixels count in TASK_MAX_PIXELS and
 * the pixels in flight, each distinct picture is read once and decoded on a pipeline thread, and an
 * attempt past TASK_ATTEMPT_CPU_SECONDS fails with deadline_exceeded, not retried.
 */

/** A PNG of a red disc on white, `size` square. */
function discPng(size: number): Promise<Buffer> {
  const data = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = Math.hypot(x - size / 2, y - size / 2) < size * 0.3;
      data.set(inside ? [220, 60, 40, 255] : [255, 255, 255, 255], (y * size + x) * 4);
    }
  }
  return sharp(data, { raw: { width: size, height: size, channels: 4 } })
    .png()
    .toBuffer();
}

async function uploaded(server: TestServer, token: string, size: number): Promise<string> {
  const res = await call(server.url, 'POST', '/api/v1/uploads', {
    token,
    raw: new Uint8Array(await discPng(size)),
    headers: { 'content-type': 'image/png' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uploadId as string;
}

describe('submissions on the built-in generator (PIPELINE_THREADS 1)', () => {
  let server: TestServer;
  let token: string;
  let projectId: string;
  let picture: string;

  beforeAll(async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      { PIPELINE_THREADS: '1', TASK_MAX_PIXELS: '200000' },
    );
    token = (await newUser(server.url)).token;
    projectId = (await client(server.url).post('/api/v1/projects', { name: 'Inputs' }, { token })).body.data
      .id;
    picture = await uploaded(server, token, 400);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const generate = (prompt: string, assetType: string, params: Record<string, unknown>) =>
    call(server.url, 'POST', '/api/v1/generate', {
      token,
      json: { projectId, prompt, assetType, params },
      headers: { 'accept-language': 'en' },
    });

  it.each([
    [
      'a mask',
      'sprite',
      () => ({ image: { uploadId: picture, strength: 0.5 }, mask: { uploadId: picture } }),
      '/params/mask',
    ],
    [
      'a redraw (strength above 0)',
      'sprite',
      () => ({ image: { uploadId: picture, strength: 0.5 } }),
      '/params/image/strength',
    ],
    ['reference pictures', 'sprite', () => ({ references: [{ uploadId: picture }] }), '/params/references'],
    [
      'a walk of a given sprite',
      'animation',
      () => ({ image: { uploadId: picture, strength: 0 } }),
      '/params/image',
    ],
  ])('refuses %s at once, naming it, with no task', async (_name, assetType, params, path) => {
    const before = (await client(server.url).get(`/api/v1/projects/${projectId}/tasks`, { token })).body.data
      .total;
    const res = await generate('a hero walking', assetType, params());
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      expect.objectContaining({
        in: 'body',
        path,
        rule: 'image',
        message: expect.stringMatching(/built-in/),
      }),
    ]);
    const after = (await client(server.url).get(`/api/v1/projects/${projectId}/tasks`, { token })).body.data
      .total;
    expect(after).toBe(before);
  });

  it("counts the pictures' pixels in TASK_MAX_PIXELS (each distinct picture once)", async () => {
    // 64² drawn + 400² read = 164 096 ≤ 200 000, however many params name the same picture
    const once = await generate('pixelate', 'sprite', {
      resolution: 64,
      image: { uploadId: picture, strength: 0 },
      paletteFrom: { uploadId: picture, maxColors: 8 },
    });
    expect(once.status, JSON.stringify(once.body)).toBe(200);
    // a second, different 400² picture: 64² + 2 × 400² = 324 096 > 200 000
    const other = await uploaded(server, token, 400);
    const twice = await generate('pixelate', 'sprite', {
      resolution: 64,
      image: { uploadId: picture, strength: 0 },
      paletteFrom: { uploadId: other, maxColors: 8 },
    });
    expect(twice.status).toBe(413);
    expect(twice.body.data.reason).toBe('task_too_large');
  });

  it('reads one picture named twice once, decodes it on the pipeline thread, and completes', async () => {
    const res = await generate('pixelate', 'sprite', {
      resolution: 48,
      image: { uploadId: picture, strength: 0 },
      paletteFrom: { uploadId: picture, maxColors: 6 },
    });
    const task = await waitForTaskEnd(server.url, token, res.body.data.taskId);
    expect(task.status, String(task.error)).toBe('completed');
  });
});

describe('the pixels in flight count the pictures (no worker: tasks stay queued)', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.destroy();
  });

  it('refuses the submission whose pictures would pass USER_MAX_PIXELS_IN_FLIGHT', async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      { WORKER_IN_PROCESS: 'false', USER_MAX_PIXELS_IN_FLIGHT: '50000' },
    );
    const { token } = await newUser(server.url);
    const projectId = (await client(server.url).post('/api/v1/projects', { name: 'Flight' }, { token })).body
      .data.id;
    const picture = await uploaded(server, token, 128);
    const submit = (prompt: string) =>
      call(server.url, 'POST', '/api/v1/generate', {
        token,
        json: {
          projectId,
          prompt,
          assetType: 'sprite',
          params: { resolution: 64, image: { uploadId: picture, strength: 0 } },
        },
      });
    // each holds 64² + 128² = 20 480: two fit in 50 000, a third does not (drawn pixels alone would: 3 × 4 096)
    expect((await submit('one')).status).toBe(200);
    expect((await submit('two')).status).toBe(200);
    const third = await submit('three');
    expect(third.status).toBe(429);
    expect(third.body.data.reason).toBe('too_many_in_flight');
    expect(third.headers.get('retry-after')).toBeTruthy();
  });
});

describe('an attempt past TASK_ATTEMPT_CPU_SECONDS', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.destroy();
  });

  it('fails with deadline_exceeded on its first attempt, naming the limit, not retried', async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      { TASK_ATTEMPT_CPU_SECONDS: '1', PIPELINE_THREADS: '1' },
    );
    const { token } = await newUser(server.url);
    const projectId = (await client(server.url).post('/api/v1/projects', { name: 'Heavy' }, { token })).body
      .data.id;
    const res = await call(server.url, 'POST', '/api/v1/generate', {
      token,
      json: {
        projectId,
        prompt: 'a knight walking',
        assetType: 'animation',
        params: { resolution: 512, frames: { directions: 8, framesPerDirection: 8 } },
      },
    });
    expect(res.status).toBe(200);
    const task = await waitForTaskEnd(server.url, token, res.body.data.taskId);
    expect(task.status).toBe('failed');
    expect(String(task.error)).toMatch(
      /deadline exceeded: the attempt computed for .* past its limit of 1\.0 s/,
    );
    expect(task.retryCount).toBe(0);
  });
});
