import type { ImageProvider } from '@assetloom/pipeline';
import { ID_PATTERN, randomIds, systemClock } from '../defaults.js';
import { AssetloomError, errors } from '../errors.js';
import type { Clock, IdGenerator } from '../ports.js';
import { type AssetService, type SubmitOptions, toTaskList } from '../service.js';
import type { Page, Store } from '../store.js';
import type { AuthUser, GenerateInput, PageInput, StyleMap, TaskList } from '../types.js';
import type { UploadService } from '../uploads/service.js';
import type { CharacterIdentityRecord, CharacterRecord, CharacterSize } from './records.js';

/** The messages of the character operations (openapi/asset-api.yaml, issue #40). */
export const CHARACTER_MESSAGES = {
  characterForbidden: '无权访问该角色',
  characterNotFound: '角色不存在',
} as const;

export const characterErrors = {
  forbidden: () => new AssetloomError(403, CHARACTER_MESSAGES.characterForbidden),
  notFound: () => new AssetloomError(404, CHARACTER_MESSAGES.characterNotFound),
} as const;

/** The actions the built-in generator animates by name (a model provider takes any text too). */
export const CHARACTER_ACTIONS = ['idle', 'walk', 'run', 'jump', 'attack', 'cast', 'hurt', 'death'] as const;
export type NamedCharacterAction = (typeof CHARACTER_ACTIONS)[number];

/** How an action is said in the task's prompt (the words the prompt reader knows). */
const ACTION_WORDS: Record<NamedCharacterAction, string> = {
  idle: 'idle',
  walk: 'walking',
  run: 'running',
  jump: 'jumping',
  attack: 'attacking',
  cast: 'casting',
  hurt: 'hurt',
  death: 'dying',
};

/** A character as the API answers it (the contract's `Character`). */
export interface CharacterView {
  id: string;
  projectId: string;
  name: string;
  source: 'prompt' | 'upload';
  uploadId: string | null;
  identity: CharacterIdentityRecord;
  baseTaskId: string;
  createdAt: string;
  updatedAt: string;
}

export interface CharacterList {
  total: number;
  characters: CharacterView[];
}

export interface CreateCharacterInput {
  name: string;
  prompt?: string;
  uploadId?: string;
  style?: StyleMap;
  size?: CharacterSize;
  seed?: number;
}

export interface AnimateCharacterInput {
  action: string;
  directions?: 1 | 4 | 8;
  framesPerDirection?: number;
}

export interface RotateCharacterInput {
  directions?: 4 | 8;
}

/** A submitted task: its id, and whether it is new (the worker is told then). */
export interface CharacterTask {
  taskId: string;
  created: boolean;
}

export interface CharacterService {
  create(
    user: AuthUser,
    projectId: string,
    input: CreateCharacterInput,
  ): Promise<CharacterView & { task: CharacterTask }>;
  list(user: AuthUser, projectId: string, page: PageInput): Promise<CharacterList>;
  get(user: AuthUser, id: string): Promise<CharacterView>;
  rename(user: AuthUser, id: string, name: string): Promise<CharacterView>;
  delete(user: AuthUser, id: string): Promise<void>;
  animate(user: AuthUser, id: string, input: AnimateCharacterInput): Promise<CharacterTask>;
  rotate(user: AuthUser, id: string, input: RotateCharacterInput): Promise<CharacterTask>;
  /**
   * The tasks made through the character (its base view, animate and rotate tasks), newest first,
   * paged like a project's task list (decision 0057). Only its owner's (403 / 404 as `get`).
   */
  tasks(user: AuthUser, id: string, page: PageInput): Promise<TaskList>;
  /**
   * The task request an action of the character is drawn with: its stored prompt, seed, style and
   * size (and its reference pictures on a model provider), so two tasks draw the same character.
   */
  taskRequest(
    character: CharacterRecord,
    task: { action?: string; directions: 1 | 4 | 8; frames: number },
  ): GenerateInput;
}

export interface CharacterServiceDeps {
  store: Store;
  /** Ownership of projects and the task machinery (dedupe, budgets, rate limit, refusals). */
  service: Pick<AssetService, 'getStyle' | 'submitTask'>;
  /** An upload named by a character is checked through it (403 / 404 as a generation's inputs). */
  uploads?: Pick<UploadService, 'get'>;
  /** What the workers draw with; default the built-in generator. */
  imageProvider?: Pick<ImageProvider, 'name' | 'kind'>;
  clock?: Clock;
  ids?: IdGenerator;
  /** A seed for a character that names none (default: random 32 bits). */
  seed?: () => number;
  /**
   * The built-in generator's rig (its `characterIdentity`): a character made from a prompt on a
   * procedural provider stores the identity it returns, and its tasks draw from it (decision 0055);
   * null means the prompt's subject is not a person or humanoid the rig draws (refused, 400).
   * Absent: characters are kept without a rig (today's route through the prompt).
   */
  rigIdentity?: (request: {
    prompt: string;
    seed: number;
    resolution: number;
    style: StyleMap;
  }) => Record<string, unknown> | null;
}

