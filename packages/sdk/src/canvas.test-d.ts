import { describe, expectTypeOf, test } from 'vitest';
import { createAssetClient, type Task } from './index.js';

const api = createAssetClient({ baseUrl: 'http://127.0.0.1:1' });
type GenerateBody = Parameters<typeof api.generate>[0];

describe('canvas sizes (issue #28) are typed from asset-api.yaml', () => {
  test('generate takes params.width and params.height: a 320 × 180 background', () => {
    void api.generate({
      projectId: 'p',
      prompt: 'a sunny beach with palm trees',
      assetType: 'background',
      params: { width: 320, height: 180 },
    });
    void api.generate({ projectId: 'p', prompt: 'a start button', assetType: 'ui', params: { height: 24 } });
    expectTypeOf<NonNullable<GenerateBody['params']>['width']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<GenerateBody['params']>['height']>().toEqualTypeOf<number | undefined>();
    void api.generate({
      projectId: 'p',
      prompt: 'a beach',
      assetType: 'background',
      // @ts-expect-error a size is a number of pixels, not a string
      params: { width: '320', height: 180 },
    });
  });

  test('a task keeps the canvas it was asked for', () => {
    expectTypeOf<Task['params']['width']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Task['params']['height']>().toEqualTypeOf<number | undefined>();
  });
});
