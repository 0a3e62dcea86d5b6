import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newUser, startTestServer, type TestServer } from './helpers.js';
import { openStream, pngSize, waitForTaskEnd } from './task-helpers.js';

/**
 * Issue #27 through the API, on the embedded defaults: the built-in generator draws the subject the
 * prompt names, from a licensed drawing (its licence in metadata.provenance.drawing) or its rig, or
 * fails the task at once, naming the word; a placeholder only when asked.
 */
describe('subjects on the built-in generator', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' }, { GENERATE_MAX_REQUESTS: '500' });
    api = client(server.url);
    ({ token } = await newUser(server.url));
    const created = await api.post('/api/v1/projects', { name: 'subjects' }, { token });
    projectId = created.body.data.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const generate = (prompt: string, extra: Record<string, unknown> = {}) =>
    api.post('/api/v1/generate', { projectId, prompt, assetType: 'sprite', ...extra }, { token });

  it('a subject it cannot draw fails the task at once, naming the word and close subjects, before any stage runs', async () => {
    const res = await generate('a blorptastic zibber');
    expect(res.status).toBe(200);
    const task = await waitForTaskEnd(server.url, token, res.body.data.taskId);
    expect(task.status).toBe('failed');
    expect(task.retryCount).toBe(0);
    expect(task.error).toContain('cannot draw "zibber"');
    expect(task.error).toContain('params.placeholder');
    // the progress stream shows no stage that ran: its one event is the failure, with the error
    const stream = await openStream(server.url, res.body.data.taskId, { token });
    expect(stream.messages.map((m) => `${m.stage}:${m.status}`)).toEqual(['prompt_optimizer:failed']);
    expect(stream.messages[0]!.error).toContain('"zibber"');
    const typo = await generate('a dargon');
    const typoTask = await waitForTaskEnd(server.url, token, typo.body.data.taskId);
    expect(typoTask.error).toMatch(/cannot draw "dargon".*dragon/);
    const assets = await api.get(`/api/v1/tasks/${res.body.data.taskId}/assets`, { token });
    expect(assets.body.data.assets).toEqual([]);
  });

  it('with params.placeholder the task completes with a marked placeholder that says what it is', async () => {
    const res = await generate('a blorptastic zibber', { params: { placeholder: true, resolution: 32 } });
    expect(res.status).toBe(200);
    const task = await waitForTaskEnd(server.url, token, res.body.data.taskId);
    expect(task.error).toBeNull();
    expect(task.status).toBe('completed');
    expect((task.params as { placeholder?: boolean }).placeholder).toBe(true);
    const assets = await api.get(`/api/v1/tasks/${res.body.data.taskId}/assets`, { token });
    const png = assets.body.data.assets.find((a: { format: string }) => a.format === 'png');
    expect(png.metadata.interpretation.substitute).toEqual({
      for: 'zibber',
      drawn: 'placeholder (question mark)',
    });
  });

  it('draws a drawing with its provenance and licence, and says how its directions show its one view', async () => {
    const res = await generate('a windmill', { params: { resolution: 48 } });
    expect(res.status).toBe(200);
    const task = await waitForTaskEnd(server.url, token, res.body.data.taskId);
    expect(task.status).toBe('completed');
    const assets = await api.get(`/api/v1/tasks/${res.body.data.taskId}/assets`, { token });
    const png = assets.body.data.assets.find((a: { format: string }) => a.format === 'png');
    const { provenance, interpretation, views } = png.metadata;
    expect(interpretation).toMatchObject({ subject: 'windmill', source: 'drawing' });
    expect(provenance.drawing).toMatchObject({ set: 'game-icons', license: 'CC-BY-3.0' });
    expect(provenance.drawing.attribution).toMatch(/^Icons made by .+, game-icons\.net/);
    expect(views.map((v: { direction: string }) => v.direction)).toEqual(['down', 'left', 'right', 'up']);
    const file = await fetch(new URL(png.url, server.url));
    expect(pngSize(new Uint8Array(await file.arrayBuffer()))).toEqual({ width: 48 * 4, height: 48 * 4 });
  });

  it('a Chinese prompt names its subject too: 一只熊猫 is a panda, not a cat', async () => {
    const res = await generate('一只熊猫', {
      params: { resolution: 32, frames: { directions: 1, framesPerDirection: 1 } },
    });
    const task = await waitForTaskEnd(server.url, token, res.body.data.taskId);
    expect(task.status).toBe('completed');
    const assets = await api.get(`/api/v1/tasks/${res.body.data.taskId}/assets`, { token });
    const png = assets.body.data.assets.find((a: { format: string }) => a.format === 'png');
    expect(png.metadata.interpretation.subject).toBe('熊猫');
    expect(png.metadata.interpretation.drawing.label).toBe('panda');
  });
});
