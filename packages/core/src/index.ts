/**
 * `@assetloom/core` — the asset domain and its ports: the error envelope, the domain's types and
 * enumerations, parameter normalisation, the ports a host supplies (clock, ids, tokens, password
 * hashing, rate limits, object storage, the Store), the store's record types and errors, and the asset service.
 *
 * Everything else is on a subpath with its own documentation: `@assetloom/core/http` (the
 * operation table and transport helpers), `/queue` (the durable task queue and progress),
 * `/store` (the Store port's repositories, for adapter authors), `/store/embedded` and
 * `/store/mongodb` (the adapters), `/uploads`, `/webhooks`, `/review` and `/contract` (request and
 * response shapes and the contract's catalogues). See the package README and decision 0039.
 *
 * @packageDocumentation
 */
export type { UserBudgets } from './budgets.js';
export type {
  CharacterDoc,
  CharacterIdentityRecord,
  CharacterRecord,
  CharacterRepository,
  CharacterSize,
} from './characters/records.js';
export {
  type AnimateCharacterInput,
  CHARACTER_ACTIONS,
  CHARACTER_MESSAGES,
  type CharacterList,
  type CharacterService,
  type CharacterServiceDeps,
  type CharacterTask,
  type CharacterView,
  type CreateCharacterInput,
  characterErrors,
  createCharacterService,
  type NamedCharacterAction,
  type RotateCharacterInput,
} from './characters/service.js';
export { randomId } from './defaults.js';
export {
  AssetloomError,
  type AssetloomErrorOptions,
  type ErrorCode,
  type ErrorDetails,
  type ErrorLimit,
  errors,
  type FailEnvelope,
  fail,
  isAssetloomError,
  MESSAGES,
  type OkEnvelope,
  ok,
  toAssetloomError,
} from './errors.js';
export type {
  LocalRoot,
  ObjectStorage,
  OpenedObject,
  PutOptions,
  SignatureProblem,
  SignedUrlOptions,
  SignedUrlVerifier,
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
  type AssetService,
  type AssetServiceDeps,
  createAssetService,
  type LoginContext,
  type RegisterContext,
  type SubmitOptions,
} from './service.js';
export {
  type AssetRecord,
  type ClaimRecord,
  DuplicateKeyError,
  type EventRecord,
  type ProjectRecord,
  type Store,
  StoreWriteError,
  type TaskRecord,
  type UserRecord,
} from './store.js';
export {
  ASSET_TYPES,
  type AssetType,
  type AuthUser,
  type Project,
  TASK_STAGES,
  TASK_STATUSES,
  type Task,
  type TaskParams,
  type TaskStage,
  type TaskStatus,
} from './types.js';
