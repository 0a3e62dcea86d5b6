import Datastore from '@seald-io/nedb';
import { mapOnce } from '../internal/frozen.js';
import { type AtomicWrites, makeWritesAtomic } from '../internal/nedb-atomic.js';
import { DuplicateKeyError, MAX_SKIP, type Page, type PageWindow, sanitizeWindow } from '../store.js';
import type {
  Collection,
  CollectionSpec,
  Condition,
  Database,
  Filter,
  FindOptions,
  IndexSpec,
  Scalar,
  Update,
} from './driver.js';

/**
 * The collection driver over @seald-io/nedb (decision 0038): Mongo-like queries, unique indexes,
 * one file-backed append log per collection under `dir` (or memory only). Every operation runs
 * through NeDB's own queue, so a unique-index check and its insert, or a filtered update, are one
 * step within the process. One process per `dir`. A write is applied only if its append to the
 * data file succeeds (internal/nedb-atomic.ts): when the append fails the change is undone in
 * memory and the call rejects with StoreWriteError, so an operation that fails leaves no trace.
 *
 * Reads of one equality on an indexed field (a document by id or key, a page of a project's
 * tasks) are answered straight from NeDB's in-memory index: no query matching, no deep copy, each
 * stored document version mapped once to a frozen record, and a page remembered while the index
 * key holds the very same documents (decision 0026).
 */
export interface NedbDatabaseOptions {
  /** Folder of the collection files (created when missing); memory only without it. */
  dir?: string;
  /** Compact a collection's file after this many writes to it (default 20 000). */
  compactEvery?: number;
}

type Doc = Record<string, unknown>;

/** NeDB's in-memory index of one field (not in its type declarations; checked at run time). */
interface NedbIndex {
  getMatching(value: unknown): Doc[];
}

function indexesOf(db: object): Record<string, unknown> | undefined {
  if (!('indexes' in db)) return undefined;
  const indexes = db.indexes;
  return typeof indexes === 'object' && indexes !== null ? { ...indexes } : undefined;
}

function isNedbIndex(value: unknown): value is NedbIndex {
  return (
    typeof value === 'object' &&
    value !== null &&
    'getMatching' in value &&
    typeof value.getMatching === 'function'
  );
}

/** A document as NeDB's API types it (NeDB copies what it stores). */
const plain = (doc: object): Doc => Object.fromEntries(Object.entries(doc));

/** NeDB has no `$eq`: equality is the bare value. Everything else is NeDB's own dialect. */
function toNedbQuery(filter: object): Doc {
  const out: Doc = {};
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (field === '$or' && Array.isArray(value)) {
      out.$or = value.map((branch: object) => toNedbQuery(branch));
    } else if (isEqOnly(value)) {
      out[field] = value.$eq;
    } else {
      out[field] = value;
    }
  }
  return out;
}

function isEqOnly(value: unknown): value is { $eq: Scalar } {
  if (typeof value !== 'object' || value === null || value instanceof Date || Array.isArray(value))
    return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$eq';
}

/** The single indexed equality a filter is, if it is one (`{ field: value }` or `{ field: { $eq } }`). */
function singleEquality(filter: object): [field: string, value: string | number] | undefined {
  const entries = Object.entries(filter).filter(([, v]) => v !== undefined);
  if (entries.length !== 1) return undefined;
  const [field, raw] = entries[0] as [string, Scalar | Condition];
  const value = isEqOnly(raw) ? raw.$eq : raw;
  return field !== '$or' && (typeof value === 'string' || typeof value === 'number')
    ? [field, value]
    : undefined;
}

/** newest first: createdAt desc, then _id desc. */
function newestFirst(a: Doc, b: Doc): number {
  const ta = a.createdAt instanceof Date ? a.createdAt.getTime() : 0;
  const tb = b.createdAt instanceof Date ? b.createdAt.getTime() : 0;
  if (ta !== tb) return tb - ta;
  const ia = String(a._id);
  const ib = String(b._id);
  return ia < ib ? 1 : ia > ib ? -1 : 0;
}

/**
 * `docs` newest first, as a new array. NeDB keeps the documents of one index key in the order they
 * were stored, which for documents created and not since replaced is oldest first: one pass checks
 * that and the copy is reversed; any other order is sorted.
 */
function newestFirstCopy(docs: readonly Doc[]): Doc[] {
  for (let i = 1; i < docs.length; i++) {
    if (newestFirst(docs[i - 1] as Doc, docs[i] as Doc) < 0) return docs.slice().sort(newestFirst);
  }
  return docs.slice().reverse();
}

/** Whether `now` holds the same document objects as `before`, in the same order. */
function sameDocuments(before: readonly Doc[], now: readonly Doc[]): boolean {
  if (before.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) if (before[i] !== now[i]) return false;
  return true;
}

/** Pages remembered by one database (see `page`). */
const MAX_PAGE_MEMOS = 1024;

interface PageMemo {
  map: unknown;
  skip: number;
  limit: number;
  /** The documents of the index key when the page was made, in NeDB's order. */
  docs: readonly Doc[];
  page: Page<unknown>;
}

