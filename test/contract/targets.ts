import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AssetMockControls, createAssetMock, installWebSocketGlobal } from '@assetloom/mock';
import { type AssetClient, type AssetClientOptions, createAssetClient } from '@assetloom/sdk';
import { loadConfig, startServer } from '@assetloom/server';
import { setupServer } from 'msw/node';
import WebSocket from 'ws';

type WebSocketCtor = NonNullable<AssetClientOptions['WebSocket']>;

/** One implementation of the API the contract suite runs against. */
export interface ContractTarget {
  readonly name: 'mock' | 'server';
  readonly baseUrl: string;
  /** The WebSocket constructor the SDK should use to reach this target's progress stream. */
  readonly WebSocket: WebSocketCtor;
  /** The mock's controls (undefined for the server). */
  readonly controls?: AssetMockControls;
  client(options?: Partial<AssetClientOptions>): AssetClient;
  stop(): Promise<void>;
}

export type TargetFactory = () => Promise<ContractTarget>;

function clientFor(baseUrl: string, ws: WebSocketCtor) {
  return (options: Partial<AssetClientOptions> = {}) =>
    createAssetClient({ baseUrl, WebSocket: ws, retry: { limit: 2, backoff: () => 0 }, ...options });
}

/** The msw mock in this process (msw/node's setupServer), on a real clock with short stage steps. */
export const mockTarget: TargetFactory = async () => {
  installWebSocketGlobal();
  const baseUrl = 'http://contract.mock';
  const { handlers, controls } = createAssetMock({ baseUrl, stepMs: 15 });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  await controls.ready;
  return {
    name: 'mock',
    baseUrl,
    WebSocket: controls.WebSocket,
    controls,
    client: clientFor(baseUrl, controls.WebSocket),
    async stop() {
      await controls.close();
      server.close();
    },
  };
};

/** The reference server on 127.0.0.1 and a free port, embedded store in a temp DATA_DIR, in-process worker. */
export const serverTarget: TargetFactory = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-contract-'));
  const loaded = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: 'contract-suite-secret-0123456789-abcdefghijklmnop',
    SCRYPT_COST: '10',
    LOG_LEVEL: 'silent',
    REGISTER_IP_MAX: '100000',
    LOGIN_IP_MAX_FAILURES: '100000',
    PASSWORD_HASH_PER_CLIENT: '1000',
    WORKER_POLL_MS: '50',
    EVENT_POLL_MS: '20',
  });
  if (!loaded.ok) throw loaded.error;
  const running = await startServer(loaded.value);
  const ws = WebSocket as unknown as WebSocketCtor;
  return {
    name: 'server',
    baseUrl: running.url,
    WebSocket: ws,
    client: clientFor(running.url, ws),
    async stop() {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

/**
 * Whether the target runs generation (issue #6): the task-assets route exists (401 for an anonymous
 * caller) rather than being an unknown route (404 接口不存在).
 */
export async function hasRuntime(baseUrl: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/api/v1/tasks/probe/assets`);
  return res.status === 401;
}
