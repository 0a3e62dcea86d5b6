// What the in-memory store (NeDB, inside @assetloom/core) takes from Node's `util`, for the mock's
// `browser` build (tsup.config.ts aliases `util` here). The npm `util` polyfill reads
// `process.env.NODE_DEBUG` when it loads, which is what failed in a Vite dev server with
// "process is not defined" (issue #32); NeDB only needs these two.

type Callback = (error: unknown, value?: unknown) => void;

/** `util.callbackify`: the promise-returning function called with a Node-style callback last. */
export function callbackify(fn: (...args: unknown[]) => Promise<unknown>) {
  return (...args: unknown[]): void => {
    const callback = args.pop() as Callback;
    fn(...args).then(
      (value) => callback(null, value),
      (error: unknown) => callback(error ?? new Error('rejected without a reason')),
    );
  };
}

/** `util.deprecate`: the function itself (the mock has no deprecation warnings to give). */
export function deprecate<T>(fn: T): T {
  return fn;
}

export default { callbackify, deprecate };
