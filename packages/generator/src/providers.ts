import {
  type ImageProviderRow,
  type ImageProviderTable,
  MODEL_PROVIDERS,
} from '@assetloom/pipeline/providers';
import { createProceduralProvider } from './provider.js';

/** The built-in generator's row of the provider table (`IMAGE_PROVIDER=procedural`). */
export const PROCEDURAL_PROVIDER: ImageProviderRow<'procedural'> = {
  kind: 'procedural',
  draws: 'procedural',
  create: () => createProceduralProvider(),
};

/**
 * Every image provider a server can be set to, by `IMAGE_PROVIDER`: the built-in generator and the
 * pipeline's model providers. `createImageProvider(IMAGE_PROVIDERS, settings)` builds the chosen one.
 */
export const IMAGE_PROVIDERS: ImageProviderTable = { procedural: PROCEDURAL_PROVIDER, ...MODEL_PROVIDERS };
