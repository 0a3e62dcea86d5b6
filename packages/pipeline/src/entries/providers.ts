/**
 * `@assetloom/pipeline/providers`: the image-model providers behind the pipeline's provider port —
 * ComfyUI, AUTOMATIC1111 / Forge and OpenAI Images. Their pictures go through pixelize and the
 * model-output checks before the format adapter. `MODEL_PROVIDERS` and `createImageProvider`: the
 * typed table a server chooses its provider from by setting (the built-in generator's row is
 * @assetloom/generator's `IMAGE_PROVIDERS.procedural`).
 *
 * @packageDocumentation
 */
export { type A1111ProviderOptions, createA1111Provider } from '../providers/a1111.js';
export {
  type ComfyUIProviderOptions,
  type ComfyWorkflow,
  createComfyUIProvider,
  DEFAULT_COMFYUI_WORKFLOW,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../providers/comfyui.js';
export { createOpenAIImageProvider, type OpenAIImageProviderOptions } from '../providers/openai-images.js';
export {
  createImageProvider,
  type ImageProviderDeps,
  type ImageProviderKind,
  type ImageProviderRow,
  type ImageProviderSettings,
  type ImageProviderTable,
  MODEL_PROVIDERS,
} from '../providers/registry.js';
