/**
 * vitest globalSetup for the real-server suites: starts ONE ComfyUI for the run (installed by
 * `bash scripts/install-real-servers.sh`) and hands its URL and checkpoint to tests through
 * `provide`; stops it at teardown. Outside CI a missing install is a loud skip (`comfyuiUrl` null,
 * `comfyuiSkipReason` set); in CI it throws, so the run fails instead of skipping (issue #30).
 */
import type { TestProject } from 'vitest/node';
import { type RunningRealServer, requireRealServer, startRealServer } from './real-servers.js';

export interface RealServersProvidedContext {
  /** `http://127.0.0.1:<port>` of the run's ComfyUI, or null when it is not installed (outside CI only). */
  comfyuiUrl: string | null;
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const install = requireRealServer('comfyui', 'real ComfyUI suites');
  let server: RunningRealServer | undefined;
  if (install) {
    server = await startRealServer(install, { log });
    log(`ComfyUI ${String(install.versions.comfyui)} answered on ${server.url} after ${server.startMs} ms`);
  }
  project.provide('comfyuiUrl', server?.url ?? null);
  project.provide('comfyuiCheckpoint', install ? install.model : null);
  project.provide('comfyuiVersion', install ? String(install.versions.comfyui ?? '') : null);
  project.provide(
    'comfyuiSkipReason',
    install ? null : 'ComfyUI is not installed: run "bash scripts/install-real-servers.sh comfyui"',
  );
  return async () => {
    await server?.stop();
  };
}
