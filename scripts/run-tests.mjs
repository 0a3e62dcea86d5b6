#!/usr/bin/env node
// `npm test`: the static checks, the builds, the fuzzers, the ecosystem matrix and Vitest, stopping at
// the first that fails. Each step's time is printed as it ends, and all of them again before Vitest
// starts (Vitest prints its own duration), so a slow CI run says which step grew (a full run must stay
// under 30 minutes) while the log still ends with the test summary.
//
// After the build, two lanes run at once (decision 0068): the checks that read the source (generated
// files, output hashes, types, API reports, package manifests) and the outside judges that drive built
// servers and packed tarballs (Schemathesis, the ecosystem projects). Neither writes what the other
// reads — builds swap dist/ whole, packs go to temp folders — and on two cores the checks' TypeScript
// passes fill the time the judges spend waiting on npm, servers and Chromium. The judges' lines are
// printed as they come, each prefixed with its step's name; the checks print straight through.
import { spawn } from 'node:child_process';

const serial = [
  ['lint', 'pnpm', ['run', 'lint']],
  ['check:deploy', 'pnpm', ['run', 'check:deploy']],
  ['build', 'pnpm', ['run', 'build']],
];
const lanes = [
  [
    ['check:gen', 'pnpm', ['run', 'check:gen']],
    ['check:hashes', 'pnpm', ['run', 'check:hashes']],
    ['typecheck', 'pnpm', ['run', 'typecheck']],
    ['check:api', 'pnpm', ['run', 'check:api']],
    ['check:packages', 'pnpm', ['run', 'check:packages']],
  ],
  [
    ['test:fuzz', 'pnpm', ['run', 'test:fuzz']],
    ['test:ecosystem', 'pnpm', ['run', 'test:ecosystem']],
  ],
];

const children = new Set();
const stopAll = () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM'); // its whole process group: servers, browsers, npm
    } catch {}
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Runs one step; `prefix` pipes its output line by line with that prefix, else it inherits ours. */
const run = (name, command, args, prefix) =>
  new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: prefix ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
      detached: true, // own process group, so a failure elsewhere stops everything it started
    });
    children.add(child);
    if (prefix) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          if (lines.length > 0) out.write(lines.map((line) => `${prefix}${line}\n`).join(''));
        });
        stream.on('end', () => {
          if (rest) out.write(`${prefix}${rest}\n`);
        });
      }
    }
    child.on('error', (error) => {
      console.error(`[assetloom/test] could not start ${command} for ${name}: ${error.message}`);
      children.delete(child);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 128 : 1));
    });
  });

const times = [];
const summary = () => times.map(([name, s]) => `${name.padEnd(16)}${s.toFixed(0).padStart(6)} s`).join('\n');
const started = performance.now();
let failed = 0;

const step = async ([name, command, args], prefix) => {
  const t0 = performance.now();
  const code = await run(name, command, args, prefix);
  const seconds = (performance.now() - t0) / 1000;
  times.push([name, seconds]);
  if (failed !== 0) return code; // stopped because another step failed
  console.log(
    `[assetloom/test] ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s`,
  );
  if (code !== 0) {
    failed = code;
    stopAll();
  }
  return code;
};

const fail = () => {
  console.log(`[assetloom/test] step times so far:\n${summary()}`);
  process.exit(failed);
};

for (const entry of serial) {
  await step(entry);
  if (failed !== 0) fail();
}
const laneStart = performance.now();
console.log(
  `[assetloom/test] two lanes at once: ${lanes.map((lane) => lane.map(([name]) => name).join(' → ')).join('  |  ')}`,
);
await Promise.all(
  lanes.map(async (lane, index) => {
    for (const entry of lane) {
      if (failed !== 0) return;
      await step(entry, index === 0 ? undefined : `${entry[0]} │ `);
    }
  }),
);
times.push(['(both lanes)', (performance.now() - laneStart) / 1000]);
if (failed !== 0) fail();
times.push(['before vitest', (performance.now() - started) / 1000]);
console.log(`[assetloom/test] step times:\n${summary()}`);
process.exit(await run('vitest', 'vitest', ['run', ...process.argv.slice(2)]));
