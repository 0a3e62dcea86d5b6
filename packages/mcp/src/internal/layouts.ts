/**
 * Where the files of a task go and which of them: one row per engine layout (a new engine is a row).
 * `kinds` are the keys of an asset's `metadata.atlas` written beside the PNGs (null: every kind).
 */
export interface Layout {
  readonly description: string;
  readonly kinds: readonly string[] | null;
  /** Rewrites `res://` paths in the Godot resources to where the files land in the Godot project. */
  readonly godotPaths: boolean;
}

export const LAYOUTS = {
  all: {
    description: 'every file: the PNGs and every engine file the server wrote',
    kinds: null,
    godotPaths: true,
  },
  godot: {
    description:
      "the PNGs and the Godot 4 resources (SpriteFrames .tres, TileSet .tres, Parallax2D .tscn; a level's TileMapLayer .tscn with its TileSet .tres and sheets), their res:// paths pointing where the files land in the Godot project",
    kinds: ['godot', 'godotTileSet', 'tilesetImage', 'propsImage'],
    godotPaths: true,
  },
  unity: {
    description: 'the PNGs with their Unity .png.meta (sprite mode Multiple, one rect per frame)',
    kinds: ['unity'],
    godotPaths: false,
  },
  phaser: {
    description: 'the PNGs with the Phaser 3 multi-atlas and animations JSON',
    kinds: ['phaser', 'phaserAnimations'],
    godotPaths: false,
  },
  tiled: {
    description:
      "the PNGs with the Tiled tileset (.tsx) and the tileset JSON; a level's map (.tmx, .tmj) with its tilesets (.tsx) and sheets",
    kinds: ['tiled', 'tileset', 'tiledJson', 'tiledTileset', 'tiledProps', 'tilesetImage', 'propsImage'],
    godotPaths: false,
  },
  ldtk: {
    description: "a level's LDtk project (.ldtk) with its sheets",
    kinds: ['ldtk', 'tilesetImage', 'propsImage'],
    godotPaths: false,
  },
} as const satisfies Record<string, Layout>;

/** A download layout: `all`, `godot`, `unity`, `phaser`, `tiled` or `ldtk` (the rows of the table). */
export type LayoutName = keyof typeof LAYOUTS;

export const LAYOUT_NAMES = Object.keys(LAYOUTS) as LayoutName[];

export function isLayoutName(value: unknown): value is LayoutName {
  return typeof value === 'string' && Object.hasOwn(LAYOUTS, value);
}
