import { describe, expect, it } from 'vitest';
import { corpusStatus, loadSprites, makeCorpusImage, scoreRecovery } from '../bench/pixel-corpus.js';
import { NAMED_PALETTES } from '../src/palette.js';
import { pixelize } from '../src/pixelize.js';
import { pixelizeFrames } from '../src/pixelize-frames.js';
import type { RgbaImage } from '../src/types/index.js';
import { figure, hconcat, modelPicture } from './pixel-art.js';

/** Compares a recovered sprite with the native truth placed `pad` cells in. */
function mismatches(truth: RgbaImage, got: RgbaImage, dx: number, dy: number): number {
  let bad = 0;
  for (let y = 0; y < truth.height; y++) {
    for (let x = 0; x < truth.width; x++) {
      const t = (y * truth.width + x) * 4;
      const g = ((y + dy) * got.width + x + dx) * 4;
      const to = truth.data[t + 3]! >= 128;
      const go = got.data[g + 3]! >= 128;
      if (to !== go) bad++;
      else if (to && [0, 1, 2].some((c) => Math.abs(truth.data[t + c]! - got.data[g + c]!) > 12)) bad++;
    }
  }
  return bad;
}

function cellOf(result: ReturnType<typeof pixelize>, inputX: number, inputY: number): [number, number] {
  return [
    Math.floor((inputX - result.offset.x) / result.scale),
    Math.floor((inputY - result.offset.y) / result.scale),
  ];
}

describe('pixelize', () => {
  it.each([
    [4, { x: 1, y: 3 }],
    [6, { x: 5.5, y: 0 }],
    [7.5, { x: 3.2, y: 6.1 }],
    [12, { x: 0, y: 11 }],
  ])('finds scale %s at offset %o and recovers every pixel of a noisy upscaled sprite', (scale, offset) => {
    const truth = figure(1);
    const picture = modelPicture(truth, scale, offset, { jitter: 10 });
    const r = pixelize(picture);
    expect(r.scale).toBeCloseTo(scale, 1);
    // where did the truth's pixel (0, 0) land? its centre in the input, read through the result's grid
    const [dx, dy] = cellOf(r, offset.x + (3 + 0.5) * scale, offset.y + (3 + 0.5) * scale);
    expect(mismatches(truth, r.image, dx, dy)).toBe(0);
    // native resolution: one output pixel per fat pixel
    expect(r.image.width).toBeGreaterThanOrEqual(truth.width + 4);
    expect(r.image.width).toBeLessThanOrEqual(truth.width + 8);
  });

  it('uses a given scale and still fits the offset', () => {
    const truth = figure(0);
    const r = pixelize(modelPicture(truth, 9, { x: 4, y: 2 }, { jitter: 6 }), { scale: 9 });
    expect(r.scale).toBe(9);
    const [dx, dy] = cellOf(r, 4 + 3.5 * 9, 2 + 3.5 * 9);
    expect(mismatches(truth, r.image, dx, dy)).toBe(0);
  });

  it('maps every opaque pixel to the given palette', () => {
    const pal = NAMED_PALETTES.sweetie16!;
    const r = pixelize(modelPicture(figure(0), 8, { x: 2, y: 2 }, { jitter: 8 }), { palette: pal });
    const inPal = (d: Uint8Array, i: number) =>
      pal.some((c) => c[0] === d[i] && c[1] === d[i + 1] && c[2] === d[i + 2]);
    let opaque = 0;
    for (let i = 0; i < r.image.data.length; i += 4) {
      if (r.image.data[i + 3] === 0) continue;
      opaque++;
      expect(r.image.data[i + 3]).toBe(255);
      expect(inPal(r.image.data, i)).toBe(true);
    }
    expect(opaque).toBeGreaterThan(80);
    for (const c of r.palette)
      expect(pal.some((p) => p[0] === c[0] && p[1] === c[1] && p[2] === c[2])).toBe(true);
  });

  it('keeps an adaptive palette within maxColors', () => {
    const r = pixelize(modelPicture(figure(1), 6, { x: 0, y: 0 }, { jitter: 12 }), { maxColors: 4 });
    expect(r.palette.length).toBeLessThanOrEqual(4);
    const colours = new Set<number>();
    for (let i = 0; i < r.image.data.length; i += 4) {
      if (r.image.data[i + 3])
        colours.add((r.image.data[i]! << 16) | (r.image.data[i + 1]! << 8) | r.image.data[i + 2]!);
    }
    expect(colours.size).toBeLessThanOrEqual(4);
  });

  it('removes the backdrop and the enclosed gap of backdrop colour, keeps a one-pixel white highlight', () => {
    const truth = figure(0);
    const r = pixelize(modelPicture(truth, 8, { x: 0, y: 0 }, { jitter: 4 }));
    const at = (x: number, y: number) => r.image.data[((y + 3) * r.image.width + x + 3) * 4 + 3];
    expect(r.image.data[3]).toBe(0); // corner: backdrop
    expect(at(3, 7)).toBe(0); // the gap between arm and body (2 cells, enclosed) is backdrop
    expect(at(6, 3)).toBe(255); // the eye highlight is white too but a single pixel: kept
    const kept = pixelize(modelPicture(truth, 8, { x: 0, y: 0 }), { background: 'keep' });
    expect(kept.image.data[3]).toBe(255);
  });

  it('leaves an already transparent picture transparent', () => {
    const truth = figure(0);
    const pic = modelPicture(truth, 5, { x: 0, y: 0 });
    for (let i = 0; i < pic.data.length; i += 4) {
      if (pic.data[i] === 255 && pic.data[i + 1] === 255 && pic.data[i + 2] === 255) pic.data[i + 3] = 0;
    }
    const r = pixelize(pic);
    const [dx, dy] = cellOf(r, 3.5 * 5, 3.5 * 5);
    // the white highlight was made transparent in the input itself, so skip comparing that pixel
    truth.data[(3 * 12 + 6) * 4 + 3] = 0;
    expect(mismatches(truth, r.image, dx, dy)).toBe(0);
  });

  it('rejects bad input with a RangeError', () => {
    expect(() => pixelize({ width: 2, height: 2, data: new Uint8Array(3) })).toThrow(RangeError);
    const ok = modelPicture(figure(0), 4, { x: 0, y: 0 });
    expect(() => pixelize(ok, { scale: 0 })).toThrow(/scale/);
    expect(() => pixelize(ok, { maxColors: 1 })).toThrow(/maxColors/);
    expect(() => pixelize(ok, { palette: [] })).toThrow(/palette/);
  });

  // the accuracy goals themselves are measured by `pnpm bench` (bench/pixelize.bench.ts); this
  // test holds a floor on a small slice of the same corpus (Debian crawl-tiles-data, CC0)
  const corpus = corpusStatus();
  it.skipIf(!corpus.run)(
    'recovers ≥ 99 % of real CC0 sprites degraded like model output (6× and 7.5×)',
    () => {
      if (corpus.error) throw new Error(corpus.error);
      const sprites = loadSprites(16);
      for (const [s, goal] of [
        [6, 0.99],
        [7.5, 0.99],
      ] as const) {
        let right = 0;
        let total = 0;
        for (let k = 0; k < 2; k++) {
          const c = makeCorpusImage(sprites, k * 3, s, 42 + k, 512);
          const r = pixelize(c.image);
          expect(r.scale).toBeCloseTo(s, 1);
          const sc = scoreRecovery(c, r.image, r);
          right += sc.right;
          total += sc.total;
        }
        expect(right / total).toBeGreaterThanOrEqual(goal);
      }
    },
    // 32 sprites × 2 scales of real pixelizing: seconds alone, more beside the other suites on 2 cores
    30_000,
  );
});

