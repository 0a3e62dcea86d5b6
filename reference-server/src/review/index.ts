export { createReviewApp, REVIEW_PATHS, type ReviewAppDeps, type ReviewState } from './app.js';
export { isCrossSite } from './csrf.js';
export { CONTENT_SECURITY_POLICY } from './pages.js';
export {
  createSessionStore,
  type KoaSessionStore,
  newSessionId,
  SESSION_COOKIE,
  SESSION_MAX_AGE_MS,
} from './session-store.js';
export {
  combineApps,
  createReviewParts,
  isReviewPath,
  openReviewStore,
  type ReviewParts,
  type ReviewPartsOptions,
} from './setup.js';
