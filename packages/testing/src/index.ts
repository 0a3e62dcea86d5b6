import { inject } from 'vitest';
import type { MongoProvidedContext } from './provided-context.js';

export type { Browser } from 'playwright-core';
export {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  type ChromiumLookup,
  findChromium,
  type LaunchChromiumOptions,
  launchChromium,
} from './chromium.js';
export {
  type CommandCounter,
  type CommandTally,
  countCommands,
  WRITE_COMMANDS,
} from './command-counter.js';
export { MAX_DB_NAME_LENGTH, uniqueDbName } from './db-name.js';
export { TestingError, type TestingErrorCode } from './errors.js';
export {
  ensureFerretDB,
  type FerretDBBinary,
  type FerretDBBuildOptions,
  ferretdbCacheRoot,
  PINNED_FERRETDB_TAG,
  type RunningFerretDB,
  resolveFerretDBTag,
  startFerretDB,
} from './ferretdb.js';
export { getFreePort } from './free-port.js';
export {
  isCI,
  type MongoTarget,
  type MongoTargetKind,
  type MongoTargetUnavailable,
  type ResolveMongoTargetOptions,
  resolveMongoTarget,
} from './mongo-target.js';
export { type PingResult, pingMongo } from './ping.js';
export {
  findRealServer,
  type RealServerInstall,
  type RealServerKind,
  type RealServerMissing,
  type RunningRealServer,
  repositoryRoot,
  requireRealServer,
  type StartRealServerOptions,
  startRealServer,
} from './real-servers.js';
export type { RealServersProvidedContext } from './real-servers-global-setup.js';
export { type WaitForOptions, waitFor } from './wait-for.js';
export {
  type ComfyMessage,
  type ComfyRecording,
  type ComfyWireFixture,
  type LlamaWireFixture,
  messageShapes,
  readFixture,
  WIRE_FIXTURES,
  wireShape,
  writeFixture,
} from './wire.js';
export type { MongoProvidedContext };

/**
 * The URI the global setup provided, for use at the top of a test file. When there is none
 * (outside CI only), warns loudly naming `suite` and the reason, and returns null: pair it with
 * `describe.skipIf(!uri)`.
 */
export function injectMongoUri(suite: string): string | null {
  const uri = inject('mongoUri');
  if (uri === undefined) {
    console.warn(
      `[assetloom/testing] ⚠ SKIPPING "${suite}": nothing provided "mongoUri". Add globalSetup: ['@assetloom/testing/mongo-global-setup'] to this vitest project.`,
    );
    return null;
  }
  if (uri === null) {
    console.warn(
      `[assetloom/testing] ⚠ SKIPPING "${suite}": MongoDB test target ${inject('mongoUnavailableReason')}`,
    );
  }
  return uri;
}
