import { ANIMATION_PARAMS } from '../generated/params.js';
import type { AnimationLoop, AnimationParams } from '../types/index.js';

/** What `params.animation` defaults to: the contract's `Animation.fps` and `AnimationLoop` defaults. */
export const ANIMATION_DEFAULTS: Readonly<{ fps: number; loop: AnimationLoop }> = Object.freeze({
  ...ANIMATION_PARAMS.defaults,
});

export const ANIMATION_LOOPS: readonly AnimationLoop[] = ANIMATION_PARAMS.loops;
const { fps: FPS, frameDuration: MS } = ANIMATION_PARAMS;

/** The playback of every direction of a sheet, resolved: one duration per frame of a direction. */
export interface Playback {
  fps: number;
  /** Milliseconds, integers ≥ 1, one per frame of a direction. */
  durations: number[];
  loop: AnimationLoop;
  /** Whether the request named durations of its own (else every frame shows round(1000 / fps) ms). */
  custom: boolean;
}

/** The problems of a request's `params.animation`, in words (empty when valid). */
export function animationProblems(animation: unknown, framesPerDirection: number | undefined): string[] {
  if (animation === undefined || animation === null) return [];
  if (typeof animation !== 'object' || Array.isArray(animation))
    return ['params.animation must be an object'];
  const a = animation as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(a)) {
    if (key !== 'fps' && key !== 'frameDurations' && key !== 'loop')
      errors.push(`params.animation.${key} is not known`);
  }
  if (
    a.fps !== undefined &&
    (!Number.isInteger(a.fps) || (a.fps as number) < FPS.min || (a.fps as number) > FPS.max)
  )
    errors.push(`params.animation.fps must be an integer from ${FPS.min} to ${FPS.max}`);
  if (a.loop !== undefined && !ANIMATION_LOOPS.includes(a.loop as AnimationLoop))
    errors.push(`params.animation.loop must be ${ANIMATION_LOOPS.join(', ')}`);
  if (a.frameDurations !== undefined) {
    const d = a.frameDurations;
    if (!Array.isArray(d) || d.some((ms) => !Number.isInteger(ms) || ms < MS.min || ms > MS.max))
      errors.push(
        `params.animation.frameDurations must be an array of integers from ${MS.min} to ${MS.max} (milliseconds)`,
      );
    else if (framesPerDirection !== undefined && d.length !== framesPerDirection)
      errors.push(
        `params.animation.frameDurations must have one entry per frame of a direction (${framesPerDirection}), not ${d.length}`,
      );
  }
  return errors;
}

/** The playback a request asks for: `params.animation` with its defaults filled in. */
export function resolvePlayback(
  animation: AnimationParams | null | undefined,
  framesPerDirection: number,
): Playback {
  const fps = animation?.fps ?? ANIMATION_DEFAULTS.fps;
  const loop = animation?.loop ?? ANIMATION_DEFAULTS.loop;
  const given = animation?.frameDurations;
  if (given && given.length === framesPerDirection) {
    return { fps, durations: [...given], loop, custom: true };
  }
  const ms = Math.max(1, Math.round(1000 / fps));
  return { fps, durations: Array.from({ length: framesPerDirection }, () => ms), loop, custom: false };
}

/**
 * The order in which `count` frames play once round, for formats that have no loop mode of their
 * own (TexturePacker `animations`, Godot SpriteFrames): forward 0…n-1, reverse n-1…0, pingpong
 * 0…n-1…1 (the ends are not repeated, so looping it is seamless).
 */
export function playOrder(count: number, loop: AnimationLoop): number[] {
  const forward = Array.from({ length: count }, (_, i) => i);
  if (loop === 'reverse') return forward.reverse();
  if (loop === 'pingpong' && count > 2) return [...forward, ...forward.slice(1, -1).reverse()];
  return forward;
}
