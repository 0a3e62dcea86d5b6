import { toAssetloomError } from '@assetloom/core';
import { admitProgressStream, bearerToken, pipeProgress } from '@assetloom/core/http';
import { type WebSocketHandler, ws } from 'msw';
import type { MockWebSocketConstructor } from '../types.js';
import { tick } from './clock.js';
import { type State, type StateConfig, signedUrl } from './state.js';

type Client = {
  url: URL;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'close', listener: () => void): void;
};

/** Wakes a task's streams when the mock's task runner stores an event; streams wait on it between polls. */
export function createWaiters() {
  const waiters = new Map<string, Set<() => void>>();
  return {
    notify(taskId: string) {
      const set = waiters.get(taskId);
      if (set === undefined) return;
      waiters.delete(taskId);
      for (const wake of set) wake();
    },
    wait(taskId: string, signal: AbortSignal, fallbackMs: number): Promise<void> {
      return new Promise((resolve) => {
        let set = waiters.get(taskId);
        if (set === undefined) {
          set = new Set();
          waiters.set(taskId, set);
        }
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          waiters.get(taskId)?.delete(done);
          resolve();
        };
        const timer = setTimeout(done, fallbackMs);
        signal.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
  };
}

export interface SocketContext {
  config: StateConfig;
  state(): Promise<State>;
  wait(taskId: string, signal: AbortSignal, fallbackMs: number): Promise<void>;
  /** Authorization headers of Node clients, first in first out per URL (msw's interceptor sees none). */
  pendingHeaders: Map<string, string[]>;
}

/**
 * WS /api/v1/tasks/:taskId/ws through msw's `ws.link`: core's admission and event loop, as the
 * server runs them. A WebSocket API cannot refuse an upgrade after the fact, so a refusal closes
 * with 4000 + the status the server would answer (4401, 4403, 4404, 4400).
 */
export function createProgressLink(ctx: SocketContext): WebSocketHandler {
  const { config, pendingHeaders } = ctx;

  async function stream(client: Client, taskId: string, bearer: string | undefined) {
    const s = await ctx.state();
    const abort = new AbortController();
    s.streams.add(abort);
    client.addEventListener('close', () => abort.abort());
    let admitted: Awaited<ReturnType<typeof admitProgressStream>>;
    try {
      admitted = await admitProgressStream(s.service, s.store, {
        token: bearer ?? s.cookieToken,
        taskId,
        since: client.url.searchParams.getAll('since'),
      });
    } catch (error) {
      const failure = toAssetloomError(error);
      s.streams.delete(abort);
      client.close(4000 + failure.code, failure.message);
      return;
    }
    const { task, since } = admitted;
    try {
      await pipeProgress({
        store: s.store,
        task,
        since,
        sink: {
          send: async (text) => {
            client.send(text);
            await tick(); // msw delivers a sent message on a later microtask; a close waits for it
          },
          close: (code, reason) => client.close(code, reason),
        },
        sign: (key) => signedUrl(s, config, key),
        signal: abort.signal,
        pollMs: 250,
        wait: (ms, signal) => ctx.wait(task.id, signal, ms),
        now: () => s.clock.now(),
        onError: (error) => config.onError(error, `progress stream of task ${task.id}`),
      });
    } finally {
      s.streams.delete(abort);
    }
  }

  const link = ws.link(`${config.baseUrl.replace(/^http/, 'ws')}/api/v1/tasks/:taskId/ws`);
  return link.addEventListener('connection', ({ client, params }) => {
    const key = client.url.href;
    const queue = pendingHeaders.get(key);
    const bearer = queue?.shift();
    if (queue !== undefined && queue.length === 0) pendingHeaders.delete(key);
    void stream(
      client as unknown as Client,
      String(params.taskId ?? ''),
      bearer === '' ? undefined : bearer,
    ).catch((error: unknown) => {
      config.onError(error, 'progress stream');
      client.close(1011, 'internal error');
    });
  });
}

/**
 * A WebSocket class for Node clients: msw's interceptor sees no headers, so the Authorization
 * header the SDK passes rides beside the connection (first in, first out per URL).
 */
export function mockWebSocketClass(pendingHeaders: Map<string, string[]>): MockWebSocketConstructor {
  return function MockWebSocket(
    url: string,
    protocols?: string | string[],
    init?: { headers?: Record<string, string> },
  ) {
    const Global = (globalThis as { WebSocket?: new (u: string | URL, p?: string | string[]) => WebSocket })
      .WebSocket;
    if (Global === undefined) {
      throw new TypeError(
        '[assetloom/mock] there is no global WebSocket for msw to intercept; on Node 20 call installWebSocketGlobal() before server.listen().',
      );
    }
    const href = new URL(String(url)).href;
    let auth: string | undefined;
    for (const [name, value] of Object.entries(init?.headers ?? {})) {
      if (name.toLowerCase() === 'authorization') auth = bearerToken(value);
    }
    const queue = pendingHeaders.get(href) ?? [];
    queue.push(auth ?? '');
    pendingHeaders.set(href, queue);
    return new Global(url, protocols);
  } as unknown as MockWebSocketConstructor;
}
