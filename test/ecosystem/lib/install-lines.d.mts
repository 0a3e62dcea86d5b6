// Types of install-lines.mjs for the TypeScript files that import it (test/install-lines.test.ts).
export interface InstallLine {
  /** The use's name: its comment up to a comma or a parenthesis ("the SDK and the mock"). */
  use: string;
  comment: string;
  line: string;
  /** The tarball files the line names, relative to ./assetloom-packages/. */
  tarballs: string[];
}
export const PACKAGES_DIR: string;
export function parseInstallLines(text: string): InstallLine[];
export function installLines(): InstallLine[];
export function installLineFor(use: string): InstallLine;
