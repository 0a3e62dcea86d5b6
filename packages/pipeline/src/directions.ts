import type { Directions } from './types/index.js';

/** Direction rows of a sprite sheet, in order, for 1, 4 and 8 directions. */
export const DIRECTION_NAMES: Readonly<Record<Directions, readonly string[]>> = {
  1: ['down'],
  4: ['down', 'left', 'right', 'up'],
  8: ['down', 'down_left', 'left', 'up_left', 'up', 'up_right', 'right', 'down_right'],
};
