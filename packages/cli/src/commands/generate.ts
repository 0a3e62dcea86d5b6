import { mkdir, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { AssetloomApiError, type Task } from '@assetloom/sdk';
import {
  apiFailure,
  CliError,
  type Context,
  EXIT,
  exitForApiError,
  intOption,
  keyValues,
  parseCommand,
  resolveProject,
  UsageError,
} from '../context.js';
import { filesProgress, type ProgressView, taskProgress } from '../progress.js';

export const GENERATE_HELP = `assetloom generate --project <id|name> --prompt <text> [options]

Submits a generation, shows its progress (the progress WebSocket, or --poll), then writes the PNGs
and every engine file they come with (TexturePacker, Godot, Aseprite, Phaser 3, Unity, Tiled) into
--out. Every asset type and parameter of the API:

  --project <id|name>        project id, or the name of one of your projects (required)
  --prompt <text>            what to draw (required)
  --type <type>              sprite | animation | background | ui | tileset | level (default sprite)
  --out <dir>                where to write the files (default ./assets)
  --no-download              only submit and follow the task (then: assetloom download <taskId>)
  --resolution <px>          frame size, 16-1024 (default 64)
  --width <px>               canvas width, 16-1024 (background and ui only)
  --height <px>              canvas height, 16-1024 (background and ui only): --width 320 --height 180
                             for a game screen; the one not given is --resolution
  --directions <n>           1, 4 or 8 (default 4; 1 when --image is given; sprite and animation)
  --frames <n>               frames per direction, 1-16 (default 4; sprite and animation)
  --format <f>               spritesheet | individual (default spritesheet)
  --fps <n>                  playback frames per second, 1-60 (default 8; sprite and animation)
  --durations <ms,ms,…>      milliseconds of each frame of a direction, one per frame (overrides --fps)
  --loop <mode>              forward | reverse | pingpong (default forward)
  --tileset-kind <kind>      wang16 | blob47 | seamless (default wang16; --type tileset); the two
                             terrains come from the prompt, e.g. "grass and water"
  --tile-size <px>           tile size, 8-64 (default 16; --type tileset or level)
  --columns <n>              level width in tiles, 8-256 (default 32; --type level)
  --rows <n>                 level height in tiles, 8-256 (default 32; --type level): the prompt says
                             what is where, e.g. "a small island with a lake, a forest in the north"
  --tileset-task <taskId>    tile the level with this completed wang16 or blob47 tileset task of the
                             project (--type level; its tile size is the level's)
  --terrains <a,b,…>         the terrains to draw the level's tiles with, 2-6 of grass, water, sand,
                             dirt, mud, stone, rock, lava, snow, ice, wall, cobble, brick, wood,
                             metal, roof (--type level; not with --tileset-task; default: what
                             the prompt needs)
  --seed <n>                 a variation, 0-4294967295: the same seed and request give the same files
  --placeholder              draw a marked placeholder when the subject cannot be drawn (else it fails)
  --style <key=value>        task style over the project's (repeat), e.g. --style mood=gloomy
  --image <file>             start from this picture (PNG, JPEG, WebP, GIF; uploaded first)
  --strength <0-1>           how much of --image to redraw: 0 keeps it and pixelates it (every
                             provider), 1 ignores it (default 0.5); with --type animation, 0
                             animates the sprite with the motion the prompt names (idle, breathe,
                             squash, hurt, death, spin, glow, hover)
  --mask <file>              edit only where this picture is white (same size as --image, a
                             strength above 0, a model provider)
  --reference <file>         a picture whose style or character to follow (repeat, 1-4)
  --palette-from <file>      the palette is this picture's colours ...
  --max-colors <n>           ... at most n of them, 2-64 (default 16)
  --poll                     follow progress by polling instead of the WebSocket`;

export const UPLOAD_HELP = `assetloom upload <file>…

Uploads pictures (PNG, JPEG, WebP, GIF) and prints their upload ids, for params.image, mask,
references and paletteFrom of the API (assetloom generate --image uploads by itself).`;

export const TASKS_HELP = `assetloom tasks list --project <id|name> [--limit <n>]   the project's tasks, newest first
assetloom tasks show <taskId>                               one task: status, stage, progress, error
assetloom tasks wait <taskId> [--poll]                      follow it to the end with a progress bar`;

export const DOWNLOAD_HELP = `assetloom download <taskId> [--out <dir>]

Writes a completed task's PNGs and every engine file they name into --out (default ./assets).`;

type AssetType = 'sprite' | 'animation' | 'background' | 'ui' | 'tileset' | 'level';
const TERRAIN_NAMES = [
  'grass',
  'water',
  'sand',
  'dirt',
  'mud',
  'stone',
  'rock',
  'lava',
  'snow',
  'ice',
  'wall',
  'cobble',
  'brick',
  'wood',
  'metal',
  'roof',
];

export interface GenerateArgs {
  project: string;
  prompt: string;
  type: AssetType;
  out: string;
  download: boolean;
  /** `params.width` / `params.height`: the canvas of a background or UI piece. */
  width?: number;
  height?: number;
  /** `params.tileset` (only with type tileset). */
  tileset?: { kind?: 'wang16' | 'blob47' | 'seamless'; tileSize?: number };
  /** `params.level` (only with type level). */
  level?: { columns?: number; rows?: number; tileSize?: number; tilesetTaskId?: string; terrains?: string[] };
  resolution?: number;
  directions?: 1 | 4 | 8;
  frames?: number;
  format?: 'spritesheet' | 'individual';
  seed?: number;
  placeholder?: boolean;
  taskStyle?: Record<string, string>;
  /** Pictures uploaded before the generation: `params.image`, `mask`, `references`, `paletteFrom`. */
  image?: { file: string; strength?: number };
  mask?: string;
  references?: string[];
  paletteFrom?: { file: string; maxColors?: number };
  /** Playback written into every atlas file (`params.animation`). */
  animation?: { fps?: number; frameDurations?: number[]; loop?: 'forward' | 'reverse' | 'pingpong' };
  poll: boolean;
}

const GENERATE_OPTIONS = {
  project: { type: 'string' },
  prompt: { type: 'string' },
  type: { type: 'string' },
  out: { type: 'string' },
  'no-download': { type: 'boolean' },
  resolution: { type: 'string' },
  width: { type: 'string' },
  height: { type: 'string' },
  directions: { type: 'string' },
  frames: { type: 'string' },
  format: { type: 'string' },
  fps: { type: 'string' },
  durations: { type: 'string' },
  loop: { type: 'string' },
  'tileset-kind': { type: 'string' },
  'tile-size': { type: 'string' },
  columns: { type: 'string' },
  rows: { type: 'string' },
  'tileset-task': { type: 'string' },
  terrains: { type: 'string' },
  seed: { type: 'string' },
  placeholder: { type: 'boolean' },
  style: { type: 'string', multiple: true },
  poll: { type: 'boolean' },
  image: { type: 'string' },
  strength: { type: 'string' },
  mask: { type: 'string' },
  reference: { type: 'string', multiple: true },
  'palette-from': { type: 'string' },
  'max-colors': { type: 'string' },
} as const;

/** `--fps`, `--durations` and `--loop` as `params.animation` (undefined when none is given). */
function parseAnimation(
  values: { fps?: string; durations?: string; loop?: string },
  framesPerDirection: number,
): GenerateArgs['animation'] {
  const out: NonNullable<GenerateArgs['animation']> = {};
  const fps = intOption('fps', values.fps, 1, 60);
  if (fps !== undefined) out.fps = fps;
  if (values.durations !== undefined) {
    const parts = values.durations.split(',').map((part) => part.trim());
    if (parts.some((part) => !/^\d+$/.test(part) || Number(part) < 1 || Number(part) > 65535)) {
      throw new UsageError(
        `--durations must be milliseconds from 1 to 65535, separated by commas; got ${JSON.stringify(values.durations)}`,
      );
    }
    if (parts.length !== framesPerDirection) {
      throw new UsageError(
        `--durations needs one value per frame of a direction (${framesPerDirection}); got ${parts.length}`,
      );
    }
    out.frameDurations = parts.map(Number);
  }
  if (values.loop !== undefined) {
    if (values.loop !== 'forward' && values.loop !== 'reverse' && values.loop !== 'pingpong') {
      throw new UsageError(`--loop must be forward, reverse or pingpong; got ${JSON.stringify(values.loop)}`);
    }
    out.loop = values.loop;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `--width` and `--height`: a canvas of its own for a background or UI piece; refused for other types. */
function parseCanvas(
  values: { width?: string; height?: string },
  type: string,
): { width?: number; height?: number } {
  const given = values.width !== undefined ? '--width' : values.height !== undefined ? '--height' : undefined;
  if (given === undefined) return {};
  if (type !== 'background' && type !== 'ui') {
    throw new UsageError(
      `${given} applies only to --type background or ui (a canvas of its own); got --type ${type}${
        type === 'sprite' || type === 'animation' ? ' (use --resolution for the frame size)' : ''
      }`,
    );
  }
  const width = intOption('width', values.width, 16, 1024);
  const height = intOption('height', values.height, 16, 1024);
  return { ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) };
}

/** Options that shape sheets of frames, which a tileset (always one sheet of tiles) does not take. */
const SHEET_OPTIONS = ['resolution', 'directions', 'frames', 'format', 'fps', 'durations', 'loop'] as const;

/** `--tileset-kind` and `--tile-size` as `params.tileset`; refused with any other `--type`. */
function parseTileset(
  values: Partial<Record<'tileset-kind' | 'tile-size' | (typeof SHEET_OPTIONS)[number], string>>,
  type: string,
): GenerateArgs['tileset'] {
  const kind = values['tileset-kind'];
  const size = values['tile-size'];
  if (type === 'level') {
    if (kind !== undefined)
      throw new UsageError(
        '--tileset-kind applies only to --type tileset (a level takes --tileset-task or --terrains)',
      );
    return undefined;
  }
  if (type !== 'tileset') {
    const given = kind !== undefined ? '--tileset-kind' : size !== undefined ? '--tile-size' : undefined;
    if (given) throw new UsageError(`${given} applies only to --type tileset; got --type ${type}`);
    return undefined;
  }
  const sheetOption = SHEET_OPTIONS.find((name) => values[name] !== undefined);
  if (sheetOption) {
    throw new UsageError(
      `--${sheetOption} does not apply to --type tileset (a tileset is one sheet of tiles: use --tileset-kind and --tile-size)`,
    );
  }
  if (kind !== undefined && kind !== 'wang16' && kind !== 'blob47' && kind !== 'seamless') {
    throw new UsageError(`--tileset-kind must be wang16, blob47 or seamless; got ${JSON.stringify(kind)}`);
  }
  const tileSize = intOption('tile-size', size, 8, 64);
  return {
    ...(kind !== undefined ? { kind } : {}),
    ...(tileSize !== undefined ? { tileSize } : {}),
  };
}

/** `--columns`, `--rows`, `--tile-size`, `--tileset-task` and `--terrains` as `params.level`; refused with any other `--type`. */
function parseLevel(
  values: Partial<
    Record<
      'columns' | 'rows' | 'tile-size' | 'tileset-task' | 'terrains' | (typeof SHEET_OPTIONS)[number],
      string
    >
  >,
  type: string,
): GenerateArgs['level'] {
  const own = (['columns', 'rows', 'tileset-task', 'terrains'] as const).find(
    (name) => values[name] !== undefined,
  );
  if (type !== 'level') {
    if (own) throw new UsageError(`--${own} applies only to --type level; got --type ${type}`);
    return undefined;
  }
  const sheetOption = SHEET_OPTIONS.find((name) => values[name] !== undefined);
  if (sheetOption) {
    throw new UsageError(
      `--${sheetOption} does not apply to --type level (a level is a map of tiles: use --columns, --rows and --tile-size)`,
    );
  }
  const level: NonNullable<GenerateArgs['level']> = {};
  const columns = intOption('columns', values.columns, 8, 256);
  const rows = intOption('rows', values.rows, 8, 256);
  const tileSize = intOption('tile-size', values['tile-size'], 8, 64);
  if (columns !== undefined) level.columns = columns;
  if (rows !== undefined) level.rows = rows;
  if (tileSize !== undefined) level.tileSize = tileSize;
  if (values['tileset-task'] !== undefined) level.tilesetTaskId = values['tileset-task'];
  if (values.terrains !== undefined) {
    if (level.tilesetTaskId !== undefined)
      throw new UsageError('give --tileset-task or --terrains, not both');
    const terrains = values.terrains
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const unknown = terrains.find((t) => !TERRAIN_NAMES.includes(t));
    if (unknown !== undefined || terrains.length < 2 || terrains.length > 6) {
      throw new UsageError(
        `--terrains takes 2 to 6 of ${TERRAIN_NAMES.join(', ')}, comma-separated; got ${JSON.stringify(values.terrains)}`,
      );
    }
    level.terrains = terrains;
  }
  return level;
}

/** `--image`, `--strength`, `--mask`, `--reference` and `--palette-from` (files uploaded later). */
function parseImages(values: {
  image?: string;
  strength?: string;
  mask?: string;
  reference?: string[];
  'palette-from'?: string;
  'max-colors'?: string;
}): Pick<GenerateArgs, 'image' | 'mask' | 'references' | 'paletteFrom'> {
  const out: Pick<GenerateArgs, 'image' | 'mask' | 'references' | 'paletteFrom'> = {};
  if (values.strength !== undefined && values.image === undefined)
    throw new UsageError('--strength needs --image');
  if (values.image !== undefined) {
    let strength: number | undefined;
    if (values.strength !== undefined) {
      strength = Number(values.strength);
      if (!/^\d*\.?\d+$/.test(values.strength) || !(strength >= 0 && strength <= 1)) {
        throw new UsageError(
          `--strength must be a number from 0 to 1; got ${JSON.stringify(values.strength)}`,
        );
      }
    }
    out.image = { file: values.image, ...(strength === undefined ? {} : { strength }) };
  }
  if (values.mask !== undefined) {
    if (out.image === undefined) throw new UsageError('--mask needs --image (the picture to edit)');
    if (out.image.strength === 0)
      throw new UsageError('--mask needs --strength above 0 (0 pixelates the whole picture)');
    out.mask = values.mask;
  }
  if (values.reference !== undefined) {
    if (values.reference.length > 4)
      throw new UsageError(`--reference takes 1 to 4 pictures; got ${values.reference.length}`);
    out.references = values.reference;
  }
  if (values['max-colors'] !== undefined && values['palette-from'] === undefined) {
    throw new UsageError('--max-colors needs --palette-from');
  }
  if (values['palette-from'] !== undefined) {
    const maxColors = intOption('max-colors', values['max-colors'], 2, 64);
    out.paletteFrom = { file: values['palette-from'], ...(maxColors === undefined ? {} : { maxColors }) };
  }
  return out;
}

/** Parses `generate …` (argv without the command word); throws UsageError saying what to fix. */
export function parseGenerateArgs(argv: string[]): GenerateArgs {
  const { values, positionals } = parseCommand(argv, GENERATE_OPTIONS);
  if (positionals.length > 0) {
    throw new UsageError(
      `generate takes options only; got ${JSON.stringify(positionals.join(' '))} (quote the --prompt)`,
    );
  }
  if (!values.project)
    throw new UsageError('--project is required (a project id or name: "assetloom projects")');
  if (!values.prompt || values.prompt.trim() === '') throw new UsageError('--prompt is required');
  const type = values.type ?? 'sprite';
  if (!['sprite', 'animation', 'background', 'ui', 'tileset', 'level'].includes(type)) {
    throw new UsageError(
      `--type must be sprite, animation, background, ui, tileset or level; got ${JSON.stringify(type)}`,
    );
  }
  const tileset = parseTileset(values, type);
  const level = parseLevel(values, type);
  const canvas = parseCanvas(values, type);
  const format = values.format;
  if (format !== undefined && format !== 'spritesheet' && format !== 'individual') {
    throw new UsageError(`--format must be spritesheet or individual; got ${JSON.stringify(format)}`);
  }
  const directions = intOption('directions', values.directions, 1, 8);
  if (directions !== undefined && ![1, 4, 8].includes(directions)) {
    throw new UsageError(`--directions must be 1, 4 or 8; got ${directions}`);
  }
  const framed = type === 'sprite' || type === 'animation';
  if (!framed && (values.directions !== undefined || values.frames !== undefined)) {
    throw new UsageError(
      `--${values.directions !== undefined ? 'directions' : 'frames'} applies to --type sprite or animation; got --type ${type}`,
    );
  }
  const args: GenerateArgs = {
    project: values.project,
    prompt: values.prompt,
    type: type as AssetType,
    out: values.out ?? './assets',
    download: values['no-download'] !== true,
    poll: values.poll === true,
  };
  const resolution = intOption('resolution', values.resolution, 16, 1024);
  if (resolution !== undefined) args.resolution = resolution;
  if (canvas.width !== undefined) args.width = canvas.width;
  if (canvas.height !== undefined) args.height = canvas.height;
  if (directions !== undefined) args.directions = directions as 1 | 4 | 8;
  const frames = intOption('frames', values.frames, 1, 16);
  if (frames !== undefined) args.frames = frames;
  if (format !== undefined) args.format = format;
  if (tileset !== undefined) args.tileset = tileset;
  if (level !== undefined) args.level = level;
  const seed = intOption('seed', values.seed, 0, 4294967295);
  if (seed !== undefined) args.seed = seed;
  if (values.placeholder) args.placeholder = true;
  const taskStyle = keyValues('style', values.style);
  if (Object.keys(taskStyle).length > 0) args.taskStyle = taskStyle;
  const animation = parseAnimation(values, frames ?? 4);
  if (animation !== undefined) args.animation = animation;
  Object.assign(args, parseImages(values));
  return args;
}

/** The request's `params` (pictures are named by upload id by `uploads`). */
function paramsOf(args: GenerateArgs, uploads: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = { ...uploads };
  if (args.resolution !== undefined) params.resolution = args.resolution;
  if (args.format !== undefined) params.format = args.format;
  if (args.width !== undefined) params.width = args.width;
  if (args.height !== undefined) params.height = args.height;
  if (args.seed !== undefined) params.seed = args.seed;
  if (args.placeholder) params.placeholder = true;
  const framed = args.type === 'sprite' || args.type === 'animation';
  // A picture is one character seen from one side: one direction unless asked (issue #41: four
  // directions drawn from one picture failed the alpha-coverage check of the other three).
  // Without --directions and --frames the server's defaults apply (with a picture: one frame, or
  // one direction of four for an animation).
  if (framed && (args.directions !== undefined || args.frames !== undefined)) {
    params.frames = {
      directions: args.directions ?? (args.image ? 1 : 4),
      framesPerDirection: args.frames ?? 4,
    };
  }
  if (framed && args.animation) params.animation = args.animation;
  if (args.type === 'tileset' && args.tileset && Object.keys(args.tileset).length > 0)
    params.tileset = args.tileset;
  if (args.type === 'level' && args.level && Object.keys(args.level).length > 0) params.level = args.level;
  return params;
}

/** Uploads one picture; answers its upload id (a picture the server refuses: exit 2 with its reason). */
export async function uploadFile(ctx: Context, file: string) {
  const path = resolve(ctx.io.cwd, file);
  const up = await ctx.api.uploadImage(path);
  if (up.error) {
    const code = up.error.code;
    throw new CliError(`could not upload ${file}: ${up.error.message}`, exitForApiError({ code }));
  }
  ctx.note(`uploaded ${file}: ${up.data.width}×${up.data.height} ${up.data.format}`);
  return up.data;
}

/** Follows a task to its end with a progress view; answers the completed task (a failed one: exit 1). */
export async function follow(
  ctx: Context,
  taskId: string,
  poll: boolean,
  makeView: (ctx: Context) => Promise<ProgressView>,
) {
  const view = await makeView(ctx);
  const done = await ctx.api.waitForTask(taskId, {
    transport: poll ? 'poll' : 'auto',
    pollIntervalMs: 300,
    onProgress: (task) => view.update(task),
    onEvent: (event) => view.event(event),
  });
  view.stop();
  if (done.error) {
    if (done.error.code === 'task_failed') {
      throw new CliError(
        `the generation failed: ${done.error.task?.error ?? done.error.message}`,
        EXIT.taskFailed,
      );
    }
    throw new CliError(
      `lost the task: ${done.error.message}`,
      done.error.code === 401 ? EXIT.auth : EXIT.api,
    );
  }
  return done.data;
}

/** A file name safe to write: the last part of an object key. */
function fileNameOf(key: string): string {
  const name = basename(key);
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) {
    throw new CliError(`refusing to write a file named ${JSON.stringify(name)}`, EXIT.io);
  }
  return name;
}

/**
 * Writes every asset of a completed task, plus every engine file its `metadata.atlas` names, into
 * `out`; answers the paths written.
 */
export async function downloadTask(ctx: Context, taskId: string, out: string, makeView: Options['progress']) {
  const listed = ctx.unwrap(
    'could not list the assets',
    await ctx.api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } }),
  );
  const outDir = resolve(ctx.io.cwd, out);
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create ${outDir}: ${(error as Error).message}`, EXIT.io);
  }
  const byKey = new Map<string, { key: string; url?: string }>();
  const keys = new Set<string>();
  // the words the picture does not show (metadata.notHonoured): said beside the files
  const notHonoured = new Set<string>();
  // the direction rows that only repeat the drawing's one view, or turn its front view (metadata.views)
  const repeated = new Set<string>();
  const turned = new Set<string>();
  const rotated = new Set<string>();
  for (const asset of listed.assets) {
    const meta = asset.metadata as {
      notHonoured?: string[];
      views?: Array<{ direction: string; view: string }>;
    };
    for (const w of meta.notHonoured ?? []) notHonoured.add(w);
    for (const v of meta.views ?? []) {
      if (v.view === 'repeat') repeated.add(v.direction);
      if (v.view === 'turned') turned.add(v.direction);
      if (v.view === 'rotated') rotated.add(v.direction);
    }
    keys.add(asset.key);
    byKey.set(asset.key, asset);
    const atlas = (asset.metadata as { atlas?: Record<string, unknown> } | undefined)?.atlas ?? {};
    for (const value of Object.values(atlas)) if (typeof value === 'string') keys.add(value);
  }
  if (keys.size === 0)
    throw new CliError(
      `task ${taskId} has no files (is it completed? assetloom tasks show ${taskId})`,
      EXIT.api,
    );
  const bar = await (makeView?.files ?? filesProgress)(ctx, keys.size);
  const written: string[] = [];
  for (const key of keys) {
    const name = fileNameOf(key);
    bar?.step(name);
    const file = ctx.unwrap(`could not download ${key}`, await ctx.api.downloadAsset(byKey.get(key) ?? key));
    try {
      await writeFile(resolve(outDir, name), file.bytes);
    } catch (error) {
      throw new CliError(`cannot write ${name}: ${(error as Error).message}`, EXIT.io);
    }
    written.push(resolve(outDir, name));
  }
  bar?.stop();
  return {
    files: written.sort(),
    notHonoured: [...notHonoured],
    repeated: [...repeated],
    turned: [...turned],
    rotated: [...rotated],
  };
}

/** Prints the files written and, beside them, the prompt's words the picture does not show. */
export function printDownload(
  ctx: Context,
  got: {
    files: string[];
    notHonoured: string[];
    repeated: string[];
    turned?: string[];
    rotated?: string[];
  },
): void {
  for (const file of got.files) ctx.print(file);
  if (got.repeated.length > 0)
    ctx.print(
      `rows that repeat the drawing's one view (not drawn facing that way): ${got.repeated.join(', ')}`,
    );
  if (got.turned?.length)
    ctx.print(
      `rows that turn the drawing's front view (its face moved or taken away, its body not redrawn): ${got.turned.join(', ')}`,
    );
  if (got.rotated?.length)
    ctx.print(
      `rows that rotate the drawing seen from above in the picture's plane (the same pixels turned): ${got.rotated.join(', ')}`,
    );
  if (got.notHonoured.length > 0)
    ctx.print(
      `not honoured (drawn without them): ${got.notHonoured.map((w) => JSON.stringify(w)).join(', ')}`,
    );
}

