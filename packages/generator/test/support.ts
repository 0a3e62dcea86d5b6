import { readFileSync } from 'node:fs';
import type { ImageRequest, RgbaImage } from '@assetloom/pipeline';
import { oklabOf } from '@assetloom/pipeline/pixel';

/**
 * What the generator's tests and benches share: the request of one still sprite (one direction, one
 * frame, seed 1, 32 px unless `over` says otherwise), a JSON fixture of test/fixtures, and the sizes
 * of a frame's groups of opaque pixels.
 */
export const spriteRequest = (prompt: string, over: Partial<ImageRequest> = {}): ImageRequest => ({
  assetType: 'sprite',
  prompt,
  userPrompt: prompt,
  tags: [],
  style: {},
  resolution: 32,
  directions: 1,
  framesPerDirection: 1,
  seed: 1,
  attempt: 0,
  ...over,
});

/** test/fixtures/<name>, parsed. */
/** A 320 × 180 background of one prompt (the probes' and scene tests' canvas), seed 7 unless said. */
export const backgroundRequest = (prompt: string, seed = 7): ImageRequest =>
  spriteRequest(prompt, { assetType: 'background', resolution: 320, width: 320, height: 180, seed });

export const readFixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;

/** Sizes of the frame's 8-connected groups of opaque pixels, in scan order of their first pixel. */
export function opaqueGroups(f: RgbaImage): number[] {
  const { width: w, height: h, data } = f;
  const seen = new Uint8Array(w * h);
  const sizes: number[] = [];
  for (let p = 0; p < w * h; p++) {
    if (seen[p] || !data[p * 4 + 3]) continue;
    let n = 0;
    const stack = [p];
    seen[p] = 1;
    while (stack.length) {
      const q = stack.pop() as number;
      n++;
      const qx = q % w;
      const qy = (q - qx) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const x = qx + dx;
          const y = qy + dy;
          const r = y * w + x;
          if (x < 0 || y < 0 || x >= w || y >= h || seen[r] || !data[r * 4 + 3]) continue;
          seen[r] = 1;
          stack.push(r);
        }
    }
    sizes.push(n);
  }
  return sizes;
}

/** The box of a frame's opaque pixels (inclusive); x1 and y1 are -1 when it has none. */
export function opaqueBox(f: RgbaImage): { x0: number; y0: number; x1: number; y1: number } {
  let [x0, y0, x1, y1] = [f.width, f.height, -1, -1];
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++)
      if (f.data[(y * f.width + x) * 4 + 3]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return { x0, y0, x1, y1 };
}

/** A frame's opaque mask (1 where alpha > 0), mirrored left to right when `flip`. */
export const alpha = (f: RgbaImage, flip = false) => {
  const out = new Uint8Array(f.width * f.height);
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++)
      out[y * f.width + x] = f.data[(y * f.width + (flip ? f.width - 1 - x : x)) * 4 + 3]! > 0 ? 1 : 0;
  return out;
};

/** Intersection over union of two masks of one size (1 when both are empty). */
export const iou = (a: Uint8Array, b: Uint8Array) => {
  let both = 0;
  let any = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i]! & b[i]!;
    any += a[i]! | b[i]!;
  }
  return any ? both / any : 1;
};

/**
 * How a sheet frames its subject (issue #39, decision 0085): the box of its opaque pixels over every
 * frame, its larger side as a share of the frame's larger side, the least margin to any edge, the
 * pixels in groups of ≤ 2 detached from the frame's largest group (strays), and how many colour
 * families its colours (lightness ≥ 0.3) fall in: hue bins of 30° (chroma ≥ 0.04) and the greys,
 * each counted from 3 % of the pixels.
 */
export function frameStats(frames: readonly RgbaImage[]): {
  box: [number, number, number, number];
  share: number;
  margin: number;
  strays: number;
  hues: number;
} {
  let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  let strays = 0;
  const bins = new Array<number>(12).fill(0);
  let opaque = 0;
  let greys = 0;
  for (const f of frames) {
    const b = opaqueBox(f);
    if (b.x1 < 0) continue;
    x0 = Math.min(x0, b.x0);
    y0 = Math.min(y0, b.y0);
    x1 = Math.max(x1, b.x1);
    y1 = Math.max(y1, b.y1);
    strays += opaqueGroups(f)
      .filter((n) => n <= 2)
      .reduce((s, n) => s + n, 0);
    for (let i = 0; i < f.data.length; i += 4) {
      if (!f.data[i + 3]) continue;
      opaque++;
      const [L, a, bb] = oklabOf(f.data[i]!, f.data[i + 1]!, f.data[i + 2]!);
      // (outlines and the deepest shadows say nothing of a material)
      if (L < 0.3) continue;
      if (Math.hypot(a, bb) < 0.04) {
        greys++;
        continue;
      }
      bins[Math.floor((((Math.atan2(bb, a) * 180) / Math.PI + 360) % 360) / 30)]!++;
    }
  }
  const { width: w, height: h } = frames[0]!;
  return {
    box: [x0, y0, x1, y1],
    share: Math.max(x1 - x0 + 1, y1 - y0 + 1) / Math.max(w, h),
    margin: Math.min(x0, y0, w - 1 - x1, h - 1 - y1),
    strays,
    hues: bins.filter((n) => n >= opaque * 0.03).length + (greys >= opaque * 0.03 ? 1 : 0),
  };
}

/**
 * The longest straight horizontal colour boundary between rows y0…y1 (issue #39, decision 0125): a
 * run of columns along which one row is one colour and the row under it another, the same two all
 * along (a hard band edge: a sky or the sea in stripes). Transparent pixels count as a colour.
 */
export function longestBandEdge(f: RgbaImage, y0 = 0, y1 = f.height): { run: number; y: number; x: number } {
  const { width: w } = f;
  const d = new Uint32Array(f.data.buffer, f.data.byteOffset, w * f.height);
  let best = { run: 0, y: -1, x: -1 };
  for (let y = Math.max(0, y0); y < Math.min(f.height, y1) - 1; y++) {
    let run = 0;
    for (let x = 0; x < w; x++) {
      const a = d[y * w + x]!;
      const b = d[(y + 1) * w + x]!;
      if (a === b) {
        run = 0;
        continue;
      }
      run = x > 0 && run > 0 && d[y * w + x - 1] === a && d[(y + 1) * w + x - 1] === b ? run + 1 : 1;
      if (run > best.run) best = { run, y, x: x - run + 1 };
    }
  }
  return best;
}
