/**
 * `pnpm --filter @assetloom/server bench:fleet`: a fleet on loopback with a fault. Two API processes
 * (no in-process workers) and two worker processes on one MongoDB-wire database (MONGODB_URI, else
 * the FerretDB @assetloom/testing prepares), 50 users submitting 1,000 small tasks, one WebSocket
 * stream per task (on the API process that did NOT take the submission), a webhook per project
 * delivered to a receiver here, and one worker killed with SIGKILL once half the tasks completed.
 *
 * Every database command of the fleet passes a counting proxy (the wire protocol's OP_MSG command
 * names), so "DB commands/s" covers all four processes. It prints tasks/s, p95 submit→completed, p95
 * event latency (event `at`, stamped by the worker, to arrival), DB commands/s with the top commands,
 * the webhook tally (deliveries, distinct webhook-ids, tasks without one), and as its LAST line:
 *   fleet: <completed>/<submitted> completed, <lost> lost, <dup> duplicate assets, <streams> streams ok
 *
 * FLEET_USERS (50), FLEET_TASKS (1000), FLEET_RESOLUTION (16), FLEET_TIMEOUT_S (900) scale it;
 * FLEET_PACED=1 makes each user wait for its task's end before the next submission (at most
 * FLEET_USERS streams live at once instead of all of them; FerretDB v1 scans whole collections for
 * `$in` filters, so 1,000 queued tasks with 1,000 live streams saturate it on a small machine).
 * FLEET_BACKEND=postgresql runs FerretDB v1 on its PostgreSQL backend instead (a throwaway cluster
 * initdb/pg_ctl start on loopback in a temporary directory, fsync off; the binaries come from
 * FLEET_PG_BIN or `pg_config --bindir`; as root it runs them as the `postgres` user). PostgreSQL
 * evaluates FerretDB's pushed-down filters with its jsonb operators, where the SQLite backend
 * scans and decodes every document in Go: the 1,000-task run finishes there (docs/benchmarks/database.md).
 * Every failed task is printed with its error, attempts and stage, grouped by reason (issue #29).
 * FLEET_LEASE_MS (30000), FLEET_MAX_ATTEMPTS (5) and FLEET_CANCEL_CHECK_MS (1000) set TASK_LEASE_MS,
 * TASK_MAX_ATTEMPTS and TASK_CANCEL_CHECK_MS.
 * Exits 1 when a task failed or was lost, an asset doubled, a stream broke or a webhook never came.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureFerretDB, getFreePort, pingMongo, resolveMongoTarget, uniqueDbName } from '@assetloom/testing';
import { BSON, MongoClient } from 'mongodb';
import WebSocket from 'ws';

const USERS = Number(process.env.FLEET_USERS ?? 50);
const TASKS = Number(process.env.FLEET_TASKS ?? 1000);
const RESOLUTION = Number(process.env.FLEET_RESOLUTION ?? 16);
const TIMEOUT_MS = Number(process.env.FLEET_TIMEOUT_S ?? 900) * 1000;
/** FLEET_PACED=1: each user submits its next task when the previous one's stream ended (≤ USERS live streams). */
const PACED = process.env.FLEET_PACED === '1';
const SECRET = 'fleet-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const log = (line: string) => process.stderr.write(`[fleet] ${line}\n`);

// ---- a counting proxy in front of the database -------------------------------------------------

/** Driver chatter, not application work. */
const NOT_COUNTED = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'saslStart',
  'saslContinue',
  'endSessions',
  'buildInfo',
  'buildinfo',
]);

