import type { ImageProvider } from '../types/index.js';
import { createA1111Provider } from './a1111.js';
import { type ComfyWorkflow, createComfyUIProvider, type WebSocketConstructor } from './comfyui.js';
import { createOpenAIImageProvider } from './openai-images.js';

/**
 * The settings of each image provider a server can be set to (`IMAGE_PROVIDER` and its variables),
 * keyed by `kind`. Plain data: a server thread receives them and builds its own provider.
 */
export type ImageProviderSettings =
  | { kind: 'procedural' }
  | { kind: 'openai'; baseUrl: string; apiKey: string; model: string; timeoutMs: number; quality?: string }
  | {
      kind: 'comfyui';
      baseUrl: string;
      /** Parsed API-format workflow, or undefined for the default. */
      workflow?: ComfyWorkflow;
      checkpoint?: string;
      timeoutMs: number;
      /** The sampler's steps (the workflow's own when unset). */
      steps?: number;
      /** Longest edge of the picture asked for (default 1024; a CPU box wants 256-512). */
      maxEdge?: number;
    }
  | { kind: 'a1111'; baseUrl: string; timeoutMs: number; steps?: number; samplerName?: string };

export type ImageProviderKind = ImageProviderSettings['kind'];

/** What a provider may need from its host beyond its settings (Node 20 has no global WebSocket). */
export interface ImageProviderDeps {
  WebSocket?: WebSocketConstructor;
}

/** One row of the provider table: how the provider of one `kind` is built from its settings. */
export interface ImageProviderRow<K extends ImageProviderKind = ImageProviderKind> {
  readonly kind: K;
  /** `model` pictures go through pixelize and the model-output checks; `procedural` ones do not. */
  readonly draws: 'model' | 'procedural';
  create(settings: Extract<ImageProviderSettings, { kind: K }>, deps: ImageProviderDeps): ImageProvider;
}

/** Every kind's row: the table a server chooses from by setting. */
export type ImageProviderTable = { readonly [K in ImageProviderKind]: ImageProviderRow<K> };

/**
 * The image-model rows. The `procedural` row is the built-in generator's (@assetloom/generator
 * exports it, and the whole table as `IMAGE_PROVIDERS`), so the pipeline depends on no generator.
 */
export const MODEL_PROVIDERS: Omit<ImageProviderTable, 'procedural'> = {
  openai: {
    kind: 'openai',
    draws: 'model',
    create: (s) =>
      createOpenAIImageProvider({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        model: s.model,
        timeoutMs: s.timeoutMs,
        ...(s.quality ? { quality: s.quality } : {}),
      }),
  },
  comfyui: {
    kind: 'comfyui',
    draws: 'model',
    create: (s, deps) =>
      createComfyUIProvider({
        baseUrl: s.baseUrl,
        timeoutMs: s.timeoutMs,
        ...(deps.WebSocket ? { WebSocket: deps.WebSocket } : {}),
        ...(s.workflow ? { workflow: s.workflow } : {}),
        ...(s.checkpoint ? { checkpoint: s.checkpoint } : {}),
        ...(s.steps !== undefined ? { steps: s.steps } : {}),
        ...(s.maxEdge !== undefined ? { maxEdge: s.maxEdge } : {}),
      }),
  },
  a1111: {
    kind: 'a1111',
    draws: 'model',
    create: (s) =>
      createA1111Provider({
        baseUrl: s.baseUrl,
        timeoutMs: s.timeoutMs,
        ...(s.steps !== undefined ? { steps: s.steps } : {}),
        ...(s.samplerName ? { samplerName: s.samplerName } : {}),
      }),
  },
};

/**
 * The provider the settings choose, from `table`: the row of `settings.kind` builds it. Throws what
 * the row throws (a ComfyUI workflow it cannot fill) — a start-up error for a server.
 */
export function createImageProvider(
  table: ImageProviderTable,
  settings: ImageProviderSettings,
  deps: ImageProviderDeps = {},
): ImageProvider {
  const row = table[settings.kind] as ImageProviderRow | undefined;
  if (row === undefined)
    throw new RangeError(
      `[assetloom/pipeline] no image provider "${settings.kind}": choose one of ${Object.keys(table).join(', ')}`,
    );
  return row.create(settings as never, deps);
}