/** Progress displays; tests pass plain ones (the defaults draw bars on a terminal). */
export interface Options {
  progress?: {
    task?: (ctx: Context) => Promise<ProgressView>;
    files?: (ctx: Context, total: number) => Promise<{ step(name: string): void; stop(): void } | undefined>;
  };
}

/**
 * `assetloom generate …`: uploads the pictures, submits the generation, follows it with a progress
 * display, then downloads every file into `--out`. Resolves with the exit code.
 */
export async function generate(ctx: Context, argv: string[], options: Options = {}): Promise<number> {
  const args = parseGenerateArgs(argv);
  ctx.requireToken();
  const projectId = await resolveProject(ctx, args.project);
  const uploads: Record<string, unknown> = {};
  if (args.image) {
    const up = await uploadFile(ctx, args.image.file);
    uploads.image = {
      uploadId: up.uploadId,
      ...(args.image.strength === undefined ? {} : { strength: args.image.strength }),
    };
  }
  if (args.mask) uploads.mask = { uploadId: (await uploadFile(ctx, args.mask)).uploadId };
  if (args.references) {
    uploads.references = [];
    for (const file of args.references)
      (uploads.references as unknown[]).push({ uploadId: (await uploadFile(ctx, file)).uploadId });
  }
  if (args.paletteFrom) {
    const up = await uploadFile(ctx, args.paletteFrom.file);
    uploads.paletteFrom = {
      uploadId: up.uploadId,
      ...(args.paletteFrom.maxColors === undefined ? {} : { maxColors: args.paletteFrom.maxColors }),
    };
  }
  const params = paramsOf(args, uploads);
  const { taskId } = ctx.unwrap(
    'the server refused the generation',
    await ctx.api.generate({
      projectId,
      prompt: args.prompt,
      assetType: args.type,
      ...(args.taskStyle ? { taskStyle: args.taskStyle } : {}),
      ...(Object.keys(params).length > 0 ? { params: params as never } : {}),
    }),
  );
  ctx.note(`task ${taskId}`);
  const task = await follow(ctx, taskId, args.poll, options.progress?.task ?? taskProgress);
  const got = args.download
    ? await downloadTask(ctx, taskId, args.out, options.progress)
    : { files: [], notHonoured: [], repeated: [] };
  const { files, notHonoured } = got;
  printDownload(ctx, got);
  if (files.length > 0) ctx.note(`done: ${files.length} files in ${resolve(ctx.io.cwd, args.out)}`);
  ctx.result({ taskId, status: task.status, files, ...(notHonoured.length ? { notHonoured } : {}) });
  return EXIT.ok;
}