const iso = (d: Date) => d.toISOString();

function toView(c: CharacterRecord): CharacterView {
  return {
    id: c.id,
    projectId: c.projectId,
    name: c.name,
    source: c.source,
    uploadId: c.uploadId,
    identity: {
      ...c.identity,
      style: { ...c.identity.style },
      references: [...c.identity.references],
      rig: c.identity.rig === null ? null : structuredClone(c.identity.rig),
    },
    baseTaskId: c.baseTaskId,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

function windowOf(page: PageInput): { skip: number; limit: number } {
  const p = Number.isSafeInteger(page?.page) && page.page >= 1 ? page.page : 1;
  const size = Number.isSafeInteger(page?.pageSize) && page.pageSize >= 1 ? Math.min(page.pageSize, 100) : 20;
  const skip = (p - 1) * size;
  return { skip: Number.isSafeInteger(skip) ? skip : Number.MAX_SAFE_INTEGER, limit: size };
}

function randomSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0] as number;
}

/** Style maps hold at most 32 pairs (the contract's StyleMap). */
const MAX_STYLE_PAIRS = 32;

/**
 * Kept characters (issue #40): their identity stored once, and every action or turn
 * of one a task through the asset service's submission (ownership, dedupe, budgets, rate limit,
 * the provider's refusals by name), drawn with that identity.
 */
