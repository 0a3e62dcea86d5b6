// The quality_supervisor's model-output checks, one by one: each gets a frame set that passes and
// one that fails, and a failure becomes the report's rejectReason, named by its check. Last, a
// whole pipeline run with a model provider whose frames fail a check ends quality_rejected with
// that check's name in the task error.
import { describe, expect, it } from 'vitest';
import { NAMED_PALETTES, type Rgb } from '../src/palette.js';
import { inspectModelOutput, type ModelQualityInput, withChecks } from '../src/quality-model.js';
import { runPipeline } from '../src/run.js';
import { createMemoryStorage } from '../src/storage.js';
import type { ImageProvider, QualityReport, RgbaImage } from '../src/types/index.js';
import { figure, modelPicture } from './pixel-art.js';

const PASSING: QualityReport = { passed: true, score: 1, checks: [] };

function blank(w: number, h: number): RgbaImage {
  return { width: w, height: h, data: new Uint8Array(w * h * 4) };
}

function fill(img: RgbaImage, x0: number, y0: number, w: number, h: number, c: Rgb, a = 255): RgbaImage {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) img.data.set([c[0], c[1], c[2], a], (y * img.width + x) * 4);
  }
  return img;
}

/** A 16×16 frame with a solid 8×8 block (a quarter opaque) at (x0, y0). */
function blockFrame(x0 = 4, y0 = 4, c: Rgb = [172, 50, 50], size = 8): RgbaImage {
  return fill(blank(16, 16), x0, y0, size, size, c);
}

