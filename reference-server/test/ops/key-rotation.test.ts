import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { FileUrlSigner } from '../../src/storage/signing.js';
import { JwtTokenService } from '../../src/tokens.js';
import { client, newUser, testEnv } from '../helpers.js';
import { waitForTaskEnd } from '../task-helpers.js';

const OLD = 'old-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const NEW = 'new-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const OTHER = 'other-secret-0123456789-abcdefghijklmnopqrstuvw';

describe('JWT key rotation (JWT_SECRET_PREVIOUS)', () => {
  it('accepts tokens of a retiring secret until they expire, signs only with the new one', async () => {
    let now = 1_000_000;
    const before = new JwtTokenService({ secret: OLD, ttlSeconds: 600, now: () => now });
    const { token } = await before.issue({ sub: 7, tv: 0 });
    const rotated = new JwtTokenService({
      secret: NEW,
      previousSecrets: [OLD],
      ttlSeconds: 600,
      now: () => now,
    });
    const after = new JwtTokenService({ secret: NEW, ttlSeconds: 600, now: () => now });
    expect(await rotated.verify(token)).toEqual({ sub: 7, tv: 0 });
    expect(await after.verify(token)).toBeNull();
    // New tokens verify without the old secret: they are signed with the new one.
    const fresh = (await rotated.issue({ sub: 8, tv: 1 })).token;
    expect(await after.verify(fresh)).toEqual({ sub: 8, tv: 1 });
    expect(await before.verify(fresh)).toBeNull();
    // A token of a secret on no list, or an old one past its exp, stays refused.
    const foreign = (
      await new JwtTokenService({ secret: OTHER, ttlSeconds: 600, now: () => now }).issue({ sub: 7, tv: 0 })
    ).token;
    expect(await rotated.verify(foreign)).toBeNull();
    now += 601;
    const expiredRotated = new JwtTokenService({
      secret: NEW,
      previousSecrets: [OLD],
      ttlSeconds: 600,
      now: () => now,
    });
    expect(await expiredRotated.verify(token)).toBeNull();
  });

  it('validates the previous secrets', () => {
    const short = loadConfig({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: `${OLD},short` });
    expect(!short.ok && short.error.message).toMatch(
      /JWT_SECRET_PREVIOUS.*secret 2 must be at least 32 bytes/,
    );
    const same = loadConfig({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: NEW });
    expect(!same.ok && same.error.message).toMatch(/equals JWT_SECRET/);
    const ok = loadConfig({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: ` ${OLD} , ${OTHER} ` });
    expect(ok.ok && ok.value.auth.jwtPreviousSecrets).toEqual([OLD, OTHER]);
  });
});

describe('signed URL key rotation (FILES_SIGNING_SECRET_PREVIOUS)', () => {
  it('verifies URLs of the retiring key and signs with the new one', () => {
    const old = new FileUrlSigner(OLD);
    const rotated = new FileUrlSigner(NEW, [OLD]);
    const after = new FileUrlSigner(NEW);
    const token = old.token('projects/p/a.png', 2_000);
    expect(rotated.verify('projects/p/a.png', '2000', token, 1_000)).toEqual({ ok: true, expiresAt: 2_000 });
    expect(after.verify('projects/p/a.png', '2000', token, 1_000)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
    expect(rotated.verify('projects/p/b.png', '2000', token, 1_000)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
    expect(rotated.verify('projects/p/a.png', '2000', token, 2_001)).toEqual({
      ok: false,
      problem: 'expired',
    });
    expect(rotated.token('k', 5)).toBe(after.token('k', 5));
  });

  it('validates FILES_SIGNING_SECRET_PREVIOUS', () => {
    const bad = loadConfig({ JWT_SECRET: NEW, FILES_SIGNING_SECRET_PREVIOUS: 'short' });
    expect(!bad.ok && bad.error.message).toMatch(/FILES_SIGNING_SECRET_PREVIOUS/);
  });
});

describe('rotating JWT_SECRET on a running deployment (restart with the new secret)', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps sessions and download links of the old secret working while it is listed as previous', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'assetloom-rotation-'));
    const start = async (env: Record<string, string>) => {
      const loaded = loadConfig(testEnv({ DATA_DIR: dataDir as string, WORKER_POLL_MS: '50', ...env }));
      if (!loaded.ok) throw loaded.error;
      return startServer(loaded.value);
    };
    // Before: the old secret; the files key is derived from it.
    let running = await start({ JWT_SECRET: OLD });
    const user = await newUser(running.url);
    const api = client(running.url);
    const project = await api.post('/api/v1/projects', { name: 'Rotate' }, { token: user.token });
    const task = await api.post(
      '/api/v1/generate',
      { projectId: project.body.data.id, prompt: 'a key', assetType: 'sprite', params: { resolution: 16 } },
      { token: user.token },
    );
    const taskId = task.body.data.taskId as string;
    expect(await waitForTaskEnd(running.url, user.token, taskId)).toMatchObject({ status: 'completed' });
    const assets = await api.get(`/api/v1/tasks/${taskId}/assets`, { token: user.token });
    const fileUrl = new URL((assets.body.data.assets as { url: string }[])[0]?.url as string);
    await running.close();

    // During the rotation: the new secret signs, the old one still verifies.
    running = await start({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
    const during = client(running.url);
    expect((await during.get('/api/v1/auth/me', { token: user.token })).status).toBe(200);
    const file = await fetch(`${running.url}${fileUrl.pathname}${fileUrl.search}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    const relogin = await during.post('/auth/login', { username: user.username, password: user.password });
    const newToken = relogin.body.data.token as string;
    await running.close();

    // After: the old secret is gone; its tokens and links are refused, the new token works.
    running = await start({ JWT_SECRET: NEW });
    const after = client(running.url);
    expect((await after.get('/api/v1/auth/me', { token: user.token })).status).toBe(401);
    expect((await after.get('/api/v1/auth/me', { token: newToken })).status).toBe(200);
    const refused = await fetch(`${running.url}${fileUrl.pathname}${fileUrl.search}`);
    expect(refused.status).not.toBe(200);
    await running.close();
  });
});
