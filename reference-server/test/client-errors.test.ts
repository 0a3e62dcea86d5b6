import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * Requests Node's HTTP layer answers before (or instead of) the apps — headers too large, requests
 * that do not arrive in time, bytes that are not HTTP — sent over raw sockets on loopback. Every
 * answer is JSON with X-Request-Id, like the apps' own answers.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  raw: string;
}

/** Writes `parts` to a fresh connection (a number is a pause in ms) and reads until the server closes. */
function exchange(port: number, parts: Array<string | number>, timeoutMs = 8_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let raw = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms; got ${JSON.stringify(raw.slice(0, 200))}`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      raw += chunk;
    });
    socket.on('error', () => undefined); // a reset after the answer still leaves the answer to read
    socket.on('close', () => {
      clearTimeout(timer);
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`not an HTTP response: ${JSON.stringify(raw.slice(0, 200))}`));
        return;
      }
      const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = raw.slice(split + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // left as text: the assertions say what was expected
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, raw });
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else if (!socket.destroyed) socket.write(part);
      }
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectJson(res: RawResponse, status: number) {
  expect(res.status, res.raw.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res.body)));
  expect(res.headers.connection).toBe('close');
  expect(res.headers['x-request-id']).toBeTruthy();
}

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer({ kind: 'embedded' });
  port = server.running.port;
  // short limits, so the timeouts happen within the test (checked every second)
  server.running.httpServer.headersTimeout = 600;
  server.running.httpServer.requestTimeout = 800;
});
afterAll(async () => {
  await server.destroy();
});

describe("answers of Node's HTTP layer", () => {
  it('431 with the envelope for request headers over the limit', async () => {
    const res = await exchange(port, [
      `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expectJson(res, 431);
    expect(res.body).toEqual({ code: 431, message: '请求头过大', data: { reason: 'headers_too_large' } });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('408 with the envelope and the request id when the body stops arriving', async () => {
    const body = JSON.stringify({ username: 'slowpoke', password: 'secret-pass' });
    const res = await exchange(port, [
      'POST /auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nX-Request-Id: slow-body-1\r\n\r\n`,
      body.slice(0, 10),
    ]);
    expectJson(res, 408);
    expect(res.body).toEqual({ code: 408, message: '请求超时', data: { reason: 'request_timeout' } });
    expect(res.headers['x-request-id']).toBe('slow-body-1');
    // nothing of the cut-off request was applied
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(login.status).toBe(401);
  });

  it('408 with the envelope when the headers stop arriving', async () => {
    const res = await exchange(port, ['GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Partial: ']);
    expectJson(res, 408);
    expect(res.body).toEqual({ code: 408, message: '请求超时', data: { reason: 'request_timeout' } });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('400 with the envelope for bytes that are not HTTP', async () => {
    const res = await exchange(port, ['HELLO THERE\r\n\r\n']);
    expectJson(res, 400);
    expect(res.body).toEqual({
      code: 400,
      message: '参数错误',
      data: expect.objectContaining({ reason: 'invalid_request' }),
    });
    const chunked = await exchange(port, [
      'POST /auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]);
    expectJson(chunked, 400);
    expect(chunked.body).toEqual({
      code: 400,
      message: '参数错误',
      data: expect.objectContaining({ reason: 'invalid_request' }),
    });
  });

  it("answers in the review helper's own shape on its paths", async () => {
    const res = await exchange(port, [
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: 60\r\nX-Request-Id: slow-review-1\r\n\r\n`,
      '{"email":',
    ]);
    expectJson(res, 408);
    expect(res.body).toEqual({ error: '请求超时', reason: 'request_timeout' });
    expect(res.headers['x-request-id']).toBe('slow-review-1');
  });

  it('still serves normal requests on the same listener', async () => {
    const res = await exchange(port, [
      'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, message: 'ok' });
  });
});
