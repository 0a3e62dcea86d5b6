import type { AssetApiOperations } from '@assetloom/openapi';
import type {
  AnimateCharacterRequest,
  AssetClient,
  Character,
  CreateCharacterRequest,
  RotateCharacterRequest,
} from '@assetloom/sdk';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { json, projectIdOf, text } from './answers.js';
import { CHARACTER_SCHEMAS } from './tool-schemas.js';
import type { Args, SaveTo, ToolKit } from './tools.js';

/** The contract's character operations (tag `characters`): a new one fails the typecheck below until it has a tool. */
type CharacterOperation = Extract<keyof AssetApiOperations, `${string}Character${string}`>;

/**
 * Which tool calls each character operation of the contract (the compiler asks for a row when the
 * contract adds one). A character's task list comes with `get_character`.
 */
const CHARACTER_TOOL_OF = {
  listCharacters: 'list_characters',
  createCharacter: 'create_character',
  getCharacter: 'get_character',
  updateCharacter: 'rename_character',
  deleteCharacter: 'delete_character',
  animateCharacter: 'animate_character',
  rotateCharacter: 'rotate_character',
  listCharacterTasks: 'get_character',
} as const satisfies Record<CharacterOperation, string>;

/** The URI of a character as an MCP resource. */
export function characterUri(characterId: string): string {
  return `assetloom://characters/${encodeURIComponent(characterId)}`;
}

/** The URI of a task as an MCP resource. */
function taskUri(taskId: string): string {
  return `assetloom://tasks/${encodeURIComponent(taskId)}`;
}

/** A task answer with the character it belongs to: a first line saying what to call next, the character in the structure. */
function withCharacter(result: CallToolResult, character: Character, lead: string): CallToolResult {
  return {
    ...result,
    content: [{ type: 'text', text: lead }, ...result.content],
    structuredContent: {
      character: { ...character, uri: characterUri(character.id) },
      ...(result.structuredContent ?? {}),
    },
  };
}

/**
 * The kept-character tools (issue #40's endpoints, through the SDK's `characters` methods): a
 * character is made once from a prompt or a picture, then animated (walk, idle, attack … in 1, 4 or 8
 * directions) and turned, every task drawn from its stored identity. The long ones report progress,
 * can be cancelled, answer the PNG as an image and write the files with `saveTo`.
 */
