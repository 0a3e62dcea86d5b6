import { PixelCanvas, pack } from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { lightingFor, paintLights } from '../src/internal/art/scene/light.js';

/**
 * A scene's lights are drawn as a pixel artist lights a surface (issue #39, decisions 0082 and 0084): a
 * kept core, three stepped rings of the light's own hue on what is round it (dithered at their edges), the same on every layer —
 * the things lit keep their drawing (a flat disc hid the hearth it lit), never a grey of the light and
 * the night, nothing beyond the rings.
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

  it('lights what is round a kept core in three rings of its hue, dithered at their edges, and nothing beyond them', () => {
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
          if (d > 30 * 0.66 + 1.25 && layer.px[i] !== before[k]![i]) changedFar++;
          if (d < 30 * 0.66 && i !== 24 * w + 32 && layer.px[i]) inside.add(layer.px[i]!);
          if (k === 1 && d < 30 * 0.25 && y >= 10 && i !== 24 * w + 32) wall.add(layer.px[i]!);
        }
    // the core keeps its colour; the glow stops at its outer ring
    expect(front.px[24 * w + 32]).toBe(lamp);
    expect(changedFar).toBe(0);
    // the wall keeps its stripes where it is lit: both tones, each lighter than unlit
    expect(wall.size).toBe(2);
    for (const v of wall) expect(v === stripeA || v === stripeB, v.toString(16)).toBe(false);
    // three rings over the night and over each stripe: at most nine colours, not a wash of many
    expect(inside.size).toBeLessThanOrEqual(9);
    // warm: the light's hue, not a grey of the lamp and the night — every lit pixel gained more red
    // than blue, and the inner rings are red over blue outright
    for (const [k, layer] of [back, front].entries())
      for (let i = 0; i < w * h; i++) {
        const v = layer.px[i]!;
        const was = before[k]![i]!;
        if (v === was) continue;
        expect((v & 255) - (was & 255), v.toString(16)).toBeGreaterThan(
          ((v >>> 16) & 255) - ((was >>> 16) & 255),
        );
        const d = Math.hypot((i % w) + 0.5 - 32.5, Math.floor(i / w) + 0.5 - 24.5);
        if (d < 30 * 0.46 - 1.25) expect(v & 255, v.toString(16)).toBeGreaterThan((v >>> 16) & 255);
      }
  });

  it('falls off in at least three luminance steps, with no hard circle at a ring edge (decision 0098)', () => {
    const back = new PixelCanvas(w, h);
    back.px.fill(night);
    back.px[24 * w + 32] = lamp;
    const light = lightingFor('night', undefined, false);
    light.lights.push({ x: 32.5, y: 24.5, r: 30, color: [255, 236, 150] });
    paintLights([back], light);
    const lum = (v: number) =>
      Math.round((v & 255) * 0.3 + ((v >>> 8) & 255) * 0.59 + ((v >>> 16) & 255) * 0.11);
    // the lit night round the lamp (the kept core aside): three steps brighter than the night
    const steps = new Set<number>();
    for (let i = 0; i < w * h; i++)
      if (back.px[i] !== night && i !== 24 * w + 32) steps.add(lum(back.px[i]!));
    expect(steps.size).toBeGreaterThanOrEqual(3);
    // each step darker the further out: along a ray from the core the light never brightens again
    let last = Infinity;
    for (let x = 34; x < w; x++) {
      // the ray's two rows, so a dither's checker counts as its mean
      const v = (lum(back.px[24 * w + x]!) + lum(back.px[25 * w + x]!)) / 2;
      expect(v).toBeLessThanOrEqual(last);
      last = v;
    }
    // a ring's edge is dithered: along the ray some columns mix two steps (a checker across the edge)
    let mixed = 0;
    for (let x = 34; x < w; x++) if (back.px[24 * w + x] !== back.px[25 * w + x]) mixed++;
    expect(mixed).toBeGreaterThanOrEqual(3);
  });
});
