import type {
  WebhookAttempt,
  WebhookDeliveryPatch,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookDeliveryType,
  WebhookEventType,
  WebhookLease,
  WebhookPatch,
  WebhookRecord,
} from './records.js';

/** Database documents of the `webhooks` and `webhook_deliveries` collections (both adapters). */
export interface WebhookDoc {
  _id: string;
  projectId: string;
  ownerId: number;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDeliveryDoc {
  _id: string;
  webhookId: string;
  projectId: string;
  ownerId: number;
  taskId: string | null;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  lease: { owner: string; until: Date } | null;
  log: Array<{ at: Date; statusCode: number | null; error: string | null; durationMs: number }>;
  createdAt: Date;
  updatedAt: Date;
}

const asDate = (v: unknown): Date =>
  v instanceof Date ? new Date(v.getTime()) : new Date(v as string | number);

export function webhookToDoc(w: WebhookRecord): WebhookDoc {
  return {
    _id: w.id,
    projectId: w.projectId,
    ownerId: w.ownerId,
    url: w.url,
    events: [...w.events],
    description: w.description,
    enabled: w.enabled,
    secret: w.secret,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

export function docToWebhook(d: WebhookDoc): WebhookRecord {
  return {
    id: String(d._id),
    projectId: d.projectId,
    ownerId: d.ownerId,
    url: d.url,
    events: (Array.isArray(d.events) ? d.events : []).map(String) as WebhookEventType[],
    description: typeof d.description === 'string' ? d.description : '',
    enabled: d.enabled !== false,
    secret: d.secret,
    createdAt: asDate(d.createdAt),
    updatedAt: asDate(d.updatedAt),
  };
}

export function webhookPatchToSet(patch: WebhookPatch): Record<string, unknown> {
  const set: Record<string, unknown> = { updatedAt: patch.updatedAt };
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.events !== undefined) set.events = [...patch.events];
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.enabled !== undefined) set.enabled = patch.enabled;
  return set;
}

const leaseOf = (l: WebhookDeliveryDoc['lease']): WebhookLease | null =>
  l && typeof l.owner === 'string' ? { owner: l.owner, until: asDate(l.until) } : null;

const attemptOf = (a: WebhookDeliveryDoc['log'][number]): WebhookAttempt => ({
  at: asDate(a.at),
  statusCode: typeof a.statusCode === 'number' ? a.statusCode : null,
  error: typeof a.error === 'string' ? a.error : null,
  durationMs: typeof a.durationMs === 'number' ? a.durationMs : 0,
});

export function deliveryToDoc(r: WebhookDeliveryRecord): WebhookDeliveryDoc {
  return {
    _id: r.id,
    webhookId: r.webhookId,
    projectId: r.projectId,
    ownerId: r.ownerId,
    taskId: r.taskId,
    type: r.type,
    payload: r.payload,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt,
    lease: r.lease === null ? null : { owner: r.lease.owner, until: r.lease.until },
    log: r.log.map((a) => ({ ...a })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function docToDelivery(d: WebhookDeliveryDoc): WebhookDeliveryRecord {
  return {
    id: String(d._id),
    webhookId: d.webhookId,
    projectId: d.projectId,
    ownerId: d.ownerId,
    taskId: typeof d.taskId === 'string' ? d.taskId : null,
    type: d.type as WebhookDeliveryType,
    payload: d.payload,
    status: d.status as WebhookDeliveryStatus,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt === null || d.nextAttemptAt === undefined ? null : asDate(d.nextAttemptAt),
    lease: leaseOf(d.lease),
    log: (Array.isArray(d.log) ? d.log : []).map(attemptOf),
    createdAt: asDate(d.createdAt),
    updatedAt: asDate(d.updatedAt),
  };
}

export function deliveryPatchToSet(patch: WebhookDeliveryPatch): Record<string, unknown> {
  const set: Record<string, unknown> = { updatedAt: patch.updatedAt };
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.attempts !== undefined) set.attempts = patch.attempts;
  if (patch.nextAttemptAt !== undefined) set.nextAttemptAt = patch.nextAttemptAt;
  if (patch.lease !== undefined)
    set.lease = patch.lease === null ? null : { owner: patch.lease.owner, until: patch.lease.until };
  if (patch.log !== undefined) set.log = patch.log.map((a) => ({ ...a }));
  return set;
}
