import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AssetloomMcpError } from '../errors.js';
import { type Language, say } from './messages.js';

/** A path is inside `root` (or is it): no `..` step leads out of it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** A file name the server may write: the last part of a storage key, nothing that climbs or hides. */
export function safeFileName(name: string): string | undefined {
  return /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/.test(name) && !name.includes('..') ? name : undefined;
}

/** A folder resolved inside an allowed folder. */
export interface ResolvedFolder {
  /** The real path of the folder (symbolic links resolved). */
  dir: string;
  /** The allowed folder (real path) it is in. */
  root: string;
}

/**
 * The folders the MCP server may read from and write into (its --allow folders), and every path
 * an agent passes checked against them: relative paths are taken from the first folder, `res://`
 * paths from the allowed folder that holds project.godot; `..` steps and symbolic links that lead
 * outside are refused, files are written without following a link at their own name.
 */
export class AllowedFolders {
  readonly #given: readonly string[];
  #roots: Promise<string[]> | undefined;

  constructor(folders: readonly string[], cwd: string = process.cwd()) {
    this.#given = folders.map((folder) => resolve(cwd, folder));
  }

  get configured(): boolean {
    return this.#given.length > 0;
  }

  /** The allowed folders as given (absolute), for messages. */
  get list(): readonly string[] {
    return this.#given;
  }

  /** The real paths of the allowed folders (each must exist and be a folder). */
  roots(): Promise<string[]> {
    this.#roots ??= Promise.all(
      this.#given.map(async (folder) => {
        const real = await realpath(folder).catch((error: NodeJS.ErrnoException) => {
          throw new Error(
            `[assetloom/mcp] the allowed folder ${folder} cannot be used (${error.code ?? error.message}): make it first.`,
          );
        });
        if (!(await stat(real)).isDirectory())
          throw new Error(`[assetloom/mcp] the allowed folder ${folder} is not a folder.`);
        return real;
      }),
    );
    return this.#roots;
  }

  /** The allowed folder that holds project.godot (the `res://` of a Godot project), if one does. */
  async godotRoot(): Promise<string | undefined> {
    for (const root of await this.roots()) {
      if (await isFile(join(root, 'project.godot'))) return root;
    }
    return undefined;
  }

  /** Where `requested` points, lexically, before anything on disk is looked at. */
  async #target(
    requested: string,
    field: string,
    language: Language,
  ): Promise<{ path: string; root: string }> {
    if (!this.configured)
      throw new AssetloomMcpError('no_allowed_folders', say(language, 'noFolders'), { field });
    const roots = await this.roots();
    let path: string;
    if (/^res:\/\//i.test(requested)) {
      const godot = await this.godotRoot();
      if (godot === undefined) {
        throw new AssetloomMcpError(
          'outside_allowed_folders',
          say(language, 'noGodotProject', { field, path: requested }),
          { field },
        );
      }
      path = resolve(godot, `.${sep}${requested.slice('res://'.length)}`);
    } else {
      path = resolve(roots[0] as string, requested);
    }
    const root =
      roots.find((r) => isInside(r, path)) ??
      this.#given.map((g, i) => (isInside(g, path) ? roots[i] : undefined)).find(Boolean);
    if (root === undefined) {
      throw new AssetloomMcpError(
        'outside_allowed_folders',
        say(language, 'outside', { field, path: requested, allowed: this.#given.join(', ') }),
        { field },
      );
    }
    // A path written through the folder as given (not its real path) is taken relative to it.
    const given = this.#given[roots.indexOf(root)] as string;
    if (!isInside(root, path) && isInside(given, path)) path = join(root, relative(given, path));
    return { path, root };
  }

  /**
   * The folder `requested` names, made when missing, its real path inside an allowed folder: every
   * part that exists is followed (a link that leads out of the allowed folder is refused), every part
   * that does not is made (`make: false`: nothing is made, the check alone — a long tool runs it
   * before submitting its task, so a refused folder costs no task).
   */
  async folder(
    requested: string,
    field: string,
    language: Language,
    { make = true }: { make?: boolean } = {},
  ): Promise<ResolvedFolder> {
    const { path, root } = await this.#target(requested, field, language);
    let current = root;
    const parts = relative(root, path).split(sep).filter(Boolean);
    for (const [index, part] of parts.entries()) {
      const next = join(current, part);
      const info = await lstat(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (info === undefined) {
        // only checking (before a task is submitted): what is missing is made when the files come
        if (!make) return { dir: join(current, ...parts.slice(index)), root };
        await mkdir(next).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
      }
      const real = await realpath(next);
      if (!isInside(root, real)) {
        throw new AssetloomMcpError(
          'outside_allowed_folders',
          say(language, 'symlinkOut', { field, path: requested, target: real }),
          { field },
        );
      }
      if (!(await stat(real)).isDirectory()) {
        throw new AssetloomMcpError('not_a_folder', say(language, 'notAFolder', { field, path: requested }), {
          field,
        });
      }
      current = real;
    }
    return { dir: current, root };
  }

  /** Reads a file inside the allowed folders (its real path must be inside one too). */
  async read(requested: string, field: string, language: Language): Promise<Uint8Array> {
    const { path, root } = await this.#target(requested, field, language);
    let real: string;
    try {
      real = await realpath(path);
    } catch (error) {
      throw new AssetloomMcpError(
        'unreadable',
        say(language, 'unreadable', {
          field,
          path: requested,
          message: (error as NodeJS.ErrnoException).code ?? String(error),
        }),
        { field, cause: error },
      );
    }
    if (!isInside(root, real)) {
      throw new AssetloomMcpError(
        'outside_allowed_folders',
        say(language, 'symlinkOut', { field, path: requested, target: real }),
        {
          field,
        },
      );
    }
    return new Uint8Array(await readFile(real));
  }
}

/**
 * Writes `bytes` as `dir/name` without following a link: into a new temporary file (O_EXCL,
 * O_NOFOLLOW), then renamed over the name (a rename replaces a link, never writes through it).
 * An existing file stops it unless `overwrite`.
 */
export async function writeFileSafely(
  dir: string,
  name: string,
  bytes: Uint8Array,
  options: { overwrite: boolean; field: string; language: Language; shown: string },
): Promise<string> {
  const final = join(dir, name);
  const existing = await lstat(final).catch(() => undefined);
  if (existing !== undefined && (!options.overwrite || existing.isSymbolicLink() || existing.isDirectory())) {
    throw new AssetloomMcpError(
      'file_exists',
      say(options.language, 'fileExists', { field: options.field, path: options.shown }),
      {
        field: options.field,
      },
    );
  }
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.part`);
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, final);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return final;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}
