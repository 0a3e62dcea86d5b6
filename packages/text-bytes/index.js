/**
 * A generated list as UTF-8 bytes read in place (issue #38, decision 0079): one SharedArrayBuffer that
 * every pipeline thread is handed, instead of the list as a string in each thread's heap. Slices are
 * decoded when a reader needs them. Types: index.d.ts. The one source for the drawings, the pipeline and
 * the generator: each build carries its own copy (tsup noExternal, decision 0090).
 */

/** The text as UTF-8 bytes, in a SharedArrayBuffer where the runtime has one (else a plain buffer). */
export function sharedUtf8(text) {
  const encoded = new TextEncoder().encode(text);
  if (typeof SharedArrayBuffer !== 'function') return encoded;
  const out = new Uint8Array(new SharedArrayBuffer(encoded.length));
  out.set(encoded);
  return out;
}

const decoder = new TextDecoder();

/**
 * bytes[from, to) as a string of its own (never a slice that keeps a larger string alive). A short
 * run (a word, a catalog row) is decoded here, a code unit at a time: a TextDecoder call for each of
 * ~17,000 lexicon entries made a thread's first interpretation 3-4x slower. A longer one is decoded
 * from a copy (browsers' TextDecoder refuses a view of a SharedArrayBuffer). The bytes are UTF-8 that
 * TextEncoder wrote.
 */
export function utf8Slice(bytes, from, to) {
  if (to - from > 512) return decoder.decode(bytes.slice(from, to));
  const units = [];
  for (let i = from; i < to; ) {
    const b = bytes[i];
    let cp;
    if (b < 0x80) {
      cp = b;
      i += 1;
    } else if (b < 0xe0) {
      cp = ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      cp = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
      i += 3;
    } else {
      cp =
        ((b & 0x07) << 18) |
        ((bytes[i + 1] & 0x3f) << 12) |
        ((bytes[i + 2] & 0x3f) << 6) |
        (bytes[i + 3] & 0x3f);
      i += 4;
    }
    if (cp > 0xffff) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    else units.push(cp);
  }
  return String.fromCharCode(...units);
}

/** The index of the first `byte` in bytes[from, to), or -1. */
export function indexOfByte(bytes, byte, from = 0, to = bytes.length) {
  const at = bytes.subarray(from, to).indexOf(byte);
  return at < 0 ? -1 : from + at;
}
