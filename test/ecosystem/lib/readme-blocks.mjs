// Extracts the TypeScript/JavaScript code blocks of every public package README, so the ecosystem
// projects can type-check them against the installed tarballs (and run the ones marked to run).
//
// A block may be preceded by one HTML comment that the README renders invisibly:
//   <!-- ecosystem: skip — why -->           not checked (say why)
//   <!-- ecosystem: run -->                  type-checked and run against a real server
//                                             ('http://127.0.0.1:8080' becomes ASSETLOOM_BASE_URL)
//   <!-- ecosystem: declare <ts> -->          declarations the fragment assumes (`declare const x: T;`)
// Every other ```ts / ```js block is type-checked as its own module; ```json blocks are written as
// <name>.json files (the question-set CLI project validates those of its README).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLIC_PACKAGES, root } from './pack.mjs';

const FENCE =
  /(?:<!--\s*ecosystem:\s*([\s\S]*?)-->\s*\n)?```(ts|typescript|js|javascript|json)\n([\s\S]*?)```/g;
/** The server URL the READMEs write; the runner points it at the server it started. */
export const BASE = /'http:\/\/127\.0\.0\.1:8080'/g;

/** Parses one README; answers [{ index, line, mode, code }]. */
export function parseReadme(text) {
  const blocks = [];
  for (const match of text.matchAll(FENCE)) {
    const directive = (match[1] ?? '').trim();
    const line = text.slice(0, match.index).split('\n').length;
    let mode = 'check';
    let declare = '';
    if (directive.startsWith('skip')) mode = 'skip';
    else if (directive.startsWith('run')) mode = 'run';
    else if (directive.startsWith('declare')) declare = directive.slice('declare'.length).trim();
    else if (directive) throw new Error(`unknown ecosystem directive "${directive}" at line ${line}`);
    blocks.push({ index: blocks.length + 1, line, lang: match[2], mode, declare, code: match[3] });
  }
  return blocks;
}

/**
 * Writes <out>/<package-dir-name>-<n>.ts for each checked block and <out>/blocks.json; answers the
 * list. Imports stay at the top of the module (TypeScript requires it for `declare` preludes).
 */
export function extractReadmeBlocks(out) {
  mkdirSync(out, { recursive: true });
  const written = [];
  for (const pkg of PUBLIC_PACKAGES) {
    const readme = join(root, pkg.dir, 'README.md');
    const text = readFileSync(readme, 'utf8');
    for (const block of parseReadme(text)) {
      if (block.mode === 'skip') continue;
      const stem = `${pkg.dir.split('/').pop()}-${block.index}`;
      if (block.lang === 'json') {
        // JSON examples (a whole question set, say): written as they are, for the CLI project.
        writeFileSync(join(out, `${stem}.json`), block.code);
        continue;
      }
      let code = block.code;
      if (block.mode === 'run') {
        code = code.replace(BASE, "(process.env.ASSETLOOM_BASE_URL || 'http://127.0.0.1:8080')");
      }
      const header = `// ${pkg.dir}/README.md line ${block.line} (extracted by test/ecosystem; edit the README)\n`;
      const body = `${header}${block.declare ? `${block.declare}\n` : ''}${code}\nexport {};\n`;
      writeFileSync(join(out, `${stem}.ts`), body);
      written.push({
        file: `${stem}.ts`,
        package: pkg.name,
        readme: `${pkg.dir}/README.md`,
        line: block.line,
        run: block.mode === 'run',
      });
    }
  }
  writeFileSync(join(out, 'blocks.json'), `${JSON.stringify(written, null, 2)}\n`);
  return written;
}
