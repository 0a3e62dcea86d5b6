/**
 * pnpm --filter @assetloom/testing bench
 *
 * Measures the FerretDB test target: warm start (spawn → answers ping) against the baseline of
 * running the same binary with --version (process start alone), and per-operation latency of
 * insertOne / indexed findOne / findOneAndUpdate / countDocuments against the baseline of a `ping`
 * round trip on the same connection. Prints medians and ratios; the cold build time is read from
 * the build record prepare-mongo wrote.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { ensureFerretDB, startFerretDB } from '../src/ferretdb.js';
import { run } from '../src/internal/process.js';

const STARTS = 7;
const OPS = 300;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function main() {
  const built = await ensureFerretDB({ log: (line) => console.log(`[bench] ${line}`) });
  const record = JSON.parse(
    await readFile(join(dirname(built.binary), 'build.json'), 'utf8').catch(() => '{}'),
  ) as {
    buildMs?: number;
    goVersion?: string;
  };
  console.log(`FerretDB ${built.tag} (${built.tagSource}), ${record.goVersion ?? 'go version unknown'}`);
  console.log(
    `recorded build time (depends on how warm Go's caches were then): ${record.buildMs ? `${(record.buildMs / 1000).toFixed(1)} s` : 'unknown'}`,
  );

  const execTimes: number[] = [];
  const startTimes: number[] = [];
  for (let i = 0; i < STARTS; i += 1) {
    execTimes.push(await timed(() => run(built.binary, ['--version'])));
    const server = await startFerretDB(built.binary);
    startTimes.push(server.startMs);
    await server.stop();
  }
  const exec = median(execTimes);
  const start = median(startTimes);
  console.log(`\nwarm start, median of ${STARTS}`);
  console.log(`  baseline  ferretdb --version (spawn+exit)  ${fmt(exec)}`);
  console.log(
    `  measured  spawn → answers ping            ${fmt(start)}   ratio ${(start / exec).toFixed(1)}×`,
  );

  const server = await startFerretDB(built.binary);
  const client = await new MongoClient(server.uri).connect();
  try {
    const db = client.db('bench');
    const tasks = db.collection<{ _id: number; owner: string; leaseUntil: Date; n: number }>('tasks');
    await tasks.createIndex({ owner: 1, _id: 1 }, { unique: true });
    const pings: number[] = [];
    for (let i = 0; i < OPS; i += 1) pings.push(await timed(() => db.command({ ping: 1 })));
    const ops: Record<string, number[]> = {
      insertOne: [],
      'findOne by _id': [],
      findOneAndUpdate: [],
      countDocuments: [],
    };
    for (let i = 0; i < OPS; i += 1) {
      ops.insertOne?.push(
        await timed(() => tasks.insertOne({ _id: i, owner: `u${i % 10}`, leaseUntil: new Date(0), n: 0 })),
      );
    }
    for (let i = 0; i < OPS; i += 1)
      ops['findOne by _id']?.push(await timed(() => tasks.findOne({ _id: i })));
    for (let i = 0; i < OPS; i += 1) {
      ops.findOneAndUpdate?.push(
        await timed(() =>
          tasks.findOneAndUpdate(
            { _id: i, leaseUntil: { $lt: new Date() } },
            { $set: { leaseUntil: new Date(Date.now() + 60_000) }, $inc: { n: 1 } },
            { returnDocument: 'after' },
          ),
        ),
      );
    }
    for (let i = 0; i < 50; i += 1)
      ops.countDocuments?.push(await timed(() => tasks.countDocuments({ owner: 'u3' })));
    const ping = median(pings);
    console.log(`\nper-operation latency, median (${OPS} ops; count over ${OPS} docs ×50)`);
    console.log(`  baseline  ping round trip        ${fmt(ping)}`);
    for (const [name, values] of Object.entries(ops)) {
      const value = median(values);
      console.log(`  measured  ${name.padEnd(20)} ${fmt(value)}   ratio ${(value / ping).toFixed(1)}×`);
    }
  } finally {
    await client.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
