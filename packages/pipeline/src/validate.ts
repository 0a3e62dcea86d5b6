import { ASSET_TYPE_MODULES, assetTypeModule } from './asset-types/index.js';
import { DEFAULT_FRAMES } from './asset-types/layout.js';
import { animationProblems } from './formats/playback.js';
import { PARAM_LIMITS } from './generated/params.js';
import { tilesetProblems } from './tileset/params.js';
import { ASSET_TYPES, type PipelineRequest } from './types/index.js';

const { resolution, directions, framesPerDirection, formats, seed, canvas } = PARAM_LIMITS;
/** The asset types that take a canvas of their own, in words ("background and ui"). */
const CANVAS_TYPES = ASSET_TYPES.filter((t) => ASSET_TYPE_MODULES[t].canvas)
  .join(', ')
  .replace(/, (?=[^,]*$)/, ' and ');
const isIn = (value: unknown, range: { min: number; max: number }) =>
  Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max;

/** Checks a request's shape and ranges; returns the problems in words (empty when valid). */
export function validateRequest(request: unknown): string[] {
  const errors: string[] = [];
  if (!request || typeof request !== 'object') return ['request must be an object'];
  const r = request as Partial<PipelineRequest>;
  if (typeof r.prompt !== 'string' || !r.prompt.trim()) errors.push('prompt must be a non-empty string');
  else if (r.prompt.length > 4000) errors.push('prompt must be at most 4000 characters');
  if (!ASSET_TYPES.includes(r.assetType as never))
    errors.push(`assetType must be one of ${ASSET_TYPES.join(', ')}`);
  const checkStyle = (name: string, s: unknown, optional: boolean) => {
    if (s === undefined || s === null) {
      if (!optional) errors.push(`${name} must be an object of strings`);
      return;
    }
    if (typeof s !== 'object' || Array.isArray(s)) {
      errors.push(`${name} must be an object of strings`);
      return;
    }
    const entries = Object.entries(s);
    if (entries.length > 32) errors.push(`${name} may hold at most 32 pairs`);
    for (const [k, v] of entries) {
      if (k.length > 64) errors.push(`${name} key "${k.slice(0, 20)}…" is longer than 64 characters`);
      if (typeof v !== 'string') errors.push(`${name}.${k} must be a string`);
      else if (v.length > 256) errors.push(`${name}.${k} is longer than 256 characters`);
    }
  };
  checkStyle('projectStyle', r.projectStyle, true);
  checkStyle('taskStyle', r.taskStyle, true);
  const p = r.params;
  const module = assetTypeModule(r.assetType);
  if (!p || typeof p !== 'object') errors.push('params must be an object');
  else {
    if (!isIn(p.resolution, resolution))
      errors.push(`params.resolution must be an integer from ${resolution.min} to ${resolution.max}`);
    if (!(formats as readonly unknown[]).includes(p.format))
      errors.push(`params.format must be ${formats.join(' or ')}`);
    if (p.placeholder !== undefined && p.placeholder !== null && typeof p.placeholder !== 'boolean')
      errors.push('params.placeholder must be true or false');
    for (const side of ['width', 'height'] as const) {
      const value = p[side];
      if (value === undefined || value === null) continue;
      if (!module?.canvas)
        errors.push(`params.${side} is for ${CANVAS_TYPES} only, not ${String(r.assetType)}`);
      else if (!isIn(value, canvas))
        errors.push(`params.${side} must be an integer from ${canvas.min} to ${canvas.max}`);
    }
    if (p.seed !== undefined && p.seed !== null && !isIn(p.seed, seed))
      errors.push(`params.seed must be an integer from ${seed.min} to ${seed.max}`);
    if (p.frames !== undefined && p.frames !== null) {
      const f = p.frames;
      if (typeof f !== 'object') errors.push('params.frames must be an object');
      else {
        if (!(directions as readonly unknown[]).includes(f.directions))
          errors.push(
            `params.frames.directions must be ${directions.slice(0, -1).join(', ')} or ${directions.at(-1)}`,
          );
        if (!isIn(f.framesPerDirection, framesPerDirection))
          errors.push(
            `params.frames.framesPerDirection must be an integer from ${framesPerDirection.min} to ${framesPerDirection.max}`,
          );
      }
    }
  }
  if (p && typeof p === 'object') {
    // params.animation: its durations count the frames of one direction (sprite and animation only)
    const perDirection = p.frames?.framesPerDirection ?? DEFAULT_FRAMES.framesPerDirection;
    errors.push(...animationProblems(p.animation, module?.framed ? perDirection : undefined));
    errors.push(...tilesetProblems(p.tileset));
    // the asset type's own params
    if (module) errors.push(...module.problems(p));
  }
  if (typeof r.keyPrefix !== 'string') errors.push('keyPrefix must be a string');
  else if (r.keyPrefix.includes('..') || r.keyPrefix.startsWith('/'))
    errors.push('keyPrefix must be relative without ".."');
  if (r.tags !== undefined && (!Array.isArray(r.tags) || r.tags.some((t) => typeof t !== 'string')))
    errors.push('tags must be an array of strings');
  return errors;
}
