import { runCli } from './cli.js';
import { terminalProgress } from './progress-bar.js';

const code = await runCli(
  process.argv.slice(2),
  {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.env.INIT_CWD ?? process.cwd(),
  },
  { progress: terminalProgress },
);
process.exitCode = code;
