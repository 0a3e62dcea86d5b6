import type { Rgb } from '../../../palette.js';
import { Noise1D, Noise2D, type Rng } from '../../random.js';
import { bayer, type Painter } from '../canvas.js';

/**
 * Scenes that are not open landscapes: interiors without sky (dungeon, cave, castle hall, tavern),
 * underwater and outer space, plus the town layers (city skyline, village houses) and the weather
 * and time-of-day passes that every background gets.
 */
export interface SceneCanvas {
  g: number;
  out: Uint32Array;
  painter: Painter;
  rng: Rng;
  night: boolean;
}

export const pack = (c: Rgb) => ((255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
const unpack = (v: number): Rgb => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];

function fillRect(s: SceneCanvas, x0: number, y0: number, x1: number, y1: number, c: number): void {
  const { g, out } = s;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(g, Math.ceil(y1)); y++)
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(g, Math.ceil(x1)); x++) out[y * g + x] = c;
}
function disc(s: SceneCanvas, cx: number, cy: number, r: number, c: number, dither = 0): void {
  const { g, out } = s;
  for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(g, Math.ceil(cy + r)); y++)
    for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(g, Math.ceil(cx + r)); x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / r;
      if (d <= 1 && (!dither || bayer(x, y) > d * dither)) out[y * g + x] = c;
    }
}
/** A warm light: a dithered halo that brightens what is under it towards `tint`. */
function glow(s: SceneCanvas, cx: number, cy: number, r: number, tint: Rgb): void {
  const { g, out, painter } = s;
  for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(g, Math.ceil(cy + r)); y++)
    for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(g, Math.ceil(cx + r)); x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / r;
      if (d >= 1 || bayer(x, y) < d) continue;
      const c = unpack(out[y * g + x]!);
      out[y * g + x] = pack(
        painter.choose([(c[0] + tint[0]) / 2, (c[1] + tint[1]) / 2, (c[2] + tint[2]) / 2]),
      );
    }
}

function bricks(
  s: SceneCanvas,
  y0: number,
  y1: number,
  stone: Rgb,
  mortar: Rgb,
  bw: number,
  bh: number,
): void {
  const { g, painter, rng } = s;
  const base = painter.choose(stone);
  const light = painter.step(base, 1, 0.25);
  const dark = painter.step(base, -1, 0.3);
  const m = pack(painter.choose(mortar));
  const shades = [pack(base), pack(light), pack(dark), pack(base)];
  for (let row = 0; y0 + row * bh < y1; row++) {
    const off = row % 2 ? bw / 2 : 0;
    for (let col = -1; col * bw < g + bw; col++) {
      const x0 = col * bw + off;
      const c = shades[rng.int(0, 3)]!;
      fillRect(s, x0, y0 + row * bh, x0 + bw, Math.min(y1, y0 + (row + 1) * bh), c);
      fillRect(s, x0, y0 + row * bh, x0 + bw, y0 + row * bh + 1, m);
      fillRect(s, x0, y0 + row * bh, x0 + 1, Math.min(y1, y0 + (row + 1) * bh), m);
    }
  }
}

function floor(s: SceneCanvas, top: number, a: Rgb, b: Rgb, plankW: number, planks: boolean): void {
  const { g, painter } = s;
  const ca = pack(painter.choose(a));
  const cb = pack(painter.choose(b));
  const line = pack(painter.step(painter.choose(b), -1, 0.4));
  for (let y = top; y < g; y++) {
    const depth = (y - top) / (g - top);
    for (let x = 0; x < g; x++) {
      // lines converge towards a vanishing point above the middle: a floor in perspective
      const px = (x - g / 2) / (0.35 + depth * 0.65) + g / 2;
      const cell = Math.floor(px / plankW);
      const rowH = planks ? g : Math.max(2, Math.round(2 + depth * 6));
      const row = Math.floor((y - top) / rowH);
      let c = (cell + (planks ? 0 : row)) % 2 ? ca : cb;
      if (Math.abs(px - cell * plankW) < 0.8) c = line;
      if (!planks && (y - top) % rowH === 0) c = line;
      s.out[y * g + x] = c;
    }
  }
}

