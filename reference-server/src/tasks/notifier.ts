/**
 * In-process wake-ups keyed by task id: the worker calls `notify(taskId)` after persisting an event,
 * and WebSocket streams of the same process read the store at once instead of waiting for their next
 * poll. Streams in other processes still find the event by polling, so this is a latency shortcut,
 * never the source of truth.
 */
export interface TaskNotifier {
  notify(taskId: string): void;
  /** Resolves on the next notify(taskId), after `timeoutMs`, or when `signal` aborts, whichever is first. */
  wait(taskId: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Number of pending waits (for tests and metrics). */
  readonly waiting: number;
  /** Calls `listener` on every notify (the shared event poller reads the task at once); returns the unsubscribe. */
  subscribe(listener: (taskId: string) => void): () => void;
}

export function createTaskNotifier(): TaskNotifier {
  const waiters = new Map<string, Set<() => void>>();
  const listeners = new Set<(taskId: string) => void>();
  let waiting = 0;
  return {
    get waiting() {
      return waiting;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    notify(taskId) {
      for (const listener of listeners) listener(taskId);
      const set = waiters.get(taskId);
      if (set === undefined) return;
      waiters.delete(taskId);
      for (const wake of set) wake();
    },
    wait(taskId, timeoutMs, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) {
          resolve();
          return;
        }
        let set = waiters.get(taskId);
        if (set === undefined) {
          set = new Set();
          waiters.set(taskId, set);
        }
        waiting++;
        let settled = false;
        const done = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          const current = waiters.get(taskId);
          if (current?.delete(done) && current.size === 0) waiters.delete(taskId);
          waiting--;
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, timeoutMs));
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
  };
}
