/**
 * @assetloom/generator: the built-in generator behind @assetloom/pipeline's provider port.
 *
 * - `createProceduralProvider()`: the `ImageProvider` that draws subjects from licensed drawings
 *   (@assetloom/drawings) turned into pixel art, people and creatures on its rig, scenes, UI pieces
 *   and tilesets; deterministic from the seed. Browser-safe.
 * - `runPipeline(request, options)`: the pipeline's run with this provider when none is given.
 * - `renderProcedural(request)`: one asset without the pipeline (frames, interpretation).
 * - `characterIdentity(request)`, `drawCharacter(…)`: a character of the rig kept as plain JSON and
 *   drawn from it in any action and direction; `characterRig(…)` its skeleton for Spine, DragonBones,
 *   Godot and Aseprite; `characterActionRig(…)` one action's Spine and DragonBones files (a task's).
 */
export {
  CHARACTER_ACTIONS,
  type CharacterAction,
  type CharacterFrames,
  type CharacterIdentity,
  type CharacterRequest,
  characterActionRig,
  characterIdentity,
  characterRig,
  drawCharacter,
  type RigFile,
} from './character.js';
export {
  configureWordnetLinks,
  sharedWordnetLinks,
  type WordnetLinkTexts,
} from './internal/art/subject.js';
export {
  createProceduralProvider,
  preflightProcedural,
  refusalMessage,
  renderProcedural,
} from './provider.js';
export { IMAGE_PROVIDERS, PROCEDURAL_PROVIDER } from './providers.js';
export { runPipeline } from './run.js';
export { type RenderedTileset, renderTileset, type TilesetJob } from './tileset.js';
