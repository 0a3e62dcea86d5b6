import type { RgbaImage } from '@assetloom/pipeline';
import type { Interpretation, Scene } from '@assetloom/pipeline/interpret';
import type { ResolvedStyle, Rgb } from '@assetloom/pipeline/pixel';
import { bayer, Noise2D, type Painter, type Rng, upscale } from '@assetloom/pipeline/pixel';

export interface BackgroundJob {
  rng: Rng;
  style: ResolvedStyle;
  painter: Painter;
  text: string;
  interpretation: Interpretation;
  size: number;
}

export interface BackgroundOutput {
  image: RgbaImage;
  subject: string;
  tileable: boolean;
}

type Biome = 'grassland' | 'forest' | 'desert' | 'snow' | 'ocean' | 'volcano' | 'swamp';
/** Open-air scenes drawn as layered landscapes, and the biome each is drawn on. */
const LANDSCAPE: Partial<Record<Scene, Biome>> = {
  grassland: 'grassland',
  forest: 'forest',
  desert: 'desert',
  snow: 'snow',
  ocean: 'ocean',
  beach: 'ocean',
  volcano: 'volcano',
  swamp: 'swamp',
  city: 'grassland',
  village: 'grassland',
};
const TEXTURE_WORDS = [
  'texture',
  'tile',
  'floor',
  'ground',
  'top-down',
  'topdown',
  'terrain',
  'pattern',
  '纹理',
  '地面',
  '地砖',
  '俯视',
  '地形',
];

/** Whether a background prompt asks for a texture (a floor, a tile, top-down ground), not a scene. */
export function isTexturePrompt(text: string): boolean {
  // whole words: "a forest background" has "ground" in it and is a scene
  return TEXTURE_WORDS.some((w) =>
    /^[a-z-]+$/.test(w) ? new RegExp(`(^|[^a-z-])${w}s?($|[^a-z-])`).test(text) : text.includes(w),
  );
}

/** A top-down texture of the prompt's ground (grass, sand, snow …), tileable both ways. */
export function drawTextureBackground(job: BackgroundJob): BackgroundOutput {
  const { size, interpretation: it } = job;
  // time of day from the prompt overrides the style's lighting mood
  const mood: ResolvedStyle['mood'] =
    it.time === 'night'
      ? 'night'
      : it.time === 'dusk' || it.time === 'dawn'
        ? 'sunset'
        : it.time === 'day'
          ? 'day'
          : job.style.mood;
  const style = { ...job.style, mood };
  job = { ...job, style };
  // no scene word: a plain meadow (the interpretation says no scene was understood), never a random one
  const scene: Scene = it.scene ?? 'grassland';
  // falling snow covers green land
  const land: Biome = LANDSCAPE[scene] ?? 'grassland';
  const biome: Biome = it.weather === 'snow' && (land === 'grassland' || land === 'forest') ? 'snow' : land;
  const factor = style.artStyle === 'pixel' ? Math.max(1, Math.round(size / 256)) : 1;
  const g = Math.max(16, Math.floor(size / factor));
  const rgba = drawTexture(job, biome, g);
  const image = upscale(rgba, g, g, factor, size, size);
  // a size that is not a multiple of the factor leaves a margin: extend the edge pixels into it
  fillMargins(image, g * factor);
  return {
    image,
    subject: `${biome} texture`,
    tileable: true,
  };
}

function fillMargins(image: RgbaImage, inner: number): void {
  const { width, height, data } = image;
  if (inner >= width && inner >= height) return;
  const o = Math.floor((width - inner) / 2);
  const d32 = new Uint32Array(data.buffer, data.byteOffset, width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(o + inner - 1, Math.max(o, y));
    for (let x = 0; x < width; x++) {
      if (x >= o && x < o + inner && y >= o && y < o + inner) continue;
      const sx = Math.min(o + inner - 1, Math.max(o, x));
      d32[y * width + x] = d32[sy * width + sx]!;
    }
  }
}

interface Scheme {
  sky: Rgb[];
  far: Rgb;
  mid: Rgb;
  near: Rgb;
  ground: Rgb;
  accent: Rgb;
  sun: Rgb;
}

