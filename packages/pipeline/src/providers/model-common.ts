import { ASSET_TYPE_MODULES } from '../asset-types/index.js';
import { subjectText } from '../interpret/index.js';
import { type ExpectedLayout, expectedLayout } from '../layout.js';
import { decodePng } from '../png.js';
import { chooseTerrains } from '../tileset/terrains.js';
import type { GeneratedAsset, ImageRequest, RgbaImage } from '../types/index.js';

/** An error whose message is fit for end users (the pipeline shows it in provider_failed). */
export class ProviderError extends Error {
  readonly expose = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

const DIRECTION_WORDS: Record<string, string> = {
  down: 'facing the viewer',
  up: 'seen from behind',
  left: 'facing left',
  right: 'facing right',
  down_left: 'facing down-left',
  down_right: 'facing down-right',
  up_left: 'facing up-left',
  up_right: 'facing up-right',
};

const DEFAULT_NEGATIVE_PROMPT =
  'blurry, soft, anti-aliasing, gradient background, text, watermark, signature, photo, 3d render, jpeg artifacts, cropped';

export interface SheetPlan {
  layout: ExpectedLayout;
  /** Grid of the one picture asked for: columns = frames per direction, rows = directions (or UI states). */
  cols: number;
  rows: number;
  /** Picture size in pixels (multiples of 64). */
  width: number;
  height: number;
  prompt: string;
  negativePrompt: string;
}

/**
 * One picture for the whole sheet (the model draws every frame side by side in one go, which
 * keeps the character the same across frames), laid out as a grid the provider splits again.
 */
export function planSheet(req: ImageRequest, maxEdge = 1024): SheetPlan {
  const layout = expectedLayout(
    req.assetType,
    {
      resolution: req.resolution,
      // a background's or UI piece's canvas (320 × 180…): the picture is asked for in its aspect
      ...(req.width === undefined ? {} : { width: req.width }),
      ...(req.height === undefined ? {} : { height: req.height }),
      frames: { directions: req.directions, framesPerDirection: req.framesPerDirection },
      format: 'spritesheet',
      ...(req.tileset ? { tileset: req.tileset } : {}),
    },
    subjectText(req),
  );
  // a tileset: one picture per terrain, side by side; the pipeline cuts, blends and pixelizes them
  const terrainCount = layout.tileset ? (layout.tileset.kind === 'seamless' ? 1 : 2) : 0;
  const terrainNames = terrainCount
    ? chooseTerrains(req, terrainCount === 1 ? 1 : 2).terrains.map((t) => t.name)
    : [];
  const total = layout.tileset ? terrainCount : layout.frameCount;
  const cols = layout.uiKind || layout.tileset ? total : Math.max(1, layout.framesPerDirection);
  const rows = layout.uiKind || layout.tileset ? 1 : Math.max(1, Math.ceil(total / cols));
  const aspect = layout.frameWidth / layout.frameHeight;
  // a cell is `cell` on its short side; the whole picture (cells of the frame's aspect) fits maxEdge
  const cellsAcross = Math.max(cols * Math.max(1, aspect), rows / Math.min(1, aspect));
  const cell = Math.max(128, Math.floor(maxEdge / cellsAcross / 64) * 64);
  const width = Math.min(2048, Math.max(256, Math.round((cols * cell * Math.max(1, aspect)) / 64) * 64));
  const height = Math.min(2048, Math.max(256, Math.round((rows * cell) / Math.min(1, aspect) / 64) * 64));
  const parts = [
    req.prompt,
    'Pixel art with a clear pixel grid, flat colours, hard edges, no anti-aliasing.',
  ];
  parts.push(
    ...ASSET_TYPE_MODULES[req.assetType].modelPrompt({
      layout,
      columns: cols,
      rows,
      total,
      terrainNames,
      directionWords: (d) => DIRECTION_WORDS[d] ?? d,
    }),
  );
  return {
    layout,
    cols,
    rows,
    width,
    height,
    prompt: parts.filter(Boolean).join('\n'),
    negativePrompt: DEFAULT_NEGATIVE_PROMPT,
  };
}

/** Cuts a picture into `cols × rows` equal cells (direction-major order). */
export function splitSheet(img: RgbaImage, cols: number, rows: number): RgbaImage[] {
  if (cols === 1 && rows === 1) return [img];
  const out: RgbaImage[] = [];
  const cw = Math.floor(img.width / cols);
  const ch = Math.floor(img.height / rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const data = new Uint8Array(cw * ch * 4);
      for (let y = 0; y < ch; y++) {
        const from = ((r * ch + y) * img.width + c * cw) * 4;
        data.set(img.data.subarray(from, from + cw * 4), y * cw * 4);
      }
      out.push({ width: cw, height: ch, data });
    }
  }
  return out;
}

/** Decodes a model's PNG; a broken one is a provider failure with a clear message. */
export function decodeModelPng(bytes: Uint8Array, who: string): RgbaImage {
  const decoded = decodePng(bytes);
  if (!decoded.ok) throw new ProviderError(`${who} sent an image that is not a readable PNG`);
  return decoded.image;
}

