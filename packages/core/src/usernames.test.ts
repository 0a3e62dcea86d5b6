import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './embedded.js';
import { CONFUSABLES_COUNT, CONFUSABLES_VERSION } from './generated/confusables.js';
import { createMongoStore } from './mongodb.js';
import { DuplicateKeyError, type Store } from './store.js';
import {
  confusablesSkeleton,
  identifierCharacterProblem,
  normalizeIdentifier,
  usernameKeyOf,
  usernameProblem,
} from './usernames.js';

describe('username rules (decision 0027)', () => {
  it.each([
    ['alice', undefined],
    ['Alice Smith', undefined],
    ['café', undefined],
    ['小明同学', undefined],
    ['ab', 'must have 3-32'],
    ['x'.repeat(33), 'must have 3-32'],
    ['alice\u200b', 'U+200B'],
    ['adm\u202enimx', 'U+202E'],
    ['ab\u0000cd', 'U+0000'],
    ['ab\u3000cd', 'U+3000'],
    [' alice', 'space'],
  ])('%j → %s', (name, problem) => {
    const found = usernameProblem(normalizeIdentifier(name));
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('counts characters after NFC', () => {
    // 32 × "é" as NFD is 64 code points, as NFC 32.
    expect(usernameProblem(normalizeIdentifier('e\u0301'.repeat(32)))).toBeUndefined();
  });

  it.each([
    ['alice', 'ALICE'],
    ['alice', 'ａｌｉｃｅ'],
    ['straße', 'STRASSE'],
    ['café', 'CAFE\u0301'],
  ])('%s and %s share a key', (a, b) => {
    expect(usernameKeyOf(normalizeIdentifier(a))).toBe(usernameKeyOf(normalizeIdentifier(b)));
  });

  it.each([
    ['alice', '\u0430lice'], // Cyrillic а
    ['paypal', '\u0440\u0430\u0443\u0440\u0430l'], // Cyrillic р, а, у
    ['bob', 'b0b'], // digit zero → O → o
    ['hello', 'he1lo'], // digit one → l
    ['bill', 'BILL'], // capital I → l
    ['scope', '\u0455\u0441\u043e\u0440\u0435'], // all Cyrillic
    ['paypal', '\ud835\udd2d\ud835\udd1e\ud835\udd36\ud835\udd2d\ud835\udd1e\ud835\udd29'], // mathematical fraktur
  ])('%s and its look-alike %s share a key (issue #37, Unicode TR 39 skeleton)', (a, b) => {
    expect(usernameKeyOf(normalizeIdentifier(b))).toBe(usernameKeyOf(normalizeIdentifier(a)));
  });

  it.each([
    ['alice', 'alicia'],
    ['小明同学', '小红同学'],
    ['bob', 'rob'],
  ])('%s and %s keep distinct keys', (a, b) => {
    expect(usernameKeyOf(a)).not.toBe(usernameKeyOf(b));
  });

  it('reads the generated Unicode confusables table (confusables.txt)', () => {
    expect(CONFUSABLES_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(CONFUSABLES_COUNT).toBeGreaterThan(6000);
    expect(confusablesSkeleton('\u0430')).toBe('a');
    expect(confusablesSkeleton('0')).toBe('O');
    expect(confusablesSkeleton('a\u00ad')).toBe('a'); // a soft hyphen is default-ignorable
  });

  it('e-mails refuse the same characters', () => {
    expect(identifierCharacterProblem('a\u200b@example.com')).toBeDefined();
    expect(identifierCharacterProblem('a@example.com')).toBeUndefined();
  });
});

const legacyUser = (id: number, username: string) => ({
  _id: id,
  username,
  email: null,
  emailKey: `u:${id}`,
  passwordHash: 'hash',
  tokenVersion: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

async function expectLegacyUsersWork(store: Store): Promise<void> {
  await store.init();
  // Both older users keep working under their exact names; the key finds the earlier one.
  expect((await store.users.byUsername('alice'))?.id).toBe(1);
  expect((await store.users.byUsername('ALICE'))?.id).toBe(2);
  expect((await store.users.byUsernameKey('alice'))?.id).toBe(1);
  expect((await store.users.byUsernameKey('bob'))?.id).toBe(3);
  // A new case variant is refused by the key.
  await expect(
    store.users.insert({
      id: 10,
      username: 'Alice',
      email: null,
      passwordHash: 'h',
      tokenVersion: 0,
      createdAt: new Date(),
      updatedAt: new Date(),
    }),
  ).rejects.toSatisfy((error) => error instanceof DuplicateKeyError && error.field === 'username');
  await store.close();
}

describe('users stored before usernames had keys', () => {
  it('embedded: get keys at start-up, colliding ones a legacy key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assetloom-usernames-'));
    try {
      const line = (doc: ReturnType<typeof legacyUser>) =>
        JSON.stringify({ ...doc, createdAt: { $$date: 0 }, updatedAt: { $$date: 0 } });
      await writeFile(
        join(dir, 'users.db'),
        `${[legacyUser(1, 'alice'), legacyUser(2, 'ALICE'), legacyUser(3, 'Bob')].map(line).join('\n')}\n`,
      );
      await expectLegacyUsersWork(createEmbeddedStore({ dir }));
      // And again after a restart (the keys were written).
      await expectLegacyUsersWork(createEmbeddedStore({ dir }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const uri = injectMongoUri('@assetloom/core username keys on MongoDB');
  it.skipIf(!uri)('mongodb: the same', async () => {
    const dbName = uniqueDbName('core_usernames');
    const client = new MongoClient(uri as string);
    try {
      await client.connect();
      await client
        .db(dbName)
        .collection('users')
        .insertMany([legacyUser(1, 'alice'), legacyUser(2, 'ALICE'), legacyUser(3, 'Bob')] as never[]);
      await expectLegacyUsersWork(createMongoStore({ uri: uri as string, dbName }));
      await expectLegacyUsersWork(createMongoStore({ uri: uri as string, dbName }));
    } finally {
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    }
  });
});

/**
 * Keys made before the confusables skeleton (issue #37): at start-up each store makes them again, so
 * an old user's look-alike is refused too; of two old users whose names look alike the one that
 * already held the key keeps it, the other keeps logging in by its exact name (legacy key).
 */
const oldKeyed = (id: number, username: string, usernameKey: string) => ({
  ...legacyUser(id, username),
  usernameKey,
});
const OLD_USERS = [
  oldKeyed(1, 'alice', 'alice'),
  oldKeyed(2, '\u0430lice', '\u0430lice'), // Cyrillic а: a key of its own before the skeleton
  oldKeyed(3, 'b0b', 'b0b'),
];

async function expectKeysMigrated(store: Store): Promise<void> {
  await store.init();
  expect((await store.users.byUsernameKey(usernameKeyOf('alice')))?.id).toBe(1);
  expect((await store.users.byUsername('\u0430lice'))?.id).toBe(2);
  expect((await store.users.byUsernameKey(usernameKeyOf('bob')))?.id).toBe(3);
  // the old look-alike of b0b is refused now
  await expect(
    store.users.insert({
      id: 10,
      username: 'bob',
      email: null,
      passwordHash: 'h',
      tokenVersion: 0,
      createdAt: new Date(),
      updatedAt: new Date(),
    }),
  ).rejects.toSatisfy((error) => error instanceof DuplicateKeyError && error.field === 'username');
  await store.close();
}

describe('keys made before the confusables skeleton', () => {
  it('embedded: are made again at start-up; a collision among old users keeps both', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assetloom-skeleton-'));
    try {
      const line = (doc: ReturnType<typeof oldKeyed>) =>
        JSON.stringify({ ...doc, createdAt: { $$date: 0 }, updatedAt: { $$date: 0 } });
      await writeFile(join(dir, 'users.db'), `${OLD_USERS.map(line).join('\n')}\n`);
      await expectKeysMigrated(createEmbeddedStore({ dir }));
      await expectKeysMigrated(createEmbeddedStore({ dir }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const uri = injectMongoUri('@assetloom/core username skeleton keys on MongoDB');
  it.skipIf(!uri)('mongodb: the same', async () => {
    const dbName = uniqueDbName('core_skeleton');
    const client = new MongoClient(uri as string);
    try {
      await client.connect();
      await client
        .db(dbName)
        .collection('users')
        .insertMany(OLD_USERS as never[]);
      await expectKeysMigrated(createMongoStore({ uri: uri as string, dbName }));
      await expectKeysMigrated(createMongoStore({ uri: uri as string, dbName }));
    } finally {
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    }
  });
});
