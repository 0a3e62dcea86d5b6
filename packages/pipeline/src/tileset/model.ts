import { tileVariation } from '../image-input/tile-variation.js';
import { NAMED_PALETTES, PaletteMatcher, type Rgb } from '../palette.js';
import { Painter } from '../pixel/canvas.js';
import { Rng } from '../pixel/random.js';
import { mapToPalette, quantizeAdaptive } from '../pixelize.js';
import { renderTerrainTiles, type TerrainLayer } from '../terrain/render.js';
import { calmestShift, type TerrainTexture } from '../terrain/textures.js';
import type { Interpretation, RgbaImage, StyleMap } from '../types/index.js';
import { type TilesetKind, type TilesetRules, tilesetRules } from './rules.js';
import { chooseTerrains, type TerrainSpec } from './terrains.js';

/** A tileset's tiles as drawn (the built-in generator) or cut from a model's terrain pictures. */
export interface RenderedTileset {
  tiles: RgbaImage[];
  rules: TilesetRules;
  terrains: TerrainSpec[];
  /** Each terrain's base colour, as drawn (for the editors' terrain brushes). */
  colors: Rgb[];
  interpretation: Interpretation;
}

export interface ModelTilesetJob {
  kind: TilesetKind;
  tileSize: number;
  userPrompt: string;
  tags: readonly string[];
  style: StyleMap;
  seed: number;
  /** The enforced palette (style `palette`), or null for an adaptive one read from the pictures. */
  palette: readonly Rgb[] | null;
}

const wrap = (v: number, n: number) => ((v % n) + n) % n;

/** The largest centred square of a picture. */
function square(img: RgbaImage): RgbaImage {
  const s = Math.min(img.width, img.height);
  const ox = Math.floor((img.width - s) / 2);
  const oy = Math.floor((img.height - s) / 2);
  const data = new Uint8Array(s * s * 4);
  for (let y = 0; y < s; y++)
    data.set(
      img.data.subarray(((oy + y) * img.width + ox) * 4, ((oy + y) * img.width + ox + s) * 4),
      y * s * 4,
    );
  return { width: s, height: s, data };
}

/**
 * Cut and blend: the square picture is cross-faded, near its edges, with a copy of itself shifted
 * by half its size. The copy's own edges meet in the middle, its middle lies on the edges, so the
 * result wraps on both axes: its last column continues into its first.
 */
export function blendToWrap(img: RgbaImage): RgbaImage {
  const s = img.width;
  const band = s / 4;
  const data = new Uint8Array(img.data.length);
  const edge = (p: number) => {
    const d = Math.min(p + 0.5, s - p - 0.5);
    const t = Math.max(0, Math.min(1, 1 - d / band));
    return t * t * (3 - 2 * t);
  };
  for (let y = 0; y < s; y++) {
    for (let x = 0; x < s; x++) {
      const w = Math.max(edge(x), edge(y));
      const i = (y * s + x) * 4;
      const j = (wrap(y + Math.floor(s / 2), s) * s + wrap(x + Math.floor(s / 2), s)) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(img.data[i + c]! * (1 - w) + img.data[j + c]! * w);
      data[i + 3] = 255;
    }
  }
  return { width: s, height: s, data };
}

/**
 * Reads a wrapping picture as `size × size` native pixels: each cell (an exact partition of the
 * picture, so the result wraps as well) is read as the per-channel median of its inner part, the
 * way pixelize reads a model's fat pixels.
 */
