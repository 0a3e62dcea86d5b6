import { errors } from '@assetloom/core';

/** How many decodes may run at once, and how many pixels they may hold together (decision 0043). */
export interface DecodeGateLimits {
  /** Decodes at once: each holds one of libuv's threads for its whole length. */
  concurrency: number;
  /** Pixels of the pictures decoded at once: a bound on the memory decoding takes. */
  maxPixels: number;
  /** A decode that waited this long for its turn gives up: 503 服务繁忙，请稍后再试 (default 30 s). */
  maxWaitMs?: number;
}

/** A semaphore weighted by pixels: `run(pixels, decode)` runs the decode when there is room. */
export interface DecodeGate {
  run<T>(pixels: number, decode: () => Promise<T>): Promise<T>;
  /** Takes new limits (a server started later in the same process); waiters are looked at again. */
  configure(limits: DecodeGateLimits): void;
  /** Decodes running and pixels they hold, decodes waiting. */
  stats(): { running: number; pixels: number; waiting: number };
}

interface Waiter {
  weight: number;
  start: () => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The gate every decode of the process goes through: at most `concurrency` at once and their pixels
 * together at most `maxPixels` (a picture larger than that alone runs alone). First come, first
 * served: a large picture at the head of the line is not overtaken by small ones behind it.
 */
export function createDecodeGate(initial: DecodeGateLimits): DecodeGate {
  let limits = initial;
  let running = 0;
  let pixels = 0;
  const queue: Waiter[] = [];

  const weightOf = (n: number) => Math.max(1, Math.min(Math.floor(n), limits.maxPixels));
  const fits = (weight: number) =>
    running < Math.max(1, limits.concurrency) && (running === 0 || pixels + weight <= limits.maxPixels);

  function pump(): void {
    while (queue.length > 0) {
      const head = queue[0] as Waiter;
      if (!fits(head.weight)) return;
      queue.shift();
      clearTimeout(head.timer);
      head.start();
    }
  }

  return {
    run(n, decode) {
      const weight = weightOf(n);
      return new Promise((resolve, reject) => {
        const start = () => {
          running++;
          pixels += weight;
          decode()
            .then(resolve, reject)
            .finally(() => {
              running--;
              pixels -= weight;
              pump();
            });
        };
        if (queue.length === 0 && fits(weight)) {
          start();
          return;
        }
        const waiter: Waiter = {
          weight,
          start,
          timer: setTimeout(() => {
            const at = queue.indexOf(waiter);
            if (at >= 0) queue.splice(at, 1);
            reject(errors.busy(5));
            pump();
          }, limits.maxWaitMs ?? 30_000),
        };
        queue.push(waiter);
      });
    },
    configure(next) {
      limits = next;
      pump();
    },
    stats: () => ({ running, pixels, waiting: queue.length }),
  };
}

let shared: DecodeGate | undefined;

/**
 * The process's one gate: every upload service of the process (an API server, its in-process
 * worker, a second server in a test) decodes through it; the last limits given apply.
 */
export function processDecodeGate(limits: DecodeGateLimits): DecodeGate {
  if (shared === undefined) shared = createDecodeGate(limits);
  else shared.configure(limits);
  return shared;
}
