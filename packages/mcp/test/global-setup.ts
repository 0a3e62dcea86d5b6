import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The tests run the built bin (`assetloom-mcp`) and the built reference server as processes, as a
 * user runs them: build them first when their sources changed (a no-op when they are fresh).
 */
export default function setup(): void {
  const script = fileURLToPath(new URL('../../../scripts/ensure-built.mjs', import.meta.url));
  const built = spawnSync(process.execPath, [script, '@assetloom/mcp', '@assetloom/server'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0)
    throw new Error('[assetloom/mcp] building the bin and the server for the tests failed');
}
