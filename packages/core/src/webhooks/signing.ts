import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers of one attempt. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

function randomBytes(n: number): Uint8Array {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new Error(
      '[assetloom/core] globalThis.crypto.getRandomValues is missing; run on Node ≥ 20 or a modern browser',
    );
  }
  return c.getRandomValues(new Uint8Array(n));
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A new signing secret: `whsec_` + base64 of 24 random bytes (192 bits), the Standard Webhooks form. */
export function newWebhookSecret(): string {
  return `whsec_${base64(randomBytes(24))}`;
}

/** A random event id for events that are not tied to a task (pings): `msg_` + 22 URL-safe characters. */
export function randomEventId(): string {
  return `msg_${base64(randomBytes(16)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/**
 * The headers of one delivery attempt, signed with the Standard Webhooks library (`standardwebhooks`):
 * `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `<id>.<unix seconds>.<payload>` under the
 * secret's decoded bytes. The payload must be sent byte for byte as signed.
 */
export function signWebhook(secret: string, id: string, at: Date, payload: string): WebhookSignatureHeaders {
  const signature = new Webhook(secret).sign(id, at, payload);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
