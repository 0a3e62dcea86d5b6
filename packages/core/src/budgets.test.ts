import { describe, expect, it } from 'vitest';
import { taskPixels } from './budgets.js';
import type { AssetType, TaskParams } from './types.js';

/** The pixels the budgets count for each asset type (TASK_MAX_PIXELS, decision 0032), read from its module. */
describe('taskPixels', () => {
  const base = { resolution: 64, format: 'spritesheet' } as TaskParams;
  it.each<[string, { type: AssetType; params: Partial<TaskParams>; want: number }]>([
    [
      'a sprite of 4 × 4 frames',
      { type: 'sprite', params: { frames: { directions: 4, framesPerDirection: 4 } }, want: 64 * 64 * 16 },
    ],
    [
      'a 512 px animation of 8 × 16 frames',
      {
        type: 'animation',
        params: { resolution: 512, frames: { directions: 8, framesPerDirection: 16 } },
        want: 512 * 512 * 128,
      },
    ],
    ['a 320 × 180 background', { type: 'background', params: { width: 320, height: 180 }, want: 320 * 180 }],
    ['a ui piece at its resolution', { type: 'ui', params: { resolution: 48 }, want: 48 * 48 }],
    [
      'a blob set of 16 px tiles (48 and 8 variants of its plain tiles)',
      { type: 'tileset', params: { tileset: { kind: 'blob47', tileSize: 16 } }, want: 56 * 256 + 64 * 64 },
    ],
    [
      'one seamless 32 px tile and its 3 variants',
      { type: 'tileset', params: { tileset: { kind: 'seamless', tileSize: 32 } }, want: 4 * 1024 + 64 * 64 },
    ],
  ])('%s', (_name, { type, params, want }) => {
    expect(taskPixels(type, { ...base, ...params } as TaskParams)).toBe(want);
  });
});
