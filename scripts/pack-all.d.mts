// Types of scripts/pack-all.mjs for the TypeScript files that import it (test/install-lines.test.ts).
export interface WorkspacePackage {
  name: string;
  version: string;
  /** The package's folder, relative to the repository root. */
  dir: string;
  manifest: {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    [key: string]: unknown;
  };
}
export const root: string;
export const DEFAULT_OUT: string;
export function publicPackages(): WorkspacePackage[];
export function tarballName(name: string): string;
export function installClosure(names: readonly string[], packages?: WorkspacePackage[]): string[];
export function packAll(dest: string, options?: { only?: readonly string[] }): Record<string, string>;
