/**
 * A benchmark target, run in its own process so the load generator does not share its event loop:
 * `tsx bench/target.ts hello` (a bare Koa hello-world) or `tsx bench/target.ts asset` (the asset
 * API on the configuration in the environment, logging at info level to /dev/null as production
 * would log to a file). Prints one JSON line `{"url": ...}` when listening; exits on SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

async function hello(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { code: 0, message: 'ok', data: { hello: 'world' } };
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
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  return startServer(loaded.value, { logger });
}

const kind = process.argv[2];
const running = kind === 'hello' ? await hello() : kind === 'asset' ? await asset() : undefined;
if (running === undefined) {
  process.stderr.write('usage: tsx bench/target.ts hello|asset\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.on('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
