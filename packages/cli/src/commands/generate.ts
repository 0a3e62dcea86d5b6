import { mkdir, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type AssetClient,
  type AssetClientOptions,
  createAssetClient,
  overallProgress,
  type PipelineProgress,
  type Task,
} from '@assetloom/sdk';
import { runPixelize } from './pixelize-command.js';

/** Exit codes of `assetloom generate`. */
export const EXIT = {
  ok: 0,
  /** The generation ran and failed (quality retries exhausted, provider failure). */
  taskFailed: 1,
  /** Bad arguments (see --help). */
  usage: 2,
  /** Not logged in: no token, wrong username or password, expired token. */
  auth: 3,
  /** The API refused or could not be reached (network, 4xx/5xx other than auth). */
  api: 4,
  /** The files could not be written. */
  io: 5,
} as const;

export const HELP = `assetloom generate — generate 2D game assets through an Assetloom server

Usage:
  assetloom generate --project <id|name> --prompt <text> [options]
  assetloom pixelize <in.png> -o <out.png> [--palette <name>] [--colors <n>] [--scale <px>] [--keep-background]
                             (model output → native pixel art; assetloom pixelize --help)

Options:
  --project <id|name>        project id, or the name of one of your projects (required)
  --prompt <text>            what to draw (required)
  --type <type>              sprite | animation | background | ui | tileset (default sprite)
  --out <dir>                where to write the files (default ./sprites)
  --resolution <px>          frame size, 16-1024 (default 64)
  --width <px>               canvas width, 16-1024 (background and ui only)
  --height <px>              canvas height, 16-1024 (background and ui only): --width 320 --height 180
                             for a game screen; the one not given is --resolution
  --directions <n>           1, 4 or 8 (default 4; sprite and animation)
  --frames <n>               frames per direction, 1-16 (default 4; sprite and animation)
  --format <f>               spritesheet | individual (default spritesheet)
  --fps <n>                  playback frames per second, 1-60 (default 8; sprite and animation)
  --durations <ms,ms,…>      milliseconds of each frame of a direction, one per frame (overrides --fps)
  --loop <mode>              forward | reverse | pingpong (default forward)
  --tileset-kind <kind>      wang16 | blob47 | seamless (default wang16; --type tileset); the two
                             terrains come from the prompt, e.g. "grass and water"
  --tile-size <px>           tile size, 8-64 (default 16; --type tileset)
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
  --base-url <url>           API origin (default $ASSETLOOM_BASE_URL or http://127.0.0.1:8080)
  --username <name>          log in with these credentials ...
  --password <pw>            ... (or $ASSETLOOM_PASSWORD)
  --token <token>            ... or use a token (default $ASSETLOOM_TOKEN)
  --poll                     follow progress by polling instead of the WebSocket
  -h, --help                 show this help

Exit codes: 0 done, 1 the task failed, 2 bad arguments, 3 not logged in, 4 API or network error, 5 cannot write files.
`;

export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/** What the CLI passes to createAssetClient beyond the base URL (tests inject fetch and WebSocket). */
export type ClientOverrides = Partial<Omit<AssetClientOptions, 'baseUrl'>>;

export interface GenerateArgs {
  project: string;
  prompt: string;
  type: 'sprite' | 'animation' | 'background' | 'ui' | 'tileset';
  out: string;
  /** `params.width` / `params.height`: the canvas of a background or UI piece. */
  width?: number;
  height?: number;
  /** `params.tileset` (only with type tileset). */
  tileset?: { kind?: 'wang16' | 'blob47' | 'seamless'; tileSize?: number };
  resolution?: number;
  directions?: 1 | 4 | 8;
  frames?: number;
  format?: 'spritesheet' | 'individual';
  /** Pictures uploaded before the generation: `params.image`, `mask`, `references`, `paletteFrom`. */
  image?: { file: string; strength?: number };
  mask?: string;
  references?: string[];
  paletteFrom?: { file: string; maxColors?: number };
  /** Playback written into every atlas file (`params.animation`). */
  animation?: { fps?: number; frameDurations?: number[]; loop?: 'forward' | 'reverse' | 'pingpong' };
  baseUrl: string;
  username?: string;
  password?: string;
  token?: string;
  poll: boolean;
}

