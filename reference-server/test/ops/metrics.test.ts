import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { client, newUser, startTestServer, type TestServer } from '../helpers.js';
import { openStream, waitForTaskEnd } from '../task-helpers.js';

/**
 * GET /metrics (prom-client): off by default, behind a bearer token when set, and what it counts
 * read back through a real Prometheus text-format parser.
 */
const TOKEN = 'metrics-token-0123456789abcdef';

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric family ${name}; have ${families.map((f) => f.name).join(', ')}`);
  return found;
}

interface Scrape extends Array<PrometheusFamily> {
  /** The exposition as sent. */
  text: string;
}

async function scrape(url: string, token = TOKEN): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  // The parser throws on any line that is not the text format.
  return Object.assign(parsePrometheusTextFormat(text), { text });
}

/**
 * `<name>_count` / `_sum` of one labelled histogram series. parse-prometheus-text-format folds the
 * buckets of every label set of a histogram into one (it was written for label-less histograms),
 * so after it has checked the syntax, a labelled series is read from its own lines.
 */
function histogramSeries(
  scraped: Scrape,
  name: string,
  label: string,
  value: string,
): { count: number; sum: number; inf: number } | undefined {
  const has = `${label}="${value}"`;
  const read = (suffix: string, extra = '') => {
    const line = scraped.text
      .split('\n')
      .find((l) => l.startsWith(`${name}${suffix}{`) && l.includes(has) && l.includes(extra));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const count = read('_count');
  if (count === undefined) return undefined;
  return { count, sum: read('_sum') ?? Number.NaN, inf: read('_bucket', 'le="+Inf"') ?? Number.NaN };
}

describe('GET /metrics', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.destroy();
    server = undefined;
  });

  it('is off by default: the path is an unknown route', async () => {
    server = await startTestServer({ kind: 'embedded' });
    const res = await client(server.url).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, message: '接口不存在' });
    expect(server.running.metrics).toBeNull();
  });

  it('refuses a scrape without the token (401) and other methods (405)', async () => {
    server = await startTestServer({ kind: 'embedded' }, { METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN });
    const none = await fetch(`${server.url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ code: 401, message: '未登录或 Token 已过期', data: null });
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const post = await fetch(`${server.url}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('counts requests by route template, task outcomes, stage durations, queue depth and streams', async () => {
    server = await startTestServer(
      { kind: 'embedded' },
      { METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN, WORKER_POLL_MS: '50' },
    );
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Metrics' }, { token: user.token });
    const submitted = await api.post(
      '/api/v1/generate',
      {
        projectId: project.body.data.id,
        prompt: 'a small slime',
        assetType: 'sprite',
        params: { resolution: 16 },
      },
      { token: user.token },
    );
    const taskId = submitted.body.data.taskId as string;
    const stream = await openStream(server.url, taskId, { token: user.token, timeoutMs: 30_000 });
    expect(stream.closeCode).toBe(1000);
    expect(await waitForTaskEnd(server.url, user.token, taskId)).toMatchObject({ status: 'completed' });
    for (let i = 0; i < 3; i++) await api.get(`/api/v1/tasks/${taskId}`, { token: user.token });
    await api.get('/api/v1/tasks/nope', { token: user.token });
    // Paths beside the contract get one label each, never the raw path.
    for (const path of ['/docs/', '/studio/', '/studio/assets/x-123.js', '/nowhere/abc123'])
      await fetch(`${server.url}${path}`);

    const families = await scrape(server.url);
    const requests = family(families, 'assetloom_http_requests_total');
    expect(requests.type).toBe('COUNTER');
    const taskReads = requests.metrics.filter(
      (m) => m.labels?.route === '/api/v1/tasks/:taskId' && m.labels?.method === 'GET',
    );
    // Route templates, never raw ids: the three reads and waitForTaskEnd's polls share one series per status.
    expect(requests.metrics.some((m) => m.labels?.route?.includes(taskId))).toBe(false);
    const ok = taskReads.find((m) => m.labels?.status === '200');
    expect(Number(ok?.value)).toBeGreaterThanOrEqual(4);
    expect(Number(taskReads.find((m) => m.labels?.status === '404')?.value)).toBe(1);
    expect(requests.metrics.find((m) => m.labels?.route === '/auth/register')?.labels).toMatchObject({
      method: 'POST',
      status: '201',
      role: 'api',
    });

    const routes = new Set(requests.metrics.map((m) => m.labels?.route));
    for (const label of ['/docs', '/studio', 'unmatched']) expect(routes.has(label), label).toBe(true);
    for (const route of routes) expect(route).not.toMatch(/abc123|x-123|nowhere/);

    const latency = family(families, 'assetloom_http_request_duration_seconds');
    expect(latency.type).toBe('HISTOGRAM');
    const generateLatency = histogramSeries(
      families,
      'assetloom_http_request_duration_seconds',
      'route',
      '/api/v1/generate',
    );
    expect(generateLatency?.count).toBe(1);
    expect(generateLatency?.sum).toBeGreaterThan(0);
    expect(generateLatency?.inf).toBe(1);

    const outcomes = family(families, 'assetloom_tasks_total');
    expect(outcomes.metrics.find((m) => m.labels?.outcome === 'completed')?.value).toBe('1');
    const stages = family(families, 'assetloom_stage_duration_seconds');
    expect(stages.type).toBe('HISTOGRAM');
    for (const stage of ['prompt_optimizer', 'asset_generator', 'quality_supervisor', 'format_adapter']) {
      const series = histogramSeries(families, 'assetloom_stage_duration_seconds', 'stage', stage);
      expect(series?.count, stage).toBe(1);
      expect(series?.sum, stage).toBeGreaterThanOrEqual(0);
    }
    expect(histogramSeries(families, 'assetloom_task_duration_seconds', 'outcome', 'completed')?.count).toBe(
      1,
    );

    expect(family(families, 'assetloom_queue_depth').metrics[0]?.value).toBe('0');
    expect(family(families, 'assetloom_websocket_connections').metrics[0]?.value).toBe('0');
    expect(family(families, 'assetloom_worker_active_tasks').metrics[0]?.value).toBe('0');
    // prom-client's default process metrics come along.
    expect(families.some((f) => f.name === 'process_resident_memory_bytes')).toBe(true);
  });

  it('reports queue depth and open streams while they last', async () => {
    // No in-process worker: submitted tasks wait in the queue.
    server = await startTestServer(
      { kind: 'embedded' },
      { METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN, WORKER_IN_PROCESS: 'false', EVENT_POLL_MS: '50' },
    );
    const api = client(server.url);
    const user = await newUser(server.url);
    const project = await api.post('/api/v1/projects', { name: 'Queue' }, { token: user.token });
    const ids: string[] = [];
    for (const prompt of ['a bat', 'a cat', 'a rat']) {
      const res = await api.post(
        '/api/v1/generate',
        { projectId: project.body.data.id, prompt, assetType: 'sprite', params: { resolution: 16 } },
        { token: user.token },
      );
      ids.push(res.body.data.taskId);
    }
    const streams = ids
      .slice(0, 2)
      .map((id) => openStream(server!.url, id, { token: user.token, timeoutMs: 3_000 }));
    let families: Scrape = Object.assign([], { text: '' });
    for (let i = 0; i < 100; i++) {
      families = await scrape(server.url);
      if (family(families, 'assetloom_websocket_connections').metrics[0]?.value === '2') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(family(families, 'assetloom_websocket_connections').metrics[0]?.value).toBe('2');
    expect(family(families, 'assetloom_queue_depth').metrics[0]?.value).toBe('3');
    expect(families.some((f) => f.name === 'assetloom_worker_active_tasks')).toBe(false);
    await server.stop();
    await Promise.all(streams);
  });
});

describe('metrics settings', () => {
  const base = { JWT_SECRET: 'x'.repeat(40) };
  it('are off by default, need a long enough token, and a token in production', () => {
    const off = loadConfig(base);
    expect(off.ok && off.value.metrics).toEqual({ enabled: false, token: null, workerPort: 9464 });
    const short = loadConfig({ ...base, METRICS_ENABLED: 'true', METRICS_TOKEN: 'short' });
    expect(short.ok).toBe(false);
    expect(!short.ok && short.error.message).toMatch(/METRICS_TOKEN/);
    const prod = loadConfig({ ...base, NODE_ENV: 'production', METRICS_ENABLED: 'true' });
    expect(!prod.ok && prod.error.message).toMatch(/METRICS_TOKEN.*required/);
    const devOpen = loadConfig({ ...base, METRICS_ENABLED: 'true', METRICS_PORT: '9100' });
    expect(devOpen.ok && devOpen.value.metrics).toEqual({ enabled: true, token: null, workerPort: 9100 });
  });
});
