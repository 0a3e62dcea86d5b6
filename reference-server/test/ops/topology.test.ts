import { getFreePort, injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, describe, expect, it } from 'vitest';
import { client, newUser } from '../helpers.js';
import { type ServerProcess, spawnServer } from '../processes.js';
import { startS3rver, type TestS3 } from '../storage/helpers.js';
import { expectPipelineProgress, openStream, waitForTaskEnd } from '../task-helpers.js';

/**
 * The compose topology of deploy/compose.yaml as plain processes on loopback: one MongoDB-wire
 * database (MONGODB_URI, else FerretDB), s3rver for MinIO, two API processes without in-process
 * workers and two worker processes, all with the settings the compose file gives them. Tasks are
 * submitted through one API process and followed over the WebSocket of the other; each worker's
 * own metrics listener tells which worker ran how many.
 */
const mongoUri = injectMongoUri('reference-server compose topology test on MongoDB');
const METRICS_TOKEN = 'topology-metrics-token-0123456789';

describe.skipIf(mongoUri === null)('the compose topology as processes (2 API, 2 workers, S3)', () => {
  const processes: ServerProcess[] = [];
  let s3: TestS3 | undefined;
  const db = uniqueDbName('topology');
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
    await s3?.close().catch(() => undefined);
    const c = new MongoClient(mongoUri as string);
    try {
      await c.db(db).dropDatabase();
    } finally {
      await c.close();
    }
  });

  it('submits on api-1, runs on both workers, streams on api-2, serves files from the bucket', async () => {
    s3 = await startS3rver('assetloom-assets');
    const shared = {
      NODE_ENV: 'production',
      SCRYPT_COST: '17',
      MONGODB_URI: mongoUri as string,
      MONGODB_DB: db,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      METRICS_ENABLED: 'true',
      METRICS_TOKEN,
      EVENT_POLL_MS: '50',
      WORKER_POLL_MS: '50',
      LOG_LEVEL: 'info',
      // One user submits all eight (production scrypt): with the default cap of one running task per
      // user (issue #37) the tasks would run one after another, and which worker takes each is a race.
      USER_MAX_RUNNING_TASKS: '4',
    };
    const api = { ...shared, WORKER_IN_PROCESS: 'false' };
    const [w1port, w2port] = [await getFreePort(), await getFreePort()];
    const [api1, api2, worker1, worker2] = await Promise.all([
      spawnServer(api),
      spawnServer(api),
      spawnServer(
        { ...shared, WORKER_CONCURRENCY: '2', METRICS_PORT: String(w1port) },
        30_000,
        'worker-main.ts',
      ),
      spawnServer(
        { ...shared, WORKER_CONCURRENCY: '2', METRICS_PORT: String(w2port) },
        30_000,
        'worker-main.ts',
      ),
    ]);
    processes.push(api1, api2, worker1, worker2);

    for (const p of [api1, api2]) {
      const ready = await client(p.url).get('/api/v1/ready');
      expect(ready.status).toBe(200);
    }
    // Production settings: scrypt at the OWASP cost, so only one user.
    const user = await newUser(api1.url);
    const project = await client(api1.url).post('/api/v1/projects', { name: 'Fleet' }, { token: user.token });
    const ids: string[] = [];
    const prompts = ['a robot', 'a ghost', 'a mage', 'a slime', 'a bat', 'a crab', 'a frog', 'an owl'];
    for (const prompt of prompts) {
      const res = await client(api1.url).post(
        '/api/v1/generate',
        { projectId: project.body.data.id, prompt, assetType: 'sprite', params: { resolution: 16 } },
        { token: user.token },
      );
      expect(res.status).toBe(200);
      ids.push(res.body.data.taskId);
    }
    const streams = await Promise.all(
      ids.map((id) => openStream(api2.url, id, { token: user.token, timeoutMs: 90_000 })),
    );
    for (const stream of streams) {
      expect(stream.refused).toBeUndefined();
      expect(stream.closeCode).toBe(1000);
      for (const m of stream.messages) expectPipelineProgress(m);
      const seqs = stream.messages.map((m) => m.seq as number);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(stream.messages.at(-1)).toMatchObject({ status: 'completed' });
    }
    for (const id of ids) {
      expect(await waitForTaskEnd(api2.url, user.token, id)).toMatchObject({ status: 'completed' });
    }
    // The files live in the bucket: the signed URL points at s3rver, not at an API process.
    const assets = await client(api2.url).get(`/api/v1/tasks/${ids[0]}/assets`, { token: user.token });
    const sheet = (assets.body.data.assets as { key: string; url: string }[]).find((a) =>
      a.key.endsWith('.png'),
    );
    expect(sheet?.url.startsWith(s3.endpoint)).toBe(true);
    const file = await fetch(sheet?.url as string);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');

    // Every task ran once, on one of the two workers; both took part.
    const completedBy = async (port: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).toBe(200);
      const families = parsePrometheusTextFormat(await res.text());
      const tasks = families.find((f) => f.name === 'assetloom_tasks_total');
      return Number(tasks?.metrics.find((m) => m.labels?.outcome === 'completed')?.value ?? 0);
    };
    const [ran1, ran2] = [await completedBy(w1port), await completedBy(w2port)];
    expect(ran1 + ran2).toBe(ids.length);
    expect(ran1).toBeGreaterThan(0);
    expect(ran2).toBeGreaterThan(0);
    // The API processes count what they answered: the submissions on api-1, the reads on api-2.
    const apiMetrics = async (url: string) =>
      parsePrometheusTextFormat(
        await (
          await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text(),
      );
    const submitted = (await apiMetrics(api1.url))
      .find((f) => f.name === 'assetloom_http_requests_total')
      ?.metrics.find((m) => m.labels?.route === '/api/v1/generate');
    expect(submitted?.value).toBe(String(ids.length));
    const depth = (await apiMetrics(api2.url)).find((f) => f.name === 'assetloom_queue_depth');
    expect(depth?.metrics[0]?.value).toBe('0');
  }, 180_000);
});
