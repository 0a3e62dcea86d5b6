import { accessSync, constants } from 'node:fs';
import type { Browser, LaunchOptions } from 'playwright-core';
import { describeError, TestingError } from './errors.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags every test browser starts with: headless, no sandbox (root in CI), nothing phoning home. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumLookup = { ok: true; path: string } | { ok: false; reason: string };

/** Whether Chromium is installed at `path` (default `$ASSETLOOM_CHROMIUM` or /usr/bin/chromium). */
export function findChromium(path?: string): ChromiumLookup {
  const candidate = path ?? (process.env.ASSETLOOM_CHROMIUM?.trim() || CHROMIUM_PATH);
  try {
    accessSync(candidate, constants.X_OK);
    return { ok: true, path: candidate };
  } catch (error) {
    return {
      ok: false,
      reason: `Chromium is not installed at ${candidate} (${describeError(error)}); run "apt-get install -y chromium" as root (scripts/bootstrap.sh does it)`,
    };
  }
}

export interface LaunchChromiumOptions {
  executablePath?: string;
  /** Extra flags after the standard ones. */
  args?: readonly string[];
  /** Launch timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Anything else playwright-core's `chromium.launch` takes. */
  launch?: Omit<LaunchOptions, 'executablePath' | 'args' | 'timeout'>;
}

/**
 * Launches the system Chromium through playwright-core (no browser download) with
 * {@link CHROMIUM_ARGS}. Close the returned browser when done.
 */
export async function launchChromium(options: LaunchChromiumOptions = {}): Promise<Browser> {
  const found = findChromium(options.executablePath);
  if (!found.ok) throw new TestingError('CHROMIUM_MISSING', found.reason);
  const { chromium } = await import('playwright-core');
  try {
    return await chromium.launch({
      ...options.launch,
      headless: true,
      executablePath: found.path,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      timeout: options.timeoutMs ?? 30_000,
    });
  } catch (error) {
    throw new TestingError(
      'CHROMIUM_LAUNCH_FAILED',
      `Chromium at ${found.path} did not start: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
}
