import type Datastore from '@seald-io/nedb';
import { requireDate, requireInt, requireString } from '../store.js';
import {
  docToUpload,
  type UploadDoc,
  type UploadRepository,
  type UploadUseDoc,
  uploadToDoc,
  useToDoc,
} from './records.js';

type Doc = Record<string, unknown>;

/** One collection of the embedded store as these repositories use it (see webhooks/embedded.ts). */
export interface UploadCollectionOps {
  db: Datastore<Doc>;
  insert(doc: Doc): Promise<void>;
  wrote(n?: number): void;
}

export async function ensureEmbeddedUploadIndexes(
  uploads: Datastore<Doc>,
  uses: Datastore<Doc>,
): Promise<void> {
  await uploads.ensureIndexAsync({ fieldName: 'ownerId' });
  await uploads.ensureIndexAsync({ fieldName: 'lastUsedAt' });
  await uses.ensureIndexAsync({ fieldName: 'uploadId' });
  await uses.ensureIndexAsync({ fieldName: 'projectId' });
}

/** The upload repository of the embedded store (collections `uploads`, `upload_uses`). */
export function embeddedUploadRepository(
  use: () => Promise<void>,
  uploads: UploadCollectionOps,
  uses: UploadCollectionOps,
): UploadRepository {
  return {
    async insert(upload) {
      requireString(upload.id, 'upload id');
      requireInt(upload.ownerId, 'owner id');
      await use();
      await uploads.insert(uploadToDoc(upload) as unknown as Doc);
    },
    async byId(id) {
      await use();
      const doc = await uploads.db.findOneAsync({ _id: requireString(id, 'upload id') });
      return doc ? docToUpload(doc as unknown as UploadDoc) : null;
    },
    async bytesByOwner(ownerId) {
      await use();
      const docs = await uploads.db.findAsync({ ownerId: requireInt(ownerId, 'owner id') }, { bytes: 1 });
      return docs.reduce((sum, d) => sum + (typeof d.bytes === 'number' ? d.bytes : 0), 0);
    },
    async touch(ids, at) {
      await use();
      const when = requireDate(at, 'lastUsedAt');
      for (const id of ids) {
        const n = await uploads.db.updateAsync(
          { _id: requireString(id, 'upload id') },
          { $set: { lastUsedAt: when } },
          {},
        );
        if (n.numAffected > 0) uploads.wrote();
      }
    },
    async delete(id) {
      await use();
      const n = await uploads.db.removeAsync({ _id: requireString(id, 'upload id') }, {});
      if (n > 0) uploads.wrote(n);
      return n > 0;
    },
    async addUses(list) {
      await use();
      for (const u of list) {
        requireString(u.uploadId, 'upload id');
        requireString(u.taskId, 'task id');
        const doc = useToDoc(u);
        if (await uses.db.findOneAsync({ _id: doc._id })) continue;
        await uses.insert(doc as unknown as Doc);
      }
    },
    async deleteUsesByProject(projectId) {
      await use();
      const query = { projectId: requireString(projectId, 'project id') };
      const docs = (await uses.db.findAsync(query)) as unknown as UploadUseDoc[];
      if (docs.length === 0) return [];
      const n = await uses.db.removeAsync(query, { multi: true });
      if (n > 0) uses.wrote(n);
      return [...new Set(docs.map((d) => d.uploadId))];
    },
    async countUses(uploadId) {
      await use();
      return uses.db.countAsync({ uploadId: requireString(uploadId, 'upload id') });
    },
    async idleSince(before, limit) {
      await use();
      const n = requireInt(limit, 'limit');
      if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] limit must be 1-1000');
      const docs = await uploads.db
        .findAsync({ lastUsedAt: { $lt: requireDate(before, 'before') } })
        .sort({ lastUsedAt: 1 })
        .limit(n);
      return (docs as unknown as UploadDoc[]).map(docToUpload);
    },
  };
}
