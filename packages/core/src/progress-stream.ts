import type { TaskEventSource } from './event-poller.js';
import { isTerminalEvent, terminalEventFor } from './queue.js';
import type { EventRecord, Store } from './store.js';

/** One step of a followed task's progress. */
export type TaskStreamItem =
  /** A persisted event, in seq order; `terminal` marks the last one (the stream ends after it). */
  | { kind: 'event'; seq: number; event: unknown; terminal: boolean }
  /** The task had already ended and the reader saw its terminal event before (`since` ≥ its seq). */
  | { kind: 'ended' }
  /** The task was deleted while it was followed. */
  | { kind: 'deleted' };

export interface FollowTaskEventsOptions {
  /** Replay the events after this seq (0: all). */
  since?: number;
  /** Waits for new events: until `ms` pass, an in-process wake-up comes, or `signal` aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long one wait lasts when no wake-up comes (default 250 ms). */
  pollMs?: number;
  /**
   * Read the task itself on the first empty poll and then on every `checkTaskEvery`-th (default 1):
   * it only matters when the task ended without a terminal event or was deleted.
   */
  checkTaskEvery?: number;
  /** The `at` of a repaired terminal event (default: now). */
  now?: () => Date;
  /** Ends the stream (no more items; the iterator returns). */
  signal?: AbortSignal;
  /**
   * The process's shared poller (createSharedEventPoller): after the first read, new events come
   * from its one-command-per-interval rounds instead of this stream's own reads, and the task is
   * looked at only when the poller reports it ended or gone. `wait`, `pollMs` and `checkTaskEvery`
   * then only pace the rare re-check after such a report.
   */
  poller?: TaskEventSource;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Follows a task's persisted progress events, the one rule both the server's WebSocket and the mock's
 * use: replays the events after `since` in seq order, then follows new ones (polling, woken early by
 * `wait`), and ends after the terminal event. A task that ended without a terminal event in the log (its
 * worker died between ending the task and appending the event) gets it appended once, from the task
 * record and its assets (the unique (taskId, seq) index keeps concurrent repairs from doubling it), and
 * the stream delivers it like any other. Store failures are thrown; aborting `signal` ends the stream.
 */
export async function* followTaskEvents(
  store: Pick<Store, 'events' | 'tasks' | 'assets'>,
  taskId: string,
  options: FollowTaskEventsOptions = {},
): AsyncGenerator<TaskStreamItem, void, undefined> {
  const signal = options.signal ?? new AbortController().signal;
  const pollMs = Math.max(0, options.pollMs ?? 250);
  const checkEvery = Math.max(1, Math.floor(options.checkTaskEvery ?? 1));
  const wait = options.wait ?? sleep;
  const since = options.since ?? 0;
  let last = Number.isSafeInteger(since) && since > 0 ? since : 0;
  let repaired = false;
  let emptyPolls = 0;
  const poller = options.poller;
  /** Read the store directly this round (at the start, and after a wait of the stream's own). */
  let direct = true;
  /** Look at the task when this round finds nothing (the first quiet read; the poller says it ended). */
  let checkTask = true;
  while (!signal.aborted) {
    let events: EventRecord[];
    // A wake-up that came while the stream was not registered with the poller would otherwise wait
    // for the poller's next round: after its own waits the stream reads directly.
    if (poller !== undefined && !direct) {
      const polled = await poller.next(taskId, last, signal);
      events = polled.events;
      if (polled.ended) checkTask = true;
    } else {
      events = await store.events.list(taskId, last);
    }
    direct = false;
    for (const record of events) {
      if (signal.aborted) return;
      const terminal = isTerminalEvent(record.event);
      last = record.seq;
      yield { kind: 'event', seq: record.seq, event: record.event, terminal };
      if (terminal) return;
    }
    if (events.length > 0) {
      emptyPolls = 0;
      continue;
    }
    if (signal.aborted) return;
    if (poller !== undefined) {
      if (!checkTask) continue;
      checkTask = false;
    } else if (emptyPolls++ % checkEvery !== 0) {
      await wait(pollMs, signal);
      continue;
    }
    const current = await store.tasks.byId(taskId);
    if (current === null) {
      if (!signal.aborted) yield { kind: 'deleted' };
      return;
    }
    if (current.status === 'completed' || current.status === 'failed') {
      const all = await store.events.list(taskId, 0);
      const terminal = all.find((r) => isTerminalEvent(r.event));
      if (terminal !== undefined && terminal.seq <= last) {
        if (!signal.aborted) yield { kind: 'ended' };
        return;
      }
      if (terminal === undefined && !repaired) {
        repaired = true;
        const top = all.reduce((max, r) => Math.max(max, r.seq), current.lastSeq);
        const assets = current.status === 'completed' ? await store.assets.listByTask(taskId) : [];
        const event = terminalEventFor(
          current,
          top + 1,
          assets.map((a) => ({
            key: a.key,
            format: a.format,
            width: a.width,
            height: a.height,
            metadata: a.metadata,
          })),
        );
        await store.events
          .append({ taskId, seq: top + 1, event, at: options.now?.() ?? new Date() })
          .catch(() => undefined);
        continue;
      }
    }
    await wait(pollMs, signal);
    direct = true;
  }
}
