import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the slowest files of the two-at-a-time group take in CI: the studio's from the brief of 38j
 * (stop 48's run of a18b5ae); the generator's, pipeline's and question-set's from 38j's run of the
 * drawings, pipeline and generator projects on the shared machine, halved (load average 10-20 made
 * them about twice main's local cache: people 38 vs 13 s, roles-and-kinds 34 vs 16 s, level 32 vs
 * 21 s). Only their order matters: a fresh clone has no Vitest cache, and Vitest's own order is then
 * project by project in name order, larger files first, so the studio's browser files (45-61 s each)
 * started 137th-148th of 159 and one worker sat idle while the other finished them. Longest first,
 * the two workers end together. A file missing here keeps Vitest's own order after these; a warm
 * cache's durations win.
 */
const CI_SECONDS: Record<string, number> = {
  // the suites of the run's one ComfyUI, one file (decision 0139): 85 + 30 s of stop 52's run, and the server
  // suite at one frame (was 105 s at sixteen frames); first, so that the other worker takes the rest
  'real-servers:test/real-servers/comfyui.test.ts': 130,
  'studio:packages/studio/test/artist.test.ts': 61,
  'generator:packages/generator/test/drawing.test.ts': 57,
  'studio:packages/studio/test/mock.test.ts': 55,
  'studio:packages/studio/test/server.test.ts': 45,
  'generator:packages/generator/test/pipeline.test.ts': 32,
  'cli:packages/cli/test/generate.test.ts': 30,
  'generator:packages/generator/test/look.test.ts': 25,
  'generator:packages/generator/test/scenes.test.ts': 25,
  'pipeline:packages/pipeline/test/image-input-providers.test.ts': 23,
  'generator:packages/generator/test/subjects.test.ts': 22,
  'generator:packages/generator/test/people.test.ts': 19,
  'generator:packages/generator/test/roles-and-kinds.test.ts': 17,
  'pipeline:packages/pipeline/test/level.test.ts': 16,
  'generator:packages/generator/test/refusals.test.ts': 16,
  'pipeline:packages/pipeline/test/pixelize.test.ts': 16,
  'generator:packages/generator/test/motion-parts.test.ts': 15,
  'question-set:packages/question-set/test/schema-agreement.test.ts': 13,
  'generator:packages/generator/test/something-else.test.ts': 13,
  'generator:packages/generator/test/image-input.test.ts': 13,
  'generator:packages/generator/test/figures-read.test.ts': 12,
  'question-set:packages/question-set/test/cli.test.ts': 12,
  'generator:packages/generator/test/character.test.ts': 12,
  'generator:packages/generator/test/tileset.test.ts': 12,
  'generator:packages/generator/test/actions-read.test.ts': 11,
};

/** Longest first across projects (within each group order); the one-at-a-time projects keep Vitest's order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      if (spec.project.config.maxWorkers === 1) return 0; // one file at a time: order does not change the wall
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      const cached = this.ctx.cache.getFileTestResults(key)?.duration;
      return cached !== undefined ? cached / 1000 : (CI_SECONDS[key] ?? 0);
    };
    return sorted
      .map((spec, index) => ({ spec, index, seconds: seconds(spec) }))
      .sort(
        (a, b) =>
          a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder ||
          b.seconds - a.seconds ||
          a.index - b.index,
      )
      .map(({ spec }) => spec);
  }
}

// One vitest run over every package: each folder below owns a vitest.config.ts
// that names its project (unit tests beside the code, integration suites in test/).
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'reference-server/vitest.config.ts',
      'examples/*/vitest.config.ts',
      'test/vitest.config.ts',
      'test/real-servers/vitest.config.ts',
    ],
    // Two files at a time. Vitest's default on this 2-core machine is cores − 1 = one, and most files
    // spend their time waiting on a server, a browser or the database rather than on the CPU.
    // The reference server's project keeps one file at a time (fileParallelism: false) and so runs after
    // the rest, one file after another. The real model servers' project runs beside the rest: its
    // ComfyUI suites are one file (decision 0139).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // Vitest's own output, then one plain `tests: N passed, N failed, N skipped` line (the run's last).
    reporters: ['default', './test/reporters/closing-line.ts'],
  },
});
