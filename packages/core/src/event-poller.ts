import type { EventCursor, EventRecord, Store } from './store.js';

/** What a follower waiting for new events of one task gets back. */
export interface PolledEvents {
  /** Events after the follower's seq (in seq order); empty when `ended` or the wait was aborted. */
  events: EventRecord[];
  /**
   * The task's record is gone or in a final state (completed/failed) and no newer event was found:
   * the follower should look at the task itself (a deleted task, or one that ended without a
   * terminal event in the log).
   */
  ended: boolean;
}

/** The part of the shared poller a progress stream uses. */
export interface TaskEventSource {
  /** Waits for events of `taskId` after `afterSeq` (see {@link PolledEvents}). */
  next(taskId: string, afterSeq: number, signal: AbortSignal): Promise<PolledEvents>;
}

export interface SharedEventPoller extends TaskEventSource {
  /** Reads the given task now (an in-process worker persisted an event): lower latency, not correctness. */
  wake(taskId: string): void;
  /** Tasks followed right now. */
  readonly following: number;
  /** Database reads made so far: event polls and task checks (for tests and metrics). */
  readonly polls: number;
  /** Rejects every pending wait and stops polling. */
  close(): void;
}

export interface SharedEventPollerOptions {
  store: Pick<Store, 'events' | 'tasks'>;
  /** How often the followed tasks' events are read (one command per interval, whatever the number of followers). */
  intervalMs: number;
  /** Check the followed tasks' records every this many polls (default 5). */
  checkTasksEvery?: number;
}

interface Waiter {
  afterSeq: number;
  settle: (result: PolledEvents) => void;
  fail: (error: unknown) => void;
}

/**
 * One poller per process for every task its progress streams follow: every `intervalMs` it reads
 * the new events of ALL followed tasks with one command (`events.listForTasks`) and hands each
 * stream its own; every `checkTasksEvery`-th round it also reads the followed tasks' statuses with
 * one command (`tasks.statusByIds`) to find tasks that were deleted or ended without a terminal
 * event. N streams on one process cost about (1 + 1/checkTasksEvery) commands per interval instead
 * of N. A store without the batch methods is read task by task (same results, N commands).
 *
 * Store errors reject the waits of that round (each stream then fails as it did when it polled on
 * its own); the poller keeps running for later waits.
 */
