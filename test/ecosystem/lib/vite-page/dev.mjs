// The page on the `vite` dev server (what `npm create vite@latest` runs: modules served one by one,
// dependencies pre-bundled for the browser), on 127.0.0.1, driven in the system Chromium. No Vite
// config file: the SDK and the mock must work in a page as installed (issue #32). With `--server`
// the same page also runs against the reference server (ASSETLOOM_BASE_URL) through the dev
// server's proxy, configured as the server README's `vite.config.ts` writes it (issue #41).
import { createServer, version } from 'vite';
import { baseUrl, driveSpritePage } from './project-helpers.mjs';

const againstServer = process.argv.includes('--server');
const target = againstServer ? baseUrl() : undefined;
const server = await createServer({
  configFile: false,
  logLevel: 'warn',
  server: {
    host: '127.0.0.1',
    port: 0,
    strictPort: false,
    ...(target && {
      proxy: {
        '/api': { target, ws: true }, // the API and its progress WebSocket
        '/auth': target, // register and login
        '/files': target, // signed downloads
      },
    }),
  },
});
await server.listen();
const url = server.resolvedUrls.local[0];
let ok = await driveSpritePage(url, `vite ${version} dev server`);
if (target)
  ok = (await driveSpritePage(`${url}?against=server`, `vite ${version} dev server, the server`)) && ok;
await server.close();
process.exit(ok ? 0 : 1);