function torch(s: SceneCanvas, x: number, y: number): void {
  const { painter } = s;
  const g = s.g;
  glow(s, x, y - g * 0.02, g * 0.16, [255, 190, 90]);
  fillRect(s, x - g * 0.012, y, x + g * 0.012, y + g * 0.07, pack(painter.choose([90, 60, 40])));
  disc(s, x, y - g * 0.01, g * 0.022, pack(painter.choose([255, 150, 40])));
  disc(s, x, y - g * 0.018, g * 0.011, pack(painter.choose([255, 240, 150])));
}

export function drawDungeon(s: SceneCanvas): void {
  const { g, painter } = s;
  const floorTop = Math.floor(g * 0.7);
  bricks(
    s,
    0,
    floorTop,
    [70, 72, 88],
    [35, 35, 45],
    Math.max(4, Math.round(g / 10)),
    Math.max(3, Math.round(g / 20)),
  );
  // an arched, barred doorway in the back wall
  const dx = g / 2;
  const dw = g * 0.14;
  const black = pack(painter.choose([12, 10, 18]));
  fillRect(s, dx - dw, floorTop - g * 0.3, dx + dw, floorTop, black);
  disc(s, dx, floorTop - g * 0.3, dw, black);
  const bar = pack(painter.choose([110, 110, 120]));
  for (let k = -2; k <= 2; k++)
    fillRect(s, dx + k * dw * 0.4 - 0.5, floorTop - g * 0.38, dx + k * dw * 0.4 + 0.5, floorTop, bar);
  floor(s, floorTop, [60, 60, 72], [50, 50, 62], Math.max(4, g / 8), false);
  // chains and torches
  const chain = pack(painter.choose([95, 95, 105]));
  for (const cx of [g * 0.12, g * 0.88])
    for (let y = 0; y < g * 0.22; y += 2) fillRect(s, cx, y, cx + 1, y + 1, chain);
  // everything is dim but the torches
  shade(s, 0.62);
  torch(s, g * 0.28, g * 0.36);
  torch(s, g * 0.72, g * 0.36);
}

export function drawCave(s: SceneCanvas): void {
  const { g, painter, rng } = s;
  const back = pack(painter.choose([48, 38, 44]));
  const rockC = painter.choose([92, 72, 66]);
  const rock = pack(rockC);
  const rockLit = pack(painter.step(rockC, 1, 0.25));
  const rockDark = pack(painter.step(rockC, -1, 0.35));
  s.out.fill(back);
  const n = new Noise1D(rng.fork('cave'), 8);
  const n2 = new Noise2D(rng.fork('cave2'), 8);
  for (let x = 0; x < g; x++) {
    const ceil = g * (0.12 + n.fbm((x / g) * 8, 3) * 0.2);
    const ground = g * (0.78 - n.fbm((x / g) * 8 + 40, 3) * 0.12);
    for (let y = 0; y < g; y++) {
      const wall = Math.min(x, g - 1 - x) < g * (0.12 + n.fbm((y / g) * 8 + 90, 2) * 0.12);
      if (y < ceil || y > ground || wall) {
        const t = n2.fbm((x / g) * 8, (y / g) * 8, 3);
        s.out[y * g + x] = t > 0.6 ? rockLit : t < 0.38 ? rockDark : rock;
      }
    }
  }
  // stalactites and stalagmites
  for (let i = 0; i < 9; i++) {
    const x = rng.range(0.15, 0.85) * g;
    const len = rng.range(0.06, 0.16) * g;
    const top = i % 2 === 0;
    for (let k = 0; k < len; k++) {
      const w = (1 - k / len) * g * 0.025;
      const y = top ? g * 0.18 + k : g * 0.74 - k;
      fillRect(s, x - w, y, x + w, y + 1, top ? rock : rockDark);
    }
  }
  shade(s, 0.7);
  for (let i = 0; i < 3; i++) {
    const x = (0.25 + i * 0.25) * g;
    const y = g * 0.76;
    glow(s, x, y, g * 0.12, [120, 200, 255]);
    disc(s, x, y, g * 0.02, pack(painter.choose([140, 220, 255])));
  }
}

