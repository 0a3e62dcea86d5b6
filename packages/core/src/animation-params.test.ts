import { assetApiDocument } from '@assetloom/openapi';
import { ANIMATION_DEFAULTS as PIPELINE_ANIMATION_DEFAULTS } from '@assetloom/pipeline/formats';
import { describe, expect, it } from 'vitest';
import { AssetloomError } from './errors.js';
import { ANIMATION_DEFAULTS, dedupeMaterial, normalizeParams } from './params.js';
import type { TaskParams } from './types.js';
import { createRequestValidator } from './validation.js';

type Schema = { default?: unknown; properties?: Record<string, Schema> };
const schemas = assetApiDocument.components.schemas as Record<string, Schema>;

describe('params.animation', () => {
  it('defaults to what the contract states (Animation.fps, AnimationLoop)', () => {
    expect(ANIMATION_DEFAULTS).toEqual({
      fps: schemas.Animation?.properties?.fps?.default,
      loop: schemas.AnimationLoop?.default,
    });
  });

  it('defaults in the pipeline to the same values (its generated copy of the contract)', () => {
    expect(PIPELINE_ANIMATION_DEFAULTS).toEqual(ANIMATION_DEFAULTS);
  });

  it('is kept, with its defaults filled in, for sprites and animations only', () => {
    expect(normalizeParams('animation', {}).animation).toBeUndefined();
    expect(normalizeParams('animation', { animation: {} }).animation).toEqual({ fps: 8, loop: 'forward' });
    expect(
      normalizeParams('sprite', {
        frames: { directions: 1, framesPerDirection: 2 },
        animation: { frameDurations: [50, 150], loop: 'reverse' },
      }).animation,
    ).toEqual({ fps: 8, loop: 'reverse', frameDurations: [50, 150] });
    expect(normalizeParams('background', { animation: { fps: 12 } }).animation).toBeUndefined();
    expect(normalizeParams('ui', { animation: { fps: 12 } }).animation).toBeUndefined();
  });

  it('refuses frameDurations that do not count the frames of a direction (default 4) with 400 参数错误', () => {
    const attempt = () => normalizeParams('animation', { animation: { frameDurations: [100, 100, 100] } });
    expect(attempt).toThrow(AssetloomError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 400, message: '参数错误' });
    }
  });

  it('changes the dedupe key only when it differs from the defaults', () => {
    const key = (params: TaskParams) =>
      dedupeMaterial({
        ownerId: 1,
        projectId: 'p',
        prompt: 'a frog',
        assetType: 'sprite',
        params,
        taskStyle: null,
      });
    const plain = normalizeParams('sprite', {});
    expect(key(normalizeParams('sprite', { animation: { fps: 8, loop: 'forward' } }))).toBe(key(plain));
    const others = [
      { fps: 9 },
      { loop: 'pingpong' as const },
      { loop: 'reverse' as const },
      { frameDurations: [125, 125, 125, 125] },
    ].map((animation) => key(normalizeParams('sprite', { animation })));
    expect(new Set([key(plain), ...others]).size).toBe(5);
  });

  it.each([
    [{ fps: 0 }],
    [{ fps: 61 }],
    [{ fps: 2.5 }],
    [{ loop: 'yoyo' }],
    [{ frameDurations: [] }],
    [{ frameDurations: [0] }],
    [{ frameDurations: [65536] }],
    [{ frameDurations: Array(17).fill(100) }],
    [{ speed: 1 }],
    ['fast'],
  ])('the contract’s validator refuses animation %j', (animation) => {
    const validator = createRequestValidator();
    expect(() =>
      validator.validate('generate', {
        body: { projectId: 'p1', prompt: 'a knight', assetType: 'animation', params: { animation } },
      }),
    ).toThrow(expect.objectContaining({ code: 400, message: '参数错误' }));
  });
});
