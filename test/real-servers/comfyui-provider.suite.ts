// The ComfyUI provider against the real ComfyUI (0.30.0, CPU, a random-weight SD1.5-shaped
// checkpoint that draws coloured noise), started once for the run by the project's global setup.
// ASSETLOOM_RECORD_FIXTURES=1 rewrites packages/pipeline/test/fixtures/comfyui-wire.json, the
// messages the loopback fake replays.
import { readFileSync } from 'node:fs';
import { decodePng, type ImageRequest } from '@assetloom/pipeline';
import {
  type ComfyWorkflow,
  createComfyUIProvider,
  DEFAULT_COMFYUI_WORKFLOW,
} from '@assetloom/pipeline/providers';
import {
  type ComfyMessage,
  type ComfyRecording,
  type ComfyWireFixture,
  messageShapes,
  readFixture,
  waitFor,
  wireShape,
  writeFixture,
} from '@assetloom/testing';
import { comfyuiUrl } from '@assetloom/testing/real-servers-inject';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';

const url = await comfyuiUrl();
const checkpoint = inject('comfyuiCheckpoint') ?? '';
const RECORD = process.env.ASSETLOOM_RECORD_FIXTURES === '1';
if (!url) console.warn(`[real-servers] ⚠ SKIPPING the ComfyUI suite: ${inject('comfyuiSkipReason')}`);

const sprite: ImageRequest = {
  assetType: 'sprite',
  prompt: 'a knight',
  userPrompt: 'a knight',
  tags: [],
  style: {},
  resolution: 32,
  directions: 1,
  framesPerDirection: 1,
  seed: 1,
  attempt: 0,
};
// every run draws anew unless a test repeats a seed on purpose (ComfyUI caches identical prompts)
let nextSeed = Date.now() % 1_000_000_000;
const fresh = (over: Partial<ImageRequest> = {}): ImageRequest => ({ ...sprite, seed: nextSeed++, ...over });

interface Call {
  method: string;
  path: string;
  status?: number;
  body?: unknown;
}

/** The provider's fetch, passed through to ComfyUI, keeping each call. */
function recordingFetch(log: Call[]): typeof fetch {
  return async (input, init) => {
    const u = new URL(String(input));
    const call: Call = {
      method: init?.method ?? 'GET',
      path: `${u.pathname}${u.search}`,
      ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) } : {}),
    };
    log.push(call);
    const res = await fetch(input, init);
    call.status = res.status;
    return res;
  };
}

/** `ws`'s WebSocket, keeping every message the provider's socket receives (binary frames by size). */
function recordingWebSocket(log: ComfyMessage[]) {
  return class extends WebSocket {
    constructor(address: string) {
      super(address);
      this.on('message', (data, isBinary) => {
        log.push(
          isBinary
            ? { binary: (data as Buffer).length }
            : (JSON.parse(String(data)) as { type: string; data: Record<string, unknown> }),
        );
      });
    }
  };
}

function provider(over: Record<string, unknown> = {}) {
  const calls: Call[] = [];
  const messages: ComfyMessage[] = [];
  const p = createComfyUIProvider({
    baseUrl: url!,
    checkpoint,
    steps: 2,
    maxEdge: 256,
    timeoutMs: 300_000,
    fetch: recordingFetch(calls),
    WebSocket: recordingWebSocket(messages),
    ...over,
  });
  return { p, calls, messages };
}

const typesOf = (messages: ComfyMessage[]) => messages.map((m) => ('binary' in m ? '<binary>' : m.type));
const ofType = (messages: ComfyMessage[], type: string) =>
  messages.filter(
    (m): m is { type: string; data: Record<string, unknown> } => !('binary' in m) && m.type === type,
  );

