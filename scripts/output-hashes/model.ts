/**
 * A deterministic stand-in for an image model (what ComfyUI, AUTOMATIC1111 and OpenAI Images hand
 * back: fat, soft pixels on a backdrop), and the input pictures of the image-input cases. Both are
 * made from a seed only, so the recorded hashes do not depend on any server.
 */
import type { GeneratedAsset, ImageProvider, RgbaImage } from '../../packages/pipeline/src/index.js';

/** mulberry32: a small seeded generator (not the pipeline's, so a change there shows). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COLOURS: Array<[number, number, number]> = [
  [172, 50, 50],
  [63, 63, 116],
  [238, 195, 154],
  [55, 148, 110],
  [223, 113, 38],
  [91, 110, 225],
  [106, 190, 48],
  [143, 86, 59],
];

/**
 * A native picture `w`×`h`: a blob figure of 2–3 colours with an outline on transparency
 * (`opaque` false), or blotches of two colours filling it (`opaque` true).
 */
function native(w: number, h: number, seed: number, opaque: boolean, step = 0, large = false): RgbaImage {
  const rnd = random(seed);
  const data = new Uint8Array(w * h * 4);
  const first = Math.floor(rnd() * COLOURS.length);
  const a = COLOURS[first]!;
  const b = COLOURS[(first + 1 + Math.floor(rnd() * (COLOURS.length - 1))) % COLOURS.length]!;
  // a frame's step moves the figure (a cycle that moves)
  const cx = w / 2 + (rnd() - 0.5) * w * 0.1 + (step % 2) * Math.max(1, w / 16);
  const cy = h / 2 + (rnd() - 0.5) * h * 0.1 - (step % 2) * Math.max(1, h / 16);
  const rx = w * ((large ? 0.42 : 0.25) + rnd() * 0.05);
  const ry = h * ((large ? 0.42 : 0.3) + rnd() * 0.05);
  const blots = Array.from({ length: 6 }, () => [rnd() * w, rnd() * h, 1 + rnd() * w * 0.2] as const);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const inBlot = blots.some(([bx, by, r]) => (x - bx) ** 2 + (y - by) ** 2 < r * r);
      if (opaque) {
        data.set([...(inBlot ? b : a), 255], o);
        continue;
      }
      const d = ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2;
      if (d > 1) continue;
      const c: [number, number, number] = d > 0.75 ? [34, 32, 52] : inBlot ? b : a;
      data.set([...c, 255], o);
    }
  return { width: w, height: h, data };
}

/**
 * Upscaled by `scale` with ±`jitter` noise, on a white backdrop (a model's picture of native
 * pixels) or, `clear`, on transparency (an artist's sprite drawn large).
 */
function upscale(img: RgbaImage, scale: number, seed: number, jitter: number, clear = false): RgbaImage {
  const rnd = random(seed ^ 0x9e3779b9);
  const w = img.width * scale;
  const h = img.height * scale;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (Math.floor(y / scale) * img.width + Math.floor(x / scale)) * 4;
      const o = (y * w + x) * 4;
      const backdrop = img.data[i + 3]! < 128;
      if (backdrop && clear) continue;
      for (let k = 0; k < 3; k++) {
        const c = backdrop ? 255 : img.data[i + k]!;
        data[o + k] = Math.max(0, Math.min(255, c + Math.round((rnd() - 0.5) * 2 * jitter)));
      }
      data[o + 3] = 255;
    }
  return { width: w, height: h, data };
}

/** What the stand-in model draws for one request: one picture per frame, or per terrain. */
function pictures(request: Parameters<ImageProvider['generate']>[0]): RgbaImage[] {
  const w = request.width ?? request.resolution;
  const h = request.height ?? request.resolution;
  if (request.assetType === 'tileset') {
    const terrains = request.tileset?.kind === 'seamless' ? 1 : 2;
    return Array.from({ length: terrains }, (_, i) =>
      upscale(native(32, 32, request.seed + i, true), 4, request.seed, 4),
    );
  }
  const opaque = request.assetType === 'background';
  const ui = request.assetType === 'ui';
  const count = ui ? 4 : request.directions * request.framesPerDirection;
  return Array.from({ length: count }, (_, i) =>
    upscale(native(w, h, request.seed, opaque, i, ui), 4, request.seed + i, 6),
  );
}

export function createStandInModel(): ImageProvider {
  return {
    name: 'stand-in-model',
    kind: 'model',
    async generate(request): Promise<GeneratedAsset> {
      return { frames: pictures(request), animation: request.assetType === 'ui' ? 'button' : 'idle' };
    },
  };
}

/**
 * A 128 px picture of a 32 px figure on transparency, or of an opaque texture (fat pixels, light
 * noise): `params.image` or `paletteFrom`.
 */
export function inputPicture(seed: number, opaque = false): RgbaImage {
  return upscale(native(32, 32, seed, opaque), 4, seed, 3, !opaque);
}
