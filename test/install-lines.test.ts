// The root README's install lines (issue #41) held to the packages: each line names every tarball
// its packages need (a mock line without core answered `404 @assetloom/core` from the registry), no
// public package is left without a line that installs it, each package's README repeats its use's
// line, and no README claims that installing from the registry works while nothing is published.
// test/ecosystem runs the lines themselves, as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installClosure, publicPackages, root, tarballName } from '../scripts/pack-all.mjs';
import { installLines } from './ecosystem/lib/install-lines.mjs';

const packages = publicPackages();
const byTarball = new Map(packages.map((p) => [tarballName(p.name), p]));
const lines = installLines();

/** Which package README repeats which use's line. */
const README_OF_USE: [use: string, readme: string][] = [
  ['the SDK', 'packages/sdk/README.md'],
  ['the SDK and the mock', 'packages/mock/README.md'],
  ['the question-set validator', 'packages/question-set/README.md'],
  ['the reference server', 'reference-server/README.md'],
  ['the CLI', 'packages/cli/README.md'],
  ['the MCP server for coding agents', 'packages/mcp/README.md'],
];

describe('the README install lines', () => {
  it.each(lines.map((l) => [l.use, l] as const))(
    '%s: names every tarball its packages need, once',
    (_use, line) => {
      const names = line.tarballs.map((file) => {
        const pkg = byTarball.get(file);
        expect(
          pkg,
          `${file} is not the tarball of a public package (npm run pack:all writes ${[...byTarball.keys()].join(', ')})`,
        ).toBeDefined();
        return pkg?.name as string;
      });
      expect(new Set(names).size).toBe(names.length);
      expect([...installClosure(names, packages)].sort()).toEqual([...names].sort());
    },
  );

  it('names the uses the ecosystem projects install', () => {
    expect(lines.map((l) => l.use)).toEqual(README_OF_USE.map(([use]) => use));
  });

  it('every public package is installed by some line (a new package needs its line, or a place in one)', () => {
    const installed = new Set(lines.flatMap((l) => l.tarballs));
    expect(packages.map((p) => tarballName(p.name)).filter((file) => !installed.has(file))).toEqual([]);
  });

  it.each(README_OF_USE)('the line of %s is repeated word for word in %s', (use, readme) => {
    const matches = lines.filter((l) => l.use === use);
    expect(matches).toHaveLength(1);
    expect(readFileSync(join(root, readme), 'utf8')).toContain(matches[0]?.line);
  });

  it('no README says `npm install @assetloom/…` works but as what will be, once published', () => {
    const claims: string[] = [];
    for (const dir of ['.', ...packages.map((p) => p.dir)]) {
      const text = readFileSync(join(root, dir, 'README.md'), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (/npm (install|i)( --save-dev| -D)? @assetloom\//.test(line) && !/published/i.test(line)) {
          claims.push(`${dir}/README.md:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(claims).toEqual([]);
  });
});
