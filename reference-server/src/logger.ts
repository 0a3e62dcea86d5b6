import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * The server's structured logger (pino, JSON lines). Credentials never reach the log: the request
 * log lines carry method, path, status, duration, request id and user id only, and anything named
 * like a credential is redacted should it be logged by accident.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'assetloom-server' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        'oldPassword',
        'newPassword',
        'token',
        'authorization',
        '*.password',
        '*.token',
        '*.authorization',
        'headers.cookie',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
