import { decodePng } from '@assetloom/pipeline';
import { type AssetClient, createReviewAuthClient, type PipelineProgress, type Task } from '@assetloom/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContractTarget } from './targets.js';

/** `data` of the error envelopes the suite expects (decision 0037: a stable reason, refused fields). */
const ROUTE = { reason: 'route_not_found' };
const METHOD = { reason: 'method_not_allowed' };
const MEDIA = { reason: 'unsupported_media_type' };
const JSON_BODY = {
  reason: 'invalid_request',
  errors: [{ in: 'body', path: '', rule: 'json', message: '不是有效的 JSON 对象' }],
};

let counter = 0;
/** A username no other test (or earlier run) uses. */
function uniqueName(prefix: string): string {
  counter++;
  return `${prefix}_${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
}

const PASSWORD = 'contract-pass-1';

/**
 * One contract, written against the SDK, for every implementation of the asset API: the msw mock and
 * the reference server answer each case alike. A difference is a bug in one of them.
 * `runtime` is false when the target cannot generate yet (issue #6); those cases are skipped, loudly.
 */
export function defineContractSuite(target: ContractTarget, runtime: boolean): void {
  const base = target.baseUrl;
  afterAll(() => target.stop());

  async function signedUp(prefix = 'user'): Promise<{ api: AssetClient; username: string }> {
    const api = target.client();
    const username = uniqueName(prefix);
    const reg = await api.POST('/auth/register', { body: { username, password: PASSWORD } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: PASSWORD });
    if (login.error) throw login.error;
    return { api, username };
  }

  async function project(api: AssetClient, name = 'Contract', style?: Record<string, string>) {
    const created = await api.POST('/api/v1/projects', { body: style ? { name, style } : { name } });
    if (created.error) throw created.error;
    return created.data.id;
  }

  if (!runtime) {
    console.warn(
      `[contract] ${target.name}: no generation runtime (GET /api/v1/tasks/x/assets is not 401); the generation cases are skipped`,
    );
  }

  describe(`contract on the ${target.name}`, () => {
    describe('envelope and HTTP behaviour', () => {
      it('answers health with the envelope and the security headers', async () => {
        const res = await fetch(`${base}/api/v1/health`, { headers: { 'X-Request-Id': 'contract-1' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-request-id')).toBe('contract-1');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const body = await res.json();
        expect(body).toMatchObject({ code: 0, message: 'ok', data: { status: 'ok' } });
      });

      it.each([
        ['an unknown route', 'GET', '/api/v1/nothing-here', undefined, 404, '接口不存在', ROUTE],
        ['a wrong method', 'PATCH', '/api/v1/projects', undefined, 405, '请求方法不允许', METHOD],
        ['no token', 'GET', '/api/v1/auth/me', undefined, 401, '未登录或 Token 已过期', null],
        ['a non-JSON body', 'POST', '/auth/login', 'text/plain', 415, '请求体必须是 JSON', MEDIA],
        ['a malformed JSON body', 'POST', '/auth/login', 'application/json', 400, '参数错误', JSON_BODY],
      ])('answers %s with the error envelope', async (_name, method, path, type, status, message, data) => {
        const init: RequestInit = { method };
        if (type !== undefined) {
          init.headers = { 'content-type': type };
          init.body = type === 'text/plain' ? 'username=a' : '{"username": ';
        }
        const res = await fetch(`${base}${path}`, init);
        expect(res.status).toBe(status);
        expect(await res.json()).toEqual({ code: status, message, data });
        if (status === 405) {
          expect(new Set(res.headers.get('allow')?.split(/,\s*/))).toEqual(new Set(['HEAD', 'GET', 'POST']));
        }
      });

      it('refuses a body over the limit with 413', async () => {
        const res = await fetch(`${base}/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'x', password: 'y'.repeat(70_000) }),
        });
        expect(res.status).toBe(413);
        expect((await res.json()).message).toBe('请求体过大');
      });
    });

    describe('auth', () => {
      it('registers (201), refuses a taken username (409) and bad fields (400)', async () => {
        const api = target.client();
        const username = uniqueName('reg');
        const first = await api.POST('/auth/register', { body: { username, password: PASSWORD } });
        expect(first.error).toBeUndefined();
        expect(first.response?.status).toBe(201);
        expect(first.data).toMatchObject({ username });
        const again = await api.POST('/auth/register', { body: { username, password: PASSWORD } });
        expect(again.error?.code).toBe(409);
        expect(again.error?.message).toBe('用户名已被注册');
        const short = await api.POST('/auth/register', {
          body: { username: uniqueName('s'), password: '1' },
        });
        expect(short.error?.code).toBe(400);
      });

      it('logs in (token, expiresIn, httpOnly cookie), refuses a wrong password, serves me', async () => {
        const { api, username } = await signedUp('login');
        const wrong = await target.client().login({ username, password: 'not-the-password' });
        expect(wrong.error?.code).toBe(401);
        expect(wrong.error?.message).toBe('用户名或密码错误');
        const raw = await fetch(`${base}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: PASSWORD }),
        });
        expect(raw.status).toBe(200);
        const cookie = raw.headers.get('set-cookie') ?? '';
        expect(cookie).toMatch(/^assetloom_token=[^;]+; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax/i);
        const { data } = await raw.json();
        expect(data).toMatchObject({ token: expect.any(String), expiresIn: 86400 });
        const me = await api.GET('/api/v1/auth/me');
        expect(me.data).toMatchObject({ username });
      });

      it('changes the password: the old token stops working, the new one works', async () => {
        const { api, username } = await signedUp('pw');
        const oldToken = api.token;
        const wrongOld = await api.changePassword({ oldPassword: 'nope-nope', newPassword: 'next-pass-2' });
        expect(wrongOld.error?.code).toBe(400);
        expect(wrongOld.error?.message).toBe('原密码不正确');
        const changed = await api.changePassword({ oldPassword: PASSWORD, newPassword: 'next-pass-2' });
        expect(changed.error).toBeUndefined();
        expect((await api.GET('/api/v1/auth/me')).data?.username).toBe(username);
        const stale = target.client({ token: oldToken as string });
        expect((await stale.GET('/api/v1/auth/me')).error?.code).toBe(401);
      });
    });

    describe('projects, pagination and styles', () => {
      it('creates, reads, renames and deletes a project; strangers get 403, unknown ids 404', async () => {
        const { api } = await signedUp('proj');
        const id = await project(api, 'Castle', { palette: 'pico8' });
        const read = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId: id } } });
        expect(read.data).toMatchObject({ id, name: 'Castle' });
        const renamed = await api.PUT('/api/v1/projects/{projectId}', {
          params: { path: { projectId: id } },
          body: { name: 'Keep' },
        });
        expect(renamed.data).toMatchObject({ id, name: 'Keep' });
        const { api: stranger } = await signedUp('stranger');
        const foreign = await stranger.GET('/api/v1/projects/{projectId}', {
          params: { path: { projectId: id } },
        });
        expect(foreign.error?.code).toBe(403);
        expect(foreign.error?.message).toBe('无权访问该工程');
        for (const projectId of ['unknown-project-id', 'bad.id']) {
          const missing = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId } } });
          expect(missing.error?.code).toBe(404);
          expect(missing.error?.message).toBe('工程不存在');
        }
        const removed = await api.DELETE('/api/v1/projects/{projectId}', {
          params: { path: { projectId: id } },
        });
        expect(removed.error).toBeUndefined();
        const gone = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId: id } } });
        expect(gone.error?.code).toBe(404);
      });

      it('lists newest first in pages; pageSize outside 1-100 is 400', async () => {
        const { api } = await signedUp('pages');
        const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
        for (const name of names) await project(api, name);
        const first = await api.GET('/api/v1/projects', { params: { query: { page: 1, pageSize: 2 } } });
        expect(first.data?.projects.map((p) => p.name)).toEqual(['p5', 'p4']);
        expect(first.data?.total).toBe(5);
        const last = await api.GET('/api/v1/projects', { params: { query: { page: 3, pageSize: 2 } } });
        expect(last.data?.projects.map((p) => p.name)).toEqual(['p1']);
        const all: string[] = [];
        for await (const p of api.paginate('/api/v1/projects', { pageSize: 2 })) all.push(p.name);
        expect(all).toEqual([...names].reverse());
        for (const pageSize of [0, 101]) {
          const bad = await api.GET('/api/v1/projects', { params: { query: { pageSize } } });
          expect(bad.error?.code).toBe(400);
        }
      });

      it('replaces and reads the style; non-string values and too many pairs are 400', async () => {
        const { api } = await signedUp('style');
        const id = await project(api);
        const put = await api.PUT('/api/v1/projects/{projectId}/style', {
          params: { path: { projectId: id } },
          body: { kvPairs: { palette: 'gameboy', lineWeight: 'thick' } },
        });
        expect(put.error).toBeUndefined();
        const got = await api.GET('/api/v1/projects/{projectId}/style', {
          params: { path: { projectId: id } },
        });
        expect(got.data).toEqual({ kvPairs: { palette: 'gameboy', lineWeight: 'thick' } });
        const numeric = await api.PUT('/api/v1/projects/{projectId}/style', {
          params: { path: { projectId: id } },
          body: { kvPairs: { size: 3 as unknown as string } },
        });
        expect(numeric.error?.code).toBe(400);
        const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']));
        const tooMany = await api.PUT('/api/v1/projects/{projectId}/style', {
          params: { path: { projectId: id } },
          body: { kvPairs: many },
        });
        expect(tooMany.error?.code).toBe(400);
      });
    });

    describe('generate', () => {
      it.each([
        ['an empty prompt', { prompt: '   ', assetType: 'sprite' }, 'prompt 不能为空'],
        ['an unknown asset type', { prompt: 'a knight', assetType: 'statue' }, '参数错误'],
        [
          'a resolution below 16',
          { prompt: 'a knight', assetType: 'sprite', params: { resolution: 8 } },
          '参数错误',
        ],
        [
          '3 directions',
          {
            prompt: 'a knight',
            assetType: 'sprite',
            params: { frames: { directions: 3, framesPerDirection: 2 } },
          },
          '参数错误',
        ],
        ['an unknown field', { prompt: 'a knight', assetType: 'sprite', colour: 'red' }, '参数错误'],
      ])('refuses %s with 400', async (_name, body, message) => {
        const { api } = await signedUp('gen400');
        const projectId = await project(api);
        const res = await api.generate({ projectId, ...(body as object) } as Parameters<
          AssetClient['generate']
        >[0]);
        expect(res.error?.code).toBe(400);
        expect(res.error?.message).toBe(message);
      });

      it("refuses another user's project and an unknown one (403 无权访问该工程)", async () => {
        const { api } = await signedUp('owner');
        const projectId = await project(api);
        const { api: other } = await signedUp('intruder');
        const foreign = await other.generate({ projectId, prompt: 'a knight', assetType: 'sprite' });
        expect(foreign.error?.code).toBe(403);
        const missing = await other.generate({
          projectId: 'no-such-project',
          prompt: 'a knight',
          assetType: 'sprite',
        });
        // The domain does not tell an unknown project from a foreign one here.
        expect(missing.error?.code).toBe(403);
        expect(missing.error?.message).toBe('无权访问该工程');
      });

      it('creates a task with the defaults, dedupes a repeat and honours the Idempotency-Key', async () => {
        const { api } = await signedUp('dedupe');
        const projectId = await project(api);
        const body = { projectId, prompt: 'a brave knight', assetType: 'sprite' as const };
        const first = await api.generate(body, { idempotencyKey: 'contract-key-1' });
        if (first.error) throw first.error;
        const same = await api.generate(body, { idempotencyKey: 'contract-key-1' });
        expect(same.data?.taskId).toBe(first.data.taskId);
        const task = await api.GET('/api/v1/tasks/{taskId}', {
          params: { path: { taskId: first.data.taskId } },
        });
        expect(task.data).toMatchObject({
          taskId: first.data.taskId,
          projectId,
          prompt: 'a brave knight',
          assetType: 'sprite',
          params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
          retryCount: 0,
        });
        expect(['running', 'saving', 'completed']).toContain(task.data?.status);
        // A repeat of a task still running (new key) is the same task; once it ended it is a new one.
        const repeat = await api.generate(body);
        const current = await api.GET('/api/v1/tasks/{taskId}', {
          params: { path: { taskId: first.data.taskId } },
        });
        if (current.data?.status === 'running' || current.data?.status === 'saving') {
          expect(repeat.data?.taskId).toBe(first.data.taskId);
        } else {
          expect(repeat.data?.taskId).toBeTypeOf('string');
        }
        const { api: other } = await signedUp('dedupe-other');
        const foreignTask = await other.GET('/api/v1/tasks/{taskId}', {
          params: { path: { taskId: first.data.taskId } },
        });
        expect(foreignTask.error?.code).toBe(403);
        expect(foreignTask.error?.message).toBe('无权访问该任务');
        const unknown = await other.GET('/api/v1/tasks/{taskId}', {
          params: { path: { taskId: 'no-such-task' } },
        });
        expect(unknown.error?.code).toBe(404);
        expect(unknown.error?.message).toBe('任务不存在');
      });
    });

    describe.skipIf(!runtime)('generation runtime', () => {
      it('streams the progress sequence over the WebSocket to waitForTask and ends completed', async () => {
        const { api } = await signedUp('ws');
        const projectId = await project(api, 'Sprites', { palette: 'sweetie16' });
        const submitted = await api.generate({
          projectId,
          prompt: 'a green slime',
          assetType: 'sprite',
          params: { resolution: 32, frames: { directions: 1, framesPerDirection: 2 } },
        });
        if (submitted.error) throw submitted.error;
        const events: PipelineProgress[] = [];
        const seen: Task[] = [];
        const done = await api.waitForTask(submitted.data.taskId, {
          transport: 'ws',
          timeoutMs: 60_000,
          onEvent: (e) => events.push(e),
          onProgress: (t) => seen.push(t),
        });
        if (done.error) throw done.error;
        expect(done.data).toMatchObject({ status: 'completed', stage: 'format_adapter', progress: 100 });
        // The stream replays from the first event, whenever the client connected.
        expect(events.map((e) => `${e.seq} ${e.stage}:${e.status}`)).toEqual([
          '1 prompt_optimizer:running',
          '2 prompt_optimizer:completed',
          '3 asset_generator:running',
          '4 asset_generator:completed',
          '5 quality_supervisor:running',
          '6 quality_supervisor:completed',
          '7 format_adapter:running',
          '8 format_adapter:completed',
        ]);
        for (const e of events) expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT/);
        const finalAssets = events.at(-1)?.result?.assets ?? [];
        expect(finalAssets.length).toBeGreaterThan(0);
        for (const a of finalAssets) expect(a.url).toMatch(/\/files\/projects\/.+\?e=\d+&token=[\w-]{43}$/);
        const progress = seen.map((t) => t.progress);
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(progress.at(-1)).toBe(100);
      });

      it('completes over polling too, then lists the assets and downloads a real PNG and its atlas', async () => {
        const { api } = await signedUp('assets');
        const projectId = await project(api);
        const submitted = await api.generate({
          projectId,
          prompt: 'a brave knight',
          assetType: 'sprite',
          params: { resolution: 32, frames: { directions: 4, framesPerDirection: 2 } },
        });
        if (submitted.error) throw submitted.error;
        const taskId = submitted.data.taskId;
        const done = await api.waitForTask(taskId, {
          transport: 'poll',
          pollIntervalMs: 20,
          timeoutMs: 60_000,
        });
        if (done.error) throw done.error;
        expect(done.data.status).toBe('completed');

        const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
        if (listed.error) throw listed.error;
        const keys = listed.data.assets.map((a) => a.key.slice(a.key.lastIndexOf('/') + 1)).sort();
        expect(keys).toEqual(['sprite.json', 'sprite.png', 'sprite.tres'].filter((k) => keys.includes(k)));
        const sheet = listed.data.assets.find((a) => a.key.endsWith('sprite.png'));
        expect(sheet).toMatchObject({ format: 'png', width: 64, height: 128 });
        const file = await api.downloadAsset(sheet as { key: string; url: string });
        if (file.error) throw file.error;
        expect(file.data.contentType).toMatch(/^image\/png/);
        const decoded = decodePng(file.data.bytes);
        if (!decoded.ok) throw new Error(`not a PNG: ${decoded.error}`);
        expect([decoded.image.width, decoded.image.height]).toEqual([64, 128]);
        const atlasKey = (sheet?.metadata as { atlas?: { texturePacker?: string } } | undefined)?.atlas
          ?.texturePacker;
        if (atlasKey !== undefined) {
          const atlas = await api.downloadAsset(atlasKey);
          if (atlas.error) throw atlas.error;
          const parsed = JSON.parse(new TextDecoder().decode(atlas.data.bytes));
          expect(Object.keys(parsed.frames)).toHaveLength(8);
        }

        // by key through the download redirect; a tampered signature is 403, an unknown key 404
        const byKey = await api.downloadAsset(sheet?.key as string);
        expect(byKey.data?.bytes).toEqual(file.data.bytes);
        // each of the last four characters changed (a fixed 'AAAA' would be no change now and then)
        const url = String(sheet?.url);
        const tampered = await fetch(
          `${url.slice(0, -4)}${[...url.slice(-4)].map((c) => (c === 'A' ? 'B' : 'A')).join('')}`,
        );
        expect(tampered.status).toBe(403);
        const unknown = await fetch(
          `${base}/api/v1/assets/download?key=projects/none/tasks/none/sprite.png`,
          {
            redirect: 'manual',
          },
        );
        expect(unknown.status).toBe(404);
        const noKey = await fetch(`${base}/api/v1/assets/download`, { redirect: 'manual' });
        expect(noKey.status).toBe(400);

        const { api: other } = await signedUp('assets-other');
        const foreign = await other.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
        expect(foreign.error?.code).toBe(403);
      });

      it('lists the tasks of a project with the task summary', async () => {
        const { api } = await signedUp('tasks');
        const projectId = await project(api);
        const submitted = await api.generate({
          projectId,
          prompt: 'a stone wall texture',
          assetType: 'background',
          params: { resolution: 32 },
        });
        if (submitted.error) throw submitted.error;
        await api.waitForTask(submitted.data.taskId, {
          transport: 'poll',
          pollIntervalMs: 20,
          timeoutMs: 60_000,
        });
        const tasks = await api.GET('/api/v1/projects/{projectId}/tasks', {
          params: { path: { projectId } },
        });
        expect(tasks.data?.tasks).toEqual([
          expect.objectContaining({
            id: submitted.data.taskId,
            assetType: 'background',
            status: 'completed',
          }),
        ]);
        const listed = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId } } });
        expect(listed.error).toBeUndefined();
      });
    });

    describe('review-helper authentication', () => {
      it('registers, refuses a second registration, logs in and out', async () => {
        const auth = createReviewAuthClient({ baseUrl: base, cookies: 'jar' });
        const email = `${uniqueName('rev')}@example.com`;
        const reg = await auth.register({ email, password: 'secret1' });
        expect(reg.error).toBeUndefined();
        const dup = await createReviewAuthClient({ baseUrl: base, cookies: 'jar' }).register({
          email,
          password: 'secret1',
        });
        expect(dup.error?.httpStatus).toBe(409);
        const wrong = await createReviewAuthClient({ baseUrl: base, cookies: 'jar' }).login({
          email,
          password: 'wrong-password',
        });
        expect(wrong.error?.httpStatus).toBe(401);
        const login = await auth.login({ email, password: 'secret1' });
        expect(login.error).toBeUndefined();
        const out = await auth.logout();
        expect(out.data).toMatchObject({ ok: true, location: '/login' });
      });
    });
  });
}