export function registerCharacterTools(kit: ToolKit): void {
  const { tc, register, checkSaveTo, finish } = kit;
  const { session } = tc;
  const lang = tc.language;
  const saveToOf = (args: Args) => args.saveTo as SaveTo | undefined;

  register(
    CHARACTER_TOOL_OF.listCharacters,
    {
      title: 'List characters',
      description:
        "A project's kept characters, newest first: id, name, what they are (identity.prompt), size, base view's task.",
      schema: CHARACTER_SCHEMAS.list,
      readOnly: true,
    },
    'the character list',
    async (args, ctx) =>
      json(
        await session.run(async (api) => {
          const projectId = await projectIdOf(api, String(args.projectId), lang());
          const page = {
            ...(args.page !== undefined ? { page: args.page as number } : {}),
            ...(args.pageSize !== undefined ? { pageSize: args.pageSize as number } : {}),
          };
          const list = await api.characters.list(projectId, page, { signal: ctx.mcpReq.signal });
          return {
            total: list.total,
            characters: list.characters.map((c) => ({ ...c, uri: characterUri(c.id) })),
          };
        }),
      ),
  );

  register(
    CHARACTER_TOOL_OF.createCharacter,
    {
      title: 'Create a character',
      description:
        'Makes a character that is kept: from a prompt ("a knight in blue armour", "a girl with a red scarf") or an uploaded picture (uploadId), with a size (32, 64 or 128 px frames), the project\'s style (style overrides keys) and a seed, all stored as its identity. Draws its base view (progress while it runs, the PNG as an image). Then animate_character and rotate_character draw this same character doing any action in 4 or 8 directions. The built-in generator draws people and humanoids; an animal or a thing is refused naming prompt (draw it with generate_animation).',
      schema: CHARACTER_SCHEMAS.create,
    },
    'the new character',
    async (args, ctx) => {
      const saveTo = saveToOf(args);
      await checkSaveTo(saveTo);
      const { projectId: project, wait, saveTo: _saveTo, ...body } = args;
      const character = await session.run(async (api) => {
        const projectId = await projectIdOf(api, String(project), lang());
        return api.characters.create(projectId, body as CreateCharacterRequest, {
          signal: ctx.mcpReq.signal,
        });
      });
      const lead = `Character "${character.name}" kept: characterId ${character.id} (seed ${character.identity.seed}, ${character.identity.size} px). animate_character with this characterId draws it walking, idling, attacking … in 4 or 8 directions; rotate_character turns it.`;
      if (wait === false) {
        return withCharacter(
          text(`Its base view is task ${character.baseTaskId}; wait_for_task follows it.`),
          character,
          lead,
        );
      }
      return withCharacter(
        await finish(CHARACTER_TOOL_OF.createCharacter, character.baseTaskId, ctx, saveTo),
        character,
        lead,
      );
    },
  );

  register(
    CHARACTER_TOOL_OF.getCharacter,
    {
      title: 'Read a character',
      description:
        'A kept character: its identity (prompt, seed, style, size, palette) and its tasks (base view, animations, turns), newest first.',
      schema: CHARACTER_SCHEMAS.character,
      readOnly: true,
    },
    'the character',
    async (args, ctx) =>
      json(await session.run((api) => characterWithTasks(api, String(args.characterId), ctx.mcpReq.signal))),
  );

  register(
    CHARACTER_TOOL_OF.updateCharacter,
    {
      title: 'Rename a character',
      description: 'Gives a kept character a new name; its identity (what it looks like) never changes.',
      schema: CHARACTER_SCHEMAS.rename,
    },
    'the character',
    async (args, ctx) =>
      json(
        await session.run((api) =>
          api.characters.rename(String(args.characterId), String(args.name), { signal: ctx.mcpReq.signal }),
        ),
      ),
  );

  register(
    CHARACTER_TOOL_OF.deleteCharacter,
    {
      title: 'Delete a character',
      description:
        "Deletes one of your kept characters (another user's is refused). Its tasks and files stay with the project (list_tasks, download_task); it can no longer be animated.",
      schema: CHARACTER_SCHEMAS.character,
      destructive: true,
    },
    'the character',
    async (args, ctx) => {
      const characterId = String(args.characterId);
      await session.run((api) => api.characters.delete(characterId, { signal: ctx.mcpReq.signal }));
      return text(
        `Character ${characterId} deleted; its tasks and files stay with the project (list_tasks lists them).`,
        { deleted: characterId },
      );
    },
  );

  /** animate_character and rotate_character: submit with the character's identity, then follow the task. */
  const submitting =
    (
      tool: string,
      submit: (characterId: string, body: Args, signal: AbortSignal) => Promise<{ taskId: string }>,
    ) =>
    async (args: Args, ctx: Parameters<Parameters<ToolKit['register']>[3]>[1]) => {
      const saveTo = saveToOf(args);
      await checkSaveTo(saveTo);
      const { characterId, wait, saveTo: _saveTo, ...body } = args;
      const { taskId } = await submit(String(characterId), body, ctx.mcpReq.signal);
      if (wait === false) {
        return text(`Task ${taskId} submitted (character ${characterId}); wait_for_task follows it.`, {
          taskId,
          status: 'running',
          characterId,
        });
      }
      return finish(tool, taskId, ctx, saveTo);
    };

  register(
    CHARACTER_TOOL_OF.animateCharacter,
    {
      title: 'Animate a character',
      description:
        'Draws a kept character (create_character) doing an action — idle, walk, run, jump, attack, cast, hurt or death — in 1, 4 or 8 directions (directions) with framesPerDirection frames each, from its stored identity, so every action is the same character. Reports progress, answers the sheet as an image (one row per direction) with links to every file (Godot SpriteFrames with an animation per direction, Unity, Phaser, Spine and DragonBones for a rigged character); saveTo writes them into an allowed folder.',
      schema: CHARACTER_SCHEMAS.animate,
    },
    'the animation',
    submitting(CHARACTER_TOOL_OF.animateCharacter, (characterId, body, signal) =>
      session.run((api) => api.characters.animate(characterId, body as AnimateCharacterRequest, { signal })),
    ),
  );

  register(
    CHARACTER_TOOL_OF.rotateCharacter,
    {
      title: 'Turn a character',
      description:
        'Draws a kept character standing in 4 or 8 directions (one frame each) from its stored identity: a turnaround sheet, with progress, the PNG as an image and links to every file; saveTo writes them.',
      schema: CHARACTER_SCHEMAS.rotate,
    },
    'the turnaround',
    submitting(CHARACTER_TOOL_OF.rotateCharacter, (characterId, body, signal) =>
      session.run((api) => api.characters.rotate(characterId, body as RotateCharacterRequest, { signal })),
    ),
  );
}

/** A character with the first page of its tasks (what get_character and its resource answer). */
export async function characterWithTasks(api: AssetClient<true>, characterId: string, signal?: AbortSignal) {
  const options = signal ? { signal } : {};
  const character = await api.characters.get(characterId, options);
  const tasks = await api.characters.tasks(characterId, { pageSize: 20 }, options);
  return {
    ...character,
    uri: characterUri(character.id),
    taskCount: tasks.total,
    tasks: tasks.tasks.map((t) => ({ ...t, uri: taskUri(t.id) })),
  };
}
