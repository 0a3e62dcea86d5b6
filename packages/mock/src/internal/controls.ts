import type { RouteSpec } from '@assetloom/core/http';
import type { AssetMockControls, FailureRule, Latency, MockWebSocketConstructor } from '../types.js';
import { tick } from './clock.js';
import type { State } from './state.js';

export interface ControlsContext {
  ready: Promise<void>;
  state(): Promise<State>;
  current(): State | undefined;
  /** Replaces the state with a freshly seeded one (and resolves once it is built). */
  rebuild(): Promise<State>;
  stepMs: number;
  routes: readonly RouteSpec[];
  failures: Array<FailureRule & { left: number }>;
  pendingHeaders: Map<string, string[]>;
  setLatency(latency: Latency): void;
  WebSocket: MockWebSocketConstructor;
  baseUrl: string;
}

/** Lets the task runner's microtasks run until nothing is busy (bounded). */
async function settle(s: State) {
  for (let i = 0; i < 10_000; i++) {
    await tick();
    if (!s.runner.busy) {
      await tick();
      if (!s.runner.busy) return;
    }
  }
}

async function taskEnded(s: State, taskId: string | undefined): Promise<boolean> {
  if (taskId === undefined) return s.runner.active === 0;
  const task = await s.store.tasks.byId(taskId);
  return task === null || task.status === 'completed' || task.status === 'failed';
}

/** The `controls` of a mock: time, injected failures, reset and the state for assertions. */
export function createControls(ctx: ControlsContext): AssetMockControls {
  const { state } = ctx;
  function requireState(): State {
    const current = ctx.current();
    if (current === undefined) {
      throw new Error('[assetloom/mock] the mock is still starting; await controls.ready first.');
    }
    return current;
  }
  return {
    ready: ctx.ready,
    now: () => ctx.current()?.clock.now() ?? new Date(),
    async advance(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw new RangeError(`[assetloom/mock] advance(ms) needs a number ≥ 0; got ${String(ms)}.`);
      }
      const s = await state();
      if (s.clock.mode === 'real') {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return;
      }
      const target = s.clock.now().getTime() + ms;
      await settle(s);
      for (;;) {
        const due = s.clock.nextDue();
        if (due === undefined || due > target) break;
        s.clock.moveTo(due);
        await settle(s);
      }
      s.clock.moveTo(target);
      await settle(s);
    },
    async runToCompletion(taskId) {
      const s = await state();
      await settle(s);
      for (let round = 0; round < 100_000; round++) {
        if (await taskEnded(s, taskId)) return;
        if (s.clock.mode === 'manual') {
          const due = s.clock.nextDue();
          if (due === undefined) {
            await settle(s);
            if (s.clock.nextDue() === undefined && !(await taskEnded(s, taskId)) && s.runner.active === 0) {
              throw new Error(
                `[assetloom/mock] runToCompletion: ${taskId === undefined ? 'no task' : `task ${taskId}`} is running; was it submitted to this mock?`,
              );
            }
            continue;
          }
          s.clock.moveTo(due);
          await settle(s);
        } else {
          await new Promise((resolve) => setTimeout(resolve, Math.max(5, Math.min(ctx.stepMs, 50))));
        }
      }
    },
    failNext(rule) {
      if (rule === null || typeof rule !== 'object' || ![429, 500, 'network'].includes(rule.status)) {
        throw new TypeError(
          "[assetloom/mock] failNext needs { status: 429 | 500 | 'network' } and optionally operationId, path, method, times.",
        );
      }
      if (rule.operationId !== undefined && !ctx.routes.some((r) => r.operationId === rule.operationId)) {
        throw new TypeError(
          `[assetloom/mock] failNext: unknown operationId ${JSON.stringify(rule.operationId)} (see asset-api.yaml).`,
        );
      }
      ctx.failures.push({ ...rule, left: Math.max(1, Math.floor(rule.times ?? 1)) });
    },
    rejectQualityNext(n = 1) {
      const current = ctx.current();
      if (current !== undefined) current.runner.rejectQualityNext(n);
      else void state().then((s) => s.runner.rejectQualityNext(n));
    },
    failGenerationNext(n = 1, message = '[assetloom/mock] injected image provider failure') {
      const current = ctx.current();
      if (current !== undefined) current.runner.failGenerationNext(n, message);
      else void state().then((s) => s.runner.failGenerationNext(n, message));
    },
    setLatency(next) {
      ctx.setLatency(next);
    },
    async reset() {
      const old = await state();
      for (const a of old.streams) a.abort();
      await old.runner.stop();
      await old.webhooks.stop();
      ctx.failures.length = 0;
      ctx.pendingHeaders.clear();
      await ctx.rebuild();
      await old.store.close().catch(() => undefined);
      await old.review.store.close().catch(() => undefined);
    },
    async close() {
      const s = await state();
      for (const a of s.streams) a.abort();
      await s.runner.stop();
      await s.webhooks.stop();
    },
    get store() {
      return requireState().store;
    },
    get files() {
      return requireState().files;
    },
    get reviewSessions() {
      return requireState().review.sessions;
    },
    get seeded() {
      return requireState().seeded;
    },
    WebSocket: ctx.WebSocket,
    baseUrl: ctx.baseUrl,
  };
}
