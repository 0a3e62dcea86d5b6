import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, startServer } from '@assetloom/server';

/** A real reference server on the embedded store in a temporary folder, its worker polling fast. */
export async function startToolServer(prefix: string): Promise<{ url: string; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const loaded = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SCRYPT_COST: '10',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'cli-test-secret-0123456789-abcdefghijklmnopqrst',
    WORKER_POLL_MS: '50',
    EVENT_POLL_MS: '20',
  });
  if (!loaded.ok) throw loaded.error;
  const running = await startServer(loaded.value);
  return {
    url: running.url,
    close: async () => {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
