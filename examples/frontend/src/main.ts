import { startApp } from './app.js';

// On the mock unless VITE_ASSETLOOM_PROXY (a real server behind the dev server, same origin) or
// VITE_ASSETLOOM_API (a real server of another origin that allows this page: CORS_ORIGINS) is set.
const proxied = import.meta.env.VITE_ASSETLOOM_PROXY as string | undefined;
const api = import.meta.env.VITE_ASSETLOOM_API as string | undefined;
if (proxied !== undefined && proxied !== '') {
  startApp('');
} else if (api === undefined || api === '') {
  const { startMock } = await import('./mock.js');
  const mock = await startMock();
  (window as unknown as { assetloomMock: unknown }).assetloomMock = mock.controls;
  startApp('');
} else {
  startApp(api);
}
document.body.dataset.ready = 'true';
