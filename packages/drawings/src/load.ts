import { inflateSync } from 'fflate';
import type { Drawing, SetName } from './catalog.js';
import { DrawingsError } from './errors.js';

/** Where the set files and resvg's WebAssembly module are found, when the default is not right. */
export interface DrawingsConfig {
  /**
   * The folder that holds `sets/<set>.bin` and `resvg.wasm` (the package's `dist/`). Default: next
   * to this module. Bundlers that move modules without their neighbours (Vite's dependency
   * pre-bundling) need it: e.g. `new URL('/node_modules/@assetloom/drawings/dist/', location.href)`.
   */
  baseUrl?: string | URL;
  /** resvg's WebAssembly module, as bytes, a compiled module or a Response; default: `baseUrl`/resvg.wasm. */
  wasm?: BufferSource | WebAssembly.Module | Response | Promise<Response>;
}
let config: DrawingsConfig = {};

/** Sets where the drawings and the renderer are loaded from (before the first render). */
export function configureDrawings(next: DrawingsConfig): void {
  config = { ...config, ...next };
}
export function drawingsConfig(): Readonly<DrawingsConfig> {
  return config;
}

const isFileUrl = (u: URL) => u.protocol === 'file:';

/** Bytes at a URL: a file (Node) or a fetch (browsers, and http(s) base URLs). */
export async function readBytes(url: URL): Promise<Uint8Array> {
  if (isFileUrl(url)) {
    // a variable specifier: browser bundles never try to resolve node:fs
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    return new Uint8Array(await fs.readFile(url));
  }
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw notServed(url, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw notServed(url, `HTTP ${response.status}`);
  // a dev server's fallback page (index.html for any path) is not the file
  if ((response.headers.get('content-type') ?? '').startsWith('text/html'))
    throw notServed(url, 'an HTML page came back, not the file');
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * A file of the package a page could not fetch (issue #41): names the URL, why, and what to serve.
 * Exposed: the mock shows it in the task's error, where a page's developer reads it.
 */
function notServed(url: URL, why: string): DrawingsError {
  const error = new DrawingsError(
    'not_served',
    `could not load ${url.href} (${why}). The built-in generator loads dist/sets/*.bin, dist/fonts/*.bin and dist/resvg.wasm of @assetloom/drawings: serve the folder node_modules/@assetloom/drawings/dist/ and call configureDrawings({ baseUrl: '<its URL>/' }) before the first task`,
  );
  (error as DrawingsError & { expose?: boolean }).expose = true;
  return error;
}

/**
 * The URL of a file of the built package: next to this module in dist/, or, when this module runs
 * from src/ (the workspace's own tests), in the built dist/ beside it.
 */
export async function packageFile(name: string): Promise<URL> {
  if (config.baseUrl !== undefined) return new URL(name, config.baseUrl);
  // through a variable: Vite rewrites `new URL(`./${x}`, import.meta.url)` into a glob import of every
  // file beside the module (source maps included), which breaks its dev server's pre-bundled copy
  const self = import.meta.url;
  const here = new URL(`./${name}`, self);
  if (!isFileUrl(here) || !import.meta.url.includes('/src/')) return here;
  const built = new URL(`../dist/${name}`, self);
  const fsName = 'node:fs';
  const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs');
  if (fs.existsSync(here)) return here;
  if (fs.existsSync(built)) return built;
  throw new DrawingsError(
    'not_built',
    `the drawings' set files are missing (${built.pathname}): build the package first (pnpm --filter @assetloom/drawings build)`,
  );
}

interface SetFile {
  bytes: Uint8Array;
  start: number;
  names: Map<string, number>;
  sizes: Array<[number, number]>;
  offsets: number[];
}
const sets = new Map<SetName, Promise<SetFile>>();
const bodies = new Map<string, string>();

async function openSet(set: SetName): Promise<SetFile> {
  const bytes = await readBytes(await packageFile(`sets/${set}.bin`));
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic !== 'ALDS') throw new DrawingsError('load_failed', `sets/${set}.bin is not a drawings set file`);
  const length = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) as {
    names: string[];
    sizes: Array<[number, number]>;
    offsets: number[];
  };
  return {
    bytes,
    start: 8 + length,
    names: new Map(header.names.map((n, i) => [n, i])),
    sizes: header.sizes,
    offsets: header.offsets,
  };
}

/** The SVG body of a drawing (its inner markup, without the <svg> element), inflated once. */
export async function drawingBody(d: Drawing): Promise<string> {
  const cached = bodies.get(d.id);
  if (cached !== undefined) return cached;
  if (d.parts) {
    // a composite: each part's drawing scaled from its own units to the composite's 32, then placed
    const { drawingById } = await import('./catalog.js');
    let markup = '';
    for (const part of d.parts) {
      if (part.svg) markup += part.svg;
      if (!part.id) continue;
      const p = drawingById(part.id);
      if (!p) throw new DrawingsError('unknown_drawing', `composite ${d.id} names no drawing ${part.id}`);
      const k = 32 / p.size[0];
      markup += `<g transform="${part.transform ?? ''} scale(${k})">${await drawingBody(p)}</g>`;
    }
    bodies.set(d.id, markup);
    return markup;
  }
  let file = sets.get(d.set);
  if (!file) {
    file = openSet(d.set);
    sets.set(d.set, file);
    file.catch(() => sets.delete(d.set));
  }
  const f = await file;
  const i = f.names.get(d.name);
  if (i === undefined)
    throw new DrawingsError('unknown_drawing', `sets/${d.set}.bin has no drawing ${d.name}`);
  const body = new TextDecoder().decode(
    inflateSync(f.bytes.subarray(f.start + f.offsets[i]!, f.start + f.offsets[i + 1]!)),
  );
  bodies.set(d.id, body);
  return body;
}
