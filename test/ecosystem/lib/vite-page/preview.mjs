// The built page (`vite build`) served by `vite preview` on 127.0.0.1, driven in the system Chromium.
import { preview } from 'vite';
import { driveSpritePage } from './project-helpers.mjs';

const server = await preview({
  preview: { host: '127.0.0.1', port: 0, strictPort: false },
  logLevel: 'warn',
});
const ok = await driveSpritePage(server.resolvedUrls.local[0], 'vite build + preview');
await new Promise((resolve) => server.httpServer.close(resolve));
process.exit(ok ? 0 : 1);
