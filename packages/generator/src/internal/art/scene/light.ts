import type { TimeOfDay } from '@assetloom/pipeline/interpret';
import type { PixelCanvas } from '@assetloom/pipeline/pixel';
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

/** The sky gradient, its bands joined by a narrow ordered dither (a texture, not noise over everything). */
export function paintSky(layer: PixelCanvas, l: Lighting, horizon: number): void {
  const stops = l.sky.map(pack);
  // the in-between step of each band and the next
  const steps = l.sky.map((c, i) => pack(mixRgb(c, l.sky[Math.min(l.sky.length - 1, i + 1)]!, 0.5)));
  const { w, h } = layer;
  const end = Math.max(1, horizon);
  for (let y = 0; y < h; y++) {
    const t = Math.min(0.999, (y / end) * (stops.length - 1) * 0.92);
    const i = Math.floor(t);
    const f = t - i;
    // wide flat bands joined by one solid in-between step over the last 30 % of each band (issue #39:
    // an ordered dither there read as a hard checkered band across the sky at the horizon)
    const v = f < 0.7 ? stops[i]! : steps[i]!;
    for (let x = 0; x < w; x++) layer.px[y * w + x] = v;
  }
}

/**
 * The lights of the scene's own things: around each, pixels within its radius turn towards its colour
 * in three dithered steps, brightest at the source; never beyond the radius.
 */
export function paintLights(layers: readonly PixelCanvas[], l: Lighting): void {
  for (const light of l.lights)
    for (const layer of layers) {
      const { w, h, px } = layer;
      for (
        let y = Math.max(0, Math.floor(light.y - light.r));
        y < Math.min(h, Math.ceil(light.y + light.r));
        y++
      )
        for (
          let x = Math.max(0, Math.floor(light.x - light.r));
          x < Math.min(w, Math.ceil(light.x + light.r));
          x++
        ) {
          const i = y * w + x;
          const v = px[i]!;
          if (!v) continue;
          const d = Math.hypot(x + 0.5 - light.x, y + 0.5 - light.y) / light.r;
          if (d >= 1) continue;
          // two solid bands, faint: a warm wash on what is near, never a disc or a dither over it
          const strength = d < 0.45 ? 0.22 : 0.11;
          if (!strength) continue;
          const c = unpack(v);
          px[i] = pack(mixRgb(c, light.color, strength));
        }
    }
}
