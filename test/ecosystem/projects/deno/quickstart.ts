// The SDK quick start under Deno: its own fetch, its global WebSocket (so no `ws`), a cookie jar for
// the review-helper session.
import { createAssetClient, createReviewAuthClient } from '@assetloom/sdk';
// @ts-expect-error a plain .mjs helper beside this file
import { baseUrl, check, isPng, uniqueName } from './project-helpers.mjs';

const api = createAssetClient({ baseUrl: baseUrl(), throwOnError: true });
const username = uniqueName('deno');
await api.POST('/auth/register', { body: { username, password: 'secret123' } });
await api.login({ username, password: 'secret123' });
const project = await api.POST('/api/v1/projects', { body: { name: 'Demo' } });
const { taskId } = await api.generate({ projectId: project.id, prompt: 'a blue gem', assetType: 'sprite' });
const events: number[] = [];
const task = await api.waitForTask(taskId, { transport: 'ws', onEvent: (e) => events.push(e.seq) });
check(task.status === 'completed', `task completed (got ${task.status})`);
check(events.length > 0, 'progress events arrived over the WebSocket');
const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
const png = assets.find((a) => a.key.endsWith('.png'));
check(png !== undefined, 'a PNG asset');
const file = await api.downloadAsset(png!);
check(isPng(file.bytes), 'the download is a PNG');

const auth = createReviewAuthClient({ baseUrl: baseUrl() });
const email = `${uniqueName('deno')}@example.com`;
check(!(await auth.register({ email, password: 'secret1' })).error, 'review register');
check(!(await auth.login({ email, password: 'secret1' })).error, 'review login (cookie jar)');
check(!(await auth.logout()).error, 'review logout');
console.log(
  `runtime ${'Deno' in globalThis ? `deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}` : 'not deno'}: task ${taskId} completed, ${events.length} events`,
);
