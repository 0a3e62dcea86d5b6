import type { AssetloomApiError } from '@assetloom/sdk';
import { describe, expect, test } from 'vitest';
import { errorText, pointer, serverText, shownError } from '../src/messages.js';

const apiError = (message: string, errors: { path: string; rule: string; message: string }[] = []) =>
  ({ message, errors }) as unknown as AssetloomApiError;

describe('server messages as the studio shows them (issue #32)', () => {
  test.each([
    ['参数错误', 'en', 'Invalid parameters'],
    ['用户名或密码错误', 'en', 'Wrong username or password'],
    ['用户名或密码错误', 'zh', '用户名或密码错误'],
    ['Already English', 'en', 'Already English'],
    ['某个新消息', 'en', '某个新消息'],
  ] as const)('serverText(%s, %s) → %s', (message, lang, want) => {
    expect(serverText(message, lang)).toBe(want);
  });

  test('each field message goes to its control; the rest stays in the general message', () => {
    const shown = shownError(
      apiError('参数错误', [
        { path: '/params/resolution', rule: 'maximum', message: '分辨率最大为 1024' },
        { path: '/kvPairs/palette', rule: 'enum', message: 'unknown palette' },
        { path: '/params/frames/framesPerDirection', rule: 'maximum', message: 'at most 16' },
      ]),
      'en',
      ['/params/resolution', '/params/frames'],
    );
    expect(shown.at('/params/resolution')).toBe('分辨率最大为 1024');
    expect(shown.at('/params/frames')).toBe('at most 16');
    expect(shown.at('/prompt')).toBeUndefined();
    expect(shown.general).toBe('Invalid parameters — /kvPairs/palette: unknown palette');
  });

  test('a spec message that names its field lands there although the server listed none', () => {
    const shown = shownError(apiError('prompt 不能为空'), 'en', ['/prompt']);
    expect(shown.at('/prompt')).toBe('The description must not be empty');
    expect(shownError(apiError('prompt 不能为空'), 'zh', ['/prompt']).at('/prompt')).toBe('prompt 不能为空');
    // a form without that field keeps it general
    expect(shownError(apiError('prompt 不能为空'), 'en', ['/name']).at('/prompt')).toBeUndefined();
  });

  test('pointer() escapes like JSON pointer', () => {
    expect(pointer('kvPairs', 'a/b~c')).toBe('/kvPairs/a~1b~0c');
  });
});

describe('limits named in messages (issue #41, decision 0052)', () => {
  test('errorText adds the limit the server named, in the UI language', () => {
    const refused = {
      message: '图片尺寸过大',
      limit: { max: 4096, unit: 'side', actual: 5000 },
    } as unknown as AssetloomApiError;
    expect(errorText(refused, 'en')).toBe(
      'The image dimensions are too large (at most 4,096 px per side; this one: 5,000 px)',
    );
    expect(errorText(refused, 'zh')).toBe('图片尺寸过大（上限：边长 4,096 像素；本次：5,000 像素）');
    expect(errorText({ message: '工程不存在' }, 'en')).toBe('Project not found');
  });
});