export function drawCastleHall(s: SceneCanvas): void {
  const { g, painter, night } = s;
  const floorTop = Math.floor(g * 0.72);
  bricks(
    s,
    0,
    floorTop,
    [150, 145, 140],
    [100, 95, 95],
    Math.max(5, Math.round(g / 8)),
    Math.max(3, Math.round(g / 18)),
  );
  // tall arched windows show the sky (dark at night)
  const sky = pack(painter.choose(night ? [25, 28, 70] : [130, 180, 235]));
  const frame = pack(painter.choose([90, 85, 85]));
  for (const wx of [g * 0.18, g * 0.82]) {
    fillRect(s, wx - g * 0.06, g * 0.16, wx + g * 0.06, g * 0.5, frame);
    fillRect(s, wx - g * 0.045, g * 0.2, wx + g * 0.045, g * 0.48, sky);
    disc(s, wx, g * 0.2, g * 0.045, sky);
    fillRect(s, wx - 0.5, g * 0.18, wx + 0.5, g * 0.48, frame);
  }
  // pillars
  const pillar = painter.choose([175, 170, 165]);
  for (const px of [g * 0.34, g * 0.66]) {
    fillRect(s, px - g * 0.035, 0, px + g * 0.035, floorTop, pack(pillar));
    fillRect(s, px - g * 0.035, 0, px - g * 0.02, floorTop, pack(painter.step(pillar, 1, 0.2)));
    fillRect(s, px + g * 0.02, 0, px + g * 0.035, floorTop, pack(painter.step(pillar, -1, 0.25)));
  }
  // red banners
  const banner = pack(painter.choose([170, 30, 45]));
  const gold = pack(painter.choose([230, 190, 60]));
  for (const bx of [g * 0.42, g * 0.58]) {
    fillRect(s, bx - g * 0.035, g * 0.08, bx + g * 0.035, g * 0.36, banner);
    fillRect(s, bx - g * 0.035, g * 0.08, bx + g * 0.035, g * 0.1, gold);
  }
  floor(s, floorTop, [120, 115, 110], [100, 95, 92], Math.max(5, g / 7), false);
  // the carpet to the throne
  const carpet = pack(painter.choose([160, 25, 40]));
  for (let y = floorTop; y < g; y++) {
    const depth = (y - floorTop) / (g - floorTop);
    const w = g * (0.05 + depth * 0.12);
    fillRect(s, g / 2 - w, y, g / 2 + w, y + 1, carpet);
  }
  fillRect(s, g * 0.45, floorTop - g * 0.16, g * 0.55, floorTop, gold);
  fillRect(s, g * 0.465, floorTop - g * 0.13, g * 0.535, floorTop - g * 0.04, banner);
  torch(s, g * 0.26, g * 0.34);
  torch(s, g * 0.74, g * 0.34);
}

