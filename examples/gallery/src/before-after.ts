// Before/after pictures of pixelize: a model-like picture made from real pixel art this project did
// not draw (CC0 Dungeon Crawl tiles of Debian's crawl-tiles-data), beside what pixelize makes of
// it and the original sprite. The picture is degraded as the pixelize bench does it
// (packages/pipeline/bench/pixel-corpus.ts): upscaled by a fractional scale at a random offset on a
// flat backdrop, cell edges blurred slightly, Gaussian noise σ = 6, 8×8 DCT quantization (JPEG-like,
// quality 80).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodePng, encodePng, type RgbaImage } from '@assetloom/pipeline';
import { pixelize } from '@assetloom/pipeline/pixel';

export const CRAWL_TILES = process.env.CRAWL_TILES ?? '/usr/share/crawl/dat/tiles/main.png';
const TILE = 32;

/** Which tiles (index in the atlas walk below), at which scale, on which backdrop. */
export const BEFORE_AFTER: ReadonlyArray<{
  name: string;
  pick: number;
  scale: number;
  backdrop: [number, number, number];
  palette?: 'sweetie16';
}> = [
  { name: 'pixelize-7.5x', pick: 3, scale: 7.5, backdrop: [255, 255, 255] },
  { name: 'pixelize-6x', pick: 11, scale: 6, backdrop: [238, 226, 200] },
  { name: 'pixelize-4x', pick: 20, scale: 4, backdrop: [0, 177, 64] },
  { name: 'pixelize-12x-sweetie16', pick: 27, scale: 12, backdrop: [255, 255, 255], palette: 'sweetie16' },
];

export interface BeforeAfterFile {
  path: string;
  width: number;
  height: number;
  /** What pixelize found: the scale and the number of colours. */
  scale: number;
  colors: number;
  /** Share of the sprite's pixels pixelize got right (alpha, and each channel within ±12). */
  right: number;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Whole pixel-art sprites of the atlas. Crawl's atlases pack trimmed tiles, off any 32 px grid, so
 * sprites are found as connected opaque areas (8-neighbours) whose box is 14–32 px on each side,
 * with 4–32 colours, binary alpha; each is centred in a 32 × 32 tile. In atlas order.
 */
function sprites(atlas: RgbaImage, limit: number): RgbaImage[] {
  const { width: w, height: h, data: d } = atlas;
  const seen = new Uint8Array(w * h);
  const out: RgbaImage[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h && out.length < limit; start++) {
    if (seen[start] || d[start * 4 + 3]! < 128) continue;
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    let partial = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          const a = d[q * 4 + 3]!;
          if (a > 0 && a < 255) partial++;
          if (seen[q] || a < 128) continue;
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    if (bw < 14 || bh < 14 || bw > TILE || bh > TILE || partial > 8) continue;
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
    out.push({ width: TILE, height: TILE, data });
  }
  return out;
}

/** The sprite as a model would paint it (see the file comment); returns the picture and its grid. */
export function modelLike(
  sprite: RgbaImage,
  scale: number,
  backdrop: readonly [number, number, number],
  seed: number,
): { picture: RgbaImage; offset: { x: number; y: number }; pad: number } {
  const rand = rng(seed);
  const pad = 4;
  const ox = -rand() * scale;
  const oy = -rand() * scale;
  const native = TILE + pad * 2;
  const size = Math.ceil((native * scale + ox) / 8) * 8; // whole 8×8 blocks
  const n = size * size;
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let y = 0; y < size; y++) {
    const cy = Math.floor((y + 0.5 - oy) / scale) - pad;
    for (let x = 0; x < size; x++) {
      const cx = Math.floor((x + 0.5 - ox) / scale) - pad;
      const inside = cx >= 0 && cy >= 0 && cx < TILE && cy < TILE;
      const i = (cy * TILE + cx) * 4;
      const on = inside && sprite.data[i + 3]! >= 128;
      for (let c = 0; c < 3; c++) planes[c]![y * size + x] = on ? sprite.data[i + c]! : backdrop[c]!;
    }
  }
  for (const pl of planes) blur121(pl, size);
  for (const pl of planes) {
    for (let p = 0; p < n; p++) {
      const u = Math.max(1e-12, rand());
      pl[p]! += 6 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
    }
  }
  jpegLike(planes, size, 80);
  const data = new Uint8Array(n * 4);
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < 3; c++) data[p * 4 + c] = Math.max(0, Math.min(255, Math.round(planes[c]![p]!)));
    data[p * 4 + 3] = 255;
  }
  return { picture: { width: size, height: size, data }, offset: { x: ox, y: oy }, pad };
}

