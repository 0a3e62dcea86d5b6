import { describe, expect, it } from 'vitest';
import { rewriteResPaths } from './files.js';
import { languageOf } from './messages.js';
import { problemsOf } from './validate.js';

describe('languageOf', () => {
  it.each<[string, { given: string | undefined; want: 'en' | 'zh' | undefined }]>([
    ['a Chinese locale', { given: 'zh_CN.UTF-8', want: 'zh' }],
    ['a Chinese tag', { given: 'zh-TW', want: 'zh' }],
    ['English', { given: 'en-GB', want: 'en' }],
    ['the C locale', { given: 'C.UTF-8', want: 'en' }],
    ['another language', { given: 'fr_FR.UTF-8', want: undefined }],
    ['nothing', { given: undefined, want: undefined }],
  ])('%s', (_name, { given, want }) => {
    expect(languageOf(given)).toBe(want);
  });
});

describe('problemsOf (Ajv errors as the agent reads them)', () => {
  it.each<[string, { errors: Parameters<typeof problemsOf>[0]; want: string[] }]>([
    [
      'a maximum, a missing and an unknown argument',
      {
        errors: [
          { keyword: 'maximum', instancePath: '/params/resolution', params: { limit: 1024 } },
          { keyword: 'required', instancePath: '', params: { missingProperty: 'prompt' } },
          {
            keyword: 'additionalProperties',
            instancePath: '/params',
            params: { additionalProperty: 'colour' },
          },
        ],
        want: [
          'params.resolution must be at most 1024',
          'prompt is required',
          'params.colour is not an argument of this tool',
        ],
      },
    ],
    [
      'an enum inside an array',
      {
        errors: [
          {
            keyword: 'enum',
            instancePath: '/params/references/0/kind',
            params: { allowedValues: ['a', 'b'] },
          },
        ],
        want: ['params.references[0].kind must be one of: a, b'],
      },
    ],
    [
      'a bad style map, not its null branch',
      {
        errors: [
          { keyword: 'maxLength', instancePath: '/taskStyle/mood', params: { limit: 256 } },
          { keyword: 'type', instancePath: '/taskStyle', params: { type: 'null' } },
          { keyword: 'oneOf', instancePath: '/taskStyle', params: {} },
        ],
        want: ['taskStyle.mood must have at most 256 characters'],
      },
    ],
  ])('%s', (_name, { errors, want }) => {
    expect(problemsOf(errors, 'en').map((p) => p.message)).toEqual(want);
  });

  it('speaks Chinese', () => {
    const [problem] = problemsOf(
      [{ keyword: 'minimum', instancePath: '/params/seed', params: { limit: 0 } }],
      'zh',
    );
    expect(problem?.message).toBe('params.seed 不能小于 0');
  });
});

describe('rewriteResPaths', () => {
  const tres =
    '[ext_resource type="Texture2D" path="res://sprite.png" id="1_tex"]\n[ext_resource path="res://other.png"]';
  it('points the written PNGs where they landed, and leaves the others', () => {
    expect(rewriteResPaths(tres, new Set(['sprite.png']), 'sprites/knight')).toBe(
      '[ext_resource type="Texture2D" path="res://sprites/knight/sprite.png" id="1_tex"]\n[ext_resource path="res://other.png"]',
    );
  });
  it('changes nothing at the project root', () => {
    expect(rewriteResPaths(tres, new Set(['sprite.png']), '')).toBe(tres);
  });
});
