// `assetloom pixelize` on real files: the CLI launcher run as a child process (exit codes,
// messages, the PNG it writes), and the argument checks through runCli in-process.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng, NAMED_PALETTES } from '@assetloom/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { PIXELIZE_EXIT } from '../src/commands/pixelize.js';
import type { CliIo } from '../src/context.js';
import { modelPicture, SPRITE } from './pictures.js';

const BIN = join(__dirname, '..', 'bin', 'assetloom.js');

function cli(args: string[], cwd: string) {
  // INIT_CWD is where a user ran `pnpm start -- …`; the CLI resolves paths against it. Under `npm test`
  // it names the repository root, so the child gets the folder it runs in.
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, INIT_CWD: cwd },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assetloom-pixelize-'));
  await writeFile(join(dir, 'model.png'), modelPicture());
  await writeFile(join(dir, 'photo.jpg'), new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]));
  await writeFile(join(dir, 'broken.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readPng(path: string) {
  const png = decodePng(new Uint8Array(await readFile(path)));
  if (!png.ok) throw new Error(png.error);
  return png.image;
}

describe('assetloom pixelize (the real CLI)', () => {
  it('writes the native sprite in the palette, its backdrop transparent', async () => {
    const r = cli(['pixelize', 'model.png', '-o', 'sprite.png', '--palette', 'sweetie16'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(PIXELIZE_EXIT.ok);
    expect(r.out).toMatch(
      /model\.png \(120×135\) → sprite\.png \(\d+×\d+\): scale 7\.5, .* colours of sweetie16/,
    );
    const img = await readPng(join(dir, 'sprite.png'));
    const pal = NAMED_PALETTES.sweetie16!;
    let opaque = 0;
    let left = img.width;
    let right = -1;
    let top = img.height;
    let bottom = -1;
    for (let p = 0; p < img.width * img.height; p++) {
      const [r0, g, b, a] = img.data.subarray(p * 4, p * 4 + 4);
      expect(a === 0 || a === 255).toBe(true);
      if (!a) continue;
      opaque++;
      expect(pal.some((c) => c[0] === r0 && c[1] === g && c[2] === b)).toBe(true);
      left = Math.min(left, p % img.width);
      right = Math.max(right, p % img.width);
      top = Math.min(top, Math.floor(p / img.width));
      bottom = Math.max(bottom, Math.floor(p / img.width));
    }
    // one output pixel per fat pixel: the sprite's own 8 × 12 pixels again, every one of them there
    expect([right - left + 1, bottom - top + 1]).toEqual([8, 12]);
    expect(opaque).toBe(SPRITE.join('').replace(/\./g, '').length);
  });

  it('keeps the backdrop and uses an adaptive palette of --colors, at a given --scale', async () => {
    const r = cli(
      ['pixelize', 'model.png', '-o', 'kept.png', '--colors', '5', '--scale', '7.5', '--keep-background'],
      dir,
    );
    expect(r.code).toBe(PIXELIZE_EXIT.ok);
    const img = await readPng(join(dir, 'kept.png'));
    const colours = new Set<number>();
    for (let p = 0; p < img.width * img.height; p++) {
      expect(img.data[p * 4 + 3]).toBe(255);
      colours.add((img.data[p * 4]! << 16) | (img.data[p * 4 + 1]! << 8) | img.data[p * 4 + 2]!);
    }
    expect(colours.size).toBeLessThanOrEqual(5);
    expect(colours.size).toBeGreaterThanOrEqual(4); // outline, two fills, white (highlight and backdrop)
  });

  it('exit 5 for a missing input, exit 6 for a picture that is not a PNG or a broken one', () => {
    const missing = cli(['pixelize', 'nope.png', '-o', 'x.png'], dir);
    expect(missing.code).toBe(PIXELIZE_EXIT.io);
    expect(missing.err).toBe('assetloom pixelize: cannot read nope.png: no such file\n');
    const jpeg = cli(['pixelize', 'photo.jpg', '-o', 'x.png'], dir);
    expect(jpeg.code).toBe(PIXELIZE_EXIT.badInput);
    expect(jpeg.err).toMatch(/photo\.jpg is not a PNG image/);
    const broken = cli(['pixelize', 'broken.png', '-o', 'x.png'], dir);
    expect(broken.code).toBe(PIXELIZE_EXIT.badInput);
    expect(broken.err).toMatch(/broken\.png is a broken PNG/);
    expect(broken.err).not.toContain(dir); // names the file as given, not the machine's paths
  });
});

describe('assetloom pixelize arguments', () => {
  function io(): CliIo & { err: () => string; out: () => string } {
    let out = '';
    let err = '';
    return {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
      env: {},
      cwd: dir,
      err: () => err,
      out: () => out,
    };
  }

  it.each([
    [['model.png'], /-o\/--out <out\.png> is required/],
    [['-o', 'x.png'], /give the input picture/],
    [['a.png', 'b.png', '-o', 'x.png'], /one input picture at a time/],
    [['model.png', '-o', 'x.png', '--palette', 'rainbow'], /--palette must be one of .*sweetie16/],
    [['model.png', '-o', 'x.png', '--colors', '1'], /--colors must be an integer from 2 to 256/],
    [['model.png', '-o', 'x.png', '--scale', 'big'], /--scale must be a number from 1 to 64/],
    [['model.png', '-o', 'x.png', '--palette', 'pico8', '--colors', '8'], /exclude each other/],
    [['model.png', '-o', 'x.png', '--colour', '8'], /Unknown option '--colour'/],
  ])('%j → exit 2 with what to fix', async (args, message) => {
    const c = io();
    expect(await runCli(['pixelize', ...args], c)).toBe(PIXELIZE_EXIT.usage);
    expect(c.err()).toMatch(message);
    expect(c.err()).toMatch(/Run "assetloom pixelize --help"/);
  });

  it('--help prints the command help; an output folder that does not exist is exit 5', async () => {
    const help = io();
    expect(await runCli(['pixelize', '--help'], help)).toBe(0);
    expect(help.out()).toMatch(/assetloom pixelize <in\.png> -o <out\.png>/);
    await mkdir(join(dir, 'is-a-folder.png'), { recursive: true });
    const c = io();
    expect(await runCli(['pixelize', 'model.png', '-o', 'missing/dir/out.png'], c)).toBe(PIXELIZE_EXIT.io);
    expect(c.err()).toMatch(/cannot write missing\/dir\/out\.png: its folder does not exist/);
    const f = io();
    expect(await runCli(['pixelize', 'model.png', '-o', 'is-a-folder.png'], f)).toBe(PIXELIZE_EXIT.io);
    expect(f.err()).toMatch(/it is a folder/);
  });
});