export function assetFrom(plan: SheetPlan, pictures: RgbaImage[]): GeneratedAsset {
  const { layout } = plan;
  if (layout.tileset) {
    // the terrain pictures themselves: the pipeline makes the tiles (tileset/model.ts)
    if (pictures.length < plan.cols) throw new ProviderError(`expected ${plan.cols} terrain pictures`);
    return { frames: pictures.slice(0, plan.cols), animation: 'tileset' };
  }
  const frames = pictures.slice(0, plan.layout.frameCount);
  if (frames.length < plan.layout.frameCount) {
    throw new ProviderError(`expected ${plan.layout.frameCount} frames, the model gave ${frames.length}`);
  }
  return {
    frames,
    animation: layout.uiKind ? layout.uiKind : layout.frameCount > 1 ? 'anim' : 'sprite',
    ...(layout.uiKind ? { uiKind: layout.uiKind, frameNames: frames.map((_, i) => `state${i}`) } : {}),
  };
}

export function base64ToBytes(b64: unknown): Uint8Array | null {
  if (typeof b64 !== 'string' || b64.length === 0) return null;
  try {
    const clean = b64.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
    const bin = atob(clean);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/**
 * fetch with a time limit and the run's abort signal. Network failures, time-outs, HTTP errors
 * and unreadable JSON become ProviderErrors naming what happened (never the raw reply).
 */
export async function callJson(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit & { timeoutMs: number; signal?: AbortSignal | undefined; who: string },
): Promise<unknown> {
  const res = await callRaw(doFetch, url, init);
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    throw new ProviderError(`${init.who} sent a reply that is not JSON`);
  }
}

const clip = (v: unknown, n = 160): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim().replace(/\s+/g, ' ').slice(0, n) : undefined;

/**
 * What a user should know about a refused request, from the documented error shapes of the
 * services (never the raw reply):
 * - OpenAI Images: `{ error: { code, type, message } }`; a content-policy refusal
 *   (`content_policy_violation`, `moderation_blocked`) or an invalid API key (401);
 * - ComfyUI `POST /prompt` (server.py): 400 `{ error: { type, message }, node_errors: { id:
 *   { class_type, errors: [{ message, details }] } } }` when the workflow does not validate;
 * - AUTOMATIC1111 / Forge (FastAPI): 422 `{ detail: [{ loc, msg }] }` for fields it rejects.
 */
function explainHttpError(status: number, body: unknown): string | undefined {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const err = (b.error && typeof b.error === 'object' ? b.error : {}) as Record<string, unknown>;
  const code = `${String(err.code ?? '')} ${String(err.type ?? '')}`;
  if (/content_policy|moderation|safety/.test(code)) {
    return 'the service refused the prompt under its content policy; change the prompt';
  }
  if (status === 401 || status === 403) return 'the service rejected the API key or its permissions';
  if (b.node_errors && typeof b.node_errors === 'object') {
    // ComfyUI: the workflow did not validate; name the node class and ComfyUI's own reason
    for (const node of Object.values(b.node_errors as Record<string, unknown>)) {
      const n = node as { class_type?: unknown; errors?: Array<{ message?: unknown; details?: unknown }> };
      const first = Array.isArray(n?.errors) ? n.errors[0] : undefined;
      const reason = [clip(first?.message, 80), clip(first?.details, 120)].filter(Boolean).join(': ');
      if (reason)
        return `the workflow does not validate in node ${clip(n.class_type, 60) ?? '?'} (${reason})`;
    }
  }
  if (err.type === 'prompt_outputs_failed_validation' || err.type === 'invalid_prompt') {
    return `the workflow does not validate (${clip(err.message) ?? String(err.type)})`;
  }
  if (Array.isArray(b.detail)) {
    const first = b.detail[0] as { loc?: unknown; msg?: unknown } | undefined;
    const where = Array.isArray(first?.loc) ? first.loc.filter((x) => x !== 'body').join('.') : '';
    const msg = clip(first?.msg, 120);
    if (msg) return `the request was refused${where ? ` at ${where}` : ''}: ${msg}`;
  }
  if (status === 400 && clip(err.message)) return `the request was refused: ${clip(err.message)}`;
  return undefined;
}

export async function callRaw(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit & { timeoutMs: number; signal?: AbortSignal | undefined; who: string },
): Promise<Response> {
  const { timeoutMs, signal, who, ...rest } = init;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new DOMException(`${who} did not answer within ${timeoutMs} ms`, 'TimeoutError')),
    Math.max(1, timeoutMs),
  );
  try {
    const res = await doFetch(url, { ...rest, signal: controller.signal });
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const why = explainHttpError(res.status, body);
      throw new ProviderError(`${who} answered HTTP ${res.status}${why ? `: ${why}` : ''}`);
    }
    return res;
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    if (error instanceof ProviderError) throw error;
    if (controller.signal.aborted) throw new ProviderError(`${who} did not answer within ${timeoutMs} ms`);
    throw new ProviderError(`${who} could not be reached`, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
