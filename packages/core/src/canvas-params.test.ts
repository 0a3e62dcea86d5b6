import { assetApiDocument } from '@assetloom/openapi';
import { PARAM_LIMITS } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { fakeHasher, fakeTokens, makeTaskRecord, steppingClock } from '../test/fakes.js';
import { createEmbeddedStore } from './embedded.js';
import { AssetloomError } from './errors.js';
import { docToTask, taskToDoc } from './internal/documents.js';
import { CANVAS_LIMITS, dedupeMaterial, normalizeParams } from './params.js';
import { createAssetService } from './service.js';
import type { AssetType, GenerateParamsInput, TaskParams } from './types.js';
import { createRequestValidator } from './validation.js';

// params.width / params.height (issue #28): a canvas of its own for backgrounds and ui pieces.

type Range = { minimum?: number; maximum?: number };
const canvasEdge = (assetApiDocument.components.schemas as Record<string, Range>).CanvasEdge;

/** Throws → the AssetloomError it threw; returns → undefined. */
function thrown(f: () => unknown): AssetloomError | undefined {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(AssetloomError);
    return error as AssetloomError;
  }
  return undefined;
}

describe('params.width / params.height: limits', () => {
  it('are the contract’s CanvasEdge, in core and in the pipeline’s generated copy', () => {
    expect(CANVAS_LIMITS).toEqual({ min: canvasEdge?.minimum, max: canvasEdge?.maximum });
    expect(CANVAS_LIMITS).toEqual({ min: 16, max: 1024 });
    expect(PARAM_LIMITS.canvas).toEqual(CANVAS_LIMITS);
  });
});

describe('normalizeParams: the canvas', () => {
  const accepted: [
    string,
    { assetType: AssetType; given: GenerateParamsInput | undefined; want: TaskParams },
  ][] = [
    [
      'background, nothing given: resolution square, no width/height stored',
      {
        assetType: 'background',
        given: undefined,
        want: { resolution: 64, format: 'spritesheet' },
      },
    ],
    [
      'background 320 × 180',
      {
        assetType: 'background',
        given: { width: 320, height: 180 },
        want: { resolution: 64, format: 'spritesheet', width: 320, height: 180 },
      },
    ],
    [
      'ui 480 × 270',
      {
        assetType: 'ui',
        given: { width: 480, height: 270 },
        want: { resolution: 64, format: 'spritesheet', width: 480, height: 270 },
      },
    ],
    [
      'background, width only: the height is the default resolution',
      {
        assetType: 'background',
        given: { width: 320 },
        want: { resolution: 64, format: 'spritesheet', width: 320, height: 64 },
      },
    ],
    [
      'background, width and resolution: the height is the resolution',
      {
        assetType: 'background',
        given: { width: 320, resolution: 180 },
        want: { resolution: 180, format: 'spritesheet', width: 320, height: 180 },
      },
    ],
    [
      'ui, height only: the width is the resolution',
      {
        assetType: 'ui',
        given: { height: 48, resolution: 128 },
        want: { resolution: 128, format: 'spritesheet', width: 128, height: 48 },
      },
    ],
    [
      'the bounds themselves',
      {
        assetType: 'background',
        given: { width: 16, height: 1024 },
        want: { resolution: 64, format: 'spritesheet', width: 16, height: 1024 },
      },
    ],
    [
      'frames stay ignored for a background with a canvas',
      {
        assetType: 'background',
        given: { width: 320, height: 180, frames: { directions: 8 } },
        want: { resolution: 64, format: 'spritesheet', width: 320, height: 180 },
      },
    ],
  ];
  it.each(accepted)('%s', (_name, { assetType, given, want }) => {
    expect(normalizeParams(assetType, given)).toEqual(want);
  });

  const refused: [string, { assetType: AssetType; given: Record<string, unknown>; path: string }][] = [
    [
      'sprite with width and height',
      { assetType: 'sprite', given: { width: 320, height: 180 }, path: '/params/width' },
    ],
    ['animation with a width', { assetType: 'animation', given: { width: 320 }, path: '/params/width' }],
    ['tileset with a height', { assetType: 'tileset', given: { height: 180 }, path: '/params/height' }],
    ['width below 16', { assetType: 'background', given: { width: 15, height: 180 }, path: '/params/width' }],
    ['height above 1024', { assetType: 'ui', given: { width: 320, height: 1025 }, path: '/params/height' }],
    ['width 0', { assetType: 'background', given: { width: 0 }, path: '/params/width' }],
    ['negative height', { assetType: 'background', given: { height: -180 }, path: '/params/height' }],
    ['a fraction', { assetType: 'background', given: { width: 320.5, height: 180 }, path: '/params/width' }],
    [
      'a string (direct callers)',
      { assetType: 'background', given: { width: '320' }, path: '/params/width' },
    ],
    ['NaN', { assetType: 'ui', given: { height: Number.NaN }, path: '/params/height' }],
    ['null', { assetType: 'ui', given: { width: null }, path: '/params/width' }],
  ];
  it.each(refused)('refuses %s with 400 参数错误', (_name, { assetType, given, path }) => {
    const error = thrown(() => normalizeParams(assetType, given as GenerateParamsInput));
    expect(error).toMatchObject({ code: 400, message: '参数错误' });
    expect(JSON.stringify(error?.details)).toContain(path);
  });
});

