import type { AssetClientOptions } from '@assetloom/sdk';
import type { HttpHandler, WebSocketHandler } from 'msw';
import { expectTypeOf, test } from 'vitest';
import { type AssetMock, type AssetMockControls, createAssetMock, type FailureRule } from './index.js';

test('createAssetMock returns msw handlers and the controls', () => {
  expectTypeOf(createAssetMock).returns.toEqualTypeOf<AssetMock>();
  expectTypeOf<AssetMock['handlers']>().toEqualTypeOf<Array<HttpHandler | WebSocketHandler>>();
  expectTypeOf<AssetMockControls['runToCompletion']>().toEqualTypeOf<(taskId?: string) => Promise<void>>();
});

test("the controls' WebSocket fits the SDK's WebSocket option", () => {
  expectTypeOf<AssetMockControls['WebSocket']>().toExtend<NonNullable<AssetClientOptions['WebSocket']>>();
});

test('failure statuses are limited to what the envelope can say', () => {
  expectTypeOf<FailureRule['status']>().toEqualTypeOf<429 | 500 | 'network'>();
});