export async function upload(ctx: Context, argv: string[]): Promise<number> {
  const { positionals } = parseCommand(argv, {});
  if (positionals.length === 0) throw new UsageError('upload needs one or more picture files');
  ctx.requireToken();
  const done = [];
  for (const file of positionals) {
    const up = await uploadFile(ctx, file);
    ctx.print(`${up.uploadId}  ${file}  ${up.width}×${up.height} ${up.format}`);
    done.push({ file, ...up });
  }
  ctx.result(done);
  return EXIT.ok;
}

function describeTask(task: Task): string {
  const retry = task.retryCount > 0 ? `, ${task.retryCount} retries` : '';
  const error = task.error ? `\n  error: ${task.error}` : '';
  return `${task.taskId}  ${task.assetType}  ${task.status}  ${task.stage} ${task.progress}%${retry}  "${task.prompt}"${error}`;
}

export async function tasks(ctx: Context, argv: string[], options: Options = {}): Promise<number> {
  const { values, positionals } = parseCommand(argv, {
    project: { type: 'string' },
    limit: { type: 'string' },
    poll: { type: 'boolean' },
  });
  const [action = 'list', taskId, ...extra] = positionals;
  ctx.requireToken();
  if (action === 'list') {
    if (taskId !== undefined) throw new UsageError('tasks list takes --project, not a task id');
    if (!values.project) throw new UsageError('tasks list needs --project <id|name>');
    const limit = intOption('limit', values.limit, 1, 10_000) ?? 20;
    const projectId = await resolveProject(ctx, values.project);
    const list = [];
    try {
      for await (const t of ctx.api.paginate('/api/v1/projects/{projectId}/tasks', {
        projectId,
        pageSize: Math.min(limit, 100),
      })) {
        list.push(t);
        if (list.length >= limit) break;
      }
    } catch (error) {
      if (AssetloomApiError.is(error)) throw apiFailure('could not list the tasks', error);
      throw error;
    }
    for (const t of list) ctx.print(`${t.id}  ${t.assetType}  ${t.status}  ${t.createdAt}  "${t.prompt}"`);
    if (list.length === 0) ctx.print('no tasks in this project yet');
    ctx.result(list);
    return EXIT.ok;
  }
  if (action !== 'show' && action !== 'wait') {
    throw new UsageError(`unknown tasks action ${JSON.stringify(action)}: list, show or wait`);
  }
  if (!taskId || extra.length > 0) throw new UsageError(`tasks ${action} needs one task id`);
  if (action === 'show') {
    const task = ctx.unwrap(
      'could not read the task',
      await ctx.api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } }),
    );
    ctx.print(describeTask(task));
    ctx.result(task);
    return task.status === 'failed' ? EXIT.taskFailed : EXIT.ok;
  }
  const task = await follow(ctx, taskId, values.poll === true, options.progress?.task ?? taskProgress);
  ctx.print(describeTask(task));
  ctx.result(task);
  return EXIT.ok;
}

export async function download(ctx: Context, argv: string[], options: Options = {}): Promise<number> {
  const { values, positionals } = parseCommand(argv, { out: { type: 'string' } });
  const [taskId, ...extra] = positionals;
  if (!taskId || extra.length > 0)
    throw new UsageError('download needs one task id: assetloom download <taskId> --out ./assets');
  ctx.requireToken();
  const got = await downloadTask(ctx, taskId, values.out ?? './assets', options.progress);
  printDownload(ctx, got);
  ctx.result({
    taskId,
    files: got.files,
    ...(got.notHonoured.length ? { notHonoured: got.notHonoured } : {}),
  });
  return EXIT.ok;
}
