import type { RgbaImage } from '@assetloom/pipeline';
import type { Interpretation } from '@assetloom/pipeline/interpret';
import type { Painter, PixelCanvas, ResolvedStyle, Rng } from '@assetloom/pipeline/pixel';
import { PaletteMatcher, quantizeAdaptive, type Rgb } from '@assetloom/pipeline/pixel';
import { type ComposedScene, composeScene, type DrawThing } from './compose.js';
import { readScene, type SceneRequest } from './elements.js';
import { flatten, layerImage } from './paint.js';

export interface SceneJob {
  rng: Rng;
  style: ResolvedStyle;
  painter: Painter;
  text: string;
  interpretation: Interpretation;
  width: number;
  height: number;
  /** Draws the things the prompt names that no scene element is (the sprite generator). */
  drawThing?: DrawThing;
  /** The request's seed: the scene's detail streams (decision 0125). */
  seed?: number;
}

export interface SceneOutput {
  image: RgbaImage;
  /** The depth layers (back to front), each the full canvas, transparent where a layer is empty. */
  layers: Array<{ name: string; scroll: number; image: RgbaImage }>;
  subject: string;
  request: SceneRequest;
  report: ComposedScene['report'];
  /** The lights drawn as glows, on the art grid (each with its source showing at its centre). */
  lights: ComposedScene['lights'];
}

/**
 * The art grid of a scene: pixel art is drawn at its native size up to 320 cells on the long edge
 * (a 320 × 180 scene is 320 × 180 pixels of art), then scaled up by a whole factor; a larger canvas
 * gets bigger pixels, never blurred ones. Smooth styles draw at the canvas's own size.
 */
function gridOf(style: ResolvedStyle, w: number, h: number): { gw: number; gh: number; factor: number } {
  if (style.artStyle !== 'pixel') return { gw: w, gh: h, factor: 1 };
  const limit = style.gridHint < 64 ? Math.max(48, style.gridHint * 2) : 320;
  const factor = Math.max(1, Math.ceil(Math.max(w, h) / limit));
  return { gw: Math.max(16, Math.floor(w / factor)), gh: Math.max(16, Math.floor(h / factor)), factor };
}

/** Scales an image up by whole pixels, centred, the margin filled with the nearest edge pixel. */
function enlarge(img: RgbaImage, factor: number, w: number, h: number): RgbaImage {
  if (factor === 1 && img.width === w && img.height === h) return img;
  const out = new Uint8Array(w * h * 4);
  const src = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
  const dst = new Uint32Array(out.buffer);
  const ox = Math.floor((w - img.width * factor) / 2);
  const oy = Math.floor((h - img.height * factor) / 2);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, Math.floor((y - oy) / factor)));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, Math.floor((x - ox) / factor)));
      dst[y * w + x] = src[sy * img.width + sx]!;
    }
  }
  return { width: w, height: h, data: out };
}

/** At most this many colours in a scene the style gives no palette for (a pixel-art scene's budget). */
const SCENE_COLOURS = 64;

/**
 * Holds a scene to `max` colours: an adaptive palette of the flattened picture (pixelize's
 * quantizer: near colours merge first, by how many pixels they cover), each colour of every layer
 * mapped to what it became in the picture, or to the nearest palette colour where it is hidden.
 */
function limitColours(layers: readonly PixelCanvas[], w: number, h: number, max: number): void {
  const flat = flatten(layers, w, h);
  const before = new Uint32Array(flat.data.slice().buffer);
  const distinct = new Set(before);
  if (distinct.size <= max) return;
  const palette = quantizeAdaptive(flat, max);
  const after = new Uint32Array(flat.data.buffer, flat.data.byteOffset, w * h);
  const to = new Map<number, number>();
  for (let i = 0; i < before.length; i++) if (before[i]) to.set(before[i]!, after[i]!);
  const matcher = new PaletteMatcher(palette);
  for (const layer of layers)
    for (let i = 0; i < layer.px.length; i++) {
      const v = layer.px[i]!;
      if (!v) continue;
      let m = to.get(v);
      if (m === undefined) {
        const c = matcher.nearest([v & 255, (v >>> 8) & 255, (v >>> 16) & 255]);
        m = ((255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
        to.set(v, m);
      }
      layer.px[i] = m;
    }
}

/** Every pixel to the palette's nearest colour (a palette the style enforces is the only one used). */
function lockPalette(layers: readonly PixelCanvas[], palette: readonly Rgb[]): void {
  const matcher = new PaletteMatcher(palette);
  for (const layer of layers)
    layer.map((c) => matcher.nearest([Math.round(c[0]), Math.round(c[1]), Math.round(c[2])]));
}

const SETTING_NAMES: Record<SceneRequest['setting'], string> = {
  grassland: 'meadow',
  forest: 'forest',
  desert: 'desert',
  snow: 'snowfield',
  beach: 'beach',
  ocean: 'ocean',
  volcano: 'volcano',
  swamp: 'swamp',
  mountains: 'mountains',
  city: 'city street',
  village: 'village',
  dungeon: 'dungeon',
  cave: 'cave',
  castle_hall: 'castle hall',
  tavern: 'tavern',
  library: 'library',
  workshop: 'workshop',
  laboratory: 'laboratory',
  courtyard: 'castle courtyard',
  underwater: 'underwater',
  space: 'space',
};

/**
 * A background scene: what the prompt names, composed over depth layers (sky, far, mid, near,
 * props, weather) at the canvas's aspect, lit by its time, weather and own lights, in the style's
 * palette when it enforces one. Returns the flattened picture, each layer alone (for parallax), and
 * what became of every element and noun the prompt named.
 */
export async function drawScene(job: SceneJob): Promise<SceneOutput> {
  const { width: w, height: h, style } = job;
  const request = readScene(job.text, job.interpretation);
  const { gw, gh, factor } = gridOf(style, w, h);
  const drawThing = job.drawThing;
  const composed = await composeScene({
    width: gw,
    height: gh,
    req: request,
    rng: job.rng,
    style,
    painter: job.painter,
    ...(drawThing ? { drawThing } : {}),
    text: job.text,
    ...(job.seed !== undefined ? { seed: job.seed } : {}),
  });
  const all = composed.layers.map((l) => l.layer);
  if (style.paletteEnforced) lockPalette(all, style.palette);
  else limitColours(all, gw, gh, SCENE_COLOURS);
  const image = enlarge(flatten(all, gw, gh), factor, w, h);
  const layers = composed.layers.map((l) => ({
    name: l.name,
    scroll: l.scroll,
    image: enlarge(layerImage(l.layer), factor, w, h),
  }));
  const time = request.time === 'day' ? '' : `${request.time} `;
  const weather = request.weather ? ` in the ${request.weather}` : '';
  const setting = request.corridor
    ? `${SETTING_NAMES[request.setting]} corridor`
    : SETTING_NAMES[request.setting];
  const seen = request.viewpoint ? ` seen from a ${request.viewpoint.kind}` : '';
  return {
    image,
    layers,
    subject: `${time}${setting}${weather}${seen}`,
    request,
    report: composed.report,
    lights: composed.lights,
  };
}
