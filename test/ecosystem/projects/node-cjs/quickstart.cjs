// require() and call: the SDK's CommonJS build (issue #21: it threw
// "(0 , import_openapi_fetch.default) is not a function"). Run with --no-experimental-require-module
// so nothing can lean on Node's require(esm): the CommonJS entries must stand on their own.
const assert = require('node:assert/strict');
const { createAssetClient, createReviewAuthClient, AssetloomApiError } = require('@assetloom/sdk');
const WebSocket = require('ws');

const baseUrl = process.env.ASSETLOOM_BASE_URL;
assert.ok(baseUrl, 'ASSETLOOM_BASE_URL is set by test/ecosystem/run.mjs');
const unique = (p) => `${p}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

async function main() {
  const api = createAssetClient({ baseUrl, WebSocket });
  const username = unique('cjs');
  const registered = await api.POST('/auth/register', { body: { username, password: 'secret123' } });
  assert.equal(registered.error, undefined);
  const login = await api.login({ username, password: 'secret123' });
  assert.equal(login.error, undefined);
  const bad = await api.POST('/api/v1/projects', { body: {} });
  assert.ok(AssetloomApiError.is(bad.error), 'a 400 is an AssetloomApiError');
  assert.equal(bad.error.httpStatus, 400);
  const project = await api.POST('/api/v1/projects', { body: { name: 'Demo' } });
  const submitted = await api.generate({
    projectId: project.data.id,
    prompt: 'a red potion',
    assetType: 'ui',
  });
  assert.equal(submitted.error, undefined);
  const done = await api.waitForTask(submitted.data.taskId, { transport: 'poll', pollIntervalMs: 100 });
  assert.equal(done.data.status, 'completed');
  const assets = await api.GET('/api/v1/tasks/{taskId}/assets', {
    params: { path: { taskId: submitted.data.taskId } },
  });
  const file = await api.downloadAsset(assets.data.assets[0]);
  assert.equal(file.error, undefined);
  assert.ok(file.data.bytes.length > 0);

  const auth = createReviewAuthClient({ baseUrl });
  const email = `${unique('cjs')}@example.com`;
  assert.equal((await auth.register({ email, password: 'secret1' })).error, undefined);
  assert.equal((await auth.login({ email, password: 'secret1' })).error, undefined);
  console.log(
    `node-cjs: task ${submitted.data.taskId} completed; ${file.data.bytes.length} bytes downloaded`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
