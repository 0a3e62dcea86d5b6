import { createAssetMock } from '@assetloom/mock';
import { setupWorker } from 'msw/browser';

/** The demo data the page starts with when it runs on the mock. */
export const DEMO = { username: 'demo', password: 'demo-pass-1' } as const;

/** Starts the msw service worker with the Assetloom mock on this page's origin. */
export async function startMock() {
  const mock = createAssetMock({
    stepMs: 250,
    seed: {
      users: [DEMO],
      projects: [
        { owner: DEMO.username, name: 'Forest Quest', style: { artStyle: 'pixel', palette: 'sweetie16' } },
        { owner: DEMO.username, name: 'Space Miner', style: { palette: 'pico8' } },
      ],
    },
  });
  const worker = setupWorker(...mock.handlers);
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  await mock.controls.ready;
  return mock;
}
