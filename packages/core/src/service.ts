import {
  type ImageProvider,
  type LlmConfig,
  type OptimizedPrompt,
  optimizePrompt,
} from '@assetloom/pipeline';
import { submissionRefusal } from '@assetloom/pipeline/inputs';
import { limitOf, taskPixels, type UserBudgets } from './budgets.js';
import { ID_PATTERN, randomId, randomIds, sha256Hex, systemClock } from './defaults.js';
import { AssetloomError, errors, MESSAGES } from './errors.js';
import type { HashGate } from './hash-gate.js';
import { mapFrozen } from './internal/frozen.js';
import { dedupeMaterial, normalizeParams } from './params.js';
import type { Clock, IdGenerator, PasswordHasher, RateLimiter, TokenService } from './ports.js';
import {
  type AssetRecord,
  DuplicateKeyError,
  type Page,
  type ProjectRecord,
  type Store,
  type TaskRecord,
  type UserRecord,
} from './store.js';
import type {
  AuthUser,
  ChangePasswordInput,
  CreateProjectInput,
  DeleteProjectResult,
  GenerateInput,
  LoginInput,
  LoginResult,
  MeResult,
  PageInput,
  Project,
  ProjectDetail,
  ProjectList,
  ProjectListItem,
  PromptOptimizeInput,
  RegisterInput,
  RegisterResult,
  Style,
  StyleInput,
  SubmitResult,
  Task,
  TaskList,
  TaskListItem,
  TaskParams,
  TokenResult,
  UpdateProjectInput,
} from './types.js';
import type { UploadService } from './uploads/service.js';
import { createUserCache } from './user-cache.js';
import {
  identifierCharacterProblem,
  normalizeIdentifier,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  usernameKeyOf,
  usernameProblem,
} from './usernames.js';

export interface AssetServiceDeps {
  store: Store;
  hasher: PasswordHasher;
  tokens: TokenService;
  clock?: Clock;
  ids?: IdGenerator;
  /** Failed logins per `${username key}|${ip}` (and wrong old passwords per `password|${userId}`). */
  loginLimiter?: RateLimiter;
  /**
   * Failed logins per client address, across usernames (`login|${ip}`): past it, a login from that
   * address answers 429 without hashing. The server shares one with the review helper.
   */
  loginIpLimiter?: RateLimiter;
  /** Registrations per client address (`register|${ip}`), counted when a hash is made. */
  registerIpLimiter?: RateLimiter;
  /**
   * Bounds the password hashes made at once and queued (createHashGate): logins, registrations and
   * password changes run their hash through it and answer 503/429 + Retry-After when it is full.
   */
  hashGate?: HashGate;
  /** Task submissions per user id (checked on every submission, counted when a task is created). */
  generateLimiter?: RateLimiter;
  /** How long an Idempotency-Key maps to its task (default 24 h). */
  idempotencyTtlMs?: number;
  /**
   * Told about a store failure the service rode over without failing the call (the server logs it):
   * today only a project's task counter that could not be moved after its task was stored.
   */
  onBackgroundError?: (error: unknown, context: { what: string; [field: string]: unknown }) => void;
  /** The prompt optimizer's LLM (the server's LLM_* settings); null or absent → the template. */
  llm?: LlmConfig | null;
  /** Per-user budgets: pixels per task and in flight, projects, storage bytes (decision 0032). */
  budgets?: UserBudgets;
  /**
   * Told, during a project deletion, the tasks it removed — after their records are gone (so every
   * guarded write of a worker now fails) and before their events, assets and files are deleted. The
   * server cancels the attempts running in its process here and waits for them, so nothing they
   * write outlives the delete (decision 0029). A failure is reported to `onBackgroundError`.
   */
  onProjectTasksCancelled?: (projectId: string, taskIds: readonly string[]) => Promise<void>;
  /**
   * How long an authenticated request may trust a user record read before (ms, default 0: never).
   * See createUserCache: a token revoked on another process stays valid here that long at most.
   */
  userCacheMs?: number;
  /**
   * Image inputs (decision 0034): a submission's uploads are checked (owner, mask size) and seen by
   * the dedupe key through their content hashes; a new task records its uses; a project's deletion
   * removes the uploads only its tasks used. Without it, params naming uploads answer 400.
   */
  uploads?: Pick<UploadService, 'checkInputs' | 'pinInputs' | 'unpinInputs' | 'releaseProject'>;
  /**
   * What the workers draw with (its name, kind and the image inputs it honours): a submission naming
   * an input it cannot honour answers 400 naming the param, before any picture is read (issue #37).
   * Default: the built-in generator.
   */
  imageProvider?: Pick<ImageProvider, 'name' | 'kind' | 'inputs'>;
}

