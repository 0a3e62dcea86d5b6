import type { AssetType, GenerateParamName } from './contract.js';

/** One `generate_*` tool: which asset type it asks for and which of the contract's params it offers. */
export interface AssetTypeTool {
  /** The tool's name (`generate_<type>`). */
  readonly tool: string;
  readonly title: string;
  /** What the agent reads to choose the tool: what it draws, and what the files are. */
  readonly description: string;
  /**
   * The properties of the contract's `GenerateParams` this type takes; their JSON Schemas are the
   * contract's own (see `generateInputSchema`). A name the contract does not have fails the typecheck.
   */
  readonly params: readonly GenerateParamName[];
}

const PICTURE_INPUTS = ['image', 'mask', 'references', 'paletteFrom'] as const satisfies GenerateParamName[];

/**
 * The asset types as tools: one row per type of the contract's `AssetType` (a type added to the
 * contract fails the typecheck here until it has its row). Kept characters are not an asset type but
 * endpoints of their own: their tools are in character-tools.ts.
 */
export const ASSET_TYPE_TOOLS = {
  sprite: {
    tool: 'generate_sprite',
    title: 'Generate a sprite',
    description:
      'Draws a pixel-art sprite of the thing the prompt names ("a knight", "a green slime", "宝箱"), by default 4 directions × 4 frames on one sheet, with its engine files (Godot SpriteFrames .tres, Unity .png.meta, Phaser 3 atlas and animations, TexturePacker and Aseprite JSON).',
    params: ['resolution', 'frames', 'format', 'seed', 'animation', 'placeholder', ...PICTURE_INPUTS],
  },
  animation: {
    tool: 'generate_animation',
    title: 'Generate an animation',
    description:
      'Draws an animated character or object: the action the prompt names ("a knight walking", "a slime idle", "a chest opening") in 1, 4 or 8 directions (params.frames.directions) with 1-16 frames each, playback in params.animation, with the same engine files as a sprite. Keep params.seed the same across a character\'s actions so they draw the same character.',
    params: ['resolution', 'frames', 'format', 'seed', 'animation', 'placeholder', ...PICTURE_INPUTS],
  },
  background: {
    tool: 'generate_background',
    title: 'Generate a background',
    description:
      'Draws a background from the place, time, weather and things the prompt names ("a harbour at dusk", "a desert with pyramids at night") at the canvas asked (params.width × params.height, e.g. 320 × 180); params.format "individual" adds its depth layers with a Godot Parallax2D scene.',
    params: ['resolution', 'width', 'height', 'format', 'seed', ...PICTURE_INPUTS],
  },
  ui: {
    tool: 'generate_ui',
    title: 'Generate a UI piece',
    description:
      'Draws a UI piece: an icon of the thing named, a button in four states with its words (a button that says "Play"), a bar empty and full, a label, or a panel in wood, stone, gold or metal with 9-slice insets; params.width × params.height give its size.',
    params: ['resolution', 'width', 'height', 'format', 'seed', ...PICTURE_INPUTS],
  },
  tileset: {
    tool: 'generate_tileset',
    title: 'Generate a tileset',
    description:
      'Draws terrain tiles that join without seams from two terrains the prompt names ("grass and water", "sand and lava"): a 16-tile Wang set, a 47-tile blob set or one seamless tile (params.tileset), with a Godot 4 TileSet whose terrain brush works at once, a Tiled .tsx with its Wang set and a JSON description.',
    params: ['tileset', 'seed'],
  },
  level: {
    tool: 'generate_level',
    title: 'Generate a level',
    description:
      'Builds a playable top-down level from a prompt ("a small island with a lake, a forest in the north and a path to a cave", "a dungeon with five rooms"): params.level gives its size in tiles (columns × rows, 8-256), the tile size and either a completed wang16/blob47 tileset task of the project (tilesetTaskId) or the terrains to draw. Every walkable place is joined, features sit where the words put them, tiles join by their Wang or blob rules, props are objects; files for Tiled (.tmx, .tmj, .tsx), LDtk (.ldtk) and Godot 4 (.tscn TileMapLayer with its TileSet .tres), and a preview PNG.',
    params: ['level', 'seed'],
  },
} as const satisfies Record<AssetType, AssetTypeTool>;
