export {
  type AssetClient,
  type AssetClientOptions,
  type AssetloomLanguage,
  type AssetloomWarning,
  type AssetRef,
  type CallOptions,
  type CharacterMethods,
  createAssetClient,
  type DownloadedAsset,
  type DownloadOptions,
  type EnvelopeData,
  type EnvelopePath,
  type EventsOptions,
  type GenerateOptions,
  type GenerateResult,
  type NonEnvelopePath,
  type Outcome,
  type PaginateOptions,
  type StyleCatalogOptions,
  type TokenSource,
  type UploadImageOptions,
  type WaitForTaskOptions,
} from './asset-client.js';
export {
  AssetloomApiError,
  type AssetloomApiErrorInit,
  type AssetloomErrorCode,
  type ClientErrorCode,
  describeLimit,
  type ErrorLimit,
  type FieldError,
} from './errors.js';
export type { CookieJarLike } from './internal/cookies.js';
export type { ApiResult } from './internal/envelope.js';
export type {
  FetchLike,
  RetryEvent,
  RetryOptions,
  RetryReason,
  RetryWaitEvent,
} from './internal/transport.js';
export { orThrow } from './or-throw.js';
export { overallProgress, taskStageOf, taskStatusOf } from './progress.js';
export {
  createReviewAuthClient,
  type ReviewAuthClient,
  type ReviewAuthClientOptions,
  type ReviewLogoutData,
} from './review-auth-client.js';
export type * from './types.js';
export { sniffImageType, type UploadProgress, type UploadSource } from './upload.js';
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.js';
