/**
 * The client side of the generation benchmarks: a user with a project, submissions over HTTP and
 * the task's WebSocket followed to its end (bench:generation, bench:overhead, bench:syscalls).
 */
import WebSocket from 'ws';

export async function post(
  url: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ data: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { data: Record<string, unknown> };
}

/** Registers a user, logs in and creates a project. */
export async function benchUser(url: string): Promise<{ token: string; projectId: string }> {
  const username = `bench${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  await post(url, '/auth/register', { username, password: 'secret-pass' });
  const login = await post(url, '/auth/login', { username, password: 'secret-pass' });
  const token = login.data.token as string;
  const project = await post(url, '/api/v1/projects', { name: 'bench' }, token);
  return { token, projectId: project.data.id as string };
}

/**
 * Opens the task's stream; resolves when the server closes it (after the terminal event) with the
 * time of the terminal event and each event's latency (`at`, stamped by the worker, to arrival).
 */
export function follow(url: string, taskId: string, token: string): Promise<{ end: number; lags: number[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/tasks/${taskId}/ws`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lags: number[] = [];
    let end = Number.NaN;
    let failure: string | undefined;
    ws.on('message', (data) => {
      const now = Date.now();
      const event = JSON.parse(String(data)) as { at: string; stage: string; status: string; error?: string };
      lags.push(now - Date.parse(event.at));
      if ((event.stage === 'format_adapter' && event.status === 'completed') || event.error)
        end = performance.now();
      if (event.error) failure ??= event.error;
    });
    // A refused or failed task is not a generation: a bench that timed refusals measured nothing.
    ws.on('close', () =>
      failure === undefined
        ? resolve({ end, lags })
        : reject(new Error(`[assetloom/server] bench: task ${taskId} failed: ${failure}`)),
    );
    ws.on('error', reject);
  });
}

/**
 * Submits `count` 64 px sprite sheets at once (the spec's defaults) and follows each to its end.
 * The prompt is `<label> knight <i>`: the label must not be a noun the reader takes as the head
 * ('bench knight' is refused since #39's head-noun rule, so the timed batches were refusals).
 */
export function generateBatch(
  url: string,
  user: { token: string; projectId: string },
  count: number,
  label = 'bold',
): Promise<Array<{ latency: number; lags: number[]; end: number }>> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const submitted = performance.now();
      const res = await post(
        url,
        '/api/v1/generate',
        { projectId: user.projectId, prompt: `${label} knight ${i}`, assetType: 'sprite' },
        user.token,
      );
      const followed = await follow(url, res.data.taskId as string, user.token);
      return { latency: followed.end - submitted, lags: followed.lags, end: followed.end };
    }),
  );
}
