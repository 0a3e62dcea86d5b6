import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetloomMcpError } from '../errors.js';
import { AllowedFolders, isInside, safeFileName, writeFileSafely } from './folders.js';

describe('isInside', () => {
  it.each<[string, { root: string; path: string; want: boolean }]>([
    ['the root itself', { root: '/game', path: '/game', want: true }],
    ['a child', { root: '/game', path: '/game/sprites/knight', want: true }],
    ['a sibling with the same prefix', { root: '/game', path: '/game-old/x', want: false }],
    ['the parent', { root: '/game', path: '/', want: false }],
    ['a climb out', { root: '/game', path: '/game/../etc', want: false }],
    ['a name starting with dots', { root: '/game', path: '/game/..hidden', want: true }],
  ])('%s', (_name, { root, path, want }) => {
    expect(isInside(root, path)).toBe(want);
  });
});

describe('safeFileName', () => {
  it.each<[string, { name: string; want: string | undefined }]>([
    ['a PNG', { name: 'sprite.png', want: 'sprite.png' }],
    ['a Unity meta', { name: 'sprite.png.meta', want: 'sprite.png.meta' }],
    ['a climb', { name: '..', want: undefined }],
    ['a hidden file', { name: '.bashrc', want: undefined }],
    ['a path', { name: 'a/b.png', want: undefined }],
    ['a backslash', { name: 'a\\b.png', want: undefined }],
  ])('%s', (_name, { name, want }) => {
    expect(safeFileName(name)).toBe(want);
  });
});

describe('AllowedFolders and writeFileSafely on real folders', () => {
  let dir: string;
  let game: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-mcp-folders-'));
    game = join(dir, 'game');
    await mkdir(join(dir, 'outside'), { recursive: true });
    await mkdir(game);
    await writeFile(join(game, 'project.godot'), '');
    await symlink(join(dir, 'outside'), join(game, 'out'));
    await mkdir(join(game, 'real'));
    await symlink(join(game, 'real'), join(game, 'inner'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (e: unknown) => (e instanceof AssetloomMcpError ? e.code : String(e)),
    );

  it.each<[string, { folder: string; want: string }]>([
    ['a relative folder, made', { folder: 'sprites/knight', want: 'ok' }],
    ['a Godot path', { folder: 'res://tiles', want: 'ok' }],
    ['a link that stays inside', { folder: 'inner/x', want: 'ok' }],
    ['a link that leads out', { folder: 'out/x', want: 'outside_allowed_folders' }],
    ['a climb', { folder: '../outside', want: 'outside_allowed_folders' }],
    ['a Godot climb', { folder: 'res://../outside', want: 'outside_allowed_folders' }],
    ['an absolute folder elsewhere', { folder: '/etc', want: 'outside_allowed_folders' }],
    ['a file', { folder: 'project.godot', want: 'not_a_folder' }],
  ])('%s', async (_name, { folder, want }) => {
    const folders = new AllowedFolders([game]);
    expect(await code(folders.folder(folder, 'folder', 'en'))).toBe(want);
  });

  it('answers no_allowed_folders when none were given', async () => {
    expect(await code(new AllowedFolders([]).folder('x', 'folder', 'en'))).toBe('no_allowed_folders');
  });

  it('never writes through a link at the file name, and keeps existing files unless asked', async () => {
    const target = join(dir, 'outside', 'victim.txt');
    await writeFile(target, 'keep me');
    await symlink(target, join(game, 'real', 'sprite.png'));
    const options = { overwrite: true, field: 'folder', language: 'en' as const, shown: 'real/sprite.png' };
    expect(await code(writeFileSafely(join(game, 'real'), 'sprite.png', new Uint8Array([1]), options))).toBe(
      'file_exists',
    );
    expect(await readFile(target, 'utf8')).toBe('keep me');
    await writeFileSafely(join(game, 'real'), 'new.png', new Uint8Array([1, 2]), options);
    const again = writeFileSafely(join(game, 'real'), 'new.png', new Uint8Array([3]), {
      ...options,
      overwrite: false,
    });
    expect(await code(again)).toBe('file_exists');
    expect([...(await readFile(join(game, 'real', 'new.png')))]).toEqual([1, 2]);
    expect((await readdir(join(game, 'real'))).filter((n) => n.endsWith('.part'))).toEqual([]);
  });
});