/** The built-in generator's capabilities (pixelate and a palette from a picture only). */
const BUILT_IN_PROVIDER: Pick<ImageProvider, 'name' | 'kind'> = { name: 'procedural', kind: 'procedural' };

export interface SubmitOptions {
  idempotencyKey?: string;
  /**
   * A kept character's task (the character service's; never a client's): stored as
   * `params.character`, the action the built-in generator draws from the rig identity (issue #40).
   */
  character?: NonNullable<TaskParams['character']>;
  /**
   * The kept character the task is made through (the character service's; never a client's): stored
   * on the task as `characterId`, answered by GET task and the task lists, and the key of the
   * character's task list (decision 0057).
   */
  characterId?: string;
}

export interface LoginContext {
  ip: string;
}

/** The client of a registration (the per-address limit and the hash gate key on it). */
export interface RegisterContext {
  ip: string;
}

export interface AssetService {
  register(input: RegisterInput, ctx?: RegisterContext): Promise<RegisterResult>;
  login(input: LoginInput, ctx: LoginContext): Promise<LoginResult>;
  authenticate(token: string | undefined | null): Promise<AuthUser>;
  me(user: AuthUser): Promise<MeResult>;
  changePassword(user: AuthUser, input: ChangePasswordInput): Promise<TokenResult>;
  listProjects(user: AuthUser, page: PageInput): Promise<ProjectList>;
  createProject(user: AuthUser, input: CreateProjectInput): Promise<Project>;
  getProject(user: AuthUser, id: string): Promise<ProjectDetail>;
  updateProject(user: AuthUser, id: string, input: UpdateProjectInput): Promise<ProjectDetail>;
  deleteProject(user: AuthUser, id: string): Promise<DeleteProjectResult>;
  listProjectTasks(user: AuthUser, id: string, page: PageInput): Promise<TaskList>;
  getStyle(user: AuthUser, id: string): Promise<Style>;
  putStyle(user: AuthUser, id: string, input: StyleInput): Promise<Style>;
  submitTask(user: AuthUser, body: GenerateInput, opts?: SubmitOptions): Promise<SubmitResult>;
  getTask(user: AuthUser, id: string): Promise<Task>;
  /** [] unless the task is completed; URL signing is the caller's job. */
  getTaskAssets(user: AuthUser, id: string): Promise<AssetRecord[]>;
  /**
   * Whether the public download may answer for an object key: a task's file only while its task
   * exists (its project was not deleted) and has completed; other keys as before.
   */
  isDownloadable(key: string): Promise<boolean>;
  /**
   * Builds a 【主题】【风格】【技术】 prompt: through the configured LLM, or from the template when there is
   * none or it fails (`source` and `fallbackReason` say which and why).
   */
  /** The sections' bodies in `language` (the caller's Accept-Language; Chinese by default). */
  optimizePrompt(input: PromptOptimizeInput, language?: 'zh' | 'en'): Promise<OptimizedPrompt>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Timestamps as ISO strings, remembered by their millisecond value: a read-heavy workload formats
 * the same createdAt/updatedAt values again and again, and Date#toISOString was the largest single
 * cost of a project list in the server's CPU profile (docs/benchmarks/server.md).
 */
const ISO_CACHE_MAX = 8192;
const isoCache = new Map<number, string>();
const iso = (d: Date): string => {
  const ms = d.getTime();
  let text = isoCache.get(ms);
  if (text === undefined) {
    text = d.toISOString(); // throws RangeError for an invalid date, as before
    if (isoCache.size >= ISO_CACHE_MAX) isoCache.delete(isoCache.keys().next().value as number);
    isoCache.set(ms, text);
  }
  return text;
};

function toAuthUser(u: UserRecord): AuthUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    tokenVersion: u.tokenVersion,
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
  };
}

