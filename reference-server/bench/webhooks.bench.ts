/**
 * `pnpm --filter @assetloom/server bench:webhooks`: webhook delivery through the real parts — the
 * outbox queues BENCH_WEBHOOK_EVENTS (default 300) task.completed events (one per task, one webhook),
 * the dispatcher (the server's sender, 4 attempts at once) signs and POSTs them to a receiver on
 * 127.0.0.1 that checks every signature. Prints deliveries per second, queue→received latency p50/p95,
 * and on MongoDB (MONGODB_URI, else FerretDB from @assetloom/testing) the database commands per queued
 * event and per delivery, counted with the driver's command monitoring.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TaskRecord } from '@assetloom/core';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { createMongoStore } from '@assetloom/core/store/mongodb';
import { createTaskWebhookOutbox, createWebhookDispatcher } from '@assetloom/core/webhooks';
import { verifyWebhook } from '@assetloom/sdk';
import { type CommandCounter, countCommands, resolveMongoTarget, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { createWebhookSender } from '../src/webhooks/index.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

async function run(label: string, store: Store, counter?: CommandCounter): Promise<void> {
  await store.init();
  const arrived = new Map<string, number>();
  let bad = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        verifyWebhook(Buffer.concat(chunks), req.headers, SECRET);
        arrived.set(String(req.headers['webhook-id']), performance.now());
      } catch {
        bad++;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const now = new Date();
  await store.webhooks.insert({
    id: 'benchhook',
    projectId: 'benchproject',
    ownerId: 1,
    url,
    events: ['task.completed'],
    description: '',
    enabled: true,
    secret: SECRET,
    createdAt: now,
    updatedAt: now,
  });
  const tasks: TaskRecord[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const task: TaskRecord = {
      id: `benchtask${i}`,
      ownerId: 1,
      projectId: 'benchproject',
      prompt: `bench ${i}`,
      assetType: 'sprite',
      taskStyle: null,
      params: { resolution: 32, format: 'spritesheet' },
      status: 'completed',
      stage: 'format_adapter',
      progress: 100,
      retryCount: 0,
      error: null,
      dedupeKey: `k${i}`,
      idempotencyKey: null,
      lastSeq: 8,
      lease: null,
      attempts: 1,
      createdAt: now,
      updatedAt: now,
    } as TaskRecord;
    await store.tasks.insert(task);
    tasks.push(task);
  }

  const outbox = createTaskWebhookOutbox({ store });
  const queuedAt = new Map<string, number>();
  counter?.reset();
  for (const task of tasks) {
    await outbox.forTask(task).finishing({ status: 'completed', assets: [], retryCount: 0 });
  }
  const enqueue = counter?.tally();
  const page = await store.webhookDeliveries.listByWebhook('benchhook', { skip: 0, limit: 1000 });
  for (const d of page.items) queuedAt.set(d.id, performance.now());

  const dispatcher = createWebhookDispatcher({
    store,
    send: createWebhookSender({ allowPrivateTargets: true }),
    owner: 'bench',
    concurrency: 4,
  });
  counter?.reset();
  const started = performance.now();
  while (arrived.size < EVENTS) {
    if ((await dispatcher.runOnce()) === 0) await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = (performance.now() - started) / 1000;
  const deliver = counter?.tally();
  const latencies = [...arrived].map(([id, t]) => t - (queuedAt.get(id) ?? started));
  const perEvent = (n: number | undefined) => (n === undefined ? 'n/a' : (n / EVENTS).toFixed(2));
  console.log(
    `${label}: ${EVENTS} deliveries in ${seconds.toFixed(2)} s = ${(EVENTS / seconds).toFixed(0)}/s; ` +
      `queue→received p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p95 ${quantile(latencies, 0.95).toFixed(0)} ms; ` +
      `bad signatures ${bad}` +
      (enqueue && deliver
        ? `; commands per queued event ${perEvent(enqueue.total)} (writes ${perEvent(enqueue.writes)}), ` +
          `per delivery ${perEvent(deliver.total)} (writes ${perEvent(deliver.writes)}; ${JSON.stringify(deliver.byCommand)})`
        : ''),
  );
  await dispatcher.stop(0);
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await store.close();
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-bench-webhooks-'));
  try {
    await run('embedded', createEmbeddedStore({ dir }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const target = await resolveMongoTarget({ log: () => undefined });
  if (target.kind === 'unavailable') {
    console.log(`mongodb: skipped (${target.reason})`);
    return;
  }
  const client = new MongoClient(target.uri, { monitorCommands: true });
  await client.connect();
  const counter = countCommands(client);
  const dbName = uniqueDbName('bench_webhooks');
  try {
    await run(`mongodb (${target.kind})`, createMongoStore({ uri: target.uri, client, dbName }), counter);
  } finally {
    counter.stop();
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
    await target.stop();
  }
}

await main();