function readCells(img: RgbaImage, size: number): RgbaImage {
  const s = img.width;
  const cell = s / size;
  const data = new Uint8Array(size * size * 4);
  const r: number[] = [];
  const g: number[] = [];
  const b: number[] = [];
  const median = (v: number[]) => v.sort((p, q) => p - q)[v.length >> 1]!;
  for (let cy = 0; cy < size; cy++) {
    for (let cx = 0; cx < size; cx++) {
      r.length = g.length = b.length = 0;
      const x0 = Math.floor(cx * cell + cell * 0.2);
      const x1 = Math.max(x0 + 1, Math.ceil((cx + 1) * cell - cell * 0.2));
      const y0 = Math.floor(cy * cell + cell * 0.2);
      const y1 = Math.max(y0 + 1, Math.ceil((cy + 1) * cell - cell * 0.2));
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
          const i = (Math.min(s - 1, y) * s + Math.min(s - 1, x)) * 4;
          r.push(img.data[i]!);
          g.push(img.data[i + 1]!);
          b.push(img.data[i + 2]!);
        }
      const o = (cy * size + cx) * 4;
      data[o] = median(r);
      data[o + 1] = median(g);
      data[o + 2] = median(b);
      data[o + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/**
 * A model drawing made into a tileset: each terrain's picture (one per terrain, side by side in the
 * model's sheet) is cut to a square and blended at its edges so it wraps, read as tile-sized native
 * pixels and mapped to the palette (pixelize's colour step: the enforced palette, or one adaptive
 * palette for both terrains); the set's shores are then drawn over these textures by the same
 * terrain field the procedural tilesets use, so every joint the rules allow is seamless.
 */
export function tilesetFromModel(pictures: readonly RgbaImage[], job: ModelTilesetJob): RenderedTileset {
  const rules = tilesetRules(job.kind);
  const count = job.kind === 'seamless' ? 1 : 2;
  if (pictures.length < count)
    throw new Error(`expected ${count} terrain pictures, the model gave ${pictures.length}`);
  const { terrains, interpretation } = chooseTerrains(job, count);
  const n = job.tileSize;
  const cells = pictures.slice(0, count).map((p) => readCells(blendToWrap(square(p)), n));
  // one palette for the whole set: the enforced one, or an adaptive one over both terrains
  let palette: Rgb[];
  if (job.palette?.length) palette = [...job.palette];
  else {
    const both: RgbaImage = { width: n, height: n * count, data: new Uint8Array(n * n * 4 * count) };
    cells.forEach((c, i) => {
      both.data.set(c.data, i * n * n * 4);
    });
    palette = quantizeAdaptive(both, 12);
    // the shore needs lighter and darker steps than the textures hold: add the default ramp colours
    palette.push(...NAMED_PALETTES.default!);
  }
  const painter = new Painter(palette, new PaletteMatcher(palette));
  const layers: TerrainLayer[] = cells.map((c, t) => {
    // the picture's own light and shade, read before the palette step can flatten it
    const lum = Array.from(
      { length: n * n },
      (_, i) => 0.299 * c.data[i * 4]! + 0.587 * c.data[i * 4 + 1]! + 0.114 * c.data[i * 4 + 2]!,
    );
    const sorted = [...lum].sort((a, b) => a - b);
    const low = sorted[Math.floor(n * n * 0.2)]!;
    const high = sorted[Math.floor(n * n * 0.88)]!;
    mapToPalette(c, job.palette?.length ? job.palette : palette);
    const px: Rgb[] = [];
    let sr = 0;
    let sg = 0;
    let sb = 0;
    for (let i = 0; i < n * n; i++) {
      const rgb: Rgb = [c.data[i * 4]!, c.data[i * 4 + 1]!, c.data[i * 4 + 2]!];
      px.push(rgb);
      sr += rgb[0];
      sg += rgb[1];
      sb += rgb[2];
    }
    const mean: Rgb = [sr / (n * n), sg / (n * n), sb / (n * n)];
    const ramp = painter.spriteRamp(mean);
    if (new Set(px.map((q) => (q[0] << 16) | (q[1] << 8) | q[2])).size < 3) {
      // the palette merged the picture's tones into one or two: give its shade and light back as
      // the ramp's darker and lighter steps, where the picture had them
      for (let i = 0; i < n * n; i++) {
        if (lum[i]! <= low) px[i] = ramp.dark;
        else if (lum[i]! >= high) px[i] = ramp.light;
      }
    }
    const ox = calmestShift(px, n, 'x');
    const oy = calmestShift(px, n, 'y');
    const shifted = px.map((_, i) => px[wrap(Math.floor(i / n) + oy, n) * n + wrap((i % n) + ox, n)]!);
    const texture: TerrainTexture = {
      size: n,
      pixels: shifted,
      ramp,
      foam: painter.shade(ramp.light, 1, 0.6),
      at: (x, y) => shifted[wrap(y, n) * n + wrap(x, n)]!,
    };
    return { spec: terrains[t]!, texture };
  });
  const tiles = renderTerrainTiles({
    tiles: rules.tiles,
    size: n,
    layers,
    rng: new Rng(job.seed).fork('tiles'),
  });
  // the full tiles' variants (decision 0094): the plain tile with its border band kept and patches
  // of its own texture moved about inside (decision 0034's tile variation), so every variant joins
  // every other drawing of it
  for (const rule of rules.tiles)
    if (rule.variantOf !== undefined)
      tiles[rule.index] = tileVariation(
        tiles[rule.variantOf]!,
        0.6,
        (job.seed ^ (rule.index * 0x9e3779b1)) >>> 0,
      );
  return { tiles, rules, terrains, colors: layers.map((l) => l.texture.ramp.base), interpretation };
}
