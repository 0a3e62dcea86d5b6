/**
 * A benchmark target, run in its own process so the load generator does not share its event loop:
 * `tsx bench/target.ts hello` (a bare Koa hello-world), `hello-list` (a bare Koa app answering a
 * fixed body of the list endpoint's shape and size) or `tsx bench/target.ts asset` (the asset
 * API on the configuration in the environment, logging at info level through the server's logger to /dev/null). Prints one JSON line `{"url": ...}` when listening; exits on SIGTERM.
 */
import { openSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { loadConfig } from '../src/config.js';
import { createLogDestination, createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';

/** A first page of 20 projects as the list endpoint answers it (same fields, same sizes). */
const LIST_BODY = {
  code: 0,
  message: 'ok',
  data: {
    total: 20,
    projects: Array.from({ length: 20 }, (_, i) => ({
      id: `Bench${String(i).padStart(2, '0')}AbCdEfGhIjKlMnOp`,
      name: `Project ${i}`,
      createdAt: '2026-11-21T21:36:11.602Z',
      taskCount: 1,
      lastActivityAt: '2026-11-21T21:36:11.602Z',
    })),
  },
};

async function hello(body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = body;
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
}

async function asset(): Promise<{ url: string; close: () => Promise<void> }> {
  const loaded = loadConfig();
  if (!loaded.ok) throw loaded.error;
  // The server's own logger and log destination (its redaction, timestamps and buffering by
  // LOG_FLUSH_MS), writing to /dev/null instead of stdout.
  const devNull = openSync('/dev/null', 'w');
  const logger = createLogger('info', createLogDestination(loaded.value.logging.flushMs, devNull));
  return startServer(loaded.value, { logger });
}

const kind = process.argv[2];
const running =
  kind === 'hello'
    ? await hello({ code: 0, message: 'ok', data: { hello: 'world' } })
    : kind === 'hello-list'
      ? await hello(LIST_BODY)
      : kind === 'asset'
        ? await asset()
        : undefined;
if (running === undefined) {
  process.stderr.write('usage: tsx bench/target.ts hello|hello-list|asset\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.on('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
