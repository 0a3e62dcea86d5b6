import ipaddr from 'ipaddr.js';
import { describeSpecialRange, specialRangeOf } from './special-ranges.js';

/**
 * Where webhooks may point. By default only public unicast addresses are allowed: every range of
 * the IANA IPv4 and IPv6 special-purpose registries, multicast, and (IPv6) everything outside
 * global unicast is refused — one table, `special-ranges.ts`. IPv4-mapped IPv6 addresses are judged
 * as the IPv4 address they carry; every other IPv4-embedding IPv6 range is refused whole.
 */
export interface WebhookTargetPolicy {
  /** Allow every address (development and tests on loopback). Default false. */
  allowPrivateTargets?: boolean;
  /**
   * An egress allowlist: when given and not empty, a webhook may only target these hosts. An entry is
   * a host name or IP literal matched exactly (case-insensitive, trailing dot and IPv6 brackets
   * ignored), or `*.example.com` for any name under example.com. Checked before any DNS lookup, at
   * registration and at every delivery, in addition to the address rules above.
   */
  allowedHosts?: readonly string[];
}

/** A host as compared by the allowlist: lower case, no trailing dot, no IPv6 brackets. */
function canonicalHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/**
 * Why a host is outside the policy's allowlist, or undefined when it is inside or no list is set.
 * `*.example.com` matches `a.example.com` and `a.b.example.com`, not `example.com` itself.
 */
export function allowlistProblem(hostname: string, policy: WebhookTargetPolicy = {}): string | undefined {
  const list = policy.allowedHosts;
  if (list === undefined || list.length === 0) return undefined;
  const host = canonicalHost(hostname);
  for (const raw of list) {
    const entry = canonicalHost(raw);
    if (entry.startsWith('*.')) {
      if (host.endsWith(entry.slice(1)) && host.length > entry.length - 1) return undefined;
    } else if (entry === host) {
      return undefined;
    }
  }
  return `${host} is not in the allowed webhook hosts`;
}

/** Why an IP address may not receive webhooks, or undefined when it may. */
export function addressProblem(address: string, policy: WebhookTargetPolicy = {}): string | undefined {
  if (policy.allowPrivateTargets === true) return undefined;
  const match = specialRangeOf(address);
  return match === undefined ? undefined : describeSpecialRange(match);
}

/** Whether a URL host (as `URL#hostname` gives it, IPv6 in brackets) is an IP literal. */
export function isIpLiteral(hostname: string): boolean {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare));
}

/**
 * Why a string is not a usable webhook URL (400 参数错误): an absolute http(s) URL of at most 2048
 * characters, with a host, without credentials or a fragment. The contract's `WebhookUrl` pattern
 * states the same.
 */
export function webhookUrlSyntaxProblem(url: string): string | undefined {
  if (typeof url !== 'string' || url.length > 2048)
    return 'the URL must be a string of at most 2048 characters';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return 'only http and https URLs are allowed';
  if (parsed.username !== '' || parsed.password !== '') return 'the URL must not carry credentials';
  if (parsed.hash !== '' || url.includes('#')) return 'the URL must not carry a fragment';
  if (parsed.hostname === '') return 'the URL has no host';
  return undefined;
}

/**
 * Why a well-formed URL's target is refused by the policy, judged without DNS (403): a host outside
 * the allowlist (when one is set) is refused; an IP-literal
 * host must pass {@link addressProblem}; `localhost` names and single-label hosts (`http://intranet/`)
 * are refused unless private targets are allowed. A named host is then resolved and every address
 * checked by the deployment, at registration and again at every delivery.
 */
export function webhookTargetProblem(url: string, policy: WebhookTargetPolicy = {}): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return 'not an absolute URL';
  }
  const outside = allowlistProblem(host, policy);
  if (outside !== undefined) return outside;
  if (policy.allowPrivateTargets === true) return undefined;
  if (isIpLiteral(host)) return addressProblem(host, policy);
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost is not allowed';
  if (!name.includes('.')) return 'the host must be a fully qualified domain name';
  return undefined;
}

/** {@link webhookUrlSyntaxProblem}, then {@link webhookTargetProblem}: why a URL may not be a webhook target. */
export function webhookUrlProblem(url: string, policy: WebhookTargetPolicy = {}): string | undefined {
  return webhookUrlSyntaxProblem(url) ?? webhookTargetProblem(url, policy);
}
