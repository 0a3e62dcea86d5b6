import { createServer } from 'node:net';

/**
 * Asks the OS for a free TCP port on `host` (127.0.0.1 by default) by binding port 0 and
 * releasing it. Another process can still take the port before you bind it: servers started
 * on it should retry on EADDRINUSE.
 */
export function getFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close((closeError) => {
        if (closeError) reject(closeError);
        else if (port > 0) resolve(port);
        else reject(new Error(`[assetloom/testing] could not read the port bound on ${host}`));
      });
    });
  });
}
