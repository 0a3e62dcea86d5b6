import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Field names that hold a credential wherever they appear at the top of a logged object. */
const CREDENTIAL_FIELDS = [
  'password',
  'oldPassword',
  'newPassword',
  'passwordHash',
  'token',
  'authorization',
  'cookie',
];

/**
 * The server's structured logger (pino, JSON lines). Credentials never reach the log: the request
 * log lines carry method, path, status, duration, request id and user id only, and anything named
 * like a credential is redacted should it be logged by accident.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'assetloom-server' },
    timestamp: isoTimeField,
    // Explicit paths only: a path starting with a wildcard makes pino run its redactor over every
    // field of every line (about 2.5 µs a line, most of a request line's cost); these are the names
    // under which a credential could reach a log call.
    redact: {
      paths: [
        ...CREDENTIAL_FIELDS,
        ...CREDENTIAL_FIELDS.map((field) => `body.${field}`),
        ...CREDENTIAL_FIELDS.map((field) => `input.${field}`),
        'headers.cookie',
        'headers.authorization',
        'req.headers.cookie',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** Characters gathered before buffered log lines are written (one write call per this much). */
const LOG_BUFFER_CHARS = 8192;

/** A pino destination that can be flushed (pino's `logger.flush()` calls it). */
export type LogDestination = DestinationStream & { flush(callback?: (error?: Error) => void): void };

/**
 * Where the server's log lines go: `fd` (stdout by default).
 *
 * With `flushMs` > 0 (the default, LOG_FLUSH_MS=100) lines are gathered in memory and written
 * about 8 KB at a time, at the latest `flushMs` after they were logged, and synchronously when the
 * process exits (a fatal start-up error or a second signal included). One write system call per
 * line was the largest single cost of a small request on the benchmark machine (about 5 µs of ~33).
 * What it costs: a process killed with SIGKILL (or by the OOM killer) loses the lines of its last
 * `flushMs`. `flushMs` 0 writes every line synchronously, as pino does by default.
 *
 * The gathering is done here, in an array, and the writes by a synchronous sonic-boom (pino's
 * destination: partial writes, EAGAIN on pipes). sonic-boom's own `minLength` buffering measures
 * the byte length of its whole pending buffer on every line, which grows with the buffer.
 * Decision record: docs/decisions/0010-request-path-costs.md.
 */
export function createLogDestination(flushMs: number, fd = 1): LogDestination {
  const sink = pino.destination({ dest: fd, sync: true });
  if (flushMs <= 0) return sink;
  let pending: string[] = [];
  let size = 0;
  const flushSync = (): void => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    sink.write(text);
  };
  const timer = setInterval(flushSync, flushMs);
  timer.unref();
  flushOnExit(flushSync);
  return {
    write(line: string): boolean {
      pending.push(line);
      size += line.length;
      if (size >= LOG_BUFFER_CHARS) flushSync();
      return true;
    },
    flush(callback?: (error?: Error) => void): void {
      try {
        flushSync();
      } catch (error) {
        if (!callback) throw error;
        callback(error as Error);
        return;
      }
      callback?.();
    },
  };
}

/** Buffered destinations still to be written out when the process exits (one `exit` listener). */
const exitFlushes = new Set<() => void>();

function flushOnExit(flush: () => void): void {
  if (exitFlushes.size === 0) {
    process.once('exit', () => {
      for (const pendingFlush of exitFlushes) pendingFlush();
    });
  }
  exitFlushes.add(flush);
}

let lastTimeMs = Number.NaN;
let lastTimeField = '';

/**
 * pino's `isoTime`, remembered for the current millisecond: `Date#toISOString` was the costliest
 * part of a request line, and a busy server writes dozens of lines per millisecond.
 */
function isoTimeField(): string {
  const now = Date.now();
  if (now !== lastTimeMs) {
    lastTimeMs = now;
    lastTimeField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTimeField;
}
