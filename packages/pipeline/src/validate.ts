import { animationProblems } from './formats/playback.js';
import { DEFAULT_FRAMES } from './layout.js';
import { ASSET_TYPES, type PipelineRequest } from './types.js';

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
  if (!p || typeof p !== 'object') errors.push('params must be an object');
  else {
    if (!Number.isInteger(p.resolution) || p.resolution < 16 || p.resolution > 1024)
      errors.push('params.resolution must be an integer from 16 to 1024');
    if (p.format !== 'spritesheet' && p.format !== 'individual')
      errors.push('params.format must be spritesheet or individual');
    if (
      p.seed !== undefined &&
      p.seed !== null &&
      (!Number.isInteger(p.seed) || p.seed < 0 || p.seed > 4294967295)
    )
      errors.push('params.seed must be an integer from 0 to 4294967295');
    if (p.frames !== undefined && p.frames !== null) {
      const f = p.frames;
      if (typeof f !== 'object') errors.push('params.frames must be an object');
      else {
        if (![1, 4, 8].includes(f.directions)) errors.push('params.frames.directions must be 1, 4 or 8');
        if (!Number.isInteger(f.framesPerDirection) || f.framesPerDirection < 1 || f.framesPerDirection > 16)
          errors.push('params.frames.framesPerDirection must be an integer from 1 to 16');
      }
    }
  }
  if (p && typeof p === 'object') {
    // params.animation: its durations count the frames of one direction (sprite and animation only)
    const framed = r.assetType === 'sprite' || r.assetType === 'animation';
    const perDirection = p.frames?.framesPerDirection ?? DEFAULT_FRAMES.framesPerDirection;
    errors.push(...animationProblems(p.animation, framed ? perDirection : undefined));
  }
  if (typeof r.keyPrefix !== 'string') errors.push('keyPrefix must be a string');
  else if (r.keyPrefix.includes('..') || r.keyPrefix.startsWith('/'))
    errors.push('keyPrefix must be relative without ".."');
  if (r.tags !== undefined && (!Array.isArray(r.tags) || r.tags.some((t) => typeof t !== 'string')))
    errors.push('tags must be an array of strings');
  return errors;
}