function _schemeFor(biome: Biome, mood: ResolvedStyle['mood']): Scheme {
  const night = mood === 'night';
  const sunset = mood === 'sunset' || mood === 'dramatic';
  const sky: Rgb[] = night
    ? [
        [14, 16, 40],
        [34, 32, 82],
        [70, 60, 120],
      ]
    : sunset
      ? [
          [60, 40, 110],
          [200, 90, 100],
          [250, 170, 90],
        ]
      : biome === 'volcano'
        ? [
            [40, 20, 30],
            [120, 40, 40],
            [220, 110, 60],
          ]
        : biome === 'desert'
          ? [
              [90, 150, 230],
              [150, 200, 240],
              [245, 225, 180],
            ]
          : [
              [70, 130, 220],
              [120, 180, 240],
              [200, 230, 250],
            ];
  const dim = (c: Rgb, k: number): Rgb => [c[0] * k, c[1] * k, c[2] * k];
  const base: Record<Biome, Omit<Scheme, 'sky' | 'sun'>> = {
    grassland: {
      far: [110, 140, 190],
      mid: [70, 150, 80],
      near: [50, 120, 60],
      ground: [120, 85, 55],
      accent: [240, 220, 90],
    },
    forest: {
      far: [80, 120, 130],
      mid: [40, 110, 70],
      near: [25, 80, 50],
      ground: [90, 60, 40],
      accent: [200, 70, 70],
    },
    desert: {
      far: [210, 150, 120],
      mid: [230, 180, 110],
      near: [215, 150, 80],
      ground: [180, 110, 60],
      accent: [90, 140, 60],
    },
    snow: {
      far: [150, 170, 210],
      mid: [225, 235, 245],
      near: [245, 250, 255],
      ground: [150, 160, 190],
      accent: [70, 110, 80],
    },
    ocean: {
      far: [90, 130, 170],
      mid: [40, 110, 180],
      near: [30, 80, 150],
      ground: [230, 205, 140],
      accent: [60, 150, 80],
    },
    swamp: {
      far: [80, 100, 95],
      mid: [55, 85, 60],
      near: [40, 65, 45],
      ground: [70, 75, 45],
      accent: [120, 140, 60],
    },
    volcano: {
      far: [70, 40, 50],
      mid: [60, 40, 45],
      near: [40, 28, 35],
      ground: [230, 90, 30],
      accent: [255, 180, 50],
    },
  };
  const b = base[biome];
  const k = night ? 0.45 : sunset ? 0.8 : 1;
  return {
    sky,
    far: dim(b.far, k),
    mid: dim(b.mid, k),
    near: dim(b.near, k),
    ground: dim(b.ground, k),
    accent: b.accent,
    sun: night ? [230, 230, 210] : sunset ? [255, 210, 120] : [255, 245, 200],
  };
}

function _blend(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Top-down terrain texture; all noise is periodic over the image so it tiles both ways. */
function drawTexture(job: BackgroundJob, biome: Biome, g: number): Uint8Array {
  const { rng, painter } = job;
  const P = (c: Rgb) => painter.choose(c);
  const cells = Math.max(4, Math.round(g / 16));
  const n1 = new Noise2D(rng.fork('t1'), cells);
  const n2 = new Noise2D(rng.fork('t2'), cells * 2);
  const out = new Uint32Array(g * g);
  const pack = (c: Rgb) => (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
  type Ramp3 = [Rgb, Rgb, Rgb, Rgb];
  const ramps: Record<Biome, Ramp3> = {
    grassland: [
      [40, 100, 50],
      [60, 140, 60],
      [100, 180, 70],
      [230, 220, 100],
    ],
    forest: [
      [30, 70, 40],
      [45, 100, 55],
      [70, 130, 60],
      [200, 80, 80],
    ],
    desert: [
      [190, 130, 70],
      [220, 170, 100],
      [240, 200, 130],
      [150, 110, 70],
    ],
    snow: [
      [170, 185, 215],
      [215, 225, 240],
      [250, 252, 255],
      [140, 170, 210],
    ],
    ocean: [
      [20, 60, 130],
      [35, 95, 170],
      [70, 150, 210],
      [210, 240, 250],
    ],
    swamp: [
      [40, 55, 40],
      [60, 80, 50],
      [85, 105, 60],
      [50, 70, 60],
    ],
    volcano: [
      [40, 25, 30],
      [70, 40, 40],
      [230, 90, 30],
      [255, 200, 60],
    ],
  };
  const [c0, c1, c2, c3] = ramps[biome].map(P) as [Rgb, Rgb, Rgb, Rgb];
  const packed = [pack(c0), pack(c1), pack(c2), pack(c3)];
  for (let y = 0; y < g; y++) {
    for (let x = 0; x < g; x++) {
      const u = (x / g) * cells;
      const v = (y / g) * cells;
      const a = n1.fbm(u, v, 3);
      const b = n2.at((x / g) * cells * 2, (y / g) * cells * 2);
      let level = a + (b - 0.5) * 0.3;
      if (biome === 'ocean') level = 0.5 + 0.5 * Math.sin((v + a * 2.5) * Math.PI * 2);
      const t = level + (bayer(x, y) - 0.5) * 0.08;
      let idx = t < 0.38 ? 0 : t < 0.56 ? 1 : 2;
      if (b > 0.86 && biome !== 'ocean') idx = 3;
      if (biome === 'ocean' && level > 0.93) idx = 3;
      out[y * g + x] = packed[idx]!;
    }
  }
  return new Uint8Array(out.buffer);
}
