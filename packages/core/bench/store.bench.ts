/**
 * Embedded store throughput: project insert and newest-first list (page of 20 out of 200), through
 * the Store port, in memory and on disk. Baseline, measured in the same run: the same operations
 * straight on a bare @seald-io/nedb Datastore (the engine underneath). Prints ops/s and the ratio.
 *
 *   pnpm --filter @assetloom/core bench        (BENCH_N=… to change the insert count)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Datastore from '@seald-io/nedb';
import { createEmbeddedStore } from '../src/entries/store-embedded.js';
import { randomId, type Store } from '../src/index.js';
import { projectToDoc } from '../src/internal/documents.js';

const N = Number(process.env.BENCH_N ?? 5000);
const LIST_OWNER_PROJECTS = 200;
const LIST_CALLS = 2000;

async function timed(ops: number, run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return ops / ((performance.now() - start) / 1000);
}

function projectAt(ownerId: number, i: number) {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000);
  return {
    id: randomId(),
    ownerId,
    name: `Project ${i}`,
    style: { artStyle: 'pixel', palette: 'sweetie16' },
    taskCount: 0,
    lastActivityAt: at,
    createdAt: at,
    updatedAt: at,
  };
}

async function benchStore(store: Store) {
  await store.init();
  const insert = await timed(N, async () => {
    for (let i = 0; i < N; i++) await store.projects.insert(projectAt(1 + (i % 50), i));
  });
  for (let i = 0; i < LIST_OWNER_PROJECTS; i++) await store.projects.insert(projectAt(999_999, i));
  const list = await timed(LIST_CALLS, async () => {
    for (let i = 0; i < LIST_CALLS; i++)
      await store.projects.listByOwner(999_999, { skip: (i % 10) * 20, limit: 20 });
  });
  await store.close();
  return { insert, list };
}

async function benchRaw(filename?: string) {
  const db = new Datastore(filename ? { filename } : { inMemoryOnly: true });
  await db.loadDatabaseAsync();
  await db.ensureIndexAsync({ fieldName: 'ownerId' });
  const insert = await timed(N, async () => {
    for (let i = 0; i < N; i++) {
      await db.insertAsync(projectToDoc(projectAt(1 + (i % 50), i)) as unknown as Record<string, unknown>);
    }
  });
  for (let i = 0; i < LIST_OWNER_PROJECTS; i++) {
    await db.insertAsync(projectToDoc(projectAt(999_999, i)) as unknown as Record<string, unknown>);
  }
  const list = await timed(LIST_CALLS, async () => {
    for (let i = 0; i < LIST_CALLS; i++) {
      await db.countAsync({ ownerId: 999_999 });
      await db
        .findAsync({ ownerId: 999_999 })
        .sort({ createdAt: -1, _id: -1 })
        .skip((i % 10) * 20)
        .limit(20);
    }
  });
  return { insert, list };
}

const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')} ops/s`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = await mkdtemp(join(tmpdir(), 'assetloom-core-bench-'));
const best = {
  memory: { insert: 0, list: 0 },
  rawMemory: { insert: 0, list: 0 },
  disk: { insert: 0, list: 0 },
  rawDisk: { insert: 0, list: 0 },
};
const keep = (key: keyof typeof best, r: { insert: number; list: number }) => {
  best[key].insert = Math.max(best[key].insert, r.insert);
  best[key].list = Math.max(best[key].list, r.list);
};
try {
  await benchRaw(); // warm-up
  // Interleaved rounds, best of each: the machine is shared, so single runs are noisy.
  for (let round = 0; round < ROUNDS; round++) {
    keep('rawMemory', await benchRaw());
    keep('memory', await benchStore(createEmbeddedStore()));
    keep('rawDisk', await benchRaw(join(dir, `raw-${round}.db`)));
    keep('disk', await benchStore(createEmbeddedStore({ dir: join(dir, `store-${round}`) })));
  }
  const rows = [
    ['insert (memory)', best.memory.insert, best.rawMemory.insert],
    ['list page (memory)', best.memory.list, best.rawMemory.list],
    ['insert (disk)', best.disk.insert, best.rawDisk.insert],
    ['list page (disk)', best.disk.list, best.rawDisk.list],
  ] as const;
  console.log(
    `embedded store, ${N} project inserts, ${LIST_CALLS} list calls (page of 20 of ${LIST_OWNER_PROJECTS}, with total); best of ${ROUNDS} interleaved rounds`,
  );
  console.log('operation            | Store port        | bare NeDB (baseline) | ratio');
  for (const [name, ours, base] of rows) {
    console.log(
      `${name.padEnd(20)} | ${fmt(ours).padEnd(17)} | ${fmt(base).padEnd(20)} | ${(ours / base).toFixed(2)}`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
