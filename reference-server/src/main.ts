#!/usr/bin/env node
/**
 * The CLI entry: reads the configuration from the environment, starts the server and shuts it down
 * gracefully on SIGTERM or SIGINT (a second signal exits at once).
 */
import { causeOf, describeStartupFailure, handleCliArgs } from './cli.js';
import { SERVER_VERSION } from './version.js';

async function main(): Promise<void> {
  // --help and --version: printed before anything is read, created or bound.
  if (!handleCliArgs(process.argv.slice(2), 'assetloom-server', SERVER_VERSION)) return;
  const { loadConfig } = await import('./config.js');
  const { createLogDestination, createLogger } = await import('./logger.js');
  const { startServer } = await import('./server.js');
  const loaded = loadConfig();
  if (!loaded.ok) {
    process.stderr.write(`${loaded.error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const config = loaded.value;
  const logger = createLogger(config.logging.level, createLogDestination(config.logging.flushMs));
  for (const warning of loaded.warnings) logger.warn(warning);

  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer(config, { logger });
  } catch (error) {
    // A known cause (port in use, a missing optional package): one plain line naming it first.
    const known = describeStartupFailure(error, {
      port: config.http.port,
      host: config.http.host,
      portVariable: 'PORT',
    });
    if (known !== null) {
      logger.flush();
      process.stderr.write(`${known}\n`);
    } else {
      logger.fatal(
        {
          err: error,
          store: config.store.mongodbUri === null ? `embedded (${config.store.dataDir})` : 'mongodb',
        },
        `[assetloom/server] could not start: ${causeOf(error)}`,
      );
    }
    process.exitCode = 1;
    return;
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'signal received, closing');
    running.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  // A thrown error nothing caught: one fatal JSON line (with the stack) instead of Node's plain-text
  // trace on stderr, then exit 1 as Node would — the process state is unknown past this point.
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; exiting');
    logger.flush();
    process.exit(1);
  });
}

void main();
