import { describe, expectTypeOf, test } from 'vitest';
import { type Asset, createAssetClient, type Task } from './index.js';

const api = createAssetClient({ baseUrl: 'http://127.0.0.1:1' });

describe('engine formats and playback (issue #18) are typed from asset-api.yaml', () => {
  test('generate takes params.animation: fps, frameDurations, loop', () => {
    void api.generate({
      projectId: 'p',
      prompt: 'a knight',
      assetType: 'animation',
      params: { animation: { fps: 12, frameDurations: [100, 200], loop: 'pingpong' } },
    });
    void api.generate({
      projectId: 'p',
      prompt: 'a knight',
      assetType: 'animation',
      // @ts-expect-error a loop mode the contract does not list
      params: { animation: { loop: 'yoyo' } },
    });
  });

  test('a task keeps the playback it was asked for; an asset names its engine files and page', () => {
    expectTypeOf<NonNullable<Task['params']['animation']>>().toEqualTypeOf<{
      fps: number;
      frameDurations?: number[];
      loop: 'forward' | 'reverse' | 'pingpong';
    }>();
    type Atlas = NonNullable<Asset['metadata']['atlas']>;
    expectTypeOf<Atlas['aseprite']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Atlas['phaser']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Atlas['phaserAnimations']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Atlas['unity']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Asset['metadata']['page']>().toEqualTypeOf<number | undefined>();
  });
});
