// The MCP Inspector's CLI mode (@modelcontextprotocol/inspector --cli) against `npx assetloom-mcp`,
// installed from the README's line outside the repository, talking to the reference server.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const base = process.env.ASSETLOOM_BASE_URL;
if (!base) throw new Error('ASSETLOOM_BASE_URL is not set: run through test/ecosystem/run.mjs');

function check(condition, what) {
  if (!condition) throw new Error(`mcp: ${what}`);
  console.log(`ok  ${what}`);
}

async function api(method, path, body, token) {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = await answer.json();
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

const username = `mcp${Date.now()}`;
await api('POST', '/auth/register', { username, password: 'secret123' });
const { token } = await api('POST', '/auth/login', { username, password: 'secret123' });
await api('POST', '/api/v1/projects', { name: 'Ecosystem' }, token);
mkdirSync('game', { recursive: true });
writeFileSync(join('game', 'project.godot'), 'config_version=5\n');
mkdirSync('elsewhere', { recursive: true });

/** `mcp-inspector --cli <args> -- npx assetloom-mcp --allow game`: its JSON answer. */
function inspector(args) {
  const result = spawnSync(
    'npx',
    [
      'mcp-inspector',
      '--cli',
      ...args,
      '-e',
      `ASSETLOOM_SERVER=${base}`,
      '-e',
      `ASSETLOOM_TOKEN=${token}`,
      '--',
      'npx',
      'assetloom-mcp',
      '--allow',
      'game',
    ],
    { encoding: 'utf8', timeout: 180_000 },
  );
  const out = result.stdout ?? '';
  const start = out.indexOf('{');
  const end = out.indexOf('\n}', start);
  if (start < 0 || end < 0)
    throw new Error(
      `mcp-inspector ${args.join(' ')} answered no JSON (exit ${result.status}):\n${out}\n${result.stderr}`,
    );
  return {
    json: JSON.parse(out.slice(start, end + 2)),
    stdout: out,
    stderr: result.stderr ?? '',
    status: result.status,
  };
}

const listed = inspector(['--method', 'tools/list', '--strict']);
const names = listed.json.tools.map((t) => t.name);
for (const name of [
  'generate_sprite',
  'generate_animation',
  'generate_background',
  'generate_ui',
  'generate_tileset',
  'download_task',
  'create_character',
  'animate_character',
]) {
  check(names.includes(name), `tools/list names ${name}`);
}
check(
  listed.status === 0,
  `tools/list --strict finds no error-severity schema problem (exit ${listed.status})`,
);
const resolution = listed.json.tools.find((t) => t.name === 'generate_sprite').inputSchema.properties.params
  .properties.resolution;
check(
  resolution.minimum === 16 && resolution.maximum === 1024 && resolution.default === 64,
  "generate_sprite's resolution is the contract's (16-1024, default 64)",
);

const generated = inspector([
  '--method',
  'tools/call',
  '--tool-name',
  'generate_sprite',
  '--tool-arg',
  'projectId=Ecosystem',
  '--tool-arg',
  'prompt=a knight',
  '--tool-arg',
  'saveTo={"folder":"res://sprites/knight","layout":"godot"}',
]);
check(
  !generated.json.isError,
  `generate_sprite answers a result: ${generated.json.content?.[0]?.text?.split('\n')[0]}`,
);
const image = generated.json.content.find((c) => c.type === 'image');
check(
  image?.mimeType === 'image/png' && Buffer.from(image.data, 'base64').subarray(1, 4).toString() === 'PNG',
  'the sprite comes back as PNG image content',
);
check(
  generated.json.content.some((c) => c.type === 'resource_link' && c.name === 'sprite.tres'),
  'with a resource link to its Godot SpriteFrames',
);
const written = readdirSync(join('game', 'sprites', 'knight')).sort();
check(
  JSON.stringify(written) === '["sprite.png","sprite.tres"]',
  `the Godot layout wrote ${written.join(', ')}`,
);
check(
  readFileSync(join('game', 'sprites', 'knight', 'sprite.tres'), 'utf8').includes(
    'path="res://sprites/knight/sprite.png"',
  ),
  'the SpriteFrames point at res://sprites/knight/sprite.png',
);
check(!generated.stdout.includes(token) && !generated.stderr.includes(token), 'the token is never shown');

// a kept character: made once (its base view drawn), its Godot files written where they are asked
const character = inspector([
  '--method',
  'tools/call',
  '--tool-name',
  'create_character',
  '--tool-arg',
  'projectId=Ecosystem',
  '--tool-arg',
  'name=Knight',
  '--tool-arg',
  'prompt=a knight in blue armour',
  '--tool-arg',
  'saveTo={"folder":"res://characters/knight","layout":"godot"}',
]);
check(
  !character.json.isError && typeof character.json.structuredContent?.character?.id === 'string',
  `create_character keeps a character: ${character.json.content?.[0]?.text?.split('.')[0]}`,
);
check(
  character.json.content.some((c) => c.type === 'image' && c.mimeType === 'image/png'),
  'its base view comes back as PNG image content',
);
check(
  JSON.stringify(readdirSync(join('game', 'characters', 'knight')).sort()) === '["sprite.png","sprite.tres"]',
  'and its Godot files are written into res://characters/knight',
);

const taskId = generated.json.structuredContent.task.taskId;
const refused = inspector([
  '--method',
  'tools/call',
  '--tool-name',
  'download_task',
  '--tool-arg',
  `taskId=${taskId}`,
  '--tool-arg',
  'folder=../elsewhere',
]);
check(
  refused.json.isError === true &&
    /outside the folders this MCP server may use/.test(refused.json.content[0].text),
  'a folder outside the allowed one is refused',
);
check(readdirSync('elsewhere').length === 0, 'and nothing is written there');
console.log('mcp: the MCP Inspector listed and called the tools');
