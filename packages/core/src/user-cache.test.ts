import { describe, expect, it } from 'vitest';
import { fakeHasher, fakeTokens, steppingClock } from '../test/fakes.js';
import { createEmbeddedStore } from './embedded.js';
import { createAssetService } from './service.js';
import type { Store } from './store.js';

/** The embedded store with its user reads counted. */
async function countedStore(): Promise<{ store: Store; reads: () => number }> {
  const inner = createEmbeddedStore();
  await inner.init();
  let reads = 0;
  const store: Store = {
    ...inner,
    users: {
      ...inner.users,
      byId: (id) => {
        reads++;
        return inner.users.byId(id);
      },
    },
  };
  return { store, reads: () => reads };
}

async function setup(userCacheMs: number) {
  const { store, reads } = await countedStore();
  const clock = steppingClock();
  const service = createAssetService({
    store,
    hasher: fakeHasher(),
    tokens: fakeTokens(clock),
    clock,
    userCacheMs,
  });
  await service.register({ username: 'alice', password: 'secret-pass' });
  const login = await service.login({ username: 'alice', password: 'secret-pass' }, { ip: '127.0.0.1' });
  return { service, clock, reads, token: login.token };
}

describe('the user cache of authenticated requests (userCacheMs)', () => {
  it('reads the user once per TTL, then again after it', async () => {
    const { service, clock, reads, token } = await setup(1000);
    await service.authenticate(token);
    await service.authenticate(token);
    await service.authenticate(token);
    expect(reads()).toBe(1);
    clock.advance(1500);
    await service.authenticate(token);
    expect(reads()).toBe(2);
  });

  it('off by default: every request reads the user', async () => {
    const { service, reads, token } = await setup(0);
    await service.authenticate(token);
    await service.authenticate(token);
    expect(reads()).toBe(2);
  });

  it('a password change in this process refuses the old token at once and accepts the new one', async () => {
    const { service, token } = await setup(60_000);
    const user = await service.authenticate(token);
    const fresh = await service.changePassword(user, {
      oldPassword: 'secret-pass',
      newPassword: 'other-pass',
    });
    await expect(service.authenticate(token)).rejects.toMatchObject({ code: 401 });
    await expect(service.authenticate(fresh.token)).resolves.toMatchObject({ username: 'alice' });
  });

  it('two processes: a newer token is read, not refused; the revoked one lasts at most the TTL elsewhere', async () => {
    const { store } = await countedStore();
    const clock = steppingClock();
    const tokens = fakeTokens(clock);
    const make = () => createAssetService({ store, hasher: fakeHasher(), tokens, clock, userCacheMs: 1000 });
    const a = make();
    const b = make();
    await a.register({ username: 'bob', password: 'secret-pass' });
    const login = await a.login({ username: 'bob', password: 'secret-pass' }, { ip: '127.0.0.1' });
    const user = await b.authenticate(login.token); // b remembers version 0
    const changed = await a.changePassword(user, { oldPassword: 'secret-pass', newPassword: 'other-pass' });
    await expect(a.authenticate(login.token)).rejects.toMatchObject({ code: 401 });
    await expect(b.authenticate(changed.token)).resolves.toMatchObject({ username: 'bob' });
    // b read version 1 for the new token, so the old one is refused there too from now on
    await expect(b.authenticate(login.token)).rejects.toMatchObject({ code: 401 });
  });

  it('two processes: without a newer token, the other process refuses the revoked one once the TTL passed', async () => {
    const { store } = await countedStore();
    const clock = steppingClock();
    const tokens = fakeTokens(clock);
    const make = () => createAssetService({ store, hasher: fakeHasher(), tokens, clock, userCacheMs: 1000 });
    const a = make();
    const b = make();
    await a.register({ username: 'carol', password: 'secret-pass' });
    const login = await a.login({ username: 'carol', password: 'secret-pass' }, { ip: '127.0.0.1' });
    const user = await b.authenticate(login.token);
    await a.changePassword(user, { oldPassword: 'secret-pass', newPassword: 'other-pass' });
    // the documented window: b still trusts its record of version 0 ...
    await expect(b.authenticate(login.token)).resolves.toMatchObject({ username: 'carol' });
    clock.advance(1001);
    // ... for at most userCacheMs
    await expect(b.authenticate(login.token)).rejects.toMatchObject({ code: 401 });
  });
});
