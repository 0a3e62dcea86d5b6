// Issue #41: a page that cannot fetch the drawings' files (a dev server answering its index.html for
// any path, or a 404) fails naming the URL and what to serve — not a bare "provider failed". Real
// HTTP on 127.0.0.1; this file has its own module instance, so its configuration touches no other test.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDrawings, DrawingsError, loadFont } from '../src/index.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/missing/')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // what Vite's dev server answers for a path it does not know
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><div id="app"></div>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a drawing file the page does not serve', () => {
  it.each([
    ['an HTML fallback page', 'fallback', 'unifont', 'an HTML page came back'],
    ['a 404', 'missing', 'assetloom-8', 'HTTP 404'],
  ] as const)('%s fails naming the URL and the folder to serve', async (_what, folder, font, why) => {
    configureDrawings({ baseUrl: `${base}/${folder}/` });
    const error = await loadFont(font).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DrawingsError);
    expect((error as DrawingsError).code).toBe('not_served');
    const message = (error as Error).message;
    expect(message).toContain(`${base}/${folder}/fonts/${font}.bin (${why}`);
    expect(message).toContain(`loads fonts/${font}.bin of @assetloom/drawings`);
    expect(message).toContain('serve the folder node_modules/@assetloom/drawings/dist/');
    expect(message).toContain('configureDrawings({ baseUrl:');
  });
});