export function createSharedEventPoller(options: SharedEventPollerOptions): SharedEventPoller {
  const { store } = options;
  const intervalMs = Math.max(1, Math.floor(options.intervalMs));
  const checkEvery = Math.max(1, Math.floor(options.checkTasksEvery ?? 5));
  const waiters = new Map<string, Set<Waiter>>();
  const woken = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let wakeScheduled = false;
  let round = 0;
  let polls = 0;
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  function remove(taskId: string, waiter: Waiter): void {
    const set = waiters.get(taskId);
    if (set?.delete(waiter) && set.size === 0) waiters.delete(taskId);
    if (waiters.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  function ensureTimer(): void {
    if (timer !== undefined || closed) return;
    timer = setInterval(() => {
      // A round still reading (a slow database) is not queued behind: the next tick comes soon enough.
      if (busy) return;
      busy = true;
      running = running
        .then(() => poll(null))
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, intervalMs);
    timer.unref?.();
  }

  async function readEvents(cursors: EventCursor[]): Promise<EventRecord[]> {
    polls++;
    if (store.events.listForTasks !== undefined) return store.events.listForTasks(cursors);
    const lists = await Promise.all(cursors.map((c) => store.events.list(c.taskId, c.afterSeq)));
    return lists.flat();
  }

  async function readEnded(ids: string[]): Promise<Set<string>> {
    polls++;
    const ended = new Set<string>();
    if (store.tasks.statusByIds !== undefined) {
      const statuses = await store.tasks.statusByIds(ids);
      for (const id of ids) {
        const status = statuses.get(id);
        if (status === undefined || status === 'completed' || status === 'failed') ended.add(id);
      }
      return ended;
    }
    const tasks = await Promise.all(ids.map((id) => store.tasks.byId(id)));
    ids.forEach((id, i) => {
      const task = tasks[i];
      if (task == null || task.status === 'completed' || task.status === 'failed') ended.add(id);
    });
    return ended;
  }

  /** One round over `only` (woken tasks) or every followed task (null). */
  async function poll(only: Set<string> | null): Promise<void> {
    if (closed) return;
    const ids = only === null ? [...waiters.keys()] : [...only].filter((id) => waiters.has(id));
    if (ids.length === 0) return;
    const checkTasks = only === null && round++ % checkEvery === checkEvery - 1;
    const cursors = ids.map((taskId) => {
      let afterSeq = Number.MAX_SAFE_INTEGER;
      for (const w of waiters.get(taskId) ?? []) afterSeq = Math.min(afterSeq, w.afterSeq);
      return { taskId, afterSeq };
    });
    let found: EventRecord[];
    try {
      found = await readEvents(cursors);
    } catch (error) {
      for (const id of ids) for (const w of [...(waiters.get(id) ?? [])]) w.fail(error);
      return;
    }
    const byTask = new Map<string, EventRecord[]>();
    for (const e of found) {
      const list = byTask.get(e.taskId);
      if (list === undefined) byTask.set(e.taskId, [e]);
      else list.push(e);
    }
    for (const id of ids) {
      const events = byTask.get(id);
      if (events === undefined) continue;
      events.sort((a, b) => a.seq - b.seq);
      for (const w of [...(waiters.get(id) ?? [])]) {
        const mine = events.filter((e) => e.seq > w.afterSeq);
        if (mine.length > 0) w.settle({ events: mine, ended: false });
      }
    }
    if (!checkTasks) return;
    const quiet = ids.filter((id) => waiters.has(id));
    if (quiet.length === 0) return;
    let ended: Set<string>;
    try {
      ended = await readEnded(quiet);
    } catch (error) {
      for (const id of quiet) for (const w of [...(waiters.get(id) ?? [])]) w.fail(error);
      return;
    }
    for (const id of ended)
      for (const w of [...(waiters.get(id) ?? [])]) w.settle({ events: [], ended: true });
  }

  return {
    get following() {
      return waiters.size;
    },
    get polls() {
      return polls;
    },
    next(taskId, afterSeq, signal) {
      return new Promise<PolledEvents>((resolve, reject) => {
        if (closed) {
          reject(new Error('[assetloom/core] the event poller is closed'));
          return;
        }
        if (signal.aborted) {
          resolve({ events: [], ended: false });
          return;
        }
        let done = false;
        const finish = () => {
          done = true;
          signal.removeEventListener('abort', onAbort);
          remove(taskId, waiter);
        };
        const waiter: Waiter = {
          afterSeq,
          settle: (result) => {
            if (done) return;
            finish();
            resolve(result);
          },
          fail: (error) => {
            if (done) return;
            finish();
            reject(error);
          },
        };
        const onAbort = () => waiter.settle({ events: [], ended: false });
        signal.addEventListener('abort', onAbort, { once: true });
        let set = waiters.get(taskId);
        if (set === undefined) {
          set = new Set();
          waiters.set(taskId, set);
        }
        set.add(waiter);
        ensureTimer();
      });
    },
    wake(taskId) {
      if (closed || !waiters.has(taskId)) return;
      woken.add(taskId);
      if (wakeScheduled) return;
      wakeScheduled = true;
      setImmediate(() => {
        wakeScheduled = false;
        const batch = new Set(woken);
        woken.clear();
        running = running.then(() => poll(batch)).catch(() => undefined);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      const error = new Error('[assetloom/core] the event poller is closed');
      for (const set of [...waiters.values()]) for (const w of [...set]) w.fail(error);
      waiters.clear();
    },
  };
}
