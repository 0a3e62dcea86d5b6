import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAssetClient } from '@assetloom/sdk';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const BIN = fileURLToPath(new URL('../bin/assetloom-mcp.js', import.meta.url));
const SERVER_BIN = fileURLToPath(
  new URL('../../../reference-server/bin/assetloom-server.js', import.meta.url),
);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface World {
  url: string;
  dir: string;
  /** The allowed folder: a Godot project (it holds project.godot). */
  game: string;
  /** A folder beside it that nothing may write into. */
  outside: string;
  /** A new account's token and its project "Demo". */
  account(name: string): Promise<{ token: string; projectId: string }>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The reference server as a process (its bin, the embedded store in a temporary folder, the MCP
 * mount on with the game folder allowed), as a user starts it.
 */
export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-mcp-'));
  const game = join(dir, 'game');
  const outside = join(dir, 'outside');
  await mkdir(game);
  await mkdir(outside);
  await writeFile(join(game, 'project.godot'), 'config_version=5\n');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVER_BIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dir, 'data'),
      JWT_SECRET: 'mcp-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      SCRYPT_COST: '10',
      LOG_LEVEL: 'warn',
      WORKER_POLL_MS: '50',
      EVENT_POLL_MS: '20',
      MCP_ENABLED: 'true',
      MCP_ALLOWED_FOLDERS: game,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    const healthy = await fetch(`${url}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (i > 300) throw new Error(`the server did not answer within 30 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dir,
    game,
    outside,
    async account(name) {
      const api = createAssetClient({ baseUrl: url, throwOnError: true });
      await api.POST('/auth/register', { body: { username: name, password: 'secret123' } });
      const { token } = await api.login({ username: name, password: 'secret123' });
      const project = await api.POST('/api/v1/projects', { body: { name: 'Demo' } });
      return { token, projectId: project.id };
    },
    output: () => output,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type TransportName = 'stdio' | 'streamable-http';

/** The MCP SDK's own client, over the bin's stdio or the server's /mcp. */
export async function connect(
  world: World,
  transport: TransportName,
  token: string,
  options: { args?: string[]; env?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Client> {
  const client = new Client({ name: 'assetloom-mcp-tests', version: '1.0.0' });
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--allow', world.game, ...(options.args ?? [])],
        env: {
          PATH: process.env.PATH ?? '',
          ASSETLOOM_SERVER: world.url,
          ASSETLOOM_TOKEN: token,
          ...options.env,
        },
        stderr: 'pipe',
      }),
    );
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}`, ...options.headers } },
      }),
    );
  }
  return client;
}
