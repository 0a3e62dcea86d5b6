import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type AssetloomError,
  type AssetService,
  errors,
  fail,
  type Store,
  type TaskRecord,
  toAssetloomError,
} from '@assetloom/core';
import { admitProgressStream, bearerToken, pipeProgress, TOKEN_COOKIE } from '@assetloom/core/http';
import { createSharedEventPoller } from '@assetloom/core/queue';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { TaskNotifier } from './notifier.js';

/** Signs an asset key into a download URL (ObjectStorage.signedUrl with the request's origin). */
export type UrlSigner = (key: string, baseUrl: string | undefined) => Promise<string>;

export interface ProgressSocketOptions {
  service: AssetService;
  store: Store;
  logger: Logger;
  signUrl: UrlSigner;
  /** How often a stream reads new events from the store (EVENT_POLL_MS). */
  pollMs: number;
  notifier?: TaskNotifier;
  /** Trust X-Forwarded-Proto/-Host for the origin of signed URLs and the Origin check (TRUST_PROXY). */
  trustProxy?: boolean;
  /**
   * Whether signed URLs may take their origin from the request (default true; the server passes
   * false in production: they use PUBLIC_BASE_URL or are root-relative).
   */
  urlsFromRequest?: boolean;
  /**
   * Origins besides the request's own whose pages may use the token cookie (PUBLIC_BASE_URL's
   * origin). Compared by scheme, host and port.
   */
  allowedOrigins?: readonly string[];
  /** Ping interval; a peer that misses one pong is dropped (default 30 000 ms). */
  heartbeatMs?: number;
}

export interface ProgressSocket {
  /** Open streams. */
  readonly connections: number;
  /** Closes every stream with 1001 and stops accepting upgrades. */
  close(): Promise<void>;
}

const WS_PATH = /^\/api\/v1\/tasks\/([^/]+)\/ws\/?$/;
const HOST_PATTERN = /^[A-Za-z0-9.:\-[\]]{1,255}$/;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
};

