import { errorMessage, isAbortError } from '../errors.js';
import { removeFlatBackground, resizeCover } from '../internal/resample.js';
import { expectedLayout } from '../layout.js';
import { decodePng } from '../png.js';
import { subjectText } from './procedural.js';
import type { GeneratedAsset, ImageProvider, ImageRequest } from './types.js';

export interface OpenAIImageProviderOptions {
  /** OpenAI-compatible base URL including the version, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Size asked of the service; default `1024x1024`. */
  size?: string;
  /** Per request; default 120000. */
  timeoutMs?: number;
  /** Extra attempts after a network error, timeout, 429 or 5xx; default 1. */
  retries?: number;
  /** Images per request (the service's `n`); default 1. */
  batch?: number;
  fetch?: typeof fetch;
}

const DIRECTION_WORDS: Record<string, string> = {
  down: 'facing the viewer',
  up: 'seen from behind',
  left: 'facing left, side view',
  right: 'facing right, side view',
  down_left: 'three-quarter view facing down-left',
  down_right: 'three-quarter view facing down-right',
  up_left: 'three-quarter back view facing up-left',
  up_right: 'three-quarter back view facing up-right',
};

/**
 * An ImageProvider over `POST {baseUrl}/images/generations` with `response_format: b64_json`.
 * Each frame is one image (direction and frame index are added to the prompt); replies are
 * decoded, flat backdrops of sprites and UI pieces made transparent, and resized to the frame.
 */
export function createOpenAIImageProvider(options: OpenAIImageProviderOptions): ImageProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/images/generations`;
  const attempts = 1 + Math.max(0, Math.min(5, Math.floor(options.retries ?? 1)));

  async function request(prompt: string, n: number, signal?: AbortSignal): Promise<Uint8Array[]> {
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      signal?.throwIfAborted();
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(
        () => controller.abort(new DOMException('image request timed out', 'TimeoutError')),
        Math.max(1, options.timeoutMs ?? 120000),
      );
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
          body: JSON.stringify({
            model: options.model,
            prompt,
            n,
            size: options.size ?? '1024x1024',
            response_format: 'b64_json',
          }),
          signal: controller.signal,
        });
        const text = await res.text();
        if (res.status === 429 || res.status >= 500) {
          lastError = new Error(`HTTP ${res.status}`);
          continue;
        }
        if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
        const json = JSON.parse(text) as { data?: Array<{ b64_json?: unknown }> };
        const items = Array.isArray(json?.data) ? json.data : [];
        const images = items.map((d) => (typeof d?.b64_json === 'string' ? base64ToBytes(d.b64_json) : null));
        if (images.length < n || images.some((b) => !b))
          throw new Error(`expected ${n} b64_json images, got ${images.filter(Boolean).length}`);
        return images as Uint8Array[];
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (isAbortError(error) || error instanceof TypeError) {
          lastError = error;
          continue;
        }
        throw error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    }
    throw new Error(`images endpoint failed after ${attempts} attempts: ${errorMessage(lastError)}`);
  }

  return {
    name: `openai-images:${options.model}`,
    async generate(req: ImageRequest, { signal }): Promise<GeneratedAsset> {
      const layout = expectedLayout(
        req.assetType,
        {
          resolution: req.resolution,
          frames: { directions: req.directions, framesPerDirection: req.framesPerDirection },
          format: 'spritesheet',
        },
        subjectText(req),
      );
      const prompts: string[] = [];
      for (let d = 0; d < layout.directions; d++) {
        for (let f = 0; f < layout.framesPerDirection; f++) {
          const dir = layout.directionNames[d] ?? 'down';
          const parts = [req.prompt];
          if (req.assetType === 'sprite' || req.assetType === 'animation') {
            parts.push(`Single character on a plain white background, ${DIRECTION_WORDS[dir] ?? dir}.`);
            if (layout.framesPerDirection > 1)
              parts.push(`Frame ${f + 1} of ${layout.framesPerDirection} of a looping motion.`);
          } else if (req.assetType === 'ui') {
            parts.push(
              `A single ${layout.uiKind ?? 'panel'} UI element on a plain white background, state ${f + 1}.`,
            );
          }
          prompts.push(parts.join('\n'));
        }
      }
      const batch = Math.max(1, Math.min(10, options.batch ?? 1));
      const frames = [];
      for (const prompt of prompts) {
        const [bytes] = await request(prompt, batch, signal);
        const decoded = decodePng(bytes!);
        if (!decoded.ok) throw new Error(decoded.error);
        let img = decoded.image;
        if (req.assetType !== 'background') img = removeFlatBackground(img);
        frames.push(resizeCover(img, layout.frameWidth, layout.frameHeight));
      }
      return {
        frames,
        animation:
          req.assetType === 'ui'
            ? (layout.uiKind ?? 'panel')
            : req.assetType === 'animation'
              ? 'anim'
              : req.assetType,
        ...(layout.uiKind ? { uiKind: layout.uiKind, frameNames: prompts.map((_, i) => `state${i}`) } : {}),
      };
    },
  };
}

function base64ToBytes(b64: string): Uint8Array | null {
  try {
    const bin = atob(b64.replace(/\s+/g, ''));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}
