import { assetApiDocument } from '@assetloom/openapi';
import { assetTypeTraits } from '@assetloom/pipeline';
import { errors } from './errors.js';
import type { FieldProblem } from './messages.js';
import {
  type AnimationLoop,
  ASSET_TYPES,
  type AssetType,
  type Directions,
  type GenerateParamsInput,
  type OutputFormat,
  type StyleMap,
  type TaskParams,
} from './types.js';
import {
  type InputHashes,
  imageFramesDefault,
  imageMaterial,
  normalizeImageInputs,
} from './uploads/params.js';

type Schema = { default?: unknown; properties?: Record<string, Schema> };

/** The `default` the contract states for a schema (openapi/asset-api.yaml), checked against `accepts`. */
function contractDefault<T>(
  schema: Schema | undefined,
  where: string,
  accepts: (value: unknown) => boolean,
): T {
  const value = schema?.default;
  if (!accepts(value)) {
    throw new Error(
      `[assetloom/core] the contract states no usable default for ${where}: ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

const schemas = assetApiDocument.components.schemas as Record<string, Schema>;
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * The defaults of a generation's params, as the contract states them (`Resolution`, `Frames`,
 * `OutputFormat` in openapi/asset-api.yaml): read from the document once, written nowhere else.
 */
export const PARAM_DEFAULTS: Readonly<{
  resolution: number;
  directions: Directions;
  framesPerDirection: number;
  format: OutputFormat;
}> = Object.freeze({
  resolution: contractDefault<number>(schemas.Resolution, 'Resolution', isCount),
  directions: contractDefault<Directions>(schemas.Frames?.properties?.directions, 'Frames.directions', (v) =>
    [1, 4, 8].includes(v as number),
  ),
  framesPerDirection: contractDefault<number>(
    schemas.Frames?.properties?.framesPerDirection,
    'Frames.framesPerDirection',
    isCount,
  ),
  format: contractDefault<OutputFormat>(schemas.OutputFormat, 'OutputFormat', (v) =>
    ['spritesheet', 'individual'].includes(v as string),
  ),
});

/** The defaults of `params.animation` (the contract's `Animation`), read from the document once. */
export const ANIMATION_DEFAULTS: Readonly<{ fps: number; loop: AnimationLoop }> = Object.freeze({
  fps: contractDefault<number>(schemas.Animation?.properties?.fps, 'Animation.fps', isCount),
  loop: contractDefault<AnimationLoop>(schemas.AnimationLoop, 'AnimationLoop', (v) =>
    ['forward', 'reverse', 'pingpong'].includes(v as string),
  ),
});

/**
 * `params.animation` with its defaults filled in, or undefined when the request gave none. Its
 * `frameDurations` must have one entry per frame of a direction (400 参数错误 otherwise).
 */
function normalizeAnimation(
  animation: GenerateParamsInput['animation'],
  framesPerDirection: number,
): TaskParams['animation'] {
  if (animation === undefined) return undefined;
  const out: NonNullable<TaskParams['animation']> = {
    fps: animation.fps ?? ANIMATION_DEFAULTS.fps,
    loop: animation.loop ?? ANIMATION_DEFAULTS.loop,
  };
  if (animation.frameDurations !== undefined) {
    if (animation.frameDurations.length !== framesPerDirection) {
      throw errors.invalid(
        [
          {
            in: 'body',
            path: '/params/animation/frameDurations',
            rule: 'frameCount',
            limit: framesPerDirection,
          },
        ],
        { frameDurations: animation.frameDurations.length, framesPerDirection },
      );
    }
    out.frameDurations = [...animation.frameDurations];
  }
  return out;
}

type Range = { minimum?: number; maximum?: number };
/** The range of `params.width` / `params.height` (the contract's `CanvasEdge`), read from the document once. */
export const CANVAS_LIMITS: Readonly<{ min: number; max: number }> = Object.freeze({
  min: contractBound(schemas.CanvasEdge as Range | undefined, 'minimum'),
  max: contractBound(schemas.CanvasEdge as Range | undefined, 'maximum'),
});

function contractBound(schema: Range | undefined, bound: 'minimum' | 'maximum'): number {
  const value = schema?.[bound];
  if (!isCount(value)) throw new Error(`[assetloom/core] the contract states no usable CanvasEdge.${bound}`);
  return value as number;
}

/** Backgrounds and ui pieces may ask for a canvas of their own (`params.width` / `params.height`). */
function hasCanvas(assetType: AssetType): boolean {
  return assetTypeTraits(assetType).canvas;
}
/** The asset types that may (the pipeline's asset-type modules say which). */
const CANVAS_TYPES = ASSET_TYPES.filter(hasCanvas);

function canvasProblem(path: string, problem: Omit<FieldProblem, 'in' | 'path'>) {
  return errors.invalid([{ in: 'body', path, ...problem }]);
}

/**
 * `params.width` and `params.height` of a background or ui piece: both, the one not given being
 * `resolution`, when the request gave either; undefined when it gave neither (the canvas is then
 * `resolution` square, as spec 000 says). Any other asset type sending them is 400 参数错误.
 */
function normalizeCanvas(
  assetType: AssetType,
  p: GenerateParamsInput,
  resolution: number,
): { width: number; height: number } | undefined {
  if (p.width === undefined && p.height === undefined) return undefined;
  if (!hasCanvas(assetType)) {
    throw canvasProblem(p.width === undefined ? '/params/height' : '/params/width', {
      rule: 'assetType',
      allowed: [...CANVAS_TYPES],
    });
  }
  for (const side of ['width', 'height'] as const) {
    const value = p[side];
    if (value === undefined) continue;
    // the contract's schema refuses these first on HTTP; direct callers of the service get the same 400
    if (!Number.isInteger(value) || value < CANVAS_LIMITS.min || value > CANVAS_LIMITS.max) {
      throw canvasProblem(`/params/${side}`, {
        rule: Number.isInteger(value) && value > CANVAS_LIMITS.max ? 'maximum' : 'minimum',
        limit: Number.isInteger(value) && value > CANVAS_LIMITS.max ? CANVAS_LIMITS.max : CANVAS_LIMITS.min,
      });
    }
  }
  return { width: p.width ?? resolution, height: p.height ?? resolution };
}

/** Sprite and animation carry frames; background and ui ignore them (not stored). */
function hasFrames(assetType: AssetType): boolean {
  return assetTypeTraits(assetType).framed;
}

/**
 * Params with every default filled in; frames only for sprite and animation; width and height only
 * for a background or ui piece that asked for a size (400 参数错误 for any other asset type).
 */
export function normalizeParams(assetType: AssetType, params: GenerateParamsInput | undefined): TaskParams {
  const p = params ?? {};
  const out: TaskParams = {
    resolution: p.resolution ?? PARAM_DEFAULTS.resolution,
    format: p.format ?? PARAM_DEFAULTS.format,
  };
  const canvas = normalizeCanvas(assetType, p, out.resolution);
  if (canvas !== undefined) {
    out.width = canvas.width;
    out.height = canvas.height;
  }
  if (hasFrames(assetType)) {
    // a picture to start from is one view: its sprite one frame, its animation one direction (decision 0034)
    const fromImage = imageFramesDefault(assetType, p);
    out.frames = fromImage
      ? { ...fromImage }
      : {
          directions: p.frames?.directions ?? PARAM_DEFAULTS.directions,
          framesPerDirection: p.frames?.framesPerDirection ?? PARAM_DEFAULTS.framesPerDirection,
        };
  }
  normalizeImageInputs(p, out);
  if (p.seed !== undefined) out.seed = p.seed;
  // a placeholder instead of a refusal: part of the task (and of its dedupe key) only when asked
  if (p.placeholder === true && hasFrames(assetType)) out.placeholder = true;
  if (assetType === 'tileset') {
    out.tileset = {
      kind: p.tileset?.kind ?? TILESET_DEFAULTS.kind,
      tileSize: p.tileset?.tileSize ?? TILESET_DEFAULTS.tileSize,
    };
  }
  if (assetType === 'level') out.level = normalizeLevel(p.level);
  const animation = out.frames ? normalizeAnimation(p.animation, out.frames.framesPerDirection) : undefined;
  if (animation !== undefined) out.animation = animation;
  return out;
}

/** The defaults and limits of `params.level` (the contract's `Level`), read from the document once. */
export const LEVEL_DEFAULTS: Readonly<{ columns: number; rows: number; tileSize: number }> = Object.freeze({
  columns: contractDefault<number>(schemas.Level?.properties?.columns, 'Level.columns', isCount),
  rows: contractDefault<number>(schemas.Level?.properties?.rows, 'Level.rows', isCount),
  tileSize: contractDefault<number>(schemas.Level?.properties?.tileSize, 'Level.tileSize', isCount),
});
/** The longest side of a level's picture in pixels (the contract's `Level.tileSize` words; the pipeline's LEVEL_LIMITS). */
const LEVEL_SIDE = 4096;

/**
 * `params.level` of a level with its defaults filled in: a tileset task or terrains (not both), and
 * at most 4096 px a side (400 参数错误 naming the field otherwise).
 */
function normalizeLevel(given: GenerateParamsInput['level']): NonNullable<TaskParams['level']> {
  const l = given ?? {};
  const out: NonNullable<TaskParams['level']> = {
    columns: l.columns ?? LEVEL_DEFAULTS.columns,
    rows: l.rows ?? LEVEL_DEFAULTS.rows,
    tileSize: l.tileSize ?? LEVEL_DEFAULTS.tileSize,
  };
  if (l.tilesetTaskId !== undefined && l.terrains !== undefined) {
    throw errors.invalid([
      {
        in: 'body',
        path: '/params/level/terrains',
        rule: 'level',
        zh: '图块集任务与地形只能给一个',
        text: 'give tilesetTaskId or terrains, not both',
      },
    ]);
  }
  if (l.tilesetTaskId !== undefined) out.tilesetTaskId = l.tilesetTaskId;
  if (l.terrains !== undefined) out.terrains = [...l.terrains];
  for (const [side, n] of [
    ['columns', out.columns],
    ['rows', out.rows],
  ] as const) {
    if (n * out.tileSize > LEVEL_SIDE) {
      throw errors.invalid([
        {
          in: 'body',
          path: `/params/level/${side}`,
          rule: 'maximum',
          limit: Math.floor(LEVEL_SIDE / out.tileSize),
          zh: `关卡每边最多 ${LEVEL_SIDE} 像素`,
          text: `at ${out.tileSize} px tiles a level has at most ${Math.floor(LEVEL_SIDE / out.tileSize)} ${side} (${LEVEL_SIDE} px a side)`,
        },
      ]);
    }
  }
  return out;
}

/** The defaults of `params.tileset` (the contract's `Tileset`, `TilesetKind`), read from the document once. */
export const TILESET_DEFAULTS: Readonly<{
  kind: NonNullable<TaskParams['tileset']>['kind'];
  tileSize: number;
}> = Object.freeze({
  kind: contractDefault<NonNullable<TaskParams['tileset']>['kind']>(schemas.TilesetKind, 'TilesetKind', (v) =>
    ['wang16', 'blob47', 'seamless'].includes(v as string),
  ),
  tileSize: contractDefault<number>(schemas.Tileset?.properties?.tileSize, 'Tileset.tileSize', isCount),
});

/** Non-default playback options as dedupe material; undefined when the defaults apply. */
function animationMaterial(animation: TaskParams['animation']): [unknown] | undefined {
  if (animation === undefined) return undefined;
  const { fps, loop, frameDurations } = animation;
  if (fps === ANIMATION_DEFAULTS.fps && loop === ANIMATION_DEFAULTS.loop && frameDurations === undefined) {
    return undefined;
  }
  return [{ animation: [fps, loop, frameDurations ?? null] }];
}

/** A style map as sorted [key, value] pairs: the same map always serializes the same way. */
export function sortedPairs(style: StyleMap | null | undefined): [string, string][] | null {
  if (style === null || style === undefined) return null;
  return Object.entries(style).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The canonical text the dedupe key hashes (field order fixed, style keys sorted). */
export function dedupeMaterial(input: {
  ownerId: number;
  projectId: string;
  prompt: string;
  assetType: AssetType;
  params: TaskParams;
  taskStyle: StyleMap | null;
  /** The content hashes of the task's image inputs (uploads), when it has any. */
  inputs?: InputHashes;
  /** The kept character the task is made through (decision 0057), when it is one's. */
  characterId?: string;
}): string {
  const { params } = input;
  return JSON.stringify([
    'v1',
    input.ownerId,
    input.projectId,
    input.prompt,
    input.assetType,
    [
      params.resolution,
      params.format,
      params.frames ? [params.frames.directions, params.frames.framesPerDirection] : null,
      // a canvas of its own (background, ui): another size is another task (keys without one are unchanged)
      ...(params.width !== undefined || params.height !== undefined
        ? [{ canvas: [params.width ?? params.resolution, params.height ?? params.resolution] }]
        : []),
      // a seed selects another variation: another task (keys of requests without one are unchanged)
      ...(params.seed !== undefined ? [params.seed] : []),
      // playback options other than the defaults make another task (keys without them are unchanged)
      ...(animationMaterial(params.animation) ?? []),
      // tilesets: kind and tile size (keys of the four spec types are unchanged)
      ...(params.tileset ? [{ tileset: [params.tileset.kind, params.tileset.tileSize] }] : []),
      // levels: size, tile size and the tileset or terrains (keys of other types are unchanged)
      ...(params.level
        ? [
            {
              level: [
                params.level.columns,
                params.level.rows,
                params.level.tileSize,
                params.level.tilesetTaskId ?? null,
                params.level.terrains ?? null,
              ],
            },
          ]
        : []),
      // a placeholder asked for is another task than a refusal (keys without it are unchanged)
      ...(params.placeholder === true ? [{ placeholder: true }] : []),
      // a kept character's action: another character or action is another task (others unchanged)
      ...(params.character ? [{ character: [params.character.characterId, params.character.action] }] : []),
      // a task of a character without a rig (an upload, a model provider): another character is
      // another task, though its identity be the same (decision 0057; keys of other tasks unchanged)
      ...(input.characterId !== undefined && !params.character ? [{ characterId: input.characterId }] : []),
      // image inputs by content hash (keys of requests without any are unchanged)
      ...imageMaterial(params, input.inputs),
    ],
    sortedPairs(input.taskStyle),
  ]);
}