/** An origin as compared: `scheme://host[:port]` with the default port dropped, or undefined. */
function originKey(text: string): string | undefined {
  if (text === 'null') return undefined;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function cookieToken(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === TOKEN_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Answers a refused upgrade with the envelope over the raw socket, then closes it. */
function refuse(socket: Duplex, error: AssetloomError, requestId: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(fail(error));
  const head = [
    `HTTP/1.1 ${error.code} ${REASONS[error.code] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  if (error.code === 405) head.push('Allow: GET');
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * WS /api/v1/tasks/:taskId/ws on the server's own HTTP listener (the `ws` library, noServer mode).
 * The upgrade is checked first — credential (Bearer header or the httpOnly `assetloom_token` cookie;
 * a cookie from a foreign Origin is refused), task id, ownership, `since` — and refused with the
 * envelope (401/403/404/400) before any WebSocket exists. An accepted stream replays the persisted
 * events after `since`, then follows the events collection by polling (woken at once by in-process
 * workers), so a client connected to one server process sees tasks run by another. It closes with
 * 1000 after the terminal event. Asset URLs in `result.assets` are signed when sent.
 */
export function attachProgressSocket(server: Server, options: ProgressSocketOptions): ProgressSocket {
  const { service, store, logger } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024, clientTracking: true });
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const streams = new Set<AbortController>();
  let closing = false;
  // One read of the events collection per interval for every task this process streams.
  // The followed tasks' statuses (for tasks deleted or ended without a terminal event, both rare)
  // are read about every 2 s, at least every fifth round: on FerretDB each such read scans the tasks.
  const poller = createSharedEventPoller({
    store,
    intervalMs: options.pollMs,
    checkTasksEvery: Math.max(5, Math.round(2000 / options.pollMs)),
  });
  const unsubscribe = options.notifier?.subscribe((taskId) => poller.wake(taskId));

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      const alive = (ws as WebSocket & { alive?: boolean }).alive;
      if (alive === false) {
        ws.terminate();
        continue;
      }
      (ws as WebSocket & { alive?: boolean }).alive = false;
      ws.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  const allowedOrigins = new Set((options.allowedOrigins ?? []).flatMap((o) => originKey(o) ?? []));
  /** Whether the request's own origin (from Host) is accepted beside `allowedOrigins`. */
  const hostIsOrigin = options.urlsFromRequest !== false || allowedOrigins.size === 0;

  /** The origin signed URLs of this upgrade use: the request's own when allowed, else none (relative). */
  function signingOriginOf(req: IncomingMessage): string | undefined {
    return options.urlsFromRequest === false ? undefined : originOf(req);
  }

  /** The request's own origin: scheme of the socket (or X-Forwarded-Proto), host and port of Host. */
  function originOf(req: IncomingMessage): string | undefined {
    let proto = 'http';
    let host = first(req.headers.host);
    if (options.trustProxy) {
      const fProto = first(req.headers['x-forwarded-proto'])?.split(',')[0]?.trim();
      const fHost = first(req.headers['x-forwarded-host'])?.split(',')[0]?.trim();
      if (fProto === 'https' || fProto === 'http') proto = fProto;
      if (fHost) host = fHost;
    } else if ((req.socket as { encrypted?: boolean }).encrypted) {
      proto = 'https';
    }
    if (host === undefined || !HOST_PATTERN.test(host)) return undefined;
    return `${proto}://${host}`;
  }

  async function admit(req: IncomingMessage): Promise<{ task: TaskRecord; since: number }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = WS_PATH.exec(url.pathname);
    if (match === null) throw errors.routeNotFound();
    if (req.method !== 'GET') throw errors.methodNotAllowed();
    const headerToken = bearerToken(first(req.headers.authorization));
    const viaCookie = headerToken === undefined;
    return admitProgressStream(service, store, {
      token: headerToken ?? cookieToken(first(req.headers.cookie)),
      taskId: decodeURIComponentSafe(match[1] ?? ''),
      since: url.searchParams.getAll('since'),
      afterAuth: () => {
        // Cross-site WebSocket hijacking: a browser sends the cookie from any page; accept it only
        // from pages of this server's origin — scheme, host and port, as the request reached it — or
        // of PUBLIC_BASE_URL, or from clients that send no Origin at all. `Origin: null` (sandboxed
        // frames, file: pages, some redirects) names no page and is refused.
        const origin = first(req.headers.origin);
        if (!viaCookie || origin === undefined) return;
        const claimed = originKey(origin);
        // In production with PUBLIC_BASE_URL set, that origin is the server's own: the request's Host
        // (or X-Forwarded-Host) names nothing more (issue #37). Elsewhere the request's own origin counts.
        const own = hostIsOrigin ? originOf(req) : undefined;
        const ownKey = own === undefined ? undefined : originKey(own);
        if (claimed === undefined || (claimed !== ownKey && !allowedOrigins.has(claimed)))
          throw errors.forbidden();
      },
    });
  }

  function send(ws: WebSocket, text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      ws.send(text, (error) => (error ? reject(error) : resolve()));
    });
  }

  async function stream(ws: WebSocket, task: TaskRecord, since: number, baseUrl: string | undefined) {
    const abort = new AbortController();
    streams.add(abort);
    const log = logger.child({ taskId: task.id, ws: true });
    ws.on('close', () => abort.abort());
    ws.on('error', (error) => {
      log.debug({ err: error }, 'websocket error');
      abort.abort();
    });
    ws.on('pong', () => {
      (ws as WebSocket & { alive?: boolean }).alive = true;
    });
    // Clients have nothing to say; anything they send is ignored.
    ws.on('message', () => undefined);
    try {
      await pipeProgress({
        store,
        task,
        since,
        sink: { send: (text) => send(ws, text), close: (code, reason) => ws.close(code, reason) },
        sign: (key) => options.signUrl(key, baseUrl),
        signal: abort.signal,
        pollMs: options.pollMs,
        wait: (ms, signal) =>
          options.notifier?.wait(task.id, ms, signal) ??
          new Promise<void>((resolve) => setTimeout(resolve, ms)),
        // The task itself is read on the first empty poll and when the shared poller's status round
        // (every fifth) finds it ended or gone: that only matters when the task ended without a
        // terminal event (a worker died at that instant) or was deleted.
        checkTaskEvery: 5,
        poller,
        onError: (error) => log.error({ err: error }, 'progress stream failed'),
      });
    } finally {
      streams.delete(abort);
    }
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const requestId =
      (first(req.headers['x-request-id']) ?? '').match(/^[\x21-\x7e]{1,128}$/)?.[0] ?? cryptoId();
    socket.on('error', () => socket.destroy());
    if (closing) {
      refuse(socket, errors.internal(), requestId);
      return;
    }
    admit(req).then(
      ({ task, since }) => {
        if (closing || socket.destroyed) {
          socket.destroy();
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          (ws as WebSocket & { alive?: boolean }).alive = true;
          void stream(ws, task, since, signingOriginOf(req));
        });
      },
      (error: unknown) => {
        const failure = toAssetloomError(error);
        if (failure.code === 500) logger.error({ err: error, reqId: requestId }, 'websocket upgrade failed');
        refuse(socket, failure, requestId);
      },
    );
  };
  server.on('upgrade', onUpgrade);

  return {
    get connections() {
      return wss.clients.size;
    },
    async close() {
      if (closing) return;
      closing = true;
      server.off('upgrade', onUpgrade);
      clearInterval(heartbeat);
      for (const s of streams) s.abort();
      unsubscribe?.();
      poller.close();
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
          resolve();
        }, 1000);
        timer.unref();
        wss.close(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

function decodeURIComponentSafe(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function cryptoId(): string {
  return globalThis.crypto.randomUUID();
}
