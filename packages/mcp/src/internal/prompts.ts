import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/** Prompts for common flows: what an agent is asked to do, step by step, with the tools. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'character_walk_idle',
    {
      title: 'A character that walks and idles in 8 directions',
      description:
        'Creates a kept character once, then animates it walking and idling in 8 directions from its stored identity (the same character in both), and writes the files into the game.',
      argsSchema: z.object({
        project: z.string().describe('The project (id or name)'),
        character: z.string().describe('Who the character is, e.g. "a knight in blue armour"'),
        name: z
          .string()
          .optional()
          .describe('Its name in the project, e.g. "Knight" (default: from the description)'),
        size: z.string().optional().describe('The side of its frames: 32, 64 or 128 px (default 64)'),
        folder: z.string().optional().describe('Where the files go, e.g. res://characters/knight'),
        layout: z.string().optional().describe('godot, unity, phaser or all (default godot)'),
      }),
    },
    ({ project, character, name, size, folder, layout }) => {
      const where = folder ?? 'res://characters';
      const engine = layout ?? 'godot';
      const named = (name ?? character).slice(0, 64);
      const side = size === '32' || size === '128' ? Number(size) : 64;
      return {
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: [
                `Make ${character} for the game, walking and idling in 8 directions, with the Assetloom tools:`,
                `1. create_character with projectId "${project}", name ${JSON.stringify(named)}, prompt ${JSON.stringify(character)}, size ${side}. It keeps the character (prompt, seed, style, size, palette) and answers its characterId and its base view. Look at the picture: if it is not the character asked for, delete_character and create it again with a clearer prompt or another seed. (If it is refused because the built-in generator draws only people and humanoids, use generate_animation for each action with one seed instead.)`,
                `2. animate_character with that characterId, action "walk", directions 8, framesPerDirection 6, saveTo { folder: "${where}/walk", layout: "${engine}" }.`,
                `3. animate_character with the same characterId, action "idle", directions 8, framesPerDirection 4, saveTo { folder: "${where}/idle", layout: "${engine}" }.`,
                'Both are drawn from the character kept in step 1, so they are the same character; do not create it again for the second action. Look at each sheet you get back (one row per direction).',
                engine === 'godot'
                  ? 'Then make an AnimatedSprite2D scene that uses walk/animation.tres and idle/animation.tres (each has an animation per direction).'
                  : 'Then wire the sheets into the game with the engine files written beside them.',
              ].join('\n'),
            },
          },
        ],
      };
    },
  );

  server.registerPrompt(
    'tileset_with_level',
    {
      title: 'A tileset with a level',
      description: 'Generates a terrain tileset and builds a small level with it in Godot.',
      argsSchema: z.object({
        project: z.string().describe('The project (id or name)'),
        terrains: z.string().describe('Two terrains, e.g. "grass and water"'),
        folder: z.string().optional().describe('Where the files go, e.g. res://tiles'),
      }),
    },
    ({ project, terrains, folder }) => ({
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: [
              `Make a ${terrains} tileset and a first level with it, with the Assetloom tools:`,
              `1. generate_tileset with projectId "${project}", prompt "${terrains}", params { tileset: { kind: "blob47", tileSize: 16 } }, saveTo { folder: "${folder ?? 'res://tiles'}", layout: "godot" }.`,
              '2. Look at the tileset picture. The Godot TileSet (tileset.tres) has one terrain set with both terrains and their peering bits.',
              '3. Make a level scene: a TileMapLayer using tileset.tres, then paint a small map (e.g. 40 × 23 cells: an island of the second terrain in the first) with set_cells_terrain_connect, so the tiles join by themselves. Save it as level_1.tscn beside the tileset.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}
