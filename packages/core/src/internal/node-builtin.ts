/**
 * A Node built-in module when running under Node (or a runtime that offers
 * `process.getBuiltinModule`), else undefined: core uses one where it is cheaper and stays
 * importable in browsers, since nothing imports `node:*` statically.
 */
export function nodeBuiltin<T>(id: `node:${string}`): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.(id) as T | undefined;
}
