import { keepOutsideMask, type ModelPictures, modelPictures, pngBytes } from '../image-input/model-inputs.js';
import type { GeneratedAsset, ImageProvider, ImageRequest } from '../types/index.js';
import {
  assetFrom,
  callJson,
  callRaw,
  decodeModelPng,
  ProviderError,
  planSheet,
  splitSheet,
} from './model-common.js';

/** A ComfyUI workflow in API format: node id → { class_type, inputs }. */
export type ComfyWorkflow = Record<
  string,
  { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }
>;

export interface ComfyUIProviderOptions {
  /** e.g. `http://127.0.0.1:8188`. */
  baseUrl: string;
  /** API-format workflow (ComfyUI "Export (API)"); default {@link DEFAULT_COMFYUI_WORKFLOW}. */
  workflow?: ComfyWorkflow;
  /** Checkpoint file for CheckpointLoaderSimple nodes (the default workflow needs one). */
  checkpoint?: string;
  steps?: number;
  cfg?: number;
  /** Longest edge of the picture asked for; default 1024. */
  maxEdge?: number;
  /** The whole generation; default 300000. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * A WHATWG WebSocket constructor for ComfyUI's `/ws`; default `globalThis.WebSocket` (browsers,
   * Deno, Bun, Node ≥ 22). On Node 20 pass the `ws` package's: `import { WebSocket } from 'ws'`.
   * The pipeline itself imports nothing Node-only, so it stays usable in a browser.
   */
  WebSocket?: WebSocketConstructor;
}