const toProjectListItem = mapFrozen(function toProjectListItem(p: ProjectRecord): ProjectListItem {
  return {
    id: p.id,
    name: p.name,
    createdAt: iso(p.createdAt),
    taskCount: p.taskCount,
    lastActivityAt: iso(p.lastActivityAt),
  };
});

/** A page of the store as the list endpoint answers it (one result per frozen page, see internal/frozen.ts). */
const toProjectList = mapFrozen(function toProjectList(page: Page<ProjectRecord>): ProjectList {
  return { total: page.total, projects: page.items.map(toProjectListItem) };
});

/** A page of tasks as a task list answers it (a project's, a character's). */
export const toTaskList = mapFrozen(function toTaskList(page: Page<TaskRecord>): TaskList {
  return { total: page.total, tasks: page.items.map(toTaskListItem) };
});

const toProjectDetail = mapFrozen(function toProjectDetail(p: ProjectRecord): ProjectDetail {
  return { id: p.id, name: p.name, createdAt: iso(p.createdAt), updatedAt: iso(p.updatedAt) };
});

const toTaskListItem = mapFrozen(function toTaskListItem(t: TaskRecord): TaskListItem {
  return {
    id: t.id,
    prompt: t.prompt,
    assetType: t.assetType,
    status: t.status,
    characterId: t.characterId ?? null,
    createdAt: iso(t.createdAt),
  };
});

