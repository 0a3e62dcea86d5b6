import type { WebSocketConstructor } from './socket.js';

// The `browser` build's runtime (see runtime.ts): browsers have a global WebSocket that sends the
// page's cookies, and the `ws` package is never imported.

export const RUNTIME: 'node' | 'browser' = 'browser';

export function loadWsPackage(): Promise<WebSocketConstructor | undefined> {
  return Promise.resolve(undefined);
}
