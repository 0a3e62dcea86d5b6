import { writeConfig } from '../config-file.js';
import { CliError, type Context, EXIT, parseCommand, UsageError } from '../context.js';

export const ACCOUNT_HELP = {
  register: `assetloom register --username <name> [--email <address>] [--password <pw> | --password-stdin]

Creates an account on the server, logs in and keeps the token (as login does).
The password: --password, --password-stdin (read from standard input), or $ASSETLOOM_PASSWORD.`,
  login: `assetloom login --username <name> [--password <pw> | --password-stdin]

Logs in and keeps the token in the config file (mode 0600) for this server; later commands send it.
The password: --password, --password-stdin (read from standard input), or $ASSETLOOM_PASSWORD.`,
  logout: `assetloom logout

Forgets the token kept for this server (tokens expire by themselves; the API has no server-side logout).`,
  whoami: `assetloom whoami

Who the kept token (or $ASSETLOOM_TOKEN) belongs to, on which server.`,
};

const CREDENTIALS = {
  username: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
} as const;

async function readPassword(ctx: Context, values: { password?: string; 'password-stdin'?: boolean }) {
  if (values.password !== undefined && values['password-stdin']) {
    throw new UsageError('give --password or --password-stdin, not both');
  }
  if (values['password-stdin']) {
    if (!ctx.io.stdin) throw new UsageError('--password-stdin: no standard input to read');
    let text = '';
    for await (const chunk of ctx.io.stdin)
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const password = text.replace(/\r?\n$/, '');
    if (password === '') throw new UsageError('--password-stdin read an empty password');
    return password;
  }
  const password = values.password ?? ctx.io.env.ASSETLOOM_PASSWORD;
  if (!password)
    throw new UsageError('the password is missing: --password <pw>, --password-stdin or $ASSETLOOM_PASSWORD');
  return password;
}

/** Logs in and keeps the token for the server; answers what was kept. */
async function logIn(ctx: Context, username: string, password: string) {
  const login = ctx.unwrap('login failed', await ctx.api.login({ username, password }));
  const expiresAt = new Date(Date.now() + login.expiresIn * 1000).toISOString();
  const config = ctx.config;
  config.sessions[ctx.server] = { token: login.token, username, expiresAt };
  config.server = ctx.server;
  writeConfig(ctx.configFile, config);
  return { server: ctx.server, username, userId: login.user.id, expiresAt, configFile: ctx.configFile };
}

export async function register(ctx: Context, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(argv, { ...CREDENTIALS, email: { type: 'string' } });
  if (positionals.length > 0)
    throw new UsageError(`register takes no arguments; got ${positionals.join(' ')}`);
  if (!values.username) throw new UsageError('--username is required (3-32 characters)');
  const password = await readPassword(ctx, values);
  const created = ctx.unwrap(
    'registration failed',
    await ctx.api.POST('/auth/register', {
      body: { username: values.username, password, ...(values.email ? { email: values.email } : {}) },
    }),
  );
  const session = await logIn(ctx, values.username, password);
  ctx.print(`registered ${created.username} (id ${created.id}) on ${ctx.server} and logged in`);
  ctx.result({ ...session, registered: true });
  return EXIT.ok;
}

export async function login(ctx: Context, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(argv, CREDENTIALS);
  if (positionals.length > 0) throw new UsageError(`login takes no arguments; got ${positionals.join(' ')}`);
  if (!values.username) throw new UsageError('--username is required');
  const password = await readPassword(ctx, values);
  const session = await logIn(ctx, values.username, password);
  ctx.print(
    `logged in to ${ctx.server} as ${session.username} until ${session.expiresAt} (token kept in ${ctx.configFile})`,
  );
  ctx.result(session);
  return EXIT.ok;
}

export async function logout(ctx: Context, argv: string[]): Promise<number> {
  const { positionals } = parseCommand(argv, {});
  if (positionals.length > 0) throw new UsageError(`logout takes no arguments; got ${positionals.join(' ')}`);
  const config = ctx.config;
  const had = config.sessions[ctx.server] !== undefined;
  delete config.sessions[ctx.server];
  if (had) writeConfig(ctx.configFile, config);
  ctx.print(had ? `logged out of ${ctx.server}` : `no token was kept for ${ctx.server}`);
  ctx.result({ server: ctx.server, loggedOut: had });
  return EXIT.ok;
}

export async function whoami(ctx: Context, argv: string[]): Promise<number> {
  const { positionals } = parseCommand(argv, {});
  if (positionals.length > 0) throw new UsageError(`whoami takes no arguments; got ${positionals.join(' ')}`);
  ctx.requireToken();
  const me = ctx.unwrap('could not read your account', await ctx.api.GET('/api/v1/auth/me'));
  if (!me) throw new CliError('the server answered no account', EXIT.api);
  ctx.print(`${me.username} on ${ctx.server}`);
  ctx.result({ server: ctx.server, ...me });
  return EXIT.ok;
}
