import { randomUUID } from 'node:crypto';

/**
 * A client-sent X-Request-Id that is echoed: 1-64 characters of letters, digits, `.`, `_`, `:` and
 * `-`, starting with a letter or digit (UUIDs, ULIDs, W3C trace ids and the usual `req-…` forms fit).
 * Anything else (markup, quotes, separators, slashes, control or non-ASCII characters, longer values)
 * gets a fresh id instead, so the header, the logs and any page that shows the id never carry
 * client-chosen syntax.
 */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** The request id of a request: the client's `X-Request-Id` when acceptable, else a fresh UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === 'string' && CLIENT_REQUEST_ID.test(header)) return header;
  return randomUUID();
}
