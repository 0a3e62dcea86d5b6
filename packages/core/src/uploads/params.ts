import { assetApiDocument } from '@assetloom/openapi';
import { errors } from '../errors.js';
import type { AssetType, GenerateParamsInput, TaskParams } from '../types.js';

type Schema = { default?: unknown; properties?: Record<string, Schema> };
const schemas = assetApiDocument.components.schemas as Record<string, Schema>;

function contractNumber(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`[assetloom/core] the contract states no usable default for ${where}`);
  }
  return value;
}

/** The defaults of the image inputs (the contract's `ImageInput`, `PaletteFrom`), read once. */
export const IMAGE_INPUT_DEFAULTS: Readonly<{ strength: number; maxColors: number }> = Object.freeze({
  strength: contractNumber(schemas.ImageInput?.properties?.strength?.default, 'ImageInput.strength'),
  maxColors: contractNumber(schemas.PaletteFrom?.properties?.maxColors?.default, 'PaletteFrom.maxColors'),
});

/** The frames a sprite or animation started from a picture gets when the request names none. */
export const IMAGE_FRAMES = {
  sprite: { directions: 1, framesPerDirection: 1 },
  animation: { directions: 1, framesPerDirection: 4 },
} as const;

/** The words of each problem an image input can have, in both languages. */
const PROBLEMS = {
  uploadId: ['必须是上传的 id', 'must be an upload id'],
  strength: ['必须是 0 到 1 之间的数', 'must be a number from 0 to 1'],
  maskNeedsImage: ['需要 params.image（要编辑的图片）', 'needs params.image (the picture to edit)'],
  maskNeedsStrength: [
    '需要 params.image.strength 大于 0（strength 为 0 会把整张图像素化）',
    'needs params.image.strength above 0 (strength 0 pixelates the whole picture)',
  ],
  references: ['必须列出 1 到 4 个上传', 'must list 1 to 4 uploads'],
  maxColors: ['必须是 2 到 64 之间的整数', 'must be an integer from 2 to 64'],
} as const satisfies Record<string, readonly [string, string]>;

/** 400 参数错误 naming the field in `data.errors` (issue #37: the mask's refusal named nothing). */
function problem(path: string, which: keyof typeof PROBLEMS) {
  const [zh, text] = PROBLEMS[which];
  return errors.invalid([{ in: 'body', path, rule: 'image', zh, text }]);
}

const isId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 64;

/**
 * `params.image`, `mask`, `references` and `paletteFrom` with their defaults, into `out`. A mask
 * needs an image with a strength above 0 (a mask on a pixelate would be ignored): 400 参数错误.
 * The contract's schema refuses malformed values first on HTTP; direct callers get the same 400.
 */
export function normalizeImageInputs(p: GenerateParamsInput, out: TaskParams): void {
  if (p.image !== undefined) {
    const strength = p.image.strength ?? IMAGE_INPUT_DEFAULTS.strength;
    if (!isId(p.image.uploadId)) throw problem('/params/image/uploadId', 'uploadId');
    if (typeof strength !== 'number' || !(strength >= 0 && strength <= 1)) {
      throw problem('/params/image/strength', 'strength');
    }
    out.image = { uploadId: p.image.uploadId, strength };
  }
  if (p.mask !== undefined) {
    if (!isId(p.mask.uploadId)) throw problem('/params/mask/uploadId', 'uploadId');
    if (out.image === undefined) throw problem('/params/mask', 'maskNeedsImage');
    if (out.image.strength === 0) {
      throw problem('/params/mask', 'maskNeedsStrength');
    }
    out.mask = { uploadId: p.mask.uploadId };
  }
  if (p.references !== undefined) {
    if (!Array.isArray(p.references) || p.references.length < 1 || p.references.length > 4) {
      throw problem('/params/references', 'references');
    }
    out.references = p.references.map((r, i) => {
      if (!isId(r?.uploadId)) throw problem(`/params/references/${i}/uploadId`, 'uploadId');
      return { uploadId: r.uploadId };
    });
  }
  if (p.paletteFrom !== undefined) {
    const maxColors = p.paletteFrom.maxColors ?? IMAGE_INPUT_DEFAULTS.maxColors;
    if (!isId(p.paletteFrom.uploadId)) throw problem('/params/paletteFrom/uploadId', 'uploadId');
    if (!Number.isInteger(maxColors) || maxColors < 2 || maxColors > 64) {
      throw problem('/params/paletteFrom/maxColors', 'maxColors');
    }
    out.paletteFrom = { uploadId: p.paletteFrom.uploadId, maxColors };
  }
}

/** The frames a request without `params.frames` gets when it starts from a picture, else null. */
export function imageFramesDefault(assetType: AssetType, p: GenerateParamsInput) {
  if (p.image === undefined || p.frames !== undefined) return null;
  return assetType === 'sprite'
    ? IMAGE_FRAMES.sprite
    : assetType === 'animation'
      ? IMAGE_FRAMES.animation
      : null;
}

/** The content hashes of a task's image inputs (what the dedupe key sees of each picture). */
export interface InputHashes {
  image?: string;
  mask?: string;
  references?: string[];
  paletteFrom?: string;
}

/** The image inputs as dedupe material: the pictures by content hash, never by upload id. */
export function imageMaterial(params: TaskParams, hashes: InputHashes | undefined): unknown[] {
  const out: unknown[] = [];
  if (params.image)
    out.push({ image: [hashes?.image ?? `id:${params.image.uploadId}`, params.image.strength] });
  if (params.mask) out.push({ mask: hashes?.mask ?? `id:${params.mask.uploadId}` });
  if (params.references) {
    out.push({ references: params.references.map((r, i) => hashes?.references?.[i] ?? `id:${r.uploadId}`) });
  }
  if (params.paletteFrom) {
    out.push({
      paletteFrom: [hashes?.paletteFrom ?? `id:${params.paletteFrom.uploadId}`, params.paletteFrom.maxColors],
    });
  }
  return out;
}
