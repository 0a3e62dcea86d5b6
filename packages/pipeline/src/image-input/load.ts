import { PipelineError } from '../errors.js';
import { decodePng } from '../png.js';
import type { ImageInputRefs, ImageInputs, PictureRef, PictureSource, RgbaImage } from '../types/index.js';
import { resampleArea } from './picture.js';

/**
 * The longest side a picture is worked at (issue #37): a larger upload is brought down by a whole
 * factor (area average) as soon as it is decoded, before grid detection, pixelation, a palette or a
 * model reads it. Every asset is at most 1024 px a side, so nothing it shows is lost, and the work
 * of one input is bounded whatever was uploaded (4096² is 16 times the pixels).
 */
export const INPUT_WORKING_SIDE = 1024;

/** The whole factor a picture of this size is brought down by (1: kept as it is). */
function workingFactor(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.max(width, height) / INPUT_WORKING_SIDE));
}

/** A decoded picture at its working size. */
function atWorkingSize(picture: RgbaImage): RgbaImage {
  const k = workingFactor(picture.width, picture.height);
  if (k === 1) return picture;
  return resampleArea(
    picture,
    Math.max(1, Math.round(picture.width / k)),
    Math.max(1, Math.round(picture.height / k)),
  );
}

/**
 * The pictures a task names, read and decoded where the pipeline runs (issue #37: they were decoded
 * on the server's event loop, once per param): each distinct upload once, one at a time, brought to
 * its working size before the next is read, so at most one full-size picture is held. A picture
 * that is gone or unreadable fails the run, never retried.
 */
export async function loadImageInputs(
  refs: ImageInputRefs,
  source: PictureSource,
  options: { signal?: AbortSignal; wait?: <T>(p: Promise<T>) => Promise<T> } = {},
): Promise<ImageInputs> {
  const wait = options.wait ?? (<T>(p: Promise<T>) => p);
  const decoded = new Map<string, RgbaImage>();
  const picture = async (ref: PictureRef, whole = false): Promise<RgbaImage> => {
    const known = decoded.get(ref.uploadId);
    if (known !== undefined) return known;
    options.signal?.throwIfAborted();
    let bytes: Uint8Array;
    try {
      bytes = await wait(source.read(ref, options.signal));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new PipelineError(
        'invalid_request',
        `the uploaded picture ${ref.uploadId} is gone (deleted or expired); upload it again`,
        { expose: true, cause: error, detail: error instanceof Error ? error.message : String(error) },
      );
    }
    const read = decodePng(bytes);
    if (!read.ok) {
      throw new PipelineError('invalid_request', `the stored upload ${ref.uploadId} is not a readable PNG`, {
        expose: true,
      });
    }
    // a level's tileset sheet is cut into tiles: it is read at its own size
    const working = whole ? read.image : atWorkingSize(read.image);
    decoded.set(ref.uploadId, working);
    return working;
  };
  const inputs: ImageInputs = {};
  if (refs.image) inputs.image = { picture: await picture(refs.image.ref), strength: refs.image.strength };
  if (refs.mask) inputs.mask = await picture(refs.mask);
  if (refs.references) {
    const list: RgbaImage[] = [];
    for (const ref of refs.references) list.push(await picture(ref));
    inputs.references = list;
  }
  if (refs.paletteFrom) {
    inputs.paletteFrom = {
      picture: await picture(refs.paletteFrom.ref),
      maxColors: refs.paletteFrom.maxColors,
    };
  }
  if (refs.tileset) {
    const { ref, ...tileset } = refs.tileset;
    inputs.tileset = { ...tileset, picture: await picture(ref, true) };
  }
  return inputs;
}
