import type { TimeOfDay } from '@assetloom/pipeline/interpret';
import { bayer, type PixelCanvas } from '@assetloom/pipeline/pixel';
import { mixRgb, pack, type RGB, scaleRgb, unpack } from './paint.js';

/**
 * The light of a scene: its sky's colours from the zenith down to the horizon, the ambient light that
 * tints everything the sky lights (dimmer and bluer at night, warmer at dawn and dusk, greyer in rain),
 * the haze that fades what is far, and the lights the scene's own things give (torches, neon, windows).
 */
export interface Lighting {
  time: TimeOfDay;
  sky: RGB[];
  /** The sun's or the moon's colour. */
  disc: RGB;
  ambient: (c: RGB) => RGB;
  haze: RGB;
  /** Point lights registered by the elements that give light, drawn as dithered glows. */
  lights: Array<{ x: number; y: number; r: number; color: RGB }>;
}

const SKIES: Record<TimeOfDay, RGB[]> = {
  day: [
    [78, 142, 228],
    [118, 178, 240],
    [186, 220, 248],
  ],
  dawn: [
    [96, 112, 178],
    [222, 150, 160],
    [252, 206, 150],
  ],
  dusk: [
    [62, 44, 112],
    [196, 84, 104],
    [250, 158, 84],
  ],
  night: [
    [10, 12, 34],
    [22, 26, 64],
    [44, 48, 96],
  ],
};

export function lightingFor(time: TimeOfDay, weather: string | undefined, neon: boolean): Lighting {
  let sky = SKIES[time];
  if (neon && time === 'night')
    sky = [
      [16, 8, 34],
      [42, 16, 70],
      [96, 34, 108],
    ];
  if (weather === 'rain' || weather === 'storm')
    sky = sky.map((c) => mixRgb(scaleRgb(c, 0.78), [110, 118, 130], time === 'night' ? 0.15 : 0.45));
  if (weather === 'fog') sky = sky.map((c) => mixRgb(c, [200, 205, 212], time === 'night' ? 0.25 : 0.55));
  if (weather === 'snow') sky = sky.map((c) => mixRgb(c, [200, 210, 228], time === 'night' ? 0.08 : 0.4));
  const grey = weather === 'rain' || weather === 'storm' ? 0.25 : weather === 'fog' ? 0.2 : 0;
  const ambient = (c: RGB): RGB => {
    let out = c;
    if (time === 'night') {
      // moonlight: dark things go darker than light ones (snow and pale stone stay readable), bluer
      const k = 0.4 + 0.2 * ((c[0] * 0.3 + c[1] * 0.59 + c[2] * 0.11) / 255);
      out = mixRgb(scaleRgb(c, neon ? k - 0.04 : k), neon ? [60, 30, 90] : [40, 52, 112], 0.2);
    } else if (time === 'dusk') out = mixRgb(scaleRgb(c, 0.86), [255, 150, 110], 0.16);
    else if (time === 'dawn') out = mixRgb(scaleRgb(c, 0.92), [255, 190, 170], 0.12);
    if (grey) out = mixRgb(out, [120, 126, 136], grey);
    return out;
  };
  return {
    time,
    sky,
    disc:
      time === 'night'
        ? [236, 232, 200]
        : time === 'dusk'
          ? [255, 196, 104]
          : time === 'dawn'
            ? [255, 220, 160]
            : [255, 244, 196],
    ambient,
    haze: sky[2]!,
    lights: [],
  };
}

/** The sky's colour at `u` (0 the zenith, 1 the horizon), along its stops. */
function skyAt(sky: readonly RGB[], u: number): RGB {
  const t = Math.max(0, Math.min(1, u)) * (sky.length - 1);
  const i = Math.min(sky.length - 2, Math.floor(t));
  return mixRgb(sky[i]!, sky[i + 1]!, t - i);
}

/**
 * Rows y0…y1 of `layer` (columns x0…x1) as a ramp of `steps` (packed colours, top to bottom), each
 * step's rows given by `edges` (the row where each step after the first begins), every edge a short
 * ordered-dither taper (issue #39, decision 0125: a sky or the sea in hard stripes read flat; a 50 %
 * checker stripe across the sky read worse): 2 to 4 rows whose share of the next step climbs 20 %,
 * 40 %, 60 %, 80 % on the 4 × 4 Bayer matrix (a third, two thirds under 120 rows), never more rows than half the thinner step beside it,
 * and each edge wanders a row up or down across the width on a slow wave, so no band edge runs
 * straight across the picture. Writes only where `keep(i)` allows (all rows by default).
 */