function blur121(pl: Float32Array, size: number): void {
  const tmp = new Float32Array(pl.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = y * size + x;
      tmp[p] = ((x > 0 ? pl[p - 1]! : pl[p]!) + 2 * pl[p]! + (x < size - 1 ? pl[p + 1]! : pl[p]!)) / 4;
    }
  }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = y * size + x;
      pl[p] =
        ((y > 0 ? tmp[p - size]! : tmp[p]!) + 2 * tmp[p]! + (y < size - 1 ? tmp[p + size]! : tmp[p]!)) / 4;
    }
  }
}

// IJG base tables (luma, chroma), scaled for the quality as libjpeg does
const LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA = [
  17,
  18,
  24,
  47,
  99,
  99,
  99,
  99,
  18,
  21,
  26,
  66,
  99,
  99,
  99,
  99,
  24,
  26,
  56,
  99,
  99,
  99,
  99,
  99,
  47,
  66,
  99,
  ...new Array<number>(64 - 27).fill(99),
];

function jpegLike(planes: Float32Array[], size: number, quality: number): void {
  const f = quality < 50 ? 5000 / quality : 200 - quality * 2;
  const table = (base: number[]) => base.map((v) => Math.max(1, Math.floor((v * f + 50) / 100)));
  const ql = table(LUMA);
  const qc = table(CHROMA);
  const cos = new Float64Array(64);
  for (let x = 0; x < 8; x++)
    for (let u = 0; u < 8; u++)
      cos[x * 8 + u] = Math.cos(((2 * x + 1) * u * Math.PI) / 16) * (u === 0 ? Math.SQRT1_2 : 1) * 0.5;
  const n = size * size;
  const [R, G, B] = planes as [Float32Array, Float32Array, Float32Array];
  const Y = new Float32Array(n);
  const Cb = new Float32Array(n);
  const Cr = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    Y[p] = 0.299 * R[p]! + 0.587 * G[p]! + 0.114 * B[p]! - 128;
    Cb[p] = -0.168736 * R[p]! - 0.331264 * G[p]! + 0.5 * B[p]!;
    Cr[p] = 0.5 * R[p]! - 0.418688 * G[p]! - 0.081312 * B[p]!;
  }
  const blk = new Float64Array(64);
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
          for (let x = 0; x < 8; x++) blk[y * 8 + x] = pl[(by + y) * size + bx + x]!;
        for (let y = 0; y < 8; y++)
          for (let u = 0; u < 8; u++) {
            let s = 0;
            for (let x = 0; x < 8; x++) s += blk[y * 8 + x]! * cos[x * 8 + u]!;
            tmp[y * 8 + u] = s;
          }
        for (let u = 0; u < 8; u++)
          for (let v = 0; v < 8; v++) {
            let s = 0;
            for (let y = 0; y < 8; y++) s += tmp[y * 8 + u]! * cos[y * 8 + v]!;
            coef[v * 8 + u] = Math.round(s / q[v * 8 + u]!) * q[v * 8 + u]!;
          }
        for (let v = 0; v < 8; v++)
          for (let x = 0; x < 8; x++) {
            let s = 0;
            for (let u = 0; u < 8; u++) s += coef[v * 8 + u]! * cos[x * 8 + u]!;
            tmp[v * 8 + x] = s;
          }
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 8; x++) {
            let s = 0;
            for (let v = 0; v < 8; v++) s += tmp[v * 8 + x]! * cos[y * 8 + v]!;
            pl[(by + y) * size + bx + x] = s;
          }
      }
    }
  }
  for (let p = 0; p < n; p++) {
    const y = Y[p]! + 128;
    R[p] = y + 1.402 * Cr[p]!;
    G[p] = y - 0.344136 * Cb[p]! - 0.714136 * Cr[p]!;
    B[p] = y + 1.772 * Cb[p]!;
  }
}

