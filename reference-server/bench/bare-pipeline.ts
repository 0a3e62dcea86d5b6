/**
 * The bare pipeline in a process of its own (bench/bare-pipeline-child.mjs: runPipeline into
 * memory storage, 4 runs at a time, nothing else): the baseline of the generation benchmarks. A
 * process of its own, so its heap, its compiler threads and its CPU are not shared with the bench's
 * client or with servers that ran before it in the bench's process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface BarePipeline {
  pid: number;
  /** Runs `count` 64 px sprite sheets, 4 at a time, and answers the wall time in milliseconds. */
  run(count: number): Promise<number>;
  close(): void;
}

export async function startBarePipeline(): Promise<BarePipeline> {
  const child: ChildProcess = spawn(process.execPath, [join(here, 'bare-pipeline-child.mjs')], {
    cwd: join(here, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const expect = async (word: string) => {
    const next = await lines.next();
    if (next.done || next.value !== word) throw new Error(`bare pipeline child: expected ${word}`);
  };
  await expect('ready');
  return {
    pid: child.pid as number,
    async run(count) {
      const started = performance.now();
      child.stdin?.write(`run ${count}\n`);
      await expect('done');
      return performance.now() - started;
    },
    close() {
      child.stdin?.end();
      child.kill();
    },
  };
}
