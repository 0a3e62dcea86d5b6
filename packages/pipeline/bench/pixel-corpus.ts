// The pixelize corpus, built at run time from real pixel art this project did not draw: the
// Dungeon Crawl Stone Soup tiles of Debian's `crawl-tiles-data` package (whole sprites of
// /usr/share/crawl/dat/tiles/main.png, most released by their artists under CC0; see
// docs/decisions/0015-pixelize-and-model-providers.md). Each picture imitates what an image model
// sends back: sprites upscaled by s with a random offset on a flat backdrop, cell edges blurred
// slightly, Gaussian noise σ = 6, and 8×8 DCT quantization (JPEG-like, quality 80, 4:4:4).
import { existsSync, readFileSync } from 'node:fs';
import { decodePng } from '../src/png.js';
import type { RgbaImage } from '../src/types/index.js';

export const CRAWL_TILES = process.env.CRAWL_TILES ?? '/usr/share/crawl/dat/tiles/main.png';
export const TILE = 32;

export function corpusAvailable(): boolean {
  return existsSync(CRAWL_TILES);
}

/**
 * Whether the corpus tests run: yes when the atlas is there; on a developer machine without it
 * they are skipped; in CI (CI set) a missing atlas is an error naming the step that installs it,
 * so the accuracy floor is never skipped silently where it must hold.
 */
export function corpusStatus(
  env: Record<string, string | undefined> = process.env,
  atlas: string = CRAWL_TILES,
): { run: boolean; error?: string } {
  if (existsSync(atlas)) return { run: true };
  if (env.CI && env.CI !== 'false' && env.CI !== '0') {
    return {
      run: true,
      error: `the pixelize corpus ${atlas} is missing in CI: run \`bash scripts/bootstrap.sh --test\` as root (it installs Debian's crawl-tiles-data), or set CRAWL_TILES to the atlas`,
    };
  }
  return { run: false };
}

/** A deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gauss(rand: () => number): number {
  const u = Math.max(1e-12, rand());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * Whole sprites of the atlas. Crawl's atlases pack trimmed tiles of different sizes, off any
 * 32 px grid (a 32 × 32 cut is often parts of two or three tiles), so a sprite is a connected
 * opaque area (8-neighbours) whose box is 14–32 px on each side, centred in a 32 × 32 tile. Kept:
 * 15–75 % of its box opaque, nearly binary alpha, 4–32 colours (shaded tiles of 100+ colours are
 * paintings a 32-colour result cannot match). Alpha is made binary (≥ 128 → 255) so the truth is
 * well defined. Spread over the atlas (its many artists and kinds) by taking every k-th one.
 */
export function loadSprites(limit = 48): RgbaImage[] {
  const decoded = decodePng(new Uint8Array(readFileSync(CRAWL_TILES)));
  if (!decoded.ok) throw new Error(`cannot read ${CRAWL_TILES}: ${decoded.error}`);
  const { width: w, height: h, data: d } = decoded.image;
  const seen = new Uint8Array(w * h);
  const all: RgbaImage[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || d[start * 4 + 3]! < 128) continue;
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    let opaque = 0;
    let partial = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      opaque++;
      const x = p % w;
      const y = (p - x) / w;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          const a = d[q * 4 + 3]!;
          if (a > 0 && a < 255 && !seen[q]) partial++;
          if (seen[q] || a < 128) continue;
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    if (bw < 14 || bh < 14 || bw > TILE || bh > TILE || partial > 8) continue;
    const cov = opaque / (bw * bh);
    if (cov < 0.15 || cov > 0.75) continue;
    const data = new Uint8Array(TILE * TILE * 4);
    const colours = new Set<number>();
    const ox = Math.floor((TILE - bw) / 2);
    const oy = Math.floor((TILE - bh) / 2);
    for (let y = 0; y < bh; y++) {
      for (let x = 0; x < bw; x++) {
        const s = ((y0 + y) * w + x0 + x) * 4;
        if (d[s + 3]! < 128) continue;
        data.set([d[s]!, d[s + 1]!, d[s + 2]!, 255], ((oy + y) * TILE + ox + x) * 4);
        colours.add((d[s]! << 16) | (d[s + 1]! << 8) | d[s + 2]!);
      }
    }
    if (colours.size < 4 || colours.size > 32) continue;
    all.push({ width: TILE, height: TILE, data });
  }
  if (all.length <= limit) return all;
  const out: RgbaImage[] = [];
  for (let k = 0; k < limit; k++) out.push(all[Math.floor((k * all.length) / limit)]!);
  return out;
}

const BACKDROPS: ReadonlyArray<readonly [number, number, number]> = [
  [255, 255, 255],
  [236, 236, 236],
  [255, 0, 255],
  [0, 177, 64],
  [40, 44, 52],
  [238, 226, 200],
];