function padded(sprite: RgbaImage, pad: number): RgbaImage {
  const w = sprite.width + pad * 2;
  const data = new Uint8Array(w * w * 4);
  for (let y = 0; y < sprite.height; y++)
    data.set(
      sprite.data.subarray(y * sprite.width * 4, (y + 1) * sprite.width * 4),
      ((y + pad) * w + pad) * 4,
    );
  return { width: w, height: sprite.height + pad * 2, data };
}

/** Three panels side by side, each `panel` px square, on a checkerboard where alpha is 0. */
function compose(panels: Array<{ image: RgbaImage; zoom: number }>, panel: number): RgbaImage {
  const gap = 8;
  const width = panels.length * panel + (panels.length + 1) * gap;
  const height = panel + 2 * gap;
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) data.set([40, 44, 52, 255], p * 4);
  panels.forEach(({ image, zoom }, k) => {
    const x0 = gap + k * (panel + gap);
    const w = Math.min(panel, image.width * zoom);
    const h = Math.min(panel, image.height * zoom);
    const dx = x0 + Math.floor((panel - w) / 2);
    const dy = gap + Math.floor((panel - h) / 2);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const s = (Math.floor(y / zoom) * image.width + Math.floor(x / zoom)) * 4;
        const o = ((dy + y) * width + dx + x) * 4;
        if (image.data[s + 3]! >= 128)
          data.set([image.data[s]!, image.data[s + 1]!, image.data[s + 2]!, 255], o);
        else {
          const light = (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === 0;
          data.set(light ? [204, 204, 204, 255] : [153, 153, 153, 255], o);
        }
      }
    }
  });
  return { width, height, data };
}

/**
 * Writes `out/<name>.png` for every entry of {@link BEFORE_AFTER}: the model-like picture, pixelize's
 * result enlarged by whole pixels to the same size, and the original sprite at the same size.
 * Returns [] when the corpus is not installed (`apt-get install crawl-tiles-data`).
 */
export async function writeBeforeAfter(outDir: string, atlasPath = CRAWL_TILES): Promise<BeforeAfterFile[]> {
  if (!existsSync(atlasPath)) return [];
  const atlas = decodePng(new Uint8Array(await readFile(atlasPath)));
  if (!atlas.ok) throw new Error(`cannot read ${atlasPath}: ${atlas.error}`);
  const pool = sprites(atlas.image, 200);
  await mkdir(outDir, { recursive: true });
  const { NAMED_PALETTES } = await import('@assetloom/pipeline');
  const files: BeforeAfterFile[] = [];
  for (const [i, entry] of BEFORE_AFTER.entries()) {
    const sprite = pool[entry.pick % pool.length]!;
    const { picture, offset, pad } = modelLike(sprite, entry.scale, entry.backdrop, 4242 + i);
    const palette = entry.palette ? NAMED_PALETTES[entry.palette] : undefined;
    const r = pixelize(picture, palette ? { palette } : {});
    // score against the original through the grid pixelize found
    let right = 0;
    for (let y = 0; y < TILE; y++) {
      for (let x = 0; x < TILE; x++) {
        const rx = Math.floor((offset.x + (x + pad + 0.5) * entry.scale - r.offset.x) / r.scale);
        const ry = Math.floor((offset.y + (y + pad + 0.5) * entry.scale - r.offset.y) / r.scale);
        const t = (y * TILE + x) * 4;
        const g = (ry * r.image.width + rx) * 4;
        const inside = rx >= 0 && ry >= 0 && rx < r.image.width && ry < r.image.height;
        const to = sprite.data[t + 3]! >= 128;
        const go = inside && r.image.data[g + 3]! >= 128;
        if (to !== go) continue;
        if (!to || [0, 1, 2].every((c) => Math.abs(sprite.data[t + c]! - r.image.data[g + c]!) <= 12))
          right++;
      }
    }
    const panel = picture.width;
    const zoom = Math.max(1, Math.floor(panel / r.image.width));
    const sheet = compose(
      [
        { image: picture, zoom: 1 },
        { image: r.image, zoom },
        { image: padded(sprite, pad), zoom: Math.max(1, Math.floor(panel / (TILE + pad * 2))) },
      ],
      panel,
    );
    const path = join(outDir, `${entry.name}.png`);
    await writeFile(path, encodePng(sheet.data, sheet.width, sheet.height));
    files.push({
      path,
      width: sheet.width,
      height: sheet.height,
      scale: r.scale,
      colors: r.palette.length,
      right: right / (TILE * TILE),
    });
  }
  return files;
}
