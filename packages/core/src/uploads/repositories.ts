import type { Collection, CollectionSpec } from '../store/driver.js';
import { DuplicateKeyError, requireDate, requireInt, requireString } from '../store.js';
import {
  docToUpload,
  type UploadDoc,
  type UploadRepository,
  type UploadUseDoc,
  uploadToDoc,
  useToDoc,
} from './records.js';

export const UPLOADS_COLLECTION = 'uploads';
export const UPLOAD_USES_COLLECTION = 'upload_uses';

/** The two collections of the upload repository (decision 0034). */
export const UPLOAD_COLLECTIONS = {
  uploads: {
    name: UPLOADS_COLLECTION,
    indexes: [
      { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' },
      { name: 'uploads_owner', key: { ownerId: 1 } },
      { name: 'uploads_last_used', key: { lastUsedAt: 1 } },
    ],
  },
  uses: {
    name: UPLOAD_USES_COLLECTION,
    indexes: [
      { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' },
      { name: 'upload_uses_upload', key: { uploadId: 1 } },
      { name: 'upload_uses_project', key: { projectId: 1 } },
    ],
  },
} as const satisfies Record<string, CollectionSpec>;

/** The upload repository (collections `uploads`, `upload_uses`), written once over the collection driver. */
export function uploadRepository(
  ready: () => Promise<void>,
  uploads: Collection<UploadDoc>,
  uses: Collection<UploadUseDoc>,
): UploadRepository {
  return {
    async insert(upload) {
      requireString(upload.id, 'upload id');
      requireInt(upload.ownerId, 'owner id');
      await ready();
      await uploads.insertOne(uploadToDoc(upload));
    },
    async byId(id) {
      const filter = { _id: requireString(id, 'upload id') };
      await ready();
      return uploads.findOne(filter, docToUpload);
    },
    async bytesByOwner(ownerId) {
      const filter = { ownerId: requireInt(ownerId, 'owner id') };
      await ready();
      return uploads.sum(filter, 'bytes');
    },
    async touch(ids, at) {
      const when = requireDate(at, 'lastUsedAt');
      const list = ids.map((id) => requireString(id, 'upload id'));
      if (list.length === 0) return;
      await ready();
      await uploads.updateMany({ _id: { $in: list } }, { $set: { lastUsedAt: when } });
    },
    async delete(id) {
      const filter = { _id: requireString(id, 'upload id') };
      await ready();
      return uploads.deleteOne(filter);
    },
    async addUses(list) {
      await ready();
      for (const u of list) {
        requireString(u.uploadId, 'upload id');
        requireString(u.taskId, 'task id');
        try {
          await uses.insertOne(useToDoc(u));
        } catch (error) {
          // the same use recorded twice (a retried submission) is no error
          if (!(error instanceof DuplicateKeyError)) throw error;
        }
      }
    },
    async deleteUsesByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await ready();
      const docs = await uses.find(filter, { fields: ['uploadId'] });
      if (docs.length === 0) return [];
      await uses.deleteMany(filter);
      return [...new Set(docs.map((d) => d.uploadId))];
    },
    async countUses(uploadId) {
      const filter = { uploadId: requireString(uploadId, 'upload id') };
      await ready();
      return uses.count(filter);
    },
    async idleSince(before, limit) {
      const n = requireInt(limit, 'limit');
      if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] limit must be 1-1000');
      const at = requireDate(before, 'before');
      await ready();
      const docs = await uploads.find({ lastUsedAt: { $lt: at } }, { sort: { lastUsedAt: 1 }, limit: n });
      return docs.map(docToUpload);
    },
  };
}
