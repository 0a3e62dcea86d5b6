/**
 * `@assetloom/core/webhooks` — task webhooks (decision 0021): the webhook service (register, update,
 * list, ping), the transactional outbox a worker writes task events to, the dispatcher that delivers
 * them with Standard Webhooks signatures and retries, the webhook and delivery records and their
 * repository ports, and the target policy that refuses private and special-use addresses (SSRF).
 *
 * @packageDocumentation
 */
export {
  createWebhookDispatcher,
  retryDelayMs,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
  type WebhookRequest,
  type WebhookSend,
} from './dispatcher.js';
export {
  createTaskWebhookOutbox,
  type TaskWebhookOutbox,
  type TaskWebhookOutboxOptions,
  type TaskWebhookRun,
  taskEventId,
} from './outbox.js';
export {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookAttempt,
  type WebhookDeliveryPatch,
  type WebhookDeliveryRecord,
  type WebhookDeliveryRepository,
  type WebhookDeliveryStatus,
  type WebhookDeliveryType,
  type WebhookEventType,
  type WebhookLease,
  type WebhookPatch,
  type WebhookRecord,
  type WebhookRepository,
} from './records.js';
export {
  type CreateWebhookInput,
  createWebhookService,
  DELIVERY_LOG_LENGTH,
  MAX_WEBHOOKS_PER_PROJECT,
  toWebhook,
  toWebhookDelivery,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookService,
  type WebhookServiceDeps,
} from './service.js';
export { newWebhookSecret, randomEventId, signWebhook, type WebhookSignatureHeaders } from './signing.js';
export {
  describeSpecialRange,
  SPECIAL_IPV4_RANGES,
  SPECIAL_IPV6_RANGES,
  type SpecialRange,
  type SpecialRangeMatch,
  specialRangeOf,
} from './special-ranges.js';
export {
  addressProblem,
  allowlistProblem,
  isIpLiteral,
  type WebhookTargetPolicy,
  webhookTargetProblem,
  webhookUrlProblem,
  webhookUrlSyntaxProblem,
} from './targets.js';
