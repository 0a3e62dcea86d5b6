import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { decodePng, encodePng, NAMED_PALETTES, parsePalette } from '@assetloom/pipeline';
import type { Rgb } from '@assetloom/pipeline/pixel';
import { pixelize } from '@assetloom/pipeline/pixel';

/** Exit codes of `assetloom pixelize`. */
export const PIXELIZE_EXIT = {
  ok: 0,
  /** Bad arguments (see --help). */
  usage: 2,
  /** The input could not be read or the output could not be written. */
  io: 5,
  /** The input is not a PNG image (or a broken one). */
  badInput: 6,
} as const;

export const PIXELIZE_HELP = `assetloom pixelize — turn an image model's "pixel art" into native pixel art

Usage:
  assetloom pixelize <in.png> -o <out.png> [options]

Reads a picture of fat, soft, noisy, off-grid pixels (what an image model sends back), finds its
pixel grid (scale and offset, fractional scales too), reads every cell, maps the colours to a
palette and makes a flat backdrop transparent. Writes the sprite at its native resolution: one
output pixel per fat pixel.

Options:
  -o, --out <out.png>        where to write the result (required)
  --palette <name|colours>   map to this palette: ${Object.keys(NAMED_PALETTES).join(', ')},
                             or colours such as "#1a1c2c,#f4f4f4,#b13e53"
  --colors <n>               otherwise an adaptive palette of at most n colours, 2-256 (default 32)
  --scale <px>               the fat-pixel size when you know it (e.g. 8 or 7.5); detected otherwise
  --keep-background          keep the backdrop (default: make it transparent)
  --json                     print the result (or the error) as JSON on stdout
  -h, --help                 show this help

Exit codes: 0 done, 2 bad arguments, 5 cannot read the input or write the output, 6 the input is not a PNG.
`;

interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

class UsageError extends Error {}

interface PixelizeArgs {
  input: string;
  output: string;
  palette?: { colors: Rgb[]; name: string };
  colors?: number;
  scale?: number;
  keepBackground: boolean;
  json: boolean;
}

/** Parses `pixelize …` (argv without the command word); throws UsageError saying what to fix. */
export function parsePixelizeArgs(argv: string[]): PixelizeArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', short: 'o' },
      palette: { type: 'string' },
      colors: { type: 'string' },
      scale: { type: 'string' },
      'keep-background': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length === 0)
    throw new UsageError('give the input picture: assetloom pixelize <in.png> -o <out.png>');
  if (positionals.length > 1) {
    throw new UsageError(`one input picture at a time; got ${positionals.length}: ${positionals.join(' ')}`);
  }
  if (!values.out) throw new UsageError('-o/--out <out.png> is required');
  if (values.palette !== undefined && values.colors !== undefined) {
    throw new UsageError(
      '--palette and --colors exclude each other: a fixed palette, or an adaptive one of n colours',
    );
  }
  const args: PixelizeArgs = {
    input: positionals[0]!,
    output: values.out,
    keepBackground: values['keep-background'] === true,
    json: values.json === true,
  };
  if (values.palette !== undefined) {
    const palette = parsePalette(values.palette);
    if (!palette || palette.colors.length === 0) {
      throw new UsageError(
        `--palette must be one of ${Object.keys(NAMED_PALETTES).join(', ')} or a list of #rrggbb colours; got ${JSON.stringify(values.palette)}`,
      );
    }
    args.palette = palette;
  }
  if (values.colors !== undefined) {
    const n = values.colors;
    if (!/^\d+$/.test(n) || Number(n) < 2 || Number(n) > 256) {
      throw new UsageError(`--colors must be an integer from 2 to 256; got ${JSON.stringify(n)}`);
    }
    args.colors = Number(n);
  }
  if (values.scale !== undefined) {
    const s = values.scale;
    if (!/^\d+(\.\d+)?$/.test(s) || Number(s) < 1 || Number(s) > 64) {
      throw new UsageError(`--scale must be a number from 1 to 64 (e.g. 8 or 7.5); got ${JSON.stringify(s)}`);
    }
    args.scale = Number(s);
  }
  return args;
}

/** `assetloom pixelize`: returns the exit code; messages go to stderr, the summary to stdout. */
export async function runPixelize(argv: string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  const fail = (message: string, code: number) => {
    io.stderr.write(`assetloom pixelize: ${message}\n`);
    if (json) io.stdout.write(`${JSON.stringify({ error: { message, exit: code } }, null, 2)}\n`);
    return code;
  };
  let args: PixelizeArgs | 'help';
  try {
    args = parsePixelizeArgs(argv);
  } catch (error) {
    return fail(
      `${(error as Error).message}\nRun "assetloom pixelize --help" for the options.`,
      PIXELIZE_EXIT.usage,
    );
  }
  if (args === 'help') {
    io.stdout.write(PIXELIZE_HELP);
    return PIXELIZE_EXIT.ok;
  }
  const inPath = resolve(io.cwd, args.input);
  const outPath = resolve(io.cwd, args.output);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(inPath));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (code ?? 'unreadable');
    return fail(`cannot read ${args.input}: ${why}`, PIXELIZE_EXIT.io);
  }
  const decoded = decodePng(bytes);
  if (!decoded.ok) {
    const looksPng = bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e;
    return fail(
      looksPng
        ? `${args.input} is a broken PNG (${decoded.error.replace(/^\[assetloom\/pipeline\] decodePng: /, '')})`
        : `${args.input} is not a PNG image (pixelize reads PNG; convert JPEG or WebP first)`,
      PIXELIZE_EXIT.badInput,
    );
  }
  const result = pixelize(decoded.image, {
    ...(args.scale !== undefined ? { scale: args.scale } : {}),
    ...(args.palette ? { palette: args.palette.colors } : {}),
    ...(args.colors !== undefined ? { maxColors: args.colors } : {}),
    background: args.keepBackground ? 'keep' : 'remove',
  });
  try {
    await writeFile(outPath, encodePng(result.image.data, result.image.width, result.image.height));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      `cannot write ${args.output}: ${code === 'ENOENT' ? 'its folder does not exist' : code === 'EISDIR' ? 'it is a folder' : (code ?? 'write failed')}`,
      PIXELIZE_EXIT.io,
    );
  }
  const { width, height } = result.image;
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          input: inPath,
          output: outPath,
          inputSize: { width: decoded.image.width, height: decoded.image.height },
          width,
          height,
          scale: result.scale,
          offset: result.offset,
          colors: result.palette.length,
          ...(args.palette ? { palette: args.palette.name } : {}),
        },
        null,
        2,
      )}\n`,
    );
    return PIXELIZE_EXIT.ok;
  }
  io.stdout.write(
    `${args.input} (${decoded.image.width}×${decoded.image.height}) → ${args.output} (${width}×${height}): ` +
      `scale ${result.scale}, grid offset (${result.offset.x}, ${result.offset.y}), ` +
      `${result.palette.length} colours${args.palette ? ` of ${args.palette.name}` : ''}\n`,
  );
  return PIXELIZE_EXIT.ok;
}
