/**
 * `@assetloom/core/http` — what a transport needs to serve the asset API: the operation table (one
 * handler per OpenAPI operation, decision 0018) and its routes, the OpenAPI request validator, the
 * envelope's pre-serialised text, JSON and multipart body reading, bearer tokens and the token
 * cookie, signed downloads and object keys, the progress stream (WebSocket/SSE piping), the
 * response language (Accept-Language → Content-Language), and request admission: the in-memory
 * rate limiter and the password-hashing gate (decision 0030).
 *
 * The reference server (Koa) and the mock (MSW) are the two transports built on it.
 *
 * @packageDocumentation
 */
export {
  createHashGate,
  type HashGate,
  type HashGateOptions,
  type HashGateStats,
  isHashGateRefusal,
} from '../hash-gate.js';
export { createOkEnvelope, jsonText, okEnvelopeText } from '../http/envelope.js';
export {
  bearerToken,
  type Capabilities,
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
  type ProviderCapabilities,
  type RawBodyResult,
  type SignedAsset,
  signAssets,
  TOKEN_COOKIE,
  tokenCookie,
} from '../http/operations.js';
export {
  admitProgressStream,
  type PipeProgressOptions,
  type ProgressAdmission,
  type ProgressSink,
  pipeProgress,
} from '../http/progress.js';
export { type HttpMethod, matchRoute, type RouteMatch, type RouteSpec, routesOf } from '../http/routes.js';
export {
  checkDeclaredLength,
  isJsonContentType,
  type JsonBodyFailure,
  type JsonBodyResult,
  parseJsonBytes,
  refusedContentEncoding,
} from '../json-body.js';
export { contentLanguage, errorEntry, languageOf } from '../messages.js';
export {
  isValidObjectKey,
  MAX_SEGMENT_LENGTH,
  MAX_SEGMENTS,
  OBJECT_KEY_PATTERN,
  objectKeyProblem,
} from '../object-keys.js';
export type { SigningStorage } from '../object-storage.js';
export { createMemoryRateLimiter, type MemoryRateLimiterOptions } from '../rate-limit.js';
export { extractMultipartFile, type MultipartFile, multipartBoundary } from '../uploads/multipart.js';
export {
  createRequestValidator,
  type OperationInputs,
  type RawRequest,
  type RequestValidator,
  type ValidatedRequest,
} from '../validation.js';
