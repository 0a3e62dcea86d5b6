import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Asset, AssetClient, Task } from '@assetloom/sdk';
import { AssetloomMcpError } from '../errors.js';
import { type AllowedFolders, isInside, safeFileName, writeFileSafely } from './folders.js';
import { LAYOUTS, type LayoutName } from './layouts.js';
import { type Language, say } from './messages.js';

/** The URI of a stored file as an MCP resource (its storage key, percent-encoded as one segment). */
export const FILE_URI_PREFIX = 'assetloom://files/';

export function fileUri(key: string): string {
  return `${FILE_URI_PREFIX}${encodeURIComponent(key)}`;
}

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.json': 'application/json',
  '.tres': 'text/plain',
  '.tscn': 'text/plain',
  '.tsx': 'application/xml',
  '.meta': 'text/yaml',
};

export function mimeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot >= 0 ? MIME[name.slice(dot).toLowerCase()] : undefined) ?? 'application/octet-stream';
}

export function isText(name: string): boolean {
  return mimeOf(name) !== 'image/png' && mimeOf(name) !== 'application/octet-stream';
}

/** A file of a task: a PNG asset or an engine file named in an asset's `metadata.atlas`. */
export interface TaskFile {
  key: string;
  name: string;
  /** `png`, or the atlas kind (`godot`, `unity`, `phaser`, …). */
  kind: string;
  asset?: Asset;
}

/** Every file of a task's assets: the PNGs, then each engine file once (pages share some). */
export function filesOf(assets: readonly Asset[]): TaskFile[] {
  const out: TaskFile[] = [];
  const seen = new Set<string>();
  for (const asset of assets) {
    if (seen.has(asset.key)) continue;
    seen.add(asset.key);
    out.push({ key: asset.key, name: basename(asset.key), kind: 'png', asset });
  }
  for (const asset of assets) {
    for (const [kind, key] of Object.entries(asset.metadata.atlas ?? {})) {
      if (typeof key !== 'string' || seen.has(key)) continue;
      seen.add(key);
      out.push({ key, name: basename(key), kind });
    }
  }
  return out;
}

/** The nearest folder from `dir` up to `root` that holds project.godot (`root` when none does). */
async function godotProjectOf(dir: string, root: string): Promise<string> {
  for (let current = dir; isInside(root, current); current = dirname(current)) {
    if ((await stat(join(current, 'project.godot')).catch(() => undefined))?.isFile()) return current;
    if (current === root) break;
  }
  return root;
}

/** `res://sprite.png` in a Godot resource → where the PNG lands inside the Godot project. */
export function rewriteResPaths(text: string, names: ReadonlySet<string>, resDir: string): string {
  if (resDir === '') return text;
  return text.replace(/path="res:\/\/([^"/]+)"/g, (whole, name: string) =>
    names.has(name) ? `path="res://${resDir}/${name}"` : whole,
  );
}

export interface WrittenFile {
  path: string;
  kind: string;
  /** Where Godot finds it (`res://…`), for the files inside a Godot project. */
  res?: string;
}

/**
 * Writes a completed task's files into an allowed folder: the PNGs and the engine files of the
 * layout, Godot's `res://` paths pointing where the PNGs land.
 */
export async function downloadTask(input: {
  api: AssetClient<true>;
  folders: AllowedFolders;
  task: Task;
  assets: readonly Asset[];
  folder: string;
  layout: LayoutName;
  overwrite: boolean;
  field: string;
  language: Language;
  signal: AbortSignal;
}): Promise<WrittenFile[]> {
  const { api, folders, task, assets, language, signal, field } = input;
  if (task.status !== 'completed') {
    throw new AssetloomMcpError(
      'task_not_completed',
      say(language, 'notCompleted', { taskId: task.taskId, status: task.status }),
    );
  }
  const layout = LAYOUTS[input.layout];
  const wanted = filesOf(assets).filter(
    (f) => f.kind === 'png' || layout.kinds === null || (layout.kinds as readonly string[]).includes(f.kind),
  );
  const { dir, root } = await folders.folder(input.folder, field, language);
  const godotRoot = layout.godotPaths ? await godotProjectOf(dir, root) : undefined;
  const resDir = godotRoot === undefined ? '' : relative(godotRoot, dir).split(sep).join('/');
  // the files written beside each other (PNGs, a level's sheets and TileSet the scene names)
  const pngNames = new Set(wanted.map((f) => f.name));
  // every name is checked before anything is written
  for (const file of wanted) {
    if (safeFileName(file.name) === undefined)
      throw new Error(
        `[assetloom/mcp] the server named a file ${JSON.stringify(file.name)}, which is not written`,
      );
  }
  const written: WrittenFile[] = [];
  for (const file of wanted) {
    signal.throwIfAborted();
    const { bytes } = await api.downloadAsset(file.asset ?? file.key, { signal });
    let out = bytes;
    if (godotRoot !== undefined && /\.(tres|tscn)$/.test(file.name)) {
      out = new TextEncoder().encode(rewriteResPaths(new TextDecoder().decode(bytes), pngNames, resDir));
    }
    const path = await writeFileSafely(dir, file.name, out, {
      overwrite: input.overwrite,
      field,
      language,
      shown: join(input.folder, file.name),
    });
    written.push({
      path,
      kind: file.kind,
      ...(godotRoot !== undefined ? { res: `res://${resDir === '' ? '' : `${resDir}/`}${file.name}` } : {}),
    });
  }
  return written;
}
