// The MCP server driven by the MCP SDK's own client over both transports — the bin over stdio and
// the reference server's /mcp over Streamable HTTP — against a real server process (its bin, the
// embedded store): list the tools, generate a sprite with progress, get the picture, write the
// Godot files into the allowed folder, refuse paths outside it; keep a character and animate it.
import { lstat, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractSchema } from '../src/internal/contract.js';
import { connect, startWorld, type TransportName, type World } from './harness.js';

type Content = { type: string; text?: string; data?: string; mimeType?: string; uri?: string; name?: string };
type ToolResult = { content: Content[]; isError?: boolean; structuredContent?: Record<string, unknown> };

let world: World;
beforeAll(async () => {
  // a low submission limit, so a rate-limit answer can be reached (each test's user has its own budget)
  world = await startWorld({ GENERATE_MAX_REQUESTS: '3', GENERATE_WINDOW_SECONDS: '600' });
});
afterAll(async () => {
  await world?.stop();
});

function textOf(result: ToolResult): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

describe.each<[TransportName]>([['stdio'], ['streamable-http']])('over %s', (transport) => {
  let client: Client;
  let token: string;
  beforeAll(async () => {
    ({ token } = await world.account(`ada-${transport}`));
    client = await connect(world, transport, token);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools, their generate_* inputs the contract schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'generate_sprite',
      'generate_animation',
      'generate_background',
      'generate_ui',
      'generate_tileset',
      'generate_level',
    ]) {
      expect(names).toContain(name);
    }
    expect(names).toEqual(
      expect.arrayContaining([
        'list_projects',
        'create_project',
        'set_style',
        'style_catalog',
        'upload_image',
        'task_status',
        'wait_for_task',
        'download_task',
      ]),
    );
    // the login tool is for stdio; the HTTP mount is signed in by its request
    expect(names.includes('login')).toBe(transport === 'stdio');
    const sprite = tools.find((t) => t.name === 'generate_sprite')!.inputSchema as unknown as {
      properties: { prompt: unknown; params: { properties: Record<string, unknown> } };
    };
    const contract = contractSchema('GenerateParams').properties as Record<string, unknown>;
    expect(sprite.properties.params.properties.resolution).toEqual(contract.resolution);
    expect(sprite.properties.params.properties.frames).toEqual(contract.frames);
    expect(sprite.properties.prompt).toEqual(
      (contractSchema('GenerateRequest').properties as Record<string, unknown>).prompt,
    );
    const tileset = tools.find((t) => t.name === 'generate_tileset')!.inputSchema as unknown as typeof sprite;
    expect(tileset.properties.params.properties.tileset).toEqual(contract.tileset);
    expect(tileset.properties.params.properties.frames).toBeUndefined();

    // the character tools: the contract's character requests as they are, beside the path's id
    const input = (name: string) =>
      tools.find((t) => t.name === name)?.inputSchema as unknown as {
        properties: Record<string, unknown>;
        required?: string[];
      };
    for (const [tool, request, id] of [
      ['create_character', 'CreateCharacterRequest', 'projectId'],
      ['animate_character', 'AnimateCharacterRequest', 'characterId'],
      ['rotate_character', 'RotateCharacterRequest', 'characterId'],
      ['rename_character', 'UpdateCharacterRequest', 'characterId'],
    ] as const) {
      const schema = contractSchema(request) as { properties: Record<string, unknown>; required?: string[] };
      expect(input(tool), tool).toBeDefined();
      for (const [key, value] of Object.entries(schema.properties))
        expect(input(tool).properties[key], `${tool}.${key}`).toEqual(value);
      expect(input(tool).required, tool).toEqual([id, ...(schema.required ?? [])]);
    }
    expect((input('animate_character').properties.directions as { enum: number[] }).enum).toEqual([1, 4, 8]);
    for (const name of ['list_characters', 'get_character', 'delete_character'])
      expect(input(name), name).toBeDefined();
    expect(tools.find((t) => t.name === 'delete_character')!.annotations?.destructiveHint).toBe(true);
  });

  it('generates a sprite with progress, answers its picture and writes the Godot files into the allowed folder', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const folder = `res://sprites/knight-${transport}`;
    const result = (await client.callTool(
      {
        name: 'generate_sprite',
        arguments: { projectId: 'Demo', prompt: 'a knight', saveTo: { folder, layout: 'godot' } },
      },
      { onprogress: (p) => progress.push(p) },
    )) as ToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();

    // progress from the task's stream: increasing, out of 100, naming the task and the stage
    expect(progress.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    expect(progress.every((p) => p.total === 100 && p.progress <= 100)).toBe(true);
    const task = (result.structuredContent as { task: { taskId: string; status: string } }).task;
    expect(task.status).toBe('completed');
    expect(progress.map((p) => p.message).join('\n')).toContain(`task ${task.taskId}: asset_generator`);

    // the PNG as image content: a 4 × 4 sheet of 64 px frames with something drawn on it
    const image = result.content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const png = Buffer.from(image.data!, 'base64');
    const decoded = decodePng(new Uint8Array(png));
    if (!decoded.ok) throw new Error(decoded.error);
    expect([decoded.image.width, decoded.image.height]).toEqual([256, 256]);
    let opaque = 0;
    for (let i = 3; i < decoded.image.data.length; i += 4) if (decoded.image.data[i]! > 0) opaque++;
    expect(opaque).toBeGreaterThan(1000);

    // a resource link per file, readable as a resource
    const links = result.content.filter((c) => c.type === 'resource_link');
    expect(links.map((l) => l.name)).toEqual(
      expect.arrayContaining(['sprite.png', 'sprite.tres', 'sprite.png.meta', 'sprite.phaser.json']),
    );
    const pngLink = links.find((l) => l.name === 'sprite.png')!;
    const read = await client.readResource({ uri: pngLink.uri! });
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').equals(png)).toBe(true);

    // the Godot layout: the PNG and the SpriteFrames, its res:// path where the PNG now is
    const dir = join(world.game, 'sprites', `knight-${transport}`);
    expect((await readdir(dir)).sort()).toEqual(['sprite.png', 'sprite.tres']);
    expect((await readFile(join(dir, 'sprite.png'))).equals(png)).toBe(true);
    const tres = await readFile(join(dir, 'sprite.tres'), 'utf8');
    expect(tres).toContain(
      `[ext_resource type="Texture2D" path="res://sprites/knight-${transport}/sprite.png" id="1_tex"]`,
    );
    expect(tres).toMatch(/"name": &"idle_down"/);

    // downloading again: the files are there already, overwrite replaces them
    const again = (await client.callTool({
      name: 'download_task',
      arguments: { taskId: task.taskId, folder, layout: 'unity' },
    })) as ToolResult;
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/sprite\.png already exists; pass overwrite: true/);
    const unity = (await client.callTool({
      name: 'download_task',
      arguments: { taskId: task.taskId, folder: `unity-${transport}`, layout: 'unity' },
    })) as ToolResult;
    expect(unity.isError, textOf(unity)).toBeFalsy();
    expect((await readdir(join(world.game, `unity-${transport}`))).sort()).toEqual([
      'sprite.png',
      'sprite.png.meta',
    ]);

    // never the token, never a signed URL's credential
    const everything = JSON.stringify([result, again, unity, progress]);
    expect(everything).not.toContain(token);
    expect(everything).not.toMatch(/[?&]token=/);
  });

  it('generates a level and writes its Godot scene, TileSet and sheets with res:// paths where they land', async () => {
    const folder = `res://levels/island-${transport}`;
    const result = (await client.callTool({
      name: 'generate_level',
      arguments: {
        projectId: 'Demo',
        prompt: 'an island with a lake in the west',
        params: { level: { columns: 16, rows: 12, tileSize: 8 } },
        saveTo: { folder, layout: 'godot' },
      },
    })) as ToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const dir = join(world.game, 'levels', `island-${transport}`);
    expect((await readdir(dir)).sort()).toEqual([
      'level-props.png',
      'level-tiles.png',
      'level.png',
      'level.tres',
      'level.tscn',
    ]);
    // every res:// path of the scene and the TileSet names a file that is there
    for (const name of ['level.tscn', 'level.tres']) {
      const paths = [...(await readFile(join(dir, name), 'utf8')).matchAll(/path="res:\/\/([^"]+)"/g)].map(
        (m) => m[1]!,
      );
      expect(paths.length, name).toBeGreaterThan(0);
      for (const path of paths)
        expect(path.startsWith(`levels/island-${transport}/`), `${name}: ${path}`).toBe(true);
      for (const path of paths) await stat(join(world.game, path));
    }
  });

  it('refuses paths outside the allowed folder, by .. and by a symbolic link', async () => {
    const submitted = (await client.callTool({
      name: 'generate_sprite',
      arguments: { projectId: 'Demo', prompt: 'a green slime', wait: false },
    })) as ToolResult;
    const { taskId } = submitted.structuredContent as { taskId: string };
    await client.callTool({ name: 'wait_for_task', arguments: { taskId } });
    await symlink(world.outside, join(world.game, `escape-${transport}`));
    for (const folder of [world.outside, '../outside', `escape-${transport}/inner`, 'res://../outside']) {
      const refused = (await client.callTool({
        name: 'download_task',
        arguments: { taskId, folder },
      })) as ToolResult;
      expect(refused.isError, folder).toBe(true);
      expect(textOf(refused)).toMatch(
        /^\[assetloom\/mcp\] folder: .* (is outside the folders this MCP server may use|leads outside the allowed folders through a symbolic link)/,
      );
      expect((refused.structuredContent as { error: { code: string; field: string } }).error).toEqual({
        code: 'outside_allowed_folders',
        field: 'folder',
      });
    }
    expect(await readdir(world.outside)).toEqual([]);
    expect(await lstat(join(world.outside, 'inner')).catch(() => 'absent')).toBe('absent');
  });
});

