import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';

/** Whether a request announced a body (a Content-Length above 0, or a Transfer-Encoding). */
function announcesBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * The server's responses (issue #37, finding 7). A response whose head is written while its
 * request's body is still unread — an error answered before the body was taken (413 on a declared
 * length, 401 before an upload, 415) — closes the connection instead of keeping it alive: Node would
 * otherwise read and discard the rest of the body to reuse the socket (the audit saw 392 MB taken in
 * 8 s after a 413, 249 MB in 5 s with no login). With `Connection: close` Node ends the socket once
 * the answer is flushed, so at most what is in flight is read. Bodies the apps read in full are not
 * affected: their heads are written after the body ended.
 */
export class ClosingResponse extends ServerResponse {
  override writeHead(
    statusCode: number,
    statusMessageOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const req = this.req as IncomingMessage | undefined;
    if (req !== undefined && !req.complete && announcesBody(req)) this.shouldKeepAlive = false;
    if (typeof statusMessageOrHeaders === 'string')
      return super.writeHead(statusCode, statusMessageOrHeaders, headers);
    return super.writeHead(statusCode, statusMessageOrHeaders);
  }
}
