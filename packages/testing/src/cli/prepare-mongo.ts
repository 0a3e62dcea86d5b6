/**
 * pnpm --filter @assetloom/testing run prepare-mongo [--start]
 *
 * Builds and caches the FerretDB v1 binary the tests use, so the first test run does not pay the
 * build. With --start it also starts it once and prints the spawn-to-ping time. Skipped (exit 0)
 * when MONGODB_URI is set: the tests use that server instead.
 */
import { TestingError } from '../errors.js';
import { ensureFerretDB, ferretdbCacheRoot, startFerretDB } from '../ferretdb.js';
import { isCI } from '../mongo-target.js';

const log = (line: string) => console.log(`[assetloom/testing] ${line}`);

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--start' && arg !== '--force');
  if (argv.includes('--help') || argv.includes('-h') || unknown.length > 0) {
    console.log(
      'usage: prepare-mongo [--start] [--force]\n  builds FerretDB v1 into the cache (once)\n  --start  also start it once and report the start time\n  --force  build even when MONGODB_URI is set',
    );
    return unknown.length > 0 && !argv.includes('--help') && !argv.includes('-h') ? 2 : 0;
  }
  if (process.env.MONGODB_URI?.trim() && !argv.includes('--force')) {
    log(
      'MONGODB_URI is set: tests use that server, nothing to prepare (pass --force to build FerretDB anyway)',
    );
    return 0;
  }
  log(`cache: ${ferretdbCacheRoot()}`);
  const started = performance.now();
  const built = await ensureFerretDB({ log });
  if (built.built) {
    log(
      `ready: FerretDB ${built.tag} (tag from ${built.tagSource}) built in ${((built.buildMs ?? 0) / 1000).toFixed(1)} s`,
    );
  } else {
    log(`ready: FerretDB ${built.tag} (tag from ${built.tagSource}) already cached at ${built.binary}`);
  }
  if (argv.includes('--start')) {
    const server = await startFerretDB(built.binary, { log });
    log(`started on 127.0.0.1:${server.port}, answered ping after ${server.startMs} ms`);
    await server.stop();
  }
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(message.startsWith('[assetloom/testing]') ? message : `[assetloom/testing] ${message}`);
    if (error instanceof TestingError && error.code === 'GO_MISSING' && !isCI()) {
      console.error(
        '[assetloom/testing] tests will skip the MongoDB suites (loudly) until a target is available.',
      );
    }
    process.exitCode = 1;
  },
);
