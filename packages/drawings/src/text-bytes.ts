/**
 * A generated list as UTF-8 bytes read in place (issue #38, decision 0079): one SharedArrayBuffer that
 * every pipeline thread is handed, instead of the list as a string in each thread's heap. Slices are
 * decoded when a reader needs them.
 */

/** The text as UTF-8 bytes, in a SharedArrayBuffer where the runtime has one (else a plain buffer). */
export function sharedUtf8(text: string): Uint8Array {
  const encoded = new TextEncoder().encode(text);
  if (typeof SharedArrayBuffer !== 'function') return encoded;
  const out = new Uint8Array(new SharedArrayBuffer(encoded.length));
  out.set(encoded);
  return out;
}

const decoder = new TextDecoder();

/**
 * bytes[from, to) as a string of its own (never a slice that keeps a larger string alive). Short
 * ASCII runs are built directly; anything else is decoded from a copy (browsers' TextDecoder refuses a
 * view of a SharedArrayBuffer).
 */
export function utf8Slice(bytes: Uint8Array, from: number, to: number): string {
  if (to - from <= 64) {
    let ascii = true;
    for (let i = from; i < to; i++)
      if (bytes[i]! >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]);
  }
  return decoder.decode(bytes.slice(from, to));
}

/** The index of the first `byte` in bytes[from, to), or -1. */
export function indexOfByte(bytes: Uint8Array, byte: number, from = 0, to = bytes.length): number {
  const at = bytes.subarray(from, to).indexOf(byte);
  return at < 0 ? -1 : from + at;
}
