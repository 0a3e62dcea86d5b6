import type { Drawing } from './catalog.js';
import { DrawingsError } from './errors.js';
import { drawingBody, drawingsConfig, readPackageFile } from './load.js';

type ResvgModule = typeof import('./resvg.js');

/** An RGBA picture with straight (not premultiplied) alpha, row-major. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

let module: Promise<ResvgModule> | null = null;
let copies = 0;

/**
 * A new copy of resvg's module (Node only): the built `dist/resvg.js` with a query is a new module
 * record; from src/ (the workspace's tests) the @resvg/resvg-wasm package's own file.
 */
async function freshCopy(): Promise<ResvgModule> {
  copies += 1;
  const self = import.meta.url;
  if (!self.includes('/src/'))
    return import(/* @vite-ignore */ new URL(`./resvg.js?copy=${copies}`, self).href);
  const moduleName = 'node:module';
  const urlName = 'node:url';
  const { createRequire } = (await import(/* @vite-ignore */ moduleName)) as typeof import('node:module');
  const { pathToFileURL } = (await import(/* @vite-ignore */ urlName)) as typeof import('node:url');
  const file = createRequire(self).resolve('@resvg/resvg-wasm');
  return import(/* @vite-ignore */ `${pathToFileURL(file).href}?copy=${copies}`);
}

let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * resvg's WebAssembly module, compiled once per process (the configured one when it is a compiled
 * module). A compiled module can be handed to worker threads (`postMessage`, `workerData`): a
 * thread that sets it with `configureDrawings({ wasm })` instantiates it without compiling its own
 * copy, and threads share the compiled code.
 */
export function resvgModule(): Promise<WebAssembly.Module> {
  const { wasm } = drawingsConfig();
  if (wasm instanceof WebAssembly.Module) return Promise.resolve(wasm);
  if (!compiled) {
    compiled = (async () => {
      const bytes = wasm === undefined ? await readPackageFile('resvg.wasm') : wasm;
      if (bytes instanceof Response || bytes instanceof Promise)
        return WebAssembly.compile(await (await bytes).arrayBuffer());
      return WebAssembly.compile(bytes as BufferSource);
    })();
    compiled.catch(() => {
      compiled = null;
    });
  }
  return compiled;
}

async function loadResvg(fresh: boolean): Promise<ResvgModule> {
  // a panic leaves a WebAssembly instance unusable: then a new copy of the module
  const m: ResvgModule = fresh ? await freshCopy() : await import('./resvg.js');
  const { wasm } = drawingsConfig();
  await m.initWasm(wasm ?? (await readPackageFile('resvg.wasm')));
  return m;
}

function resvg(): Promise<ResvgModule> {
  if (!module) {
    module = loadResvg(false);
    module.catch(() => {
      module = null;
    });
  }
  return module;
}

/** What part of a drawing to render, how, and at what size. */
export interface RenderOptions {
  /** Output size in pixels. */
  width: number;
  height: number;
  /** The part of the drawing to show, in its own units (x, y, width, height); default: its whole box. */
  viewBox?: readonly [number, number, number, number];
  /** An SVG transform applied to the drawing inside the view (rotate, scale, skew, translate). */
  transform?: string;
  /** The colour of a silhouette's `currentColor` (game-icons); default black. */
  fill?: string;
  /**
   * The transform mirrors the drawing: its glyphs (a number, a letter, an emblem: `<g data-glyph="x">`
   * about their column x) are mirrored back, so they still read (a race car's "1", decision 0145).
   */
  mirrored?: boolean;
}

/**
 * Renders SVG markup with resvg (WebAssembly: the same pixels in Node and in browsers) into a
 * straight-alpha RGBA picture.
 */
export async function renderSvg(svg: string, width: number, height: number): Promise<Raster> {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  let m = await resvg();
  for (let attempt = 0; ; attempt++) {
    let instance: InstanceType<ResvgModule['Resvg']> | null = null;
    try {
      instance = new m.Resvg(svg, { fitTo: { mode: 'width', value: w }, font: { loadSystemFonts: false } });
      const image = instance.render();
      const px = image.pixels;
      const out = new Uint8ClampedArray(w * h * 4);
      const rows = Math.min(h, image.height);
      const cols = Math.min(w, image.width);
      for (let y = 0; y < rows; y++)
        for (let x = 0; x < cols; x++) {
          const i = (y * image.width + x) * 4;
          const o = (y * w + x) * 4;
          const a = px[i + 3]!;
          if (a === 0) continue;
          out[o] = (px[i]! * 255) / a;
          out[o + 1] = (px[i + 1]! * 255) / a;
          out[o + 2] = (px[i + 2]! * 255) / a;
          out[o + 3] = a;
        }
      image.free();
      return { width: w, height: h, data: out };
    } catch (error) {
      const panicked = error instanceof WebAssembly.RuntimeError;
      if (!panicked || attempt > 0 || typeof process === 'undefined')
        throw new DrawingsError('render_failed', 'resvg could not render the drawing', { cause: error });
      module = loadResvg(true);
      m = await module;
    } finally {
      try {
        instance?.free();
      } catch {
        // an instance of a module that panicked cannot be freed; the module is replaced
      }
    }
  }
}

const escapeAttr = (s: string) => s.replace(/[^#a-zA-Z0-9(),. -]/g, '');

/** A drawing's glyph groups (`<g data-glyph="x">`) mirrored about their column x. */
export const unmirroredGlyphs = (body: string): string =>
  body.replace(
    /<g data-glyph="(-?[0-9.]+)">/g,
    (_, x: string) => `<g data-glyph="${x}" transform="matrix(-1 0 0 1 ${Number(x) * 2} 0)">`,
  );

/** Renders one drawing of the catalog (see `RenderOptions`). */
export async function renderDrawing(d: Drawing, options: RenderOptions): Promise<Raster> {
  let body = await drawingBody(d);
  if (d.silhouette) body = body.replace(/currentColor/g, escapeAttr(options.fill ?? '#000'));
  if (options.mirrored) body = unmirroredGlyphs(body);
  const [x, y, w, h] = options.viewBox ?? [d.box[0], d.box[1], d.box[2] - d.box[0], d.box[3] - d.box[1]];
  const inner = options.transform ? `<g transform="${escapeAttr(options.transform)}">${body}</g>` : body;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="${x} ${y} ${w} ${h}" width="${options.width}" height="${options.height}" preserveAspectRatio="none">${inner}</svg>`;
  return renderSvg(svg, options.width, options.height);
}