const toTask = mapFrozen(function toTask(t: TaskRecord): Task {
  return {
    taskId: t.id,
    projectId: t.projectId,
    prompt: t.prompt,
    assetType: t.assetType,
    taskStyle: t.taskStyle === null ? null : { ...t.taskStyle },
    params: structuredCloneParams(t.params),
    status: t.status,
    stage: t.stage,
    progress: t.progress,
    retryCount: t.retryCount,
    error: t.error,
    characterId: t.characterId ?? null,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
});

function structuredCloneParams(p: TaskRecord['params']): TaskRecord['params'] {
  const out = p.frames ? { ...p, frames: { ...p.frames } } : { ...p };
  if (p.character) out.character = { ...p.character, identity: structuredClone(p.character.identity) };
  return out;
}

/** A page request turned into skip/limit (the validator already bounds pageSize to 1-100). */
function windowOf(page: PageInput): { skip: number; limit: number } {
  const p = Number.isSafeInteger(page?.page) && page.page >= 1 ? page.page : 1;
  const size = Number.isSafeInteger(page?.pageSize) && page.pageSize >= 1 ? Math.min(page.pageSize, 100) : 20;
  const skip = (p - 1) * size;
  return { skip: Number.isSafeInteger(skip) ? skip : Number.MAX_SAFE_INTEGER, limit: size };
}

/** True for an id this package could have issued; anything else is "never issued" → 404. */
function isIssuedIdShape(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

/**
 * The domain layer: every rule of spec 000 (ownership, pagination, dedupe, task state, counters,
 * cascade, token invalidation) in one place, called by the Koa server and the msw mock alike.
 */
export function createAssetService(deps: AssetServiceDeps): AssetService {
  const { store, hasher, tokens } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  const idempotencyTtlMs = deps.idempotencyTtlMs ?? DAY_MS;
  const userCache = createUserCache(store, deps.userCacheMs ?? 0, clock);
  let dummyHash: Promise<string> | undefined;

  /** A real hash of a random password, so unknown users cost one verify like known ones. */
  function getDummyHash(): Promise<string> {
    if (!dummyHash) {
      dummyHash = hasher.hash(randomId());
      dummyHash.catch(() => {
        dummyHash = undefined;
      });
    }
    return dummyHash;
  }

  async function ownedProject(user: AuthUser, id: string): Promise<ProjectRecord> {
    if (!isIssuedIdShape(id)) throw errors.projectNotFound();
    const project = await store.projects.byId(id);
    if (!project) throw errors.projectNotFound();
    if (project.ownerId !== user.id) throw errors.projectForbidden();
    return project;
  }

  async function ownedTask(user: AuthUser, id: string): Promise<TaskRecord> {
    if (!isIssuedIdShape(id)) throw errors.taskNotFound();
    const task = await store.tasks.byId(id);
    if (!task) throw errors.taskNotFound();
    if (task.ownerId !== user.id) throw errors.taskForbidden();
    return task;
  }

  /** Runs a hash through the gate when there is one (keyed by the client). */
  function gated<T>(key: string, work: () => Promise<T>): Promise<T> {
    return deps.hashGate === undefined ? work() : deps.hashGate.run(key, work);
  }

  async function limited(limiter: RateLimiter | undefined, key: string, count: boolean): Promise<void> {
    if (!limiter) return;
    const result = count ? await limiter.hit(key) : await limiter.check(key);
    if (!result.allowed) throw errors.tooManyRequests(result.retryAfterSeconds);
  }

  /** The in-flight pixel and storage budgets of a user about to get a new task (decision 0032). */
  async function withinBudgets(user: AuthUser, pixels: number): Promise<void> {
    const maxInFlight = limitOf(deps.budgets?.userMaxPixelsInFlight);
    if (maxInFlight !== undefined) {
      const running = await store.tasks.activeByOwner(user.id, 1000);
      const held = running.reduce(
        (sum, t) => sum + taskPixels(t.assetType, t.params) + (t.inputPixels ?? 0),
        0,
      );
      if (held + pixels > maxInFlight) {
        throw errors.tooManyInFlight(10, { pixels, inFlight: held, limit: maxInFlight });
      }
    }
    const maxBytes = limitOf(deps.budgets?.userMaxStorageBytes);
    if (maxBytes !== undefined) {
      const used = await store.tasks.storedBytesByOwner(user.id);
      if (used >= maxBytes) throw errors.storageQuota({ bytes: used, limit: maxBytes });
    }
  }

  /**
   * A level's tileset task (issue #42): the caller's (403 / 404 as for any task), of this project, a
   * completed wang16 or blob47 tileset (400 参数错误 naming the field otherwise); the level takes
   * its tile size.
   */
  async function checkLevelTileset(user: AuthUser, projectId: string, params: TaskParams): Promise<void> {
    const level = params.level;
    const id = level?.tilesetTaskId;
    if (level === undefined || id === undefined) return;
    const task = isIssuedIdShape(id) ? await store.tasks.byId(id) : null;
    if (task === null) throw errors.taskNotFound();
    if (task.ownerId !== user.id) throw errors.taskForbidden();
    const refuse = (text: string, zh: string) =>
      errors.invalid([{ in: 'body', path: '/params/level/tilesetTaskId', rule: 'level', text, zh }]);
    if (task.projectId !== projectId)
      throw refuse(
        'the tileset task belongs to another project: use a tileset task of this project',
        '图块集任务属于另一个项目',
      );
    if (task.assetType !== 'tileset' || task.params.tileset === undefined)
      throw refuse(
        `task ${id} is a ${task.assetType}, not a tileset: name a tileset task`,
        '该任务不是图块集',
      );
    if (task.status !== 'completed')
      throw refuse(`the tileset task is ${task.status}: wait until it has completed`, '图块集任务尚未完成');
    if (task.params.tileset.kind === 'seamless')
      throw refuse(
        'a seamless tileset has no transitions between terrains: use a wang16 or blob47 tileset',
        '无缝图块集没有地形过渡',
      );
    level.tileSize = task.params.tileset.tileSize;
    for (const [side, n] of [
      ['columns', level.columns],
      ['rows', level.rows],
    ] as const) {
      if (n * level.tileSize > 4096) {
        throw errors.invalid([
          {
            in: 'body',
            path: `/params/level/${side}`,
            rule: 'maximum',
            limit: Math.floor(4096 / level.tileSize),
          },
        ]);
      }
    }
  }

  /** The image inputs of a submission, checked by the upload service (400 without one). */
  async function checkedInputs(user: AuthUser, params: TaskParams) {
    if (!params.image && !params.mask && !params.references && !params.paletteFrom) return null;
    if (deps.uploads === undefined) {
      throw errors.badRequest({ reason: 'this server takes no image inputs (no upload service)' });
    }
    return deps.uploads.checkInputs(user, params);
  }

  async function existingIdempotent(user: AuthUser, key: string): Promise<TaskRecord | null> {
    const task = await store.tasks.findByIdempotencyKey(user.id, key);
    if (!task) return null;
    if (clock.now().getTime() - task.createdAt.getTime() < idempotencyTtlMs) return task;
    // Expired: release the key so it can name a new task.
    await store.tasks.update(task.id, { idempotencyKey: null, updatedAt: task.updatedAt });
    return null;
  }

  return {
    async register(input, ctx) {
      // NFC; control, format, bidi and separator characters refused; unique by a case- and
      // width-insensitive key (usernames.ts, decision 0027).
      const username = normalizeIdentifier(String(input.username));
      const nameProblem = usernameProblem(username);
      if (nameProblem !== undefined) {
        const length = [...username].length;
        throw errors.invalid(
          [
            length < USERNAME_MIN_LENGTH || length > USERNAME_MAX_LENGTH
              ? {
                  in: 'body',
                  path: '/username',
                  rule: length < USERNAME_MIN_LENGTH ? 'minLength' : 'maxLength',
                  limit: length < USERNAME_MIN_LENGTH ? USERNAME_MIN_LENGTH : USERNAME_MAX_LENGTH,
                }
              : { in: 'body', path: '/username', rule: 'characters' },
          ],
          { username: nameProblem },
        );
      }
      const email =
        input.email === undefined || input.email === null ? null : normalizeIdentifier(input.email);
      const emailProblem = email === null ? undefined : identifierCharacterProblem(email);
      if (emailProblem !== undefined) {
        throw errors.invalid([{ in: 'body', path: '/email', rule: 'characters' }], { email: emailProblem });
      }
      if (await store.users.byUsernameKey(usernameKeyOf(username))) throw errors.usernameTaken();
      const ip = ctx?.ip ?? '';
      // Registrations per address, across usernames: checked before the hash, counted with it.
      await limited(deps.registerIpLimiter, `register|${ip}`, false);
      const passwordHash = await gated(`ip|${ip}`, async () => {
        if (deps.registerIpLimiter) await deps.registerIpLimiter.hit(`register|${ip}`);
        return hasher.hash(input.password);
      });
      for (let attempt = 0; ; attempt++) {
        const id = await store.users.nextId();
        const now = clock.now();
        try {
          await store.users.insert({
            id,
            username,
            email,
            passwordHash,
            tokenVersion: 0,
            createdAt: now,
            updatedAt: now,
          });
          return { id, username };
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          if (err.field === 'email') throw errors.emailTaken(err);
          if (err.field === 'username') throw errors.usernameTaken(err);
          // The id itself collided (a counter shared by processes on a store without atomic $inc):
          // draw another one.
          if (attempt >= 4) throw errors.internal(err);
        }
      }
    },

    async login(input, ctx) {
      const username = normalizeIdentifier(String(input.username));
      const key = usernameKeyOf(username);
      // Failures count per name (by its key, so ALICE and alice are one) and address.
      const ip = ctx?.ip ?? '';
      const limitKey = `${key}|${ip}`;
      const ipKey = `login|${ip}`;
      await limited(deps.loginLimiter, limitKey, false);
      // Failures per address across usernames: a flood of made-up names stops here, unhashed.
      await limited(deps.loginIpLimiter, ipKey, false);
      // The exact name first (a user stored before keys whose name shares another's key is found
      // only so), else the one user with the same key: logins are case-insensitive.
      const user = (await store.users.byUsername(username)) ?? (await store.users.byUsernameKey(key));
      const valid = await gated(`ip|${ip}`, async () =>
        user
          ? hasher.verify(input.password, user.passwordHash)
          : (await hasher.verify(input.password, await getDummyHash())) && false,
      );
      if (!user || !valid) {
        if (deps.loginLimiter) await deps.loginLimiter.hit(limitKey);
        if (deps.loginIpLimiter) await deps.loginIpLimiter.hit(ipKey);
        deps.hashGate?.failed(`ip|${ip}`);
        throw errors.badCredentials();
      }
      if (deps.loginLimiter) await deps.loginLimiter.reset(limitKey);
      // This address logs in: its hashes go first while others flood (the gate's trusted lane).
      deps.hashGate?.succeeded(`ip|${ip}`);
      const issued = await tokens.issue({ sub: user.id, tv: user.tokenVersion });
      return {
        token: issued.token,
        expiresIn: issued.expiresIn,
        user: {
          id: user.id,
          username: user.username,
          email: user.email,
          createdAt: iso(user.createdAt),
          updatedAt: iso(user.updatedAt),
        },
      };
    },

    async authenticate(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 8192)
        throw errors.unauthenticated();
      let claims: Awaited<ReturnType<TokenService['verify']>>;
      try {
        claims = await tokens.verify(token);
      } catch {
        throw errors.unauthenticated();
      }
      if (
        !claims ||
        !Number.isSafeInteger(claims.sub) ||
        claims.sub < 1 ||
        !Number.isSafeInteger(claims.tv) ||
        claims.tv < 0
      ) {
        throw errors.unauthenticated();
      }
      const user = await userCache.forToken(claims.sub, claims.tv);
      if (!user || user.tokenVersion !== claims.tv) throw errors.unauthenticated();
      return toAuthUser(user);
    },

    async me(user) {
      const fresh = await store.users.byId(user.id);
      if (!fresh) throw errors.unauthenticated();
      return {
        id: String(fresh.id),
        username: fresh.username,
        email: fresh.email,
        createdAt: iso(fresh.createdAt),
      };
    },

    async changePassword(user, input) {
      const limitKey = `password|${user.id}`;
      await limited(deps.loginLimiter, limitKey, false);
      const fresh = await store.users.byId(user.id);
      if (!fresh || fresh.tokenVersion !== user.tokenVersion) throw errors.unauthenticated();
      const gateKey = `user|${user.id}`;
      if (!(await gated(gateKey, () => hasher.verify(input.oldPassword, fresh.passwordHash)))) {
        if (deps.loginLimiter) await deps.loginLimiter.hit(limitKey);
        throw errors.wrongOldPassword();
      }
      if (deps.loginLimiter) await deps.loginLimiter.reset(limitKey);
      const hash = await gated(gateKey, () => hasher.hash(input.newPassword));
      const tokenVersion = fresh.tokenVersion + 1;
      // A compare-and-swap on the version read above: of simultaneous changes made with the same
      // token exactly one lands; the others find their token revoked by it.
      const changed = await store.users.updatePassword(fresh.id, hash, tokenVersion, clock.now());
      userCache.forget(fresh.id);
      if (!changed) throw errors.unauthenticated();
      return tokens.issue({ sub: fresh.id, tv: tokenVersion });
    },

    async listProjects(user, page) {
      return toProjectList(await store.projects.listByOwner(user.id, windowOf(page)));
    },

    async createProject(user, input) {
      const maxProjects = limitOf(deps.budgets?.userMaxProjects);
      if (maxProjects !== undefined) {
        // One count; simultaneous creations may pass it together (a soft cap, decision 0032).
        const { total } = await store.projects.listByOwner(user.id, { skip: 0, limit: 1 });
        if (total >= maxProjects) throw errors.projectLimit({ projects: total, limit: maxProjects });
      }
      const now = clock.now();
      const record: ProjectRecord = {
        id: ids.id(),
        ownerId: user.id,
        name: input.name,
        style: { ...(input.style ?? {}) },
        taskCount: 0,
        lastActivityAt: now,
        createdAt: now,
        updatedAt: now,
      };
      await store.projects.insert(record);
      return {
        id: record.id,
        name: record.name,
        style: { kvPairs: { ...record.style } },
        createdAt: iso(now),
        taskCount: 0,
        lastActivityAt: iso(now),
      };
    },

    async getProject(user, id) {
      return toProjectDetail(await ownedProject(user, id));
    },

    async updateProject(user, id, input) {
      await ownedProject(user, id);
      const updated = await store.projects.update(id, { name: input.name, updatedAt: clock.now() });
      if (!updated) throw errors.projectNotFound();
      return toProjectDetail(updated);
    },

    async deleteProject(user, id) {
      await ownedProject(user, id);
      // The project goes first, so it disappears at once; its dependents follow. A submission racing
      // with the delete notices the missing project (touch → false) and removes its own task.
      await store.projects.delete(id);
      const taskIds = await store.tasks.idsByProject(id);
      // Then the tasks: from here every guarded write of a worker running one fails (it stops), and
      // no worker can claim them. Running attempts are cancelled before their outputs are deleted,
      // so what they were writing is removed with the rest (decision 0029).
      await store.tasks.deleteByProject(id);
      if (deps.onProjectTasksCancelled !== undefined && taskIds.length > 0) {
        await deps.onProjectTasksCancelled(id, taskIds).catch((error: unknown) => {
          deps.onBackgroundError?.(error, {
            what: 'cancelling the tasks of a deleted project',
            projectId: id,
          });
        });
      }
      // Its characters (issue #40): their tasks went with the project's tasks above.
      await store.characters?.deleteByProject(id);
      await store.events.deleteByTask(taskIds);
      await store.claims.deleteByTask(taskIds);
      await deps.uploads?.releaseProject(id).catch((error: unknown) => {
        deps.onBackgroundError?.(error, {
          what: 'releasing the uploads of a deleted project',
          projectId: id,
        });
      });
      const deletedKeys = await store.assets.deleteByProject(id);
      return { deletedKeys };
    },

    async isDownloadable(key) {
      // Generated files live under their task: they are downloadable once that task completed, and
      // never after its project was deleted (whatever a stopped run left behind).
      // Uploads are inputs, never downloads (decision 0034).
      if (key.startsWith('users/')) return false;
      const match = /^projects\/([^/]+)\/tasks\/([^/]+)\//.exec(key);
      if (match === null) return true;
      const [, projectId, taskId] = match as unknown as [string, string, string];
      if (!isIssuedIdShape(taskId)) return false;
      const task = await store.tasks.byId(taskId);
      return task !== null && task.projectId === projectId && task.status === 'completed';
    },

    async listProjectTasks(user, id, page) {
      await ownedProject(user, id);
      return toTaskList(await store.tasks.listByProject(id, windowOf(page)));
    },

    async getStyle(user, id) {
      const project = await ownedProject(user, id);
      return { kvPairs: { ...project.style } };
    },

    async putStyle(user, id, input) {
      await ownedProject(user, id);
      const updated = await store.projects.update(id, {
        style: { ...input.kvPairs },
        updatedAt: clock.now(),
      });
      if (!updated) throw errors.projectNotFound();
      return { kvPairs: { ...updated.style } };
    },

    async submitTask(user, body, opts = {}) {
      const prompt = body?.prompt;
      if (typeof prompt !== 'string' || prompt.trim() === '') throw errors.emptyPrompt();
      await limited(deps.generateLimiter, String(user.id), false);
      const projectId = body.projectId;
      if (!isIssuedIdShape(projectId)) throw errors.projectForbidden();
      const project = await store.projects.byId(projectId);
      if (!project || project.ownerId !== user.id) throw errors.projectForbidden();

      const idempotencyKey = typeof opts.idempotencyKey === 'string' ? opts.idempotencyKey : null;
      const characterId = typeof opts.characterId === 'string' ? opts.characterId : undefined;
      if (idempotencyKey !== null) {
        const previous = await existingIdempotent(user, idempotencyKey);
        if (previous) return { taskId: previous.id, created: false };
      }

      const params = normalizeParams(body.assetType, body.params);
      if (opts.character !== undefined && (body.assetType === 'sprite' || body.assetType === 'animation'))
        params.character = opts.character;
      await checkLevelTileset(user, projectId, params);
      const maxTaskPixels = limitOf(deps.budgets?.taskMaxPixels);
      const drawn = taskPixels(body.assetType, params);
      if (maxTaskPixels !== undefined && drawn > maxTaskPixels) {
        throw errors.taskTooLarge({ pixels: drawn, limit: maxTaskPixels });
      }
      // An input the workers' provider cannot honour is refused now, naming it (issue #37).
      const refusal = submissionRefusal(deps.imageProvider ?? BUILT_IN_PROVIDER, {
        assetType: body.assetType,
        prompt,
        params,
        inputs: params,
      });
      if (refusal !== null) {
        throw errors.invalid(
          [
            {
              in: 'body',
              path: `/${refusal.param.replaceAll('.', '/')}`,
              rule: 'image',
              zh: '当前的图像生成器无法处理此输入',
              text: refusal.why,
            },
          ],
          { refusal },
        );
      }
      const taskStyle = body.taskStyle ? { ...body.taskStyle } : null;
      const inputs = await checkedInputs(user, params);
      // The pictures it names are decoded by a worker: they count beside what it draws.
      const inputPixels = inputs?.pixels ?? 0;
      const pixels = drawn + inputPixels;
      if (maxTaskPixels !== undefined && pixels > maxTaskPixels) {
        throw errors.taskTooLarge({ pixels, inputPixels, limit: maxTaskPixels });
      }
      const dedupeKey = await sha256Hex(
        dedupeMaterial({
          ownerId: user.id,
          projectId,
          prompt,
          assetType: body.assetType,
          params,
          taskStyle,
          ...(inputs ? { inputs: inputs.hashes } : {}),
          ...(characterId !== undefined ? { characterId } : {}),
        }),
      );

      // The task's id is chosen now: its uploads are pinned under it before it is stored (decision 0043).
      const taskId = ids.id();
      const uploadIds = inputs?.uploadIds ?? [];
      if (uploadIds.length > 0)
        await deps.uploads?.pinInputs({ id: taskId, projectId, ownerId: user.id }, uploadIds);
      let created = false;
      try {
        for (let attempt = 0; attempt < 5; attempt++) {
          const active = await store.tasks.findActiveByDedupeKey(user.id, dedupeKey);
          if (active) return { taskId: active.id, created: false };
          // A new task: within the user's share of the workers and of the storage.
          if (attempt === 0) await withinBudgets(user, pixels);
          const now = clock.now();
          const record: TaskRecord = {
            id: taskId,
            ownerId: user.id,
            projectId,
            prompt,
            assetType: body.assetType,
            taskStyle,
            params,
            status: 'running',
            stage: 'prompt_builder',
            progress: 0,
            retryCount: 0,
            error: null,
            dedupeKey,
            idempotencyKey,
            lastSeq: 0,
            lease: null,
            attempts: 0,
            ...(inputPixels > 0 ? { inputPixels } : {}),
            ...(characterId !== undefined ? { characterId } : {}),
            createdAt: now,
            updatedAt: now,
          };
          try {
            await store.tasks.insert(record);
            created = true;
          } catch (err) {
            if (!(err instanceof DuplicateKeyError)) throw err;
            if (err.field === 'idempotencyKey' && idempotencyKey !== null) {
              const winner = await store.tasks.findByIdempotencyKey(user.id, idempotencyKey);
              if (winner) return { taskId: winner.id, created: false };
            }
            // An identical task became active meanwhile (or finished between the two reads): look again.
            continue;
          }
          if (deps.generateLimiter) await deps.generateLimiter.hit(String(user.id));
          // The task is stored and will run: from here the call succeeds (an error answer would make a
          // retrying client submit it twice). Only the project's counter may lag if the store fails now.
          let touched: boolean;
          try {
            touched =
              store.projects.countNewTask === undefined
                ? await store.projects.touch(projectId, { taskCountDelta: 1, lastActivityAt: now })
                : await store.projects.countNewTask(projectId, now);
          } catch (error) {
            deps.onBackgroundError?.(error, {
              what: 'project task counter not moved',
              projectId,
              taskId: record.id,
            });
            return { taskId: record.id, created: true };
          }
          if (!touched) {
            await store.tasks.deleteByProject(projectId);
            throw errors.projectForbidden();
          }
          return { taskId: record.id, created: true };
        }
      } finally {
        // No task was stored under the id: its pins are given back (a duplicate, a refusal, a failure).
        if (!created && uploadIds.length > 0) {
          await deps.uploads?.unpinInputs(taskId, uploadIds).catch((error: unknown) => {
            deps.onBackgroundError?.(error, { what: 'upload pins not given back', taskId });
          });
        }
      }
      throw new AssetloomError(500, MESSAGES.internal, {
        details: { reason: 'dedupe insert kept colliding', dedupeKey },
      });
    },

    async getTask(user, id) {
      return toTask(await ownedTask(user, id));
    },

    async getTaskAssets(user, id) {
      const task = await ownedTask(user, id);
      if (task.status !== 'completed') return [];
      return store.assets.listByTask(task.id);
    },

    optimizePrompt(input, language) {
      return optimizePrompt(
        {
          tags: input.tags,
          assetType: input.assetType,
          ...(typeof input.prompt === 'string' ? { prompt: input.prompt } : {}),
          ...(typeof input.userNote === 'string' ? { userNote: input.userNote } : {}),
          ...(language === 'en' ? { language } : {}),
        },
        { llm: deps.llm ?? null },
      );
    },
  };
}
