import { startApp } from './app.js';

// On the mock unless VITE_ASSETLOOM_API names a real server (same origin or CORS-enabled).
const api = import.meta.env.VITE_ASSETLOOM_API as string | undefined;
if (api === undefined || api === '') {
  const { startMock } = await import('./mock.js');
  const mock = await startMock();
  (window as unknown as { assetloomMock: unknown }).assetloomMock = mock.controls;
  startApp('');
} else {
  startApp(api);
}
document.body.dataset.ready = 'true';
