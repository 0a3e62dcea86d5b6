import { describe, expectTypeOf, test } from 'vitest';
import {
  type ApiResult,
  type AssetloomApiError,
  type AssetloomErrorCode,
  createAssetClient,
  createReviewAuthClient,
  type DownloadedAsset,
  type GenerateResult,
  type LoginData,
  type ProjectListItem,
  type Task,
  type TaskListItem,
} from './index.js';

const api = createAssetClient({ baseUrl: 'http://127.0.0.1:1' });
const strict = createAssetClient({ baseUrl: 'http://127.0.0.1:1', throwOnError: true });

describe('paths, bodies and responses are typed from asset-api.yaml', () => {
  test('GET a task: data is the Task, error the AssetloomApiError', async () => {
    const result = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: 't1' } } });
    expectTypeOf(result).toEqualTypeOf<ApiResult<Task>>();
    if (result.error) {
      expectTypeOf(result.error).toEqualTypeOf<AssetloomApiError>();
      expectTypeOf(result.error.code).toEqualTypeOf<AssetloomErrorCode>();
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result.data).toEqualTypeOf<Task>();
      expectTypeOf(result.data.status).toEqualTypeOf<'running' | 'completed' | 'failed' | 'saving'>();
    }
  });

  test('list endpoints answer their page type', async () => {
    const { data } = await api.GET('/api/v1/projects', { params: { query: { page: 1, pageSize: 20 } } });
    expectTypeOf(data).toEqualTypeOf<{ total: number; projects: ProjectListItem[] } | undefined>();
  });

  test('the throwing style resolves to data', async () => {
    const task = await strict.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: 't1' } } });
    expectTypeOf(task).toEqualTypeOf<Task>();
    const created = await strict.POST('/api/v1/projects', {
      body: { name: 'Forest', style: { artStyle: 'pixel' } },
    });
    expectTypeOf(created.style.kvPairs).toEqualTypeOf<{ [key: string]: string }>();
    const deleted = await strict.DELETE('/api/v1/projects/{projectId}', {
      params: { path: { projectId: 'p' } },
    });
    expectTypeOf(deleted).toEqualTypeOf<null>();
  });

  test('register answers HTTP 201 with the new user', async () => {
    const user = await strict.POST('/auth/register', { body: { username: 'ada', password: 'secret1' } });
    expectTypeOf(user).toEqualTypeOf<{ id: number; username: string }>();
  });

  test('a correct generate body compiles', () => {
    void api.POST('/api/v1/generate', {
      body: {
        projectId: 'p',
        prompt: 'a knight',
        assetType: 'sprite',
        params: { resolution: 64, frames: { directions: 8 } },
      },
      params: { header: { 'Idempotency-Key': 'k-1' } },
      timeoutMs: 5000,
      retry: { limit: 1 },
    });
  });

  test('a wrong body, a missing path param or an unknown path does not compile', () => {
    // @ts-expect-error assetType must be sprite | background | ui | animation
    void api.POST('/api/v1/generate', { body: { projectId: 'p', prompt: 'a knight', assetType: 'model3d' } });
    // @ts-expect-error prompt is required
    void api.POST('/api/v1/generate', { body: { projectId: 'p', assetType: 'sprite' } });
    const wrongParams = {
      projectId: 'p',
      prompt: 'x',
      assetType: 'ui' as const,
      params: { resolution: '64' },
    };
    // @ts-expect-error resolution is a number
    void api.POST('/api/v1/generate', { body: wrongParams });
    // @ts-expect-error the path parameter is required
    void api.GET('/api/v1/tasks/{taskId}');
    // @ts-expect-error no such path
    void api.GET('/api/v1/nope');
    // @ts-expect-error PUT is not defined on this path
    void api.PUT('/api/v1/generate', { body: {} });
    // @ts-expect-error the download redirect is not an envelope endpoint: use downloadAsset()
    void api.GET('/api/v1/assets/download', { params: { query: { key: 'k' } } });
  });
});

describe('helpers', () => {
  test('login, generate, waitForTask and downloadAsset are typed', async () => {
    expectTypeOf(await api.login({ username: 'ada', password: 'x' })).toEqualTypeOf<ApiResult<LoginData>>();
    expectTypeOf(await strict.login({ username: 'ada', password: 'x' })).toEqualTypeOf<LoginData>();
    expectTypeOf((await strict.login({ username: 'ada', password: 'x' })).expiresIn).toEqualTypeOf<number>();
    expectTypeOf(await api.generate({ projectId: 'p', prompt: 'x', assetType: 'sprite' })).toEqualTypeOf<
      ApiResult<GenerateResult>
    >();
    expectTypeOf(await strict.waitForTask('t')).toEqualTypeOf<Task>();
    expectTypeOf(await strict.downloadAsset('k')).toEqualTypeOf<DownloadedAsset>();
    // @ts-expect-error login needs a password
    void api.login({ username: 'ada' });
  });

  test('paginate yields the item type of the path', () => {
    expectTypeOf(api.paginate('/api/v1/projects')).toEqualTypeOf<AsyncIterableIterator<ProjectListItem>>();
    expectTypeOf(api.paginate('/api/v1/projects/{projectId}/tasks', { projectId: 'p' })).toEqualTypeOf<
      AsyncIterableIterator<TaskListItem>
    >();
    // @ts-expect-error the tasks of a project need its id
    void api.paginate('/api/v1/projects/{projectId}/tasks', {});
  });

  test('review-auth is typed from review-auth.yaml', async () => {
    const auth = createReviewAuthClient({ baseUrl: '' });
    expectTypeOf(await auth.login({ email: 'a@b.c', password: 'secret1' })).toEqualTypeOf<
      ApiResult<{ ok: true }>
    >();
    // @ts-expect-error the review helper logs in by e-mail, not username
    void auth.login({ username: 'a', password: 'secret1' });
    const strictAuth = createReviewAuthClient({ baseUrl: '', throwOnError: true });
    expectTypeOf((await strictAuth.logout()).ok).toEqualTypeOf<true>();
  });
});
