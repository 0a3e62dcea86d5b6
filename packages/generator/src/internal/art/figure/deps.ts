/** What the figure rig takes from the pipeline's pixel layer (one place to switch when it moves). */
export { gridFor, parseHex, type ResolvedStyle, type Rgb, upscale } from '@assetloom/pipeline/pixel';

import { FACING } from '../rig.js';

/** A direction name's facing in degrees (down 0, right 90, up 180, left 270). */
export const FACING_OF = (name: string): number => FACING[name] ?? 0;
