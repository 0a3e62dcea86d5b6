import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../embedded.js';
import { createMongoStore } from '../mongodb.js';
import type { Store } from '../store.js';
import { type CharacterDoc, type CharacterRecord, characterToDoc, docToCharacter } from './records.js';

const uri = injectMongoUri('@assetloom/core characters on MongoDB');
const dbNames: string[] = [];

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

function character(id: string, projectId: string, at: number, name = id): CharacterRecord {
  return {
    id,
    ownerId: 1,
    projectId,
    name,
    source: 'prompt',
    uploadId: null,
    identity: {
      provider: 'procedural',
      prompt: 'a knight',
      seed: 4294967295,
      // keys MongoDB cannot hold as field names are kept as pairs, like a project's style
      style: { palette: 'sweetie16', 'a.b': 'dotted', $x: 'dollar' },
      size: 32,
      palette: 'sweetie16',
      references: ['u1'],
      // the built-in rig's identity (decision 0055), plain JSON
      rig:
        id === 'c1'
          ? { rig: 'figure', version: 1, outfit: { back: ['cape'] }, palette: { skin: ['#593022'] } }
          : null,
    },
    baseTaskId: `task-${id}`,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  };
}

function describeCharacters(kind: string, make: () => Store): void {
  describe(`characters on the ${kind} store`, () => {
    it('keeps the identity, pages newest first, renames, deletes, and goes with its project', async () => {
      const store = make();
      await store.init();
      const repo = store.characters;
      if (repo === undefined) throw new Error('no character repository');
      await repo.insert(character('c1', 'p1', 1000));
      await repo.insert(character('c2', 'p1', 2000));
      await repo.insert(character('c3', 'p1', 2000));
      await repo.insert(character('c4', 'p2', 3000));
      expect(await repo.byId('c1')).toEqual(character('c1', 'p1', 1000));
      const first = await repo.listByProject('p1', { skip: 0, limit: 2 });
      expect(first.total).toBe(3);
      // createdAt desc, id desc as the tie-break
      expect(first.items.map((c) => c.id)).toEqual(['c3', 'c2']);
      expect((await repo.listByProject('p1', { skip: 2, limit: 2 })).items.map((c) => c.id)).toEqual(['c1']);
      const renamed = await repo.rename('c1', 'Ada', new Date(5000));
      expect(renamed).toMatchObject({ name: 'Ada', identity: character('c1', 'p1', 1000).identity });
      expect(renamed?.updatedAt.getTime()).toBe(5000);
      expect(await repo.rename('nope', 'x', new Date(5000))).toBeNull();
      expect(await repo.delete('c2')).toBe(true);
      expect(await repo.delete('c2')).toBe(false);
      expect(await repo.deleteByProject('p1')).toBe(2);
      expect(await repo.byId('c1')).toBeNull();
      expect((await repo.listByProject('p2', { skip: 0, limit: 20 })).items.map((c) => c.id)).toEqual(['c4']);
      await store.close();
    });
  });
}

describeCharacters('embedded', () => createEmbeddedStore());
describe.skipIf(!uri)('MongoDB', () => {
  describeCharacters('mongodb', () => {
    const dbName = uniqueDbName('core_characters');
    dbNames.push(dbName);
    return createMongoStore({ uri: uri as string, dbName });
  });
});

describe('a character stored before rigs were kept', () => {
  it('reads back with rig null', () => {
    const doc = characterToDoc(character('c9', 'p1', 1000)) as CharacterDoc;
    delete (doc.identity as { rig?: unknown }).rig;
    expect(docToCharacter(doc).identity.rig).toBeNull();
  });
});
