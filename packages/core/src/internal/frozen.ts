/**
 * Immutable values shared between reads. The embedded store hands out one frozen record per stored
 * document version (NeDB replaces a document object on every update, so a new version is a new
 * object), the service maps each frozen record once, and the HTTP layer serialises each frozen
 * value once. A read of unchanged data then builds and stringifies nothing. Stores whose records
 * are fresh objects (MongoDB) skip all of it: only frozen inputs are remembered.
 */

/** Freezes `value` and everything reachable from it through plain objects and arrays. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * `map`, remembered per input object; every result is deep-frozen. For inputs that are never
 * changed in place (NeDB's stored documents: an update replaces the object).
 */
export function mapOnce<A extends object, R>(map: (input: A) => R): (input: A) => R {
  const results = new WeakMap<A, R>();
  return (input) => {
    let result = results.get(input);
    if (result === undefined) {
      result = deepFreeze(map(input));
      results.set(input, result);
    }
    return result;
  };
}

/**
 * `map`, remembered per input object for frozen inputs (the result is frozen as well); other
 * inputs are mapped afresh on every call. `map` must be a pure function of its input.
 */
export function mapFrozen<A extends object, R>(map: (input: A) => R): (input: A) => R {
  const remembered = mapOnce(map);
  return (input) => (Object.isFrozen(input) ? remembered(input) : map(input));
}