function check(input: ModelQualityInput, name: string) {
  const found = inspectModelOutput(input).find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} check in the report`);
  return found;
}

/** The check fails and, added to a passing report, is the named reason of the rejection. */
function expectRejectedBy(input: ModelQualityInput, name: string): void {
  const c = check(input, name);
  expect(c.passed).toBe(false);
  expect(c.detail ?? '').not.toBe('');
  const report = withChecks(PASSING, inspectModelOutput(input));
  expect(report.passed).toBe(false);
  expect(report.rejectReason).toMatch(new RegExp(`^${name}: `));
}

describe('model-output checks', () => {
  const sweetie = NAMED_PALETTES.sweetie16!;

  it('palette_adherence: exact palette colours pass; one off-palette pixel fails it', () => {
    const ok = blockFrame(4, 4, sweetie[3]!);
    expect(check({ frames: [ok], opaque: false, palette: sweetie }, 'palette_adherence').passed).toBe(true);
    const off = blockFrame(4, 4, sweetie[3]!);
    off.data.set([sweetie[3]![0] + 3, sweetie[3]![1], sweetie[3]![2], 255], (5 * 16 + 5) * 4);
    expectRejectedBy({ frames: [ok, off], opaque: false, palette: sweetie }, 'palette_adherence');
    expect(check({ frames: [off], opaque: false, palette: sweetie }, 'palette_adherence').detail).toMatch(
      /1 opaque pixels .* off the palette, first in frame 0/,
    );
    // configurable: a threshold below 1 lets the single pixel through
    expect(
      check(
        { frames: [off], opaque: false, palette: sweetie, thresholds: { minPaletteShare: 0.9 } },
        'palette_adherence',
      ).passed,
    ).toBe(true);
    // no enforced palette: no check
    expect(
      inspectModelOutput({ frames: [off], opaque: false }).some((c) => c.name === 'palette_adherence'),
    ).toBe(false);
  });

  it('grid_fidelity: a result that upscales back to the picture passes; a wrong read fails it', () => {
    const native = figure(0);
    const picture = modelPicture(native, 6, { x: 0, y: 0 }, { pad: 0, jitter: 4 });
    const source = { picture, native, scale: 6, offset: { x: 0, y: 0 } };
    expect(check({ frames: [native], opaque: false, sources: [source] }, 'grid_fidelity').passed).toBe(true);
    // read with the wrong grid (half the scale): the upscaled result no longer matches
    expectRejectedBy(
      { frames: [native], opaque: false, sources: [{ ...source, scale: 3 }] },
      'grid_fidelity',
    );
  });

  it('transparency: a sprite with room around it passes; a frame with no transparency fails it', () => {
    expect(check({ frames: [blockFrame()], opaque: false }, 'transparency').passed).toBe(true);
    const painted = fill(blank(16, 16), 0, 0, 16, 16, [200, 200, 200]);
    expectRejectedBy({ frames: [blockFrame(), painted], opaque: false }, 'transparency');
    expect(check({ frames: [blockFrame(), painted], opaque: false }, 'transparency').detail).toMatch(
      /frame 1/,
    );
    // an opaque asset (background) has no transparency check
    expect(
      inspectModelOutput({ frames: [painted], opaque: true }).some((c) => c.name === 'transparency'),
    ).toBe(false);
  });

  it('stray_alpha: binary alpha passes; one half-transparent pixel fails it', () => {
    expect(check({ frames: [blockFrame()], opaque: false }, 'stray_alpha').passed).toBe(true);
    const soft = fill(blockFrame(), 3, 4, 1, 1, [172, 50, 50], 128);
    expectRejectedBy({ frames: [soft], opaque: false }, 'stray_alpha');
  });

  it('orphan_pixels: a solid sprite passes; specks without an opaque neighbour fail it', () => {
    expect(check({ frames: [blockFrame()], opaque: false }, 'orphan_pixels').passed).toBe(true);
    const specks = blockFrame();
    for (const [x, y] of [
      [0, 0],
      [14, 1],
      [1, 14],
    ])
      fill(specks, x!, y!, 1, 1, [34, 32, 52]);
    expectRejectedBy({ frames: [specks], opaque: false }, 'orphan_pixels');
    expect(check({ frames: [specks], opaque: false }, 'orphan_pixels').detail).toMatch(/3 isolated pixels/);
  });

  it('silhouette: the same sprite in every frame passes; a shrunk or drifting one fails it', () => {
    expect(check({ frames: [blockFrame(), blockFrame()], opaque: false }, 'silhouette').passed).toBe(true);
    // a quarter of the area
    expectRejectedBy(
      { frames: [blockFrame(), blockFrame(4, 4, [172, 50, 50], 4)], opaque: false },
      'silhouette',
    );
    // same size, moved by 4 px of a 16 px frame
    const drift = { frames: [blockFrame(), blockFrame(8, 4)], opaque: false };
    expectRejectedBy(drift, 'silhouette');
    expect(check(drift, 'silhouette').detail).toMatch(/frame 1 centre drifts/);
  });

  it('seams: a texture that wraps passes; a left-to-right gradient fails it', () => {
    const tile = blank(16, 16);
    const ramp = blank(16, 16);
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) {
        const v =
          100 + Math.round(40 * Math.sin((2 * Math.PI * x) / 16) + 20 * Math.cos((2 * Math.PI * y) / 16));
        tile.data.set([v, v, v, 255], (y * 16 + x) * 4);
        ramp.data.set([x * 16, x * 16, x * 16, 255], (y * 16 + x) * 4);
      }
    }
    expect(check({ frames: [tile], opaque: true, tileable: 'xy' }, 'seams').passed).toBe(true);
    expectRejectedBy({ frames: [ramp], opaque: true, tileable: 'x' }, 'seams');
  });
});

describe('a model provider whose frames fail a check', () => {
  it('ends quality_rejected, and the task error names the check', async () => {
    // a real ImageProvider of kind 'model': frame 0 the figure, frame 1 a much smaller one
    const big = modelPicture(figure(0), 8, { x: 3, y: 5 }, { jitter: 6 });
    // a 6×7 sprite (outline and fill) drawn the same way: a third of the figure's area, but
    // still the 3 % of the frame the general alpha_coverage check asks for
    const head = fill(fill(blank(6, 7), 0, 0, 6, 7, [34, 32, 52]), 1, 1, 4, 5, [251, 242, 54]);
    const small = modelPicture(head, 8, { x: 3, y: 5 }, { pad: 6, jitter: 6 });
    let calls = 0;
    const provider: ImageProvider = {
      name: 'shrinking-model',
      kind: 'model',
      async generate() {
        calls++;
        return { frames: [big, small], animation: 'walk' };
      },
    };
    const r = await runPipeline(
      {
        prompt: 'a walking knight',
        assetType: 'animation',
        projectStyle: {},
        params: { resolution: 32, frames: { directions: 1, framesPerDirection: 2 }, format: 'individual' },
        keyPrefix: 'k/',
      },
      { storage: createMemoryStorage(), providers: { image: provider }, maxRetries: 1 },
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('quality_rejected');
    expect(r.error).toMatch(/silhouette: area ratio/);
    expect(calls).toBe(2); // the first try and one retry
  });
});
