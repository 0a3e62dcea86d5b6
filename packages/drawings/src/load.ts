import { inflateSync } from 'fflate';
import type { Drawing, SetName } from './catalog.js';
import { DrawingsError } from './errors.js';
import type { FontName } from './fonts.js';
import type { SETS } from './generated/catalog.js';

/** Where the set files and resvg's WebAssembly module are found, when the default is not right. */
export interface DrawingsConfig {
  /**
   * The folder that holds `sets/<set>.bin`, `fonts/<font>.bin` and `resvg.wasm` (the package's
   * `dist/`). Default: each file's `new URL('./…', import.meta.url)`, which Vite and webpack resolve
   * and emit (and, on a dev server that serves this module from `node_modules/.vite/deps/`, the
   * package's folder under `node_modules/`). Needed where a bundler moves this module without its
   * files (esbuild): e.g. `new URL('/drawings/', location.href)` where the folder is served.
   */
  baseUrl?: string | URL;
  /** resvg's WebAssembly module, as bytes, a compiled module or a Response; default: `baseUrl`/resvg.wasm. */
  wasm?: BufferSource | WebAssembly.Module | Response | Promise<Response>;
  /**
   * Reads a file of the package (`sets/<set>.bin`, `fonts/<font>.bin`, `resvg.wasm`) instead of
   * loading it from `baseUrl`: e.g. a worker thread asking its main thread for the copy every thread
   * shares (`sharedDrawingsFile`). The bytes it gives are kept as they are (not copied); they may
   * be a view of a SharedArrayBuffer.
   */
  readFile?: (name: string) => Promise<Uint8Array>;
  /**
   * The catalog's rows as UTF-8 bytes, read in place instead of the module's text: e.g. a worker
   * thread handed the main thread's `sharedCatalog()` (a view of one SharedArrayBuffer), so that the
   * text is not held again in every thread's heap. Taken at the first lookup; set it before.
   */
  catalog?: Uint8Array;
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

/** A file of the built package that is loaded at run time (beside this module in `dist/`). */
type PackageFileName = `sets/${(typeof SETS)[number]['prefix']}.bin` | `fonts/${FontName}.bin` | 'resvg.wasm';

/**
 * Each file as `new URL('<literal>', import.meta.url)` (issue #41): the form bundlers resolve —
 * Vite (build, and the dev server's pre-bundling since Vite 8) and webpack 5 emit the file and
 * write its URL; esbuild and an unbundled page keep it beside the module. One literal per file:
 * a template with a variable becomes, in Vite, a glob of every file beside the module.
 */
const BUNDLED: Record<PackageFileName, () => URL> = {
  'sets/fluent-emoji-flat.bin': () => new URL('./sets/fluent-emoji-flat.bin', import.meta.url),
  'sets/game-icons.bin': () => new URL('./sets/game-icons.bin', import.meta.url),
  'sets/noto.bin': () => new URL('./sets/noto.bin', import.meta.url),
  'fonts/assetloom-8.bin': () => new URL('./fonts/assetloom-8.bin', import.meta.url),
  'fonts/unifont.bin': () => new URL('./fonts/unifont.bin', import.meta.url),
  'resvg.wasm': () => new URL('./resvg.wasm', import.meta.url),
};

/** Bytes at a URL: a file (Node) or a fetch (browsers, and http(s) base URLs). */
async function readBytes(url: URL): Promise<Uint8Array> {
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
    throw notFetched(url, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw notFetched(url, `HTTP ${response.status}`);
  // a dev server's fallback page (index.html for any path) is not the file
  if ((response.headers.get('content-type') ?? '').startsWith('text/html'))
    throw notFetched(url, 'an HTML page came back, not the file');
  return new Uint8Array(await response.arrayBuffer());
}

function notFetched(url: URL, why: string): DrawingsError {
  const error = new DrawingsError('not_served', `could not load ${url.href} (${why})`);
  (error as DrawingsError & { expose?: boolean }).expose = true;
  return error;
}

/**
 * A file of the package a page could not fetch (issue #41): names the file, each URL tried and why,
 * and what to serve. Exposed: the mock shows it in the task's error, where a page's developer reads it.
 */
function notServed(name: PackageFileName, failures: DrawingsError[], first: URL): DrawingsError {
  // where the URL was looked for when no baseUrl was set: beside the bundle that holds this module
  const dir = first.href.endsWith(name) ? first.href.slice(0, -name.length) : undefined;
  const where =
    config.baseUrl === undefined && dir ? `copy its sets/, fonts/ and resvg.wasm to ${dir}, or ` : '';
  const tried = failures.map((f) => f.message.replace(/^\[assetloom\/drawings\] /, '')).join('; ');
  const error = new DrawingsError(
    'not_served',
    `${tried}. The built-in generator loads ${name} of @assetloom/drawings (with dist/sets/*.bin, dist/fonts/*.bin and dist/resvg.wasm): a bundler that resolves new URL('./${name}', import.meta.url) (Vite, webpack 5) emits it by itself; otherwise ${where}serve the folder node_modules/@assetloom/drawings/dist/ and call configureDrawings({ baseUrl: '<its URL>/' }) before the first task`,
    { cause: failures[0] },
  );
  (error as DrawingsError & { expose?: boolean }).expose = true;
  return error;
}

/**
 * Where the package's own folder is when a dev server serves this module from a copy under
 * node_modules (Vite 7's pre-bundled `node_modules/.vite/deps/`, which does not rewrite
 * `new URL(…, import.meta.url)`): `…/node_modules/@assetloom/drawings/dist/<name>` on the same origin.
 */
function besidePackage(name: PackageFileName, first: URL): URL | undefined {
  if (first.protocol !== 'http:' && first.protocol !== 'https:') return undefined;
  const self = import.meta.url;
  const at = self.lastIndexOf('/node_modules/');
  if (at < 0 || self.includes('/node_modules/@assetloom/drawings/')) return undefined;
  const candidate = new URL(`${self.slice(0, at)}/node_modules/@assetloom/drawings/dist/${name}`);
  return candidate.origin === first.origin ? candidate : undefined;
}

/** The URLs a file is looked for at, in order. */
async function packageFileUrls(name: PackageFileName): Promise<URL[]> {
  if (config.baseUrl !== undefined) return [new URL(name, config.baseUrl)];
  const here = BUNDLED[name]();
  if (!isFileUrl(here)) {
    const beside = besidePackage(name, here);
    return beside ? [here, beside] : [here];
  }
  // through a variable: Vite turns `new URL(`…${x}`, import.meta.url)` into a glob of the folder
  const self = import.meta.url;
  if (!self.includes('/src/')) return [here];
  // this module runs from src/ (the workspace's own tests): the built dist/ beside it
  const built = new URL(`../dist/${name}`, self);
  const fsName = 'node:fs';
  const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs');
  if (fs.existsSync(here)) return [here];
  if (fs.existsSync(built)) return [built];
  throw new DrawingsError(
    'not_built',
    `the drawings' set files are missing (${built.pathname}): build the package first (pnpm --filter @assetloom/drawings build)`,
  );
}

/** The bytes of a file of the built package, from the first place that serves it. */
export async function readPackageFile(name: PackageFileName): Promise<Uint8Array> {
  if (config.readFile !== undefined) return config.readFile(name);
  return readServedFile(name);
}

async function readServedFile(name: PackageFileName): Promise<Uint8Array> {
  const failures: DrawingsError[] = [];
  const urls = await packageFileUrls(name);
  for (const url of urls) {
    try {
      return await readBytes(url);
    } catch (error) {
      if (!(error instanceof DrawingsError && error.code === 'not_served')) throw error;
      failures.push(error);
    }
  }
  throw notServed(name, failures, urls[0]!);
}

const shared = new Map<PackageFileName, Promise<Uint8Array>>();

/**
 * A file of the built package (`sets/<set>.bin`, `fonts/<font>.bin`, `resvg.wasm`) read once, into one
 * SharedArrayBuffer, by the thread that asks: a main thread hands it to each of its worker threads (their
 * `configureDrawings({ readFile })`), so the threads read the same bytes instead of a copy each
 * (issue #38, decision 0072). Any other name is refused.
 */
export function sharedDrawingsFile(name: string): Promise<Uint8Array> {
  if (!Object.hasOwn(BUNDLED, name)) {
    return Promise.reject(
      new DrawingsError(
        'load_failed',
        `no file ${JSON.stringify(name).slice(0, 80)} in the package: ask for sets/<set>.bin, fonts/<font>.bin or resvg.wasm`,
      ),
    );
  }
  const file = name as PackageFileName;
  let bytes = shared.get(file);
  if (bytes === undefined) {
    bytes = readServedFile(file).then((read) => {
      const one = new Uint8Array(new SharedArrayBuffer(read.byteLength));
      one.set(read);
      return one;
    });
    bytes.catch(() => shared.delete(file));
    shared.set(file, bytes);
  }
  return bytes;
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
  const bytes = await readPackageFile(`sets/${set}.bin` as PackageFileName);
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
      // (a silhouette's paths are drawn in currentColor: a part's colour paints them)
      const body = await drawingBody(p);
      markup += part.color
        ? `<g transform="${part.transform ?? ''} scale(${k})" color="${part.color}">${body.replace(/currentColor/g, part.color)}</g>`
        : `<g transform="${part.transform ?? ''} scale(${k})">${body}</g>`;
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
