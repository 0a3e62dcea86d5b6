import { ACCOUNT_HELP, login, logout, register, whoami } from './commands/account.js';
import { CAPABILITIES_HELP, capabilities } from './commands/capabilities.js';
import { CHARACTERS_HELP, characters } from './commands/characters.js';
import {
  DOWNLOAD_HELP,
  download,
  GENERATE_HELP,
  generate,
  type Options,
  TASKS_HELP,
  tasks,
  UPLOAD_HELP,
  upload,
} from './commands/generate.js';
import { PROJECTS_HELP, projects, STYLE_HELP, style } from './commands/projects.js';
import { type ClientOverrides, type CliIo, Context, DEFAULT_SERVER, EXIT, UsageError } from './context.js';
import { CliError } from './errors.js';
import { VERSION } from './version.js';

export const HELP = `assetloom — Assetloom from the command line (@assetloom/cli ${VERSION})

Usage: assetloom <command> [options]

Account
  register --username <name>     create an account, log in and keep the token
  login --username <name>        log in and keep the token (config file, mode 0600)
  logout                         forget the token
  whoami                         who the token belongs to
  capabilities                   what the server's image provider can do (inputs, limits)
Projects and styles
  projects [list|create|rename|delete]
  style [show|set|pick|palettes|catalog]   a project's style; the palette picker
Assets
  generate --project <p> --prompt <text> [--type sprite|animation|background|ui|tileset|level] …
  upload <file>…                 pictures for --image, mask, references, palette-from
  tasks [list|show|wait]
  download <taskId> [--out <dir>]
  characters [list|create|show|rename|delete|animate|rotate]
                                 kept characters: animate and turn them as tasks
  pixelize <in.png> -o <out.png> model output → native pixel art (local, no server)

Every command takes
  --server <url>     the API (default $ASSETLOOM_SERVER, the last login's server, ${DEFAULT_SERVER})
  --token <token>    instead of the kept one (default $ASSETLOOM_TOKEN)
  --json             the result as one JSON document on stdout (errors too), for scripts
  --lang en|zh       the language of the server's messages (default from $LANG, else en)
  -h, --help         the command's help: assetloom <command> --help

The config file: $ASSETLOOM_CONFIG, else $XDG_CONFIG_HOME/assetloom/config.json (~/.config/…).
Exit codes: 0 done, 1 the task failed, 2 bad arguments (or refused as invalid, or not found),
3 not logged in, 4 API or network error, 5 cannot read or write a file, 6 pixelize: not a PNG.
`;

type Command = (ctx: Context, argv: string[], options: Options) => Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string }> = {
  register: { run: register, help: ACCOUNT_HELP.register },
  login: { run: login, help: ACCOUNT_HELP.login },
  logout: { run: logout, help: ACCOUNT_HELP.logout },
  whoami: { run: whoami, help: ACCOUNT_HELP.whoami },
  capabilities: { run: capabilities, help: CAPABILITIES_HELP },
  projects: { run: projects, help: PROJECTS_HELP },
  style: { run: style, help: STYLE_HELP },
  generate: { run: generate, help: GENERATE_HELP },
  upload: { run: upload, help: UPLOAD_HELP },
  tasks: { run: tasks, help: TASKS_HELP },
  download: { run: download, help: DOWNLOAD_HELP },
  characters: { run: characters, help: CHARACTERS_HELP },
};

export interface RunOptions extends Options {
  /** Passed to createAssetClient (tests inject fetch and WebSocket). */
  client?: ClientOverrides;
}

/**
 * Runs `assetloom <argv…>` and resolves with the exit code; never throws. Results go to stdout
 * (one JSON document with --json), progress and errors to stderr.
 */
export async function runCli(argv: string[], io: CliIo, options: RunOptions = {}): Promise<number> {
  // `npm run … -- generate …` may hand the separator through: a leading `--` is not an argument.
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const [name, ...rest] = args;
  const json = rest.includes('--json');
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    io.stdout.write(topic && COMMANDS[topic] ? `${COMMANDS[topic].help}\n` : HELP);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (name === 'pixelize') {
    const { runPixelize } = await import('./commands/pixelize.js');
    return runPixelize(rest, io);
  }
  const command = COMMANDS[name];
  const fail = (message: string, code: number, usage = false) => {
    io.stderr.write(`assetloom ${command ? `${name}: ` : ''}${message}\n`);
    if (usage) io.stderr.write(`Run "assetloom ${command ? `${name} ` : ''}--help" for the options.\n`);
    if (json) io.stdout.write(`${JSON.stringify({ error: { message, exit: code } }, null, 2)}\n`);
    return code;
  };
  if (!command) {
    return fail(
      `unknown command ${JSON.stringify(name)}; the commands are ${Object.keys(COMMANDS).join(', ')}, pixelize`,
      EXIT.usage,
      true,
    );
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(
      `${command.help}\n\nEvery command also takes --server, --token, --json and --lang (assetloom --help).\n`,
    );
    return EXIT.ok;
  }
  try {
    const values = globalValues(rest);
    const ctx = new Context(io, values, options.client);
    return await command.run(ctx, rest, options);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, EXIT.usage, true);
    if (error instanceof CliError) return fail(error.message, error.exit);
    return fail(
      `unexpected error: ${(error as Error)?.message ?? String(error)} (please report it)`,
      EXIT.api,
    );
  }
}

/** The global options' values, read before the command parses the rest (a bad one: its usage error then). */
function globalValues(argv: string[]) {
  const values: { server?: string; 'base-url'?: string; token?: string; json?: boolean; lang?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag === '--json') values.json = true;
    else if (flag === '--server' || flag === '--base-url' || flag === '--token' || flag === '--lang') {
      const value = inline ?? argv[i + 1];
      if (inline === undefined) i++;
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      values[flag.slice(2) as 'server' | 'base-url' | 'token' | 'lang'] = value;
    }
  }
  return values;
}
