import type { AssetType, Directions, GenerateParamsInput, StyleMap, TaskParams } from '../types.js';

export const PARAM_DEFAULTS = {
  resolution: 64,
  directions: 4 as Directions,
  framesPerDirection: 4,
  format: 'spritesheet',
} as const;

/** Sprite and animation carry frames; background and ui ignore them (not stored). */
export function hasFrames(assetType: AssetType): boolean {
  return assetType === 'sprite' || assetType === 'animation';
}

/** Params with every default filled in; frames only for sprite and animation. */
export function normalizeParams(assetType: AssetType, params: GenerateParamsInput | undefined): TaskParams {
  const p = params ?? {};
  const out: TaskParams = {
    resolution: p.resolution ?? PARAM_DEFAULTS.resolution,
    format: p.format ?? PARAM_DEFAULTS.format,
  };
  if (hasFrames(assetType)) {
    out.frames = {
      directions: p.frames?.directions ?? PARAM_DEFAULTS.directions,
      framesPerDirection: p.frames?.framesPerDirection ?? PARAM_DEFAULTS.framesPerDirection,
    };
  }
  if (p.seed !== undefined) out.seed = p.seed;
  return out;
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
      // a seed selects another variation: another task (keys of requests without one are unchanged)
      ...(params.seed !== undefined ? [params.seed] : []),
    ],
    sortedPairs(input.taskStyle),
  ]);
}
