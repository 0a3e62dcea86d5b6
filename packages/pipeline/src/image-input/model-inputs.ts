import { encodePng } from '../png.js';
import type { ProviderImageInputs, RgbaImage } from '../types/index.js';
import {
  blank,
  compositeMasked,
  cropPicture,
  flatten,
  maskBits,
  resampleArea,
  resampleNearest,
} from './picture.js';

/** The pictures a model is sent, laid out as the sheet it is asked to draw (decision 0034). */
export interface ModelPictures {
  /** The picture to start from, `width × height` (the sheet's), opaque over white. */
  init: RgbaImage;
  /** White where to edit, black elsewhere, the same layout; absent without a mask. */
  mask?: RgbaImage;
  /** Reference pictures, at most 1024 px a side, opaque over white. */
  references: RgbaImage[];
}

const WHITE = [255, 255, 255] as const;

/** `img` fitted into `w × h` (aspect kept, centred) over transparency. */
function fitInto(img: RgbaImage, w: number, h: number, nearest: boolean): RgbaImage {
  const f = Math.min(w / img.width, h / img.height);
  const sw = Math.max(1, Math.round(img.width * f));
  const sh = Math.max(1, Math.round(img.height * f));
  const scaled = nearest || f > 1 ? resampleNearest(img, sw, sh) : resampleArea(img, sw, sh);
  return cropPicture(scaled, -Math.floor((w - sw) / 2), -Math.floor((h - sh) / 2), w, h);
}

/**
 * Lays a picture out as the sheet a model draws (`cols × rows` cells in a `width × height`
 * picture): a picture of the sheet's shape (within 10 %) is the sheet, scaled to it; any other is
 * one view, fitted into every cell (an animation started from its first frame). The mask follows the
 * same layout, so both stay aligned.
 */
function layOut(
  picture: RgbaImage,
  plan: { width: number; height: number; cols: number; rows: number },
  nearest = false,
): RgbaImage {
  const sheetAspect = plan.width / plan.height;
  const aspect = picture.width / picture.height;
  if (plan.cols * plan.rows === 1 || Math.abs(aspect / sheetAspect - 1) <= 0.1) {
    return fitInto(picture, plan.width, plan.height, nearest);
  }
  const cw = Math.floor(plan.width / plan.cols);
  const ch = Math.floor(plan.height / plan.rows);
  const cell = fitInto(picture, cw, ch, nearest);
  const out = blank(plan.width, plan.height);
  for (let r = 0; r < plan.rows; r++) {
    for (let c = 0; c < plan.cols; c++) {
      for (let y = 0; y < ch; y++)
        out.data.set(
          cell.data.subarray(y * cw * 4, (y + 1) * cw * 4),
          ((r * ch + y) * plan.width + c * cw) * 4,
        );
    }
  }
  return out;
}

/** The pictures of a request's inputs for a model, at the sheet's layout. */
export function modelPictures(
  inputs: ProviderImageInputs | undefined,
  plan: { width: number; height: number; cols: number; rows: number },
): ModelPictures | null {
  if (!inputs?.image && !inputs?.references?.length) return null;
  const references = (inputs.references ?? []).map((r) => {
    const f = Math.min(1, 1024 / Math.max(r.width, r.height));
    const small = f < 1 ? resampleArea(r, Math.round(r.width * f), Math.round(r.height * f)) : r;
    return flatten(small, WHITE);
  });
  if (!inputs.image) return { init: blank(plan.width, plan.height), references };
  const init = flatten(layOut(inputs.image.picture, plan), WHITE);
  if (!inputs.mask) return { init, references };
  const laid = layOut(inputs.mask, plan, true);
  const bits = maskBits(laid);
  const mask = blank(plan.width, plan.height);
  for (let p = 0; p < bits.length; p++) mask.data.set(bits[p] ? [255, 255, 255, 255] : [0, 0, 0, 255], p * 4);
  return { init, mask, references };
}

/**
 * What the model drew, kept only where the mask is white: elsewhere the picture it started from,
 * pixel for pixel (a model's VAE never gives back the exact pixels it was given). Resized to the
 * sheet first when the model answered another size.
 */
export function keepOutsideMask(picture: RgbaImage, pictures: ModelPictures): RgbaImage {
  if (!pictures.mask) return picture;
  const { width, height } = pictures.init;
  const drawn =
    picture.width === width && picture.height === height ? picture : resampleArea(picture, width, height);
  return compositeMasked(pictures.init, drawn, pictures.mask);
}

/** A picture as PNG bytes. */
export function pngBytes(img: RgbaImage): Uint8Array {
  return encodePng(img.data, img.width, img.height);
}

/** A mask as OpenAI's edits take it: transparent where to edit, opaque elsewhere. */
export function alphaMask(mask: RgbaImage): RgbaImage {
  const bits = maskBits(mask);
  const out = blank(mask.width, mask.height);
  for (let p = 0; p < bits.length; p++) out.data.set(bits[p] ? [0, 0, 0, 0] : [0, 0, 0, 255], p * 4);
  return out;
}

/** Base64 of bytes (browser-safe). */
export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
