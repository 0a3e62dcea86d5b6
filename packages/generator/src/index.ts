/**
 * @assetloom/generator: the built-in generator behind @assetloom/pipeline's provider port.
 *
 * - `createProceduralProvider()`: the `ImageProvider` that draws subjects from licensed drawings
 *   (@assetloom/drawings) turned into pixel art, people and creatures on its rig, scenes, UI pieces
 *   and tilesets; deterministic from the seed. Browser-safe.
 * - `runPipeline(request, options)`: the pipeline's run with this provider when none is given.
 * - `renderProcedural(request)`: one asset without the pipeline (frames, interpretation).
 */
export {
  createProceduralProvider,
  preflightProcedural,
  refusalMessage,
  renderProcedural,
} from './provider.js';
export { IMAGE_PROVIDERS, PROCEDURAL_PROVIDER } from './providers.js';
export { runPipeline } from './run.js';
export { type RenderedTileset, renderTileset, type TilesetJob } from './tileset.js';