async function countingProxy(target: { host: string; port: number }) {
  const byCommand = new Map<string, number>();
  let total = 0;
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    let pending: Buffer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= 16) {
        const length = pending.readInt32LE(0);
        if (pending.length < length) break;
        const opCode = pending.readInt32LE(12);
        if (opCode === 2013 && pending[20] === 0) {
          // OP_MSG, first section kind 0: the command document; its first key names the command.
          try {
            const docLength = pending.readInt32LE(21);
            const doc = BSON.deserialize(pending.subarray(21, 21 + docLength));
            const name = Object.keys(doc)[0] ?? '?';
            if (!NOT_COUNTED.has(name)) {
              total++;
              const key = `${name} ${typeof doc[name] === 'string' ? doc[name] : ''}`.trim();
              byCommand.set(key, (byCommand.get(key) ?? 0) + 1);
            }
          } catch {
            // not a document we can read: not counted
          }
        }
        pending = pending.subarray(length);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get total() {
      return total;
    },
    top(n: number): [string, number][] {
      return [...byCommand].sort((a, b) => b[1] - a[1]).slice(0, n);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- FerretDB on PostgreSQL (FLEET_BACKEND=postgresql) ------------------------------------------

async function startFerretDBOnPostgres(): Promise<{
  kind: 'FerretDB (PostgreSQL backend)';
  uri: string;
  stop(): Promise<void>;
}> {
  const bin =
    process.env.FLEET_PG_BIN ?? execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  const asRoot = process.getuid?.() === 0;
  // initdb refuses to run as root: run the PostgreSQL tools as the postgres user then.
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-fleet-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    await chown(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const pgPort = await getFreePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const options = `-h 127.0.0.1 -p ${pgPort} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'postgres.log'), '-w', 'start']);
  const stopPostgres = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // already stopped
    }
  };
  let ferret: ChildProcess | undefined;
  try {
    run('createdb', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', 'ferretdb']);
    const { binary } = await ensureFerretDB();
    const port = await getFreePort();
    ferret = spawn(
      binary,
      [
        '--handler=pg',
        `--postgresql-url=postgres://postgres@127.0.0.1:${pgPort}/ferretdb`,
        `--state-dir=${dir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=warn',
        '--no-log-uuid',
      ],
      { cwd: dir, stdio: 'ignore', env: { ...process.env, FERRETDB_TELEMETRY: 'disable' } },
    );
    const uri = `mongodb://127.0.0.1:${port}/?directConnection=true`;
    let up = false;
    for (let i = 0; i < 60 && !up && ferret.exitCode === null; i++) {
      up = (await pingMongo(uri, 1_000)).ok;
      if (!up) await new Promise((r) => setTimeout(r, 500));
    }
    if (!up) throw new Error(`FerretDB on PostgreSQL did not answer ping (${uri})`);
    const started = ferret;
    return {
      kind: 'FerretDB (PostgreSQL backend)',
      uri,
      async stop() {
        started.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 500));
        started.kill('SIGKILL');
        stopPostgres();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    ferret?.kill('SIGKILL');
    stopPostgres();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

// ---- processes ---------------------------------------------------------------------------------

interface Proc {
  child: ChildProcess;
  url: string;
  /** The last error lines (level ≥ 50) the process logged. */
  errors: string[];
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

async function spawnProc(env: Record<string, string>, entry: 'main.ts' | 'worker-main.ts'): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', entry)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (c) => {
    stderr = (stderr + String(c)).slice(-4000);
  });
  const errors: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start: ${stderr}`)), 60_000);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      try {
        const record = JSON.parse(line) as { msg?: string; url?: string; level?: number };
        if ((record.level ?? 0) >= 50) {
          errors.push(line.slice(0, 2000));
          if (errors.length > 20) errors.shift();
        }
        if (record.msg === 'listening' && typeof record.url === 'string') {
          clearTimeout(timer);
          resolve(record.url);
        } else if (entry === 'worker-main.ts' && record.msg === 'worker started') {
          clearTimeout(timer);
          resolve('');
        }
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url,
    errors,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json.data;
}

// ---- the webhook receiver ----------------------------------------------------------------------

async function startReceiver() {
  const byId = new Map<string, number>();
  const tasksSeen = new Map<string, string>();
  let requests = 0;
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const id = String(req.headers['webhook-id'] ?? '');
      byId.set(id, (byId.get(id) ?? 0) + 1);
      try {
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type?: string;
          data?: { taskId?: string };
        };
        if (payload.data?.taskId && payload.type) tasksSeen.set(payload.data.taskId, payload.type);
      } catch {
        // a ping or a body we do not read
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    byId,
    tasksSeen,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- the run -----------------------------------------------------------------------------------

interface Followed {
  taskId: string;
  submittedAt: number;
  seqs: number[];
  lags: number[];
  terminal: 'completed' | 'failed' | null;
  terminalAt: number;
  eventAssets: number;
  closeCode: number | null;
  done: Promise<void>;
}

function follow(
  base: string,
  taskId: string,
  token: string,
  submittedAt: number,
  onEnd: () => void,
): Followed {
  const f: Followed = {
    taskId,
    submittedAt,
    seqs: [],
    lags: [],
    terminal: null,
    terminalAt: Number.NaN,
    eventAssets: 0,
    closeCode: null,
    done: Promise.resolve(),
  };
  f.done = new Promise<void>((resolve) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/tasks/${taskId}/ws`, {
      headers: { authorization: `Bearer ${token}` },
    });
    ws.on('message', (data) => {
      const now = Date.now();
      const e = JSON.parse(String(data)) as {
        seq: number;
        at: string;
        stage: string;
        status: string;
        error?: string;
        result?: { assets?: unknown[] };
      };
      f.seqs.push(e.seq);
      f.lags.push(now - Date.parse(e.at));
      if (e.stage === 'format_adapter' && e.status === 'completed') {
        f.terminal = 'completed';
        f.eventAssets = e.result?.assets?.length ?? 0;
      } else if (e.status === 'failed' && typeof e.error === 'string') f.terminal = 'failed';
      if (f.terminal !== null && Number.isNaN(f.terminalAt)) {
        f.terminalAt = now;
        onEnd();
      }
    });
    ws.on('close', (code) => {
      f.closeCode = code;
      resolve();
    });
    ws.on('error', () => resolve());
  });
  return f;
}

