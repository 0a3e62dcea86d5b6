import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startTestServer, type TestServer } from '../helpers.js';

/**
 * Issue #37, finding 4: when Node's HTTP parser refused a request (431, an invalid header, an invalid
 * Transfer-Encoding), the server logged the parser's error whole — and Node's parser errors carry
 * `rawPacket`, the request's bytes: the bearer token, the login cookie, JSON bodies with passwords.
 * The log line now carries the parser's code, reason and bytesParsed, never the bytes.
 */

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.secret-bearer-token-37.sig';
const COOKIE = 'assetloom_token=secret-cookie-value-37';
const PASSWORD = 'secret-password-37';

/** Writes `raw` to a fresh connection and resolves with what came back once the server closed it. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 8 s'));
    }, 8_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('connect', () => socket.write(raw));
  });
}

let server: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  const logger = createLogger('info', {
    write(line: string) {
      lines.push(line);
    },
  });
  server = await startTestServer({ kind: 'embedded' }, { LOG_LEVEL: 'info' }, { logger });
});
afterAll(async () => {
  await server.destroy();
});

describe("a request Node's parser refuses is logged without its bytes", () => {
  const cases: Array<[string, { raw: string; status: number; code: string }]> = [
    [
      'headers over the limit (431), with a bearer token and a cookie',
      {
        raw:
          `GET /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `Cookie: ${COOKIE}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
        status: 431,
        code: 'HPE_HEADER_OVERFLOW',
      },
    ],
    [
      'an invalid header line after the credentials',
      {
        raw:
          `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `Cookie: ${COOKIE}\r\nBad Header\u0001: x\r\n\r\n`,
        status: 400,
        code: 'HPE_INVALID_HEADER_TOKEN',
      },
    ],
    [
      'an invalid Transfer-Encoding with a JSON body holding a password',
      {
        raw:
          `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${COOKIE}\r\nTransfer-Encoding: chunked\r\n\r\n` +
          `zz\r\n{"username":"alice","password":"${PASSWORD}"}\r\n`,
        status: 400,
        code: 'HPE_INVALID_CHUNK_SIZE',
      },
    ],
  ];

  it.each(cases)('%s', async (_name, { raw, status, code }) => {
    lines.length = 0;
    const answer = await exchange(server.running.port, raw);
    expect(answer.split(' ')[1]).toBe(String(status));
    server.running.logger.flush();
    const logged = lines.join('');
    const entry = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.code === code);
    expect(entry, logged.slice(0, 500)).toBeDefined();
    // nothing of what the request carried …
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain('secret-cookie-value-37');
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain('rawPacket');
    // … and what the parser says of the failure is kept
    expect(entry?.error).toEqual(
      expect.objectContaining({ message: expect.any(String), bytesParsed: expect.any(Number) }),
    );
  });
});
