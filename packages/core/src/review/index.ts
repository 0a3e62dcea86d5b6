/**
 * `@assetloom/core/review` — the review helper's authentication domain (spec 001), browser-safe:
 * messages, rules, the service and the ReviewStore port, with the few root names (errors, language,
 * ports, the memory rate limiter) a review app needs, so it can import from one entry. The
 * adapters are `createEmbeddedReviewStore` on `@assetloom/core/store/embedded` and
 * `createMongoReviewStore` (Node only) on `@assetloom/core/store/mongodb`.
 *
 * @packageDocumentation
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
