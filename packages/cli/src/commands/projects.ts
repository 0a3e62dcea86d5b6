import { AssetloomApiError, type NamedPalette } from '@assetloom/sdk';
import {
  apiFailure,
  CliError,
  type Context,
  EXIT,
  keyValues,
  parseCommand,
  resolveProject,
  UsageError,
} from '../context.js';

export const PROJECTS_HELP = `assetloom projects [list]                    your projects, newest first
assetloom projects create <name> [--style key=value]… [--palette <name>]
assetloom projects rename <project> <new name>
assetloom projects delete <project> --yes    deletes its tasks, assets and files too

<project> is a project id or the name of one of your projects.`;

export const STYLE_HELP = `assetloom style show <project>               the project's style (key/value pairs)
assetloom style set <project> [key=value]… [--palette <name>] [--art-style <style>] [--replace]
                                             changes the named keys (--replace: only these);
                                             key= (empty value) removes a key
assetloom style pick <project>               choose the palette from a numbered list (a terminal)
assetloom style palettes                     the server's named palettes, with their colours
assetloom style catalog                      every style key the generator reads, with its values`;

/** A palette's colours as terminal swatches (24-bit colour), or nothing outside a terminal. */
function swatches(ctx: Context, palette: NamedPalette): string {
  if (!ctx.io.stdout.isTTY || ctx.io.env.NO_COLOR) return '';
  return palette.colors
    .map((hex) => {
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
      return `\x1b[48;2;${r};${g};${b}m  \x1b[0m`;
    })
    .join('');
}

export async function projects(ctx: Context, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(argv, {
    style: { type: 'string', multiple: true },
    palette: { type: 'string' },
    yes: { type: 'boolean' },
  });
  const [action = 'list', ...rest] = positionals;
  ctx.requireToken();
  const api = ctx.api;
  switch (action) {
    case 'list': {
      if (rest.length > 0) throw new UsageError(`projects list takes no arguments; got ${rest.join(' ')}`);
      const list = [];
      try {
        for await (const p of api.paginate('/api/v1/projects')) list.push(p);
      } catch (error) {
        if (AssetloomApiError.is(error)) throw apiFailure('could not list your projects', error);
        throw error;
      }
      for (const p of list) ctx.print(`${p.id}  ${p.name}  (${p.taskCount} tasks, last ${p.lastActivityAt})`);
      if (list.length === 0) ctx.print('no projects yet: assetloom projects create <name>');
      ctx.result(list);
      return EXIT.ok;
    }
    case 'create': {
      const name = rest.join(' ').trim();
      if (name === '')
        throw new UsageError('projects create needs a name: assetloom projects create "My game"');
      const style = {
        ...keyValues('style', values.style),
        ...(values.palette ? { palette: values.palette } : {}),
      };
      const project = ctx.unwrap(
        'could not create the project',
        await api.POST('/api/v1/projects', {
          body: { name, ...(Object.keys(style).length > 0 ? { style } : {}) },
        }),
      );
      ctx.print(`created ${project.id}  ${project.name}`);
      ctx.result(project);
      return EXIT.ok;
    }
    case 'rename': {
      const [wanted, ...words] = rest;
      const name = words.join(' ').trim();
      if (!wanted || name === '') throw new UsageError('projects rename needs the project and its new name');
      const projectId = await resolveProject(ctx, wanted);
      const project = ctx.unwrap(
        'could not rename the project',
        await api.PUT('/api/v1/projects/{projectId}', { params: { path: { projectId } }, body: { name } }),
      );
      ctx.print(`renamed ${project.id} to ${project.name}`);
      ctx.result(project);
      return EXIT.ok;
    }
    case 'delete': {
      const [wanted, ...extra] = rest;
      if (!wanted || extra.length > 0) throw new UsageError('projects delete needs one project (id or name)');
      if (!values.yes) {
        throw new UsageError(
          `deleting ${JSON.stringify(wanted)} also deletes its tasks, assets and files: add --yes to confirm`,
        );
      }
      const projectId = await resolveProject(ctx, wanted);
      ctx.unwrap(
        'could not delete the project',
        await api.DELETE('/api/v1/projects/{projectId}', { params: { path: { projectId } } }),
      );
      ctx.print(`deleted ${projectId}`);
      ctx.result({ deleted: projectId });
      return EXIT.ok;
    }
    default:
      throw new UsageError(
        `unknown projects action ${JSON.stringify(action)}: list, create, rename or delete`,
      );
  }
}