interface Opened {
  spec: CollectionSpec;
  db: Datastore<Doc>;
  writes: number;
  /** File-backed collections only: a write whose append fails is undone (internal/nedb-atomic.ts). */
  atomic: AtomicWrites | undefined;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** The NeDB database of one store: `collection(spec)` opens (or answers) the collection's datastore. */
export function createNedbDatabase(options: NedbDatabaseOptions = {}): Database {
  const dir = options.dir === undefined ? undefined : String(options.dir).replace(/[\\/]+$/, '');
  if (dir !== undefined && dir.length === 0) {
    throw new TypeError(
      '[assetloom/core] the embedded store: dir must be a non-empty path, or omitted for memory',
    );
  }
  const compactEvery = Math.max(100, Math.floor(options.compactEvery ?? 20_000));
  const opened = new Map<string, Opened>();
  let loaded = false;

  /** Counts a write and compacts the file now and then (queued behind the write in NeDB's executor). */
  function wrote(c: Opened, n = 1): void {
    if (dir === undefined || n <= 0) return;
    c.writes += n;
    if (c.writes >= compactEvery) {
      c.writes = 0;
      c.db.compactDatafileAsync().catch(() => undefined);
    }
  }

  /** Which unique index a NeDB unique violation is, from the values of the documents written. */
  function duplicateOf(c: Opened, err: unknown, docs: readonly object[]): never {
    const e = typeof err === 'object' && err !== null ? err : {};
    if ('errorType' in e && e.errorType === 'uniqueViolated') {
      const key = 'key' in e ? e.key : undefined;
      for (const index of c.spec.indexes) {
        if (!index.unique || index.only === 'mongodb') continue;
        const field = fieldOf(index);
        if (docs.some((d) => Object.entries(d).some(([k, v]) => k === field && v === key))) {
          throw new DuplicateKeyError(index.reports ?? 'id', { cause: err });
        }
      }
      throw new DuplicateKeyError('id', { cause: err });
    }
    throw err;
  }

  // Reads that skip NeDB's queue must not see a write between its in-memory change and the end of
  // its append (it may yet be undone): they queue behind it then.
  const settled = (c: Opened): boolean => c.atomic === undefined || !c.atomic.writing;
  const indexOf = (c: Opened, field: string): NedbIndex | undefined => {
    if (!loaded || c.spec.frozenReads !== true || !settled(c)) return undefined;
    const index = indexesOf(c.db)?.[field];
    return isNedbIndex(index) ? index : undefined;
  };

  /**
   * The mappers of the index reads, remembered per stored document: NeDB replaces a document object
   * on every update and never changes one in place, so each document version maps to one frozen
   * record (internal/frozen.ts). Keyed by the caller's mapper (weakly: a mapper made per call is
   * forgotten with it). Reads through a query (copies) map afresh.
   */
  const onceMappers = new WeakMap<object, (d: Doc) => unknown>();
  const pageMemos = new Map<string, PageMemo>();

  function collectionOf<D extends object>(c: Opened): Collection<D> {
    const db = c.db;
    // The documents NeDB answers are the documents stored: D by construction of each repository.
    const asD = (d: Doc): D => d as D;
    const mapper =
      <R>(map: (d: D) => R) =>
      (d: Doc) =>
        map(asD(d));
    function once<R>(map: (d: D) => R): (d: Doc) => R {
      let memo = onceMappers.get(map);
      if (memo === undefined) {
        memo = mapOnce(mapper(map));
        onceMappers.set(map, memo);
      }
      return memo as (d: Doc) => R;
    }

    async function page<R>(
      field: string,
      value: string | number,
      window: PageWindow,
      map: (d: D) => R,
    ): Promise<Page<R>> {
      const { skip, limit } = sanitizeWindow(window);
      const index = indexOf(c, field);
      if (index === undefined) {
        const query = { [field]: value };
        const total = await db.countAsync(query);
        if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
        const docs = await db.findAsync(query).sort(NEWEST_FIRST).skip(skip).limit(limit);
        return { total, items: docs.map(mapper(map)) };
      }
      const matching = index.getMatching(value);
      const total = matching.length;
      if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
      const key = `${c.spec.name}\u0000${field}\u0000${typeof value}\u0000${value}`;
      const memo = pageMemos.get(key);
      if (
        memo !== undefined &&
        memo.map === map &&
        memo.skip === skip &&
        memo.limit === limit &&
        sameDocuments(memo.docs, matching)
      ) {
        return memo.page as Page<R>;
      }
      const sorted = newestFirstCopy(matching);
      const items = sorted.slice(skip, skip + limit).map(once(map));
      const result: Page<R> = Object.freeze({ total, items: Object.freeze(items) as R[] });
      if (memo === undefined && pageMemos.size >= MAX_PAGE_MEMOS) {
        const oldest = pageMemos.keys().next().value;
        if (oldest !== undefined) pageMemos.delete(oldest);
      }
      pageMemos.set(key, { map, skip, limit, docs: matching.slice(), page: result });
      return result;
    }

    function projection(fields: readonly string[] | undefined): Doc | undefined {
      if (fields === undefined) return undefined;
      return Object.fromEntries(fields.map((f) => [f, 1]));
    }

    async function find(filter: Filter<D>, options: FindOptions<D> = {}): Promise<D[]> {
      let cursor = db.findAsync(toNedbQuery(filter), projection(options.fields));
      if (options.sort !== undefined) cursor = cursor.sort(options.sort);
      if (options.skip !== undefined) cursor = cursor.skip(options.skip);
      if (options.limit !== undefined) cursor = cursor.limit(options.limit);
      return (await cursor).map(asD);
    }

    async function update(filter: Filter<D>, change: Update<D>, upsert: boolean): Promise<D | null> {
      try {
        const res = await db.updateAsync(toNedbQuery(filter), change, {
          multi: false,
          upsert,
          returnUpdatedDocs: true,
        });
        if (res.numAffected === 0 || !res.affectedDocuments) return null;
        wrote(c);
        return asD(res.affectedDocuments);
      } catch (err) {
        return duplicateOf(c, err, change.$set === undefined ? [] : [change.$set]);
      }
    }

    return {
      name: c.spec.name,
      async findOne(filter, map) {
        const equality = singleEquality(filter);
        const index = equality === undefined ? undefined : indexOf(c, equality[0]);
        if (index !== undefined && equality !== undefined) {
          const doc = index.getMatching(equality[1])[0];
          return doc === undefined ? null : once(map)(doc);
        }
        const doc = await db.findOneAsync(toNedbQuery(filter));
        return doc ? map(asD(doc)) : null;
      },
      find,
      page,
      count: async (filter) => db.countAsync(toNedbQuery(filter)),
      async sum(filter, field) {
        const docs = await db.findAsync(toNedbQuery(filter), { [field]: 1 });
        return docs.reduce((total, d) => {
          const v = d[field];
          return total + (typeof v === 'number' ? v : 0);
        }, 0);
      },
      async insertOne(doc) {
        try {
          await db.insertAsync(plain(doc));
        } catch (err) {
          duplicateOf(c, err, [doc]);
        }
        wrote(c);
      },
      async insertMany(docs) {
        if (docs.length === 0) return;
        try {
          await db.insertAsync(docs.map(plain));
        } catch (err) {
          duplicateOf(c, err, docs);
        }
        wrote(c, docs.length);
      },
      updateOne: async (filter, change, options) =>
        (await update(filter, change, options?.upsert === true)) !== null,
      async updateMany(filter, change) {
        try {
          const res = await db.updateAsync(toNedbQuery(filter), change, { multi: true });
          wrote(c, res.numAffected);
          return res.numAffected;
        } catch (err) {
          return duplicateOf(c, err, change.$set === undefined ? [] : [change.$set]);
        }
      },
      findOneAndUpdate: (filter, change, options) => update(filter, change, options?.upsert === true),
      async deleteOne(filter) {
        const n = await db.removeAsync(toNedbQuery(filter), { multi: false });
        wrote(c, n);
        return n > 0;
      },
      async deleteMany(filter) {
        const n = await db.removeAsync(toNedbQuery(filter), { multi: true });
        wrote(c, n);
        return n;
      },
    };
  }

  function fieldOf(index: IndexSpec): string {
    return index.embeddedField ?? Object.keys(index.key)[0] ?? '_id';
  }

  return {
    kind: dir === undefined ? 'memory' : 'embedded',
    traits: { atomicUpdates: async () => true, indexedOr: false },
    collection<D extends object>(spec: CollectionSpec): Collection<D> {
      let c = opened.get(spec.name);
      if (c === undefined) {
        const db =
          dir === undefined
            ? new Datastore<Doc>({ inMemoryOnly: true })
            : new Datastore<Doc>({ filename: `${dir}/${spec.name}.db` });
        c = {
          spec,
          db,
          writes: 0,
          atomic: dir === undefined ? undefined : makeWritesAtomic(db, `${spec.name}.db`),
        };
        opened.set(spec.name, c);
      }
      return collectionOf<D>(c);
    },
    async open() {
      for (const c of opened.values()) await c.db.loadDatabaseAsync();
      loaded = true;
    },
    async ensureIndexes(spec, names) {
      const c = opened.get(spec.name);
      if (c === undefined) throw new Error(`[assetloom/core] collection ${spec.name} was never opened`);
      for (const index of spec.indexes) {
        if (index.builtin || index.only === 'mongodb') continue;
        if (names !== undefined && !names.includes(index.name)) continue;
        await c.db.ensureIndexAsync({ fieldName: fieldOf(index), unique: index.unique === true });
      }
    },
    async close() {
      // Only what was loaded is compacted: compacting a collection never loaded would empty its file.
      if (!loaded) return;
      loaded = false;
      if (dir === undefined) return;
      for (const c of opened.values()) await c.db.compactDatafileAsync();
    },
  };
}