export interface CorpusImage {
  /** The degraded picture (what a model would send). */
  image: RgbaImage;
  /** The native canvas the picture was made from (transparent backdrop). */
  truth: RgbaImage;
  /** Regions of the truth (in native cells) that hold sprites: [x, y, w, h]. */
  regions: Array<[number, number, number, number]>;
  scale: number;
  /** Input position of the left/top edge of truth cell (0, 0). */
  offset: { x: number; y: number };
}

/**
 * Lays out a sheet of one sprite (as a model draws a character sheet: the sprite and its mirror
 * image, alternating, 2 cells apart and 3 from the edge) on a native canvas, upscales it by `scale`
 * into a `size`² picture whose grid starts at a random offset, paints a backdrop far from the
 * sprites' colours, blurs slightly, adds noise σ = 6 and applies 8×8 DCT quantization (q = 80).
 */
export function makeCorpusImage(
  sprites: readonly RgbaImage[],
  which: number,
  scale: number,
  seed: number,
  size = 1024,
): CorpusImage {
  const rand = rng(seed);
  const ox = -rand() * scale; // truth cell 0 starts left of the picture's edge (cut by it)
  const oy = -rand() * scale;
  const nw = Math.ceil((size - ox) / scale);
  const nh = Math.ceil((size - oy) / scale);
  const truth = new Uint8Array(nw * nh * 4);
  const per = Math.max(1, Math.floor((Math.min(nw, nh) - 4) / (TILE + 2)));
  const regions: CorpusImage['regions'] = [];
  const sp = sprites[which % sprites.length]!;
  let k = 0;
  const used = new Set<number>();
  for (let gy = 0; gy < per; gy++) {
    for (let gx = 0; gx < per; gx++) {
      const mirror = k++ % 2 === 1;
      const x0 = 3 + gx * (TILE + 2);
      const y0 = 3 + gy * (TILE + 2);
      regions.push([x0, y0, TILE, TILE]);
      for (let y = 0; y < TILE; y++) {
        for (let x = 0; x < TILE; x++) {
          const s = (y * TILE + (mirror ? TILE - 1 - x : x)) * 4;
          if (sp.data[s + 3]! < 128) continue;
          const o = ((y0 + y) * nw + x0 + x) * 4;
          truth.set(sp.data.subarray(s, s + 4), o);
          used.add((sp.data[s]! << 16) | (sp.data[s + 1]! << 8) | sp.data[s + 2]!);
        }
      }
    }
  }
  // backdrop: the candidate farthest from every sprite colour
  let back = BACKDROPS[0]!;
  let backD = -1;
  for (const b of BACKDROPS) {
    let m = Number.POSITIVE_INFINITY;
    for (const c of used) {
      const d =
        Math.abs(((c >> 16) & 255) - b[0]) + Math.abs(((c >> 8) & 255) - b[1]) + Math.abs((c & 255) - b[2]);
      if (d < m) m = d;
    }
    if (m > backD) {
      backD = m;
      back = b;
    }
  }
  // upscale (pixel centre → cell), floating point for the filters
  const n = size * size;
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let y = 0; y < size; y++) {
    const cy = Math.min(nh - 1, Math.floor((y + 0.5 - oy) / scale));
    for (let x = 0; x < size; x++) {
      const cx = Math.min(nw - 1, Math.floor((x + 0.5 - ox) / scale));
      const t = (cy * nw + cx) * 4;
      const p = y * size + x;
      const opaque = truth[t + 3]! >= 128;
      for (let c = 0; c < 3; c++) planes[c]![p] = opaque ? truth[t + c]! : back[c]!;
    }
  }
  // slight blur of the cell edges: separable [1 2 1]/4 (σ ≈ 0.7 px)
  for (const pl of planes) blur121(pl, size);
  // Gaussian noise σ = 6
  for (const pl of planes) for (let p = 0; p < n; p++) pl[p]! += 6 * gauss(rand);
  jpegLike(planes, size, 80);
  const data = new Uint8Array(n * 4);
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < 3; c++) data[p * 4 + c] = Math.max(0, Math.min(255, Math.round(planes[c]![p]!)));
    data[p * 4 + 3] = 255;
  }
  return {
    image: { width: size, height: size, data },
    truth: { width: nw, height: nh, data: truth },
    regions,
    scale,
    offset: { x: ox, y: oy },
  };
}

function blur121(pl: Float32Array, size: number): void {
  const tmp = new Float32Array(pl.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = y * size + x;
      const l = x > 0 ? pl[p - 1]! : pl[p]!;
      const r = x < size - 1 ? pl[p + 1]! : pl[p]!;
      tmp[p] = (l + 2 * pl[p]! + r) / 4;
    }
  }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = y * size + x;
      const u = y > 0 ? tmp[p - size]! : tmp[p]!;
      const d = y < size - 1 ? tmp[p + size]! : tmp[p]!;
      pl[p] = (u + 2 * tmp[p]! + d) / 4;
    }
  }
}

