import type { Character } from '@assetloom/sdk';
import { type Context, EXIT, keyValues, parseCommand, resolveProject, UsageError } from '../context.js';
import { taskProgress } from '../progress.js';
import { downloadTask, follow, type Options, printDownload, uploadFile } from './generate.js';

export const CHARACTERS_HELP = `assetloom characters [list] <project>          the project's characters, newest first
assetloom characters create <project> --name <name> (--prompt <text> | --image <file>)
    [--size 32|64|128] [--seed <n>] [--style key=value]… [--palette <name>]
                                             keeps a character (its identity: prompt, seed, style,
                                             size, palette; an uploaded picture as its reference)
                                             and draws its base view into --out
assetloom characters show <character>
assetloom characters rename <character> <new name>
assetloom characters delete <character> --yes
assetloom characters animate <character> <action> [--directions 1|4|8] [--frames <n>]
                                             idle, walk, run, jump, attack, cast, hurt or death
                                             (free text on a model provider): a task drawn with
                                             the character's identity, its files into --out
assetloom characters rotate <character> [--directions 4|8]

  --out <dir>      where to write the files (default ./assets)
  --no-download    only follow the task
  --poll           follow by polling instead of the WebSocket`;

const SIZES = new Set(['32', '64', '128']);
const CHARACTER_OPTIONS = {
  name: { type: 'string' },
  prompt: { type: 'string' },
  image: { type: 'string' },
  size: { type: 'string' },
  seed: { type: 'string' },
  style: { type: 'string', multiple: true },
  palette: { type: 'string' },
  directions: { type: 'string' },
  frames: { type: 'string' },
  out: { type: 'string' },
  'no-download': { type: 'boolean' },
  poll: { type: 'boolean' },
  yes: { type: 'boolean' },
} as const;

function describe(c: Character): string {
  const i = c.identity;
  return `${c.id}  ${c.name}  (${i.size} px, seed ${i.seed}${i.palette ? `, ${i.palette}` : ''}, ${c.source === 'upload' ? `from upload ${c.uploadId}` : JSON.stringify(i.prompt)})`;
}

function intOption(name: string, value: string | undefined, allowed?: readonly number[]): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || (allowed !== undefined && !allowed.includes(n))) {
    throw new UsageError(
      allowed === undefined
        ? `${name} must be an integer ≥ 0`
        : `${name} must be ${allowed.join(', ').replace(/, (\d+)$/, ' or $1')}`,
    );
  }
  return n;
}

