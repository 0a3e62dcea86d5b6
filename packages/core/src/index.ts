export { limitOf, taskPixels, type UserBudgets } from './budgets.js';
export { ID_PATTERN, randomId, randomIds, systemClock } from './defaults.js';
export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded.js';
export {
  AssetloomError,
  type AssetloomErrorOptions,
  type ErrorCode,
  type ErrorDetails,
  errors,
  type FailEnvelope,
  fail,
  isAssetloomError,
  MAX_FIELD_ERRORS,
  MESSAGES,
  type MessageKey,
  type OkEnvelope,
  ok,
  toAssetloomError,
} from './errors.js';
export {
  createSharedEventPoller,
  type PolledEvents,
  type SharedEventPoller,
  type SharedEventPollerOptions,
  type TaskEventSource,
} from './event-poller.js';
export {
  createHashGate,
  type HashGate,
  type HashGateOptions,
  type HashGateStats,
  isHashGateRefusal,
} from './hash-gate.js';
export { createOkEnvelope, jsonText, okEnvelopeText } from './http/envelope.js';
export {
  bearerToken,
  createOperationTable,
  downloadAnswer,
  type OperationAnswer,
  type OperationContext,
  type OperationHandler,
  type OperationLog,
  type OperationRequest,
  type Operations,
  type OperationTable,
  type OperationTableDeps,
  type RawBodyResult,
  type SignedAsset,
  signAssets,
  TOKEN_COOKIE,
  tokenCookie,
} from './http/operations.js';
export {
  admitProgressStream,
  type PipeProgressOptions,
  type ProgressAdmission,
  type ProgressSink,
  pipeProgress,
} from './http/progress.js';
export { type HttpMethod, matchRoute, type RouteMatch, type RouteSpec, routesOf } from './http/routes.js';
export {
  checkDeclaredLength,
  isJsonContentType,
  type JsonBodyFailure,
  type JsonBodyResult,
  parseJsonBytes,
} from './json-body.js';
export {
  type AllowedValue,
  ASSET_API_ERRORS,
  contentLanguage,
  DEFAULT_LANGUAGE,
  errorEntry,
  FIELD_RULES,
  type FieldError,
  type FieldLocation,
  type FieldProblem,
  fieldError,
  type Language,
  languageOf,
  REVIEW_ERRORS,
  REVIEW_PAGES,
  type ReviewPageTexts,
  STYLE_KEY_TEXTS,
  type Texts,
} from './messages.js';
export {
  isValidObjectKey,
  MAX_SEGMENT_LENGTH,
  MAX_SEGMENTS,
  OBJECT_KEY_PATTERN,
  objectKeyProblem,
} from './object-keys.js';
export type {
  LocalRoot,
  ObjectStorage,
  OpenedObject,
  PutOptions,
  SignatureProblem,
  SignedUrlOptions,
  SignedUrlVerifier,
  SigningStorage,
  StoredObject,
} from './object-storage.js';
export {
  ANIMATION_DEFAULTS,
  CANVAS_LIMITS,
  normalizeParams,
  PARAM_DEFAULTS,
  TILESET_DEFAULTS,
} from './params.js';
export type {
  Clock,
  IdGenerator,
  IssuedToken,
  PasswordHasher,
  RateLimiter,
  RateLimitResult,
  TokenClaims,
  TokenService,
} from './ports.js';
export {
  type FollowTaskEventsOptions,
  followTaskEvents,
  type TaskStreamItem,
} from './progress-stream.js';
export {
  type ClaimedTask,
  createTaskQueue,
  isTerminalEvent,
  type ProgressPatch,
  type QueueEvent,
  TaskLeaseLostError,
  type TaskOutcome,
  type TaskQueue,
  type TaskQueueOptions,
  terminalEventFor,
} from './queue.js';
export { createMemoryRateLimiter, type MemoryRateLimiterOptions } from './rate-limit.js';
export {
  type AssetService,
  type AssetServiceDeps,
  createAssetService,
  type LoginContext,
  type RegisterContext,
  type SubmitOptions,
} from './service.js';
export {
  type AssetRecord,
  type AssetRepository,
  type ClaimRecord,
  type ClaimRepository,
  type DuplicateField,
  DuplicateKeyError,
  type EventCursor,
  type EventRecord,
  type EventRepository,
  type Page,
  type PageWindow,
  type ProjectPatch,
  type ProjectRecord,
  type ProjectRepository,
  type ProjectTouch,
  type Store,
  StoreWriteError,
  type TaskLease,
  type TaskPatch,
  type TaskRecord,
  type TaskRepository,
  type UserRecord,
  type UserRepository,
} from './store.js';
export {
  CHOICE_KEYS,
  type ChoiceKey,
  isReadStyleValue,
  type NamedPalette,
  PALETTE_ALIASES,
  STYLE_KEYS,
  STYLE_VALUES,
  type StyleCatalog,
  type StyleKey,
  type StyleKeyInfo,
  styleCatalog,
  styleMapProblems,
  TEXT_KEYS,
} from './styles.js';
export {
  type ClaimedTaskResult,
  type RunClaimedTaskOptions,
  runClaimedTask,
  type StoredAssetView,
  type TaskEventUpdate,
  TaskStoppedError,
  taskUpdateFor,
  toAssetRecord,
  toAssetView,
} from './task-run.js';
export * from './types.js';
export { UPLOAD_MESSAGES, uploadErrors } from './uploads/errors.js';
export { extractMultipartFile, type MultipartFile, multipartBoundary } from './uploads/multipart.js';
export { IMAGE_FRAMES, IMAGE_INPUT_DEFAULTS, type InputHashes } from './uploads/params.js';
export { createPngDecoder } from './uploads/png-decoder.js';
export {
  declaredFormat,
  type ImageFormat,
  type ProbeResult,
  probeImage,
  sniffFormat,
} from './uploads/probe.js';
export type { UploadRecord, UploadRepository, UploadUseRecord } from './uploads/records.js';
export {
  type CheckedInputs,
  createUploadService,
  type DecodedImage,
  type ImageDecoder,
  UPLOAD_DEFAULTS,
  type UploadBody,
  type UploadLimits,
  type UploadObjects,
  type UploadService,
  type UploadServiceDeps,
  type UploadView,
  uploadIdsOf,
  uploadKeyOf,
} from './uploads/service.js';
export {
  identifierCharacterProblem,
  normalizeIdentifier,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  usernameKeyOf,
  usernameProblem,
} from './usernames.js';
export {
  createRequestValidator,
  type OperationInputs,
  type RawRequest,
  type RequestValidator,
  type ValidatedRequest,
} from './validation.js';
export * from './webhooks/index.js';
