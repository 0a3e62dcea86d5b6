import { configureDrawings } from '@assetloom/drawings';
import { createAssetMock } from '@assetloom/mock';
import { setupWorker } from 'msw/browser';

/** The demo account and projects the studio starts with on the mock. */
export const DEMO = { username: 'demo', password: 'demo-pass-1' } as const;

/** Starts msw's service worker (served at /studio/mockServiceWorker.js) with the Assetloom mock. */
export async function startMock() {
  // The built-in generator's drawing sets, pixel fonts and resvg are served beside the page (vite.config.ts)
  configureDrawings({ baseUrl: new URL(`${import.meta.env.BASE_URL}drawings/`, location.href) });
  const mock = createAssetMock({
    stepMs: 200,
    seed: {
      users: [DEMO],
      projects: [
        { owner: DEMO.username, name: 'Forest Quest', style: { artStyle: 'pixel', palette: 'sweetie16' } },
        { owner: DEMO.username, name: 'Space Miner', style: { palette: 'pico8' } },
      ],
    },
  });
  const worker = setupWorker(...mock.handlers);
  await worker.start({
    onUnhandledRequest: 'bypass',
    quiet: true,
    serviceWorker: { url: `${import.meta.env.BASE_URL}mockServiceWorker.js` },
  });
  await mock.controls.ready;
  return mock;
}
