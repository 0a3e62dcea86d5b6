import { PixelCanvas, pack } from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { lightingFor, paintLights } from '../src/internal/art/scene/light.js';

/**
 * A scene's lights are drawn as a pixel artist lights a surface (issue #39, decisions 0082 and 0084): a
 * kept core, two stepped bands of the light's own hue on what is round it, the same on every layer —
 * the things lit keep their drawing (a flat disc hid the hearth it lit), never a grey of the light and
 * the night, nothing beyond the bands.
 */
describe('scene glows', () => {
  const w = 64;
  const h = 48;
  const night = pack([16, 18, 48]);
  const lamp = pack([255, 236, 150]);
  const stripeA = pack([40, 40, 60]);
  const stripeB = pack([60, 56, 80]);
  function scene() {
    const back = new PixelCanvas(w, h);
    back.px.fill(night);
    const front = new PixelCanvas(w, h);
    // a wall of two-tone stripes in front, the lamp at its middle
    for (let y = 10; y < h; y++)
      for (let x = 0; x < w; x++) front.px[y * w + x] = x % 4 < 2 ? stripeA : stripeB;
    front.px[24 * w + 32] = lamp;
    const light = lightingFor('night', undefined, false);
    light.lights.push({ x: 32.5, y: 24.5, r: 30, color: [255, 236, 150] });
    return { back, front, light };
  }

  it('lights what is round a kept core in two bands of its hue, and nothing beyond them', () => {
    const { back, front, light } = scene();
    const before = [Uint32Array.from(back.px), Uint32Array.from(front.px)];
    paintLights([back, front], light);
    const inside = new Set<number>();
    const wall = new Set<number>();
    let changedFar = 0;
    for (const [k, layer] of [back, front].entries())
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const i = y * w + x;
          const d = Math.hypot(x + 0.5 - 32.5, y + 0.5 - 24.5);
          if (d > 30 * 0.6 && layer.px[i] !== before[k]![i]) changedFar++;
          if (d < 30 * 0.5 && i !== 24 * w + 32 && layer.px[i]) inside.add(layer.px[i]!);
          if (k === 1 && d < 30 * 0.3 && y >= 10 && i !== 24 * w + 32) wall.add(layer.px[i]!);
        }
    // the core keeps its colour; the glow stops at its outer ring
    expect(front.px[24 * w + 32]).toBe(lamp);
    expect(changedFar).toBe(0);
    // the wall keeps its stripes where it is lit: both tones, each lighter than unlit
    expect(wall.size).toBe(2);
    for (const v of wall) expect(v === stripeA || v === stripeB, v.toString(16)).toBe(false);
    // two bands over the night and over each stripe: at most six colours, not a wash of many
    expect(inside.size).toBeLessThanOrEqual(6);
    // warm: the light's hue, not a grey of the lamp and the night
    for (const v of inside) expect(v & 255, `${v.toString(16)}`).toBeGreaterThan((v >>> 16) & 255);
  });
});