/** `assetloom characters …` (issue #40). */
export async function characters(ctx: Context, argv: string[], options: Options = {}): Promise<number> {
  const { values, positionals } = parseCommand(argv, CHARACTER_OPTIONS);
  const [first, ...others] = positionals;
  const actions = ['list', 'create', 'show', 'rename', 'delete', 'animate', 'rotate'];
  // `assetloom characters <project>` lists
  const [action, rest] =
    first !== undefined && actions.includes(first) ? [first, others] : ['list', positionals];
  ctx.requireToken();
  const api = ctx.api.characters;
  const out = values.out ?? 'assets';
  const runTask = async (taskId: string) => {
    ctx.note(`task ${taskId}`);
    const task = await follow(ctx, taskId, values.poll === true, options.progress?.task ?? taskProgress);
    const got = values['no-download']
      ? { files: [], notHonoured: [], repeated: [] }
      : await downloadTask(ctx, taskId, out, options.progress);
    printDownload(ctx, got);
    return { taskId, status: task.status, files: got.files };
  };
  switch (action) {
    case 'list': {
      const [wanted, ...extra] = rest;
      if (!wanted || extra.length > 0) throw new UsageError('characters list needs one project (id or name)');
      const projectId = await resolveProject(ctx, wanted);
      const all: Character[] = [];
      for (let page = 1; ; page++) {
        const found = ctx.unwrap(
          'could not list the characters',
          await api.list(projectId, { page, pageSize: 100 }),
        );
        all.push(...found.characters);
        if (found.characters.length < 100 || all.length >= found.total) break;
      }
      for (const c of all) ctx.print(describe(c));
      if (all.length === 0)
        ctx.print(`no characters yet: assetloom characters create ${wanted} --name <name> --prompt <text>`);
      ctx.result(all);
      return EXIT.ok;
    }
    case 'create': {
      const [wanted, ...extra] = rest;
      if (!wanted || extra.length > 0)
        throw new UsageError('characters create needs one project (id or name)');
      if (!values.name) throw new UsageError('characters create needs --name');
      if (values.prompt === undefined && values.image === undefined) {
        throw new UsageError('characters create needs --prompt <text> or --image <file>');
      }
      if (values.size !== undefined && !SIZES.has(values.size))
        throw new UsageError('--size must be 32, 64 or 128');
      const seed = intOption('--seed', values.seed);
      const style = {
        ...keyValues('style', values.style),
        ...(values.palette ? { palette: values.palette } : {}),
      };
      const projectId = await resolveProject(ctx, wanted);
      const uploadId =
        values.image === undefined ? undefined : (await uploadFile(ctx, values.image)).uploadId;
      const created = ctx.unwrap(
        'the server refused the character',
        await api.create(projectId, {
          name: values.name,
          ...(values.prompt === undefined ? {} : { prompt: values.prompt }),
          ...(uploadId === undefined ? {} : { uploadId }),
          ...(values.size === undefined ? {} : { size: Number(values.size) as 32 | 64 | 128 }),
          ...(seed === undefined ? {} : { seed }),
          ...(Object.keys(style).length > 0 ? { style } : {}),
        }),
      );
      ctx.print(`created ${describe(created)}`);
      const base = await runTask(created.baseTaskId);
      ctx.result({ character: created, baseView: base });
      return EXIT.ok;
    }
    case 'show': {
      const [id, ...extra] = rest;
      if (!id || extra.length > 0) throw new UsageError('characters show needs one character id');
      const found = ctx.unwrap('could not read the character', await api.get(id));
      ctx.print(describe(found));
      for (const [key, value] of Object.entries(found.identity.style)) ctx.print(`  ${key}=${value}`);
      ctx.result(found);
      return EXIT.ok;
    }
    case 'rename': {
      const [id, ...words] = rest;
      const name = words.join(' ').trim();
      if (!id || name === '')
        throw new UsageError('characters rename needs the character id and its new name');
      const renamed = ctx.unwrap('could not rename the character', await api.rename(id, name));
      ctx.print(`renamed ${renamed.id} to ${renamed.name}`);
      ctx.result(renamed);
      return EXIT.ok;
    }
    case 'delete': {
      const [id, ...extra] = rest;
      if (!id || extra.length > 0) throw new UsageError('characters delete needs one character id');
      if (!values.yes)
        throw new UsageError(`deleting character ${id}: add --yes to confirm (its tasks stay)`);
      ctx.unwrap('could not delete the character', await api.delete(id));
      ctx.print(`deleted ${id}`);
      ctx.result({ deleted: id });
      return EXIT.ok;
    }
    case 'animate': {
      const [id, ...words] = rest;
      const action = words.join(' ').trim();
      if (!id || action === '')
        throw new UsageError('characters animate needs the character id and an action (walk, idle, …)');
      const directions = intOption('--directions', values.directions, [1, 4, 8]) as 1 | 4 | 8 | undefined;
      const frames = intOption('--frames', values.frames);
      const { taskId } = ctx.unwrap(
        'the server refused the animation',
        await api.animate(id, {
          action,
          ...(directions === undefined ? {} : { directions }),
          ...(frames === undefined ? {} : { framesPerDirection: frames }),
        }),
      );
      ctx.result(await runTask(taskId));
      return EXIT.ok;
    }
    case 'rotate': {
      const [id, ...extra] = rest;
      if (!id || extra.length > 0) throw new UsageError('characters rotate needs one character id');
      const directions = intOption('--directions', values.directions, [4, 8]) as 4 | 8 | undefined;
      const { taskId } = ctx.unwrap(
        'the server refused the turn',
        await api.rotate(id, directions === undefined ? {} : { directions }),
      );
      ctx.result(await runTask(taskId));
      return EXIT.ok;
    }
    default:
      throw new UsageError(`unknown characters action ${JSON.stringify(action)}: ${actions.join(', ')}`);
  }
}
