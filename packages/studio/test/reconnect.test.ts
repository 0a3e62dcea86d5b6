import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { renderProcedural } from '@assetloom/generator';
import type { ImageProvider } from '@assetloom/pipeline';
import { createAssetClient } from '@assetloom/sdk';
import type { RunningServer } from '@assetloom/server';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, type StudioServer, startStudioServer, watchProblems } from './helpers.js';

const chromium = findChromium();
const shots = join(artifacts, 'reconnect');

/**
 * A TCP proxy on 127.0.0.1 in front of the server: the browser talks to it, so the test can cut the
 * progress WebSocket mid-task (as a flaky network would) and see how the studio comes back.
 */
async function startProxy(target: { host: string; port: number }) {
  const upgrades: { path: string; socket: Socket }[] = [];
  const all = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    all.add(client);
    client.once('close', () => all.delete(client));
    client.once('data', (first: Buffer) => {
      const head = first.toString('latin1');
      if (/^upgrade:\s*websocket/im.test(head)) {
        upgrades.push({ path: head.slice(0, head.indexOf('\r\n')).split(' ')[1] ?? '', socket: client });
      }
      upstream.write(first);
      client.pipe(upstream);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    upgrades,
    /** Cuts every open WebSocket connection (the TCP connections, without a close frame). */
    dropWebSockets() {
      for (const { socket } of upgrades) socket.destroy();
    },
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The procedural drawing, slowed to ~3 s with progress on the way, so there is time to cut the stream. */
const slowProvider: ImageProvider = {
  name: 'procedural',
  async generate(request, { signal, onProgress }) {
    for (let step = 1; step <= 10; step++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      signal?.throwIfAborted();
      onProgress?.(step * 9, 'drawing');
    }
    return renderProcedural(request);
  },
};

describe.skipIf(!chromium.ok)('the studio when the progress WebSocket drops', () => {
  let server: RunningServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let browser: Browser;
  let studio: StudioServer;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-ws-', shots, { imageProvider: slowProvider });
    server = studio.server;
    proxy = await startProxy({ host: '127.0.0.1', port: server.port });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await studio?.close();
  });

  it('resumes with ?since= the last event it saw and shows every event exactly once', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: 'flaky', password: 'flaky-net-1' } });
    await api.login({ username: 'flaky', password: 'flaky-net-1' });
    await api.POST('/api/v1/projects', { body: { name: 'Flaky Net' } });

    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${proxy.url}/studio/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('flaky');
    await page.getByLabel('Password').fill('flaky-net-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Flaky Net' }).click();
    await page.getByLabel('Description').fill('a bat');
    await page.getByTestId('generate').click();
    await page.locator('.events summary').click();

    // Mid-generation (asset_generator is drawing), the connection goes away without a close frame.
    await expect
      .poll(() => page.locator('.events li').count(), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(5);
    expect(proxy.upgrades).toHaveLength(1);
    const seen = await page.locator('.events li').count();
    proxy.dropWebSockets();
    await expect.poll(() => proxy.upgrades.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const since = Number(new URL(proxy.upgrades[1]!.path, proxy.url).searchParams.get('since'));
    expect(since).toBeGreaterThanOrEqual(seen);
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('completed');
    await page.screenshot({ path: join(shots, 'after-reconnect.png'), fullPage: true });

    // Every event once, in order, none lost: seq 1..n without gaps, as the server stored them.
    const events = await page.locator('.events li').allTextContents();
    const seqs = events.map((e) => Number(/^#(\d+)/.exec(e)?.[1]));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(events.at(-1)).toMatch(/ format_adapter completed( · .+)?$/);
    expect(events.filter((e) => / asset_generator running/.test(e)).length).toBeGreaterThan(5);
    expect(problems).toEqual([]);
    await context.close();
  });
});