describe('the pixelize corpus', () => {
  it('is skipped only outside CI: in CI a missing atlas fails, naming the bootstrap step', () => {
    const missing = '/nonexistent/crawl/main.png';
    expect(corpusStatus({}, missing)).toEqual({ run: false });
    expect(corpusStatus({ CI: 'false' }, missing)).toEqual({ run: false });
    const ci = corpusStatus({ CI: 'true' }, missing);
    expect(ci.run).toBe(true);
    expect(ci.error).toMatch(/bash scripts\/bootstrap\.sh --test/);
    expect(ci.error).toContain(missing);
  });
});

describe('pixelizeFrames (a sheet)', () => {
  it('reads every frame with one scale and one palette, on one baseline and one centre', () => {
    const f0 = modelPicture(figure(0), 6, { x: 1, y: 2 }, { jitter: 8 });
    const f1 = modelPicture(figure(1), 6, { x: 4, y: 0 }, { jitter: 8 });
    const out = pixelizeFrames([f0, f1], { frameWidth: 32, frameHeight: 32 });
    expect(out.scale).toBe(6);
    expect(out.frames).toHaveLength(2);
    const stats = out.frames.map((f) => {
      let bottom = -1;
      let sx = 0;
      let n = 0;
      const colours = new Set<number>();
      for (let y = 0; y < f.height; y++) {
        for (let x = 0; x < f.width; x++) {
          const i = (y * f.width + x) * 4;
          if (f.data[i + 3]! < 128) continue;
          bottom = y;
          sx += x;
          n++;
          colours.add((f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!);
        }
      }
      return { bottom, cx: sx / n, colours };
    });
    expect(stats[0]!.bottom).toBe(stats[1]!.bottom);
    expect(Math.abs(stats[0]!.cx - stats[1]!.cx)).toBeLessThanOrEqual(1);
    for (const c of stats[1]!.colours) {
      expect(out.palette.some((p) => ((p[0] << 16) | (p[1] << 8) | p[2]) === c)).toBe(true);
    }
  });

  it('gives a sheet cut from one picture the same result as the frames alone', () => {
    const sheet = modelPicture(hconcat([figure(0), figure(1)]), 8, { x: 0, y: 0 });
    expect(pixelize(sheet).scale).toBe(8);
  });
});
