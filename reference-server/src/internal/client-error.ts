import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { MESSAGES } from '@assetloom/core';
import { errorEntry, languageOf } from '@assetloom/core/http';
import { reviewErrorBody } from '@assetloom/core/review';
import type { Logger } from 'pino';
import { isReviewPath } from '../review/setup.js';

/**
 * What Node's HTTP parser and timers report on `clientError` (before, or instead of, the apps'
 * answer), the status each one gets — Node's own defaults — and the message of its body.
 */
const ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: '请求头过大' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: MESSAGES.payloadTooLarge },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: '请求超时' },
};
const BAD_REQUEST = { status: 400, message: MESSAGES.badRequest };

/** The response of the request the error interrupted, if one is in flight on the socket (Node's own field). */
function inFlight(socket: Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * What a parser or socket error says of itself, without the bytes it carries: Node's `HPE_*` errors
 * hold the request's raw bytes in `rawPacket` (credentials included) beside `reason` and `bytesParsed`.
 */
export function parserFields(err: Error): {
  error: { message: string; reason?: string; bytesParsed?: number };
} {
  const { reason, bytesParsed } = err as Error & { reason?: unknown; bytesParsed?: unknown };
  return {
    error: {
      // the message of an HPE_* error is "Parse Error: <reason>", never request bytes
      message: err.message.slice(0, 200),
      ...(typeof reason === 'string' ? { reason: reason.slice(0, 200) } : {}),
      ...(typeof bytesParsed === 'number' ? { bytesParsed } : {}),
    },
  };
}

/** The path of a request target without its query (a signed download's token stays out of the log). */
function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)).slice(0, 512);
}

/**
 * The server's `clientError` listener. Node answers a request it cannot hand to the apps — headers
 * too large, a request line it cannot parse, a request that did not arrive within `requestTimeout`
 * (headers or body) — with a bare status line; this answers like the apps do instead: JSON with
 * `X-Request-Id` (the id the interrupted request already got, else a new one), the asset API's
 * envelope `{code, message, data: {reason}}`, or `{error, reason}` on the review helper's paths. Nothing is
 * written once a response has started (it would corrupt it) or when the peer is gone (ECONNRESET).
 */
export function createClientErrorHandler(logger: Logger): (err: Error, socket: Duplex) => void {
  return (err, socket) => {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const response = inFlight(socket);
    const answer = ANSWERS[code] ?? (code.startsWith('HPE_') ? BAD_REQUEST : undefined);
    const sent = response?.headersSent === true;
    const header = response?.getHeader('x-request-id');
    const requestId = typeof header === 'string' ? header : randomUUID();
    // Never `err` itself: Node's parser errors carry `rawPacket`, the request's bytes (bearer tokens,
    // cookies, JSON bodies with passwords). What the parser says of the failure is enough (issue #37).
    logger.info(
      {
        reqId: requestId,
        ...parserFields(err),
        code,
        status: answer?.status,
        path: pathOf(response?.req?.url),
      },
      answer === undefined || sent || !socket.writable ? 'client connection error' : 'client error answered',
    );
    if (answer === undefined || sent || !socket.writable) {
      socket.destroy();
      return;
    }
    const review = isReviewPath(response?.req?.url);
    // In the request's language when its headers were read (decision 0037), with the message's reason.
    const language = languageOf(response?.req?.headers['accept-language']);
    const entry = errorEntry(answer.message);
    const body = JSON.stringify(
      review
        ? reviewErrorBody(answer.message, language)
        : {
            code: answer.status,
            message: entry?.[language] ?? answer.message,
            data: { reason: entry?.reason ?? 'invalid_request' },
          },
    );
    const head = [
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'X-Content-Type-Options: nosniff',
      'Cache-Control: no-store',
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    // A peer that never reads must not hold the socket open.
    setTimeout(() => socket.destroy(), 5_000).unref();
  };
}
