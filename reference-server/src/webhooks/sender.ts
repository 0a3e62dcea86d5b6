import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  addressProblem,
  allowlistProblem,
  isIpLiteral,
  type WebhookSend,
  type WebhookTargetPolicy,
} from '@assetloom/core/webhooks';

/** A target refused by the SSRF guard (the attempt's log shows the message). */
export class WebhookTargetError extends Error {
  override readonly name = 'WebhookTargetError';
}

const bare = (host: string): string =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    );
  });
}

/**
 * Why a named host may not receive webhooks: ANY address it resolves to is refused by the policy
 * (loopback, private, link-local, unique-local, multicast, reserved …). A host that does not resolve
 * now is not refused here: nothing can be reached through it, and every delivery resolves it again
 * and checks each address in the connection's own lookup.
 */
export async function hostProblem(
  hostname: string,
  policy: WebhookTargetPolicy,
): Promise<string | undefined> {
  if (policy.allowPrivateTargets === true) return undefined;
  const host = bare(hostname);
  if (isIpLiteral(hostname)) return addressProblem(host, policy);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    return undefined;
  }
  for (const a of addresses) {
    const problem = addressProblem(a.address, policy);
    if (problem !== undefined) return `${host} resolves to a refused address: ${problem}`;
  }
  return undefined;
}

/**
 * A DNS lookup for the socket that checks every address it hands over, so the address connected to
 * is the address checked (no window for DNS rebinding between the check and the connection).
 */
function guardedLookup(policy: WebhookTargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as unknown as LookupAddress[];
      for (const a of list) {
        const problem = addressProblem(a.address, policy);
        if (problem !== undefined) {
          return callback(
            new WebhookTargetError(`refused target: ${hostname} resolves to a ${problem}`),
            '',
            4,
          );
        }
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (first === undefined) return callback(new WebhookTargetError(`${hostname} does not resolve`), '', 4);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The server's webhook sender: one POST over node:http(s), no redirects followed (a 3xx is a
 * failed attempt), the answer's body drained and ignored. Every address is checked at delivery
 * time too — IP literals before connecting, names in the socket's own DNS lookup.
 */
export function createWebhookSender(policy: WebhookTargetPolicy): WebhookSend {
  const lookup = guardedLookup(policy);
  return ({ url, headers, body, signal }) =>
    new Promise((resolve, reject) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        reject(new WebhookTargetError('refused target: not an absolute URL'));
        return;
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        reject(new WebhookTargetError('refused target: only http and https are allowed'));
        return;
      }
      // The allowlist (WEBHOOK_ALLOWED_HOSTS) is judged before any DNS lookup or connection.
      const outside = allowlistProblem(target.hostname, policy);
      if (outside !== undefined) {
        reject(new WebhookTargetError(`refused target: ${outside}`));
        return;
      }
      if (isIpLiteral(target.hostname)) {
        const problem = addressProblem(bare(target.hostname), policy);
        if (problem !== undefined) {
          reject(new WebhookTargetError(`refused target: ${problem}`));
          return;
        }
      }
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const bytes = Buffer.from(body, 'utf8');
      const req = send(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(bytes.length) },
          signal,
          ...(policy.allowPrivateTargets === true ? {} : { lookup }),
        },
        (res: IncomingMessage) => {
          // Drain at most 64 KiB of the answer; its content is not used.
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > 65_536) res.destroy();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('close', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', () => resolve({ status: res.statusCode ?? 0 }));
        },
      );
      req.on('error', (error) => reject(error));
      req.end(bytes);
    });
}