export function paintRamp(
  layer: PixelCanvas,
  y0: number,
  y1: number,
  steps: readonly number[],
  edges: readonly number[],
  opts: { x0?: number; x1?: number; phase?: number; keep?: (i: number) => boolean } = {},
): void {
  const { w } = layer;
  const x0 = Math.max(0, Math.floor(opts.x0 ?? 0));
  const x1 = Math.min(w, Math.ceil(opts.x1 ?? w));
  const phase = opts.phase ?? 0;
  const bounds = [y0, ...edges, y1];
  // each edge's taper: up to 4 rows (2 on a small picture, where 4 would be much of a step), half
  // the thinner step beside it, at least 2
  const most = layer.h < 120 ? 2 : 4;
  const taper = edges.map((_, k) =>
    Math.max(
      2,
      Math.min(most, Math.floor(Math.min(bounds[k + 1]! - bounds[k]!, bounds[k + 2]! - bounds[k + 1]!) / 2)),
    ),
  );
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(layer.h, Math.ceil(y1)); y++)
    for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      if (opts.keep && !opts.keep(i)) continue;
      let step = 0;
      for (let k = 0; k < edges.length; k++) {
        // the edge wanders a row either way on a slow wave of its own
        const e = edges[k]! + Math.round(Math.sin(x / (w / (3 + k * 1.7)) + phase + k * 2.1) * 0.9);
        const t = taper[k]!;
        const start = e - t / 2;
        if (y < start) break;
        if (y >= start + t) {
          step = k + 1;
          continue;
        }
        const share = (y - start + 1) / (t + 1);
        step = bayer(x, y) < share ? k + 1 : k;
        break;
      }
      layer.px[i] = steps[step]!;
    }
}

/**
 * The sky gradient as its own steps from the zenith to the horizon: 6 to 9 steps (by the sky's
 * height), each one step along the gradient from the last, thinner towards the horizon the way a
 * pixel artist draws them, each edge a short tapered dither (`paintRamp`, decision 0125; flat bands
 * read as stripes, decision 0082's checker band read worse). `variety` (0…1, from the scene's seed)
 * moves the step heights and how far the colours run, so two scenes of one time of day do not share
 * one sky.
 */
export function paintSky(layer: PixelCanvas, l: Lighting, horizon: number, variety = 0.5): void {
  const { h } = layer;
  const end = Math.max(1, horizon);
  const count = Math.max(4, Math.min(9, Math.round(end / 10)));
  // step heights shrink by `ratio` each step down (a seed's own ratio)
  const ratio = 0.78 + 0.14 * variety;
  const weights = Array.from({ length: count }, (_, i) => ratio ** i);
  const total = weights.reduce((a, b) => a + b, 0);
  const edges: number[] = [];
  let acc = 0;
  for (let i = 0; i < count - 1; i++) {
    acc += weights[i]!;
    edges.push(Math.round((acc / total) * end));
  }
  // the top step starts a little below the zenith's colour on some seeds (the skies differ)
  const lift = 0.12 * variety;
  const steps = Array.from({ length: count }, (_, i) =>
    pack(skyAt(l.sky, lift + ((1 - lift) * i) / (count - 1))),
  );
  paintRamp(layer, 0, h, steps, edges, { phase: variety * 6.28 });
}

/**
 * A light's falloff as a pixel artist paints it (issue #39, decision 0098): rings out from the core,
 * each a step less of the light's colour — half way within 0.28 of its radius, 32 % to 0.46, 16 % to
 * 0.66 — and a checker of pixels across each ring's edge (the step dithered a pixel or so either
 * side, no hard circle). Returns the share of the light's colour a pixel `d` from the centre at
 * (x, y) takes, 0 beyond the last ring.
 */
const GLOW_RINGS: ReadonlyArray<readonly [number, number]> = [
  [0.28, 0.5],
  [0.46, 0.32],
  [0.66, 0.16],
];

function glowShare(d: number, r: number, x: number, y: number): number {
  // the dither's half width: a pixel either side of a ring's edge on a big glow, none on a tiny one
  const soft = Math.min(1.25, r * 0.05);
  const checker = (x + y) & 1;
  for (const [k, [edge, share]] of GLOW_RINGS.entries()) {
    const e = edge * r;
    if (d < e - soft) return share;
    if (d < e + soft) {
      // across the edge: every other pixel takes this ring's step, the others the next one's
      const next = GLOW_RINGS[k + 1]?.[1] ?? 0;
      return checker ? share : d < e ? share : next;
    }
  }
  return 0;
}

