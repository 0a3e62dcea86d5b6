#!/usr/bin/env node
// `npm test`: the static checks, the builds, the fuzzers, the ecosystem matrix and Vitest, in that
// order, stopping at the first that fails. Each step's time is printed as it ends, and all of them
// again before Vitest starts (Vitest prints its own duration), so a slow CI run says which step grew
// (a full run must stay under 30 minutes) while the log still ends with the test summary.
import { spawn } from 'node:child_process';

const steps = [
  ['lint', 'pnpm', ['run', 'lint']],
  ['check:deploy', 'pnpm', ['run', 'check:deploy']],
  ['build', 'pnpm', ['run', 'build']],
  ['check:gen', 'pnpm', ['run', 'check:gen']],
  ['check:hashes', 'pnpm', ['run', 'check:hashes']],
  ['typecheck', 'pnpm', ['run', 'typecheck']],
  ['check:api', 'pnpm', ['run', 'check:api']],
  ['check:packages', 'pnpm', ['run', 'check:packages']],
  ['test:fuzz', 'pnpm', ['run', 'test:fuzz']],
  ['test:ecosystem', 'pnpm', ['run', 'test:ecosystem']],
  ['vitest', 'vitest', ['run', ...process.argv.slice(2)]],
];

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`[assetloom/test] could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });

const times = [];
const summary = () => times.map(([name, s]) => `${name.padEnd(16)}${s.toFixed(0).padStart(6)} s`).join('\n');
const started = performance.now();
for (const [name, command, args] of steps) {
  if (name === 'vitest') {
    times.push(['before vitest', (performance.now() - started) / 1000]);
    console.log(`[assetloom/test] step times:\n${summary()}`);
    process.exit(await run(command, args));
  }
  const t0 = performance.now();
  const code = await run(command, args);
  const seconds = (performance.now() - t0) / 1000;
  times.push([name, seconds]);
  console.log(
    `[assetloom/test] ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s`,
  );
  if (code !== 0) {
    console.log(`[assetloom/test] step times so far:\n${summary()}`);
    process.exit(code);
  }
}
