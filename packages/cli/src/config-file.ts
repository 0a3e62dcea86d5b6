import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './errors.js';

/** A login kept for one server. */
export interface Session {
  token: string;
  username: string;
  /** When the token stops working (ISO 8601), from login's `expiresIn`. */
  expiresAt?: string;
}

/** What the config file holds: the server to use, and one session per server. */
export interface CliConfig {
  server?: string;
  sessions: Record<string, Session>;
}

/**
 * The config file: $ASSETLOOM_CONFIG, else $XDG_CONFIG_HOME/assetloom/config.json, else
 * ~/.config/assetloom/config.json (%APPDATA%\assetloom\config.json on Windows).
 */
export function configPath(env: Record<string, string | undefined>): string {
  if (env.ASSETLOOM_CONFIG) return env.ASSETLOOM_CONFIG;
  const base =
    env.XDG_CONFIG_HOME ||
    (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(env.HOME || homedir(), '.config'));
  return join(base, 'assetloom', 'config.json');
}

/** Reads the config file; a missing one is empty, a broken one stops with the fix (exit 5). */
export function readConfig(file: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: {} };
    throw new CliError(`cannot read the config file ${file}: ${(error as Error).message}`, EXIT.io);
  }
  try {
    const parsed = JSON.parse(text) as Partial<CliConfig>;
    if (parsed === null || typeof parsed !== 'object') throw new Error('not an object');
    return {
      ...(typeof parsed.server === 'string' ? { server: parsed.server } : {}),
      sessions: parsed.sessions && typeof parsed.sessions === 'object' ? parsed.sessions : {},
    };
  } catch (error) {
    throw new CliError(
      `the config file ${file} is not valid JSON (${(error as Error).message}): fix it, or delete it and log in again`,
      EXIT.io,
    );
  }
}

/**
 * Writes the config file readable by its owner only (0600, in a 0700 folder): it holds tokens.
 * Written to a temporary file and renamed, so a crash never leaves half a file.
 */
export function writeConfig(file: string, config: CliConfig): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
    chmodSync(file, 0o600);
  } catch (error) {
    throw new CliError(`cannot write the config file ${file}: ${(error as Error).message}`, EXIT.io);
  }
}

/** The session kept for `server`, when there is one. */
export function sessionOf(config: CliConfig, server: string): Session | undefined {
  const session = config.sessions[server];
  return session && typeof session.token === 'string' && session.token !== '' ? session : undefined;
}
