// The page on the `vite` dev server (what `npm create vite@latest` runs: modules served one by one,
// dependencies pre-bundled for the browser), on 127.0.0.1, driven in the system Chromium. No Vite
// config at all: the SDK and the mock must work in a page as installed (issue #32).
import { createServer, version } from 'vite';
import { driveSpritePage } from './project-helpers.mjs';

const server = await createServer({
  configFile: false,
  logLevel: 'warn',
  server: { host: '127.0.0.1', port: 0, strictPort: false },
});
await server.listen();
const ok = await driveSpritePage(server.resolvedUrls.local[0], `vite ${version} dev server`);
await server.close();
process.exit(ok ? 0 : 1);
