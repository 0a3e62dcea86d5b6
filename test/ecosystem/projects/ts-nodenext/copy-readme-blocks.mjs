// Copies the README code blocks test/ecosystem extracted into ./readme, where tsc checks them.
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const from = process.env.ASSETLOOM_README_BLOCKS;
if (!from) throw new Error('ASSETLOOM_README_BLOCKS is not set: run through test/ecosystem/run.mjs');
const files = readdirSync(from).filter((f) => f.endsWith('.ts') || f === 'blocks.json');
for (const file of files) cpSync(join(from, file), join('readme', file));
console.log(`${files.length - 1} README blocks to type-check`);
