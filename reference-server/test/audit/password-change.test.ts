import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newUser, type StoreTarget, startTestServer, type TestServer } from '../helpers.js';

/**
 * Audit finding 4: two simultaneous password changes with the same token both succeeded; both new
 * tokens worked and only one of the passwords logged in. A change is now a compare-and-swap on the
 * credential version: exactly one of the racers succeeds, the others answer 401 (their token was
 * revoked by the winner), and only the winner's password and token work.
 */
const mongoUri = injectMongoUri('password change compare-and-swap on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

describe.each(targets)('password change on the %s store', (_name, target) => {
  let server: TestServer;
  beforeAll(async () => {
    if (target === null) return;
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.destroy();
  });
  const test = target === null ? it.skip : it;

  test.each([2, 6])('%i simultaneous changes with one token: exactly one succeeds', async (racers) => {
    const api = client(server.url);
    const user = await newUser(server.url, { password: 'old-password' });
    const passwords = Array.from({ length: racers }, (_, i) => `new-password-${i}`);
    const answers = await Promise.all(
      passwords.map((newPassword) =>
        api.put('/api/v1/auth/password', { oldPassword: 'old-password', newPassword }, { token: user.token }),
      ),
    );
    const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(won, JSON.stringify(answers.map((a) => a.status))).toHaveLength(1);
    for (const [i, a] of answers.entries()) {
      if (i === won[0]) continue;
      expect(a.status).toBe(401);
      expect(a.body).toEqual({ code: 401, message: '未登录或 Token 已过期', data: null });
    }
    const winner = won[0] as number;
    // The winner's token works, the old one does not; only the winner's password logs in.
    expect((await api.get('/api/v1/auth/me', { token: answers[winner]?.body.data.token })).status).toBe(200);
    expect((await api.get('/api/v1/auth/me', { token: user.token })).status).toBe(401);
    // (The winner first: the others are failed logins, five of which the limiter allows.)
    const order = [winner, ...passwords.keys()].filter((i, at, all) => all.indexOf(i) === at);
    for (const i of order) {
      const login = await api.post('/auth/login', { username: user.username, password: passwords[i] });
      expect(login.status, passwords[i]).toBe(i === winner ? 200 : 401);
    }
  });
});
