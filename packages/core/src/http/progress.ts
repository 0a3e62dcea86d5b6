import { ID_PATTERN } from '../defaults.js';
import { errors } from '../errors.js';
import type { TaskEventSource } from '../event-poller.js';
import { followTaskEvents } from '../progress-stream.js';
import type { AssetService } from '../service.js';
import type { Store, TaskRecord } from '../store.js';
import type { StoredAssetView } from '../task-run.js';
import type { AuthUser } from '../types.js';
import { signAssets } from './operations.js';

export interface ProgressAdmission {
  /** The token the client sent (Bearer header, or the token cookie). */
  token: string | undefined;
  /** The task id of the path, percent-decoded (null when it could not be decoded). */
  taskId: string | null;
  /** Every `since` value of the query. */
  since: string[];
  /** Runs after authentication, before the task is looked at (the server's cross-site check). */
  afterAuth?: (user: AuthUser) => void;
}

/**
 * The checks of `WS /api/v1/tasks/{taskId}/ws` in their order — credential (401), id shape and
 * ownership (404/403), `since` (400) — and the task to follow. A transport refuses the upgrade with
 * the thrown error (the server with the HTTP envelope, the mock with close code 4000 + status).
 */
export async function admitProgressStream(
  service: AssetService,
  store: Store,
  request: ProgressAdmission,
): Promise<{ task: TaskRecord; since: number }> {
  const user = await service.authenticate(request.token);
  request.afterAuth?.(user);
  const taskId = request.taskId;
  if (taskId === null || !ID_PATTERN.test(taskId)) throw errors.taskNotFound();
  // One read gives the record the stream follows and answers ownership (404 / 403, as getTask).
  const task = await store.tasks.byId(taskId);
  if (task === null) throw errors.taskNotFound();
  if (task.ownerId !== user.id) throw errors.taskForbidden();
  let since = 0;
  if (request.since.length > 1) throw errors.invalid([{ in: 'query', path: '/since', rule: 'repeated' }]);
  if (request.since.length === 1) {
    const raw = request.since[0] as string;
    if (!/^\d{1,15}$/.test(raw))
      throw errors.invalid([{ in: 'query', path: '/since', rule: 'type', type: 'integer' }]);
    since = Number(raw);
  }
  return { task, since };
}

/** An open progress stream as the loop sees it (a `ws` socket on the server, msw's client in the mock). */
export interface ProgressSink {
  /** Sends one message; resolves once it is handed on. */
  send(text: string): Promise<void>;
  close(code: number, reason: string): void;
}

export interface PipeProgressOptions {
  store: Store;
  task: TaskRecord;
  since: number;
  sink: ProgressSink;
  /** Signs the asset keys of a completed event. */
  sign: (key: string) => Promise<string>;
  signal: AbortSignal;
  pollMs: number;
  wait: (ms: number, signal: AbortSignal) => Promise<void>;
  checkTaskEvery?: number;
  /** The process's shared poller (see followTaskEvents' `poller`). */
  poller?: TaskEventSource;
  now?: () => Date;
  /** Told about an unexpected failure (the stream is then closed with 1011). */
  onError: (error: unknown) => void;
}

/**
 * Sends a task's events after `since` and follows new ones until the terminal event (close 1000),
 * the task's deletion (4404) or the abort. Asset URLs of a completed event are signed as sent.
 */
export async function pipeProgress(options: PipeProgressOptions): Promise<void> {
  const { sink, signal } = options;
  try {
    const items = followTaskEvents(options.store, options.task.id, {
      since: options.since,
      pollMs: options.pollMs,
      wait: options.wait,
      ...(options.checkTaskEvery === undefined ? {} : { checkTaskEvery: options.checkTaskEvery }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.poller === undefined ? {} : { poller: options.poller }),
      signal,
    });
    for await (const item of items) {
      if (item.kind === 'deleted') {
        sink.close(4404, 'task deleted');
        return;
      }
      if (item.kind === 'ended') {
        // The client saw the end before reconnecting.
        sink.close(1000, 'task ended');
        return;
      }
      await sink.send(JSON.stringify(await presentEvent(item.event as object, options.sign)));
      if (item.terminal) {
        sink.close(1000, 'task ended');
        return;
      }
    }
  } catch (error) {
    if (!signal.aborted) {
      options.onError(error);
      sink.close(1011, 'internal error');
    }
  }
}

async function presentEvent(event: object, sign: (key: string) => Promise<string>): Promise<object> {
  const e = event as { result?: { assets?: unknown } };
  if (!e.result || !Array.isArray(e.result.assets)) return event;
  return { ...event, result: { assets: await signAssets(e.result.assets as StoredAssetView[], sign) } };
}
