// The SDK against the built reference server (dist/main.js, embedded store, loopback), issue #32:
// getStyleCatalog and refused style values, and the README's runnable examples (the blocks marked
// `<!-- ecosystem: run -->`) run as they are written — the quick start, the engine files downloaded
// by their `metadata.atlas` keys, the style catalogue with a refused style value. Only the import of
// '@assetloom/sdk' is pointed at this package's source and the server's URL put in; each block runs
// in its own process from a temporary folder. The ecosystem matrix runs the same blocks against the
// packed tarballs (test/ecosystem).
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAssetClient } from '../src/index.js';
import { KNOWN_STYLE_KEYS } from './style-keys.js';

interface Block {
  line: number;
  mode: 'check' | 'run' | 'skip';
  lang: string;
  code: string;
}
interface BuiltServer {
  url: string;
  close(): Promise<void>;
}

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(packageDir, '..', '..');
const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
// The ecosystem matrix's own README parser and the server benches' child-process starter, so the
// directives and the server settings mean the same here as there.
const { parseReadme } = (await import(
  pathToFileURL(join(repoDir, 'test', 'ecosystem', 'lib', 'readme-blocks.mjs')).href
)) as { parseReadme: (text: string) => Block[] };
const { startBuiltServer, benchServerEnv } = (await import(
  pathToFileURL(join(repoDir, 'reference-server', 'bench', 'built-server.ts')).href
)) as {
  startBuiltServer: (env: Record<string, string>) => Promise<BuiltServer>;
  benchServerEnv: (dataDir: string) => Record<string, string>;
};
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
const sdkEntry = join(packageDir, 'src', 'index.ts');

const runBlocks = parseReadme(readme).filter((b) => b.mode === 'run');
const blockAbout = (text: string): Block => {
  const block = runBlocks.find((b) => b.code.includes(text));
  if (!block) throw new Error(`no README block marked to run contains ${JSON.stringify(text)}`);
  return block;
};

