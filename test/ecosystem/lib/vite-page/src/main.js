// The SDK in a real page, against the mock (msw's service worker answers the HTTP calls, msw's
// WebSocket link the progress stream) or, with `?against=server`, against the reference server
// through the dev server's proxy (the README's Vite proxy); the generated PNG is decoded by the browser.
import { createAssetMock } from '@assetloom/mock';
import { createAssetClient } from '@assetloom/sdk';
import { setupWorker } from 'msw/browser';

const status = document.getElementById('status');
const sprite = document.getElementById('sprite');
const query = new URLSearchParams(location.search);

// Made before msw starts, as an app module does at import time (issue #41: a client made before
// msw's listen() answered 415 to every authenticated call; the SDK looks fetch and Request up per call).
const api = createAssetClient({ baseUrl: '', throwOnError: true });

/** The mock in the page, with one user and one project; answers the project. */
async function onMock() {
  const { handlers, controls } = createAssetMock({
    stepMs: 20,
    seed: {
      users: [{ username: 'ada', password: 'secret123' }],
      projects: [{ owner: 'ada', name: 'Forest', style: { palette: 'sweetie16' } }],
    },
  });
  await setupWorker(...handlers).start({ onUnhandledRequest: 'bypass', quiet: true });
  await controls.ready;
  await api.login({ username: 'ada', password: 'secret123' });
  const { projects } = await api.GET('/api/v1/projects');
  return projects[0];
}

/** The reference server behind the proxy: a new account and project; answers the project. */
async function onServer() {
  const username = `vite${Date.now().toString(36)}`;
  await api.POST('/auth/register', { body: { username, password: 'secret123' } });
  // the login also sets the httpOnly cookie that the page's progress WebSocket sends
  await api.login({ username, password: 'secret123' });
  return api.POST('/api/v1/projects', { body: { name: 'Forest', style: { palette: 'sweetie16' } } });
}

async function main() {
  const project = query.get('against') === 'server' ? await onServer() : await onMock();
  const { taskId } = await api.generate({
    projectId: project.id,
    // drawn from the licensed drawings: the sets, fonts and resvg.wasm of @assetloom/drawings load
    // through their new URL(…, import.meta.url) with no setup (issue #41: it failed in Vite)
    prompt: query.get('prompt') ?? 'a treasure chest',
    assetType: 'sprite',
  });
  const events = [];
  const task = await api.waitForTask(taskId, { transport: 'ws', onEvent: (e) => events.push(e.seq) });
  const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
  const png = assets.find((a) => a.key.endsWith('.png'));
  const file = await api.downloadAsset(png);
  sprite.src = URL.createObjectURL(new Blob([file.bytes], { type: file.contentType }));
  await sprite.decode();
  // what the PNG shows: its opaque pixels and their colours (an empty or flat tile is no sprite)
  const canvas = document.createElement('canvas');
  canvas.width = sprite.naturalWidth;
  canvas.height = sprite.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(sprite, 0, 0);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let opaque = 0;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    opaque += 1;
    colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  }
  window.spritePng = btoa(Array.from(new Uint8Array(file.bytes), (b) => String.fromCharCode(b)).join(''));
  status.textContent = `done ${task.status} events=${events.length} image=${sprite.naturalWidth}x${sprite.naturalHeight} opaque=${opaque} colours=${colours.size}`;
}

main().catch((error) => {
  status.textContent = `error ${error?.message ?? error}`;
  console.error(error);
});