class UsageError extends Error {}

function intOption(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

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

/** Parses `generate …` arguments; throws UsageError with a message that says what to fix. */
export function parseGenerateArgs(argv: string[], env: CliIo['env']): GenerateArgs | 'help' {
  // `pnpm start -- generate …` hands the separator through: a leading `--` is not an argument.
  const rest = argv[0] === '--' ? argv.slice(1) : argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      project: { type: 'string' },
      prompt: { type: 'string' },
      type: { type: 'string' },
      out: { type: 'string' },
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
      'base-url': { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      token: { type: 'string' },
      poll: { type: 'boolean' },
      image: { type: 'string' },
      strength: { type: 'string' },
      mask: { type: 'string' },
      reference: { type: 'string', multiple: true },
      'palette-from': { type: 'string' },
      'max-colors': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0 || positionals[0] === 'help') return 'help';
  if (positionals[0] !== 'generate' || positionals.length > 1) {
    throw new UsageError(
      `unknown command ${JSON.stringify(positionals.join(' '))}; the command is "generate"`,
    );
  }
  if (!values.project) throw new UsageError('--project is required (a project id or name)');
  if (!values.prompt || values.prompt.trim() === '') throw new UsageError('--prompt is required');
  const type = values.type ?? 'sprite';
  if (!['sprite', 'animation', 'background', 'ui', 'tileset'].includes(type)) {
    throw new UsageError(
      `--type must be sprite, animation, background, ui or tileset; got ${JSON.stringify(type)}`,
    );
  }
  const tileset = parseTileset(values, type);
  const canvas = parseCanvas(values, type);
  const format = values.format;
  if (format !== undefined && format !== 'spritesheet' && format !== 'individual') {
    throw new UsageError(`--format must be spritesheet or individual; got ${JSON.stringify(format)}`);
  }
  const directions = intOption('directions', values.directions, 1, 8);
  if (directions !== undefined && ![1, 4, 8].includes(directions)) {
    throw new UsageError(`--directions must be 1, 4 or 8; got ${directions}`);
  }
  const baseUrl = values['base-url'] ?? env.ASSETLOOM_BASE_URL ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) {
    throw new UsageError(
      `--base-url must be an http(s) URL such as http://127.0.0.1:8080; got ${JSON.stringify(baseUrl)}`,
    );
  }
  const password = values.password ?? env.ASSETLOOM_PASSWORD;
  const token = values.token ?? env.ASSETLOOM_TOKEN;
  if (values.username !== undefined && !password) {
    throw new UsageError('--username needs --password (or $ASSETLOOM_PASSWORD)');
  }
  if (values.username === undefined && !token) {
    throw new UsageError('log in with --username and --password, or pass --token (or $ASSETLOOM_TOKEN)');
  }
  const args: GenerateArgs = {
    project: values.project,
    prompt: values.prompt,
    type: type as GenerateArgs['type'],
    out: values.out ?? './sprites',
    baseUrl: baseUrl.replace(/\/+$/, ''),
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
  const animation = parseAnimation(values, frames ?? 4);
  if (animation !== undefined) args.animation = animation;
  Object.assign(args, parseImages(values));
  if (values.username !== undefined) args.username = values.username;
  if (password) args.password = password;
  if (token) args.token = token;
  return args;
}

/** A progress display: a bar on a terminal, one line per stage change otherwise (logs, CI). */
export interface ProgressView {
  /** The task as it moves (every poll that changed something, and after every stream event). */
  update(task: Task): void;
  /** One event of the progress WebSocket (before the matching `update`). */
  event(event: PipelineProgress): void;
  stop(): void;
}

export type ProgressFactory = (io: CliIo) => ProgressView;

/** Lines for non-TTY output: a line per stage and status change, never a redraw. */
export function lineProgress(io: CliIo): ProgressView {
  let last = '';
  let streamed = false;
  const print = (line: string) => {
    if (line === last) return;
    last = line;
    io.stderr.write(`${line}\n`);
  };
  return {
    update(task) {
      // With the stream, events say more; the task line is printed when polling, and at the end.
      if (streamed && task.status !== 'completed' && task.status !== 'failed') return;
      print(`${task.status} ${task.stage} — ${task.progress}%`);
    },
    event(event) {
      streamed = true;
      const retry = event.retryCount ? ` (retry ${event.retryCount})` : '';
      const reason = event.rejectReason ? `: ${event.rejectReason}` : '';
      print(`${event.stage} ${event.status}${retry}${reason} — ${overallProgress(event)}%`);
    },
    stop() {},
  };
}

async function resolveProject(api: AssetClient, wanted: string): Promise<string> {
  const byId = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId: wanted } } });
  if (byId.data) return byId.data.id;
  if (byId.error && byId.error.code !== 404 && byId.error.code !== 403) throw byId.error;
  const matches: string[] = [];
  for await (const p of api.paginate('/api/v1/projects')) if (p.name === wanted) matches.push(p.id);
  if (matches.length === 1) return matches[0] as string;
  throw new UsageError(
    matches.length === 0
      ? `no project with id or name ${JSON.stringify(wanted)}; create one or check the spelling`
      : `${matches.length} projects are named ${JSON.stringify(wanted)}; pass the project id instead`,
  );
}

