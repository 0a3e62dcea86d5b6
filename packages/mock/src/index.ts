export {
  type AssetMock,
  type AssetMockControls,
  type AssetMockOptions,
  createAssetMock,
  type FailureRule,
  installWebSocketGlobal,
  type Latency,
  type MockSeed,
  type MockSocket,
  type MockWebSocketConstructor,
} from './mock.js';
