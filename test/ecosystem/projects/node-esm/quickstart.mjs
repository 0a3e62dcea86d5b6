// The README quick start, as a user runs it after `npm install @assetloom/sdk ws`.
import { createAssetClient, createReviewAuthClient } from '@assetloom/sdk';
import WebSocket from 'ws';
import { baseUrl, check, isPng, uniqueName } from './project-helpers.mjs';

const api = createAssetClient({ baseUrl: baseUrl(), WebSocket, throwOnError: true });
const username = uniqueName('esm');
await api.POST('/auth/register', { body: { username, password: 'secret123' } });
await api.login({ username, password: 'secret123' });
const project = await api.POST('/api/v1/projects', { body: { name: 'Demo' } });
const { taskId } = await api.generate({
  projectId: project.id,
  prompt: 'a green slime',
  assetType: 'sprite',
});
const events = [];
const task = await api.waitForTask(taskId, { transport: 'ws', onEvent: (e) => events.push(e) });
check(task.status === 'completed', `task ${taskId} completed (got ${task.status})`);
check(
  events.length > 0 && events.at(-1).status === 'completed',
  'progress events arrived over the WebSocket',
);
const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
const png = assets.find((a) => a.key.endsWith('.png'));
check(png, 'a PNG asset');
const file = await api.downloadAsset(png);
check(isPng(file.bytes), 'the download is a PNG');

const auth = createReviewAuthClient({ baseUrl: baseUrl() });
const email = `${uniqueName('esm')}@example.com`;
const registered = await auth.register({ email, password: 'secret1' });
check(!registered.error, `review register: ${registered.error?.message}`);
const login = await auth.login({ email, password: 'secret1' });
check(!login.error, `review login: ${login.error?.message}`);
const logout = await auth.logout();
check(!logout.error, `review logout: ${logout.error?.message}`);
console.log(
  `node-esm: task ${taskId} completed with ${events.length} events, ${file.bytes.length} PNG bytes`,
);