function exitForApiError(error: { code: unknown }): number {
  if (error.code === 401) return EXIT.auth;
  if (error.code === 'task_failed') return EXIT.taskFailed;
  return EXIT.api;
}

/**
 * `assetloom generate …`: logs in, submits the generation, follows it over the WebSocket with a
 * progress display, then downloads every asset file (PNGs and every engine file their
 * `metadata.atlas` names: TexturePacker, Godot, Aseprite, Phaser, Unity, Tiled, tileset JSON) into
 * `--out`. Resolves with the exit code; never throws.
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  options: { client?: ClientOverrides; progress?: ProgressFactory } = {},
): Promise<number> {
  // `assetloom pixelize …` is its own command (local files, no server)
  const rest = argv[0] === '--' ? argv.slice(1) : argv;
  if (rest[0] === 'pixelize') return runPixelize(rest.slice(1), io);
  let args: GenerateArgs | 'help';
  try {
    args = parseGenerateArgs(argv, io.env);
  } catch (error) {
    io.stderr.write(`assetloom: ${(error as Error).message}\nRun "assetloom --help" for the options.\n`);
    return EXIT.usage;
  }
  if (args === 'help') {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const api = createAssetClient({
    baseUrl: args.baseUrl,
    ...(args.token ? { token: args.token } : {}),
    ...options.client,
  });
  const fail = (message: string, code: number) => {
    io.stderr.write(`assetloom: ${message}\n`);
    return code;
  };
  try {
    if (args.username !== undefined) {
      const login = await api.login({ username: args.username, password: args.password as string });
      if (login.error) {
        return fail(
          `login failed: ${login.error.message} (${String(login.error.code)})`,
          exitForApiError(login.error),
        );
      }
    }
    let projectId: string;
    try {
      projectId = await resolveProject(api, args.project);
    } catch (error) {
      if (error instanceof UsageError) return fail(error.message, EXIT.usage);
      const e = error as { code: unknown; message: string };
      return fail(`could not read your projects: ${e.message}`, exitForApiError(e));
    }
    const params: Record<string, unknown> = {};
    if (args.resolution !== undefined) params.resolution = args.resolution;
    if (args.format !== undefined) params.format = args.format;
    if (args.width !== undefined) params.width = args.width;
    if (args.height !== undefined) params.height = args.height;
    if ((args.type === 'sprite' || args.type === 'animation') && (args.directions || args.frames)) {
      params.frames = { directions: args.directions ?? 4, framesPerDirection: args.frames ?? 4 };
    }
    if ((args.type === 'sprite' || args.type === 'animation') && args.animation)
      params.animation = args.animation;
    if (args.type === 'tileset' && args.tileset && Object.keys(args.tileset).length > 0)
      params.tileset = args.tileset;
    // pictures first: each file uploaded, its upload id named in the params
    const upload = async (file: string): Promise<string> => {
      const path = resolve(io.cwd, file);
      const up = await api.uploadImage(path);
      if (up.error)
        throw Object.assign(new Error(`could not upload ${file}: ${up.error.message}`), {
          code: up.error.code,
        });
      io.stderr.write(`uploaded ${file}: ${up.data.width}×${up.data.height} ${up.data.format}\n`);
      return up.data.uploadId;
    };
    try {
      if (args.image) {
        params.image = {
          uploadId: await upload(args.image.file),
          ...(args.image.strength === undefined ? {} : { strength: args.image.strength }),
        };
      }
      if (args.mask) params.mask = { uploadId: await upload(args.mask) };
      if (args.references)
        params.references = await Promise.all(
          args.references.map(async (f) => ({ uploadId: await upload(f) })),
        );
      if (args.paletteFrom) {
        params.paletteFrom = {
          uploadId: await upload(args.paletteFrom.file),
          ...(args.paletteFrom.maxColors === undefined ? {} : { maxColors: args.paletteFrom.maxColors }),
        };
      }
    } catch (error) {
      const e = error as { code?: unknown; message: string };
      return fail(
        e.message,
        e.code === undefined || e.code === 400 || e.code === 413
          ? EXIT.usage
          : exitForApiError(e as { code: unknown }),
      );
    }
    const submitted = await api.generate({
      projectId,
      prompt: args.prompt,
      assetType: args.type,
      ...(Object.keys(params).length > 0 ? { params: params as never } : {}),
    });
    if (submitted.error) {
      return fail(
        `the server refused the generation: ${submitted.error.message}`,
        exitForApiError(submitted.error),
      );
    }
    const { taskId } = submitted.data;
    io.stderr.write(`task ${taskId}\n`);
    const view = (options.progress ?? lineProgress)(io);
    const done = await api.waitForTask(taskId, {
      transport: args.poll ? 'poll' : 'auto',
      pollIntervalMs: 300,
      onProgress: (task) => view.update(task),
      onEvent: (event) => view.event(event),
    });
    view.stop();
    if (done.error) {
      if (done.error.code === 'task_failed') {
        return fail(
          `the generation failed: ${done.error.task?.error ?? done.error.message}`,
          EXIT.taskFailed,
        );
      }
      return fail(`lost the task: ${done.error.message}`, exitForApiError(done.error));
    }
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (listed.error)
      return fail(`could not list the assets: ${listed.error.message}`, exitForApiError(listed.error));
    const outDir = resolve(io.cwd, args.out);
    try {
      await mkdir(outDir, { recursive: true });
    } catch (error) {
      return fail(`cannot create ${outDir}: ${(error as Error).message}`, EXIT.io);
    }
    // Every asset file, plus the atlas files its metadata names.
    const keys = new Set<string>();
    const byKey = new Map<string, { key: string; url?: string }>();
    for (const asset of listed.data.assets) {
      keys.add(asset.key);
      byKey.set(asset.key, asset);
      const atlas = (asset.metadata as { atlas?: Record<string, unknown> } | undefined)?.atlas ?? {};
      for (const value of Object.values(atlas)) if (typeof value === 'string') keys.add(value);
    }
    const written: string[] = [];
    for (const key of keys) {
      const file = await api.downloadAsset(byKey.get(key) ?? key);
      if (file.error)
        return fail(`could not download ${key}: ${file.error.message}`, exitForApiError(file.error));
      const name = basename(key);
      if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) {
        return fail(`refusing to write a file named ${JSON.stringify(name)}`, EXIT.io);
      }
      try {
        await writeFile(resolve(outDir, name), file.data.bytes);
      } catch (error) {
        return fail(`cannot write ${name}: ${(error as Error).message}`, EXIT.io);
      }
      written.push(name);
    }
    written.sort();
    io.stdout.write(`${written.map((name) => resolve(outDir, name)).join('\n')}\n`);
    io.stderr.write(`done: ${written.length} files in ${outDir}\n`);
    return EXIT.ok;
  } catch (error) {
    return fail(`unexpected error: ${(error as Error).message}`, EXIT.api);
  }
}
