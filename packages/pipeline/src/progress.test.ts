import { describe, expect, it } from 'vitest';
import { parsePalette } from './palette.js';
import { overallProgress, taskStageOf } from './progress.js';
import { deriveSeed } from './seed.js';
import { mergeStyles } from './style.js';

describe('taskStageOf', () => {
  it.each([
    ['prompt_optimizer', 'prompt_builder'],
    ['asset_generator', 'asset_generator'],
    ['quality_supervisor', 'quality_supervisor'],
    ['format_adapter', 'format_adapter'],
  ] as const)('%s → %s', (given, want) => expect(taskStageOf(given)).toBe(want));
});

describe('overallProgress', () => {
  it.each([
    [{ stage: 'prompt_optimizer', status: 'running', progress: 0 }, 0],
    [{ stage: 'prompt_optimizer', status: 'completed', progress: 100 }, 25],
    [{ stage: 'quality_supervisor', status: 'running', progress: 0 }, 50],
    [{ stage: 'quality_supervisor', status: 'failed', progress: 0 }, 50],
    [{ stage: 'format_adapter', status: 'completed', progress: 100 }, 100],
    [{ stage: 'format_adapter', status: 'running', progress: Number.NaN }, 75],
  ] as const)('%j → %d', (given, want) => expect(overallProgress(given)).toBe(want));
});

describe('mergeStyles', () => {
  it('lets task keys win and drops non-strings', () => {
    expect(
      mergeStyles(
        { palette: 'pico8', lighting: 'top-left' },
        { lighting: 'night', mood: 'calm', bad: 3 as unknown as string },
      ),
    ).toEqual({ palette: 'pico8', lighting: 'night', mood: 'calm' });
    expect(mergeStyles(null, null)).toEqual({});
  });
});

describe('deriveSeed', () => {
  const base = {
    prompt: 'knight',
    assetType: 'sprite' as const,
    style: { a: '1', b: '2' },
    params: { resolution: 64, format: 'spritesheet' as const },
  };
  it('ignores key order and changes with input and attempt', () => {
    const s = deriveSeed(base);
    expect(deriveSeed({ ...base, style: { b: '2', a: '1' } })).toBe(s);
    expect(deriveSeed({ ...base, prompt: 'mage' })).not.toBe(s);
    expect(deriveSeed(base, 1)).not.toBe(s);
    expect(Number.isSafeInteger(s)).toBe(true);
  });
});

describe('parsePalette', () => {
  it.each([
    ['pico8', 16],
    ['PICO-8', 16],
    ['game boy', 4],
    ['#1a1c2c,#5d275d,#b13e53', 3],
    ['#fff #000', 2],
  ])('%s → %d colours', (given, want) => expect(parsePalette(given)?.colors.length).toBe(want));
  it.each([['warm tones'], ['#12345g,#000000'], [''], ['#000000']])('%j is not a palette', (given) =>
    expect(parsePalette(given)).toBeNull(),
  );
});
