/**
 * `@assetloom/cli`: the `assetloom` command. Its programmatic entry runs a command line in-process
 * (what the tests and tools that embed it call); the bin is `assetloom`.
 */
export { HELP, type RunOptions, runCli } from './cli.js';
export { type ClientOverrides, type CliIo, EXIT } from './context.js';
export type { ProgressView } from './progress.js';