export function drawTavern(s: SceneCanvas): void {
  const { g, painter } = s;
  const floorTop = Math.floor(g * 0.72);
  // plank walls
  const wood = painter.choose([120, 75, 45]);
  const plankW = Math.max(3, Math.round(g / 14));
  for (let x = 0; x < g; x++) {
    const k = Math.floor(x / plankW);
    const c = pack(
      x % plankW === 0 ? painter.step(wood, -1, 0.4) : k % 3 === 0 ? painter.step(wood, 1, 0.15) : wood,
    );
    for (let y = 0; y < floorTop; y++) s.out[y * g + x] = c;
  }
  // a shelf of bottles behind the bar
  const shelf = pack(painter.step(wood, -1, 0.3));
  fillRect(s, g * 0.08, g * 0.3, g * 0.92, g * 0.33, shelf);
  const bottleColors: Rgb[] = [
    [60, 140, 70],
    [150, 40, 40],
    [200, 160, 60],
    [70, 90, 160],
  ];
  for (let i = 0; i < 10; i++) {
    const x = g * (0.12 + i * 0.08);
    const c = pack(painter.choose(bottleColors[i % 4]!));
    fillRect(s, x - g * 0.012, g * 0.22, x + g * 0.012, g * 0.3, c);
    fillRect(s, x - g * 0.005, g * 0.18, x + g * 0.005, g * 0.22, c);
  }
  floor(s, floorTop, [140, 95, 55], [125, 82, 48], Math.max(4, g / 9), true);
  // the bar counter
  const counter = painter.choose([95, 58, 35]);
  fillRect(s, 0, g * 0.5, g, g * 0.54, pack(painter.step(counter, 1, 0.25)));
  fillRect(s, 0, g * 0.54, g, floorTop + 2, pack(counter));
  for (let x = plankW; x < g; x += plankW * 2) fillRect(s, x, g * 0.54, x + 1, floorTop + 2, shelf);
  // mugs on the counter and hanging lamps
  const mug = pack(painter.choose([200, 200, 205]));
  const foam = pack(painter.choose([250, 245, 230]));
  for (const x of [g * 0.3, g * 0.55, g * 0.7]) {
    fillRect(s, x - g * 0.02, g * 0.44, x + g * 0.02, g * 0.5, mug);
    fillRect(s, x - g * 0.02, g * 0.43, x + g * 0.02, g * 0.45, foam);
  }
  for (const x of [g * 0.25, g * 0.75]) {
    fillRect(s, x - 0.5, 0, x + 0.5, g * 0.1, shelf);
    glow(s, x, g * 0.12, g * 0.2, [255, 200, 110]);
    disc(s, x, g * 0.12, g * 0.025, pack(painter.choose([255, 220, 120])));
  }
}

export function drawUnderwater(s: SceneCanvas): void {
  const { g, painter, rng } = s;
  const stops = [painter.choose([60, 150, 200]), painter.choose([30, 90, 160]), painter.choose([15, 40, 90])];
  for (let y = 0; y < g; y++) {
    const t = (y / g) * 2;
    const i = Math.min(1, Math.floor(t));
    for (let x = 0; x < g; x++) s.out[y * g + x] = pack(t - i > bayer(x, y) ? stops[i + 1]! : stops[i]!);
  }
  // light rays from the surface
  const ray = pack(painter.choose([110, 190, 225]));
  for (let k = 0; k < 4; k++) {
    const x0 = rng.range(0.1, 0.9) * g;
    for (let y = 0; y < g * 0.6; y++) {
      const x = x0 + y * 0.35;
      if (bayer(Math.floor(x), y) > y / (g * 0.6)) fillRect(s, x, y, x + g * 0.03, y + 1, ray);
    }
  }
  // sand floor, rocks, seaweed, bubbles
  const n = new Noise1D(rng.fork('sand'), 8);
  const sand = pack(painter.choose([190, 170, 110]));
  const sandDark = pack(painter.choose([150, 130, 85]));
  for (let x = 0; x < g; x++) {
    const top = Math.floor(g * (0.84 - n.fbm((x / g) * 8, 2) * 0.06));
    for (let y = top; y < g; y++) s.out[y * g + x] = (x + y) % 5 === 0 ? sandDark : sand;
  }
  const weed = pack(painter.choose([40, 140, 70]));
  for (let k = 0; k < 7; k++) {
    const x0 = rng.range(0.05, 0.95) * g;
    const h = rng.range(0.15, 0.35) * g;
    for (let y = 0; y < h; y++) {
      const x = x0 + Math.sin(y / (g * 0.04) + k) * g * 0.015;
      fillRect(s, x, g * 0.86 - y, x + Math.max(1, g * 0.012), g * 0.86 - y + 1, weed);
    }
  }
  const coral = pack(painter.choose([230, 100, 110]));
  disc(s, g * 0.8, g * 0.83, g * 0.05, coral);
  disc(s, g * 0.2, g * 0.85, g * 0.06, pack(painter.choose([100, 100, 110])));
  const bubble = pack(painter.choose([200, 235, 250]));
  for (let k = 0; k < 12; k++)
    disc(
      s,
      rng.range(0.1, 0.9) * g,
      rng.range(0.1, 0.75) * g,
      Math.max(1, g * rng.range(0.006, 0.014)),
      bubble,
    );
}

