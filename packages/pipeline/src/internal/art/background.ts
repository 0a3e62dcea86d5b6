import type { Interpretation, Scene } from '../../interpret/index.js';
import type { Rgb } from '../../palette.js';
import type { ResolvedStyle } from '../../style.js';
import type { RgbaImage } from '../../types.js';
import { Noise1D, Noise2D, type Rng } from '../random.js';
import { bayer, type Painter, upscale } from './canvas.js';
import {
  drawCastleHall,
  drawCave,
  drawDungeon,
  drawSpace,
  drawTavern,
  drawTown,
  drawUnderwater,
  drawVolcanoCone,
  type SceneCanvas,
  shade,
  weather,
} from './scenes/index.js';

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
const INTERIOR: Partial<Record<Scene, (s: SceneCanvas) => void>> = {
  dungeon: drawDungeon,
  cave: drawCave,
  castle_hall: drawCastleHall,
  tavern: drawTavern,
  underwater: drawUnderwater,
  space: drawSpace,
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

/** Landscapes (side view, parallax layers) and top-down textures (always tileable both ways). */
export function drawBackground(job: BackgroundJob): BackgroundOutput {
  const { text, size, interpretation: it } = job;
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
  const texture = isTexturePrompt(text);
  const interior = INTERIOR[scene];
  let rgba: Uint8Array;
  if (texture) rgba = drawTexture(job, biome, g);
  else if (interior) {
    const canvas: SceneCanvas = {
      g,
      out: new Uint32Array(g * g),
      painter: job.painter,
      rng: job.rng,
      night: mood === 'night',
    };
    interior(canvas);
    if (mood === 'night' && (scene === 'underwater' || scene === 'castle_hall')) shade(canvas, 0.55);
    finishScene(canvas, it);
    rgba = new Uint8Array(canvas.out.buffer);
  } else rgba = drawLandscape(job, biome, g, scene);
  const image = upscale(rgba, g, g, factor, size, size);
  // a size that is not a multiple of the factor leaves a margin: extend the edge pixels into it
  fillMargins(image, g * factor);
  return {
    image,
    subject: texture ? `${biome} texture` : interior ? scene.replace('_', ' ') : `${scene} landscape`,
    tileable: texture || style.tileable,
  };
}

/** Weather and a "dark" prompt, over any scene. */
function finishScene(canvas: SceneCanvas, it: Interpretation, outdoor = false): void {
  if (it.weather) weather(canvas, it.weather);
  if (it.dark) shade(canvas, 0.7);
  // night outdoors: everything under the sky dims too (snow and lit walls included), stars and
  // lit windows stay brightest
  if (outdoor && canvas.night) shade(canvas, 0.72);
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

function schemeFor(biome: Biome, mood: ResolvedStyle['mood']): Scheme {
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

function drawLandscape(job: BackgroundJob, biome: Biome, g: number, scene: Scene): Uint8Array {
  const { rng, painter, style } = job;
  const tileable = style.tileable;
  const scheme = schemeFor(biome, style.mood);
  const P = (c: Rgb) => painter.choose(c);
  const skyStops = scheme.sky.map(P);
  const out = new Uint32Array(g * g);
  const pack = (c: Rgb) => (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
  const lerpStops = (stops: Rgb[], t: number, x: number, y: number): Rgb => {
    const f = Math.max(0, Math.min(0.9999, t)) * (stops.length - 1);
    const i = Math.floor(f);
    return f - i > bayer(x, y) ? stops[i + 1]! : stops[i]!;
  };
  // sky
  for (let y = 0; y < g; y++) {
    for (let x = 0; x < g; x++) out[y * g + x] = pack(lerpStops(skyStops, (y / g) * 1.4, x, y));
  }
  const night = style.mood === 'night';
  if (night) {
    const star = pack(P([250, 250, 230]));
    const n = Math.floor(g * g * 0.004);
    for (let i = 0; i < n; i++) {
      const x = rng.int(0, g - 1);
      const y = rng.int(0, Math.floor(g * 0.5));
      out[y * g + x] = star;
    }
  }
  // sun or moon with a dithered halo
  const sunX = rng.range(0.2, 0.8) * g;
  const sunY = rng.range(0.12, 0.3) * g;
  const sunR = g * rng.range(0.05, 0.08);
  const sun = pack(P(scheme.sun));
  const halo = P([
    (scheme.sun[0] + skyStops[1]![0]) / 2,
    (scheme.sun[1] + skyStops[1]![1]) / 2,
    (scheme.sun[2] + skyStops[1]![2]) / 2,
  ]);
  const haloPacked = pack(halo);
  for (let y = Math.max(0, Math.floor(sunY - sunR * 2)); y < Math.min(g, sunY + sunR * 2); y++) {
    for (let x = Math.max(0, Math.floor(sunX - sunR * 2)); x < Math.min(g, sunX + sunR * 2); x++) {
      const d = Math.hypot(x + 0.5 - sunX, y + 0.5 - sunY) / sunR;
      if (d <= 1) out[y * g + x] = sun;
      else if (d < 1.6 && bayer(x, y) > (d - 1) / 0.6) out[y * g + x] = haloPacked;
    }
  }
  // clouds: horizontally periodic noise bands
  const cloudNoise = new Noise2D(rng.fork('clouds'), 8);
  const cloud = pack(P(night ? [90, 90, 130] : [250, 250, 255]));
  const cloudShade = pack(P(night ? [60, 60, 100] : [200, 210, 235]));
  for (let y = 0; y < Math.floor(g * 0.45); y++) {
    const band = Math.exp(-(((y / g - 0.2) / 0.1) ** 2));
    for (let x = 0; x < g; x++) {
      const v = cloudNoise.fbm((x / g) * 8, (y / g) * 8 * 2.5, 3) * band;
      if (v > 0.42) out[y * g + x] = v > 0.47 ? cloud : cloudShade;
    }
  }
  // ridges: far mountains, mid hills, near hills; each a periodic 1D fbm
  const layers: Array<{
    color: Rgb;
    base: number;
    amp: number;
    period: number;
    oct: number;
    trees: boolean;
  }> = [
    { color: blend(scheme.far, skyStops[2]!, 0.35), base: 0.5, amp: 0.22, period: 6, oct: 5, trees: false },
    {
      color: scheme.mid,
      base: 0.64,
      amp: 0.12,
      period: 5,
      oct: 4,
      trees: biome === 'forest' || biome === 'grassland' || biome === 'snow',
    },
    { color: scheme.near, base: 0.76, amp: 0.08, period: 4, oct: 3, trees: biome === 'forest' },
  ];
  if (biome === 'ocean') layers[2] = { ...layers[2]!, base: 0.7, amp: 0.005, period: 4, oct: 1 };
  for (const [li, layer] of layers.entries()) {
    const noise = new Noise1D(rng.fork(`ridge${li}`), layer.period);
    const fill = P(layer.color);
    const lit = painter.step(fill, 1, 0.3);
    const dark = painter.step(fill, -1, 0.3);
    const heights = new Float64Array(g);
    for (let x = 0; x < g; x++) {
      const u = tileable ? x / g : (x / g) * 0.999;
      const v =
        li === 0
          ? 1 - Math.abs(noise.fbm(u * layer.period, layer.oct) * 2 - 1)
          : noise.fbm(u * layer.period, layer.oct);
      heights[x] = (layer.base - layer.amp * (v - 0.3)) * g;
    }
    for (let x = 0; x < g; x++) {
      const top = Math.max(0, Math.floor(heights[x]!));
      const slope = heights[(x + 1) % g]! - heights[(x - 1 + g) % g]!;
      for (let y = top; y < g; y++) {
        const depth = y - top;
        let c = fill;
        if (depth < 2 && slope > 0.3) c = lit;
        else if (depth < 2 && slope < -0.3) c = dark;
        else if (
          li === 0 &&
          biome !== 'desert' &&
          biome !== 'volcano' &&
          depth < g * 0.03 &&
          heights[x]! < layer.base * g - layer.amp * g * 0.3
        )
          c = P([240, 245, 250]);
        else if (depth > g * 0.08 && bayer(x, y) < Math.min(0.5, (depth - g * 0.08) / (g * 0.3))) c = dark;
        out[y * g + x] = pack(c);
      }
    }
    if (layer.trees) {
      const trunk = pack(P([80, 50, 35]));
      const leaf = biome === 'snow' ? P([40, 90, 70]) : painter.step(fill, -1, 0.25);
      const leafLit = painter.step(leaf, 1, 0.3);
      const count = Math.floor(g / (biome === 'forest' ? 10 : 22));
      for (let t = 0; t < count; t++) {
        const tx = Math.floor(((t + rng.range(0.1, 0.9)) / count) * g);
        const th = rng.range(0.05, 0.1) * g;
        const baseY = Math.floor(heights[tx]!) + 1;
        const tw = th * 0.45;
        for (let y = Math.floor(baseY - th); y < baseY; y++) {
          const k = (y - (baseY - th)) / th;
          const half = Math.max(0.5, k * tw);
          for (let x = Math.floor(tx - half); x <= tx + half; x++) {
            const wx = ((x % g) + g) % g;
            if (y < 0 || y >= g) continue;
            out[y * g + wx] = pack(x < tx && k < 0.85 ? leafLit : leaf);
          }
        }
        for (let y = baseY; y < Math.min(g, baseY + th * 0.15); y++) out[y * g + tx] = trunk;
      }
    }
  }
  // ground strip: grass or sand lip, soil with speckles and strata (a beach is mostly sand)
  const groundTop = Math.floor(g * (scene === 'beach' ? 0.76 : biome === 'ocean' ? 0.86 : 0.88));
  const groundNoise = new Noise1D(rng.fork('ground'), 16);
  const soil = P(scheme.ground);
  const soilDark = painter.step(soil, -1, 0.3);
  const lip = P(
    biome === 'desert'
      ? [240, 200, 120]
      : biome === 'snow'
        ? [250, 252, 255]
        : biome === 'volcano'
          ? [70, 50, 50]
          : biome === 'ocean'
            ? [240, 220, 160]
            : [100, 180, 70],
  );
  const lipDark = painter.step(lip, -1, 0.3);
  const speck = new Noise2D(rng.fork('speck'), 32);
  for (let x = 0; x < g; x++) {
    const top = groundTop + Math.floor((groundNoise.fbm((x / g) * 16, 2) - 0.5) * g * 0.03);
    for (let y = Math.max(0, top); y < g; y++) {
      const d = y - top;
      let c = d < g * 0.025 ? (d < g * 0.012 ? lip : lipDark) : soil;
      if (c === soil && speck.at((x / g) * 32 * 2, (y / g) * 32 * 2) > 0.72) c = soilDark;
      out[y * g + x] = pack(c);
    }
  }
  if (biome === 'volcano')
    drawVolcanoCone({ g, out, painter, rng, night: style.mood === 'night' }, Math.floor(g * 0.66));
  if (biome === 'volcano') {
    const glow = pack(P(scheme.accent));
    for (let x = 0; x < g; x++) {
      const y = g - 1 - Math.floor(speck.at((x / g) * 32, 3) * g * 0.03);
      for (let yy = y; yy < g; yy++) out[yy * g + x] = glow;
    }
  }
  const canvas: SceneCanvas = { g, out, painter, rng, night: style.mood === 'night' };
  if (biome === 'swamp') {
    // murky pools in the ground and bare, dead trees
    const pool = pack(P([50, 70, 60]));
    const poolLit = pack(P([80, 110, 90]));
    for (let k = 0; k < 3; k++) {
      const cx = ((k + 0.3 + rng.range(0, 0.4)) / 3) * g;
      for (let y = groundTop + 2; y < g; y++)
        for (let x = 0; x < g; x++) {
          const d = ((x - cx) / (g * 0.13)) ** 2 + ((y - g * 0.94) / (g * 0.035)) ** 2;
          if (d < 1) out[y * g + x] = d < 0.15 && bayer(x, y) > 0.5 ? poolLit : pool;
        }
    }
    const bark = pack(P([60, 50, 45]));
    for (let k = 0; k < 3; k++) {
      const tx = rng.range(0.1, 0.9) * g;
      const th = rng.range(0.2, 0.32) * g;
      for (let y = 0; y < th; y++) {
        const yy = groundTop - y;
        for (let x = Math.floor(tx - 1); x <= tx + 1; x++) if (yy >= 0) out[yy * g + x] = bark;
        if (y > th * 0.5 && y % Math.max(3, Math.round(g / 20)) === 0)
          for (let b = 0; b < th * 0.18; b++) {
            const bx = Math.floor(tx + (y % 2 ? b : -b));
            const by = Math.floor(yy - b * 0.6);
            if (bx >= 0 && bx < g && by >= 0) out[by * g + bx] = bark;
          }
      }
    }
  }
  if (scene === 'city' || scene === 'village') drawTown(canvas, groundTop + 1, scene === 'city');
  finishScene(canvas, job.interpretation, true);
  return new Uint8Array(out.buffer);
}

function blend(a: Rgb, b: Rgb, t: number): Rgb {
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
