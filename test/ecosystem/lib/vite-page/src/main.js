// The SDK against the mock in a real page: msw's service worker answers the HTTP calls, msw's
// WebSocket link the progress stream, and the generated PNG is decoded by the browser.
import { createAssetMock } from '@assetloom/mock';
import { createAssetClient } from '@assetloom/sdk';
import { setupWorker } from 'msw/browser';

const status = document.getElementById('status');
const sprite = document.getElementById('sprite');

// Made before msw starts, as an app module does at import time (issue #41: a client made before
// msw's listen() answered 415 to every authenticated call; the SDK looks fetch and Request up per call).
const api = createAssetClient({ baseUrl: '', throwOnError: true });

async function main() {
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
  const { taskId } = await api.generate({
    projectId: projects[0].id,
    prompt: 'a knight',
    assetType: 'sprite',
  });
  const events = [];
  const task = await api.waitForTask(taskId, { transport: 'ws', onEvent: (e) => events.push(e.seq) });
  const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
  const png = assets.find((a) => a.key.endsWith('.png'));
  const file = await api.downloadAsset(png);
  sprite.src = URL.createObjectURL(new Blob([file.bytes], { type: file.contentType }));
  await sprite.decode();
  status.textContent = `done ${task.status} events=${events.length} image=${sprite.naturalWidth}x${sprite.naturalHeight}`;
}

main().catch((error) => {
  status.textContent = `error ${error?.message ?? error}`;
  console.error(error);
});
