/**
 * `pnpm --filter @assetloom/server bench:db` (part of `pnpm bench`): the database commands each
 * operation sends, counted with the MongoDB driver's command monitoring (`commandStarted`) on a real
 * server over MongoDB (MONGODB_URI, else the FerretDB @assetloom/testing prepares). Counts, not
 * timings: they transfer to any deployment. BENCH_STREAMS (default 50) streams are held open for
 * BENCH_STREAM_SECONDS (default 3) on tasks nobody runs, to count what following costs.
 */
import { resolveMongoTarget } from '@assetloom/testing';
import { measureOperations, startCounted } from '../test/db-commands.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const SECONDS = Number(process.env.BENCH_STREAM_SECONDS ?? 3);

const target = await resolveMongoTarget().catch((error: unknown) => ({
  kind: 'unavailable' as const,
  reason: String(error),
}));
if (target.kind === 'unavailable') {
  console.log(`database command counts skipped: ${'reason' in target ? target.reason : 'no target'}`);
  process.exit(0);
}
const setup = await startCounted(target.uri, { WORKER_POLL_MS: '60000', EVENT_POLL_MS: '200' });
try {
  const counts = await measureOperations(setup, { streams: STREAMS, seconds: SECONDS });
  const detail = (byCommand: Record<string, number>) =>
    Object.entries(byCommand)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
  console.log(`\ndatabase commands per operation (${target.kind}, driver command monitoring)\n`);
  console.log('| operation | commands | writes | which |');
  console.log('|---|---|---|---|');
  const rows: [string, typeof counts.taskRead][] = [
    ['authenticated task read (GET /api/v1/tasks/{id})', counts.taskRead],
    ['project list (GET /api/v1/projects)', counts.projectList],
    ['generate (POST /api/v1/generate)', counts.generate],
    ['complete task run, 64 px 4×4 sheet (claim, events, assets, status moves)', counts.taskRun],
    ['one lease renewal', counts.renewal],
  ];
  for (const [label, t] of rows)
    console.log(`| ${label} | ${t.total} | ${t.writes} | ${detail(t.byCommand)} |`);
  const st = counts.streams;
  console.log(
    `| ${st.streams} live WebSocket streams, ${st.seconds} s | ${(st.perSecond).toFixed(1)} /s in all | 0 | ${(st.perStreamPerSecond).toFixed(3)} per stream per second |`,
  );
} finally {
  await setup.close();
  await (target as { stop?: () => Promise<void> }).stop?.();
}
process.exit(0);
