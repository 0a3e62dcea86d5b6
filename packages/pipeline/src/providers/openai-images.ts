import {
  alphaMask,
  keepOutsideMask,
  type ModelPictures,
  modelPictures,
  pngBytes,
} from '../image-input/model-inputs.js';
import type { GeneratedAsset, ImageProvider, ImageRequest } from '../types/index.js';
import {
  assetFrom,
  base64ToBytes,
  callRaw,
  decodeModelPng,
  ProviderError,
  planSheet,
  splitSheet,
} from './model-common.js';

export interface OpenAIImageProviderOptions {
  /** OpenAI-compatible base URL including the version, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  /** e.g. `gpt-image-1`, `dall-e-3`, `dall-e-2`. */
  model: string;
  /** Size asked of the service; default: the sheet's shape mapped to a size the model accepts. */
  size?: string;
  /** Per request; default 120000. */
  timeoutMs?: number;
  /** Extra attempts after a network error, timeout, 429 or 5xx; default 1. */
  retries?: number;
  /** gpt-image models: `low` | `medium` | `high` | `auto` (sent only when set). */
  quality?: string;
  fetch?: typeof fetch;
}

/** Whether a model is of the gpt-image family (b64 always, `background`, `output_format`, no `response_format`). */
function isGptImageModel(model: string): boolean {
  return /^gpt-image/i.test(model) || /^chatgpt-image/i.test(model);
}

/**
 * The body of `POST /images/generations` with only the fields the chosen model accepts:
 * gpt-image models get `background: transparent` and `output_format: png` (they always answer
 * b64_json and reject `response_format`); DALL·E models get `response_format: b64_json` and no
 * `background`/`output_format`; dall-e-3 draws one image per request (`n` is 1 everywhere).
 */
export function openAIImageBody(
  model: string,
  prompt: string,
  size: string,
  extra: { quality?: string | undefined } = {},
): Record<string, unknown> {
  if (isGptImageModel(model)) {
    return {
      model,
      prompt,
      n: 1,
      size,
      background: 'transparent',
      output_format: 'png',
      ...(extra.quality ? { quality: extra.quality } : {}),
    };
  }
  return { model, prompt, n: 1, size, response_format: 'b64_json' };
}

function sizeFor(model: string, width: number, height: number): string {
  const wide = width > height * 1.2;
  const tall = height > width * 1.2;
  if (isGptImageModel(model)) return wide ? '1536x1024' : tall ? '1024x1536' : '1024x1024';
  if (/dall-e-3/i.test(model)) return wide ? '1792x1024' : tall ? '1024x1792' : '1024x1024';
  return '1024x1024';
}

/**
 * An ImageProvider over `POST {baseUrl}/images/generations` (OpenAI Images and compatible
 * services). The whole sheet is ONE request: the model draws every frame in one picture (a grid
 * the provider cuts again), so the character stays the same from frame to frame. Pictures go
 * through pixelize in the pipeline (kind: 'model').
 */
export function createOpenAIImageProvider(options: OpenAIImageProviderOptions): ImageProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/images/generations`;
  const editsUrl = `${options.baseUrl.replace(/\/+$/, '')}/images/edits`;
  const gpt = isGptImageModel(options.model);
  const attempts = 1 + Math.max(0, Math.min(5, Math.floor(options.retries ?? 1)));
  const who = 'the image service';

  async function request(
    body: Record<string, unknown> | FormData,
    signal?: AbortSignal,
    to: string = url,
  ): Promise<Uint8Array> {
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      signal?.throwIfAborted();
      try {
        const res = await callRaw(doFetch, to, {
          method: 'POST',
          headers:
            body instanceof FormData
              ? { authorization: `Bearer ${options.apiKey}` }
              : { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
          body: body instanceof FormData ? body : JSON.stringify(body),
          timeoutMs: Math.max(1, options.timeoutMs ?? 120000),
          signal,
          who,
        });
        let json: { data?: Array<{ b64_json?: unknown }> } | null;
        try {
          json = JSON.parse(await res.text());
        } catch {
          throw new ProviderError('the image service sent a reply that is not JSON');
        }
        const bytes = base64ToBytes(Array.isArray(json?.data) ? json.data[0]?.b64_json : undefined);
        if (!bytes) throw new ProviderError('the image service replied without a b64_json image');
        return bytes;
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        lastError = error;
        const msg = error instanceof Error ? error.message : '';
        const retryable = /HTTP (429|5\d\d)|did not answer|could not be reached/.test(msg);
        if (!retryable) throw error;
      }
    }
    throw lastError instanceof ProviderError
      ? new ProviderError(`${lastError.message} (after ${attempts} attempts)`)
      : new ProviderError(`the image service failed after ${attempts} attempts`);
  }

  /**
   * The multipart body of `POST /images/edits`: `image` (gpt-image models: `image[]`, the picture
   * first, then the references), `mask` (transparent where to edit), the prompt and size. OpenAI has
   * no strength: gpt-image models get `input_fidelity` `high` for a strength up to 0.5 (keep more of
   * the picture) and `low` above it.
   */
  function editForm(pictures: ModelPictures, prompt: string, size: string, req: ImageRequest): FormData {
    const form = new FormData();
    form.append('model', options.model);
    form.append('prompt', prompt);
    form.append('n', '1');
    form.append('size', size);
    const images = [...(req.inputs?.image ? [pictures.init] : []), ...pictures.references];
    const field = gpt ? 'image[]' : 'image';
    images.forEach((img, i) => {
      form.append(field, new Blob([pngBytes(img) as BlobPart], { type: 'image/png' }), `image-${i}.png`);
    });
    if (pictures.mask) {
      form.append(
        'mask',
        new Blob([pngBytes(alphaMask(pictures.mask)) as BlobPart], { type: 'image/png' }),
        'mask.png',
      );
    }
    if (gpt) {
      form.append('output_format', 'png');
      form.append('background', 'transparent');
      if (req.inputs?.image) form.append('input_fidelity', req.inputs.image.strength <= 0.5 ? 'high' : 'low');
      if (options.quality) form.append('quality', options.quality);
    } else {
      form.append('response_format', 'b64_json');
    }
    return form;
  }

  return {
    name: `openai-images:${options.model}`,
    kind: 'model',
    // POST /images/edits (decision 0034): a picture and a mask on every model that edits; references
    // (more pictures in one edit) on gpt-image models only
    inputs: { image: true, mask: true, references: gpt },
    async generate(req: ImageRequest, { signal, onProgress }): Promise<GeneratedAsset> {
      const plan = planSheet(req);
      const size = options.size ?? sizeFor(options.model, plan.width, plan.height);
      const prompt = `${plan.prompt}\nAvoid: ${plan.negativePrompt}.`;
      const pictures = modelPictures(req.inputs, plan);
      if (pictures) {
        onProgress?.(5, 'editing the picture');
        const edited = decodeModelPng(
          await request(editForm(pictures, prompt, size, req), signal, editsUrl),
          who,
        );
        const picture = keepOutsideMask(edited, pictures);
        return assetFrom(plan, splitSheet(picture, plan.cols, plan.rows));
      }
      onProgress?.(5, 'drawing the sheet');
      const bytes = await request(
        openAIImageBody(options.model, prompt, size, { quality: options.quality }),
        signal,
      );
      const picture = decodeModelPng(bytes, who);
      return assetFrom(plan, splitSheet(picture, plan.cols, plan.rows));
    },
  };
}
