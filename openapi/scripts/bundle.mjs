// Bundles each OpenAPI YAML into the JSON document that the SDK, the server and the mock load.
// `--check` regenerates into a temporary folder and fails when the committed output differs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const specs = ['asset-api', 'review-auth'];
const out = check ? mkdtempSync(join(tmpdir(), 'assetloom-openapi-')) : join(root, 'generated');
const redocly = join(root, 'node_modules', '.bin', 'redocly');

let drift = false;
try {
  for (const name of specs) {
    const target = join(out, `${name}.json`);
    execFileSync(redocly, ['bundle', join(root, `${name}.yaml`), '--ext', 'json', '-o', target], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Stable formatting, so the committed file diffs cleanly.
    const doc = JSON.parse(readFileSync(target, 'utf8'));
    writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
    if (check) {
      const committed = join(root, 'generated', `${name}.json`);
      let before = '';
      try {
        before = readFileSync(committed, 'utf8');
      } catch {}
      if (before !== readFileSync(target, 'utf8')) {
        drift = true;
        console.error(
          `[assetloom/openapi] generated/${name}.json is out of date with ${name}.yaml: run \`pnpm gen\` and commit the result`,
        );
      }
    }
  }
} finally {
  if (check) rmSync(out, { recursive: true, force: true });
}
if (drift) process.exit(1);
console.log(
  check
    ? '[assetloom/openapi] generated documents are up to date'
    : `[assetloom/openapi] wrote ${specs.map((s) => `generated/${s}.json`).join(', ')}`,
);