describe('errors the agent can act on', () => {
  it('names the refused field, in English or in Chinese', async () => {
    const { token } = await world.account('bob');
    const en = await connect(world, 'stdio', token);
    const zh = await connect(world, 'streamable-http', token, { headers: { 'accept-language': 'zh-CN' } });
    try {
      const args = {
        projectId: 'Demo',
        prompt: 'a knight',
        params: { resolution: 5000, frames: { directions: 3 } },
      };
      const english = (await en.callTool({ name: 'generate_sprite', arguments: args })) as ToolResult;
      expect(english.isError).toBe(true);
      expect(textOf(english)).toContain('params.resolution must be at most 1024');
      expect(textOf(english)).toContain('params.frames.directions must be one of: 1, 4, 8');
      const chinese = (await zh.callTool({ name: 'generate_sprite', arguments: args })) as ToolResult;
      expect(textOf(chinese)).toContain('params.resolution 不能大于 1024');
      // what only the server knows (a style value it does not read): its field and allowed values
      const style = (await en.callTool({
        name: 'set_style',
        arguments: { projectId: 'Demo', kvPairs: { palette: 'sweetie-61' } },
      })) as ToolResult;
      expect(style.isError).toBe(true);
      expect(textOf(style)).toMatch(/kvPairs\.palette: .*\(pico8, sweetie16, gameboy, nes, endesga32\)/);
      // a kept character the built-in generator cannot rig: the prompt named, and what to use instead
      const cat = (await en.callTool({
        name: 'create_character',
        arguments: { projectId: 'Demo', name: 'Cat', prompt: 'a cat' },
      })) as ToolResult;
      expect(cat.isError).toBe(true);
      expect((cat.structuredContent as { error: { field: string } }).error.field).toBe('prompt');
      expect(textOf(cat)).toMatch(
        /prompt: .*people and humanoids: draw an animal or a thing with generate_animation/,
      );
      const unknown = (await en.callTool({
        name: 'generate_ui',
        arguments: { projectId: 'Nowhere', prompt: 'a button' },
      })) as ToolResult;
      expect(textOf(unknown)).toMatch(
        /projectId: you have no project named or numbered Nowhere; list_projects lists yours/,
      );
    } finally {
      await en.close();
      await zh.close();
    }
  });

  it('surfaces a rate limit with its wait', async () => {
    const { token } = await world.account('carol');
    const client = await connect(world, 'stdio', token);
    try {
      const answers: ToolResult[] = [];
      for (const prompt of ['a red gem', 'a blue gem', 'a green gem', 'a gold gem']) {
        answers.push(
          (await client.callTool({
            name: 'generate_sprite',
            arguments: { projectId: 'Demo', prompt, wait: false },
          })) as ToolResult,
        );
      }
      expect(answers.slice(0, 3).every((a) => !a.isError)).toBe(true);
      const limited = answers[3]!;
      expect(limited.isError).toBe(true);
      const { error } = limited.structuredContent as { error: { code: string; retryAfter: number } };
      expect(error.code).toBe('rate_limited');
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(textOf(limited)).toContain(`wait ${error.retryAfter} s, then call generate_sprite again`);
    } finally {
      await client.close();
    }
  });

  it('without an account, says where the token goes (tools and resources)', async () => {
    const client = await connect(world, 'stdio', '');
    try {
      const listed = (await client.callTool({ name: 'list_projects', arguments: {} })) as ToolResult;
      expect(listed.isError).toBe(true);
      expect(textOf(listed)).toMatch(
        /Not logged in to http:\/\/127\.0\.0\.1:\d+ .*set ASSETLOOM_TOKEN .* or call the login tool/,
      );
      await expect(client.readResource({ uri: 'assetloom://projects' })).rejects.toThrow(/Not logged in/);
      // what the server can draw needs no account
      const caps = await client.readResource({ uri: 'assetloom://capabilities' });
      const direct = (await (await fetch(`${world.url}/api/v1/capabilities`)).json()) as { data: object };
      expect(JSON.parse((caps.contents[0] as { text: string }).text)).toEqual(direct.data);
      // the login tool, with an account: the answer names the user, never the token
      await world.account('frank');
      const login = (await client.callTool({
        name: 'login',
        arguments: { username: 'frank', password: 'secret123' },
      })) as ToolResult;
      expect(textOf(login)).toMatch(/Logged in to .* as frank/);
      expect(JSON.stringify(login)).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no JWT at all
      const again = (await client.callTool({ name: 'list_projects', arguments: {} })) as ToolResult;
      expect((again.structuredContent as { items: { name: string }[] }).items.map((p) => p.name)).toEqual([
        'Demo',
      ]);
    } finally {
      await client.close();
    }
  });

  it('the /mcp mount answers 401 without a token, like the API', async () => {
    const answer = await fetch(`${world.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await answer.json()).toMatchObject({ code: 401 });
  });
});

describe('kept characters', () => {
  it('creates a character once, animates it in 8 directions with progress, writes the Godot files; refuses a folder outside before submitting', async () => {
    const { token } = await world.account('kim');
    const stdio = await connect(world, 'stdio', token);
    const http = await connect(world, 'streamable-http', token);
    try {
      // made once: its identity kept, its base view drawn with progress and answered as a picture
      const made: number[] = [];
      const created = (await stdio.callTool(
        {
          name: 'create_character',
          arguments: { projectId: 'Demo', name: 'Knight', prompt: 'a knight in blue armour', size: 32 },
        },
        { onprogress: (p) => made.push(p.progress) },
      )) as ToolResult;
      expect(created.isError, textOf(created)).toBeFalsy();
      expect(made.length).toBeGreaterThan(0);
      const character = (created.structuredContent as { character: { id: string; baseTaskId: string } })
        .character;
      expect(created.structuredContent).toMatchObject({
        character: { name: 'Knight', identity: { prompt: 'a knight in blue armour', size: 32 } },
        task: { taskId: character.baseTaskId, status: 'completed' },
      });
      expect(textOf(created)).toContain(`characterId ${character.id}`);
      const base = decodePng(
        new Uint8Array(Buffer.from(created.content.find((c) => c.type === 'image')!.data!, 'base64')),
      );
      expect(base.ok && [base.image.width, base.image.height]).toEqual([32, 32]);

      // animated from it: walking in 8 directions, progress from the task's stream, the Godot files written
      const progress: { progress: number; message?: string }[] = [];
      const walk = (await stdio.callTool(
        {
          name: 'animate_character',
          arguments: {
            characterId: character.id,
            action: 'walk',
            directions: 8,
            framesPerDirection: 6,
            saveTo: { folder: 'res://characters/knight/walk', layout: 'godot' },
          },
        },
        { onprogress: (p) => progress.push(p) },
      )) as ToolResult;
      expect(walk.isError, textOf(walk)).toBeFalsy();
      const task = (walk.structuredContent as { task: { taskId: string; characterId: string } }).task;
      expect(task.characterId).toBe(character.id);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
      expect(progress.map((p) => p.message).join('\n')).toContain(`task ${task.taskId}:`);
      // the sheet as image content: 6 frames of 32 px across, one row per direction, each row drawn
      const png = Buffer.from(walk.content.find((c) => c.type === 'image')!.data!, 'base64');
      const sheet = decodePng(new Uint8Array(png));
      if (!sheet.ok) throw new Error(sheet.error);
      expect([sheet.image.width, sheet.image.height]).toEqual([192, 256]);
      for (let row = 0; row < 8; row++) {
        let opaque = 0;
        for (let y = row * 32; y < row * 32 + 32; y++)
          for (let x = 0; x < 192; x++) if (sheet.image.data[(y * 192 + x) * 4 + 3]! > 0) opaque++;
        expect(opaque, `direction row ${row}`).toBeGreaterThan(100);
      }
      const dir = join(world.game, 'characters', 'knight', 'walk');
      expect((await readdir(dir)).sort()).toEqual(['animation.png', 'animation.tres']);
      expect((await readFile(join(dir, 'animation.png'))).equals(png)).toBe(true);
      const tres = await readFile(join(dir, 'animation.tres'), 'utf8');
      expect(tres).toContain('path="res://characters/knight/walk/animation.png"');
      expect([...tres.matchAll(/"name": &"([^"]+)"/g)].length).toBe(8);

      // a folder outside is refused before the task is submitted: nothing drawn, nothing written
      const outside = (await stdio.callTool({
        name: 'animate_character',
        arguments: {
          characterId: character.id,
          action: 'idle',
          directions: 8,
          saveTo: { folder: world.outside },
        },
      })) as ToolResult;
      expect(outside.isError).toBe(true);
      expect((outside.structuredContent as { error: object }).error).toEqual({
        code: 'outside_allowed_folders',
        field: 'saveTo.folder',
      });
      expect(await readdir(world.outside)).toEqual([]);
      const three = (await stdio.callTool({
        name: 'animate_character',
        arguments: { characterId: character.id, action: 'idle', directions: 3 },
      })) as ToolResult;
      expect(textOf(three)).toContain('directions must be one of: 1, 4, 8');

      // over Streamable HTTP: the character with its tasks (the refused calls submitted none), as a resource too
      const read = (await http.callTool({
        name: 'get_character',
        arguments: { characterId: character.id },
      })) as ToolResult;
      const kept = read.structuredContent as { taskCount: number; tasks: { id: string }[] };
      expect(kept.taskCount).toBe(2);
      expect(kept.tasks.map((t) => t.id).sort()).toEqual([character.baseTaskId, task.taskId].sort());
      const resource = await http.readResource({ uri: `assetloom://characters/${character.id}` });
      expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({
        id: character.id,
        taskCount: 2,
      });

      // idle from the same character, then the user's 3 submissions are spent: a turn waits, and says how long
      const idle = (await http.callTool({
        name: 'animate_character',
        arguments: { characterId: character.id, action: 'idle', directions: 8, framesPerDirection: 4 },
      })) as ToolResult;
      expect(idle.isError, textOf(idle)).toBeFalsy();
      const limited = (await http.callTool({
        name: 'rotate_character',
        arguments: { characterId: character.id, directions: 8 },
      })) as ToolResult;
      expect(limited.isError).toBe(true);
      const { error } = limited.structuredContent as { error: { code: string; retryAfter: number } };
      expect(error.code).toBe('rate_limited');
      expect(textOf(limited)).toContain(`wait ${error.retryAfter} s, then call rotate_character again`);

      // another user's character is refused naming the argument, as the API refuses it
      const other = await connect(world, 'streamable-http', (await world.account('lee')).token);
      try {
        const theirs = (await other.callTool({
          name: 'animate_character',
          arguments: { characterId: character.id, action: 'walk' },
        })) as ToolResult;
        expect(theirs.isError).toBe(true);
        expect((theirs.structuredContent as { error: object }).error).toEqual({
          code: 'api_refused',
          field: 'characterId',
        });
        expect(textOf(theirs)).toMatch(/^\[assetloom\/mcp\] characterId: .*\(403\)/);
      } finally {
        await other.close();
      }

      // deleted: it is gone, named by its argument; its tasks stay with the project
      const deleted = (await http.callTool({
        name: 'delete_character',
        arguments: { characterId: character.id },
      })) as ToolResult;
      expect(deleted.isError, textOf(deleted)).toBeFalsy();
      const gone = (await stdio.callTool({
        name: 'get_character',
        arguments: { characterId: character.id },
      })) as ToolResult;
      expect(gone.isError).toBe(true);
      expect((gone.structuredContent as { error: object }).error).toEqual({
        code: 'api_refused',
        field: 'characterId',
      });
      expect(textOf(gone)).toMatch(/^\[assetloom\/mcp\] characterId: .*\(404\); list_characters lists/);
      const tasks = (await stdio.callTool({
        name: 'list_tasks',
        arguments: { projectId: 'Demo' },
      })) as ToolResult;
      expect((tasks.structuredContent as { total: number }).total).toBe(3);
    } finally {
      await stdio.close();
      await http.close();
    }
  });
});

