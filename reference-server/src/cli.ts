/**
 * The command line of `assetloom-server` and `assetloom-worker` (issue #32): `--help` and
 * `--version` print and exit 0 before anything is read, created or bound; an unknown argument exits
 * 2. Also how a failed start-up is told: its real cause first, in one plain line.
 */
import { MissingPackageError } from './optional-deps.js';

export type CliBin = 'assetloom-server' | 'assetloom-worker';

export type CliAction =
  | { kind: 'run' }
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string }
  | { kind: 'usage-error'; text: string };

const SETTINGS = `Settings (environment variables; the few that matter first):
  PORT, HOST            where the API listens (default 8080 on 127.0.0.1; PORT=0 picks a free port)
  DATA_DIR              folder of the embedded store and of the generated files (default ./data)
  PUBLIC_BASE_URL       the public origin of the server, for signed download URLs
  JWT_SECRET            token secret, at least 32 bytes (generated with a warning in development;
                        required with NODE_ENV=production)
  NODE_ENV              development (default), test or production
  MONGODB_URI           use MongoDB instead of the embedded store (needs: npm install mongodb@^6)
  STORAGE_DRIVER=s3     S3 object storage with S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,
                        S3_SECRET_ACCESS_KEY (needs: npm install @aws-sdk/client-s3@^3
                        @aws-sdk/s3-request-presigner@^3)
  LOG_LEVEL             fatal, error, warn, info (default), debug, trace or silent`;

const DOCS =
  'Every setting is in the package README: node_modules/@assetloom/server/README.md, or\nhttps://www.npmjs.com/package/@assetloom/server';

function helpText(bin: CliBin): string {
  const what =
    bin === 'assetloom-server'
      ? `Usage: npx assetloom-server [--help] [--version]

Starts the Assetloom reference server: the asset API, the review helper, the API reference at
/docs and the studio at /studio, with an in-process generation worker. With no settings it runs on
the embedded store in ./data and listens on http://127.0.0.1:8080.`
      : `Usage: npx assetloom-worker [--help] [--version]

Starts a generation worker with no HTTP listener: it claims and runs the tasks of a shared MongoDB
store (MONGODB_URI), beside API processes started with WORKER_IN_PROCESS=false.`;
  const extra =
    bin === 'assetloom-server'
      ? '  WORKER_IN_PROCESS     run the generation worker inside the API process (default true)'
      : '  WORKER_CONCURRENCY    tasks run at once (default 2); METRICS_PORT for /metrics (METRICS_ENABLED)';
  return `${what}

Options:
  -h, --help            print this help and exit
  -v, --version         print the version and exit

${SETTINGS}
${extra}

${DOCS}
`;
}

/** What the arguments (without node and the script) ask for. Reads nothing else. */
export function parseCliArgs(args: readonly string[], bin: CliBin, version: string): CliAction {
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') return { kind: 'help', text: helpText(bin) };
    if (arg === '--version' || arg === '-v') return { kind: 'version', text: `${version}\n` };
  }
  if (args.length > 0) {
    const [first] = args;
    const what = first?.startsWith('-') ? 'unknown option' : 'unexpected argument';
    return {
      kind: 'usage-error',
      text: `${bin}: ${what} "${first}". The server takes its settings from environment variables; see ${bin} --help.\n`,
    };
  }
  return { kind: 'run' };
}

/**
 * Handles `--help`, `--version` and bad arguments: prints, sets the exit code and answers false
 * (do not start); answers true when the process should start.
 */
export function handleCliArgs(args: readonly string[], bin: CliBin, version: string): boolean {
  const action = parseCliArgs(args, bin, version);
  if (action.kind === 'run') return true;
  if (action.kind === 'usage-error') {
    process.stderr.write(action.text);
    process.exitCode = 2;
  } else {
    process.stdout.write(action.text);
    process.exitCode = 0;
  }
  return false;
}

/** Where the process tried to listen (for a listen error's message). */
export interface ListenTarget {
  port: number;
  host: string;
  /** The variable that sets the port (PORT, or METRICS_PORT for the worker's metrics listener). */
  portVariable: string;
}

/**
 * A start-up failure whose cause is known, told in one plain line that names the cause first and
 * the setting to change; null for anything else (logged with its stack by the caller).
 */
export function describeStartupFailure(error: unknown, listen: ListenTarget): string | null {
  if (error instanceof MissingPackageError) return error.message;
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  const where = `${listen.host}:${listen.port}`;
  if (code === 'EADDRINUSE') {
    return `[assetloom/server] port ${listen.port} is already in use on ${listen.host} (set ${listen.portVariable}=… to a free port, or stop the process listening on ${where}).`;
  }
  if (code === 'EACCES' && syscall === 'listen') {
    return `[assetloom/server] no permission to listen on port ${listen.port} (ports below 1024 need privileges; set ${listen.portVariable}=… to 1024 or above).`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `[assetloom/server] cannot listen on ${listen.host}: no network interface has this address (set HOST=…, e.g. 127.0.0.1 or 0.0.0.0).`;
  }
  return null;
}

/** The first line of an unknown start-up error, for the generic message (its cause first). */
export function causeOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${typeof code === 'string' ? `${code}: ` : ''}${error.message.split('\n')[0]}`;
  }
  return String(error);
}