/** The part of the WHATWG WebSocket API the ComfyUI provider uses (browsers' and `ws`'s fit). */
export interface WebSocketLike {
  addEventListener(type: 'open' | 'error' | 'close', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * The default txt2img workflow (API format), the graph ComfyUI's own default workflow exports:
 * checkpoint → CLIP text encoders (positive, negative) → KSampler on an empty latent → VAE
 * decode → SaveImage.
 */
export const DEFAULT_COMFYUI_WORKFLOW: ComfyWorkflow = Object.freeze({
  '3': {
    class_type: 'KSampler',
    inputs: {
      seed: 0,
      steps: 25,
      cfg: 7,
      sampler_name: 'euler',
      scheduler: 'normal',
      denoise: 1,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    },
  },
  '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
  '5': { class_type: 'EmptyLatentImage', inputs: { width: 1024, height: 1024, batch_size: 1 } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'assetloom', images: ['8', 0] } },
}) as ComfyWorkflow;

/**
 * Fills a workflow: the CLIPTextEncode nodes wired to a sampler's `positive` / `negative` get the
 * prompts, samplers get the seed (and steps/cfg when given), EmptyLatentImage nodes the size and
 * batch, CheckpointLoaderSimple the checkpoint. Throws when the workflow has no sampler or no
 * latent image (so a wrong file fails at start-up, not on the first task).
 */
export function fillWorkflow(
  workflow: ComfyWorkflow,
  v: {
    prompt: string;
    negativePrompt: string;
    seed: number;
    width: number;
    height: number;
    batch: number;
    checkpoint?: string | undefined;
    steps?: number | undefined;
    cfg?: number | undefined;
  },
): ComfyWorkflow {
  const wf = JSON.parse(JSON.stringify(workflow)) as ComfyWorkflow;
  const nodes = Object.entries(wf);
  const samplers = nodes.filter(([, n]) => /KSampler/.test(n?.class_type ?? ''));
  const latents = nodes.filter(
    ([, n]) => n?.class_type === 'EmptyLatentImage' || n?.class_type === 'EmptySD3LatentImage',
  );
  if (!samplers.length) throw new Error('the ComfyUI workflow has no KSampler node');
  if (!latents.length) throw new Error('the ComfyUI workflow has no EmptyLatentImage node');
  const textNode = (ref: unknown) =>
    Array.isArray(ref) && typeof ref[0] === 'string' ? wf[ref[0]] : undefined;
  for (const [, s] of samplers) {
    if ('seed' in s.inputs) s.inputs.seed = v.seed;
    if ('noise_seed' in s.inputs) s.inputs.noise_seed = v.seed;
    if (v.steps !== undefined && 'steps' in s.inputs) s.inputs.steps = v.steps;
    if (v.cfg !== undefined && 'cfg' in s.inputs) s.inputs.cfg = v.cfg;
    const pos = textNode(s.inputs.positive);
    const neg = textNode(s.inputs.negative);
    if (pos && 'text' in pos.inputs) pos.inputs.text = v.prompt;
    if (neg && 'text' in neg.inputs) neg.inputs.text = v.negativePrompt;
  }
  for (const [, l] of latents) {
    l.inputs.width = v.width;
    l.inputs.height = v.height;
    l.inputs.batch_size = v.batch;
  }
  if (v.checkpoint) {
    for (const [, n] of nodes)
      if (n.class_type === 'CheckpointLoaderSimple') n.inputs.ckpt_name = v.checkpoint;
  }
  return wf;
}

/** The workflow's `LoadImage` nodes titled `reference…` (its `_meta.title`): where reference pictures go. */
function referenceNodes(workflow: ComfyWorkflow): string[] {
  return Object.entries(workflow)
    .filter(
      ([, n]) =>
        n?.class_type === 'LoadImage' &&
        /^\s*reference/i.test(String((n._meta as { title?: unknown } | undefined)?.title ?? '')),
    )
    .map(([id]) => id);
}

/**
 * A filled txt2img workflow turned into img2img (decision 0034): its empty latents are replaced by
 * the uploaded picture (`LoadImage` → `VAEEncode` with the checkpoint's VAE), its samplers denoise
 * `strength` of it (`denoise`; `start_at_step` of KSamplerAdvanced), and with a mask the latent is
 * limited to the mask's white (`LoadImageMask` → `SetLatentNoiseMask`). Reference pictures fill the
 * `LoadImage` nodes titled `reference…` in order.
 */
export function withImageNodes(
  workflow: ComfyWorkflow,
  v: { image?: string | undefined; mask?: string | undefined; references: string[]; strength: number },
): ComfyWorkflow {
  const wf = JSON.parse(JSON.stringify(workflow)) as ComfyWorkflow;
  const refs = referenceNodes(wf);
  if (v.references.length > refs.length) {
    throw new ProviderError(
      `the ComfyUI workflow takes ${refs.length} reference picture(s) (LoadImage nodes titled "reference…"), not ${v.references.length}`,
    );
  }
  refs.forEach((id, i) => {
    const name = v.references[Math.min(i, v.references.length - 1)];
    if (name !== undefined) (wf[id] as ComfyWorkflow[string]).inputs.image = name;
  });
  if (v.image === undefined) return wf;
  const latents = Object.keys(wf).filter((id) => /^Empty(SD3)?LatentImage$/.test(wf[id]?.class_type ?? ''));
  const decoder = Object.values(wf).find((n) => n.class_type === 'VAEDecode');
  const loader = Object.entries(wf).find(([, n]) => n.class_type === 'CheckpointLoaderSimple');
  const vae = decoder?.inputs.vae ?? (loader ? [loader[0], 2] : undefined);
  if (vae === undefined)
    throw new ProviderError('the ComfyUI workflow has no VAE to encode the picture with');
  wf.assetloom_image = { class_type: 'LoadImage', inputs: { image: v.image } };
  wf.assetloom_encode = { class_type: 'VAEEncode', inputs: { pixels: ['assetloom_image', 0], vae } };
  let latent: [string, number] = ['assetloom_encode', 0];
  if (v.mask !== undefined) {
    wf.assetloom_mask = { class_type: 'LoadImageMask', inputs: { image: v.mask, channel: 'red' } };
    wf.assetloom_noise_mask = {
      class_type: 'SetLatentNoiseMask',
      inputs: { samples: latent, mask: ['assetloom_mask', 0] },
    };
    latent = ['assetloom_noise_mask', 0];
  }
  for (const node of Object.values(wf)) {
    for (const [key, value] of Object.entries(node.inputs)) {
      if (Array.isArray(value) && latents.includes(String(value[0]))) node.inputs[key] = latent;
    }
    if (/KSampler/.test(node.class_type)) {
      if ('denoise' in node.inputs) node.inputs.denoise = v.strength;
      if ('start_at_step' in node.inputs && typeof node.inputs.steps === 'number') {
        node.inputs.start_at_step = Math.round(node.inputs.steps * (1 - v.strength));
      }
    }
  }
  for (const id of latents) delete wf[id];
  return wf;
}

interface ImageRef {
  filename: string;
  subfolder: string;
  type: string;
}

/** One prompt's WebSocket: what it heard (early messages, images, a failure) and how it ends. */
interface ComfyWatch {
  promptId: string | undefined;
  /** POST /prompt went out (the prompt may be queued even when its answer never came). */
  posted: boolean;
  closed: boolean;
  /** Messages heard before POST /prompt answered the prompt's id. */
  early: unknown[];
  refs: ImageRef[];
  settle: { resolve: (refs: ImageRef[]) => void; reject: (e: unknown) => void } | undefined;
  failure: unknown;
  onProgress: ((percent: number, message?: string) => void) | undefined;
}

function failWatch(watch: ComfyWatch, e: unknown): void {
  watch.failure ??= e;
  watch.settle?.reject(e);
}

/** The saved images of an `executed` message (a preview's `temp` images are not outputs). */
function executedImages(output: unknown): ImageRef[] {
  const images = (output as { images?: unknown } | undefined)?.images;
  if (!Array.isArray(images)) return [];
  const refs: ImageRef[] = [];
  for (const im of images as Array<Record<string, unknown>>) {
    if (im && typeof im.filename === 'string' && im.type !== 'temp') {
      refs.push({
        filename: im.filename,
        subfolder: typeof im.subfolder === 'string' ? im.subfolder : '',
        type: typeof im.type === 'string' ? im.type : 'output',
      });
    }
  }
  return refs;
}

/** One message of ComfyUI's `/ws` about this prompt: progress, images, the end or a failure. */
function handleComfyMessage(watch: ComfyWatch, msg: unknown): void {
  const m = msg as { type?: unknown; data?: Record<string, unknown> } | null;
  if (!m || typeof m.type !== 'string' || !m.data || typeof m.data !== 'object') return;
  if (m.data.prompt_id !== undefined && m.data.prompt_id !== watch.promptId) return;
  switch (m.type) {
    case 'progress': {
      const value = Number(m.data.value);
      const max = Number(m.data.max);
      if (max > 0 && Number.isFinite(value))
        watch.onProgress?.((value / max) * 90, `sampling ${value}/${max}`);
      break;
    }
    case 'executed':
      watch.refs.push(...executedImages(m.data.output));
      break;
    case 'executing':
      if (m.data.node === null) watch.settle?.resolve(watch.refs);
      break;
    case 'execution_success':
      watch.settle?.resolve(watch.refs);
      break;
    case 'execution_error': {
      // execution.py sends node_type and exception_type (a class name such as
      // torch.OutOfMemoryError: safe to show); exception_message may hold the GPU box's
      // paths and is left out
      const type = typeof m.data.exception_type === 'string' ? m.data.exception_type.slice(0, 80) : '';
      failWatch(
        watch,
        new ProviderError(
          `ComfyUI failed in node ${String(m.data.node_type ?? m.data.node_id ?? '?')}${type ? ` (${type})` : ''}`,
        ),
      );
      break;
    }
    case 'execution_interrupted':
      failWatch(watch, new ProviderError('ComfyUI interrupted the generation'));
      break;
  }
}

/** Listens to the socket: JSON messages (binary frames are previews), errors and an early close. */
function listenComfy(ws: WebSocketLike, watch: ComfyWatch): void {
  ws.addEventListener('message', (event: { data: unknown }) => {
    if (watch.closed || typeof event.data !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return failWatch(watch, new ProviderError('ComfyUI sent a WebSocket message that is not JSON'));
    }
    if (watch.promptId === undefined) watch.early.push(msg);
    else handleComfyMessage(watch, msg);
  });
  ws.addEventListener('error', () => {
    if (!watch.closed) failWatch(watch, new ProviderError('ComfyUI WebSocket failed'));
  });
  ws.addEventListener('close', () => {
    if (!watch.closed)
      failWatch(watch, new ProviderError('ComfyUI closed the WebSocket before the images were ready'));
  });
}

/** Waits for the socket to open (at most 15 s), or the abort. */
function socketOpen(ws: WebSocketLike, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => reject(new ProviderError('ComfyUI WebSocket did not open in time')),
      Math.min(timeoutMs, 15000),
    );
    ws.addEventListener('open', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    ws.addEventListener('error', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(new ProviderError('ComfyUI could not be reached (WebSocket)'));
    });
  });
}

