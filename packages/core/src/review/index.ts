/**
 * `@assetloom/core/review` — the review helper's authentication domain (spec 001), browser-safe:
 * messages, rules, the service, the ReviewStore port and its embedded adapter. The MongoDB adapter
 * is Node-only, under `@assetloom/core/review/mongodb`.
 */
export { AssetloomError, isAssetloomError } from '../errors.js';
export {
  contentLanguage,
  type FieldError,
  type Language,
  languageOf,
  REVIEW_PAGES,
  type ReviewPageTexts,
} from '../messages.js';
export type { Clock, PasswordHasher, RateLimiter, RateLimitResult } from '../ports.js';
export { createMemoryRateLimiter, type MemoryRateLimiterOptions } from '../rate-limit.js';
export { DuplicateKeyError } from '../store.js';
export { createEmbeddedReviewStore, type EmbeddedReviewStoreOptions } from './embedded.js';
export {
  REVIEW_MESSAGES,
  type ReviewErrorBody,
  type ReviewMessage,
  type ReviewMessageKey,
  reviewErrorBody,
  reviewErrors,
  reviewFailure,
} from './messages.js';
export {
  type Credentials,
  checkLogin,
  checkRegistration,
  DEFAULT_SETTINGS,
  isValidEmail,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_BYTES,
  MIN_PASSWORD_BYTES,
  normalizeEmail,
  REVIEW_ROUTE_PATHS,
  type Result,
  readCredentials,
  utf8Length,
} from './rules.js';
export {
  createReviewAuthService,
  type ReviewAuthService,
  type ReviewAuthServiceDeps,
  type ReviewLoginContext,
  type ReviewResult,
  type ReviewUser,
} from './service.js';
export {
  type NewReviewUser,
  REVIEW_COLLECTIONS,
  type ReviewSessionRecord,
  type ReviewSessionRepository,
  type ReviewSettingRecord,
  type ReviewSettingRepository,
  type ReviewStore,
  type ReviewUserRecord,
  type ReviewUserRepository,
} from './store.js';
