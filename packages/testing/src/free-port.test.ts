import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { getFreePort } from './free-port.js';

describe('getFreePort', () => {
  it('returns a port a server can then bind on 127.0.0.1', async () => {
    const port = await getFreePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65_536);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect(server.address()).toMatchObject({ address: '127.0.0.1', port });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('hands out different ports to concurrent callers', async () => {
    const ports = await Promise.all(Array.from({ length: 8 }, () => getFreePort()));
    expect(new Set(ports).size).toBeGreaterThan(1);
  });

  it('rejects for an address it cannot bind', async () => {
    await expect(getFreePort('203.0.113.1')).rejects.toMatchObject({ code: 'EADDRNOTAVAIL' });
  });
});
