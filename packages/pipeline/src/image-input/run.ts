import type { ExpectedLayout } from '../asset-types/layout.js';
import { PipelineError } from '../errors.js';
import type { Rgb } from '../palette.js';
import type {
  GeneratedAsset,
  ImageInputs,
  ImageProvider,
  PipelineRequest,
  ProviderImageInputs,
  StyleMap,
} from '../types/index.js';
import { animateSprite, spriteMotionOf } from './animate.js';
import { paletteFromPicture, paletteStyleValue } from './palette-from.js';
import { cells } from './picture.js';
import { pixelatePictures } from './pixelate.js';
import { tileVariation } from './tile-variation.js';

/** A refusal of an input the provider cannot honour, naming the param (decision 0034). */
function unsupported(param: string, why: string): PipelineError {
  return new PipelineError('unsupported', `unsupported: ${param} — ${why}`, { expose: true });
}

/**
 * `params.paletteFrom`: the merged style with the picture's colours as its `palette` (it binds every
 * provider, pixelize and the palette check). The style unchanged without one.
 */
export function styleWithPaletteFrom(style: StyleMap, inputs: ImageInputs | undefined): StyleMap {
  if (!inputs?.paletteFrom) return style;
  let palette: Rgb[];
  try {
    palette = paletteFromPicture(inputs.paletteFrom.picture, inputs.paletteFrom.maxColors);
  } catch (error) {
    throw unsupported('params.paletteFrom', error instanceof Error ? error.message : String(error));
  }
  return { ...style, palette: paletteStyleValue(palette) };
}

/** What a request's image inputs are, decoded or not yet read: what a refusal looks at. */
interface InputShape {
  image?: { strength: number };
  mask: boolean;
  references: number;
}

function shapeOf(request: Pick<PipelineRequest, 'inputs' | 'inputRefs'>): InputShape | null {
  const given = request.inputs ?? request.inputRefs;
  if (!given) return null;
  return {
    ...(given.image ? { image: { strength: given.image.strength } } : {}),
    mask: given.mask !== undefined,
    references: given.references?.length ?? 0,
  };
}

/** Whether the pipeline draws the asset from the picture itself, whatever the provider. */
function pipelineDraws(
  request: Pick<PipelineRequest, 'inputs' | 'inputRefs' | 'assetType' | 'params'>,
  provider: Pick<ImageProvider, 'kind'>,
): boolean {
  const image = shapeOf(request)?.image;
  if (!image) return false;
  if (image.strength === 0) return true;
  // a seamless tile's variation needs no model: the built-in generator makes it
  return (
    provider.kind !== 'model' &&
    request.assetType === 'tileset' &&
    request.params.tileset?.kind === 'seamless'
  );
}

/** Why a provider cannot honour an input: the param, and what to do instead. */
export interface InputRefusal {
  /** The refused param, dotted (`params.mask`, `params.image.strength`). */
  param: string;
  why: string;
}

/**
 * The first input the provider cannot honour, or null. Pixelate (strength 0), animating a given
 * sprite with strength 0, `paletteFrom` and a seamless tile's variation work on every provider; a
 * redraw (strength above 0), a mask and references need a provider that declares them
 * (`ImageProvider.inputs`); a given sprite is animated only with a motion that keeps the figure.
 */
function refusalOf(
  provider: Pick<ImageProvider, 'kind' | 'name' | 'inputs'>,
  request: Pick<PipelineRequest, 'inputs' | 'inputRefs' | 'assetType' | 'params' | 'prompt'>,
): InputRefusal | null {
  const inputs = shapeOf(request);
  if (!inputs) return null;
  const image = inputs.image;
  const builtIn = provider.kind !== 'model';
  const who = builtIn ? 'the built-in generator' : `the "${provider.name}" provider`;
  if (image && request.assetType === 'tileset' && request.params.tileset?.kind !== 'seamless') {
    return {
      param: 'params.image',
      why: `a picture starts a seamless tile only (params.tileset.kind "seamless"), not a ${request.params.tileset?.kind ?? 'wang16'} set`,
    };
  }
  if (inputs.mask && !provider.inputs?.mask) {
    return {
      param: 'params.mask',
      why: builtIn
        ? 'the built-in generator cannot repaint part of a picture: use a model provider (ComfyUI, AUTOMATIC1111, OpenAI) for edits with a mask'
        : `${who} cannot edit a picture with a mask`,
    };
  }
  if (image && image.strength > 0 && !pipelineDraws(request, provider) && !provider.inputs?.image) {
    return {
      param: 'params.image.strength',
      why: builtIn
        ? 'the built-in generator cannot redraw a picture: send strength 0 to pixelate it (or animate it as it is), or use a model provider (ComfyUI, AUTOMATIC1111, OpenAI) to redraw it'
        : `${who} cannot start from a picture`,
    };
  }
  if (inputs.references > 0 && !provider.inputs?.references) {
    return {
      param: 'params.references',
      why: builtIn
        ? 'the built-in generator draws from its own library and cannot follow reference pictures: use OpenAI gpt-image edits or a ComfyUI workflow with LoadImage nodes titled "reference…"'
        : provider.name === 'comfyui'
          ? 'this ComfyUI workflow has no LoadImage node titled "reference…" to take them (COMFYUI_WORKFLOW)'
          : `${who} cannot follow reference pictures`,
    };
  }
  if (image && request.assetType === 'animation' && pipelineDraws(request, provider)) {
    const chosen = spriteMotionOf(request.prompt);
    if ('refused' in chosen) return motionRefusal(chosen.refused);
  }
  return null;
}