export function createCharacterService(deps: CharacterServiceDeps): CharacterService {
  const { store, service } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  const provider = deps.imageProvider ?? { name: 'procedural', kind: 'procedural' };
  const isModel = provider.kind === 'model';

  function repository() {
    if (store.characters === undefined) throw errors.routeNotFound();
    return store.characters;
  }

  async function owned(user: AuthUser, id: string): Promise<CharacterRecord> {
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw characterErrors.notFound();
    const character = await repository().byId(id);
    if (character === null) throw characterErrors.notFound();
    if (character.ownerId !== user.id) throw characterErrors.forbidden();
    return character;
  }

  /** An uploaded picture is one view: the built-in generator cannot draw its other directions. */
  function cannotTurnUpload(): AssetloomError {
    return errors.invalid(
      [
        {
          in: 'body',
          path: '/directions',
          rule: 'image',
          zh: '内置生成器无法把上传的图片转到其他方向，请使用模型生成器（ComfyUI 或 OpenAI）',
          text: `the ${provider.name} generator cannot turn an uploaded picture to other directions; a model provider (IMAGE_PROVIDER=comfyui or openai) turns it from the picture as its reference`,
        },
      ],
      { reason: 'turning an upload needs a model provider' },
    );
  }

  /** A rigged character's task: its identity and action, drawn from them. */
  function characterParam(
    character: CharacterRecord,
    action: string | undefined,
  ): NonNullable<SubmitOptions['character']> | undefined {
    const rig = character.identity.rig;
    if (rig === null || isModel) return undefined;
    return { characterId: character.id, action: action ?? 'idle', identity: structuredClone(rig) };
  }

  /** A prompt the rig cannot keep as a character: 400 naming the prompt and what to do instead. */
  function notRigged(prompt: string): AssetloomError {
    return errors.invalid(
      [
        {
          in: 'body',
          path: '/prompt',
          rule: 'rig',
          zh: `内置生成器只能把人物或人形角色（骑士、哥布林、骷髅……）保存为角色，无法绑定骨骼：“${prompt}”；请用 /api/v1/generate 生成精灵或动画，或使用模型生成器`,
          text: `the ${provider.name} generator keeps people and humanoids (a knight, a goblin, a skeleton) as characters on its rig, and "${prompt}" is not one it rigs; draw it with POST /api/v1/generate as a sprite or an animation, or use a model provider (IMAGE_PROVIDER=comfyui or openai)`,
        },
      ],
      { reason: 'the subject is not a person or humanoid the built-in rig draws' },
    );
  }

  function taskRequest(
    character: CharacterRecord,
    task: { action?: string; directions: 1 | 4 | 8; frames: number },
  ): GenerateInput {
    const { identity } = character;
    const words =
      task.action === undefined
        ? ''
        : ((ACTION_WORDS as Record<string, string | undefined>)[task.action] ?? task.action);
    const upload = character.uploadId;
    const params: NonNullable<GenerateInput['params']> = {
      resolution: identity.size,
      frames: { directions: task.directions, framesPerDirection: task.frames },
      seed: identity.seed,
    };
    // A model provider is sent the character's pictures as references (it redraws from them); the
    // built-in generator moves an uploaded sprite as it is (strength 0: its model-free motions).
    if (isModel && identity.references.length > 0) {
      params.references = identity.references.map((uploadId) => ({ uploadId }));
    } else if (upload !== null) {
      params.image = { uploadId: upload, strength: 0 };
    }
    return {
      projectId: character.projectId,
      prompt: words === '' ? identity.prompt : `${identity.prompt}, ${words}`,
      assetType: task.action === undefined ? 'sprite' : 'animation',
      taskStyle: { ...identity.style },
      params,
    };
  }

  /** Every task of a character names it (decision 0057); a rigged one's also draws from its rig. */
  function withCharacter(character: CharacterRecord, action: string | undefined): SubmitOptions {
    const param = characterParam(character, action);
    return param === undefined
      ? { characterId: character.id }
      : { characterId: character.id, character: param };
  }

  return {
    taskRequest,

    async create(user, projectId, input) {
      const repo = repository();
      const projectStyle = await service.getStyle(user, projectId);
      const prompt = typeof input.prompt === 'string' ? input.prompt : undefined;
      const uploadId = typeof input.uploadId === 'string' ? input.uploadId : undefined;
      if (prompt === undefined && uploadId === undefined) {
        throw errors.invalid([{ in: 'body', path: '/prompt', rule: 'required' }], {
          reason: 'a character needs a prompt or an uploadId',
        });
      }
      if (uploadId !== undefined) {
        if (deps.uploads === undefined) {
          throw errors.badRequest({ reason: 'this server takes no image inputs (no upload service)' });
        }
        await deps.uploads.get(user, uploadId);
      }
      const style: StyleMap = { ...projectStyle.kvPairs, ...(input.style ?? {}) };
      if (Object.keys(style).length > MAX_STYLE_PAIRS) {
        throw errors.invalid(
          [{ in: 'body', path: '/style', rule: 'maxProperties', limit: MAX_STYLE_PAIRS }],
          {
            reason: 'the project style and the character style together hold more than 32 pairs',
          },
        );
      }
      const seed = input.seed ?? (deps.seed ?? randomSeed)();
      const size = input.size ?? 64;
      // the built-in rig's identity, made once (a prompt's character on a procedural provider)
      let rig: Record<string, unknown> | null = null;
      if (!isModel && uploadId === undefined && prompt !== undefined && deps.rigIdentity !== undefined) {
        rig = deps.rigIdentity({ prompt, seed, resolution: size, style });
        if (rig === null) throw notRigged(prompt);
      }
      const now = clock.now();
      const character: CharacterRecord = {
        id: ids.id(),
        ownerId: user.id,
        projectId,
        name: input.name,
        source: uploadId === undefined ? 'prompt' : 'upload',
        uploadId: uploadId ?? null,
        identity: {
          provider: provider.name,
          prompt: prompt ?? input.name,
          seed,
          style,
          size,
          palette: typeof style.palette === 'string' ? style.palette : null,
          references: uploadId === undefined ? [] : [uploadId],
          rig,
        },
        baseTaskId: '',
        createdAt: now,
        updatedAt: now,
      };
      // The base view: one direction, one frame, drawn with the identity (a picture to show).
      const base = taskRequest(character, { directions: 1, frames: 1 });
      // An upload is pixelated as it is for its base view, whatever the provider (strength 0).
      if (uploadId !== undefined) {
        delete base.params?.references;
        if (base.params) base.params.image = { uploadId, strength: 0 };
      }
      const task = await service.submitTask(user, base, withCharacter(character, undefined));
      character.baseTaskId = task.taskId;
      await repo.insert(character);
      return { ...toView(character), task };
    },

    async list(user, projectId, page) {
      const repo = repository();
      // ownership of the project (404 / 403), as its task list
      await service.getStyle(user, projectId);
      const found: Page<CharacterRecord> = await repo.listByProject(projectId, windowOf(page));
      return { total: found.total, characters: found.items.map(toView) };
    },

    async get(user, id) {
      return toView(await owned(user, id));
    },

    async rename(user, id, name) {
      await owned(user, id);
      const renamed = await repository().rename(id, name, clock.now());
      if (renamed === null) throw characterErrors.notFound();
      return toView(renamed);
    },

    async delete(user, id) {
      await owned(user, id);
      await repository().delete(id);
    },

    async animate(user, id, input) {
      const character = await owned(user, id);
      const action = input.action;
      if (!isModel && !(CHARACTER_ACTIONS as readonly string[]).includes(action)) {
        throw errors.invalid(
          [{ in: 'body', path: '/action', rule: 'enum', allowed: [...CHARACTER_ACTIONS] }],
          {
            reason: `the ${provider.name} generator animates named actions only; free text needs a model provider`,
          },
        );
      }
      const directions = input.directions ?? 4;
      if (!isModel && character.uploadId !== null && directions > 1) throw cannotTurnUpload();
      const request = taskRequest(character, {
        action,
        directions,
        frames: input.framesPerDirection ?? 6,
      });
      return service.submitTask(user, request, withCharacter(character, action));
    },

    async rotate(user, id, input) {
      const character = await owned(user, id);
      if (!isModel && character.uploadId !== null) throw cannotTurnUpload();
      return service.submitTask(
        user,
        taskRequest(character, { directions: input.directions ?? 4, frames: 1 }),
        withCharacter(character, undefined),
      );
    },

    async tasks(user, id, page) {
      await owned(user, id);
      return toTaskList(await deps.store.tasks.listByCharacter(id, windowOf(page)));
    },
  };
}
