import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { describeReviewStoreContract } from '../../test/contracts/review-store.contract.js';
import { createMongoReviewStore } from './mongodb.js';

const uri = injectMongoUri('@assetloom/core review store on MongoDB');
const dbNames: string[] = [];

function fresh() {
  const dbName = uniqueDbName('core_review');
  dbNames.push(dbName);
  return createMongoReviewStore({ uri: uri as string, dbName });
}

afterAll(async () => {
  if (!uri || dbNames.length === 0) return;
  const client = new MongoClient(uri);
  try {
    await client.connect();
    for (const name of dbNames)
      await client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
  } finally {
    await client.close();
  }
});

describe.skipIf(!uri)('MongoDB review store', () => {
  describeReviewStoreContract('mongodb', fresh);

  it('works on a database handle it does not own, and creates its indexes at init', async () => {
    const client = new MongoClient(uri as string);
    await client.connect();
    try {
      const dbName = uniqueDbName('core_review');
      dbNames.push(dbName);
      const store = createMongoReviewStore({ db: client.db(dbName) });
      await store.init();
      const indexes = await client.db(dbName).collection('review_users').indexes();
      expect(indexes.find((i) => i.name === 'review_users_email_unique')?.unique).toBe(true);
      await store.close();
      // The client is the caller's: still usable.
      expect(await client.db(dbName).collection('review_users').countDocuments()).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('asks for a uri, client or db', () => {
    expect(() => createMongoReviewStore({})).toThrow(/uri/);
  });
});
