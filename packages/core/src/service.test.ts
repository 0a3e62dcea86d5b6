import { assetApiDocument } from '@assetloom/openapi';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeHasher, fakeTokens, steppingClock } from '../test/fakes.js';
import { createEmbeddedStore } from './embedded.js';
import { AssetloomError, MESSAGES, ok } from './errors.js';
import { createMemoryRateLimiter } from './rate-limit.js';
import { type AssetService, createAssetService } from './service.js';
import type { Store } from './store.js';
import type { AuthUser, GenerateInput } from './types.js';

// ---- response shapes are checked against the OpenAPI response schemas ----
const DOC = 'https://assetloom.test/asset-api.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: DOC, components: assetApiDocument.components });
function expectResponse(schemaName: string, data: unknown): void {
  const validate = ajv.getSchema(`${DOC}#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`no schema ${schemaName}`);
  const valid = validate(ok(data));
  expect(valid, JSON.stringify(validate.errors)).toBe(true);
}

interface World {
  store: Store;
  service: AssetService;
  clock: ReturnType<typeof steppingClock>;
  hasher: ReturnType<typeof fakeHasher>;
  tokens: ReturnType<typeof fakeTokens>;
  alice: AuthUser;
  aliceToken: string;
  bob: AuthUser;
}

async function world(options: { loginLimit?: number; generateLimit?: number } = {}): Promise<World> {
  const store = createEmbeddedStore();
  await store.init();
  const clock = steppingClock();
  const hasher = fakeHasher();
  const tokens = fakeTokens(clock);
  const service = createAssetService({
    store,
    hasher,
    tokens,
    clock,
    loginLimiter: createMemoryRateLimiter({ limit: options.loginLimit ?? 5, windowMs: 15 * 60_000, clock }),
    generateLimiter:
      options.generateLimit === undefined
        ? undefined
        : createMemoryRateLimiter({ limit: options.generateLimit, windowMs: 60_000, clock }),
  });
  await service.register({ username: 'alice', email: 'alice@example.com', password: 'alice-pw' });
  await service.register({ username: 'bob', password: 'bob-pw' });
  const a = await service.login({ username: 'alice', password: 'alice-pw' }, { ip: '10.0.0.1' });
  const b = await service.login({ username: 'bob', password: 'bob-pw' }, { ip: '10.0.0.2' });
  return {
    store,
    service,
    clock,
    hasher,
    tokens,
    alice: await service.authenticate(a.token),
    aliceToken: a.token,
    bob: await service.authenticate(b.token),
  };
}

async function rejection(promise: Promise<unknown>): Promise<AssetloomError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AssetloomError);
  return err as AssetloomError;
}

const gen = (projectId: string, over: Partial<GenerateInput> = {}): GenerateInput => ({
  projectId,
  prompt: 'a knight',
  assetType: 'sprite',
  ...over,
});

describe('asset service: the error rows of spec 000', () => {
  let w: World;
  let aliceProject: string;
  let aliceTask: string;
  beforeEach(async () => {
    w = await world();
    aliceProject = (await w.service.createProject(w.alice, { name: 'Forest' })).id;
    aliceTask = (await w.service.submitTask(w.alice, gen(aliceProject))).taskId;
  });

  const rows: [
    string,
    {
      call: (w: World, ids: { project: string; task: string }) => Promise<unknown>;
      code: number;
      message: string;
    },
  ][] = [
    [
      'register: username exists → 409',
      {
        call: (w) => w.service.register({ username: 'alice', password: 'another' }),
        code: 409,
        message: MESSAGES.usernameTaken,
      },
    ],
    [
      'register: e-mail exists (any case) → 409',
      {
        call: (w) =>
          w.service.register({ username: 'carol', email: 'ALICE@example.com', password: 'carol-pw' }),
        code: 409,
        message: MESSAGES.emailTaken,
      },
    ],
    [
      'login: unknown user → 401',
      {
        call: (w) => w.service.login({ username: 'nobody', password: 'x' }, { ip: '1.1.1.1' }),
        code: 401,
        message: MESSAGES.badCredentials,
      },
    ],
    [
      'login: wrong password → 401 (same message)',
      {
        call: (w) => w.service.login({ username: 'alice', password: 'wrong' }, { ip: '1.1.1.1' }),
        code: 401,
        message: MESSAGES.badCredentials,
      },
    ],
    [
      'token missing → 401',
      { call: (w) => w.service.authenticate(undefined), code: 401, message: MESSAGES.unauthenticated },
    ],
    [
      'token empty → 401',
      { call: (w) => w.service.authenticate(''), code: 401, message: MESSAGES.unauthenticated },
    ],
    [
      'token invalid → 401',
      { call: (w) => w.service.authenticate('not-a-token'), code: 401, message: MESSAGES.unauthenticated },
    ],
    [
      'token not a string → 401',
      {
        call: (w) => w.service.authenticate({ $gt: '' } as unknown as string),
        code: 401,
        message: MESSAGES.unauthenticated,
      },
    ],
    [
      'change password: old password wrong → 400',
      {
        call: (w) => w.service.changePassword(w.alice, { oldPassword: 'nope', newPassword: 'new-pw-1' }),
        code: 400,
        message: MESSAGES.wrongOldPassword,
      },
    ],
    [
      'read project: id unknown → 404',
      {
        call: (w) => w.service.getProject(w.alice, 'AAAAAAAAAAAAAAAAAAAAAA'),
        code: 404,
        message: MESSAGES.projectNotFound,
      },
    ],
    [
      'read project: id malformed → 404',
      {
        call: (w) => w.service.getProject(w.alice, '../etc/passwd'),
        code: 404,
        message: MESSAGES.projectNotFound,
      },
    ],
    [
      'read project: id an operator object → 404',
      {
        call: (w) => w.service.getProject(w.alice, { $ne: '' } as unknown as string),
        code: 404,
        message: MESSAGES.projectNotFound,
      },
    ],
    [
      'read project: another user’s → 403',
      {
        call: (w, ids) => w.service.getProject(w.bob, ids.project),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'update project: another user’s → 403',
      {
        call: (w, ids) => w.service.updateProject(w.bob, ids.project, { name: 'x' }),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'delete project: another user’s → 403',
      {
        call: (w, ids) => w.service.deleteProject(w.bob, ids.project),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'delete project: unknown → 404',
      {
        call: (w) => w.service.deleteProject(w.bob, 'unknown'),
        code: 404,
        message: MESSAGES.projectNotFound,
      },
    ],
    [
      'list tasks: another user’s project → 403',
      {
        call: (w, ids) => w.service.listProjectTasks(w.bob, ids.project, { page: 1, pageSize: 20 }),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'read style: another user’s → 403',
      {
        call: (w, ids) => w.service.getStyle(w.bob, ids.project),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'replace style: another user’s → 403',
      {
        call: (w, ids) => w.service.putStyle(w.bob, ids.project, { kvPairs: {} }),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'replace style: unknown → 404',
      {
        call: (w) => w.service.putStyle(w.bob, 'missing', { kvPairs: {} }),
        code: 404,
        message: MESSAGES.projectNotFound,
      },
    ],
    [
      'generate: project unknown → 403',
      {
        call: (w) => w.service.submitTask(w.alice, gen('AAAAAAAAAAAAAAAAAAAAAA')),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'generate: project malformed → 403',
      {
        call: (w) => w.service.submitTask(w.alice, gen('{"$gt":""}')),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'generate: project of another user → 403',
      {
        call: (w, ids) => w.service.submitTask(w.bob, gen(ids.project)),
        code: 403,
        message: MESSAGES.projectForbidden,
      },
    ],
    [
      'generate: prompt empty → 400',
      {
        call: (w, ids) => w.service.submitTask(w.alice, gen(ids.project, { prompt: '' })),
        code: 400,
        message: MESSAGES.emptyPrompt,
      },
    ],
    [
      'generate: prompt blank → 400',
      {
        call: (w, ids) => w.service.submitTask(w.alice, gen(ids.project, { prompt: '  \n' })),
        code: 400,
        message: MESSAGES.emptyPrompt,
      },
    ],
    [
      'read task: id unknown → 404',
      {
        call: (w) => w.service.getTask(w.alice, 'AAAAAAAAAAAAAAAAAAAAAA'),
        code: 404,
        message: MESSAGES.taskNotFound,
      },
    ],
    [
      'read task: id malformed → 404',
      { call: (w) => w.service.getTask(w.alice, 'a/b'), code: 404, message: MESSAGES.taskNotFound },
    ],
    [
      'read task: another user’s → 403',
      { call: (w, ids) => w.service.getTask(w.bob, ids.task), code: 403, message: MESSAGES.taskForbidden },
    ],
    [
      'task assets: another user’s → 403',
      {
        call: (w, ids) => w.service.getTaskAssets(w.bob, ids.task),
        code: 403,
        message: MESSAGES.taskForbidden,
      },
    ],
    [
      'task assets: unknown → 404',
      {
        call: (w) => w.service.getTaskAssets(w.bob, 'x'.repeat(65)),
        code: 404,
        message: MESSAGES.taskNotFound,
      },
    ],
  ];

  it.each(rows)('%s', async (_name, { call, code, message }) => {
    const err = await rejection(call(w, { project: aliceProject, task: aliceTask }));
    expect({ code: err.code, message: err.message }).toEqual({ code, message });
  });
});

describe('asset service: behaviour', () => {
  it('registers and logs in with the spec’s shapes; unknown users cost a verify too', async () => {
    const w = await world();
    const reg = await w.service.register({ username: 'carol', password: 'carol-pw' });
    expectResponse('RegisterResponse', reg);
    const login = await w.service.login({ username: 'carol', password: 'carol-pw' }, { ip: '127.0.0.1' });
    expectResponse('LoginResponse', login);
    expect(login.user).toMatchObject({ id: reg.id, username: 'carol', email: null });
    const me = await w.service.me(await w.service.authenticate(login.token));
    expectResponse('MeResponse', me);
    expect(me.id).toBe(String(reg.id));
    const before = w.hasher.calls.verify;
    await rejection(w.service.login({ username: 'ghost', password: 'pw' }, { ip: '127.0.0.1' }));
    expect(w.hasher.calls.verify).toBe(before + 1);
  });

  it('rate-limits failed logins per username and IP with Retry-After, and a success resets the count', async () => {
    const w = await world({ loginLimit: 3 });
    for (let i = 0; i < 3; i++) {
      expect(
        (await rejection(w.service.login({ username: 'alice', password: 'bad' }, { ip: '9.9.9.9' }))).code,
      ).toBe(401);
    }
    const limited = await rejection(
      w.service.login({ username: 'alice', password: 'alice-pw' }, { ip: '9.9.9.9' }),
    );
    expect(limited.code).toBe(429);
    expect(limited.message).toBe(MESSAGES.tooManyRequests);
    expect(limited.retryAfter).toBeGreaterThanOrEqual(1);
    // Another IP (or another username) is not affected.
    await w.service.login({ username: 'alice', password: 'alice-pw' }, { ip: '8.8.8.8' });
    w.clock.advance(15 * 60_000);
    await w.service.login({ username: 'alice', password: 'alice-pw' }, { ip: '9.9.9.9' });
    // The success reset the window: three more failures are needed to be limited again.
    await rejection(w.service.login({ username: 'alice', password: 'bad' }, { ip: '9.9.9.9' }));
    await w.service.login({ username: 'alice', password: 'alice-pw' }, { ip: '9.9.9.9' });
  });

  it('a password change invalidates older tokens and answers a fresh one', async () => {
    const w = await world();
    const result = await w.service.changePassword(w.alice, {
      oldPassword: 'alice-pw',
      newPassword: 'alice-pw-2',
    });
    expectResponse('ChangePasswordResponse', result);
    expect((await rejection(w.service.authenticate(w.aliceToken))).message).toBe(MESSAGES.unauthenticated);
    const fresh = await w.service.authenticate(result.token);
    expect(fresh.tokenVersion).toBe(w.alice.tokenVersion + 1);
    expect(
      (await rejection(w.service.login({ username: 'alice', password: 'alice-pw' }, { ip: 'x' }))).code,
    ).toBe(401);
    await w.service.login({ username: 'alice', password: 'alice-pw-2' }, { ip: 'x' });
    // The stale AuthUser from before the change cannot change the password again.
    expect(
      (
        await rejection(
          w.service.changePassword(w.alice, { oldPassword: 'alice-pw-2', newPassword: 'z-z-z-z' }),
        )
      ).code,
    ).toBe(401);
  });

  it('expired tokens answer 401', async () => {
    const w = await world();
    w.tokens.expireAll();
    expect((await rejection(w.service.authenticate(w.aliceToken))).code).toBe(401);
  });

  it('creates, lists (newest first, paged), reads, renames and restyles projects', async () => {
    const w = await world();
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push(await w.service.createProject(w.alice, { name: `P${i}`, style: { i: String(i) } }));
    await w.service.createProject(w.bob, { name: 'Bob’s' });
    expectResponse('ProjectResponse', created[0]);
    expect(created[0]).toMatchObject({ taskCount: 0, style: { kvPairs: { i: '0' } } });
    expect(created[0]!.lastActivityAt).toBe(created[0]!.createdAt);
    expect((await w.service.createProject(w.alice, { name: 'NoStyle' })).style).toEqual({ kvPairs: {} });

    const page1 = await w.service.listProjects(w.alice, { page: 1, pageSize: 2 });
    expectResponse('ProjectListResponse', page1);
    expect(page1.total).toBe(6);
    expect(page1.projects.map((p) => p.name)).toEqual(['NoStyle', 'P4']);
    const page3 = await w.service.listProjects(w.alice, { page: 3, pageSize: 2 });
    expect(page3.projects.map((p) => p.name)).toEqual(['P1', 'P0']);
    expect((await w.service.listProjects(w.alice, { page: 99, pageSize: 2 })).projects).toEqual([]);
    expect(
      (await w.service.listProjects(w.alice, { page: Number.MAX_SAFE_INTEGER, pageSize: 100 })).projects,
    ).toEqual([]);

    const id = created[2]!.id;
    const detail = await w.service.getProject(w.alice, id);
    expectResponse('ProjectDetailResponse', detail);
    const renamed = await w.service.updateProject(w.alice, id, { name: 'Renamed' });
    expect(renamed.name).toBe('Renamed');
    expect(renamed.updatedAt > detail.updatedAt).toBe(true);
    expect(await w.service.getStyle(w.alice, id)).toEqual({ kvPairs: { i: '2' } });
    const style = await w.service.putStyle(w.alice, id, { kvPairs: { palette: 'sweetie16', 'a.b': '$x' } });
    expectResponse('StyleResponse', style);
    expect(await w.service.getStyle(w.alice, id)).toEqual({ kvPairs: { palette: 'sweetie16', 'a.b': '$x' } });
  });

  it('answers a repeated list of unchanged projects with the same frozen value, and follows changes', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'P' });
    await w.service.submitTask(w.alice, gen(p.id));
    const first = await w.service.listProjects(w.alice, { page: 1, pageSize: 20 });
    // the HTTP layer keeps the bytes of a frozen value, so it must be frozen and shared
    expect(await w.service.listProjects(w.alice, { page: 1, pageSize: 20 })).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.projects)).toBe(true);
    const tasks = await w.service.listProjectTasks(w.alice, p.id, { page: 1, pageSize: 20 });
    expect(await w.service.listProjectTasks(w.alice, p.id, { page: 1, pageSize: 20 })).toBe(tasks);

    await w.service.submitTask(w.alice, gen(p.id, { prompt: 'a second knight' }));
    const after = await w.service.listProjects(w.alice, { page: 1, pageSize: 20 });
    expect(after).not.toBe(first);
    expect(after.projects[0]).toMatchObject({ name: 'P', taskCount: 2 });
    expect((await w.service.listProjectTasks(w.alice, p.id, { page: 1, pageSize: 20 })).total).toBe(2);
    await w.service.updateProject(w.alice, p.id, { name: 'Q' });
    expect((await w.service.listProjects(w.alice, { page: 1, pageSize: 20 })).projects[0]?.name).toBe('Q');
  });

  it('new tasks start running at prompt_builder with progress 0 and normalized params', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'P' });
    const { taskId, created } = await w.service.submitTask(
      w.alice,
      gen(p.id, { assetType: 'background', params: { resolution: 128, frames: { directions: 8 } } }),
    );
    expect(created).toBe(true);
    const task = await w.service.getTask(w.alice, taskId);
    expectResponse('TaskResponse', task);
    expect(task).toMatchObject({
      taskId,
      projectId: p.id,
      status: 'running',
      stage: 'prompt_builder',
      progress: 0,
      retryCount: 0,
      error: null,
      taskStyle: null,
      params: { resolution: 128, format: 'spritesheet' },
    });
    expect(task.params.frames).toBeUndefined();
    const list = await w.service.listProjectTasks(w.alice, p.id, { page: 1, pageSize: 20 });
    expectResponse('TaskListResponse', list);
    expect(list).toEqual({
      total: 1,
      tasks: [
        {
          id: taskId,
          prompt: 'a knight',
          assetType: 'background',
          status: 'running',
          // a task submitted on its own names no character (decision 0057)
          characterId: null,
          createdAt: task.createdAt,
        },
      ],
    });
    const projects = await w.service.listProjects(w.alice, { page: 1, pageSize: 20 });
    expect(projects.projects[0]).toMatchObject({ taskCount: 1, lastActivityAt: task.createdAt });
  });

  it('params.seed selects a variation: kept on the task, part of the dedupe key', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'P' });
    const unseeded = await w.service.submitTask(w.alice, gen(p.id));
    const one = await w.service.submitTask(w.alice, gen(p.id, { params: { seed: 1 } }));
    expect(one.created).toBe(true);
    expect(one.taskId).not.toBe(unseeded.taskId);
    expect(await w.service.submitTask(w.alice, gen(p.id, { params: { seed: 1 } }))).toEqual({
      taskId: one.taskId,
      created: false,
    });
    expect((await w.service.submitTask(w.alice, gen(p.id, { params: { seed: 2 } }))).created).toBe(true);
    const task = await w.service.getTask(w.alice, one.taskId);
    expect(task.params.seed).toBe(1);
    expectResponse('TaskResponse', task);
    expect((await w.service.getTask(w.alice, unseeded.taskId)).params).not.toHaveProperty('seed');
  });

  it('dedupes identical active submissions per user only, and not after the task ends', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'P' });
    const first = await w.service.submitTask(w.alice, gen(p.id, { taskStyle: { mood: 'grim' } }));
    expect(await w.service.submitTask(w.alice, gen(p.id, { taskStyle: { mood: 'grim' } }))).toEqual({
      taskId: first.taskId,
      created: false,
    });
    // Any difference is a different task.
    expect((await w.service.submitTask(w.alice, gen(p.id, { taskStyle: { mood: 'calm' } }))).created).toBe(
      true,
    );
    expect(
      (
        await w.service.submitTask(
          w.alice,
          gen(p.id, { taskStyle: { mood: 'grim' }, params: { resolution: 32 } }),
        )
      ).created,
    ).toBe(true);
    expect(
      (
        await w.service.submitTask(
          w.alice,
          gen(p.id, { taskStyle: { mood: 'grim' }, assetType: 'animation' }),
        )
      ).created,
    ).toBe(true);
    // Ending the task frees the key.
    await w.store.tasks.update(first.taskId, {
      status: 'completed',
      progress: 100,
      updatedAt: w.clock.now(),
    });
    const next = await w.service.submitTask(w.alice, gen(p.id, { taskStyle: { mood: 'grim' } }));
    expect(next.created).toBe(true);
    expect(next.taskId).not.toBe(first.taskId);
  });

  it('honours Idempotency-Key per user for 24 hours', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'P' });
    const first = await w.service.submitTask(w.alice, gen(p.id), { idempotencyKey: 'k-1' });
    // Same key, different body: the task that key created.
    expect(
      await w.service.submitTask(w.alice, gen(p.id, { prompt: 'other' }), { idempotencyKey: 'k-1' }),
    ).toEqual({
      taskId: first.taskId,
      created: false,
    });
    const concurrent = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        w.service.submitTask(w.alice, gen(p.id, { prompt: `p${i}` }), { idempotencyKey: 'k-2' }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.taskId)).size).toBe(1);
    w.clock.advance(24 * 60 * 60_000 + 1);
    await w.store.tasks.update(first.taskId, { status: 'completed', updatedAt: w.clock.now() });
    const later = await w.service.submitTask(w.alice, gen(p.id), { idempotencyKey: 'k-1' });
    expect(later.created).toBe(true);
    expect(later.taskId).not.toBe(first.taskId);
  });

  it('rate-limits submissions per user; duplicates do not count', async () => {
    const w = await world({ generateLimit: 2 });
    const p = await w.service.createProject(w.alice, { name: 'P' });
    await w.service.submitTask(w.alice, gen(p.id, { prompt: 'one' }));
    await w.service.submitTask(w.alice, gen(p.id, { prompt: 'one' }));
    await w.service.submitTask(w.alice, gen(p.id, { prompt: 'two' }));
    const err = await rejection(w.service.submitTask(w.alice, gen(p.id, { prompt: 'three' })));
    expect(err.code).toBe(429);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    const bp = await w.service.createProject(w.bob, { name: 'B' });
    await w.service.submitTask(w.bob, gen(bp.id, { prompt: 'three' }));
  });

  it('answers task assets only when completed', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'P' });
    const { taskId } = await w.service.submitTask(w.alice, gen(p.id));
    const record = {
      taskId,
      projectId: p.id,
      ownerId: w.alice.id,
      key: `${p.id}/${taskId}/sheet.png`,
      format: 'png',
      width: 256,
      height: 256,
      metadata: { frameWidth: 64, frameHeight: 64, frameCount: 16, directions: 4 },
      contentType: 'image/png',
      createdAt: w.clock.now(),
    };
    await w.store.assets.insertMany([record]);
    expect(await w.service.getTaskAssets(w.alice, taskId)).toEqual([]);
    await w.store.tasks.update(taskId, { status: 'saving', updatedAt: w.clock.now() });
    expect(await w.service.getTaskAssets(w.alice, taskId)).toEqual([]);
    await w.store.tasks.update(taskId, { status: 'completed', progress: 100, updatedAt: w.clock.now() });
    expect(await w.service.getTaskAssets(w.alice, taskId)).toEqual([record]);
  });

  it('deletes a project in cascade (tasks, events, assets) and answers the object keys', async () => {
    const w = await world();
    const p = await w.service.createProject(w.alice, { name: 'Doomed' });
    const keep = await w.service.createProject(w.alice, { name: 'Kept' });
    const t1 = await w.service.submitTask(w.alice, gen(p.id, { prompt: 'one' }));
    const t2 = await w.service.submitTask(w.alice, gen(p.id, { prompt: 'two' }));
    const t3 = await w.service.submitTask(w.alice, gen(keep.id, { prompt: 'three' }));
    for (const t of [t1, t2, t3])
      await w.store.events.append({
        taskId: t.taskId,
        seq: 1,
        event: { stage: 'prompt_optimizer' },
        at: w.clock.now(),
      });
    const asset = (projectId: string, taskId: string, name: string) => ({
      taskId,
      projectId,
      ownerId: w.alice.id,
      key: `${projectId}/${taskId}/${name}`,
      format: 'png',
      width: 1,
      height: 1,
      metadata: {},
      contentType: 'image/png',
      createdAt: w.clock.now(),
    });
    await w.store.assets.insertMany([
      asset(p.id, t1.taskId, 'a.png'),
      asset(p.id, t2.taskId, 'b.png'),
      asset(keep.id, t3.taskId, 'c.png'),
    ]);

    const { deletedKeys } = await w.service.deleteProject(w.alice, p.id);
    expect(deletedKeys.sort()).toEqual([`${p.id}/${t1.taskId}/a.png`, `${p.id}/${t2.taskId}/b.png`].sort());
    expect((await rejection(w.service.getProject(w.alice, p.id))).code).toBe(404);
    expect((await rejection(w.service.getTask(w.alice, t1.taskId))).code).toBe(404);
    expect(await w.store.events.list(t1.taskId, 0)).toEqual([]);
    expect(await w.store.events.list(t3.taskId, 0)).toHaveLength(1);
    expect(await w.store.assets.byKey(`${keep.id}/${t3.taskId}/c.png`)).not.toBeNull();
    expect((await w.service.getTask(w.alice, t3.taskId)).status).toBe('running');
    expect((await w.service.listProjects(w.alice, { page: 1, pageSize: 20 })).total).toBe(1);
  });
});
