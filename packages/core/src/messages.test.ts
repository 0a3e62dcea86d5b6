import { assetApiDocument, reviewAuthDocument } from '@assetloom/openapi';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from './errors.js';
import {
  ASSET_API_ERRORS,
  errorEntry,
  FIELD_RULES,
  fieldError,
  languageOf,
  REVIEW_ERRORS,
  REVIEW_PAGES,
} from './messages.js';
import { REVIEW_MESSAGES } from './review/messages.js';
import { UPLOAD_MESSAGES } from './uploads/errors.js';

type Schema = { enum?: string[]; properties?: Record<string, Schema> };
const assetSchemas = assetApiDocument.components.schemas as unknown as Record<string, Schema>;
const reviewSchemas = reviewAuthDocument.components?.schemas as unknown as Record<string, Schema>;

describe('languageOf (Accept-Language)', () => {
  it.each([
    [undefined, 'zh'],
    ['', 'zh'],
    ['en', 'en'],
    ['EN-us', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en;q=0.5,zh;q=0.8', 'zh'],
    ['fr-FR,en;q=0.3', 'en'],
    ['fr, de', 'zh'],
    ['*', 'zh'],
    ['en;q=0', 'zh'],
    ['zh-TW;q=0.2, en-GB;q=0.2', 'zh'],
    [['de', 'en'], 'en'],
    ['en;q=abc', 'en'],
    [';;,,;q=', 'zh'],
    [`${'x'.repeat(5000)},en`, 'zh'],
  ])('%j prefers %s', (header, want) => {
    expect(languageOf(header as string)).toBe(want);
  });
});

describe('the message catalogue', () => {
  it('has every message core throws, in both languages, with distinct reasons per app', () => {
    for (const message of [...Object.values(MESSAGES), ...Object.values(UPLOAD_MESSAGES)]) {
      const entry = errorEntry(message);
      expect(entry, message).toBeDefined();
      expect(entry?.en).toMatch(/^[A-Za-z]/);
    }
    for (const message of Object.values(REVIEW_MESSAGES))
      expect(errorEntry(message, 'review'), message).toBeDefined();
    for (const list of [ASSET_API_ERRORS, REVIEW_ERRORS]) {
      expect(new Set(list.map((e) => e.reason)).size).toBe(list.length);
      expect(new Set(list.map((e) => e.en)).size).toBe(list.length);
    }
  });

  it('states exactly the reasons and texts the contracts list', () => {
    expect(new Set(ASSET_API_ERRORS.map((e) => e.reason))).toEqual(new Set(assetSchemas.ErrorReason?.enum));
    const reviewError = reviewSchemas.Error?.properties;
    const reviewReasons = REVIEW_ERRORS;
    expect(new Set(reviewReasons.map((e) => e.reason))).toEqual(new Set(reviewError?.reason?.enum));
    expect(new Set(reviewReasons.flatMap((e) => [e.zh, e.en]))).toEqual(new Set(reviewError?.error?.enum));
  });

  it('keeps the spec messages as the Chinese texts', () => {
    expect(errorEntry('参数错误')).toMatchObject({ reason: 'invalid_request', en: 'Invalid parameters' });
    expect(errorEntry('prompt 不能为空')?.en).toBe('prompt must not be empty');
    expect(errorEntry('密码长度至少为 6 位', 'review')).toMatchObject({
      reason: 'password_too_short',
      en: 'The password must be at least 6 characters long',
    });
  });

  it('words every rule in both languages, and any other rule generically', () => {
    for (const rule of FIELD_RULES) {
      const problem = {
        in: 'body' as const,
        path: '/x',
        rule,
        limit: 3,
        allowed: ['a', 'b'],
        type: 'string',
        format: 'email',
      };
      expect(fieldError(problem, 'zh').message).not.toMatch(/undefined|[A-Za-z]{4,}.*is/);
      expect(fieldError(problem, 'en').message).toMatch(/^[a-z]/);
      expect(fieldError(problem, 'en').message).not.toContain('undefined');
    }
    expect(
      fieldError({ in: 'body', path: '/image', rule: 'image', text: 'must be your upload' }, 'en').message,
    ).toBe('must be your upload');
    expect(fieldError({ in: 'body', path: '/image', rule: 'image' }, 'zh').message).toBe('取值无效');
  });

  it('has every page text in both languages', () => {
    expect(Object.keys(REVIEW_PAGES.en).sort()).toEqual(Object.keys(REVIEW_PAGES.zh).sort());
    for (const [key, text] of Object.entries(REVIEW_PAGES.en))
      expect(text, key).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
