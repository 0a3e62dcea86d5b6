/**
 * vitest globalSetup for the real-server suites: starts ONE ComfyUI for the run (installed by
 * `bash scripts/install-real-servers.sh`) and stops it at teardown. Outside CI a missing install is a
 * loud skip (`comfyuiStatusFile` null, `comfyuiSkipReason` set); in CI it throws, so the run fails
 * instead of skipping (issue #30).
 *
 * ComfyUI takes about 20 s to import torch and answer, and Vitest runs every project's global setup
 * before the first test of the run: so it starts in the background, and the suites that need it wait
 * for it with `comfyuiUrl()` (`@assetloom/testing/real-servers-inject`), which reads the status file this
 * setup writes once the start has ended (its URL, or why it failed). The run's other tests start at once
 * (decision 0139).
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { describeError } from './errors.js';
import { type RunningRealServer, requireRealServer, startRealServer } from './real-servers.js';

export interface RealServersProvidedContext {
  /**
   * The file the run's ComfyUI start writes when it has ended: `{"url":"http://127.0.0.1:<port>"}` once
   * ComfyUI answers, `{"error":"…"}` when it could not start; null when ComfyUI is not installed (outside
   * CI only). Read it with `comfyuiUrl()` from `@assetloom/testing/real-servers-inject`.
   */
  comfyuiStatusFile: string | null;
  /** The checkpoint file name to pass as `checkpoint` (the random-weight SD1.5-shaped one). */
  comfyuiCheckpoint: string | null;
  /** The ComfyUI version that answers. */
  comfyuiVersion: string | null;
  /** Why there is no ComfyUI. */
  comfyuiSkipReason: string | null;
}

declare module 'vitest' {
  interface ProvidedContext extends RealServersProvidedContext {}
}

const log = (line: string) => console.log(`[assetloom/testing] ${line}`);

/** Writes `value` to `file` whole (a reader never sees half of it). */
async function writeStatus(file: string, value: { url: string } | { error: string }): Promise<void> {
  await writeFile(`${file}.part`, JSON.stringify(value));
  await rename(`${file}.part`, file);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const install = requireRealServer('comfyui', 'real ComfyUI suites');
  let statusDir: string | undefined;
  let statusFile: string | null = null;
  let starting: Promise<RunningRealServer | undefined> = Promise.resolve(undefined);
  if (install) {
    statusDir = await mkdtemp(join(tmpdir(), 'assetloom-comfyui-status-'));
    const file = join(statusDir, 'status.json');
    statusFile = file;
    const t0 = performance.now();
    starting = startRealServer(install, { log }).then(
      async (server) => {
        log(
          `ComfyUI ${String(install.versions.comfyui)} answered on ${server.url} after ${server.startMs} ms`,
        );
        await writeStatus(file, { url: server.url });
        return server;
      },
      async (error: unknown) => {
        const reason = `ComfyUI did not start (${Math.round(performance.now() - t0)} ms): ${describeError(error)}`;
        log(reason);
        await writeStatus(file, { error: reason });
        return undefined;
      },
    );
  }
  project.provide('comfyuiStatusFile', statusFile);
  project.provide('comfyuiCheckpoint', install ? install.model : null);
  project.provide('comfyuiVersion', install ? String(install.versions.comfyui ?? '') : null);
  project.provide(
    'comfyuiSkipReason',
    install ? null : 'ComfyUI is not installed: run "bash scripts/install-real-servers.sh comfyui"',
  );
  return async () => {
    const server = await starting;
    await server?.stop();
    if (statusDir) await rm(statusDir, { recursive: true, force: true });
  };
}
