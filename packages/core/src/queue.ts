import { systemClock } from './defaults.js';
import type { Clock } from './ports.js';
import { type AssetRecord, DuplicateKeyError, type Store, type TaskPatch, type TaskRecord } from './store.js';
import type { TaskStage } from './types.js';
import type { TaskWebhookOutbox } from './webhooks/outbox.js';

/**
 * The durable task queue over the storage port. The queue IS the tasks collection: every task that
 * is running or saving without a live lease is claimable. A worker claims one attempt of a task by
 * INSERTING the claim record (taskId, attempt) — exactly one racer wins on MongoDB and on FerretDB v1,
 * whose concurrent findOneAndUpdate is not atomic (decision 0002). The winner mirrors the lease on the
 * task (`attempts`, `lease`), renews it while it runs (single writer), and writes the task only
 * through guarded updates (`attempts` unchanged, status still running or saving), so a worker that
 * lost its lease can never overwrite the new owner. A task whose worker died is claimable again once
 * its lease ends: the next claim is attempt + 1.
 */
export interface TaskQueueOptions {
  store: Store;
  /** This worker's id (process + random), recorded on claims and leases. */
  owner: string;
  /** How long a claim lasts without renewal (default 30 000 ms). */
  leaseMs?: number;
  /**
   * Attempts before a task whose workers keep dying is failed (default 3). A takeover whose previous
   * holder turned out to be alive (it renewed too late and said so on its claim) does not count: a
   * slow database or a starved worker is not a reason to fail a task that a retry finishes.
   */
  maxAttempts?: number;
  /**
   * Claims of any kind before a task is failed all the same (default 4 × maxAttempts): leases that
   * keep running out under live workers mean the lease is too short for this database.
   */
  maxTakeovers?: number;
  clock?: Clock;
  /**
   * Gather the progress events of a claim for up to this many ms and write them together: one
   * guarded task update and one events insert per batch instead of two writes per event (the
   * pipeline's "stage completed" and the next "stage started" come back to back). `record` then
   * returns once the event is queued; a failed batch is thrown by the next `record` or `finish`, and
   * `finish` writes what is pending first. 0 (the default): every event is written before `record`
   * returns.
   */
  batchMs?: number;
  /** Told after events of a task were persisted (in-process progress streams read them at once). */
  onPersisted?: (taskId: string) => void;
  /**
   * Queues the task.failed webhook deliveries of a task the claim fails as abandoned (attempts run
   * out), BEFORE the task is failed: a worker that dies in between loses nothing (the next claim
   * queues the same ids again, stored once). Should queuing fail, the task is left as it is and
   * tried again once this claim's lease ends.
   */
  webhooks?: TaskWebhookOutbox;
  /**
   * Tasks one user may hold running at once across every worker of the store (USER_MAX_RUNNING_TASKS;
   * 0 or absent: no cap), so one account never takes every slot (issue #37). Whatever the cap, the
   * users holding the fewest running tasks are claimed for first, then the oldest task. Two workers
   * claiming at the same instant may each let a user reach the cap: it is held to within one claim
   * per worker.
   */
  userMaxRunning?: number;
}

/**
 * The claim order (issue #37): candidates of users holding fewer running tasks first, oldest first
 * among equals; none of a user at `cap` (counting the claims this round makes). Pure: the caller
 * passes what the store says each user holds.
 */
export function fairClaimOrder(
  candidates: readonly TaskRecord[],
  held: ReadonlyMap<number, number>,
  cap: number,
): TaskRecord[] {
  const queues = new Map<number, TaskRecord[]>();
  for (const c of candidates) {
    const q = queues.get(c.ownerId);
    if (q === undefined) queues.set(c.ownerId, [c]);
    else q.push(c);
  }
  const holding = new Map(held);
  const out: TaskRecord[] = [];
  for (;;) {
    let pick: number | undefined;
    for (const [owner, q] of queues) {
      const n = holding.get(owner) ?? 0;
      if (q.length === 0 || (cap > 0 && n >= cap)) continue;
      if (pick === undefined) {
        pick = owner;
        continue;
      }
      const m = holding.get(pick) ?? 0;
      const head = q[0] as TaskRecord;
      const best = (queues.get(pick) as TaskRecord[])[0] as TaskRecord;
      if (n < m || (n === m && head.createdAt < best.createdAt)) pick = owner;
    }
    if (pick === undefined) return out;
    out.push((queues.get(pick) as TaskRecord[]).shift() as TaskRecord);
    holding.set(pick, (holding.get(pick) ?? 0) + 1);
  }
}