/** The server a provider talks to, and what it was made with. */
interface ComfyServer {
  base: string;
  doFetch: typeof fetch;
  timeoutMs: number;
  workflow: ComfyWorkflow;
  options: ComfyUIProviderOptions;
}

const who = 'ComfyUI';

/** Sends a picture through ComfyUI's `/upload/image`; answers the name LoadImage nodes take. */
async function upload(
  server: ComfyServer,
  name: string,
  bytes: Uint8Array,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { base, doFetch, timeoutMs } = server;
  const form = new FormData();
  form.append('image', new Blob([bytes as BlobPart], { type: 'image/png' }), name);
  form.append('type', 'input');
  form.append('subfolder', 'assetloom');
  form.append('overwrite', 'true');
  const reply = (await callJson(doFetch, `${base}/upload/image`, {
    method: 'POST',
    body: form,
    timeoutMs: Math.min(timeoutMs, 60_000),
    signal,
    who,
  })) as { name?: unknown; subfolder?: unknown } | null;
  if (!reply || typeof reply.name !== 'string')
    throw new ProviderError('ComfyUI did not name the uploaded picture');
  return typeof reply.subfolder === 'string' && reply.subfolder
    ? `${reply.subfolder}/${reply.name}`
    : reply.name;
}

/** The workflow filled for this request, its pictures (decision 0034) uploaded under names of this prompt. */
async function filledWorkflow(
  server: ComfyServer,
  req: ImageRequest,
  plan: ReturnType<typeof planSheet>,
  pictures: ModelPictures | null,
  requestedId: string,
  signal: AbortSignal | undefined,
): Promise<ComfyWorkflow> {
  const { workflow, options } = server;
  const names = {
    image: undefined as string | undefined,
    mask: undefined as string | undefined,
    references: [] as string[],
  };
  if (pictures && req.inputs?.image)
    names.image = await upload(server, `${requestedId}-image.png`, pngBytes(pictures.init), signal);
  if (pictures?.mask)
    names.mask = await upload(server, `${requestedId}-mask.png`, pngBytes(pictures.mask), signal);
  for (const [i, r] of (pictures?.references ?? []).entries()) {
    names.references.push(await upload(server, `${requestedId}-reference-${i + 1}.png`, pngBytes(r), signal));
  }
  const txt2img = fillWorkflow(workflow, {
    prompt: plan.prompt,
    negativePrompt: plan.negativePrompt,
    seed: req.seed,
    width: plan.width,
    height: plan.height,
    batch: 1,
    checkpoint: options.checkpoint,
    steps: options.steps,
    cfg: options.cfg,
  });
  return pictures
    ? withImageNodes(txt2img, { ...names, strength: req.inputs?.image?.strength ?? 1 })
    : txt2img;
}

