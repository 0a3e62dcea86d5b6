/**
 * The configuration's error types, apart from the loaders so that the server's and the storage's
 * loaders (config.ts, storage/config.ts) both use them without importing each other.
 */

/** The environments the server knows. Anything but `development` is treated as production-like. */
export type NodeEnv = 'development' | 'test' | 'production';

/** One problem found in the environment. */
export interface ConfigIssue {
  variable: string;
  message: string;
}

/** Raised (or returned) when the environment does not describe a usable server. */
export class ConfigError extends Error {
  readonly code = 'config' as const;
  constructor(readonly issues: ConfigIssue[]) {
    super(
      `[assetloom/server] invalid configuration:\n${issues
        .map((issue) => `  - ${issue.variable}: ${issue.message}`)
        .join('\n')}\nFix the environment variables above and start again.`,
    );
    this.name = 'ConfigError';
  }
}
