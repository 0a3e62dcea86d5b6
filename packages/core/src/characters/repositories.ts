import type { Collection, CollectionSpec } from '../store/driver.js';
import { requireDate, requireString, sanitizeWindow } from '../store.js';
import { type CharacterDoc, type CharacterRepository, characterToDoc, docToCharacter } from './records.js';

/** The collection of kept characters (issue #40). */
export const CHARACTER_COLLECTIONS = {
  characters: {
    name: 'characters',
    indexes: [
      { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' },
      { name: 'characters_project_newest', key: { projectId: 1, createdAt: -1, _id: -1 } },
    ],
  },
} as const satisfies Record<string, CollectionSpec>;

/** The character repository, written once over the collection driver (NeDB and MongoDB). */
export function characterRepository(
  ready: () => Promise<void>,
  characters: Collection<CharacterDoc>,
): CharacterRepository {
  return {
    async insert(character) {
      const doc = characterToDoc(character);
      await ready();
      await characters.insertOne(doc);
    },
    async byId(id) {
      const filter = { _id: requireString(id, 'character id') };
      await ready();
      return characters.findOne(filter, docToCharacter);
    },
    async listByProject(projectId, window) {
      const project = requireString(projectId, 'project id');
      const win = sanitizeWindow(window);
      await ready();
      return characters.page('projectId', project, win, docToCharacter);
    },
    async rename(id, name, at) {
      const filter = { _id: requireString(id, 'character id') };
      const $set = { name: requireString(name, 'name'), updatedAt: requireDate(at, 'updatedAt') };
      await ready();
      const doc = await characters.findOneAndUpdate(filter, { $set });
      return doc ? docToCharacter(doc) : null;
    },
    async delete(id) {
      const filter = { _id: requireString(id, 'character id') };
      await ready();
      return characters.deleteOne(filter);
    },
    async deleteByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await ready();
      return characters.deleteMany(filter);
    },
  };
}
