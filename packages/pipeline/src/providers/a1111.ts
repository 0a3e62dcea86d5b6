import { keepOutsideMask, modelPictures, pngBytes, toBase64 } from '../image-input/model-inputs.js';
import type { GeneratedAsset, ImageProvider, ImageRequest } from '../types/index.js';
import {
  assetFrom,
  base64ToBytes,
  callJson,
  callRaw,
  decodeModelPng,
  ProviderError,
  planSheet,
  splitSheet,
} from './model-common.js';

export interface A1111ProviderOptions {
  /** e.g. `http://127.0.0.1:7860` (AUTOMATIC1111 or Forge started with --api). */
  baseUrl: string;
  steps?: number;
  cfgScale?: number;
  samplerName?: string;
  /** Longest edge of the picture asked for; default 1024. */
  maxEdge?: number;
  /** How often `/sdapi/v1/progress` is read; default 1000 ms. */
  pollMs?: number;
  /** The whole generation; default 300000. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * An ImageProvider for AUTOMATIC1111's stable-diffusion-webui or Forge (modules/api/api.py):
 * `POST /sdapi/v1/txt2img` for the picture, `GET /sdapi/v1/progress` while it runs (forwarded as
 * asset_generator progress) and `POST /sdapi/v1/interrupt` on abort or time-out. One picture
 * holds the whole sheet.
 */
export function createA1111Provider(options: A1111ProviderOptions): ImageProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = Math.max(1, options.timeoutMs ?? 300000);
  const pollMs = Math.max(10, options.pollMs ?? 1000);
  const who = 'AUTOMATIC1111';
  return {
    name: 'a1111',
    kind: 'model',
    // img2img with init_images, denoising_strength and a mask (decision 0034); no reference pictures
    inputs: { image: true, mask: true },
    async generate(req: ImageRequest, { signal, onProgress }): Promise<GeneratedAsset> {
      signal?.throwIfAborted();
      const plan = planSheet(req, options.maxEdge ?? 1024);
      const body = {
        prompt: plan.prompt,
        negative_prompt: plan.negativePrompt,
        seed: req.seed,
        width: plan.width,
        height: plan.height,
        batch_size: 1,
        n_iter: 1,
        steps: options.steps ?? 25,
        cfg_scale: options.cfgScale ?? 7,
        ...(options.samplerName ? { sampler_name: options.samplerName } : {}),
      };
      // a picture to start from: /sdapi/v1/img2img, the mask's white repainted, the rest kept
      const pictures = req.inputs?.image ? modelPictures(req.inputs, plan) : null;
      const img2img = pictures
        ? {
            ...body,
            init_images: [toBase64(pngBytes(pictures.init))],
            denoising_strength: req.inputs?.image?.strength ?? 0.5,
            ...(pictures.mask
              ? {
                  mask: toBase64(pngBytes(pictures.mask)),
                  inpainting_fill: 1,
                  inpaint_full_res: false,
                  inpainting_mask_invert: 0,
                  mask_blur: 0,
                }
              : {}),
          }
        : null;
      let finished = false;
      let wake: (() => void) | undefined;
      const poller = (async () => {
        while (!finished) {
          await new Promise<void>((r) => {
            const t = setTimeout(r, pollMs);
            wake = () => {
              clearTimeout(t);
              r();
            };
          });
          if (finished) break;
          try {
            const p = (await callJson(doFetch, `${base}/sdapi/v1/progress?skip_current_image=true`, {
              method: 'GET',
              timeoutMs: Math.min(10000, timeoutMs),
              who,
            })) as { progress?: unknown } | null;
            const v = Number(p?.progress);
            if (!finished && Number.isFinite(v) && v > 0) onProgress?.(Math.min(95, v * 95), 'sampling');
          } catch {
            // progress is a nicety: a failed read does not fail the run
          }
        }
      })();
      try {
        const reply = (await callJson(doFetch, `${base}/sdapi/v1/${img2img ? 'img2img' : 'txt2img'}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(img2img ?? body),
          timeoutMs,
          signal,
          who,
        })) as { images?: unknown } | null;
        const images = reply && Array.isArray(reply.images) ? reply.images : null;
        if (!images?.length) throw new ProviderError('AUTOMATIC1111 replied without images');
        const bytes = base64ToBytes(images[0]);
        if (!bytes) throw new ProviderError('AUTOMATIC1111 sent an image that is not base64');
        const drawn = decodeModelPng(bytes, who);
        const picture = pictures ? keepOutsideMask(drawn, pictures) : drawn;
        return assetFrom(plan, splitSheet(picture, plan.cols, plan.rows));
      } catch (error) {
        finished = true;
        await callRaw(doFetch, `${base}/sdapi/v1/interrupt`, { method: 'POST', timeoutMs: 5000, who }).catch(
          () => undefined,
        );
        throw error;
      } finally {
        finished = true;
        wake?.();
        await poller;
      }
    },
  };
}