export function drawSpace(s: SceneCanvas): void {
  const { g, painter, rng } = s;
  s.out.fill(pack(painter.choose([8, 8, 22])));
  // a dithered nebula
  const neb = new Noise2D(rng.fork('nebula'), 8);
  const nebC = [pack(painter.choose([50, 25, 80])), pack(painter.choose([110, 40, 110]))];
  for (let y = 0; y < g; y++)
    for (let x = 0; x < g; x++) {
      const v = neb.fbm((x / g) * 8, (y / g) * 8, 4);
      if (v > 0.55 && bayer(x, y) < (v - 0.55) * 5) s.out[y * g + x] = nebC[v > 0.66 ? 1 : 0]!;
    }
  const star = pack(painter.choose([250, 250, 235]));
  const dim = pack(painter.choose([140, 140, 170]));
  for (let i = 0; i < g * g * 0.01; i++) s.out[rng.int(0, g * g - 1)] = i % 3 ? dim : star;
  for (let i = 0; i < 4; i++) {
    const x = rng.int(2, g - 3);
    const y = rng.int(2, g - 3);
    fillRect(s, x - 1, y, x + 2, y + 1, star);
    fillRect(s, x, y - 1, x + 1, y + 2, star);
  }
  // a ringed planet
  const px = g * rng.range(0.55, 0.75);
  const py = g * rng.range(0.3, 0.5);
  const pr = g * 0.14;
  const planet = painter.choose([210, 140, 80]);
  disc(s, px, py, pr, pack(planet));
  disc(s, px + pr * 0.3, py + pr * 0.3, pr * 0.85, pack(painter.step(planet, -1, 0.3)), 0);
  disc(s, px - pr * 0.1, py - pr * 0.1, pr * 0.8, pack(planet));
  const ring = pack(painter.choose([230, 210, 170]));
  for (let a = 0; a < Math.PI * 2; a += 0.01) {
    const x = px + Math.cos(a) * pr * 1.7;
    const y = py + Math.sin(a) * pr * 0.35;
    if (Math.sin(a) > 0 || Math.hypot(x - px, y - py) > pr) fillRect(s, x, y, x + 1, y + 1, ring);
  }
}

/** City skyline or village houses over a landscape's ground line; windows light up at night. */
export function drawTown(s: SceneCanvas, groundY: number, city: boolean): void {
  const { g, painter, rng, night } = s;
  const wall = painter.choose(city ? (night ? [40, 42, 60] : [120, 125, 140]) : [200, 180, 150]);
  const wallDark = painter.step(wall, -1, 0.3);
  const win = pack(painter.choose(night ? [255, 215, 100] : city ? [150, 190, 230] : [90, 70, 50]));
  const roof = pack(painter.choose(night ? [90, 40, 40] : [170, 60, 50]));
  let x = -rng.range(0, g * 0.05);
  let i = 0;
  while (x < g) {
    const w = city ? rng.range(0.08, 0.16) * g : rng.range(0.12, 0.18) * g;
    const h = city ? rng.range(0.2, 0.55) * g : rng.range(0.1, 0.16) * g;
    const top = groundY - h;
    fillRect(s, x, top, x + w - 1, groundY, pack(i % 2 ? wall : wallDark));
    if (!city) {
      for (let k = 0; k < w * 0.6; k++)
        fillRect(s, x - 1 + k * 0.85, top - k * 0.8 + 1, x + w - k * 0.85, top - k * 0.8 + 2, roof);
      fillRect(s, x + w * 0.4, groundY - h * 0.45, x + w * 0.6, groundY, pack(painter.choose([90, 60, 40])));
    }
    const step = Math.max(3, Math.round(g / 24));
    for (let wy = top + step; wy < groundY - step; wy += step * (city ? 1 : 3))
      for (let wx = x + step * 0.6; wx < x + w - step; wx += step * (city ? 1 : 2.2))
        if (!night || rng.chance(0.6))
          fillRect(s, wx, wy, wx + Math.max(1, step * 0.45), wy + Math.max(1, step * 0.45), win);
    x += w + (city ? 0 : rng.range(0.02, 0.08) * g);
    i++;
  }
}

