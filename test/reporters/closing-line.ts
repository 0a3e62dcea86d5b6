import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line after Vitest's own summary:
 *
 *     tests: 2358 passed, 0 failed, 2 skipped
 *
 * Vitest's summary is coloured and laid out for people; CI tools that read a run's closing line
 * (and any grep) want `N passed, N failed` alone on a line, without escape codes. A test file that
 * failed to load and an unhandled error each count as one failure, so a run that broke outside a
 * test never closes on "0 failed".
 */
export function closingLine(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<unknown>,
): string {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const module of testModules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed += 1;
      else if (state === 'failed') failedHere += 1;
      else skipped += 1;
    }
    // A module can fail with no failed test in it: an import error, a failing beforeAll, a type error.
    if (failedHere === 0 && module.state() === 'failed') failedHere = 1;
    failed += failedHere;
  }
  failed += unhandledErrors.length;
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(`${closingLine(testModules, unhandledErrors)}\n`);
  }
}
