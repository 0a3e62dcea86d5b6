import type { WebSocketConstructor } from './socket.js';

// The `browser` build's runtime (see runtime.ts): the `ws` package is never imported; the page's
// WebSocket sends the httpOnly `assetloom_token` cookie (it cannot send headers).

export function resolveWebSocket(injected: WebSocketConstructor | undefined): Promise<{
  ctor: WebSocketConstructor;
  headers: boolean;
} | null> {
  if (injected !== undefined) return Promise.resolve({ ctor: injected, headers: true });
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  return Promise.resolve(global ? { ctor: global, headers: false } : null);
}
