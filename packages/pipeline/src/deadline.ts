import { PipelineError } from './errors.js';

/** Limits of one run (issue #37). Absent or 0: none. */
export interface RunDeadline {
  /**
   * Milliseconds of the run's own computing: its time from start minus the time it spent waiting
   * (progress events being recorded, files being stored, an LLM or a model server answering).
   */
  cpuMs?: number;
  /** Milliseconds from start to end, waits included (applied to the built-in generator only). */
  wallMs?: number;
}

/**
 * A run's clock against its deadline. `wait` wraps whatever the run waits for, so that time is not
 * counted as computing; `check` throws a PipelineError `deadline_exceeded` once a limit is passed.
 * The pipeline checks at every progress event, every provider progress report and before every file
 * it stores: a single drawing or encoding step is not interrupted, so a run may pass its limit by
 * one such step.
 */
export class RunClock {
  readonly #started = performance.now();
  #waited = 0;
  readonly #cpuMs: number;
  readonly #wallMs: number;

  constructor(deadline: RunDeadline | undefined, options: { wall: boolean }) {
    const positive = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : 0);
    this.#cpuMs = positive(deadline?.cpuMs);
    this.#wallMs = options.wall ? positive(deadline?.wallMs) : 0;
  }

  /** Milliseconds of computing so far (the run's time minus its waits). */
  get cpuMs(): number {
    return performance.now() - this.#started - this.#waited;
  }

  /** Waits for `promise`; its time counts as waiting unless `waiting` is false (computing awaited). */
  async wait<T>(promise: Promise<T> | T, waiting = true): Promise<T> {
    if (!waiting) return promise;
    const from = performance.now();
    try {
      return await promise;
    } finally {
      this.#waited += performance.now() - from;
    }
  }

  check(): void {
    const elapsed = performance.now() - this.#started;
    if (this.#wallMs > 0 && elapsed > this.#wallMs) {
      throw deadlineError(
        `the attempt ran ${seconds(elapsed)} s, past its limit of ${seconds(this.#wallMs)} s`,
      );
    }
    const computing = elapsed - this.#waited;
    if (this.#cpuMs > 0 && computing > this.#cpuMs) {
      throw deadlineError(
        `the attempt computed for ${seconds(computing)} s, past its limit of ${seconds(this.#cpuMs)} s`,
      );
    }
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);

function deadlineError(what: string): PipelineError {
  return new PipelineError(
    'deadline_exceeded',
    `deadline exceeded: ${what} — ask for a smaller resolution or fewer frames, or a simpler picture; not retried`,
    { expose: true },
  );
}