let work: string;
let server: BuiltServer;

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs', '@assetloom/server'], {
    cwd: repoDir,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`ensure-built failed:\n${built.stderr}`);
  work = await mkdtemp(join(tmpdir(), 'assetloom-sdk-readme-'));
  server = await startBuiltServer(benchServerEnv(join(work, 'data')));
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs one README block as a module in its own folder; answers that folder and what it printed. */
async function run(block: Block, name: string): Promise<{ cwd: string; stdout: string }> {
  const cwd = join(work, name);
  await mkdir(cwd, { recursive: true });
  const code = block.code
    .replaceAll("from '@assetloom/sdk'", `from ${JSON.stringify(pathToFileURL(sdkEntry).href)}`)
    .replaceAll("'http://127.0.0.1:8080'", JSON.stringify(server.url));
  const file = join(cwd, 'example.mts');
  await writeFile(file, code);
  const child = spawn(process.execPath, [tsxCli, file], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (status !== 0) throw new Error(`README line ${block.line} exited ${status}:\n${stdout}${stderr}`);
  return { cwd, stdout };
}

describe('README examples against the reference server', () => {
  test('the quick start runs (register, login, project, generate, wait, download)', async () => {
    expect(runBlocks).toHaveLength(3); // a new runnable block gets a test here
    const { stdout } = await run(blockAbout("assetType: 'sprite' });"), 'quick-start');
    expect(stdout).toMatch(/\.png image\/png \d+\n$/);
  }, 120_000);

  test('engine files: each metadata.atlas key is downloaded and written beside the PNG', async () => {
    const { cwd, stdout } = await run(blockAbout('engineFiles'), 'engine-files');
    const lines = stdout.trim().split('\n').sort();
    expect(lines).toEqual([
      'aseprite sprite.aseprite.json',
      'godot sprite.tres',
      'phaser sprite.phaser.json',
      'phaserAnimations sprite.phaser-anims.json',
      'texturePacker sprite.json',
      'unity sprite.png.meta',
    ]);
    const dir = join(cwd, 'knight');
    expect((await readdir(dir)).sort()).toEqual([
      'sprite.aseprite.json',
      'sprite.json',
      'sprite.phaser-anims.json',
      'sprite.phaser.json',
      'sprite.png',
      'sprite.png.meta',
      'sprite.tres',
    ]);
    // real engine files, not error pages: what each engine reads first
    const texturePacker = JSON.parse(await readFile(join(dir, 'sprite.json'), 'utf8'));
    expect(texturePacker.meta.image).toBe('sprite.png');
    expect(Object.keys(texturePacker.frames)).toHaveLength(16);
    expect(await readFile(join(dir, 'sprite.tres'), 'utf8')).toMatch(/^\[gd_resource type="SpriteFrames"/);
    expect(await readFile(join(dir, 'sprite.png.meta'), 'utf8')).toContain('TextureImporter');
    const png = await readFile(join(dir, 'sprite.png'));
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  }, 120_000);

  test('style keys: the catalogue in English, and an unknown palette refused with the allowed ones', async () => {
    const { stdout } = await run(blockAbout('getStyleCatalog'), 'style-keys');
    const lines = stdout.trim().split('\n');
    expect(lines).toContain(
      'sweetie16 #1a1c2c #5d275d #b13e53 #ef7d57 #ffcd75 #a7f070 #38b764 #257179 #29366f #3b5dc9 #41a6f6 #73eff7 #f4f4f4 #94b0c2 #566c86 #333c57',
    );
    expect(lines).toContain('lineWeight none, thin, thick');
    expect(lines).toContain('mood any text');
    // the README's own comment states the last line
    const documented = /\/\/ (400 \/style\/palette styleValue .*)\n/.exec(blockAbout('getStyleCatalog').code);
    expect(lines.at(-1)).toBe(documented?.[1]);
    expect(lines.at(-1)).toBe('400 /style/palette styleValue pico8 sweetie16 gameboy nes endesga32');
  }, 120_000);
});

describe('getStyleCatalog', () => {
  test('answers the catalogue without a login, in the language asked for', async () => {
    const api = createAssetClient({ baseUrl: server.url });
    const zh = await api.getStyleCatalog();
    if (zh.error) throw zh.error;
    expect(zh.data.palettes.map((p) => p.name)).toContain('sweetie16');
    expect(zh.data.artStyles).toContain('pixel');
    expect(zh.data.keys.map((k) => k.name)).toEqual(KNOWN_STYLE_KEYS);
    const zhPalette = zh.data.keys[0]?.description ?? '';
    expect(zhPalette).toMatch(/[\u4e00-\u9fff]/);
    const en = await api.getStyleCatalog({ language: 'en' });
    expect(en.response?.headers.get('content-language')).toBe('en');
    expect(en.data?.keys[0]?.description).toMatch(/^Palette/);
  });

  test("the client's Accept-Language applies, and a call's language wins over it", async () => {
    const english = createAssetClient({ baseUrl: server.url, headers: { 'Accept-Language': 'en' } });
    const byClient = await english.getStyleCatalog();
    expect(byClient.response?.headers.get('content-language')).toBe('en');
    const byCall = await english.getStyleCatalog({ language: 'zh-CN' });
    expect(byCall.response?.headers.get('content-language')).toBe('zh-CN');
    await expect(english.getStyleCatalog({ language: ' ' })).rejects.toThrow(TypeError);
  });

  test('takes an AbortSignal and the throwing style', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await expect(api.getStyleCatalog({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'aborted',
    });
    expect((await api.getStyleCatalog({ deadline: 10_000 })).palettes.length).toBeGreaterThan(0);
  });

  test("a refused style value comes back as a field error with the allowed values ('in' and 'allowed' kept)", async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    const username = `style${Date.now()}`;
    await api.POST('/auth/register', { body: { username, password: 'secret1' } });
    await api.login({ username, password: 'secret1' });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Forest' } });
    const refused = await api
      .PUT('/api/v1/projects/{projectId}/style', {
        params: { path: { projectId: project.id } },
        body: { kvPairs: { palette: 'sweetie-61', camera: 'anything goes' } },
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 400, httpStatus: 400 });
    const [field, ...others] = (refused as { errors: unknown[] }).errors;
    expect(others).toEqual([]);
    expect(field).toMatchObject({ in: 'body', path: '/kvPairs/palette', rule: 'styleValue' });
    const catalog = await api.getStyleCatalog();
    const palette = catalog.keys.find((k) => k.name === 'palette');
    expect((field as { allowed: unknown }).allowed).toEqual(palette?.values);
    // a known value beside an unknown key is stored
    const stored = await api.PUT('/api/v1/projects/{projectId}/style', {
      params: { path: { projectId: project.id } },
      body: { kvPairs: { palette: 'sweetie16', camera: 'anything goes' } },
    });
    expect(stored.kvPairs).toEqual({ palette: 'sweetie16', camera: 'anything goes' });
  });
});
