// The install lines of the root README (its "ecosystem: install lines" block): one `npm install` per
// use, each under a `# <use>` comment. The ecosystem projects install exactly these, as written and
// in this order (issue #41), and test/install-lines.test.ts holds them to the packages' own needs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './pack.mjs';

/** The folder the lines install from, as the README writes it. */
export const PACKAGES_DIR = './assetloom-packages/';

/** Parses the README's install block: `[{ use, comment, line, tarballs }]` in the README's order. */
export function parseInstallLines(text) {
  const block = /<!--\s*ecosystem:\s*install lines[\s\S]*?-->\s*\n```sh\n([\s\S]*?)```/.exec(text);
  if (!block) throw new Error('README.md has no "<!-- ecosystem: install lines -->" ```sh block');
  const lines = [];
  let use;
  for (const raw of block[1].split('\n')) {
    const text = raw.trim();
    if (text === '') continue;
    if (text.startsWith('#')) {
      use = text.replace(/^#\s*/, '');
      continue;
    }
    if (!text.startsWith('npm install ')) throw new Error(`unexpected line in the install block: ${text}`);
    if (use === undefined) throw new Error(`install line without a "# <use>" comment before it: ${text}`);
    const tarballs = text
      .split(/\s+/)
      .filter((word) => word.startsWith(PACKAGES_DIR))
      .map((word) => word.slice(PACKAGES_DIR.length));
    // the use's name: its comment up to a comma or a parenthesis ("the SDK and the mock")
    lines.push({ use: use.split(/,\s|\s\(/)[0].trim(), comment: use, line: text, tarballs });
    use = undefined;
  }
  return lines;
}

export function installLines() {
  return parseInstallLines(readFileSync(join(root, 'README.md'), 'utf8'));
}

/** The line of a use, by its name (`"the SDK and the mock"`: a project names its use so). */
export function installLineFor(use) {
  const matches = installLines().filter((l) => l.use === use);
  if (matches.length !== 1) {
    throw new Error(
      `the README has ${matches.length} install lines for "${use}"; its uses are: ${installLines()
        .map((l) => l.use)
        .join(' | ')}`,
    );
  }
  return matches[0];
}
