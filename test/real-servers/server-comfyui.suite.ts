// The reference server as a whole with IMAGE_PROVIDER=comfyui against the real ComfyUI (the run's
// one, from the global setup) and its random-weight checkpoint: a generate goes through the queue,
// the worker, ComfyUI, pixelize and the quality checks. The checkpoint draws coloured noise, so the
// outcome must be honest and final: a quality failure that names the check and why, or a completed
// asset that records the checks it passed. Never a hang (the test's own time limit is the guard).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type RunningServer, startServer } from '@assetloom/server';
import { comfyuiUrl as waitForComfyUI } from '@assetloom/testing/real-servers-inject';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';

const comfyuiUrl = await waitForComfyUI();
const checkpoint = inject('comfyuiCheckpoint') ?? '';

async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: { code: number; data: Record<string, unknown>; message?: string } }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Every progress event of a task over its WebSocket, until the server closes the stream. */
function events(base: string, taskId: string, token: string): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const out: Array<Record<string, unknown>> = [];
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/tasks/${taskId}/ws`, {
      headers: { authorization: `Bearer ${token}` },
    });
    ws.on('message', (data) => out.push(JSON.parse(String(data)) as Record<string, unknown>));
    ws.on('close', () => resolve(out));
    ws.on('error', reject);
  });
}

describe.skipIf(!comfyuiUrl)('the server with IMAGE_PROVIDER=comfyui (the real ComfyUI)', () => {
  let server: RunningServer;
  let dataDir: string;
  let base: string;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'assetloom-comfy-server-'));
    const loaded = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      SCRYPT_COST: '10',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WORKER_POLL_MS: '20',
      PIPELINE_THREADS: '0',
      IMAGE_PROVIDER: 'comfyui',
      COMFYUI_URL: comfyuiUrl!,
      COMFYUI_CHECKPOINT: checkpoint,
      COMFYUI_STEPS: '2',
      COMFYUI_MAX_EDGE: '256',
      IMAGE_TIMEOUT_MS: '240000',
      MAX_QUALITY_RETRIES: '1',
    });
    if (!loaded.ok) throw loaded.error;
    server = await startServer(loaded.value);
    base = server.url;
    const username = `comfy${Date.now().toString(36)}`;
    expect((await api(base, 'POST', '/auth/register', { username, password: 'secret-pass' })).status).toBe(
      201,
    );
    const login = await api(base, 'POST', '/auth/login', { username, password: 'secret-pass' });
    token = login.body.data.token as string;
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('a sprite drawn as noise ends honestly: a named quality failure, or a completed asset with its checks', async () => {
    const project = await api(
      base,
      'POST',
      '/api/v1/projects',
      { name: 'Noise', style: { palette: 'pico8' } },
      token,
    );
    expect(project.status).toBe(200);
    const submitted = await api(
      base,
      'POST',
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'a knight',
        assetType: 'sprite',
        // one frame: what is asserted is the task's honest end, which one picture shows as well as the
        // default sheet's sixteen (each drawn twice, first try and retry: 105 s of CI, decision 0139)
        params: { resolution: 32, format: 'individual', frames: { directions: 1, framesPerDirection: 1 } },
      },
      token,
    );
    expect(submitted.status).toBe(200);
    const taskId = submitted.body.data.taskId as string;
    // the stream ends when the task does: no polling loop can hang past the test's time limit
    const stream = await events(base, taskId, token);
    const task = (await api(base, 'GET', `/api/v1/tasks/${taskId}`, undefined, token)).body.data;
    expect(['completed', 'failed']).toContain(task.status);
    // ComfyUI's sampler steps reached the task's own progress events
    const generator = stream.filter((e) => e.stage === 'asset_generator');
    expect(generator.some((e) => /^sampling \d+\/2$/.test(String(e.message ?? '')))).toBe(true);
    if (task.status === 'failed') {
      expect(task.stage).toBe('quality_supervisor');
      // which check failed and what it measured
      expect(task.error).toMatch(
        /^\[assetloom\/pipeline\] quality check failed after 1 retries: [a-z_]+: .+/,
      );
      // two pictures were drawn (the first and one retry), each with its own seed
      expect(
        stream.filter((e) => e.stage === 'quality_supervisor' && e.status === 'failed').length,
      ).toBeGreaterThanOrEqual(1);
    } else {
      const assets = await api(base, 'GET', `/api/v1/tasks/${taskId}/assets`, undefined, token);
      const frames = (assets.body.data.assets as Array<{ key: string; metadata: unknown }>).filter((a) =>
        a.key.endsWith('.png'),
      );
      expect(frames.length).toBeGreaterThan(0);
      const report = JSON.stringify(frames[0]!.metadata);
      for (const check of ['grid_fidelity', 'stray_alpha', 'orphan_pixels', 'palette_adherence'])
        expect(report).toContain(check);
    }
    console.log(
      `[real-servers] noise from ComfyUI ended ${String(task.status)}${task.error ? `: ${String(task.error)}` : ''}`,
    );
  }, 600_000);
});
