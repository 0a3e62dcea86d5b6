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
