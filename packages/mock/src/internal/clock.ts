/**
 * The mock's time. `real`: wall-clock time, sleeps are timers. `manual`: time stands still until the
 * test calls `advance(ms)`; sleepers wake in due order as virtual time passes them.
 */
export interface MockClock {
  readonly mode: 'real' | 'manual';
  now(): Date;
  /** Resolves after `ms` of this clock's time (or at once when `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Manual mode: the due time of the earliest sleeper, or undefined. */
  nextDue(): number | undefined;
  /** Manual mode: moves time to `at` (never backwards) and wakes every sleeper due by then. */
  moveTo(at: number): void;
}

interface Sleeper {
  due: number;
  order: number;
  wake: () => void;
}

export function createClock(mode: 'real' | 'manual', start: number = Date.now()): MockClock {
  if (mode === 'real') {
    return {
      mode,
      now: () => new Date(),
      sleep(ms, signal) {
        return new Promise<void>((resolve) => {
          if (signal?.aborted) return resolve();
          const timer = setTimeout(done, Math.max(0, ms));
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
          }
          signal?.addEventListener('abort', done, { once: true });
        });
      },
      nextDue: () => undefined,
      moveTo: () => undefined,
    };
  }
  let current = start;
  let order = 0;
  const sleepers: Sleeper[] = [];
  return {
    mode,
    now: () => new Date(current),
    sleep(ms, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const sleeper: Sleeper = {
          due: current + Math.max(0, ms),
          order: order++,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const index = sleepers.indexOf(sleeper);
          if (index >= 0) sleepers.splice(index, 1);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
        sleepers.sort((a, b) => a.due - b.due || a.order - b.order);
      });
    },
    nextDue: () => sleepers[0]?.due,
    moveTo(at) {
      if (at > current) current = at;
      while (sleepers.length > 0 && (sleepers[0] as Sleeper).due <= current) {
        (sleepers.shift() as Sleeper).wake();
      }
    },
  };
}

/** Resolves after the event loop has run once (timers, I/O callbacks and microtasks before it). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