/**
 * The lights of the scene's own things, as a pixel artist lights a surface (issue #39, decisions 0082,
 * 0084 and 0098): the things round the source keep their drawing and take three stepped rings of the
 * light's hue (GLOW_RINGS, dithered at their edges), the same on every layer, so they read as one
 * glow; a pixel brighter than the inner ring (the lamp, the fire, a lit window: the glow's core)
 * keeps its colour. Nothing changes beyond the outer ring. (A 22 %/11 % wash out to the whole radius
 * read as a translucent grey disc; two solid rings of one colour each hid the hearth and the wall
 * they stood for; two hard-edged bands read as a flat disc laid over the room.)
 */
export function paintLights(layers: readonly PixelCanvas[], l: Lighting): void {
  if (!l.lights.length) return;
  const last = GLOW_RINGS[GLOW_RINGS.length - 1]![0];
  for (const layer of layers) {
    const { px, w } = layer;
    // where lights overlap a pixel takes the strongest ring over it, once (two lights' washes laid
    // one over the other made a blotch of many rings along a lava river)
    const share = new Float32Array(px.length);
    const from = new Int16Array(px.length).fill(-1);
    for (const [k, light] of l.lights.entries()) {
      const outer = light.r * last + Math.min(1.25, light.r * 0.05);
      const core = brightness(light.color) * 0.85;
      forDisc(layer, light.x, light.y, outer, (i, d) => {
        const v = px[i];
        if (!v) return;
        // a pixel as bright as the light is a light itself (the core, a lit window): kept
        if (brightness(unpack(v)) >= core) return;
        const s = glowShare(d, light.r, i % w, Math.floor(i / w));
        if (s > share[i]!) {
          share[i] = s;
          from[i] = k;
        }
      });
    }
    for (let i = 0; i < px.length; i++)
      if (from[i]! >= 0) px[i] = pack(mixRgb(unpack(px[i]!), l.lights[from[i]!]!.color, share[i]!));
  }
}

const brightness = (c: RGB) => c[0] * 0.3 + c[1] * 0.59 + c[2] * 0.11;

/** How near a light's centre its source must show: a couple of pixels, a fifth of a big glow's radius. */
export const sourceReach = (r: number) => Math.max(2, Math.min(4, r * 0.2));

/**
 * Whether a light's source shows in the picture (issue #39, decision 0113: the blind review after
 * 1130b found "glow discs on a city wall with no lamps drawn" — a window's light laid over the wall
 * that hid its house): a pixel of the flattened layers within `sourceReach(r)` of its centre as
 * bright as 0.7 of the light — the lamp, the flame, the lit window or the lava it stands for.
 */
function sourceShows(
  layers: readonly PixelCanvas[],
  light: { x: number; y: number; r: number; color: RGB },
): boolean {
  const top = layers[0]!;
  const { w, h } = top;
  const reach = sourceReach(light.r);
  const need = brightness(light.color) * 0.7;
  for (let py = Math.max(0, Math.floor(light.y - reach)); py < Math.min(h, Math.ceil(light.y + reach)); py++)
    for (
      let px = Math.max(0, Math.floor(light.x - reach));
      px < Math.min(w, Math.ceil(light.x + reach));
      px++
    ) {
      if (Math.hypot(px + 0.5 - light.x, py + 0.5 - light.y) > reach) continue;
      let v = 0;
      for (const layer of layers) v = layer.px[py * w + px] || v;
      if (v && brightness(unpack(v)) >= need) return true;
    }
  return false;
}

/** Keeps only the lights whose source shows in the picture (a hidden lamp gives no glow). */
export function keepSourcedLights(layers: readonly PixelCanvas[], l: Lighting): void {
  l.lights = l.lights.filter((light) => sourceShows(layers, light));
}

/** Calls `fn(index, distance)` for each pixel of `layer` whose centre is within `r` of (x, y). */
function forDisc(
  layer: PixelCanvas,
  x: number,
  y: number,
  r: number,
  fn: (i: number, d: number) => void,
): void {
  const { w, h } = layer;
  for (let py = Math.max(0, Math.floor(y - r)); py < Math.min(h, Math.ceil(y + r)); py++)
    for (let px = Math.max(0, Math.floor(x - r)); px < Math.min(w, Math.ceil(x + r)); px++) {
      const d = Math.hypot(px + 0.5 - x, py + 0.5 - y);
      if (d < r) fn(py * w + px, d);
    }
}
