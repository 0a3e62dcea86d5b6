/**
 * The test side of the real-server global setup (`@assetloom/testing/real-servers-global-setup`): it
 * starts the run's ComfyUI in the background, and a suite that needs it awaits `comfyuiUrl()` at its top.
 * Imports `vitest`: use it from test files only.
 */
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { TestingError } from './errors.js';

/**
 * The URL of the run's ComfyUI once it answers, or null when ComfyUI is not installed (outside CI only;
 * `inject('comfyuiSkipReason')` says why). Throws when its start failed or did not end in `timeoutMs`
 * (the start's own limit is 300 s).
 */
export async function comfyuiUrl({
  timeoutMs = 330_000,
}: {
  timeoutMs?: number;
} = {}): Promise<string | null> {
  const file = inject('comfyuiStatusFile');
  if (!file) return null;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null) {
      const status = JSON.parse(text) as { url?: string; error?: string };
      if (status.url) return status.url;
      throw new TestingError(
        'REAL_SERVER_START_FAILED',
        status.error ?? `ComfyUI's status file ${file} says nothing`,
      );
    }
    if (performance.now() > deadline)
      throw new TestingError('REAL_SERVER_START_FAILED', `ComfyUI did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
