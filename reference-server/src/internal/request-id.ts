import { randomUUID } from 'node:crypto';

/** 1-128 visible ASCII characters: a client-sent X-Request-Id that matches is echoed. */
const CLIENT_REQUEST_ID = /^[\x21-\x7E]{1,128}$/;

/** The request id of a request: the client's `X-Request-Id` when acceptable, else a fresh UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === 'string' && CLIENT_REQUEST_ID.test(header)) return header;
  return randomUUID();
}
