import { access } from 'node:fs/promises';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ensureFerretDB, ferretdbCacheRoot, startFerretDB } from '../src/ferretdb.js';
import { isCI } from '../src/mongo-target.js';
import { pingMongo } from '../src/ping.js';

// Starts a second, private FerretDB (beside the run's shared target) to check start and stop.
// Needs a cached binary; CI builds it in bootstrap (prepare-mongo), so there it must exist.
const cached = await ensureFerretDB({ cacheRoot: ferretdbCacheRoot(), go: '/nonexistent/go' }).catch(
  (error: unknown) => error as Error,
);
const binary = cached instanceof Error ? null : cached.binary;
if (!binary) {
  const why = cached instanceof Error ? cached.message : 'unknown';
  if (isCI()) throw new Error(`[assetloom/testing] FerretDB must be cached in CI: ${why}`);
  console.warn(`[assetloom/testing] ⚠ SKIPPING FerretDB lifecycle tests: no cached FerretDB binary (${why})`);
}

describe.skipIf(!binary)('FerretDB lifecycle', () => {
  it('starts on 127.0.0.1, serves the driver, and stop() ends it and removes its data', async () => {
    const server = await startFerretDB(binary ?? '');
    expect(server.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?directConnection=true$/);
    const client = await new MongoClient(server.uri, { serverSelectionTimeoutMS: 5_000 }).connect();
    try {
      const info = await client.db('admin').command({ buildInfo: 1 });
      expect(info.ferretdbVersion ?? info.ferretdb?.version).toBe(cached instanceof Error ? '' : cached.tag);
      await client.db('lifecycle').collection('c').insertOne({ a: 1 });
      await expect(access(server.dataDir)).resolves.toBeUndefined();
    } finally {
      await client.close();
    }
    await server.stop();
    await server.stop();
    expect(await pingMongo(server.uri, 300)).toMatchObject({ ok: false });
    await expect(access(server.dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('runs two instances side by side on different ports with separate data', async () => {
    const [a, b] = await Promise.all([startFerretDB(binary ?? ''), startFerretDB(binary ?? '')]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.dataDir).not.toBe(b.dataDir);
      const clientA = await new MongoClient(a.uri).connect();
      const clientB = await new MongoClient(b.uri).connect();
      try {
        await clientA.db('x').collection('c').insertOne({ only: 'a' });
        expect(await clientB.db('x').collection('c').countDocuments()).toBe(0);
      } finally {
        await Promise.all([clientA.close(), clientB.close()]);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
