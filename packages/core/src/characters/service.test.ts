import { describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../embedded.js';
import type { CharacterRecord } from './records.js';
import { createCharacterService } from './service.js';

const character = (uploadId: string | null): CharacterRecord => ({
  id: 'c1',
  ownerId: 1,
  projectId: 'p1',
  name: 'Ada',
  source: uploadId === null ? 'prompt' : 'upload',
  uploadId,
  identity: {
    provider: 'comfyui',
    prompt: 'a knight',
    seed: 42,
    style: { palette: 'sweetie16' },
    size: 64,
    palette: 'sweetie16',
    references: uploadId === null ? [] : [uploadId],
    rig: null,
  },
  baseTaskId: 't0',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

const serviceFor = (kind: 'model' | 'procedural') =>
  createCharacterService({
    store: createEmbeddedStore(),
    service: {
      getStyle: () => Promise.reject(new Error('not called')),
      submitTask: () => Promise.reject(new Error('not called')),
    },
    imageProvider:
      kind === 'model' ? { name: 'comfyui', kind: 'model' } : { name: 'procedural', kind: 'procedural' },
  });

describe('the task request a character is drawn with', () => {
  it('sends a model provider its reference pictures with the same seed, prompt, style and size', () => {
    const request = serviceFor('model').taskRequest(character('up1'), {
      action: 'a victory dance',
      directions: 8,
      frames: 6,
    });
    expect(request).toEqual({
      projectId: 'p1',
      prompt: 'a knight, a victory dance',
      assetType: 'animation',
      taskStyle: { palette: 'sweetie16' },
      params: {
        resolution: 64,
        seed: 42,
        frames: { directions: 8, framesPerDirection: 6 },
        references: [{ uploadId: 'up1' }],
      },
    });
  });

  it('moves an uploaded sprite as it is on the built-in generator, and says a named action in words it reads', () => {
    const service = serviceFor('procedural');
    expect(
      service.taskRequest(character('up1'), { action: 'walk', directions: 1, frames: 4 }).params,
    ).toEqual({
      resolution: 64,
      seed: 42,
      frames: { directions: 1, framesPerDirection: 4 },
      image: { uploadId: 'up1', strength: 0 },
    });
    const turn = service.taskRequest(character(null), { directions: 4, frames: 1 });
    expect(turn).toMatchObject({
      prompt: 'a knight',
      assetType: 'sprite',
      params: { seed: 42, resolution: 64 },
    });
    expect(service.taskRequest(character(null), { action: 'death', directions: 4, frames: 6 }).prompt).toBe(
      'a knight, dying',
    );
  });
});

describe('a character kept with the built-in rig (decision 0055)', () => {
  const rig = { rig: 'figure', version: 1, kind: 'person.knight', palette: { skin: ['#593022'] } };
  function rigged(identity: (r: { prompt: string }) => Record<string, unknown> | null) {
    const submitted: Array<{ body: unknown; opts: unknown }> = [];
    const service = createCharacterService({
      store: createEmbeddedStore(),
      service: {
        getStyle: async () => ({ kvPairs: { palette: 'sweetie16' } }) as never,
        submitTask: async (_user, body, opts) => {
          submitted.push({ body, opts });
          return { taskId: `t${submitted.length}`, created: true };
        },
      },
      ids: { id: () => `c${Math.random().toString(36).slice(2, 10)}` } as never,
      rigIdentity: identity,
    });
    return { service, submitted };
  }
  const user = { id: 1, username: 'ada', email: null, tokenVersion: 0, createdAt: '' } as never;

  it('stores the rig identity and sends it with the named action to every task', async () => {
    const { service, submitted } = rigged(() => rig);
    const made = await service.create(user, 'p1', { name: 'Ada', prompt: 'a knight', seed: 5, size: 32 });
    expect(made.identity.rig).toEqual(rig);
    expect(submitted[0]!.opts).toEqual({
      characterId: made.id,
      character: { characterId: made.id, action: 'idle', identity: rig },
    });
    await service.animate(user, made.id, { action: 'cast', directions: 8, framesPerDirection: 6 });
    // the action's words label the task; the provider draws the identity, never reading them
    expect(submitted[1]!.body).toMatchObject({ prompt: 'a knight, casting', assetType: 'animation' });
    expect(submitted[1]!.opts).toEqual({
      characterId: made.id,
      character: { characterId: made.id, action: 'cast', identity: rig },
    });
    await service.rotate(user, made.id, { directions: 8 });
    expect(submitted[2]!.opts).toMatchObject({ characterId: made.id, character: { action: 'idle' } });
  });

  it('refuses a prompt the rig does not draw as a person, naming it and what to do (400 in the envelope)', async () => {
    const { service, submitted } = rigged(() => null);
    const refused = service.create(user, 'p1', { name: 'Tom', prompt: 'a cat' });
    await expect(refused).rejects.toMatchObject({
      code: 400,
      message: '参数错误',
      fields: [
        {
          path: '/prompt',
          rule: 'rig',
          text: expect.stringMatching(/"a cat" is not one it rigs.*POST \/api\/v1\/generate/),
        },
      ],
    });
    expect(submitted).toHaveLength(0);
  });
});
