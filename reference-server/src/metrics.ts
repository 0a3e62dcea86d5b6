import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { AssetloomError, type ErrorCode, fail as failEnvelope, type TaskRecord } from '@assetloom/core';
import { languageOf } from '@assetloom/core/http';
import type { ClaimedTask, QueueEvent, TaskOutcome } from '@assetloom/core/queue';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Where the Prometheus exposition is served (API processes; a worker's own metrics listener). */
export const METRICS_PATH = '/metrics';

/** Buckets of the request latency histogram (seconds): 1 ms to 10 s. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Buckets of stage and task durations (seconds): 10 ms to 5 min (model providers are slow). */
const TASK_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export interface MetricsSources {
  /** Tasks waiting for a worker (claimable now), read from the store on every scrape. */
  queueDepth?: () => Promise<number>;
  /** Open WebSocket progress streams of this process. */
  websocketConnections?: () => number;
  /** Tasks this process's worker runs now. */
  workerActive?: () => number;
}

/**
 * The process's Prometheus metrics (prom-client), in a registry of its own so that several servers
 * in one process (tests) never share counters. Metric names start with `assetloom_`; the default
 * Node.js process metrics (CPU, memory, event-loop lag, GC) come with them.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #latency: Histogram<'method' | 'route' | 'status'>;
  readonly #tasks: Counter<'outcome'>;
  readonly #taskSeconds: Histogram<'outcome'>;
  readonly #stageSeconds: Histogram<'stage'>;

  constructor(role: 'api' | 'worker', sources: MetricsSources = {}) {
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'assetloom_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'assetloom_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.#tasks = new Counter({
      name: 'assetloom_tasks_total',
      help: 'Task attempts this process ran to an end, by outcome (completed, failed, stopped)',
      labelNames: ['outcome'],
      registers,
    });
    this.#taskSeconds = new Histogram({
      name: 'assetloom_task_duration_seconds',
      help: 'Time from claiming a task to its end, by outcome',
      labelNames: ['outcome'],
      buckets: TASK_BUCKETS,
      registers,
    });
    this.#stageSeconds = new Histogram({
      name: 'assetloom_stage_duration_seconds',
      help: 'Time a task attempt spent in each pipeline stage',
      labelNames: ['stage'],
      buckets: TASK_BUCKETS,
      registers,
    });
    const { queueDepth, websocketConnections, workerActive } = sources;
    if (queueDepth) {
      new Gauge({
        name: 'assetloom_queue_depth',
        help: 'Tasks waiting for a worker (claimable now; counted up to 1000)',
        registers,
        async collect() {
          this.set(await queueDepth());
        },
      });
    }
    if (websocketConnections) {
      new Gauge({
        name: 'assetloom_websocket_connections',
        help: 'Open WebSocket progress streams',
        registers,
        collect() {
          this.set(websocketConnections());
        },
      });
    }
    if (workerActive) {
      new Gauge({
        name: 'assetloom_worker_active_tasks',
        help: 'Tasks the worker of this process runs now',
        registers,
        collect() {
          this.set(workerActive());
        },
      });
    }
  }

  /**
   * The counter and histogram children of each (method, route, status), made once: prom-client
   * hashes a labels object on every call otherwise (most of the per-request cost of the metrics,
   * bench/metrics.bench.ts). The key set is bounded: routes are templates, methods and statuses few.
   */
  readonly #requestSeries = new Map<
    string,
    { count: { inc(): void }; latency: { observe(v: number): void } }
  >();

  /** One answered request; `route` is the route template (never the raw path: bounded labels). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#requestSeries.get(key);
    if (series === undefined) {
      const labels = { method, route, status: String(status) };
      series = { count: this.#requests.labels(labels), latency: this.#latency.labels(labels) };
      this.#requestSeries.set(key, series);
    }
    series.count.inc();
    series.latency.observe(seconds);
  }

  /** One task attempt ended. */
  taskEnded(outcome: 'completed' | 'failed' | 'stopped', seconds: number): void {
    this.#tasks.inc({ outcome });
    this.#taskSeconds.observe({ outcome }, seconds);
  }

  /** One pipeline stage of an attempt ended. */
  stageEnded(stage: string, seconds: number): void {
    this.#stageSeconds.observe({ stage }, seconds);
  }

  /**
   * A view of a claimed task that times its stages and its end: every persisted event names its
   * stage, so a stage lasts from its first event to the first event of the next stage (or the end).
   */
  observeClaimed(claimed: ClaimedTask): ClaimedTask {
    const started = performance.now();
    let stage: string | undefined;
    let stageStarted = started;
    let ended = false;
    const enterStage = (next: string | undefined) => {
      const now = performance.now();
      if (stage !== undefined && stage !== next) this.stageEnded(stage, (now - stageStarted) / 1000);
      if (stage !== next) stageStarted = now;
      stage = next;
    };
    const end = (outcome: 'completed' | 'failed' | 'stopped') => {
      if (ended) return;
      ended = true;
      enterStage(undefined);
      this.taskEnded(outcome, (performance.now() - started) / 1000);
    };
    return {
      get task() {
        return claimed.task;
      },
      get attempt() {
        return claimed.attempt;
      },
      get startSeq() {
        return claimed.startSeq;
      },
      get lost() {
        return claimed.lost;
      },
      renew: () => claimed.renew(),
      release: async () => {
        end('stopped');
        await claimed.release();
      },
      record: async (event: QueueEvent, patch) => {
        await claimed.record(event, patch);
        enterStage(event.stage);
      },
      finish: async (outcome: TaskOutcome, terminal?: QueueEvent): Promise<TaskRecord> => {
        const record = await claimed.finish(outcome, terminal);
        end(outcome.status);
        return record;
      },
      fail: async (error: string): Promise<TaskRecord> => {
        const record = await claimed.fail(error);
        end('failed');
        return record;
      },
    };
  }

  /** The exposition in Prometheus's text format. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * The node handler of GET /metrics: the text exposition, behind `Authorization: Bearer <token>`
 * when a token is set (401 without it). Other methods answer 405. Answers in the envelope on errors.
 */
export function createMetricsHandler(
  metrics: ServerMetrics,
  token: string | null,
): (req: IncomingMessage, res: ServerResponse) => void {
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`, 'utf8');
  const fail = (
    req: IncomingMessage,
    res: ServerResponse,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(code, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    });
    const envelope = failEnvelope(
      new AssetloomError(code, message),
      languageOf(req.headers['accept-language']),
    );
    res.end(JSON.stringify(envelope));
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      fail(req, res, 405, '请求方法不允许', { allow: 'GET, HEAD' });
      return;
    }
    if (expected !== null) {
      const given = Buffer.from(req.headers.authorization ?? '', 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        fail(req, res, 401, '未登录或 Token 已过期', { 'www-authenticate': 'Bearer realm="metrics"' });
        return;
      }
    }
    metrics.exposition().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => fail(req, res, 500, '服务器内部错误'),
    );
  };
}

/** Whether a request's path is the metrics path (query ignored). */
export function isMetricsPath(url: string | undefined): boolean {
  if (url === undefined) return false;
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)) === METRICS_PATH;
}
