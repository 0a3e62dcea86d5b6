export { TOKEN_COOKIE } from '@assetloom/core/http';
export { type AssetAppDeps, type AssetState, createAssetApp } from './app.js';
export {
  ConfigError,
  type ConfigIssue,
  type ConfigResult,
  type LogLevel,
  loadConfig,
  MIN_JWT_SECRET_BYTES,
  type NodeEnv,
  OWASP_SCRYPT_LOG_N,
  type ServerConfig,
} from './config.js';
export { type DocFile, type DocFiles, docsDirectory, loadDocs } from './docs.js';
export { createLogDestination, createLogger } from './logger.js';
export { type ScryptParams, ScryptPasswordHasher } from './password.js';
export * from './review/index.js';
export {
  llmOf,
  openObjectStorage,
  openStore,
  type RunningServer,
  type StartOptions,
  startServer,
  workerFor,
} from './server.js';
export { createTaskNotifier, type TaskNotifier } from './tasks/notifier.js';
export {
  attachProgressSocket,
  type ProgressSocket,
  type ProgressSocketOptions,
} from './tasks/progress-socket.js';
export {
  createGenerationWorker,
  type GenerationWorker,
  type GenerationWorkerOptions,
} from './tasks/worker.js';
export { JwtTokenService, type JwtTokenServiceOptions } from './tokens.js';
export { SERVER_VERSION } from './version.js';
