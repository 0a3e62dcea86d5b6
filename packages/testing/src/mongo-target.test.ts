import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getFreePort } from './free-port.js';
import { isCI, resolveMongoTarget } from './mongo-target.js';

let emptyCache: string;
beforeAll(async () => {
  emptyCache = await mkdtemp(join(tmpdir(), 'assetloom-target-test-'));
});
afterAll(async () => {
  await rm(emptyCache, { recursive: true, force: true });
});

describe('isCI', () => {
  it.each([
    ['unset', { given: undefined, want: false }],
    ['empty', { given: '', want: false }],
    ['false', { given: 'false', want: false }],
    ['FALSE', { given: ' FALSE ', want: false }],
    ['0', { given: '0', want: false }],
    ['true', { given: 'true', want: true }],
    ['1', { given: '1', want: true }],
  ])('%s', (_name, { given, want }) => {
    expect(isCI(given === undefined ? {} : { CI: given })).toBe(want);
  });
});

describe('resolveMongoTarget without a usable server', () => {
  it('returns "unavailable: …" outside CI when MONGODB_URI does not answer', async () => {
    const port = await getFreePort();
    const target = await resolveMongoTarget({
      env: { MONGODB_URI: `mongodb://user:secret@127.0.0.1:${port}/?directConnection=true` },
      ci: false,
      pingTimeoutMs: 500,
    });
    expect(target.kind).toBe('unavailable');
    expect(target.uri).toBeNull();
    if (target.kind !== 'unavailable') return;
    expect(target.reason).toMatch(/^unavailable: MONGODB_URI \(mongodb:\/\/user:\*\*\*@127\.0\.0\.1:\d+/);
    expect(target.reason).not.toContain('secret');
    await target.stop();
  });

  it('throws MONGO_UNAVAILABLE in CI', async () => {
    const port = await getFreePort();
    await expect(
      resolveMongoTarget({
        env: { MONGODB_URI: `mongodb://127.0.0.1:${port}`, CI: 'true' },
        pingTimeoutMs: 500,
      }),
    ).rejects.toMatchObject({
      code: 'MONGO_UNAVAILABLE',
      message: expect.stringMatching(
        /^\[assetloom\/testing\] no MongoDB test target in CI — unavailable: MONGODB_URI/,
      ),
    });
  });

  it.each([['not a uri'], ['mongodb://'], ['http://127.0.0.1:1'], ['mongodb+srv://']])(
    'treats a malformed MONGODB_URI %j as unavailable, not a crash',
    async (uri) => {
      const target = await resolveMongoTarget({ env: { MONGODB_URI: uri }, ci: false, pingTimeoutMs: 500 });
      expect(target).toMatchObject({ kind: 'unavailable', uri: null });
    },
  );

  it('explains a missing Go toolchain when nothing is cached', async () => {
    const target = await resolveMongoTarget({
      env: { PATH: '' },
      go: join(emptyCache, 'no-go-here'),
      cacheRoot: emptyCache,
      ci: false,
    });
    expect(target.kind).toBe('unavailable');
    if (target.kind !== 'unavailable') return;
    expect(target.reason).toMatch(
      /^unavailable: MONGODB_URI is not set and FerretDB could not be used: .*Install Go/,
    );
  });
});

describe('resolveMongoTarget with MONGODB_URI', () => {
  const uri = inject('mongoUri');
  it.skipIf(!uri)('uses a MONGODB_URI that answers ping, and stop() leaves it running', async () => {
    const target = await resolveMongoTarget({ env: { MONGODB_URI: uri ?? '' }, ci: isCI() });
    expect(target).toMatchObject({ kind: 'env', uri });
    await target.stop();
    const again = await resolveMongoTarget({ env: { MONGODB_URI: uri ?? '' }, ci: isCI() });
    expect(again.kind).toBe('env');
  });
});
