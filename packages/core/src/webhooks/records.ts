import type { Page, PageWindow } from '../store.js';

/** Task events a webhook may subscribe to (the contract's `WebhookEventType`). */
export const WEBHOOK_EVENT_TYPES = ['task.completed', 'task.failed', 'task.stage'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every event type a delivery may carry: the task events and the ping. */
export type WebhookDeliveryType = WebhookEventType | 'webhook.ping';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A registered endpoint of a project. The secret is kept as given (it must sign every delivery). */
export interface WebhookRecord {
  id: string;
  projectId: string;
  ownerId: number;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  /** `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookPatch {
  url?: string;
  events?: WebhookEventType[];
  description?: string;
  enabled?: boolean;
  updatedAt: Date;
}

/** One attempt to deliver an event, as the delivery log shows it. */
export interface WebhookAttempt {
  at: Date;
  /** The receiver's HTTP status; null when no answer came (timeout, refused target, connection error). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookLease {
  owner: string;
  until: Date;
}

/**
 * One event for one webhook: the outbox row the workers deliver. Its id is the `webhook-id` header,
 * the same on every attempt; task events get a deterministic id (webhook + task + type [+ seq]), so
 * enqueuing the same event twice (a worker that died before it finished the task, and the next one)
 * stores it once.
 */
export interface WebhookDeliveryRecord {
  id: string;
  webhookId: string;
  projectId: string;
  ownerId: number;
  taskId: string | null;
  type: WebhookDeliveryType;
  /** The exact JSON text that is signed and sent. */
  payload: string;
  status: WebhookDeliveryStatus;
  /** Attempts started so far (a claim counts as one; guarded updates compare it). */
  attempts: number;
  /** When the next attempt is due; null once the delivery has settled. */
  nextAttemptAt: Date | null;
  /** Held while an attempt is under way; an attempt whose worker died ends with its lease. */
  lease: WebhookLease | null;
  /** The most recent attempts, oldest first. */
  log: WebhookAttempt[];
  createdAt: Date;
  updatedAt: Date;
}

/** Fields of a delivery that move after insert. */
export interface WebhookDeliveryPatch {
  status?: WebhookDeliveryStatus;
  attempts?: number;
  nextAttemptAt?: Date | null;
  lease?: WebhookLease | null;
  log?: WebhookAttempt[];
  updatedAt: Date;
}

export interface WebhookRepository {
  insert(webhook: WebhookRecord): Promise<void>;
  byId(id: string): Promise<WebhookRecord | null>;
  /** Newest first (createdAt desc, id desc), at most `limit` (1-1000). */
  listByProject(projectId: string, limit: number): Promise<WebhookRecord[]>;
  /** The updated record, or null when no webhook has that id. */
  update(id: string, patch: WebhookPatch): Promise<WebhookRecord | null>;
  /** true when a webhook was deleted. */
  delete(id: string): Promise<boolean>;
  deleteByProject(projectId: string): Promise<number>;
}

export interface WebhookDeliveryRepository {
  /** Throws DuplicateKeyError 'id' when a delivery with that id exists. */
  insert(delivery: WebhookDeliveryRecord): Promise<void>;
  byId(id: string): Promise<WebhookDeliveryRecord | null>;
  /** Newest first (createdAt desc, id desc). */
  listByWebhook(webhookId: string, window: PageWindow): Promise<Page<WebhookDeliveryRecord>>;
  /**
   * Pending deliveries due at `now` whose lease is absent or ended at or before `now`; the earliest
   * due first, at most `limit` (1-1000).
   */
  listDue(now: Date, limit: number): Promise<WebhookDeliveryRecord[]>;
  /**
   * A guarded update: applied only while the delivery's `attempts` equals `attempts` and its status
   * is pending; null otherwise (another worker claimed it, or it settled).
   */
  updateIfAttempts(
    id: string,
    attempts: number,
    patch: WebhookDeliveryPatch,
  ): Promise<WebhookDeliveryRecord | null>;
  deleteByWebhook(webhookId: string): Promise<number>;
  deleteByProject(projectId: string): Promise<number>;
  /** Deletes settled deliveries (delivered, failed, cancelled) last updated before `before`; how many. */
  deleteSettledBefore(before: Date): Promise<number>;
}
