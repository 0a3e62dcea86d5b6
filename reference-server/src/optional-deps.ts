/**
 * The optional peer dependencies (issue #32): the MongoDB driver and the AWS SDK are installed only
 * by deployments that use them (MONGODB_URI, STORAGE_DRIVER=s3), and loaded with `import()` only
 * then. A missing one stops the start-up with the exact install command instead of a stack trace.
 */

/** What a feature needs installed, and the command that installs it. */
export interface OptionalPackages {
  /** The setting that asked for the feature, e.g. `MONGODB_URI`. */
  setting: string;
  /** What the packages are for, e.g. `the MongoDB store`. */
  feature: string;
  /** Package names with the version range the server is tested with. */
  packages: Record<string, string>;
  /** The install command, when it is not `npm install <name>@<range>` (packages not yet on the registry). */
  install?: string;
}

export const MONGODB_PACKAGES: OptionalPackages = {
  setting: 'MONGODB_URI',
  feature: 'the MongoDB store',
  packages: { mongodb: '^6.20.0' },
};

export const MCP_PACKAGES: OptionalPackages = {
  setting: 'MCP_ENABLED=true',
  feature: 'the MCP server at /mcp',
  packages: { '@assetloom/mcp': '*' },
  // not on the registry yet: the root README's line for it (npm run pack:all writes the tarballs)
  install:
    'npm install ./assetloom-packages/assetloom-mcp.tgz ./assetloom-packages/assetloom-openapi.tgz ./assetloom-packages/assetloom-sdk.tgz',
};

export const S3_PACKAGES: OptionalPackages = {
  setting: 'STORAGE_DRIVER=s3',
  feature: 'S3 object storage',
  packages: { '@aws-sdk/client-s3': '^3.1162.0', '@aws-sdk/s3-request-presigner': '^3.1162.0' },
};

export const SHARP_PACKAGES: OptionalPackages = {
  setting: 'UPLOAD_DECODER=sharp',
  feature: 'sharp to read JPEG, WebP and GIF uploads',
  packages: { sharp: '0.35.5' },
};

/** Raised when a configured feature's optional peer dependency is not installed. */
export class MissingPackageError extends Error {
  readonly code = 'missing-package' as const;
  readonly packages: string[];
  constructor(readonly need: OptionalPackages) {
    const names = Object.keys(need.packages);
    const install =
      need.install ?? `npm install ${names.map((name) => `${name}@${need.packages[name]}`).join(' ')}`;
    super(
      `[assetloom/server] ${need.setting} needs ${need.feature}, but ${names.join(' and ')} ${
        names.length === 1 ? 'is' : 'are'
      } not installed.\nInstall ${names.length === 1 ? 'it' : 'them'} beside @assetloom/server: ${install}`,
    );
    this.name = 'MissingPackageError';
    this.packages = names;
  }
}

/** True when `error` is Node's "cannot find package <name>" for one of `names`. */
export function isMissingPackage(error: unknown, names: readonly string[]): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  if (typeof message !== 'string') return false;
  return names.some((name) => message.includes(`'${name}'`) || message.includes(`"${name}"`));
}

/**
 * Runs `load` (an `import()` of the module that uses the packages) and turns Node's "cannot find
 * package" for one of `need`'s packages into a {@link MissingPackageError}; other errors pass.
 */
export async function importOptional<T>(need: OptionalPackages, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, Object.keys(need.packages))) throw new MissingPackageError(need);
    throw error;
  }
}