/** A volcano cone on the horizon with a glowing crater and a smoke plume. */
export function drawVolcanoCone(s: SceneCanvas, baseY: number): void {
  const { g, painter, rng } = s;
  const cx = g * rng.range(0.4, 0.6);
  const rock = painter.choose([70, 45, 45]);
  const lava = pack(painter.choose([255, 110, 30]));
  const lavaHot = pack(painter.choose([255, 210, 80]));
  const top = baseY - g * 0.38;
  for (let y = Math.max(0, Math.floor(top)); y < baseY; y++) {
    const half = g * 0.05 + (y - top) * 0.9;
    for (let x = Math.floor(cx - half); x < cx + half; x++) {
      if (x < 0 || x >= g) continue;
      const lit = x < cx - half * 0.3;
      s.out[y * g + x] = pack(lit ? painter.step(rock, 1, 0.2) : rock);
    }
    // lava runs down from the crater
    const run = Math.sin((y - top) * 0.15) * g * 0.02;
    if (y < top + g * 0.3)
      fillRect(s, cx + run - 1, y, cx + run + 1, y + 1, bayer(0, y) > 0.3 ? lava : lavaHot);
  }
  disc(s, cx, top, g * 0.06, lavaHot);
  const smoke = pack(painter.choose([90, 80, 85]));
  for (let k = 0; k < 6; k++)
    disc(s, cx + k * g * 0.03, top - g * 0.05 - k * g * 0.05, g * (0.04 + k * 0.008), smoke, 1);
}

/** Darkens the whole canvas towards the palette's darker steps (interiors, "dark", night). */
export function shade(s: SceneCanvas, k: number): void {
  const { out, painter } = s;
  const cache = new Map<number, number>();
  for (let i = 0; i < out.length; i++) {
    const v = out[i]!;
    let r = cache.get(v);
    if (r === undefined) {
      const c = unpack(v);
      r = pack(painter.choose([c[0] * k, c[1] * k, c[2] * k * 1.05]));
      cache.set(v, r);
    }
    out[i] = r;
  }
}

export function weather(s: SceneCanvas, kind: 'rain' | 'snow' | 'fog'): void {
  const { g, painter, rng, out } = s;
  if (kind === 'rain') {
    shade(s, 0.8);
    const drop = pack(painter.choose([170, 190, 220]));
    for (let i = 0; i < g * g * 0.012; i++) {
      const x = rng.range(0, g);
      const y = rng.range(0, g);
      const len = Math.max(2, g * 0.04);
      for (let k = 0; k < len; k++) fillRect(s, x + k * 0.4, y + k, x + k * 0.4 + 1, y + k + 1, drop);
    }
  } else if (kind === 'snow') {
    const flake = pack(painter.choose([250, 250, 255]));
    for (let i = 0; i < g * g * 0.012; i++) {
      const r = rng.chance(0.3) ? Math.max(1, g * 0.008) : 0.6;
      disc(s, rng.range(0, g), rng.range(0, g), r, flake);
    }
  } else {
    const fogC = painter.choose([200, 205, 210]);
    const f = pack(fogC);
    for (let y = 0; y < g; y++) {
      const density = 0.25 + 0.45 * (y / g);
      for (let x = 0; x < g; x++) if (bayer(x, y) < density) out[y * g + x] = f;
    }
  }
}
