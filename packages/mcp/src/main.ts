import { stat } from 'node:fs/promises';
import { delimiter, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { isLayoutName, LAYOUT_NAMES } from './internal/layouts.js';
import { type Language, languageOf } from './internal/messages.js';
import type { ApiConnection } from './internal/session.js';
import { createAssetloomMcpServer, VERSION } from './server.js';

const HELP = `assetloom-mcp ${VERSION} — the Assetloom MCP server for coding agents (stdio)

Usage: assetloom-mcp [--server <url>] [--allow <folder>]… [--layout <name>] [--lang en|zh] [--mock]

  --server <url>     the Assetloom API (default $ASSETLOOM_SERVER, else http://127.0.0.1:8080)
  --allow <folder>   a folder the tools may write files into and read pictures from (repeatable;
                     also $ASSETLOOM_MCP_ALLOW, folders separated by '${delimiter}'); none: nothing is written
  --layout <name>    the files a download writes when a call names none: ${LAYOUT_NAMES.join(', ')} (default all)
  --lang en|zh       the language of the tools' messages (default $ASSETLOOM_LANG, else $LANG, else en)
  --mock             offline: the @assetloom/mock API in this process, signed in as demo (needs the
                     mock's packages and msw installed beside this one)
  --help, --version

The account comes from the environment, never from the command line: $ASSETLOOM_TOKEN (a token from
POST /auth/login), or $ASSETLOOM_USERNAME and $ASSETLOOM_PASSWORD (logged in at the first call, and
again when the token expires). Without either, the agent may call the login tool.
`;

const MOCK_URL = 'http://assetloom.mock';
const MOCK_USER = { username: 'demo', password: 'demo-pass-1' };

function fail(message: string): never {
  process.stderr.write(`[assetloom/mcp] ${message}\n`);
  process.exit(2);
}

async function mockConnection(): Promise<ApiConnection> {
  let mock: typeof import('@assetloom/mock');
  let msw: typeof import('msw/node');
  try {
    mock = await import('@assetloom/mock');
    msw = await import('msw/node');
  } catch {
    fail(
      '--mock needs @assetloom/mock and msw installed beside @assetloom/mcp: run the root README\'s install line "the SDK and the mock" in the same folder (npm run pack:all writes the tarballs).',
    );
  }
  mock.installWebSocketGlobal();
  const { handlers, controls } = mock.createAssetMock({
    baseUrl: MOCK_URL,
    seed: {
      users: [MOCK_USER],
      projects: [{ owner: MOCK_USER.username, name: 'Demo', style: { palette: 'sweetie16' } }],
    },
    onError: (error) => process.stderr.write(`[assetloom/mcp] the mock failed: ${String(error)}\n`),
  });
  msw.setupServer(...handlers).listen({ onUnhandledRequest: 'bypass' });
  await controls.ready;
  return { baseUrl: MOCK_URL, ...MOCK_USER, WebSocket: controls.WebSocket as ApiConnection['WebSocket'] };
}

async function main(): Promise<void> {
  let values: ReturnType<typeof parse>['values'];
  function parse() {
    return parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string' },
        allow: { type: 'string', multiple: true },
        layout: { type: 'string' },
        lang: { type: 'string' },
        mock: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  }
  try {
    values = parse().values;
  } catch (error) {
    fail(
      `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')}. assetloom-mcp --help lists the options.`,
    );
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const env = process.env;
  const layout = values.layout ?? env.ASSETLOOM_MCP_LAYOUT;
  if (layout !== undefined && !isLayoutName(layout))
    fail(`--layout must be one of ${LAYOUT_NAMES.join(', ')}; got ${JSON.stringify(layout)}.`);
  let language: Language = 'en';
  if (values.lang !== undefined) {
    const lang = languageOf(values.lang);
    if (lang === undefined) fail(`--lang must be en or zh; got ${JSON.stringify(values.lang)}.`);
    language = lang;
  } else {
    language = languageOf(env.ASSETLOOM_LANG) ?? languageOf(env.LC_ALL) ?? languageOf(env.LANG) ?? 'en';
  }
  const allow = [
    ...(values.allow ?? []),
    ...(env.ASSETLOOM_MCP_ALLOW ?? '').split(delimiter).filter(Boolean),
  ];
  for (const folder of allow) {
    const info = await stat(resolve(folder)).catch(() => undefined);
    if (!info?.isDirectory()) fail(`--allow ${folder}: no such folder; make it first, or allow another.`);
  }
  const server = values.server ?? env.ASSETLOOM_SERVER ?? 'http://127.0.0.1:8080';
  if (!values.mock && !/^https?:\/\/[^/]/.test(server))
    fail(`--server must be an http(s) URL; got ${JSON.stringify(server)}.`);
  const api: ApiConnection = values.mock
    ? await mockConnection()
    : {
        baseUrl: server,
        ...(env.ASSETLOOM_TOKEN ? { token: env.ASSETLOOM_TOKEN } : {}),
        ...(env.ASSETLOOM_USERNAME && env.ASSETLOOM_PASSWORD
          ? { username: env.ASSETLOOM_USERNAME, password: env.ASSETLOOM_PASSWORD }
          : {}),
      };
  const mcp = createAssetloomMcpServer({ api, allow, language, ...(layout ? { layout } : {}) });
  await mcp.connect(new StdioServerTransport());
}

await main();
