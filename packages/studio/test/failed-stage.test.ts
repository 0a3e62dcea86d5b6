import { describe, expect, it } from 'vitest';
import { stageNamedBy } from '../src/progress.js';

// Issue #41: a failed task was marked failed on "Prompt" whatever its error said (the pipeline's
// stage before its first event). The errors below are the ones the server and pipeline write.
describe('the stage a failed task is marked on', () => {
  it.each([
    ['image provider "a1111" failed', 'asset_generator'],
    [
      '[assetloom/pipeline] unsupported: params.mask — the procedural generator cannot repaint',
      'asset_generator',
    ],
    ['[assetloom/pipeline] unexpected failure in format_adapter', 'format_adapter'],
    ['the generated files could not be stored', 'format_adapter'],
    ['[assetloom/pipeline] quality check failed after 2 retries: palette_adherence', 'quality_supervisor'],
  ] as const)('%s → %s', (error, stage) => {
    expect(stageNamedBy(error)).toBe(stage);
  });

  it('names no stage when the error names none, rather than "Prompt"', () => {
    expect(stageNamedBy('task failed')).toBeNull();
  });
});