export async function style(ctx: Context, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(argv, {
    palette: { type: 'string' },
    'art-style': { type: 'string' },
    replace: { type: 'boolean' },
  });
  const [action, ...rest] = positionals;
  const api = ctx.api;
  if (action === 'palettes' || action === 'catalog') {
    if (rest.length > 0) throw new UsageError(`style ${action} takes no arguments`);
    const catalog = ctx.unwrap('could not read the style catalogue', await api.getStyleCatalog());
    if (action === 'palettes') {
      for (const p of catalog.palettes) {
        const aliases = p.aliases.length > 0 ? ` (also ${p.aliases.join(', ')})` : '';
        ctx.print(`${p.name.padEnd(12)} ${swatches(ctx, p)} ${p.colors.length} colours${aliases}`);
      }
      ctx.result(catalog.palettes);
    } else {
      for (const key of catalog.keys) {
        ctx.print(
          `${key.name}: ${key.values ? key.values.join(', ') : 'any text'}${key.description ? `\n  ${key.description}` : ''}`,
        );
      }
      ctx.result(catalog);
    }
    return EXIT.ok;
  }
  const [wanted, ...pairs] = rest;
  if (action !== 'show' && action !== 'set' && action !== 'pick') {
    throw new UsageError(
      action === undefined
        ? 'style needs an action: show, set, pick, palettes or catalog ("assetloom style --help")'
        : `unknown style action ${JSON.stringify(action)}: show, set, pick, palettes or catalog`,
    );
  }
  if (!wanted) throw new UsageError(`style ${action} needs the project (id or name)`);
  ctx.requireToken();
  const projectId = await resolveProject(ctx, wanted);
  const path = { params: { path: { projectId } } };
  const current = ctx.unwrap(
    'could not read the style',
    await api.GET('/api/v1/projects/{projectId}/style', path),
  );
  if (action === 'show') {
    const entries = Object.entries(current.kvPairs);
    for (const [key, value] of entries) ctx.print(`${key}=${value}`);
    if (entries.length === 0) ctx.print('(no style: assetloom style set <project> palette=sweetie16)');
    ctx.result(current);
    return EXIT.ok;
  }
  const changes = keyValues('style', pairs);
  if (values.palette !== undefined) changes.palette = values.palette;
  if (values['art-style'] !== undefined) changes.artStyle = values['art-style'];
  if (action === 'pick') {
    if (pairs.length > 0 || values.palette !== undefined)
      throw new UsageError('style pick takes only the project');
    changes.palette = await pickPalette(ctx);
  } else if (Object.keys(changes).length === 0) {
    throw new UsageError('style set needs key=value pairs, --palette or --art-style');
  }
  const next: Record<string, string> = values.replace ? {} : { ...current.kvPairs };
  for (const [key, value] of Object.entries(changes)) {
    if (value === '') delete next[key];
    else next[key] = value;
  }
  const saved = ctx.unwrap(
    'the server refused the style',
    await api.PUT('/api/v1/projects/{projectId}/style', { ...path, body: { kvPairs: next } }),
  );
  for (const [key, value] of Object.entries(saved.kvPairs)) ctx.print(`${key}=${value}`);
  ctx.result(saved);
  return EXIT.ok;
}

/** The palette picker: the catalogue's palettes numbered with their colours; reads a number. */
async function pickPalette(ctx: Context): Promise<string> {
  const stdin = ctx.io.stdin;
  if (!stdin?.isTTY || ctx.json) {
    throw new UsageError(
      'style pick asks on a terminal; in scripts use: assetloom style set <project> --palette <name>',
    );
  }
  const catalog = ctx.unwrap('could not read the style catalogue', await ctx.api.getStyleCatalog());
  catalog.palettes.forEach((p, i) => {
    ctx.io.stderr.write(`${String(i + 1).padStart(2)}. ${p.name.padEnd(12)} ${swatches(ctx, p)}\n`);
  });
  ctx.io.stderr.write(`Palette (1-${catalog.palettes.length}): `);
  for await (const chunk of stdin) {
    const answer = (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')).trim();
    const byNumber = catalog.palettes[Number(answer) - 1];
    const byName = catalog.palettes.find((p) => p.name === answer || p.aliases.includes(answer));
    const chosen = /^\d+$/.test(answer) ? byNumber : byName;
    if (chosen) return chosen.name;
    throw new UsageError(
      `no palette ${JSON.stringify(answer)}: give a number from 1 to ${catalog.palettes.length}`,
    );
  }
  throw new CliError('no palette chosen (standard input ended)', EXIT.usage);
}
