import { assetApiDocument } from '@assetloom/openapi';
import { NAMED_PALETTES, parsePalette } from '@assetloom/pipeline';
import { resolveStyle, toHex } from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { AssetloomError, fail } from './errors.js';
import {
  CHOICE_KEYS,
  isReadStyleValue,
  PALETTE_ALIASES,
  STYLE_KEYS,
  STYLE_VALUES,
  styleCatalog,
  stylePointers,
} from './styles.js';
import { createRequestValidator } from './validation.js';

const validator = createRequestValidator();

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AssetloomError);
    return fail(error, 'en');
  }
  throw new Error('expected a 400');
}

describe('the style catalogue', () => {
  it('lists every named palette of the generator with its colours, and aliases the generator reads', () => {
    const { palettes } = styleCatalog('zh');
    expect(palettes.map((p) => p.name).sort()).toEqual(
      Object.keys(NAMED_PALETTES)
        .filter((n) => n !== 'default')
        .sort(),
    );
    for (const palette of palettes) {
      expect(palette.colors).toEqual(NAMED_PALETTES[palette.name]?.map(toHex));
      for (const alias of [palette.name, ...(PALETTE_ALIASES[palette.name] ?? [])]) {
        expect(parsePalette(alias)?.colors.map(toHex), alias).toEqual(palette.colors);
      }
    }
  });

  it('offers only values the generator reads, and each choice value changes what it draws or is its default', () => {
    for (const key of CHOICE_KEYS) {
      for (const value of STYLE_VALUES[key])
        expect(isReadStyleValue(key, value), `${key}=${value}`).toBe(true);
    }
    const drawn = new Set(STYLE_VALUES.artStyle.map((v) => JSON.stringify(resolveStyle({ artStyle: v }))));
    expect(drawn.size).toBeGreaterThanOrEqual(3);
  });

  it('lists the known keys the contract names, open ones with values null, descriptions per language', () => {
    const schemas = assetApiDocument.components.schemas as Record<string, { enum?: string[] }>;
    expect(STYLE_KEYS).toEqual(schemas.StyleKey?.enum);
    const zh = styleCatalog('zh');
    const en = styleCatalog('en');
    expect(zh.keys.find((k) => k.name === 'scene')?.values).toBeNull();
    expect(zh.keys.find((k) => k.name === 'tileable')?.values).toEqual(['true', 'false']);
    expect(zh.keys[0]?.description).toMatch(/调色板/);
    expect(en.keys[0]?.description).toMatch(/^Palette/);
    expect(Object.isFrozen(en)).toBe(true);
  });
});

describe('values of known style keys', () => {
  it.each([
    ['palette', 'sweetie16'],
    ['palette', 'Sweetie 16'],
    ['palette', 'PICO-8'],
    ['palette', '#1a1c2c,#5d275d,#b13e53'],
    ['palette', 'default'],
    ['artStyle', 'pixel art'],
    ['artStyle', 'retro 8bit'],
    ['artStyle', 'hand-drawn'],
    ['artStyle', '卡通'],
    ['lineWeight', '2'],
    ['lineWeight', 'bold'],
    ['lighting', 'top-left'],
    ['lighting', 'warm sunset from the right'],
    ['tileable', 'TRUE'],
    ['tileable', 'no'],
  ])('accepts %s = %j (the generator reads it)', (key, value) => {
    expect(() =>
      validator.validate('replaceProjectStyle', {
        params: { projectId: 'p1' },
        body: { kvPairs: { [key]: value } },
      }),
    ).not.toThrow();
  });

  it.each([
    ['palette', 'sweetie-61'],
    ['palette', '#fff'],
    ['palette', '#000000,#000000'],
    ['artStyle', 'watercolor'],
    ['lineWeight', 'wobbly'],
    ['lighting', 'sunny'],
    ['tileable', 'maybe'],
  ])('refuses %s = %j with 400 参数错误 naming the key and the allowed values', (key, value) => {
    const answer = refusal(() =>
      validator.validate('replaceProjectStyle', {
        params: { projectId: 'p1' },
        body: { kvPairs: { [key]: value } },
      }),
    );
    expect(answer.code).toBe(400);
    expect(answer.data?.reason).toBe('invalid_request');
    expect(answer.data?.errors).toEqual([
      expect.objectContaining({
        in: 'body',
        path: `/kvPairs/${key}`,
        rule: 'styleValue',
        allowed: STYLE_VALUES[key as keyof typeof STYLE_VALUES],
      }),
    ]);
    expect(answer.data?.errors?.[0]?.message).toContain(STYLE_VALUES[key as keyof typeof STYLE_VALUES][0]);
  });

  it('checks the project style at creation and the task style at generation; other keys stay open', () => {
    expect(
      refusal(() => validator.validate('createProject', { body: { name: 'p', style: { palette: 'db32' } } }))
        .data?.errors?.[0]?.path,
    ).toBe('/style/palette');
    expect(
      refusal(() =>
        validator.validate('generate', {
          body: { projectId: 'p', prompt: 'a knight', assetType: 'sprite', taskStyle: { artStyle: 'oil' } },
        }),
      ).data?.errors?.[0]?.path,
    ).toBe('/taskStyle/artStyle');
    expect(() =>
      validator.validate('createProject', {
        body: { name: 'p', style: { Palette: 'anything', mood: 'heroic' } },
      }),
    ).not.toThrow();
  });

  it('names a value the schema refuses once: a too-long palette is a maxLength, not also a styleValue', () => {
    const answer = refusal(() =>
      validator.validate('replaceProjectStyle', {
        params: { projectId: 'p1' },
        body: { kvPairs: { palette: 'x'.repeat(257), lighting: 'sunny' } },
      }),
    );
    expect(answer.data?.errors?.map((e) => [e.path, e.rule])).toEqual([
      ['/kvPairs/palette', 'maxLength'],
      ['/kvPairs/lighting', 'styleValue'],
    ]);
  });

  it('finds the style maps of request bodies in the contract', () => {
    const body = (path: string, method: 'post' | 'put') =>
      (
        assetApiDocument.paths as Record<
          string,
          Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>
        >
      )[path]?.[method]?.requestBody.content['application/json']?.schema;
    expect(stylePointers(assetApiDocument, body('/api/v1/projects', 'post'))).toEqual([['style']]);
    expect(stylePointers(assetApiDocument, body('/api/v1/projects/{projectId}/style', 'put'))).toEqual([
      ['kvPairs'],
    ]);
    expect(stylePointers(assetApiDocument, body('/api/v1/generate', 'post'))).toEqual([['taskStyle']]);
  });
});
