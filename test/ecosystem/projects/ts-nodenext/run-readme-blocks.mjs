// Runs the compiled README blocks marked `<!-- ecosystem: run -->` against the reference server.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const blocks = JSON.parse(readFileSync(join('readme', 'blocks.json'), 'utf8')).filter((b) => b.run);
if (blocks.length === 0) throw new Error('no README block is marked to run');
for (const block of blocks) {
  const file = join('out', 'readme', block.file.replace(/\.ts$/, '.js'));
  const result = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 120_000, stdio: 'pipe' });
  if (result.status !== 0) {
    console.error(
      `${block.readme} line ${block.line} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`,
    );
    process.exit(1);
  }
  console.log(`ran ${block.readme} line ${block.line}`);
}
