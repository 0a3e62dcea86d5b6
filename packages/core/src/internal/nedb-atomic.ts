import type Datastore from '@seald-io/nedb';
import { serialize } from '@seald-io/nedb/lib/model.js';
import { StoreWriteError } from '../store.js';
import { nodeBuiltin } from './node-builtin.js';

/**
 * NeDB (4.x) applies every insert, update and remove to its in-memory indexes first and appends
 * the new document versions to the data file afterwards (`Datastore#_insertAsync` and friends, then
 * `Persistence#persistNewStateAsync`). When the append fails — a read-only file, a full disk, a
 * folder swapped under it — the caller gets the error while the change stays in memory: readers
 * see it, the next successful append or compaction writes it, and it survives a restart. An
 * operation that answered with an error would still have happened.
 *
 * {@link makeWritesAtomic} closes that gap on one datastore: each write records how to undo the
 * index changes it makes, and when its append fails the changes are undone before the error
 * reaches the caller (as a {@link StoreWriteError}). A failed append may have left part of a line
 * in the file, so the next write of that datastore rewrites the whole file from memory (NeDB's
 * crash-safe compaction) instead of appending; until then the file holds nothing the memory does
 * not.
 *
 * Appends are also made cheaper (decision 0026): NeDB appends with `fs.promises.appendFile`, which
 * opens, writes and closes the file through libuv's thread pool, three cross-thread hand-offs a
 * write. Under Node each write's lines are appended with `appendFileSync` instead: the same open,
 * write and close as direct system calls on the event loop, an append to the page cache like
 * NeDB's own (neither syncs), without the three thread hand-offs. The file is opened by name for
 * every append, as NeDB does, so a compaction's rename or a file swapped underneath is seen at
 * once. The line format is NeDB's (`model.serialize` plus the datastore's `afterSerialization`).
 * Elsewhere (a browser, memory only) NeDB's own append runs.
 *
 * This reaches into NeDB's private methods (pinned by version in packages/core/package.json and
 * checked here at start-up; the fault tests in embedded.test.ts fail if their behaviour changes).
 */

/** A write whose append to the data file failed; nothing of it was applied. `cause` is the I/O error. */
type Doc = Record<string, unknown>;
type Pair = { oldDoc: Doc; newDoc: Doc };

interface NedbInternals {
  _insertAsync(...args: unknown[]): Promise<unknown>;
  _updateAsync(...args: unknown[]): Promise<unknown>;
  _removeAsync(...args: unknown[]): Promise<unknown>;
  _addToIndexes(doc: Doc): void;
  _removeFromIndexes(doc: Doc): void;
  _updateIndexes(oldDoc: Doc | Pair[], newDoc?: Doc): void;
  persistence: {
    inMemoryOnly: boolean;
    filename?: unknown;
    modes?: { fileMode?: unknown };
    afterSerialization(line: string): Promise<string>;
    persistNewStateAsync(docs: Doc[]): Promise<void>;
    persistCachedDatabaseAsync(): Promise<void>;
  };
}

const REQUIRED = [
  '_insertAsync',
  '_updateAsync',
  '_removeAsync',
  '_addToIndexes',
  '_removeFromIndexes',
  '_updateIndexes',
] as const;

export interface AtomicWrites {
  /**
   * True while a write is between its in-memory change and the end of its append: a reader that
   * bypasses NeDB's queue (the embedded store's index reads) must go through the queue then, or it
   * could see a change that is about to be undone.
   */
  readonly writing: boolean;
}

export function makeWritesAtomic(db: Datastore<Doc>, collection: string): AtomicWrites {
  const raw = db as unknown as NedbInternals;
  const persistence = raw.persistence;
  const missing = REQUIRED.filter((name) => typeof raw[name] !== 'function');
  if (
    missing.length > 0 ||
    typeof persistence?.persistNewStateAsync !== 'function' ||
    typeof persistence.persistCachedDatabaseAsync !== 'function'
  ) {
    throw new Error(
      `[assetloom/core] this @seald-io/nedb version lacks the internals the embedded store relies on (${[
        ...missing,
        'persistence',
      ].join(', ')}); install the version packages/core/package.json names`,
    );
  }

  /** Undo steps of the write in progress (null when none is). */
  let journal: Array<() => void> | null = null;
  /** A failed append may have left part of a line behind: rewrite the file on the next write. */
  let rewrite = false;

  const addToIndexes = raw._addToIndexes.bind(raw);
  const removeFromIndexes = raw._removeFromIndexes.bind(raw);
  const updateIndexes = raw._updateIndexes.bind(raw);
  raw._addToIndexes = (doc) => {
    addToIndexes(doc);
    journal?.push(() => removeFromIndexes(doc));
  };
  raw._removeFromIndexes = (doc) => {
    removeFromIndexes(doc);
    journal?.push(() => addToIndexes(doc));
  };
  raw._updateIndexes = (oldDoc, newDoc) => {
    updateIndexes(oldDoc, newDoc);
    journal?.push(() => {
      if (Array.isArray(oldDoc)) updateIndexes(oldDoc.map((p) => ({ oldDoc: p.newDoc, newDoc: p.oldDoc })));
      else updateIndexes(newDoc as Doc, oldDoc);
    });
  };

  for (const name of ['_insertAsync', '_updateAsync', '_removeAsync'] as const) {
    const operation = raw[name].bind(raw);
    raw[name] = async (...args: unknown[]) => {
      // A write inside a write (an upsert's insert): the outer one owns the journal.
      if (journal !== null) return operation(...args);
      const undo: Array<() => void> = [];
      journal = undo;
      try {
        return await operation(...args);
      } catch (err) {
        // Other errors (a unique violation) are thrown before anything is applied or NeDB undoes them.
        if (err instanceof StoreWriteError) for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
        throw err;
      } finally {
        journal = null;
      }
    };
  }

  const nedbAppend = persistence.persistNewStateAsync.bind(persistence);
  const rewriteAll = persistence.persistCachedDatabaseAsync.bind(persistence);
  const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
  const filename = persistence.filename;
  const fileMode = typeof persistence.modes?.fileMode === 'number' ? persistence.modes.fileMode : 0o644;
  const encoder = new TextEncoder();
  const append =
    fs === undefined || typeof filename !== 'string'
      ? nedbAppend
      : async (docs: Doc[]): Promise<void> => {
          let text = '';
          for (const doc of docs) text += `${await persistence.afterSerialization(serialize(doc))}\n`;
          fs.appendFileSync(filename, encoder.encode(text), { mode: fileMode });
        };
  persistence.persistNewStateAsync = async (docs) => {
    if (persistence.inMemoryOnly || docs.length === 0) return;
    try {
      // The memory already holds this write, so a rewrite persists it along with everything else.
      if (rewrite) await rewriteAll();
      else await append(docs);
    } catch (err) {
      rewrite = true;
      throw new StoreWriteError(collection, err);
    }
    rewrite = false;
  };
  persistence.persistCachedDatabaseAsync = async () => {
    await rewriteAll();
    rewrite = false;
  };

  return {
    get writing() {
      return journal !== null;
    },
  };
}
