// Before/after pictures of images in (issue #31, decision 0034), all through runPipeline as a server
// runs it: pixelate (a 1024² picture painted from a licensed vector drawing → a 48 px sprite; an 8×
// pixel-art sprite → its native pixels), palette-from (a knight in the palette of a sunset picture),
// animate-a-sprite (one given sprite, every built-in motion) and inpaint on the real ComfyUI when one
// is installed (its random-weight checkpoint draws noise: the picture shows the mask was honoured).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findDrawings, renderDrawing } from '@assetloom/drawings';
import { runPipeline } from '@assetloom/generator';
import {
  createMemoryStorage,
  decodePng,
  encodePng,
  type ImageInputs,
  type ImageProvider,
  type PipelineRequest,
  type RgbaImage,
} from '@assetloom/pipeline';
import { createComfyUIProvider } from '@assetloom/pipeline/providers';

export interface InputPair {
  path: string;
  width: number;
  height: number;
  note: string;
}

function blank(w: number, h: number, rgb?: [number, number, number]): RgbaImage {
  const data = new Uint8Array(w * h * 4);
  if (rgb) for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return { width: w, height: h, data };
}

/** `src` drawn into `dst` at (x, y), `k` times as large (nearest), over what is there (alpha over). */
function paste(dst: RgbaImage, src: RgbaImage, x0: number, y0: number, k = 1): void {
  for (let y = 0; y < src.height * k; y++) {
    for (let x = 0; x < src.width * k; x++) {
      const tx = x0 + x;
      const ty = y0 + y;
      if (tx < 0 || ty < 0 || tx >= dst.width || ty >= dst.height) continue;
      const s = (Math.floor(y / k) * src.width + Math.floor(x / k)) * 4;
      const o = (ty * dst.width + tx) * 4;
      const a = src.data[s + 3]! / 255;
      for (let c = 0; c < 3; c++)
        dst.data[o + c] = Math.round(src.data[s + c]! * a + dst.data[o + c]! * (1 - a));
      dst.data[o + 3] = Math.max(dst.data[o + 3]!, src.data[s + 3]!);
    }
  }
}

/** A checkerboard where a picture is transparent, as image editors show it. */
function checker(w: number, h: number): RgbaImage {
  const out = blank(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = ((x >> 3) + (y >> 3)) % 2 ? 205 : 240;
      out.data.set([v, v, v, 255], (y * w + x) * 4);
    }
  }
  return out;
}

/** Area-average shrink by a whole factor (for showing a large picture small). */
function shrink(img: RgbaImage, k: number): RgbaImage {
  const w = Math.floor(img.width / k);
  const h = Math.floor(img.height / k);
  const out = blank(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const sum = [0, 0, 0, 0];
      for (let yy = 0; yy < k; yy++)
        for (let xx = 0; xx < k; xx++) {
          const i = ((y * k + yy) * img.width + x * k + xx) * 4;
          for (let c = 0; c < 4; c++) sum[c]! += img.data[i + c]!;
        }
      out.data.set(
        sum.map((v) => Math.round(v / (k * k))),
        (y * w + x) * 4,
      );
    }
  }
  return out;
}

/** A picture as a painter or a camera gives it: the drawing large, over a soft sky gradient, with grain. */
async function painting(id: string, size: number): Promise<RgbaImage> {
  // Fluent Emoji Flat (MIT): flat colour with soft shapes, as an illustration is
  const found =
    findDrawings({ head: id }).find((m) => m.drawing.id.startsWith('f/')) ?? findDrawings({ head: id })[0];
  if (!found) throw new Error(`no drawing of "${id}"`);
  const drawn = await renderDrawing(found.drawing, {
    width: Math.round(size * 0.8),
    height: Math.round(size * 0.8),
  });
  const out = blank(size, size);
  let seed = 11;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = y / size;
      const n = (rnd() - 0.5) * 10;
      // a sky-blue wash darkening towards the bottom (a white subject on white would lose its white)
      out.data.set([150 - t * 30 + n, 196 - t * 26 + n, 232 - t * 20 + n, 255], (y * size + x) * 4);
    }
  }
  const pic: RgbaImage = { width: drawn.width, height: drawn.height, data: new Uint8Array(drawn.data) };
  paste(out, pic, Math.round(size * 0.1), Math.round(size * 0.12));
  return out;
}

async function run(request: Omit<PipelineRequest, 'projectStyle' | 'keyPrefix'>, provider?: ImageProvider) {
  const storage = createMemoryStorage();
  const result = await runPipeline(
    { projectStyle: {}, keyPrefix: 'g/', ...request },
    { storage, ...(provider ? { providers: { image: provider } } : {}) },
  );
  if (!result.ok) throw new Error(`${request.prompt}: ${result.error}`);
  const sheet = result.assets.find((a) => a.key.endsWith('.png') && !a.metadata.layer)!;
  const decoded = decodePng(storage.get(sheet.key)!.bytes);
  if (!decoded.ok) throw new Error(decoded.error);
  return { image: decoded.image, result, sheet };
}

const sprite = (resolution: number, frames = 1, directions = 1) => ({
  resolution,
  format: 'spritesheet' as const,
  frames: { directions: directions as 1, framesPerDirection: frames },
});