const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];
const COS = (() => {
  const t = new Float64Array(64);
  for (let x = 0; x < 8; x++) {
    for (let u = 0; u < 8; u++)
      t[x * 8 + u] = Math.cos(((2 * x + 1) * u * Math.PI) / 16) * (u === 0 ? Math.SQRT1_2 : 1) * 0.5;
  }
  return t;
})();

/** RGB → YCbCr, 8×8 DCT, quantization with the IJG tables scaled for `quality`, and back. */
export function jpegLike(planes: Float32Array[], size: number, quality: number): void {
  const f = quality < 50 ? 5000 / quality : 200 - quality * 2;
  const qt = (base: number[]) => base.map((v) => Math.max(1, Math.floor((v * f + 50) / 100)));
  const ql = qt(LUMA_Q);
  const qc = qt(CHROMA_Q);
  const n = size * size;
  const [R, G, B] = planes as [Float32Array, Float32Array, Float32Array];
  const Y = new Float32Array(n);
  const Cb = new Float32Array(n);
  const Cr = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    const r = R[p]!;
    const g = G[p]!;
    const b = B[p]!;
    Y[p] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
    Cb[p] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    Cr[p] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  const block = new Float64Array(64);
  const tmp = new Float64Array(64);
  const coef = new Float64Array(64);
  for (const [pl, q] of [
    [Y, ql],
    [Cb, qc],
    [Cr, qc],
  ] as Array<[Float32Array, number[]]>) {
    for (let by = 0; by + 8 <= size; by += 8) {
      for (let bx = 0; bx + 8 <= size; bx += 8) {
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 8; x++) block[y * 8 + x] = pl[(by + y) * size + bx + x]!;
        // forward: rows then columns
        for (let y = 0; y < 8; y++) {
          for (let u = 0; u < 8; u++) {
            let s = 0;
            for (let x = 0; x < 8; x++) s += block[y * 8 + x]! * COS[x * 8 + u]!;
            tmp[y * 8 + u] = s;
          }
        }
        for (let u = 0; u < 8; u++) {
          for (let v = 0; v < 8; v++) {
            let s = 0;
            for (let y = 0; y < 8; y++) s += tmp[y * 8 + u]! * COS[y * 8 + v]!;
            const k = v * 8 + u;
            coef[k] = Math.round(s / q[k]!) * q[k]!;
          }
        }
        // inverse
        for (let v = 0; v < 8; v++) {
          for (let x = 0; x < 8; x++) {
            let s = 0;
            for (let u = 0; u < 8; u++) s += coef[v * 8 + u]! * COS[x * 8 + u]!;
            tmp[v * 8 + x] = s;
          }
        }
        for (let y = 0; y < 8; y++) {
          for (let x = 0; x < 8; x++) {
            let s = 0;
            for (let v = 0; v < 8; v++) s += tmp[v * 8 + x]! * COS[y * 8 + v]!;
            pl[(by + y) * size + bx + x] = s;
          }
        }
      }
    }
  }
  for (let p = 0; p < n; p++) {
    const y = Y[p]! + 128;
    const cb = Cb[p]!;
    const cr = Cr[p]!;
    R[p] = y + 1.402 * cr;
    G[p] = y - 0.344136 * cb - 0.714136 * cr;
    B[p] = y + 1.772 * cb;
  }
}

/**
 * Share of right pixels: over the sprite regions of the truth, a recovered pixel is right when
 * its alpha mask matches and each channel is within ±12. The recovered image is read through its
 * own grid (scale and offset), so a wrong grid costs what it costs.
 */
export function scoreRecovery(
  c: CorpusImage,
  recovered: RgbaImage,
  grid: { scale: number; offset: { x: number; y: number } },
): { right: number; total: number } {
  let right = 0;
  let total = 0;
  const t = c.truth;
  for (const [x0, y0, w, h] of c.regions) {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        total++;
        const ti = (y * t.width + x) * 4;
        const cxIn = c.offset.x + (x + 0.5) * c.scale;
        const cyIn = c.offset.y + (y + 0.5) * c.scale;
        const rx = Math.floor((cxIn - grid.offset.x) / grid.scale);
        const ry = Math.floor((cyIn - grid.offset.y) / grid.scale);
        if (rx < 0 || ry < 0 || rx >= recovered.width || ry >= recovered.height) continue;
        const ri = (ry * recovered.width + rx) * 4;
        const to = t.data[ti + 3]! >= 128;
        const ro = recovered.data[ri + 3]! >= 128;
        if (to !== ro) continue;
        if (
          !to ||
          (Math.abs(t.data[ti]! - recovered.data[ri]!) <= 12 &&
            Math.abs(t.data[ti + 1]! - recovered.data[ri + 1]!) <= 12 &&
            Math.abs(t.data[ti + 2]! - recovered.data[ri + 2]!) <= 12)
        ) {
          right++;
        }
      }
    }
  }
  return { right, total };
}
