import type { Collection, Db } from 'mongodb';
import { requireDate, requireInt, requireString } from '../store.js';
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

/** The indexes of the two collections, in the shape the store's `ensureIndexes` takes. */
export const UPLOAD_INDEXES = {
  [UPLOADS_COLLECTION]: [
    { key: { ownerId: 1 }, name: 'uploads_owner' },
    { key: { lastUsedAt: 1 }, name: 'uploads_last_used' },
  ],
  [UPLOAD_USES_COLLECTION]: [
    { key: { uploadId: 1 }, name: 'upload_uses_upload' },
    { key: { projectId: 1 }, name: 'upload_uses_project' },
  ],
} as const;

/** The upload repository of the MongoDB store (FerretDB v1 included: plain finds, inserts, deletes). */
export function mongoUploadRepository(
  db: () => Promise<Db>,
  mapDuplicateKey: (err: unknown) => never,
): UploadRepository {
  const uploads = async (): Promise<Collection<UploadDoc>> =>
    (await db()).collection<UploadDoc>(UPLOADS_COLLECTION);
  const uses = async (): Promise<Collection<UploadUseDoc>> =>
    (await db()).collection<UploadUseDoc>(UPLOAD_USES_COLLECTION);
  return {
    async insert(upload) {
      requireString(upload.id, 'upload id');
      requireInt(upload.ownerId, 'owner id');
      await (await uploads()).insertOne(uploadToDoc(upload)).catch(mapDuplicateKey);
    },
    async byId(id) {
      const doc = await (await uploads()).findOne({ _id: { $eq: requireString(id, 'upload id') } });
      return doc ? docToUpload(doc as UploadDoc) : null;
    },
    async bytesByOwner(ownerId) {
      const docs = await (await uploads())
        .find({ ownerId: { $eq: requireInt(ownerId, 'owner id') } }, { projection: { bytes: 1 } })
        .toArray();
      return docs.reduce((sum, d) => sum + (typeof d.bytes === 'number' ? d.bytes : 0), 0);
    },
    async touch(ids, at) {
      const when = requireDate(at, 'lastUsedAt');
      const list = ids.map((id) => requireString(id, 'upload id'));
      if (list.length === 0) return;
      await (await uploads()).updateMany({ _id: { $in: list } }, { $set: { lastUsedAt: when } });
    },
    async delete(id) {
      const res = await (await uploads()).deleteOne({ _id: { $eq: requireString(id, 'upload id') } });
      return res.deletedCount > 0;
    },
    async addUses(list) {
      const c = await uses();
      for (const u of list) {
        requireString(u.uploadId, 'upload id');
        requireString(u.taskId, 'task id');
        try {
          await c.insertOne(useToDoc(u));
        } catch (error) {
          // the same use recorded twice (a retried submission) is no error
          if ((error as { code?: unknown }).code !== 11000) throw error;
        }
      }
    },
    async deleteUsesByProject(projectId) {
      const c = await uses();
      const filter = { projectId: { $eq: requireString(projectId, 'project id') } };
      const docs = await c.find(filter, { projection: { uploadId: 1 } }).toArray();
      if (docs.length === 0) return [];
      await c.deleteMany(filter);
      return [...new Set(docs.map((d) => d.uploadId))];
    },
    async countUses(uploadId) {
      return (await uses()).countDocuments({ uploadId: { $eq: requireString(uploadId, 'upload id') } });
    },
    async idleSince(before, limit) {
      const n = requireInt(limit, 'limit');
      if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] limit must be 1-1000');
      const docs = await (await uploads())
        .find({ lastUsedAt: { $lt: requireDate(before, 'before') } })
        .sort({ lastUsedAt: 1 })
        .limit(n)
        .toArray();
      return (docs as UploadDoc[]).map(docToUpload);
    },
  };
}