describe('the request validator (the contract’s schema) on width / height', () => {
  const validator = createRequestValidator();
  const body = (assetType: AssetType, params: Record<string, unknown>) => ({
    projectId: 'p'.repeat(22),
    prompt: 'a beach at sunset',
    assetType,
    params,
  });
  const bad: [string, Record<string, unknown>][] = [
    ['a string', { width: '320', height: 180 }],
    ['a fraction', { width: 320, height: 180.5 }],
    ['below 16', { width: 8, height: 180 }],
    ['above 1024', { width: 320, height: 2048 }],
    ['null', { width: null }],
    ['an object', { height: { px: 180 } }],
    ['a boolean', { width: true }],
  ];
  it.each(bad)('refuses %s with 400 参数错误', (_name, params) => {
    const error = thrown(() => validator.validate('generate', { body: body('background', params) }));
    expect(error).toMatchObject({ code: 400, message: '参数错误' });
  });

  it('accepts a valid size and normalizes it as the raw body does', () => {
    for (const params of [{ width: 320, height: 180 }, { height: 270 }, { width: 480, resolution: 32 }]) {
      for (const assetType of ['background', 'ui'] as const) {
        const validated = validator.validate('generate', { body: body(assetType, params) }).body as {
          params: GenerateParamsInput;
        };
        expect(normalizeParams(assetType, validated.params)).toEqual(normalizeParams(assetType, params));
      }
    }
  });
});

describe('the dedupe key and the canvas', () => {
  const key = (assetType: AssetType, params: GenerateParamsInput | undefined) =>
    dedupeMaterial({
      ownerId: 1,
      projectId: 'p',
      prompt: 'a castle',
      assetType,
      params: normalizeParams(assetType, params),
      taskStyle: null,
    });

  it('is unchanged for requests without width or height (the material as before #28)', () => {
    expect(key('background', undefined)).toBe(
      '["v1",1,"p","a castle","background",[64,"spritesheet",null],null]',
    );
    expect(key('ui', { resolution: 128, seed: 3 })).toBe(
      '["v1",1,"p","a castle","ui",[128,"spritesheet",null,3],null]',
    );
    expect(key('sprite', {})).toBe('["v1",1,"p","a castle","sprite",[64,"spritesheet",[4,4]],null]');
  });

  it('tells sizes apart, and equal canvases together', () => {
    const sizes: GenerateParamsInput[] = [
      {},
      { width: 320, height: 180 },
      { width: 180, height: 320 },
      { width: 480, height: 270 },
      { width: 64, height: 64 },
      { width: 320, height: 181 },
    ];
    const keys = sizes.map((s) => key('background', s));
    expect(new Set(keys).size).toBe(sizes.length);
    // one side given: the other is the resolution, so these are the same canvas
    expect(key('background', { width: 320 })).toBe(key('background', { width: 320, height: 64 }));
    expect(key('ui', { height: 48, resolution: 96 })).toBe(
      key('ui', { width: 96, height: 48, resolution: 96 }),
    );
  });
});

describe('the stored task keeps its canvas', () => {
  it('through the document mapping of both store adapters', () => {
    const record = makeTaskRecord({
      assetType: 'background',
      params: { resolution: 64, format: 'spritesheet', width: 320, height: 180 },
    });
    const doc = taskToDoc(record);
    expect(doc.params).toEqual(record.params);
    expect(docToTask(doc).params).toEqual(record.params);
  });

  it('as submitted through the service on the embedded store, and read back', async () => {
    const store = createEmbeddedStore();
    await store.init();
    const clock = steppingClock();
    const service = createAssetService({ store, hasher: fakeHasher(), tokens: fakeTokens(clock), clock });
    await service.register({ username: 'alice', password: 'alice-pw' });
    const login = await service.login({ username: 'alice', password: 'alice-pw' }, { ip: '10.0.0.1' });
    const alice = await service.authenticate(login.token);
    const project = (await service.createProject(alice, { name: 'Sizes' })).id;
    const submit = (params: GenerateParamsInput) =>
      service.submitTask(alice, { projectId: project, prompt: 'a beach', assetType: 'background', params });
    const wide = await submit({ width: 320, height: 180 });
    expect((await service.getTask(alice, wide.taskId)).params).toEqual({
      resolution: 64,
      format: 'spritesheet',
      width: 320,
      height: 180,
    });
    // another size is another task; the same size is the same task while it runs
    const tall = await submit({ width: 180, height: 320 });
    expect(tall.taskId).not.toBe(wide.taskId);
    expect((await submit({ width: 320, height: 180 })).taskId).toBe(wide.taskId);
    const square = await submit({});
    expect(square.taskId).not.toBe(wide.taskId);
    expect((await service.getTask(alice, square.taskId)).params).toEqual({
      resolution: 64,
      format: 'spritesheet',
    });
    const refused = await service
      .submitTask(alice, {
        projectId: project,
        prompt: 'a knight',
        assetType: 'sprite',
        params: { width: 320 },
      })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 400, message: '参数错误' });
  });
});
