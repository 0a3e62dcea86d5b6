#!/usr/bin/env node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
/**
 * The separate worker entry: claims and runs generation tasks from the shared store, with no HTTP
 * listener. Run any number of these beside API processes started with WORKER_IN_PROCESS=false
 * (MongoDB store; the embedded store belongs to one process). SIGTERM/SIGINT stop claiming, let the
 * running tasks finish for up to SHUTDOWN_GRACE_MS and hand the rest back (a second signal exits).
 */
import { causeOf, describeStartupFailure, handleCliArgs } from './cli.js';
import type { ObjectStorage } from './storage/types.js';
import { SERVER_VERSION } from './version.js';

async function main(): Promise<void> {
  // --help and --version: printed before anything is read, created or bound.
  if (!handleCliArgs(process.argv.slice(2), 'assetloom-worker', SERVER_VERSION)) return;
  const { loadConfig } = await import('./config.js');
  const { createLogDestination, createLogger } = await import('./logger.js');
  const { createMetricsHandler, isMetricsPath, ServerMetrics } = await import('./metrics.js');
  const { openObjectStorage, openStore, queueDepthOf, workerFor } = await import('./server.js');
  const { errors, fail } = await import('@assetloom/core');
  const { languageOf } = await import('@assetloom/core/http');
  const loaded = loadConfig();
  if (!loaded.ok) {
    process.stderr.write(`${loaded.error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const config = loaded.value;
  const logger = createLogger(config.logging.level, createLogDestination(config.logging.flushMs)).child({
    role: 'worker',
  });
  for (const warning of loaded.warnings) logger.warn(warning);

  const listen = { port: config.metrics.workerPort, host: config.http.host, portVariable: 'METRICS_PORT' };
  const failed = (error: unknown) => {
    // A known cause (a missing optional package, a port in use): one plain line naming it first.
    const known = describeStartupFailure(error, listen);
    if (known !== null) {
      logger.flush();
      process.stderr.write(`${known}\n`);
    } else {
      logger.fatal({ err: error }, `[assetloom/server] the worker could not start: ${causeOf(error)}`);
    }
    process.exitCode = 1;
  };
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    // what reads uploads (UPLOAD_DECODER): sharp missing stops the start when asked for, else is named once
    const { openUploadDecoder } = await import('./uploads/index.js');
    await openUploadDecoder(config, logger);
    store = await openStore(config);
  } catch (error) {
    failed(error);
    return;
  }
  let storage: ObjectStorage;
  try {
    await store.init();
    storage = await openObjectStorage(config);
  } catch (error) {
    failed(error);
    await store.close().catch(() => {});
    return;
  }
  let worker: ReturnType<typeof workerFor> | undefined;
  const metrics = config.metrics.enabled
    ? new ServerMetrics('worker', {
        queueDepth: () => queueDepthOf(store),
        workerActive: () => worker?.active ?? 0,
      })
    : null;
  worker = workerFor(config, { store, storage, logger, metrics });
  // METRICS_ENABLED: a listener of its own on HOST:METRICS_PORT that serves /metrics only.
  let metricsServer: Server | undefined;
  if (metrics !== null) {
    const handler = createMetricsHandler(metrics, config.metrics.token);
    const listener = createServer((req, res) => {
      if (isMetricsPath(req.url)) return handler(req, res);
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(fail(errors.routeNotFound(), languageOf(req.headers['accept-language']))));
    });
    try {
      await new Promise<void>((resolveListen, reject) => {
        listener.once('error', reject);
        listener.listen(config.metrics.workerPort, config.http.host, () => resolveListen());
      });
    } catch (error) {
      failed(error);
      storage.close?.();
      await store.close().catch(() => {});
      return;
    }
    metricsServer = listener;
    const address = listener.address() as AddressInfo;
    logger.info({ url: `http://${config.http.host}:${address.port}/metrics` }, 'metrics listening');
  }
  worker.start();

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, active: worker?.active }, 'signal received, stopping the worker');
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    (worker as NonNullable<typeof worker>)
      .stop(config.http.shutdownGraceMs)
      .then(async () => {
        storage.close?.();
        await store.close();
        process.exitCode = 0;
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'worker shutdown failed');
        process.exitCode = 1;
      });
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
