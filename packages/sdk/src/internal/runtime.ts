import type { WebSocketConstructor } from './socket.js';

// The parts of the SDK that differ between runtimes. This file is the Node build's (`node`,
// `import`, `require` conditions); the `browser` condition's build swaps in runtime.browser.ts
// (tsup.config.ts), so a browser bundle has no `ws` import at all: a dev server's import analysis
// (Vite: "Failed to resolve import \"ws\"") never meets one.

/** Which build this is: the `browser` build never looks for the `ws` package. */
export const RUNTIME: 'node' | 'browser' = 'node';

let wsModule: Promise<WebSocketConstructor | undefined> | undefined;

/** The `ws` package's WebSocket (an optional peer, imported on first use), or undefined when it is not installed. */
export function loadWsPackage(): Promise<WebSocketConstructor | undefined> {
  wsModule ??= import(/* @vite-ignore */ 'ws' as string).then(
    (m: { default?: unknown; WebSocket?: unknown }) => (m.WebSocket ?? m.default) as WebSocketConstructor,
    () => undefined,
  );
  return wsModule;
}