const target =
  process.env.FLEET_BACKEND === 'postgresql' ? await startFerretDBOnPostgres() : await resolveMongoTarget();
if (target.kind === 'unavailable') {
  console.log(`fleet bench skipped: ${target.reason}`);
  process.exit(0);
}
const dbUri = new URL(target.uri.replace(/^mongodb:/, 'http:'));
const proxy = await countingProxy({ host: dbUri.hostname, port: Number(dbUri.port || 27017) });
const proxiedUri = `mongodb://127.0.0.1:${proxy.port}/`;
const dbName = uniqueDbName('fleet');
const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-fleet-'));
const receiver = await startReceiver();
const procs: Proc[] = [];
let exitCode = 0;
try {
  const shared = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    JWT_SECRET: SECRET,
    SCRYPT_COST: '10',
    LOG_LEVEL: 'info',
    MONGODB_URI: proxiedUri,
    MONGODB_DB: dbName,
    DATA_DIR: dataDir,
    GENERATE_MAX_REQUESTS: '100000',
    REGISTER_IP_MAX: '100000',
    // 50 users register at once from this one address (the per-address bounds have their tests).
    PASSWORD_HASH_PER_CLIENT: '1000',
    // A killed worker's tasks are taken over when their leases end. On a slow database (FerretDB on
    // SQLite under this load answers some commands in seconds) a lease of 10 s and 3 attempts let
    // renewals run late: live workers lost leases and 5 of 1,000 tasks ended as "abandoned" (issue
    // #29). 30 s leases (the server's default) and 5 attempts ride that out; a SIGKILLed worker's
    // tasks then wait up to 30 s. FLEET_LEASE_MS and FLEET_MAX_ATTEMPTS override. Polls stay at their
    // defaults: on FerretDB every idle poll is a scan, and they compete with the work.
    TASK_LEASE_MS: process.env.FLEET_LEASE_MS ?? '30000',
    TASK_MAX_ATTEMPTS: process.env.FLEET_MAX_ATTEMPTS ?? '5',
    // Each worker checks its running tasks for deletion once a second (decision 0029): on FerretDB
    // every check is a scan of the tasks. FLEET_CANCEL_CHECK_MS spaces it out on a slow backend.
    TASK_CANCEL_CHECK_MS: process.env.FLEET_CANCEL_CHECK_MS ?? '1000',
    // FerretDB v1 answers the shared poll by scanning the whole events collection (no index for
    // $in/$or), so polling it every 200 ms from two API processes saturates it as the log grows.
    EVENT_POLL_MS: process.env.FLEET_EVENT_POLL_MS ?? '500',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_BASE_MS: '1000',
  };
  log(`starting 2 API processes and 2 workers on ${target.kind} (through a counting proxy)`);
  const [api1, api2, worker1, worker2] = await Promise.all([
    spawnProc({ ...shared, WORKER_IN_PROCESS: 'false' }, 'main.ts'),
    spawnProc({ ...shared, WORKER_IN_PROCESS: 'false' }, 'main.ts'),
    spawnProc({ ...shared, WORKER_CONCURRENCY: '4' }, 'worker-main.ts'),
    spawnProc({ ...shared, WORKER_CONCURRENCY: '4' }, 'worker-main.ts'),
  ]);
  procs.push(api1 as Proc, api2 as Proc, worker1 as Proc, worker2 as Proc);
  const apis = [api1 as Proc, api2 as Proc];

  log(`${USERS} users, each with a project and a webhook`);
  const users = await Promise.all(
    Array.from({ length: USERS }, async (_, u) => {
      const base = (apis[u % 2] as Proc).url;
      const username = `fleet${u}x${Date.now().toString(36)}`;
      await call(base, 'POST', '/auth/register', { username, password: 'secret-pass' });
      const login = await call(base, 'POST', '/auth/login', { username, password: 'secret-pass' });
      const token = login.token as string;
      const project = await call(base, 'POST', '/api/v1/projects', { name: `fleet ${u}` }, token);
      await call(
        base,
        'POST',
        `/api/v1/projects/${project.id as string}/webhooks`,
        { url: receiver.url, events: ['task.completed', 'task.failed'] },
        token,
      );
      return { token, projectId: project.id as string };
    }),
  );

  const followed: Followed[] = [];
  let ended = 0;
  let killed = false;
  let killedAt = Number.NaN;
  const onEnd = () => {
    ended++;
    if (!killed && ended >= TASKS / 2) {
      killed = true;
      killedAt = Date.now();
      log(`${ended} tasks ended: SIGKILL to worker 1`);
      void (worker1 as Proc).kill9();
    }
  };
  const commandsBefore = proxy.total;
  const started = Date.now();
  const progress = setInterval(() => {
    log(
      `${((Date.now() - started) / 1000).toFixed(0)} s: ${ended} ended, ${proxy.total - commandsBefore} DB commands`,
    );
  }, 30_000);
  progress.unref();
  log(`submitting ${TASKS} tasks (${RESOLUTION} px), one stream each on the other API process`);
  const perUser = Math.ceil(TASKS / USERS);
  let submitted = 0;
  const submitErrors: string[] = [];
  await Promise.all(
    users.map(async (user, u) => {
      for (let i = 0; i < perUser; i++) {
        const n = u * perUser + i;
        if (n >= TASKS) return;
        const submitTo = apis[n % 2] as Proc;
        const streamOn = apis[(n + 1) % 2] as Proc;
        const submittedAt = Date.now();
        let res: Record<string, unknown>;
        try {
          res = await call(
            submitTo.url,
            'POST',
            '/api/v1/generate',
            {
              projectId: user.projectId,
              prompt: `fleet creature ${u} number ${i}`,
              assetType: 'sprite',
              params: { resolution: RESOLUTION, frames: { directions: 1, framesPerDirection: 1 } },
            },
            user.token,
          );
        } catch (error) {
          // An answered error is not a submission (the client would retry); it is reported below.
          submitErrors.push(String(error).slice(0, 300));
          continue;
        }
        submitted++;
        const f = follow(streamOn.url, res.taskId as string, user.token, submittedAt, onEnd);
        followed.push(f);
        // Paced: each user waits for its task's stream to end before the next submission.
        if (PACED) await Promise.race([f.done, new Promise((r) => setTimeout(r, TIMEOUT_MS).unref())]);
      }
    }),
  );
  log(`${submitted} submitted in ${((Date.now() - started) / 1000).toFixed(1)} s; waiting for the streams`);
  const deadline = new Promise<'timeout'>((resolve) =>
    setTimeout(() => resolve('timeout'), TIMEOUT_MS).unref(),
  );
  const outcome = await Promise.race([
    Promise.all(followed.map((f) => f.done)).then(() => 'done' as const),
    deadline,
  ]);
  clearInterval(progress);
  if (outcome === 'timeout') log(`timed out after ${TIMEOUT_MS / 1000} s`);
  const lastEnd = Math.max(...followed.map((f) => (Number.isNaN(f.terminalAt) ? 0 : f.terminalAt)));
  const seconds = (lastEnd - started) / 1000;
  const commands = proxy.total - commandsBefore;

  // The record: every task's final state and its assets, read directly (not through the proxy).
  const direct = new MongoClient(target.uri);
  const db = direct.db(dbName);
  const ids = followed.map((f) => f.taskId);
  const tasks = await db
    .collection<{ _id: string; status: string; error?: string | null; attempts?: number; stage?: string }>(
      'tasks',
    )
    .find({ _id: { $in: ids } }, { projection: { _id: 1, status: 1, error: 1, attempts: 1, stage: 1 } })
    .toArray();
  const statusOf = new Map(tasks.map((t) => [String(t._id), t.status]));
  const completed = ids.filter((id) => statusOf.get(id) === 'completed').length;
  const failed = ids.filter((id) => statusOf.get(id) === 'failed').length;
  // Why each failed task failed (its error, attempts and stage), grouped by reason.
  const reasons = new Map<string, string[]>();
  for (const t of tasks) {
    if (t.status !== 'failed') continue;
    const reason = String(t.error ?? '(no error recorded)');
    reasons.set(reason, [
      ...(reasons.get(reason) ?? []),
      `${String(t._id)} (attempts ${t.attempts ?? '?'}, ${t.stage ?? '?'})`,
    ]);
  }
  const lost = submitted - completed - failed;
  const assets = await db
    .collection<{ taskId: string; key: string }>('assets')
    .find({ taskId: { $in: ids } }, { projection: { taskId: 1, key: 1 } })
    .toArray();
  const keys = new Map<string, number>();
  const perTask = new Map<string, number>();
  for (const a of assets) {
    keys.set(a.key, (keys.get(a.key) ?? 0) + 1);
    perTask.set(a.taskId, (perTask.get(a.taskId) ?? 0) + 1);
  }
  let dup = [...keys.values()].reduce((n, c) => n + (c - 1), 0);
  for (const f of followed) {
    if (f.terminal === 'completed') dup += Math.max(0, (perTask.get(f.taskId) ?? 0) - f.eventAssets);
  }
  const streamsOk = followed.filter(
    (f) =>
      f.closeCode === 1000 &&
      f.terminal !== null &&
      f.seqs.length > 0 &&
      f.seqs.every((s, i) => i === 0 || s > (f.seqs[i - 1] as number)),
  ).length;
  // Webhooks: one delivery at least per ended task; duplicates are recognisable by webhook-id.
  const hookDeadline = Date.now() + 120_000;
  while (receiver.tasksSeen.size < completed + failed && Date.now() < hookDeadline) {
    await new Promise((r) => setTimeout(r, 250));
  }
  await direct.close();
  const withoutHook = ids.filter(
    (id) => statusOf.get(id) !== undefined && !receiver.tasksSeen.has(id),
  ).length;
  const redelivered = [...receiver.byId.values()].filter((c) => c > 1).length;

  const latencies = followed
    .filter((f) => !Number.isNaN(f.terminalAt))
    .map((f) => f.terminalAt - f.submittedAt);
  const lags = followed.flatMap((f) => f.lags);
  console.log(
    `\nfleet on ${target.kind}: 2 API processes, 2 workers (4 tasks each), ${USERS} users, ${RESOLUTION} px sprites, ${PACED ? `paced (≤ ${USERS} live streams)` : 'all submitted at once'}`,
  );
  console.log(
    `worker 1 killed with SIGKILL after ${((killedAt - started) / 1000).toFixed(1)} s (${Math.round(TASKS / 2)} tasks ended); TASK_LEASE_MS ${shared.TASK_LEASE_MS}, TASK_MAX_ATTEMPTS ${shared.TASK_MAX_ATTEMPTS}`,
  );
  console.log(
    `tasks/s: ${(completed / seconds).toFixed(1)} (${completed} completed in ${seconds.toFixed(1)} s; ${failed} failed)`,
  );
  console.log(
    `submit→completed: p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p95 ${quantile(latencies, 0.95).toFixed(0)} ms`,
  );
  console.log(
    `event latency (worker's at → stream): p50 ${quantile(lags, 0.5).toFixed(0)} ms, p95 ${quantile(lags, 0.95).toFixed(0)} ms`,
  );
  console.log(
    `DB commands/s: ${(commands / seconds).toFixed(0)} (${commands} in all, ${(commands / Math.max(1, submitted)).toFixed(1)} per task; top: ${proxy
      .top(6)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  console.log(
    `webhooks: ${receiver.requests} deliveries, ${receiver.byId.size} distinct webhook-ids (${redelivered} delivered more than once), ${withoutHook} ended tasks without one`,
  );
  for (const [reason, which] of reasons) {
    console.log(`failed: ${which.length} × ${reason}`);
    for (const task of which.slice(0, 5)) console.log(`  ${task}`);
  }
  if (submitErrors.length > 0) {
    console.log(`submissions answered with an error: ${submitErrors.length} (first: ${submitErrors[0]})`);
    for (const p of procs) for (const line of p.errors.slice(-3)) log(`error logged: ${line}`);
  }
  // A task must not fail for an infrastructure reason a retry would fix: any failure fails the run.
  if (
    lost > 0 ||
    dup > 0 ||
    failed > 0 ||
    streamsOk < submitted ||
    withoutHook > 0 ||
    submitErrors.length > 0
  )
    exitCode = 1;
  console.log(
    `fleet: ${completed}/${submitted} completed, ${lost} lost, ${dup} duplicate assets, ${streamsOk} streams ok`,
  );
} catch (error) {
  exitCode = 1;
  console.error(error);
  for (const p of procs) for (const line of p.errors.slice(-3)) log(`error logged: ${line}`);
} finally {
  await Promise.all(procs.map((p) => p.stop().catch(() => undefined)));
  await receiver.close();
  await proxy.close();
  const admin = new MongoClient(target.uri);
  await admin
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await admin.close();
  await (target as { stop?: () => Promise<void> }).stop?.();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
