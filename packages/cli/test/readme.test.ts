// Every example of the README runs (issue #41: the old README's animation example failed as
// written). The ```sh blocks of its "Walk-through" are run by bash as they are written, in order, in
// an empty folder with the pictures they name, against a real reference server on 127.0.0.1;
// `npx assetloom` is this package's bin (built once, as bootstrap builds it), nothing else changes.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figurePicture, knightPicture, modelPicture, palettePicture } from './pictures.js';
import { startToolServer } from './server.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const BIN = join(here, '..', 'bin', 'assetloom.js');
const README = join(here, '..', 'README.md');

/** The ```sh blocks of the README's "## Walk-through" section, with the line each starts on. */
export async function walkThroughBlocks(): Promise<{ line: number; code: string }[]> {
  const text = await readFile(README, 'utf8');
  const start = text.indexOf('\n## Walk-through');
  const end = text.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error('README.md has no "## Walk-through" section');
  const section = text.slice(start, end < 0 ? undefined : end);
  const offset = text.slice(0, start).split('\n').length;
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => ({
    line: offset + section.slice(0, m.index).split('\n').length - 1,
    code: m[1] as string,
  }));
}

const blocks = await walkThroughBlocks();

function bash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('README walk-through, run as written against a real server', () => {
  let server: Awaited<ReturnType<typeof startToolServer>>;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startToolServer('assetloom-cli-readme-');
    dir = await mkdtemp(join(tmpdir(), 'assetloom-cli-readme-'));
    // the pictures the examples name
    await writeFile(join(dir, 'knight.png'), knightPicture());
    await writeFile(join(dir, 'photo.png'), figurePicture());
    await writeFile(join(dir, 'palette.png'), palettePicture());
    await writeFile(join(dir, 'model.png'), modelPicture());
    // a user's shell: a home and config of its own, the server the README assumes at 127.0.0.1
    env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, '.config'),
      ASSETLOOM_SERVER: server.url,
      LANG: 'en_US.UTF-8',
      NO_COLOR: '1',
    };
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has blocks to run', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  it.each(blocks)(
    'the block at README line $line exits 0',
    async ({ code }) => {
      const script = [
        'set -euo pipefail',
        `npx() { if [ "$1" = assetloom ]; then shift; node ${JSON.stringify(BIN)} "$@"; else command npx "$@"; fi; }`,
        code,
      ].join('\n');
      // asynchronously: the server answers from this process
      const run = await bash(script, dir, env);
      expect(run.status, `${code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`).toBe(0);
    },
    300_000,
  );

  it('left what the README says: engine files, a 320 × 180 screen, a kept token in a 0600 file', async () => {
    expect((await readdir(join(dir, 'sprites'))).sort()).toEqual([
      // the project enforces sweetie16: the palette travels with the engine files (#39)
      'palette.gpl',
      'palette.hex',
      'sprite.aseprite.json',
      'sprite.json',
      'sprite.phaser-anims.json',
      'sprite.phaser.json',
      'sprite.png',
      'sprite.png.meta',
      'sprite.tres',
    ]);
    const screen = decodePng(new Uint8Array(await readFile(join(dir, 'screens', 'background.png'))));
    if (!screen.ok) throw new Error(screen.error);
    expect([screen.image.width, screen.image.height]).toEqual([320, 180]);
    const walk = JSON.parse(await readFile(join(dir, 'walk', 'animation.json'), 'utf8'));
    expect(Object.keys(walk.frames)).toHaveLength(4);
    // one direction of four frames from one picture, with no --directions given
    const hurt = JSON.parse(await readFile(join(dir, 'hurt', 'animation.json'), 'utf8'));
    expect(Object.keys(hurt.frames)).toHaveLength(4);
    expect(await readdir(join(dir, 'tiles'))).toEqual(
      expect.arrayContaining(['tileset.png', 'tileset.tres', 'tileset.tsx', 'tileset.json']),
    );
    expect(await readdir(join(dir, 'slime'))).toContain('sprite.png');
    expect(await readdir(dir)).toContain('knight-native.png');
    const config = join(dir, '.config', 'assetloom', 'config.json');
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, '.config', 'assetloom'))).mode & 0o777).toBe(0o700);
    // logged out at the end: the server is remembered, its token is not
    expect(JSON.parse(await readFile(config, 'utf8'))).toEqual({ server: server.url, sessions: {} });
  });
});
