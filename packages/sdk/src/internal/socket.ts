import type { PipelineProgress } from '../types.js';

/** The part of a WebSocket the SDK uses (the browser's, undici's in newer Node, or the `ws` package's). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
  onerror: Handler<unknown> | null;
  onclose: Handler<{ code: number; reason?: string }> | null;
  close(code?: number, reason?: string): void;
}

/**
 * An event handler checked bivariantly (method syntax), as the DOM's own handler types are: the
 * `ws` package's handlers take its richer event classes, and `createAssetClient({ WebSocket })` with
 * `import WebSocket from 'ws'` has to type-check (found by the ecosystem test, issue #21).
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/**
 * A WebSocket constructor. Browsers' takes `(url)` and sends the `assetloom_token` cookie; the `ws`
 * package's takes `(url, protocols, { headers })`, which the SDK uses to send `Authorization: Bearer`.
 */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => WebSocketLike;

// Which WebSocket constructor to use differs by runtime: runtime.ts (Node, Deno, Bun) and
// runtime.browser.ts (the `browser` build).
export { resolveWebSocket } from './runtime.js';

/** How one connection ended. */
export type SocketEnd =
  | { kind: 'terminal' }
  /** Closed cleanly (1000) without a terminal event we saw: the server says the task ended earlier. */
  | { kind: 'closed'; code: number }
  /** Never opened (refused upgrade, no server, blocked). */
  | { kind: 'unavailable'; cause?: unknown }
  /** Dropped after opening (network, server restart). */
  | { kind: 'dropped'; code: number }
  | { kind: 'aborted' };

export function isTerminal(event: PipelineProgress): boolean {
  return (
    (event.stage === 'format_adapter' && event.status === 'completed') ||
    (event.status === 'failed' && typeof event.error === 'string')
  );
}

/** ws:// or wss:// for an http(s) base URL (relative bases resolve against the page in browsers). */
export function socketUrl(baseUrl: string, taskId: string, since: number): string {
  const origin = (globalThis as { location?: { href?: string } }).location?.href ?? 'http://localhost/';
  const url = new URL(`${baseUrl}/api/v1/tasks/${encodeURIComponent(taskId)}/ws`, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (since > 0) url.searchParams.set('since', String(since));
  return url.toString();
}

/**
 * Follows one connection until it ends; `onEvent` sees every PipelineProgress in order.
 * Resolves (never rejects) with how it ended.
 */
export function followSocket(
  ctor: WebSocketConstructor,
  url: string,
  headers: Record<string, string> | undefined,
  signal: AbortSignal,
  onEvent: (event: PipelineProgress) => void,
): Promise<SocketEnd> {
  return new Promise<SocketEnd>((resolve) => {
    let opened = false;
    let terminal = false;
    let settled = false;
    let socket: WebSocketLike;
    const settle = (end: SocketEnd) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve(end);
    };
    const onAbort = () => {
      try {
        socket?.close(1000, 'client gave up');
      } catch {
        // closing a socket that never opened
      }
      settle({ kind: 'aborted' });
    };
    if (signal.aborted) {
      settle({ kind: 'aborted' });
      return;
    }
    try {
      socket = headers === undefined ? new ctor(url) : new ctor(url, undefined, { headers });
    } catch (cause) {
      settle({ kind: 'unavailable', cause });
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    socket.onopen = () => {
      opened = true;
    };
    socket.onmessage = (message) => {
      let event: PipelineProgress;
      try {
        const text = typeof message.data === 'string' ? message.data : String(message.data);
        event = JSON.parse(text) as PipelineProgress;
      } catch {
        return; // not a progress message
      }
      if (event === null || typeof event !== 'object' || typeof event.seq !== 'number') return;
      onEvent(event);
      if (isTerminal(event)) terminal = true;
    };
    socket.onerror = (cause) => {
      if (!opened) settle({ kind: 'unavailable', cause });
    };
    socket.onclose = (event) => {
      if (terminal) settle({ kind: 'terminal' });
      else if (!opened) settle({ kind: 'unavailable' });
      else if (event.code === 1000) settle({ kind: 'closed', code: event.code });
      else settle({ kind: 'dropped', code: event.code });
    };
  });
}
