/**
 * A tsup plugin: every JavaScript chunk it writes is ASCII, each non-ASCII UTF-16 unit written as a
 * `\uXXXX` escape (issue #38, decision 0089).
 *
 * Why: V8 keeps a module's source text on the heap for as long as the module lives, one byte per
 * character when every character is Latin-1 and two bytes per character otherwise. esbuild escapes
 * non-ASCII in string literals but not in regular-expression literals or comments, so one `按钮` in
 * a regex or one emoji in a comment made the whole 0.5–0.7 MB chunk two-byte: ~1.9 MB more heap in
 * every isolate that loads the generator (the server's main thread and each pipeline thread), counted
 * by `bench:thread-memory` (a thread's heap used 17.0 → 15.0 MB).
 *
 * A `\uXXXX` escape means the same character in a string, a template's cooked value, a regular
 * expression (a surrogate pair of escapes is one code point under the `u` flag), an identifier and a
 * comment. It does not in two places, which this refuses to build rather than change a meaning: a
 * non-ASCII character right after a backslash (an identity escape such as `\中`) and one inside
 * `String.raw` (whose value is the raw text).
 */
const NON_ASCII = /[\u0080-\uffff]/g;

/** The code with every non-ASCII UTF-16 unit escaped; throws where an escape would change a meaning. */
export function asciiOnly(code, where = 'chunk') {
  if (!/[\u0080-\uffff]/.test(code)) return code;
  const afterBackslash = /\\[\u0080-\uffff]/.exec(code);
  if (afterBackslash) {
    throw new Error(
      `[assetloom/ascii-chunks] ${where}: a non-ASCII character after a backslash at ${afterBackslash.index}`,
    );
  }
  for (const raw of code.matchAll(/String\.raw`[^`]*`/g)) {
    if (/[\u0080-\uffff]/.test(raw[0])) {
      throw new Error(
        `[assetloom/ascii-chunks] ${where}: a non-ASCII character inside String.raw at ${raw.index}`,
      );
    }
  }
  return code.replace(NON_ASCII, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The tsup plugin (`plugins: [asciiChunks()]`). */
export function asciiChunks() {
  return {
    name: 'assetloom-ascii-chunks',
    renderChunk(code, info) {
      if (!/\.(c|m)?js$/.test(info.path)) return undefined;
      const out = asciiOnly(code, info.path);
      return out === code ? undefined : { code: out };
    },
  };
}