/** The part of a progress event the queue reads (the rest is stored as given). */
export interface QueueEvent {
  seq: number;
  stage: string;
  status: string;
  [field: string]: unknown;
}

/** The task fields an event moves (computed by the caller from the event). */
export interface ProgressPatch {
  stage?: TaskStage;
  progress?: number;
  retryCount?: number;
  /** 'saving' while files are stored; never 'completed' or 'failed' (use finish). */
  status?: 'running' | 'saving';
}

export type TaskOutcome =
  | {
      status: 'completed';
      assets: readonly AssetRecord[];
      retryCount?: number;
      /** Bytes of object storage the task's files take (the storage budget counts them). */
      storedBytes?: number;
    }
  | { status: 'failed'; error: string; retryCount?: number; stage?: TaskStage; progress?: number };

/** Raised when a claimed task was taken over by another worker (or deleted); stop working on it. */
export class TaskLeaseLostError extends Error {
  override readonly name = 'TaskLeaseLostError';
  constructor(
    readonly taskId: string,
    readonly attempt: number,
    options?: { cause?: unknown },
  ) {
    super(
      `[assetloom/core] task ${taskId}: attempt ${attempt} lost its lease (taken over, ended or deleted); stop working on it`,
      options,
    );
  }
}

/** One attempt of a task held by this worker. */
export interface ClaimedTask {
  /** The task as it was when claimed (status running, stage prompt_builder, progress 0). */
  readonly task: TaskRecord;
  readonly attempt: number;
  /** The first sequence number this attempt's events use (after every persisted event). */
  readonly startSeq: number;
  /** True once the claim is known to be lost. */
  readonly lost: boolean;
  /** Extends the lease; false (and `lost`) when another worker took the task over. */
  renew(): Promise<boolean>;
  /**
   * Gives the task back without ending it (a worker shutting down): the lease ends now, so the
   * next claim (attempt + 1) can start at once. Never throws; the handle is spent afterwards.
   */
  release(): Promise<void>;
  /**
   * Persists one progress event (unique (taskId, seq)) and moves the task's stage/progress/retryCount
   * and lastSeq. Throws TaskLeaseLostError when the seq is taken or the task moved on.
   */
  record(event: QueueEvent, patch: ProgressPatch): Promise<void>;
  /**
   * Ends the task: for completed, records the assets first (a re-run after a crash skips the keys
   * already recorded), then the status; then appends the terminal event, so a subscriber that sees it
   * finds the task ended and its assets listed. Throws TaskLeaseLostError when the claim is lost.
   */
  finish(outcome: TaskOutcome, terminalEvent?: QueueEvent): Promise<TaskRecord>;
  /**
   * Fails the task now with `error` after its progress could not be recorded (the store refused a
   * write): events not yet written are dropped, the status moves to failed (guarded, one write) and
   * a terminal failed event follows the last stored one (best effort). Throws when the store still
   * refuses (the caller may try again) or TaskLeaseLostError when the claim is lost.
   */
  fail(error: string): Promise<TaskRecord>;
}

export interface TaskQueue {
  readonly owner: string;
  readonly leaseMs: number;
  /**
   * Claims up to `limit` claimable tasks (oldest first). Tasks past `maxAttempts` are failed
   * (with a terminal event) instead of being returned.
   */
  claim(limit: number): Promise<ClaimedTask[]>;
}

const PIPELINE_STAGE_OF: Record<TaskStage, string> = {
  prompt_builder: 'prompt_optimizer',
  asset_generator: 'asset_generator',
  quality_supervisor: 'quality_supervisor',
  format_adapter: 'format_adapter',
};

