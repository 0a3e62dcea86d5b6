import type { AssetApiComponents } from '@assetloom/openapi';
import { Webhook } from 'standardwebhooks';

/** The body of every webhook request (the contract's `WebhookEvent`). */
export type WebhookEvent = AssetApiComponents['schemas']['WebhookEvent'];

/** Headers as a fetch `Headers`, or a plain object such as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/** Why a webhook request was not accepted: missing headers, a bad signature, or a stale timestamp. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value[0] as string | undefined) : (value as string | undefined);
}

/**
 * Verifies a webhook request from Assetloom and answers its event. `payload` is the raw body as
 * received (text or bytes; do not parse and re-serialise it first), `headers` the request's headers,
 * `secret` the `whsec_…` secret shown when the webhook was registered. Checks the Standard Webhooks
 * signature (HMAC-SHA256 over `webhook-id.webhook-timestamp.body`, through the `standardwebhooks`
 * library) and that the timestamp is within 5 minutes of now; throws WebhookVerificationError
 * otherwise. Deliveries are at least once: drop an event whose `webhook-id` you have seen.
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): WebhookEvent {
  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signature === undefined) {
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  let verifier: Webhook;
  try {
    verifier = new Webhook(secret);
  } catch (error) {
    throw new WebhookVerificationError(`unusable secret: ${(error as Error).message}`);
  }
  try {
    return verifier.verify(text, {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    }) as WebhookEvent;
  } catch (error) {
    throw new WebhookVerificationError((error as Error).message || 'invalid signature');
  }
}
