import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runCli } from '../src/cli.js';
import { type CliIo, EXIT } from '../src/context.js';
import { startToolServer } from './server.js';

function capture(cwd: string, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    env: { ASSETLOOM_CONFIG: join(cwd, 'assetloom-config.json'), LANG: 'en_US.UTF-8', ...env },
    cwd,
  };
  return { io, out: () => out, err: () => err };
}

let work: string;
let url: string;
let stop: (() => Promise<void>) | undefined;
let token: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'assetloom-cli-characters-'));
  const running = await startToolServer('assetloom-cli-characters-server-');
  url = running.url;
  stop = running.close;
  const json = { 'content-type': 'application/json' };
  await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: 'hero', password: 'secret123' }),
  });
  const login = await (
    await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'hero', password: 'secret123' }),
    })
  ).json();
  token = login.data.token;
  await fetch(`${url}/api/v1/projects`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Heroes', style: { palette: 'sweetie16' } }),
  });
});
afterAll(async () => {
  await stop?.();
  await rm(work, { recursive: true, force: true });
});

const cli = async (args: string[]) => {
  const c = capture(work, { ASSETLOOM_TOKEN: token });
  const code = await runCli([...args, '--server', url], c.io, { client: { WebSocket: WebSocket as never } });
  return { code, out: c.out(), err: c.err() };
};

describe('assetloom characters against a real server', () => {
  it('creates a character with its base view, animates and turns it into files, renames, lists and deletes it', async () => {
    const created = await cli([
      'characters',
      'create',
      'Heroes',
      '--name',
      'Ada',
      '--prompt',
      'a knight',
      '--size',
      '32',
      '--seed',
      '5',
      '--out',
      'base',
      '--json',
    ]);
    expect(created.code, created.err).toBe(EXIT.ok);
    const result = JSON.parse(created.out);
    expect(result.character.identity).toMatchObject({ seed: 5, size: 32, palette: 'sweetie16' });
    const id: string = result.character.id;
    const basePng = decodePng(new Uint8Array(await readFile(join(work, 'base', 'sprite.png'))));
    if (!basePng.ok) throw new Error(basePng.error);
    expect([basePng.image.width, basePng.image.height]).toEqual([32, 32]);

    const walk = await cli([
      'characters',
      'animate',
      id,
      'walk',
      '--directions',
      '4',
      '--frames',
      '6',
      '--out',
      'walk',
    ]);
    expect(walk.code, walk.err).toBe(EXIT.ok);
    expect(walk.err).toContain('format_adapter completed — 100%');
    const files = (await readdir(join(work, 'walk'))).sort();
    expect(files).toContain('animation.tres');
    const sheet = decodePng(new Uint8Array(await readFile(join(work, 'walk', 'animation.png'))));
    if (!sheet.ok) throw new Error(sheet.error);
    expect([sheet.image.width, sheet.image.height]).toEqual([6 * 32, 4 * 32]);

    const turned = await cli(['characters', 'rotate', id, '--directions', '8', '--no-download']);
    expect(turned.code, turned.err).toBe(EXIT.ok);

    const dance = await cli(['characters', 'animate', id, 'dance']);
    expect(dance.code).toBe(EXIT.usage);
    expect(dance.err).toContain('must be one of: idle, walk, run, jump, attack, cast, hurt, death');

    expect((await cli(['characters', 'rename', id, 'Ada', 'the', 'Bold'])).out).toContain('renamed');
    const listed = await cli(['characters', 'Heroes']);
    expect(listed.out).toContain(`${id}  Ada the Bold  (32 px, seed 5, sweetie16`);
    expect((await cli(['characters', 'delete', id])).code).toBe(EXIT.usage);
    expect((await cli(['characters', 'delete', id, '--yes'])).code).toBe(EXIT.ok);
    const gone = await cli(['characters', 'show', id]);
    expect(gone.code).toBe(EXIT.usage);
    expect(gone.err).toContain('Character not found');
  });

  it.each([
    [['characters', 'create', 'Heroes', '--prompt', 'x'], 'characters create needs --name'],
    [['characters', 'create', 'Heroes', '--name', 'x'], 'needs --prompt <text> or --image <file>'],
    [
      ['characters', 'create', 'Heroes', '--name', 'x', '--prompt', 'x', '--size', '48'],
      '--size must be 32, 64 or 128',
    ],
    [['characters', 'animate', 'abc'], 'needs the character id and an action'],
    [['characters', 'rotate', 'abc', '--directions', '2'], '--directions must be 4 or 8'],
  ])('refuses bad arguments with exit 2: %j', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(message);
  });
});
