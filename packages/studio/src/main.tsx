import { render } from 'preact';
import { App } from './app.js';
import { createStudioClient } from './session.js';
import './style.css';

// `vite --mode mock` (and the mock build) run the API inside the page on msw; every other build
// talks to the origin that serves it (the reference server at /studio/).
if (import.meta.env.MODE === 'mock') {
  const { startMock } = await import('./mock.js');
  const mock = await startMock();
  (window as unknown as { assetloomMock: unknown }).assetloomMock = mock.controls;
}
const root = document.getElementById('app');
if (root === null) throw new Error('the page has no #app element');
root.replaceChildren();
render(<App api={createStudioClient('')} />, root);
document.body.dataset.ready = 'true';