/**
 * The first input the provider cannot honour, as the error the task fails with (never retried), or
 * null: checked before any picture is read (see {@link refusalOf}).
 */
export function inputsRefusal(
  provider: Pick<ImageProvider, 'kind' | 'name' | 'inputs'>,
  request: Pick<PipelineRequest, 'inputs' | 'inputRefs' | 'assetType' | 'params' | 'prompt'>,
): PipelineError | null {
  const refusal = refusalOf(provider, request);
  return refusal === null ? null : unsupported(refusal.param, refusal.why);
}

/** The image inputs a submission names, as its params state them (nothing read yet). */
export interface SubmittedInputs {
  image?: { strength: number } | null;
  mask?: object | null;
  references?: readonly object[] | null;
}

const NO_REF = { uploadId: '', key: '', width: 0, height: 0 };

/**
 * The same refusal when a task is submitted, from its params alone (issue #37): a server answers
 * 400 naming the param instead of accepting a task that could only fail, with no picture read.
 */
export function submissionRefusal(
  provider: Pick<ImageProvider, 'kind' | 'name' | 'inputs'>,
  task: Pick<PipelineRequest, 'assetType' | 'params' | 'prompt'> & { inputs: SubmittedInputs },
): InputRefusal | null {
  const { image, mask, references } = task.inputs;
  if (!image && !mask && !references?.length) return null;
  return refusalOf(provider, {
    assetType: task.assetType,
    params: task.params,
    prompt: task.prompt,
    inputRefs: {
      ...(image ? { image: { ref: NO_REF, strength: image.strength } } : {}),
      ...(mask ? { mask: NO_REF } : {}),
      ...(references?.length ? { references: references.map(() => NO_REF) } : {}),
    },
  });
}

/** A motion a given sprite cannot be animated with by the pipeline alone (it redraws the figure). */
function motionRefusal(word: string): InputRefusal {
  return {
    param: 'params.image',
    why: `the built-in motions of a given sprite are idle, breathe, squash, hurt, death, spin, glow and hover; "${word}" redraws the figure and needs a model provider (strength above 0)`,
  };
}

/** The direction views of a picture of `directions` views: stacked (rows) or side by side (columns). */
function viewsOf(picture: ImageInputs['image'] & object, directions: number): ReturnType<typeof cells> {
  if (directions === 1) return [picture.picture];
  const { width, height } = picture.picture;
  return width >= height * directions * 0.75
    ? cells(picture.picture, directions, 1)
    : cells(picture.picture, 1, directions);
}

/**
 * Draws the asset from the picture when the pipeline does it for every provider (decision 0034):
 * pixelate (strength 0: a sheet read as framesPerDirection columns × directions rows, a UI piece as
 * its states side by side), a given sprite animated with a model-free motion named in the prompt
 * (`assetType: animation`, strength 0: its views one per direction), or a seamless tile's variation
 * (the built-in generator). null when the provider draws.
 */
export function drawFromInputs(
  provider: ImageProvider,
  request: PipelineRequest,
  layout: ExpectedLayout,
  palette: readonly Rgb[] | null,
  seed: number,
): GeneratedAsset | null {
  const image = request.inputs?.image;
  if (!image || !pipelineDraws(request, provider)) return null;
  const { frameWidth, frameHeight, opaque } = layout;
  const base = { frameWidth, frameHeight, opaque, palette };
  if (request.assetType === 'tileset') {
    const [tile] = pixelatePictures([image.picture], base);
    const frame = image.strength === 0 ? tile! : tileVariation(tile!, image.strength, seed);
    // the seamless set's variants (decision 0094): the tile's border kept, its inside varied again
    const more = Array.from({ length: layout.frameCount - 1 }, (_, k) =>
      tileVariation(frame, 0.6, (seed + 7919 * (k + 1)) >>> 0),
    );
    return { frames: [frame, ...more], animation: 'tileset', subject: 'tile from the picture' };
  }
  if (request.assetType === 'animation') {
    const chosen = spriteMotionOf(request.prompt);
    if ('refused' in chosen) {
      const refusal = motionRefusal(chosen.refused);
      throw unsupported(refusal.param, refusal.why);
    }
    const views = pixelatePictures(viewsOf(image, layout.directions), base);
    const frames = views.flatMap((view, d) =>
      animateSprite(view, chosen.motion, layout.framesPerDirection, seed + d),
    );
    return { frames, animation: chosen.motion, subject: 'sprite from the picture' };
  }
  const grid = layout.uiKind
    ? cells(image.picture, layout.frameCount, 1)
    : cells(image.picture, layout.framesPerDirection, layout.directions);
  const frames = pixelatePictures(grid, base);
  return {
    frames,
    animation:
      layout.uiKind ??
      (request.assetType === 'background' ? 'background' : layout.frameCount > 1 ? 'anim' : 'sprite'),
    subject: 'picture',
    ...(layout.uiKind ? { uiKind: layout.uiKind, frameNames: frames.map((_, i) => `state${i}`) } : {}),
  };
}

/** The inputs a provider is handed for drawing (the palette already in the style). */
export function providerInputs(inputs: ImageInputs | undefined): ProviderImageInputs | undefined {
  if (!inputs) return undefined;
  const { paletteFrom: _palette, tileset: _tileset, ...rest } = inputs;
  return rest.image || rest.mask || rest.references?.length ? rest : undefined;
}
