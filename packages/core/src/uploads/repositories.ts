import type { Collection, CollectionSpec } from '../store/driver.js';
import { DuplicateKeyError, requireDate, requireInt, requireString } from '../store.js';
import {
  docToSlot,
  docToUpload,
  docToUse,
  slotToDoc,
  type UploadDeletionDoc,
  type UploadDoc,
  type UploadRepository,
  type UploadSlotDoc,
  type UploadUseDoc,
  uploadToDoc,
  useToDoc,
} from './records.js';

export const UPLOADS_COLLECTION = 'uploads';
export const UPLOAD_USES_COLLECTION = 'upload_uses';
export const UPLOAD_SLOTS_COLLECTION = 'upload_slots';
export const UPLOAD_DELETIONS_COLLECTION = 'upload_deletions';

/** The collections of the upload repository (decisions 0034, 0043). */
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
  slots: {
    name: UPLOAD_SLOTS_COLLECTION,
    indexes: [
      { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' },
      { name: 'upload_slots_owner', key: { ownerId: 1 } },
    ],
  },
  deletions: {
    name: UPLOAD_DELETIONS_COLLECTION,
    indexes: [{ name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' }],
  },
} as const satisfies Record<string, CollectionSpec>;

/** Inserts `doc`; false when its `_id` is taken. */
async function insertUnique<D extends object>(collection: Collection<D>, doc: D): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}

/** The upload repository (collections `uploads`, `upload_uses`), written once over the collection driver. */
export function uploadRepository(
  ready: () => Promise<void>,
  uploads: Collection<UploadDoc>,
  uses: Collection<UploadUseDoc>,
  slots: Collection<UploadSlotDoc>,
  deletions: Collection<UploadDeletionDoc>,
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
    async usesOf(uploadId) {
      const filter = { uploadId: requireString(uploadId, 'upload id') };
      await ready();
      return (await uses.find(filter)).map(docToUse);
    },
    async deleteUses(taskId, uploadIds) {
      const task = requireString(taskId, 'task id');
      const list = uploadIds.map((id) => `${requireString(id, 'upload id')}:${task}`);
      if (list.length === 0) return;
      await ready();
      await uses.deleteMany({ _id: { $in: list } });
    },

    async takeSlot(slot) {
      requireString(slot.id, 'slot id');
      requireInt(slot.ownerId, 'owner id');
      requireString(slot.holder, 'slot holder');
      await ready();
      return insertUnique(slots, slotToDoc(slot));
    },
    async slotById(id) {
      const filter = { _id: requireString(id, 'slot id') };
      await ready();
      return slots.findOne(filter, docToSlot);
    },
    async releaseSlot(id, holder, expiredBefore) {
      const filter = {
        _id: requireString(id, 'slot id'),
        holder: requireString(holder, 'slot holder'),
        ...(expiredBefore === undefined ? {} : { expiresAt: { $lt: requireDate(expiredBefore, 'before') } }),
      };
      await ready();
      return slots.deleteOne(filter);
    },
    async reserve(id, holder, bytes) {
      const filter = { _id: requireString(id, 'slot id'), holder: requireString(holder, 'slot holder') };
      const n = requireInt(bytes, 'bytes');
      await ready();
      return slots.updateOne(filter, { $set: { bytes: n } });
    },
    async reservedByOwner(ownerId, exceptId, now) {
      const filter = {
        ownerId: requireInt(ownerId, 'owner id'),
        _id: { $ne: requireString(exceptId, 'slot id') },
        expiresAt: { $gte: requireDate(now, 'now') },
      };
      await ready();
      return slots.sum(filter, 'bytes');
    },
    async deleteExpiredSlots(before) {
      const filter = { expiresAt: { $lt: requireDate(before, 'before') } };
      await ready();
      return slots.deleteMany(filter);
    },

    async markDeleting(uploadId, at) {
      const doc = { _id: requireString(uploadId, 'upload id'), createdAt: requireDate(at, 'at') };
      await ready();
      return insertUnique(deletions, doc);
    },
    async deletingSince(uploadId) {
      const filter = { _id: requireString(uploadId, 'upload id') };
      await ready();
      return deletions.findOne(filter, (d) => d.createdAt);
    },
    async unmarkDeleting(uploadId, before) {
      const filter = {
        _id: requireString(uploadId, 'upload id'),
        ...(before === undefined ? {} : { createdAt: { $lt: requireDate(before, 'before') } }),
      };
      await ready();
      return deletions.deleteOne(filter);
    },
    async deleteStaleMarkers(before) {
      const filter = { createdAt: { $lt: requireDate(before, 'before') } };
      await ready();
      return deletions.deleteMany(filter);
    },
  };
}
