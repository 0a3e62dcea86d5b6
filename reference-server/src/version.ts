import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The server's version, from its package.json (src/version.ts and the bundled dist/*.js both sit one level below it). */
export const SERVER_VERSION: string = (require('../package.json') as { version: string }).version;
