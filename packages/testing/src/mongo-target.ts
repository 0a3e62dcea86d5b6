import { describeError, TestingError } from './errors.js';
import { ensureFerretDB, type FerretDBBuildOptions, startFerretDB } from './ferretdb.js';
import { pingMongo, redactUri } from './ping.js';

export type MongoTargetKind = 'env' | 'ferretdb' | 'mongo-java-server';

/** A MongoDB-wire server tests can use. */
export interface MongoTarget {
  uri: string;
  kind: MongoTargetKind;
  /** One line for logs: what runs where (password redacted). */
  description: string;
  /** Stops the server this call started (nothing for `env`). Safe to call twice. */
  stop(): Promise<void>;
}

/** Returned outside CI when no target could be had; suites skip loudly with `reason`. */
export interface MongoTargetUnavailable {
  uri: null;
  kind: 'unavailable';
  /** `unavailable: <why>` */
  reason: string;
  stop(): Promise<void>;
}

export interface ResolveMongoTargetOptions extends FerretDBBuildOptions {
  /** Treat a missing target as a failure (default: `CI` is set in the environment). */
  ci?: boolean;
  /** How long a started server may take to answer `ping` (default 30 s). */
  startTimeoutMs?: number;
  /** Ping timeout for a `MONGODB_URI` target (default 10 s). */
  pingTimeoutMs?: number;
}

/** Whether `CI` is set to anything but an empty string, `0` or `false`. */
export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

const nothingToStop = async () => undefined;

/**
 * Finds a MongoDB-wire server for tests: `MONGODB_URI` when set (it must answer `ping`), else a
 * FerretDB v1 on SQLite built once into the cache and started on 127.0.0.1 and a free port.
 * In CI (or with `ci: true`) a missing target throws a MONGO_UNAVAILABLE TestingError; elsewhere it
 * resolves to `{ kind: 'unavailable', reason }` so suites can skip loudly.
 */
export async function resolveMongoTarget(
  options: ResolveMongoTargetOptions = {},
): Promise<MongoTarget | MongoTargetUnavailable> {
  const env = options.env ?? process.env;
  const ci = options.ci ?? isCI(env);
  const log = options.log ?? (() => undefined);
  const unavailable = (why: string, cause?: unknown): MongoTargetUnavailable => {
    const reason = `unavailable: ${why.replace(/[.\s]+$/, '')}`;
    if (ci) {
      throw new TestingError(
        'MONGO_UNAVAILABLE',
        `no MongoDB test target in CI — ${reason}. CI must test against MongoDB: set MONGODB_URI, or make Go ≥ 1.22 and the Go module proxy available (run "pnpm --filter @assetloom/testing run prepare-mongo" to see the build).`,
        { cause },
      );
    }
    return { uri: null, kind: 'unavailable', reason, stop: nothingToStop };
  };

  const fromEnv = env.MONGODB_URI?.trim();
  if (fromEnv) {
    const ping = await pingMongo(fromEnv, options.pingTimeoutMs ?? 10_000);
    if (!ping.ok) {
      return unavailable(`MONGODB_URI (${redactUri(fromEnv)}) is set but did not answer ping: ${ping.error}`);
    }
    return {
      uri: fromEnv,
      kind: 'env',
      description: `MONGODB_URI ${redactUri(fromEnv)} (${ping.ferretdb ? `FerretDB ${ping.ferretdb}, ` : ''}MongoDB ${ping.version ?? 'version unknown'})`,
      stop: nothingToStop,
    };
  }

  try {
    const built = await ensureFerretDB(options);
    const server = await startFerretDB(built.binary, {
      log,
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    });
    const how = built.built ? `built in ${built.buildMs} ms` : 'cached';
    log(
      `FerretDB ${built.tag} (${how}) answered ping on 127.0.0.1:${server.port} after ${server.startMs} ms`,
    );
    return {
      uri: server.uri,
      kind: 'ferretdb',
      description: `FerretDB ${built.tag} (SQLite, ${server.dataDir}) on 127.0.0.1:${server.port}`,
      stop: server.stop,
    };
  } catch (error) {
    if (error instanceof TestingError && error.code === 'INVALID_ARGUMENT') throw error;
    return unavailable(
      `MONGODB_URI is not set and FerretDB could not be used: ${describeError(error)}`,
      error,
    );
  }
}
