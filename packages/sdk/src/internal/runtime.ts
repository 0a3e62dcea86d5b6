import type { WebSocketConstructor, WebSocketLike } from './socket.js';

// The parts of the SDK that differ between runtimes. This file is the Node build's (`node`,
// `import`, `require` conditions: Node, Deno, Bun); the `browser` condition's build swaps in
// runtime.browser.ts (tsup.config.ts), so a browser bundle has no `ws` import at all: a dev
// server's import analysis (Vite: "Failed to resolve import \"ws\"") never meets one.

let wsModule: Promise<WebSocketConstructor | undefined> | undefined;

/**
 * The constructor to use: the injected one, else in Node the `ws` package (an optional peer,
 * imported lazily; Node 20 has no global WebSocket) or, without it, a global one that takes
 * `{ headers }` (Deno, newer Node, Bun), else the global one (cookie authentication).
 */
export function resolveWebSocket(injected: WebSocketConstructor | undefined): Promise<{
  ctor: WebSocketConstructor;
  headers: boolean;
} | null> {
  if (injected !== undefined) return Promise.resolve({ ctor: injected, headers: true });
  const isNode =
    typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node ===
    'string';
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (isNode) {
    wsModule ??= import(/* @vite-ignore */ 'ws' as string).then(
      (m: { default?: unknown; WebSocket?: unknown }) => (m.WebSocket ?? m.default) as WebSocketConstructor,
      () => undefined,
    );
    return wsModule.then((ctor) => {
      if (ctor) return { ctor, headers: true };
      // No `ws`: Deno, Node ≥ 22 (undici) and Bun have a global WebSocket whose second argument
      // may be `{ headers }` (found by the ecosystem test under Deno, issue #21).
      return global ? { ctor: withInitHeaders(global), headers: true } : null;
    });
  }
  return Promise.resolve(global ? { ctor: global, headers: false } : null);
}

/** Adapts a global WebSocket that takes `(url, { headers })` to the `ws`-style call the SDK makes. */
function withInitHeaders(ctor: WebSocketConstructor): WebSocketConstructor {
  type InitStyle = new (url: string, init?: { headers: Record<string, string> }) => WebSocketLike;
  // A Proxy keeps it a constructor (`new` works on it), whatever the runtime's class looks like.
  return new Proxy(ctor as unknown as InitStyle, {
    construct(target, args: [string, unknown?, { headers?: Record<string, string> }?]) {
      const [url, , options] = args;
      return options?.headers ? new target(url, { headers: options.headers }) : new target(url);
    },
  }) as unknown as WebSocketConstructor;
}