export function createTaskQueue(options: TaskQueueOptions): TaskQueue {
  const { store } = options;
  if (typeof options.owner !== 'string' || options.owner.length === 0 || options.owner.length > 200) {
    throw new TypeError('[assetloom/core] createTaskQueue: owner must be a non-empty string (≤ 200 chars)');
  }
  const owner = options.owner;
  const leaseMs = Math.floor(options.leaseMs ?? 30_000);
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 100) {
    throw new TypeError('[assetloom/core] createTaskQueue: leaseMs must be an integer ≥ 100');
  }
  const maxAttempts = Math.floor(options.maxAttempts ?? 3);
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) {
    throw new TypeError('[assetloom/core] createTaskQueue: maxAttempts must be an integer ≥ 1');
  }
  const maxTakeovers = Math.floor(options.maxTakeovers ?? maxAttempts * 4);
  if (!Number.isSafeInteger(maxTakeovers) || maxTakeovers < maxAttempts) {
    throw new TypeError('[assetloom/core] createTaskQueue: maxTakeovers must be an integer ≥ maxAttempts');
  }
  const userMaxRunning = Math.floor(options.userMaxRunning ?? 0);
  if (!Number.isSafeInteger(userMaxRunning) || userMaxRunning < 0) {
    throw new TypeError(
      '[assetloom/core] createTaskQueue: userMaxRunning must be an integer ≥ 0 (0: no cap)',
    );
  }
  const clock = options.clock ?? systemClock;
  const later = (from: Date) => new Date(from.getTime() + leaseMs);
  const batchMs = Math.max(0, Math.floor(options.batchMs ?? 0));
  if (!Number.isSafeInteger(batchMs)) {
    throw new TypeError('[assetloom/core] createTaskQueue: batchMs must be an integer ≥ 0');
  }
  const persisted = (taskId: string) => {
    try {
      options.onPersisted?.(taskId);
    } catch {
      // a listener's failure is not the queue's
    }
  };

  /** The highest persisted seq of a task (events may run ahead of task.lastSeq after a crash). */
  async function lastPersistedSeq(task: TaskRecord): Promise<number> {
    const newer = await store.events.list(task.id, task.lastSeq);
    return newer.reduce((max, e) => Math.max(max, e.seq), task.lastSeq);
  }

  /** Inserts the next claim of a task; the attempt number, or null when someone holds it. */
  async function insertClaim(task: TaskRecord, now: Date): Promise<number | null> {
    let attempt = task.attempts + 1;
    for (let round = 0; round < 4; round++) {
      try {
        await store.claims.insert({ taskId: task.id, attempt, owner, until: later(now), at: now });
        return attempt;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        const latest = await store.claims.latest(task.id);
        if (latest === null) return null;
        if (latest.until.getTime() > now.getTime()) return null;
        attempt = latest.attempt + 1;
      }
    }
    return null;
  }

  function handle(claimed: TaskRecord, attempt: number, startSeq: number): ClaimedTask {
    let lost = false;
    /** The last seq handed in by the caller and the last seq stored (they differ by `offset`). */
    let lastSeq = startSeq - 1;
    let storedSeq = startSeq - 1;
    /** Bumped when a seq turns out to be taken by a stale writer while this claim still holds. */
    let offset = 0;
    let retryCount = claimed.retryCount;
    /** The stage the last recorded event moved the task to. */
    let stage: TaskStage = claimed.stage;

    let outlived = false;
    /** Tells the claim log that this holder was alive when it lost the task (best effort, once). */
    const markOutlived = async (): Promise<void> => {
      if (outlived) return;
      outlived = true;
      await store.claims.markOutlived(claimed.id, attempt, owner, clock.now()).catch(() => undefined);
    };
    const markLost = (cause?: unknown): never => {
      if (!lost) void markOutlived();
      lost = true;
      throw new TaskLeaseLostError(claimed.id, attempt, { cause });
    };

    async function guarded(patch: Omit<TaskPatch, 'updatedAt'>): Promise<TaskRecord> {
      if (lost) markLost();
      const updated = await store.tasks.updateIfClaimed(claimed.id, attempt, {
        ...patch,
        updatedAt: clock.now(),
      });
      if (updated === null) return markLost();
      return updated;
    }

    async function stillOwned(): Promise<boolean> {
      const current = await store.tasks.byId(claimed.id);
      return current !== null && current.attempts === attempt;
    }

    /**
     * Appends an event under the next free seq. A taken seq while the claim still holds means a
     * stale writer (a worker that lost its lease) slipped one in: numbering moves past it.
     */
    async function append(event: QueueEvent): Promise<number> {
      for (let round = 0; round < 64; round++) {
        const seq = event.seq + offset;
        try {
          await store.events.append({ taskId: claimed.id, seq, event: { ...event, seq }, at: clock.now() });
          storedSeq = seq;
          return seq;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          if (!(await stillOwned())) markLost(err);
          offset++;
        }
      }
      return markLost();
    }

    /**
     * Appends several events at the next free seqs with one command when the store can; when a seq
     * turns out taken, the events of the batch that did land are found and the rest go one by one.
     */
    async function appendBatch(events: readonly QueueEvent[]): Promise<void> {
      const appendMany = store.events.appendMany;
      if (appendMany === undefined || events.length === 1) {
        for (const e of events) await append(e);
        return;
      }
      const records = events.map((event) => {
        const seq = event.seq + offset;
        return { taskId: claimed.id, seq, event: { ...event, seq }, at: clock.now() };
      });
      try {
        await appendMany.call(store.events, records);
        storedSeq = (records.at(-1) as (typeof records)[number]).seq;
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        if (!(await stillOwned())) markLost(err);
      }
      const first = (records[0] as (typeof records)[number]).seq;
      const stored = await store.events.list(claimed.id, first - 1);
      const storedText = new Map(stored.map((r) => [r.seq, JSON.stringify(r.event)]));
      for (let i = 0; i < events.length; i++) {
        const record = records[i] as (typeof records)[number];
        if (storedText.get(record.seq) === JSON.stringify(record.event)) {
          storedSeq = record.seq;
          continue;
        }
        await append(events[i] as QueueEvent);
      }
    }

    /** Removes the project's asset records when the task and its project are gone (a delete). */
    async function dropAssetsIfDeleted(): Promise<void> {
      try {
        if ((await store.tasks.byId(claimed.id)) !== null) return;
        if ((await store.projects.byId(claimed.projectId)) !== null) return;
        await store.assets.deleteByProject(claimed.projectId);
      } catch {
        // The deleter removes them too; a failure here leaves what it would have.
      }
    }

    /** Events recorded but not yet written (batchMs > 0), with the task fields they move. */
    let pendingEvents: QueueEvent[] = [];
    let pendingPatch: Omit<TaskPatch, 'updatedAt'> = {};
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let flushing: Promise<void> = Promise.resolve();
    /** The first failure of a background batch; thrown by the next record or finish. */
    let failure: { error: unknown } | undefined;

    async function writeBatch(events: QueueEvent[], patch: Omit<TaskPatch, 'updatedAt'>): Promise<void> {
      const lastEvent = events.at(-1) as QueueEvent;
      // The guarded update first: a worker that lost its claim stops here and writes no event.
      await guarded({ ...patch, lastSeq: lastEvent.seq + offset });
      await appendBatch(events);
      persisted(claimed.id);
    }

    function flush(): Promise<void> {
      if (flushTimer !== undefined) {
        clearTimeout(flushTimer);
        flushTimer = undefined;
      }
      if (pendingEvents.length === 0) return flushing;
      const events = pendingEvents;
      const patch = pendingPatch;
      pendingEvents = [];
      pendingPatch = {};
      flushing = flushing.then(async () => {
        if (failure !== undefined || lost) return;
        try {
          await writeBatch(events, patch);
        } catch (error) {
          failure = { error };
        }
      });
      return flushing;
    }

    function dropPending(): void {
      if (flushTimer !== undefined) clearTimeout(flushTimer);
      flushTimer = undefined;
      pendingEvents = [];
      pendingPatch = {};
    }

    function checkSeq(event: QueueEvent): void {
      if (!Number.isSafeInteger(event?.seq) || event.seq <= lastSeq) {
        throw new TypeError(
          `[assetloom/core] task ${claimed.id}: event seq ${String(event?.seq)} must be an integer above ${lastSeq}`,
        );
      }
    }

    return {
      task: claimed,
      attempt,
      startSeq,
      get lost() {
        return lost;
      },
      async renew() {
        if (lost) return false;
        const now = clock.now();
        // A claim for the next attempt means the lease ran out and someone took the task over.
        if ((await store.claims.get(claimed.id, attempt + 1)) !== null) {
          lost = true;
          await markOutlived();
          return false;
        }
        const until = later(now);
        const renewed = await store.claims.renew(claimed.id, attempt, owner, until);
        if (!renewed) {
          lost = true;
          return false;
        }
        const updated = await store.tasks.updateIfClaimed(claimed.id, attempt, {
          lease: { owner, until },
          updatedAt: now,
        });
        if (updated === null) {
          lost = true;
          await markOutlived();
          return false;
        }
        return true;
      },
      async release() {
        if (lost) return;
        lost = true;
        // Events not written yet are dropped: the next attempt starts after the last stored one.
        dropPending();
        await flushing;
        const now = clock.now();
        await store.claims.renew(claimed.id, attempt, owner, now).catch(() => false);
        // Handed back alive (a shutdown): the next claim does not count this one as a crash.
        await markOutlived();
        await store.tasks
          .updateIfClaimed(claimed.id, attempt, { lease: { owner, until: now }, updatedAt: now })
          .catch(() => null);
      },
      async record(event, patch) {
        if (failure !== undefined) throw failure.error;
        if (lost) markLost();
        checkSeq(event);
        lastSeq = event.seq;
        if (patch.retryCount !== undefined) retryCount = patch.retryCount;
        if (patch.stage !== undefined) stage = patch.stage;
        if (batchMs > 0) {
          pendingEvents.push(event);
          pendingPatch = {
            ...pendingPatch,
            ...(patch.stage === undefined ? {} : { stage: patch.stage }),
            ...(patch.progress === undefined
              ? {}
              : { progress: Math.max(0, Math.min(100, Math.round(patch.progress))) }),
            ...(patch.status === undefined ? {} : { status: patch.status }),
            retryCount,
          };
          if (flushTimer === undefined) {
            flushTimer = setTimeout(() => void flush(), batchMs);
            flushTimer.unref?.();
          }
          return;
        }
        // The guarded update first: a worker that lost its claim stops here and writes no event.
        await guarded({
          ...(patch.stage === undefined ? {} : { stage: patch.stage }),
          ...(patch.progress === undefined
            ? {}
            : { progress: Math.max(0, Math.min(100, Math.round(patch.progress))) }),
          ...(patch.status === undefined ? {} : { status: patch.status }),
          retryCount,
          lastSeq: event.seq + offset,
        });
        await append(event);
        persisted(claimed.id);
      },
      async fail(error) {
        if (lost) markLost();
        // What could not be written is dropped; the failure follows the last event that was stored.
        dropPending();
        await flushing;
        failure = undefined;
        const seq = storedSeq + 1;
        const ended = await guarded({
          status: 'failed',
          error: String(error).slice(0, 2000),
          retryCount,
          lease: null,
          lastSeq: seq,
          stage,
        });
        lost = true; // the claim is spent
        const now = clock.now();
        await store.events
          .append({
            taskId: claimed.id,
            seq,
            at: now,
            event: {
              seq,
              at: now.toISOString(),
              stage: PIPELINE_STAGE_OF[stage] ?? 'prompt_optimizer',
              status: 'failed',
              progress: 0,
              message: 'task failed',
              error: ended.error ?? String(error),
            },
          })
          // Readers repair a missing terminal event (terminalEventFor); a taken seq is a stale writer's.
          .catch(() => undefined);
        persisted(claimed.id);
        return ended;
      },
      async finish(outcome, terminalEvent) {
        // What is pending goes first (its own guarded update), so the log stays in seq order.
        await flush();
        if (failure !== undefined) throw failure.error;
        if (lost) markLost();
        if (terminalEvent !== undefined) checkSeq(terminalEvent);
        if (outcome.retryCount !== undefined) retryCount = outcome.retryCount;
        const seqAfter = terminalEvent === undefined ? storedSeq : terminalEvent.seq + offset;
        let ended: TaskRecord;
        if (outcome.status === 'completed') {
          // A re-run after a crash produces the same keys; skip those a dead attempt recorded (the
          // first attempt has no predecessor, so it need not look unless a key turns out taken).
          const knownKeys = async () =>
            new Set((await store.assets.listByTask(claimed.id)).map((a) => a.key));
          const insertFresh = async (known: Set<string>) => {
            const fresh = outcome.assets.filter((a) => !known.has(a.key));
            if (fresh.length > 0) await store.assets.insertMany(fresh);
          };
          try {
            await insertFresh(attempt === 1 ? new Set() : await knownKeys());
          } catch (err) {
            if (!(err instanceof DuplicateKeyError)) throw err;
            // Another attempt recorded some of the same files: record the rest; the guarded update decides.
            await insertFresh(await knownKeys()).catch((again: unknown) => {
              if (!(again instanceof DuplicateKeyError)) throw again;
            });
          }
          try {
            ended = await guarded({
              status: 'completed',
              stage: 'format_adapter',
              progress: 100,
              retryCount,
              error: null,
              lease: null,
              lastSeq: seqAfter,
              ...(outcome.storedBytes === undefined ? {} : { storedBytes: outcome.storedBytes }),
            });
          } catch (error) {
            // Deleted with its project while its assets were recorded: the records must not outlive
            // the delete (decision 0029). A takeover keeps them (the task still exists).
            if (error instanceof TaskLeaseLostError) await dropAssetsIfDeleted();
            throw error;
          }
        } else {
          ended = await guarded({
            status: 'failed',
            error: String(outcome.error).slice(0, 2000),
            retryCount,
            lease: null,
            lastSeq: seqAfter,
            ...(outcome.stage === undefined ? {} : { stage: outcome.stage }),
            ...(outcome.progress === undefined ? {} : { progress: outcome.progress }),
          });
        }
        lost = true; // the claim is spent
        if (terminalEvent !== undefined) {
          lastSeq = terminalEvent.seq;
          // The task has ended; should this append fail, readers repair the log (terminalEventFor).
          await append(terminalEvent).catch(() => undefined);
        }
        persisted(claimed.id);
        return ended;
      },
    };
  }

  /**
   * Why attempt `attempt` of a task must not run, or null when it may: the workers that abandoned
   * it without a word (died, as far as anyone knows) reached maxAttempts, or the takeovers of any
   * kind reached maxTakeovers.
   */
  async function giveUpReason(taskId: string, attempt: number): Promise<string | null> {
    const before = (await store.claims.listByTask(taskId)).filter((c) => c.attempt < attempt);
    const late = before.filter((c) => c.outlivedAt !== undefined).length;
    const dead = Math.max(attempt - 1 - late, 0);
    if (dead >= maxAttempts) {
      const also = late === 0 ? '' : ` (${late} more renewed their lease too late)`;
      return `[assetloom/server] the task was abandoned by ${dead} workers (crash or lost lease)${also}; giving up after ${maxAttempts} attempts`;
    }
    if (attempt > maxTakeovers) {
      return `[assetloom/server] the task was taken over ${attempt - 1} times: ${late} of its workers renewed their lease too late (a slow database or starved workers: raise the lease, TASK_LEASE_MS, now ${leaseMs} ms); giving up after ${maxTakeovers} claims`;
    }
    return null;
  }

  return {
    owner,
    leaseMs,
    async claim(limit) {
      const n = Math.floor(limit);
      if (!Number.isSafeInteger(n) || n < 1) return [];
      const now = clock.now();
      // Who holds the workers now: users at the cap are left out, the others taken fewest first.
      const held = (await store.tasks.leasedCountsByOwner?.(now)) ?? new Map<number, number>();
      const atCap =
        userMaxRunning > 0 ? [...held].filter(([, count]) => count >= userMaxRunning).map(([o]) => o) : [];
      // Look a little further than `limit`: other workers race for the same oldest tasks.
      const candidates = fairClaimOrder(
        await store.tasks.listClaimable(now, Math.min(1000, n * 3), { exceptOwners: atCap }),
        held,
        userMaxRunning,
      );
      const out: ClaimedTask[] = [];
      for (const candidate of candidates) {
        if (out.length >= n) break;
        const attempt = await insertClaim(candidate, now);
        if (attempt === null) continue;
        const fresh = await store.tasks.byId(candidate.id);
        if (fresh === null || (fresh.status !== 'running' && fresh.status !== 'saving')) continue;
        const startSeq = (await lastPersistedSeq(fresh)) + 1;
        const until = later(now);
        const error = attempt > maxAttempts ? await giveUpReason(fresh.id, attempt) : null;
        if (error !== null) {
          if (options.webhooks !== undefined) {
            try {
              // The same event id as a task.failed queued by a run (stored once); sent once failed.
              await options.webhooks.forTask(fresh).finishing({
                status: 'failed',
                error,
                retryCount: fresh.retryCount,
                stage: fresh.stage,
                progress: fresh.progress,
              });
            } catch {
              // Not failed without its event: this claim's lease ends and a later claim tries again.
              continue;
            }
          }
          const failed = await store.tasks.updateIfClaimed(fresh.id, fresh.attempts, {
            attempts: attempt,
            status: 'failed',
            error,
            lease: null,
            lastSeq: startSeq,
            updatedAt: clock.now(),
          });
          if (failed !== null) {
            await store.events
              .append({
                taskId: fresh.id,
                seq: startSeq,
                at: clock.now(),
                event: {
                  seq: startSeq,
                  at: clock.now().toISOString(),
                  stage: PIPELINE_STAGE_OF[fresh.stage] ?? 'prompt_optimizer',
                  status: 'failed',
                  progress: 0,
                  message: 'task abandoned',
                  error: failed.error,
                },
              })
              .catch((err: unknown) => {
                if (!(err instanceof DuplicateKeyError)) throw err;
              });
          }
          continue;
        }
        // Guarded on the attempts value read: if the previous owner ended the task meanwhile, or
        // another worker got further, this update matches nothing and the claim is dropped.
        const started = await store.tasks.updateIfClaimed(fresh.id, fresh.attempts, {
          attempts: attempt,
          lease: { owner, until },
          status: 'running',
          stage: 'prompt_builder',
          progress: 0,
          error: null,
          lastSeq: startSeq - 1,
          updatedAt: clock.now(),
        });
        if (started === null) continue;
        out.push(handle(started, attempt, startSeq));
      }
      return out;
    },
  };
}

/** Whether a stored progress event ends its task's stream (format_adapter completed, or failed with error). */
export function isTerminalEvent(event: unknown): boolean {
  if (event === null || typeof event !== 'object') return false;
  const e = event as { stage?: unknown; status?: unknown; error?: unknown };
  if (e.stage === 'format_adapter' && e.status === 'completed') return true;
  return e.status === 'failed' && typeof e.error === 'string';
}

/**
 * The terminal event a task that has ended should have, for a reader that finds none in the log (a
 * worker died between ending the task and appending the event). `assets` are the task's assets as the
 * event carries them (the caller signs the URLs).
 */
export function terminalEventFor(task: TaskRecord, seq: number, assets: readonly object[] = []): QueueEvent {
  const at = task.updatedAt.toISOString();
  if (task.status === 'completed') {
    return {
      seq,
      at,
      stage: 'format_adapter',
      status: 'completed',
      progress: 100,
      message: 'encoding and storing files',
      result: { assets: [...assets] },
    };
  }
  return {
    seq,
    at,
    stage: PIPELINE_STAGE_OF[task.stage] ?? 'prompt_optimizer',
    status: 'failed',
    progress: 0,
    message: 'task failed',
    error: task.error ?? 'task failed',
  };
}
