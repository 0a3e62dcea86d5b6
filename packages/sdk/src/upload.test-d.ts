import { expectTypeOf, test } from 'vitest';
import { type AssetClient, createAssetClient } from './asset-client.js';
import type { ApiResult } from './internal/envelope.js';
import type { GenerateRequest, ImageInput, PaletteFrom, Upload } from './types.js';

test('uploadImage and the image params are typed from the contract', () => {
  const api: AssetClient = createAssetClient({ baseUrl: 'http://x' });
  expectTypeOf(api.uploadImage).returns.toEqualTypeOf<Promise<ApiResult<Upload>>>();
  expectTypeOf<Upload['format']>().toEqualTypeOf<'png' | 'jpeg' | 'webp' | 'gif'>();
  expectTypeOf<NonNullable<GenerateRequest['params']>['image']>().toEqualTypeOf<ImageInput | undefined>();
  expectTypeOf<ImageInput>().toEqualTypeOf<{ uploadId: string; strength?: number }>();
  expectTypeOf<NonNullable<GenerateRequest['params']>['paletteFrom']>().toEqualTypeOf<
    PaletteFrom | undefined
  >();
  expectTypeOf<NonNullable<NonNullable<GenerateRequest['params']>['references']>[number]>().toEqualTypeOf<{
    uploadId: string;
  }>();
});
