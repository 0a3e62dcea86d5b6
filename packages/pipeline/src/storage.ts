import type { StoragePort } from './types/index.js';

export interface StoredObject {
  bytes: Uint8Array;
  contentType: string;
}

export interface MemoryStorage extends StoragePort {
  get(key: string): StoredObject | undefined;
  keys(): string[];
  readonly objects: ReadonlyMap<string, StoredObject>;
}

/** A StoragePort kept in a Map (tests, the msw mock). Copies bytes on write. */
export function createMemoryStorage(): MemoryStorage {
  const objects = new Map<string, StoredObject>();
  return {
    objects,
    async put(key, bytes, contentType) {
      if (typeof key !== 'string' || !key)
        throw new TypeError('[assetloom/pipeline] storage key must be a non-empty string');
      objects.set(key, { bytes: new Uint8Array(bytes), contentType });
    },
    get: (key) => objects.get(key),
    keys: () => [...objects.keys()],
  };
}