/** POST /prompt under our own id; answers the id ComfyUI queued it under. */
async function queuePrompt(
  server: ComfyServer,
  watch: ComfyWatch,
  body: { prompt: ComfyWorkflow; client_id: string; prompt_id: string },
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { base, doFetch } = server;
  watch.posted = true;
  const queued = (await callJson(doFetch, `${base}/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: Math.max(1, deadline - Date.now()),
    signal,
    who,
  }).catch((error: unknown) => {
    // an HTTP error answer (a workflow that does not validate, a 5xx) queued nothing
    if (error instanceof ProviderError && error.message.startsWith(`${who} answered HTTP`))
      watch.posted = false;
    throw error;
  })) as { prompt_id?: unknown } | null;
  if (!queued || typeof queued.prompt_id !== 'string')
    throw new ProviderError('ComfyUI did not return a prompt_id');
  return queued.prompt_id;
}

/** The first image through `GET /view`, decoded. */
async function download(
  server: ComfyServer,
  ref: ImageRef,
  deadline: number,
  signal: AbortSignal | undefined,
) {
  const { base, doFetch } = server;
  const qs = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
  const res = await callRaw(doFetch, `${base}/view?${qs}`, {
    method: 'GET',
    timeoutMs: Math.max(1, deadline - Date.now()),
    signal,
    who,
  });
  return decodeModelPng(new Uint8Array(await res.arrayBuffer()), who);
}

// Stops this prompt only: /interrupt without a prompt id would stop whatever runs (another
// client's prompt on a shared server), and it does not touch a prompt still waiting in the
// queue, which /queue's delete takes out.
const interrupt = ({ base, doFetch }: ComfyServer, id: string) =>
  Promise.all(
    [
      [`${base}/interrupt`, { prompt_id: id }],
      [`${base}/queue`, { delete: [id] }],
    ].map(([url, body]) =>
      callRaw(doFetch, url as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: 5000,
        who,
      }).catch(() => undefined),
    ),
  );

/**
 * An ImageProvider for a ComfyUI server (https://github.com/comfyanonymous/ComfyUI, server.py):
 * listens on `/ws?clientId=…`, queues the filled workflow with `POST /prompt` under a prompt id of
 * its own (a UUID; servers before the client-chosen id answer with theirs, which is then used),
 * forwards `progress` messages as asset_generator progress, collects the images of `executed`
 * messages (a prompt answered from ComfyUI's cache sends them too, after `execution_cached`) and
 * fetches them through `GET /view`. An abort or time-out sends `POST /interrupt` with the prompt id
 * (ComfyUI then stops it only if it is the one running, never another client's) and
 * `POST /queue {"delete": [id]}` (a prompt still waiting in the queue is taken out). One picture
 * holds the whole sheet.
 */
export function createComfyUIProvider(options: ComfyUIProviderOptions): ImageProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = Math.max(1, options.timeoutMs ?? 300000);
  const workflow = options.workflow ?? DEFAULT_COMFYUI_WORKFLOW;
  const WebSocketImpl =
    options.WebSocket ??
    (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ??
    (() => {
      throw new TypeError(
        "[assetloom/pipeline] createComfyUIProvider: this runtime has no global WebSocket (Node < 22); pass options.WebSocket, e.g. import { WebSocket } from 'ws'",
      );
    })();
  // validate the workflow once, now
  fillWorkflow(workflow, { prompt: '', negativePrompt: '', seed: 0, width: 64, height: 64, batch: 1 });
  const server: ComfyServer = { base, doFetch, timeoutMs, workflow, options };

  return {
    name: 'comfyui',
    kind: 'model',
    inputs: { image: true, mask: true, references: referenceNodes(workflow).length > 0 },
    async generate(req: ImageRequest, { signal, onProgress }): Promise<GeneratedAsset> {
      signal?.throwIfAborted();
      const plan = planSheet(req, options.maxEdge ?? 1024);
      const clientId = globalThis.crypto.randomUUID();
      // our own prompt id, so an abort before POST /prompt answers can still name the prompt
      const requestedId = globalThis.crypto.randomUUID();
      const deadline = Date.now() + timeoutMs;
      const wsUrl = `${base.replace(/^http/, 'ws')}/ws?clientId=${encodeURIComponent(clientId)}`;
      const ws = new WebSocketImpl(wsUrl);
      const watch: ComfyWatch = {
        promptId: undefined,
        posted: false,
        closed: false,
        early: [],
        refs: [],
        settle: undefined,
        failure: undefined,
        onProgress,
      };
      listenComfy(ws, watch);
      try {
        await socketOpen(ws, signal, timeoutMs);
        const pictures: ModelPictures | null = modelPictures(req.inputs, plan);
        const filled = await filledWorkflow(server, req, plan, pictures, requestedId, signal);
        const body = { prompt: filled, client_id: clientId, prompt_id: requestedId };
        watch.promptId = await queuePrompt(server, watch, body, deadline, signal);
        onProgress?.(2, 'queued in ComfyUI');
        const done = new Promise<ImageRef[]>((resolve, reject) => {
          watch.settle = { resolve, reject };
        });
        if (watch.failure) throw watch.failure;
        for (const msg of watch.early.splice(0)) handleComfyMessage(watch, msg);
        const found = await raceLimits(done, signal, Math.max(1, deadline - Date.now()));
        if (!found.length)
          throw new ProviderError('ComfyUI finished without an output image (is there a SaveImage node?)');
        onProgress?.(92, 'downloading images');
        const drawn = await download(server, found[0]!, deadline, signal);
        // with a mask, the picture outside it stays as it was, pixel for pixel
        const picture = pictures ? keepOutsideMask(drawn, pictures) : drawn;
        return assetFrom(plan, splitSheet(picture, plan.cols, plan.rows));
      } catch (error) {
        // once POST /prompt went out the prompt may be queued, even when its answer never came
        if (watch.promptId !== undefined || watch.posted)
          await interrupt(server, watch.promptId ?? requestedId);
        throw error;
      } finally {
        watch.closed = true;
        try {
          ws.close();
        } catch {
          // closing a socket that never opened may throw in some implementations
        }
      }
    },
  };
}

function raceLimits<T>(p: Promise<T>, signal: AbortSignal | undefined, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(
      () => reject(new ProviderError(`ComfyUI did not finish within the time limit`)),
      ms,
    );
    const onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}
