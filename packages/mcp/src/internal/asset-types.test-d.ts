import { expectTypeOf, it } from 'vitest';
import type { ASSET_TYPE_TOOLS } from './asset-types.js';
import type { AssetType, GenerateParamName } from './contract.js';

it('has one generate_* row per asset type of the contract, offering only contract params', () => {
  expectTypeOf<keyof typeof ASSET_TYPE_TOOLS>().toEqualTypeOf<AssetType>();
  expectTypeOf<(typeof ASSET_TYPE_TOOLS)[AssetType]['params'][number]>().toExtend<GenerateParamName>();
  expectTypeOf<(typeof ASSET_TYPE_TOOLS)['tileset']['tool']>().toEqualTypeOf<'generate_tileset'>();
});