async function getJson(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

interface HistoryEntry {
  prompt: [number, string, ComfyWorkflow, Record<string, unknown>, string[]];
  outputs: Record<string, { images?: Array<{ filename: string; subfolder: string; type: string }> }>;
  status: { status_str: string; completed: boolean; messages: Array<[string, Record<string, unknown>]> };
}
async function history(promptId: string): Promise<HistoryEntry> {
  const entry = await waitFor(async () => (await getJson(`/history/${promptId}`))[promptId], {
    timeoutMs: 120_000,
    intervalMs: 200,
    description: `ComfyUI's history of ${promptId}`,
  });
  return entry as HistoryEntry;
}

/** Waits until nothing runs or waits in ComfyUI's queue. */
async function idle(): Promise<void> {
  await waitFor(
    async () => {
      const q = (await getJson('/queue')) as { queue_running: unknown[]; queue_pending: unknown[] };
      return q.queue_running.length === 0 && q.queue_pending.length === 0;
    },
    { timeoutMs: 180_000, intervalMs: 200, description: 'an idle ComfyUI queue' },
  );
}

const promptIdOf = (calls: Call[]) =>
  (calls.find((c) => c.path === '/prompt')?.body as { prompt_id?: string } | undefined)?.prompt_id;

/** A raw client of ComfyUI's API (no provider): for the recording and for blocking the queue. */
async function rawRun(
  workflow: ComfyWorkflow,
  options: { interruptAtProgress?: boolean; wait?: boolean } = {},
): Promise<ComfyRecording & { promptId?: string; hello: ComfyMessage }> {
  const clientId = crypto.randomUUID();
  const messages: ComfyMessage[] = [];
  const ws = new WebSocket(`${url!.replace(/^http/, 'ws')}/ws?clientId=${clientId}`);
  let interrupted = false;
  ws.on('message', (data, isBinary) => {
    const m: ComfyMessage = isBinary
      ? { binary: (data as Buffer).length }
      : (JSON.parse(String(data)) as { type: string; data: Record<string, unknown> });
    messages.push(m);
    if (options.interruptAtProgress && !interrupted && !('binary' in m) && m.type === 'progress') {
      interrupted = true;
      void fetch(`${url}/interrupt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt_id: m.data.prompt_id }),
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // ComfyUI greets a new socket with a `status` carrying its sid
  await waitFor(() => messages.length > 0, { timeoutMs: 30_000, description: "ComfyUI's first message" });
  const res = await fetch(`${url}/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: workflow, client_id: clientId }),
  });
  const queued = { status: res.status, body: (await res.json()) as Record<string, unknown> };
  const promptId = typeof queued.body.prompt_id === 'string' ? queued.body.prompt_id : undefined;
  const hello = messages[0]!;
  if (!promptId || options.wait === false) {
    if (options.wait === false) return { queued, messages, hello, ...(promptId ? { promptId } : {}) };
    ws.close();
    return { queued, messages, hello };
  }
  await waitFor(
    () =>
      ofType(messages, 'executing').some((m) => m.data.node === null && m.data.prompt_id === promptId) ||
      ofType(messages, 'execution_error').length > 0 ||
      ofType(messages, 'execution_interrupted').length > 0,
    { timeoutMs: 180_000, intervalMs: 50, description: `ComfyUI finishing ${promptId}` },
  );
  ws.close();
  const image = ofType(messages, 'executed')[0]?.data.output as
    | { images?: Array<{ filename: string; subfolder: string; type: string }> }
    | undefined;
  let view: ComfyRecording['view'];
  if (image?.images?.[0]) {
    const v = await fetch(`${url}/view?${new URLSearchParams(image.images[0])}`);
    view = {
      status: v.status,
      contentType: v.headers.get('content-type'),
      bytes: (await v.arrayBuffer()).byteLength,
    };
  }
  // the recording keeps the run's own messages; the first is the socket's hello
  return { queued, messages: messages.slice(1), hello, promptId, ...(view ? { view } : {}) };
}

function defaultWorkflow(seed: number, { batch = 1, steps = 2 } = {}): ComfyWorkflow {
  const wf = structuredClone(DEFAULT_COMFYUI_WORKFLOW) as ComfyWorkflow;
  Object.assign(wf['3']!.inputs, { seed, steps });
  Object.assign(wf['4']!.inputs, { ckpt_name: checkpoint });
  Object.assign(wf['5']!.inputs, { width: 256, height: 256, batch_size: batch });
  Object.assign(wf['6']!.inputs, { text: 'a knight, pixel art' });
  Object.assign(wf['7']!.inputs, { text: 'blurry' });
  return wf;
}

describe.skipIf(!url)('the ComfyUI provider against the real ComfyUI', () => {
  afterEach(async () => {
    // no test leaves work behind for the next
    await idle();
  });

  it('success: /prompt, progress over /ws (binary previews among the messages), the picture through /view', async () => {
    const { p, calls, messages } = provider();
    const progress: Array<[number, string | undefined]> = [];
    const req = fresh();
    const out = await p.generate(req, { onProgress: (v, m) => progress.push([v, m]) });
    expect(out.frames).toHaveLength(1);
    expect([out.frames[0]!.width, out.frames[0]!.height]).toEqual([256, 256]);
    expect(out.animation).toBe('sprite');
    // what went over the wire
    expect(calls.map((c) => `${c.method} ${c.path.split('?')[0]} ${c.status}`)).toEqual([
      'POST /prompt 200',
      'GET /view 200',
    ]);
    const sent = calls[0]!.body as { prompt: ComfyWorkflow; client_id: string; prompt_id: string };
    expect(sent.prompt['3']!.inputs).toMatchObject({ seed: req.seed, steps: 2 });
    expect(sent.prompt['4']!.inputs.ckpt_name).toBe(checkpoint);
    expect(sent.prompt['5']!.inputs).toMatchObject({ width: 256, height: 256, batch_size: 1 });
    // ComfyUI kept the prompt id the provider chose
    expect(ofType(messages, 'execution_start')[0]!.data.prompt_id).toBe(sent.prompt_id);
    const types = typesOf(messages);
    expect(types).toContain('<binary>'); // latent previews: the provider must skip them
    expect(types).toContain('progress_state');
    expect(types.indexOf('executed')).toBeLessThan(types.indexOf('execution_success'));
    // the sampler's steps reached the caller, then the download
    expect(progress.filter(([, m]) => m?.startsWith('sampling')).map(([, m]) => m)).toEqual([
      'sampling 1/2',
      'sampling 2/2',
    ]);
    expect(progress.at(-1)).toEqual([92, 'downloading images']);
    // the frame is ComfyUI's picture itself
    const executed = ofType(messages, 'executed')[0]!.data.output as {
      images: Array<Record<string, string>>;
    };
    const view = await fetch(`${url}/view?${new URLSearchParams(executed.images[0])}`);
    const png = decodePng(new Uint8Array(await view.arrayBuffer()));
    if (!png.ok) throw new Error(png.error);
    expect(Buffer.from(out.frames[0]!.data).equals(Buffer.from(png.image.data))).toBe(true);
  });

  it('the cache-hit path: the same prompt and seed again is answered from cache, with only cached messages', async () => {
    const req = fresh();
    const first = await provider().p.generate(req, {});
    const again = provider();
    const progress: number[] = [];
    const out = await again.p.generate(req, { onProgress: (v) => progress.push(v) });
    const types = typesOf(again.messages).filter((t) => t !== 'status');
    // nothing ran: no sampler progress, no previews; every node listed as cached, the output re-sent
    expect(types).not.toContain('progress');
    expect(types).not.toContain('<binary>');
    // no node executes (an `executing` with node null marks the end; it may come after the socket closed)
    expect(ofType(again.messages, 'executing').filter((m) => m.data.node !== null)).toEqual([]);
    expect(types.slice(0, 3)).toEqual(['execution_start', 'execution_cached', 'executed']);
    expect(types).toContain('execution_success');
    const cached = ofType(again.messages, 'execution_cached')[0]!.data.nodes as string[];
    expect([...cached].sort()).toEqual(Object.keys(DEFAULT_COMFYUI_WORKFLOW).sort());
    expect(progress).toEqual([2, 92]); // queued, then downloading
    expect(Buffer.from(out.frames[0]!.data).equals(Buffer.from(first.frames[0]!.data))).toBe(true);
  });

  it('a sheet: one picture holds the frames, cut into them in order', async () => {
    const req = fresh({ assetType: 'animation', framesPerDirection: 2 });
    const { p, messages, calls } = provider();
    const out = await p.generate(req, {});
    expect(out.animation).toBe('anim');
    expect(out.frames).toHaveLength(2);
    const executed = ofType(messages, 'executed')[0]!.data.output as {
      images: Array<Record<string, string>>;
    };
    expect(executed.images).toHaveLength(1); // ONE picture for the sheet
    const view = await fetch(`${url}/view?${new URLSearchParams(executed.images[0])}`);
    const png = decodePng(new Uint8Array(await view.arrayBuffer()));
    if (!png.ok) throw new Error(png.error);
    const size = (calls[0]!.body as { prompt: ComfyWorkflow }).prompt['5']!.inputs;
    expect([png.image.width, png.image.height]).toEqual([size.width, size.height]);
    expect(png.image.width).toBeGreaterThanOrEqual(png.image.height); // two frames side by side
    const cw = Math.floor(png.image.width / 2);
    for (const [i, frame] of out.frames.entries()) {
      expect([frame.width, frame.height]).toEqual([cw, png.image.height]);
      for (const y of [0, Math.floor(frame.height / 2), frame.height - 1]) {
        const row = png.image.data.subarray(
          (y * png.image.width + i * cw) * 4,
          (y * png.image.width + i * cw + cw) * 4,
        );
        expect(Buffer.from(frame.data.subarray(y * cw * 4, (y + 1) * cw * 4)).equals(Buffer.from(row))).toBe(
          true,
        );
      }
    }
  });

  it('a workflow exported from ComfyUI (Export (API)) is patched: sampler, prompts, size, batch, checkpoint', async () => {
    const exported = JSON.parse(
      readFileSync(new URL('./fixtures/pixel-workflow.api.json', import.meta.url), 'utf8'),
    ) as ComfyWorkflow;
    const { p, calls, messages } = provider({ workflow: exported });
    const req = fresh();
    const out = await p.generate(req, {});
    expect(out.frames).toHaveLength(1);
    const id = promptIdOf(calls)!;
    const ran = (await history(id)).prompt[2];
    expect(ran['15']!.inputs).toMatchObject({ noise_seed: req.seed, steps: 2, sampler_name: 'dpmpp_2m' });
    expect(ran['12']!.inputs.text).toMatch(/^a knight\nPixel art with a clear pixel grid/);
    expect(ran['13']!.inputs.text).toMatch(/^blurry, soft, anti-aliasing/); // the provider's negative prompt
    expect(ran['14']!.inputs).toEqual({ width: 256, height: 256, batch_size: 1 });
    expect(ran['10']!.inputs.ckpt_name).toBe(checkpoint);
    expect(ran['11']!.inputs.stop_at_clip_layer).toBe(-2); // the user's own nodes stay as exported
    // the PreviewImage node's temp picture is not taken for the SaveImage one
    const outputs = ofType(messages, 'executed').flatMap(
      (m) => (m.data.output as { images: Array<{ type: string; subfolder: string }> }).images,
    );
    expect(outputs.map((o) => o.type).sort()).toEqual(['output', 'temp']);
    const view = calls.find((c) => c.path.startsWith('/view'))!;
    expect(new URLSearchParams(view.path.split('?')[1]).get('type')).toBe('output');
    expect(new URLSearchParams(view.path.split('?')[1]).get('subfolder')).toBe('pixel');
  });

  it('a workflow that does not validate is the clean user-facing error, and nothing is queued', async () => {
    const { p, calls } = provider({ checkpoint: 'sd_xl_base_1.0.safetensors' });
    await expect(p.generate(fresh(), {})).rejects.toThrow(
      `ComfyUI answered HTTP 400: the workflow does not validate in node CheckpointLoaderSimple (Value not in list: ckpt_name: 'sd_xl_base_1.0.safetensors' not in ['${checkpoint}'])`,
    );
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)[0]).toBe('POST /prompt 400');
    // refused, so nothing was queued: nothing to take back
    expect(calls).toHaveLength(1);
  });

  it('abort while sampling → POST /interrupt with the prompt id; ComfyUI stops that prompt', async () => {
    const { p, calls } = provider({ steps: 40 });
    const ac = new AbortController();
    const run = p.generate(fresh(), {
      signal: ac.signal,
      onProgress: (_v, m) => {
        if (m?.startsWith('sampling')) ac.abort(new Error('user cancelled'));
      },
    });
    await expect(run).rejects.toThrow('user cancelled');
    const id = promptIdOf(calls)!;
    const interrupt = calls.find((c) => c.path === '/interrupt')!;
    expect(interrupt).toMatchObject({ method: 'POST', status: 200, body: { prompt_id: id } });
    const entry = await history(id);
    expect(entry.status.status_str).toBe('error');
    expect(entry.status.messages.map(([type]) => type)).toContain('execution_interrupted');
  });

  it("abort while still queued → taken out of ComfyUI's queue; another client's running prompt is not interrupted", async () => {
    // another client's long prompt holds the queue
    const blocker = await rawRun(defaultWorkflow(nextSeed++, { steps: 6 }), { wait: false });
    const { p, calls } = provider();
    const ac = new AbortController();
    const run = p.generate(fresh(), {
      signal: ac.signal,
      onProgress: (_v, m) => {
        if (m === 'queued in ComfyUI') ac.abort(new Error('user cancelled'));
      },
    });
    await expect(run).rejects.toThrow('user cancelled');
    const id = promptIdOf(calls)!;
    expect(calls.find((c) => c.path === '/queue')).toMatchObject({ status: 200, body: { delete: [id] } });
    const q = (await getJson('/queue')) as { queue_pending: Array<[number, string]> };
    expect(q.queue_pending.map((item) => item[1])).not.toContain(id);
    // the other client's prompt ran to its end
    const other = await history(blocker.promptId!);
    expect(other.status.status_str).toBe('success');
    expect((await getJson(`/history/${id}`))[id]).toBeUndefined(); // ours never ran
  });

  it('a time limit → "did not finish within the time limit", and the prompt is interrupted', async () => {
    const { p, calls } = provider({ steps: 40, timeoutMs: 4_000 });
    await expect(p.generate(fresh(), {})).rejects.toThrow('ComfyUI did not finish within the time limit');
    const id = promptIdOf(calls)!;
    expect(calls.find((c) => c.path === '/interrupt')).toMatchObject({ body: { prompt_id: id } });
    const entry = await history(id);
    expect(entry.status.messages.map(([type]) => type)).toContain('execution_interrupted');
  });

  it('the recorded wire format (the fake replays it) is what ComfyUI sends today', async () => {
    const seed = nextSeed++;
    const success = await rawRun(defaultWorkflow(seed));
    const cached = await rawRun(defaultWorkflow(seed));
    const batch = await rawRun(defaultWorkflow(nextSeed++, { batch: 2 }));
    const interrupted = await rawRun(defaultWorkflow(nextSeed++, { steps: 40 }), {
      interruptAtProgress: true,
    });
    const invalid = await rawRun({
      ...defaultWorkflow(1),
      '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'missing.safetensors' } },
    });
    const strip = ({
      promptId: _p,
      hello: _h,
      ...rest
    }: ComfyRecording & { promptId?: string; hello: ComfyMessage }) => rest;
    const live: ComfyWireFixture = {
      recordedFrom: `ComfyUI ${inject('comfyuiVersion')} (--cpu, previews latent2rgb), default workflow at 256 px, 2 steps`,
      hello: success.hello,
      success: strip(success),
      cached: strip(cached),
      batch: strip(batch),
      interrupted: strip(interrupted),
      invalid: invalid.queued,
    };
    expect(ofType(interrupted.messages, 'execution_interrupted')).toHaveLength(1);
    expect(invalid.queued.status).toBe(400);
    if (RECORD) writeFixture('comfyui-wire.json', live);
    const recorded = readFixture<ComfyWireFixture>('comfyui-wire.json');
    expect(wireShape(live.hello)).toEqual(wireShape(recorded.hello));
    for (const run of ['success', 'cached', 'batch', 'interrupted'] as const) {
      expect(live[run].queued.status, run).toBe(recorded[run].queued.status);
      expect(wireShape(live[run].queued.body), run).toEqual(wireShape(recorded[run].queued.body));
      const now = messageShapes(live[run].messages);
      const then = messageShapes(recorded[run].messages);
      expect(Object.keys(now.shapes).sort(), run).toEqual(Object.keys(then.shapes).sort());
      for (const type of Object.keys(then.shapes))
        expect(now.shapes[type], `${run}: ${type}`).toEqual(then.shapes[type]);
      expect(wireShape(live[run].view), run).toEqual(wireShape(recorded[run].view));
    }
    expect(live.invalid.status).toBe(recorded.invalid.status);
    expect(wireShape(live.invalid.body)).toEqual(wireShape(recorded.invalid.body));
  });
});
