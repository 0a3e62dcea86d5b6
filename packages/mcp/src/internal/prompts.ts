import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/** Prompts for common flows: what an agent is asked to do, step by step, with the tools. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'character_walk_idle',
    {
      title: 'A character that walks and idles in 8 directions',
      description:
        "Generates a character's walk and idle animations in 8 directions as one character, and writes them into the game.",
      argsSchema: z.object({
        project: z.string().describe('The project (id or name)'),
        character: z.string().describe('Who the character is, e.g. "a knight in blue armour"'),
        folder: z.string().optional().describe('Where the files go, e.g. res://characters/knight'),
        layout: z.string().optional().describe('godot, unity, phaser or all (default godot)'),
      }),
    },
    ({ project, character, folder, layout }) => {
      const where = folder ?? 'res://characters';
      const engine = layout ?? 'godot';
      const seed = 1 + Math.floor(Math.random() * 1_000_000);
      return {
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: [
                `Make ${character} for the game, walking and idling in 8 directions, with the Assetloom tools:`,
                `1. generate_animation with projectId "${project}", prompt "${character} walking", params { frames: { directions: 8, framesPerDirection: 6 }, seed: ${seed}, animation: { fps: 10 } }, saveTo { folder: "${where}/walk", layout: "${engine}" }.`,
                `2. generate_animation with the same projectId and seed, prompt "${character} idle", params { frames: { directions: 8, framesPerDirection: 4 }, seed: ${seed}, animation: { fps: 6, loop: "pingpong" } }, saveTo { folder: "${where}/idle", layout: "${engine}" }.`,
                'The same seed keeps it the same character. Look at each picture you get back; if it is not the character asked for, say so and try another seed for both.',
                engine === 'godot'
                  ? 'Then make an AnimatedSprite2D scene that uses walk/sprite.tres and idle/sprite.tres (each animation is named after its direction).'
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