async function save(outDir: string, name: string, picture: RgbaImage, note: string): Promise<InputPair> {
  const path = join(outDir, `${name}.png`);
  await writeFile(path, encodePng(picture.data, picture.width, picture.height));
  return { path, width: picture.width, height: picture.height, note };
}

/** A row of panels, each on its checkerboard, `gap` apart. */
function row(panels: RgbaImage[], gap = 16): RgbaImage {
  const h = Math.max(...panels.map((p) => p.height)) + 2 * gap;
  const w = panels.reduce((a, p) => a + p.width + gap, gap);
  const out = blank(w, h, [60, 60, 70]);
  let x = gap;
  for (const p of panels) {
    paste(out, checker(p.width, p.height), x, gap);
    paste(out, p, x, gap);
    x += p.width + gap;
  }
  return out;
}

const enlarge = (img: RgbaImage, k: number) => {
  const out = blank(img.width * k, img.height * k);
  paste(out, img, 0, 0, k);
  return out;
};

export async function writeImageInputs(
  outDir: string,
  options: { comfyui?: { url: string; checkpoint: string } } = {},
): Promise<InputPair[]> {
  await mkdir(outDir, { recursive: true });
  const files: InputPair[] = [];

  // pixelate: a 1024² painting of a fox → a 48 px sprite (backdrop removed), and a 64 px one
  const fox = await painting('fox', 1024);
  const px48 = await run({
    prompt: 'pixelate',
    assetType: 'sprite',
    params: sprite(48),
    inputs: { image: { picture: fox, strength: 0 } },
  });
  const px64 = await run({
    prompt: 'pixelate',
    assetType: 'sprite',
    params: sprite(64),
    inputs: { image: { picture: fox, strength: 0 } },
  });
  files.push(
    await save(
      outDir,
      'input-pixelate-fox',
      row([shrink(fox, 4), enlarge(px48.image, 5), enlarge(px64.image, 4)]),
      'a 1024² painted picture (shown at 256) → 48 px and 64 px sprites, ×5 and ×4',
    ),
  );

  // palette from a picture: a knight drawn in the colours of a sunset painting (8 colours)
  const sunset = await painting('sunset', 256);
  const knight = await run({ prompt: 'a knight', assetType: 'sprite', params: sprite(48) });
  const inSunset = await run({
    prompt: 'a knight',
    assetType: 'sprite',
    params: sprite(48),
    inputs: { paletteFrom: { picture: sunset, maxColors: 8 } },
  });
  files.push(
    await save(
      outDir,
      'input-palette-from',
      row([enlarge(knight.image, 5), sunset, enlarge(inSunset.image, 5)]),
      'a knight → the palette of a sunset picture (8 colours) → the knight in it',
    ),
  );

  // animate a given sprite: the 48 px fox, every built-in motion, 4 frames each
  const given = px48.image;
  const strips: RgbaImage[] = [];
  for (const motion of ['idle', 'breathe', 'squash', 'hurt', 'death', 'spin', 'glow', 'hover']) {
    const sheet = await run({
      prompt: motion,
      assetType: 'animation',
      params: sprite(48, 4),
      inputs: { image: { picture: given, strength: 0 } },
    });
    strips.push(enlarge(sheet.image, 3));
  }
  const motions = blank(
    strips[0]!.width,
    strips.reduce((a, s) => a + s.height + 8, 0),
    [60, 60, 70],
  );
  strips.forEach((s, i) => {
    paste(motions, checker(s.width, s.height), 0, i * (s.height + 8));
    paste(motions, s, 0, i * (s.height + 8));
  });
  files.push(
    await save(
      outDir,
      'input-animate-fox',
      row([enlarge(given, 3), motions]),
      'a given 48 px sprite → idle, breathe, squash, hurt, death, spin, glow, hover (4 frames each, ×3)',
    ),
  );

  // inpaint on the real ComfyUI: the mask (white) is redrawn, the rest kept pixel for pixel
  if (options.comfyui) {
    const { WebSocket } = await import('ws');
    const picture = await painting('fox', 256);
    const mask = blank(256, 256, [0, 0, 0]);
    for (let y = 40; y < 150; y++)
      for (let x = 60; x < 200; x++) mask.data.set([255, 255, 255, 255], (y * 256 + x) * 4);
    const comfy = createComfyUIProvider({
      baseUrl: options.comfyui.url,
      checkpoint: options.comfyui.checkpoint,
      steps: 2,
      maxEdge: 256,
      WebSocket: WebSocket as never,
    });
    const inputs: ImageInputs = { image: { picture, strength: 1 }, mask };
    const drawn = await comfy.generate(
      {
        assetType: 'background',
        prompt: 'a fox',
        userPrompt: 'a fox',
        tags: [],
        style: {},
        resolution: 256,
        width: 256,
        height: 256,
        directions: 1,
        framesPerDirection: 1,
        seed: 7,
        attempt: 0,
        inputs,
      },
      {},
    );
    files.push(
      await save(
        outDir,
        'input-inpaint-comfyui',
        row([picture, mask, drawn.frames[0]!]),
        'picture, mask (white: redraw), the real ComfyUI (random weights: noise) inside the mask only',
      ),
    );
  }
  return files;
}
