// The mock's and question-set's CommonJS builds, and core, the pipeline, openapi and the generator
// (ESM only since issue #41: the server loads no CommonJS) through Node's require(esm): required and called.
// msw's own CommonJS build requires ESM-only packages (rettime), so this file runs on require(esm) anyway.
const assert = require('node:assert/strict');
const { createAssetMock, installWebSocketGlobal } = require('@assetloom/mock');
const { createAssetClient } = require('@assetloom/sdk');
const { setupServer } = require('msw/node');
const { errors } = require('@assetloom/core');
const { createEmbeddedStore } = require('@assetloom/core/store/embedded');
// Every non-MongoDB subpath requires, and a class is one class whichever entry it came through.
for (const subpath of ['contract', 'http', 'queue', 'store', 'uploads', 'webhooks', 'review']) {
  require(`@assetloom/core/${subpath}`);
}
assert.equal(
  require('@assetloom/core/review').DuplicateKeyError,
  require('@assetloom/core').DuplicateKeyError,
);
const { assetApiDocument } = require('@assetloom/openapi');
const { createProceduralProvider } = require('@assetloom/generator');
const { validateQuestionSet } = require('@assetloom/question-set');

async function main() {
  installWebSocketGlobal();
  const { handlers, controls } = createAssetMock({
    baseUrl: 'http://api.test',
    clock: 'manual',
    seed: {
      users: [{ username: 'ada', password: 'secret123' }],
      projects: [{ owner: 'ada', name: 'Forest' }],
    },
  });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    await controls.ready;
    const api = createAssetClient({ baseUrl: 'http://api.test', WebSocket: controls.WebSocket });
    assert.equal((await api.login({ username: 'ada', password: 'secret123' })).error, undefined);
    const { data } = await api.generate({
      projectId: controls.seeded.projects.Forest,
      prompt: 'a knight',
      assetType: 'sprite',
    });
    await controls.runToCompletion(data.taskId);
    const task = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: data.taskId } } });
    assert.equal(task.data.status, 'completed');
  } finally {
    server.close();
    controls.close();
  }
  assert.equal(typeof createEmbeddedStore, 'function');
  assert.equal(errors.taskNotFound().code, 404);
  assert.ok(assetApiDocument.paths['/api/v1/generate']);
  assert.equal(typeof createProceduralProvider, 'function');
  assert.equal(validateQuestionSet({}).ok, false);
  console.log('node-cjs: mock, core, openapi, pipeline and question-set required and called');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
