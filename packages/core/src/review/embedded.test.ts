import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeReviewStoreContract } from '../../test/contracts/review-store.contract.js';
import { createEmbeddedReviewStore } from './embedded.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-review-'));
  dirs.push(dir);
  return dir;
}

describeReviewStoreContract('embedded, memory', () => createEmbeddedReviewStore());
describeReviewStoreContract('embedded, on disk', async () =>
  createEmbeddedReviewStore({ dir: await freshDir() }),
);

describe('embedded review store on disk', () => {
  it('keeps users, settings and sessions across a reopen', async () => {
    const dir = await freshDir();
    const at = new Date();
    const first = createEmbeddedReviewStore({ dir });
    const created = await first.users.create({
      email: 'keep@x.io',
      passwordHash: 'h',
      createdAt: at,
      updatedAt: at,
    });
    await first.settings.insertMissing(created.id, [{ key: 'k', value: 'v' }], at);
    await first.sessions.set({
      id: 'sid',
      data: '{}',
      userId: created.id,
      expiresAt: new Date(at.getTime() + 60_000),
      updatedAt: at,
    });
    await first.close();
    const second = createEmbeddedReviewStore({ dir });
    expect(second.kind).toBe('embedded');
    expect((await second.users.byEmail('keep@x.io'))?.id).toBe(created.id);
    expect(await second.settings.list(created.id)).toHaveLength(1);
    expect((await second.sessions.get('sid', at))?.userId).toBe(created.id);
    await second.close();
    await expect(second.users.byId(1)).rejects.toThrow(/closed/);
  });

  it('refuses an empty dir', () => {
    expect(() => createEmbeddedReviewStore({ dir: '/' })).toThrow(/non-empty path/);
  });
});