describe('cancelling a long call', () => {
  it('stops waiting at once; the task goes on and wait_for_task picks it up', async () => {
    const { token } = await world.account('dora');
    const client = await connect(world, 'stdio', token);
    try {
      const controller = new AbortController();
      let taskId: string | undefined;
      const call = client.callTool(
        {
          name: 'generate_background',
          arguments: { projectId: 'Demo', prompt: 'a harbour at dusk', params: { width: 320, height: 180 } },
        },
        {
          signal: controller.signal,
          onprogress: (p) => {
            taskId ??= /task (\S+):/.exec(p.message ?? '')?.[1];
            controller.abort('the user pressed stop');
          },
        },
      );
      await expect(call).rejects.toThrow(/the user pressed stop/);
      expect(taskId).toBeDefined();
      const resumed = (await client.callTool({ name: 'wait_for_task', arguments: { taskId } })) as ToolResult;
      expect(resumed.isError, textOf(resumed)).toBeFalsy();
      expect((resumed.structuredContent as { task: { status: string } }).task.status).toBe('completed');
      expect(resumed.content.some((c) => c.type === 'image')).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('resources and prompts', () => {
  it('lists projects and tasks as resources and offers the prompts', async () => {
    const { token, projectId } = await world.account('erin');
    const client = await connect(world, 'streamable-http', token);
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['assetloom://projects', `assetloom://projects/${projectId}`]),
      );
      const project = await client.readResource({ uri: `assetloom://projects/${projectId}` });
      expect(JSON.parse((project.contents[0] as { text: string }).text)).toMatchObject({
        id: projectId,
        name: 'Demo',
        tasks: [],
      });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(['character_walk_idle', 'tileset_with_level']);
      const walk = await client.getPrompt({
        name: 'character_walk_idle',
        arguments: { project: 'Demo', character: 'a knight' },
      });
      const text = (walk.messages[0]!.content as { text: string }).text;
      // the character is made once, then both actions are drawn from it (no seed passed around)
      expect(text.match(/create_character with/g)).toHaveLength(1);
      expect(text).toMatch(/animate_character with that characterId, action "walk", directions 8/);
      expect(text).toMatch(/animate_character with the same characterId, action "idle", directions 8/);
      expect(text).not.toMatch(/seed: \d/);
    } finally {
      await client.close();
    }
  });
});

describe('offline, on the mock', () => {
  it('generates a sprite with no server at all (--mock)', async () => {
    const client = await connect(world, 'stdio', '', {
      args: ['--mock'],
      env: { ASSETLOOM_SERVER: 'http://127.0.0.1:9' },
    });
    try {
      const me = (await client.callTool({ name: 'whoami', arguments: {} })) as ToolResult;
      expect(textOf(me)).toContain('"username": "demo"');
      const progress: number[] = [];
      const result = (await client.callTool(
        {
          name: 'generate_sprite',
          arguments: { projectId: 'Demo', prompt: 'a treasure chest', params: { resolution: 32 } },
        },
        { onprogress: (p) => progress.push(p.progress) },
      )) as ToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(progress.length).toBeGreaterThan(0);
      const image = result.content.find((c) => c.type === 'image')!;
      const decoded = decodePng(new Uint8Array(Buffer.from(image.data!, 'base64')));
      expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([128, 128]);
    } finally {
      await client.close();
    }
  });
});
