import { describe, expect, it } from 'vitest';
import { restateBanner } from './banner.mjs';

// The closing-line forms a CI log reader takes for pytest's: `==== <summary> in <n>s ====`.
const pytestClosing = /^=+ .* in [\d.]+s =+$/;

describe('the fuzz relay', () => {
  it('restates the section banners Schemathesis prints, so none reads as a pytest run of no test', () => {
    const printed = [
      '=================================== SUMMARY ====================================',
      '============================= 2 warnings in 50.64s =============================',
      '=========================== No issues found in 3.70s ===========================',
    ];
    const relayed = printed.map((line) => restateBanner(line, 'asset-api'));
    expect(relayed).toEqual([
      '[schemathesis asset-api] SUMMARY',
      '[schemathesis asset-api] 2 warnings in 50.64s',
      '[schemathesis asset-api] No issues found in 3.70s',
    ]);
    for (const line of relayed) expect(line).not.toMatch(pytestClosing);
  });

  it('passes every other line through unchanged, counts and reproductions included', () => {
    for (const line of [
      '  4105 generated, 4105 passed, 42 skipped',
      "     curl -X POST -H 'Authorization: Bearer [Filtered]' http://127.0.0.1:1/api/v1/generate",
      '==',
      '',
    ]) {
      expect(restateBanner(line, 'review-auth')).toBe(line);
    }
  });
});
