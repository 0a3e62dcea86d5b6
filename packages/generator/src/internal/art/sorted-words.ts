import { indexOfByte, utf8Slice } from '@assetloom/text-bytes';

/**
 * A generated, sorted, comma-separated list read in place (issue #38): words (`a,b,c`) or pairs
 * (`a=x,b=y`), looked up by binary search over the list's UTF-8 bytes instead of a Set or Map of it
 * in every pipeline thread. The bytes may be a view of one SharedArrayBuffer every thread shares
 * (decision 0079). Holds only where each entry starts (4 bytes an entry).
 */
export interface WordSet {
  has(word: string): boolean;
}
export interface WordMap<V> {
  get(word: string): V | undefined;
}

const COMMA = 0x2c;
const EQUALS = 0x3d;
const encoder = new TextEncoder();

/** bytes[from, to) against key, byte by byte (UTF-8's order is the code points' order). */
function compare(bytes: Uint8Array, from: number, to: number, key: Uint8Array): number {
  const n = Math.min(to - from, key.length);
  for (let i = 0; i < n; i++) {
    const d = bytes[from + i]! - key[i]!;
    if (d) return d;
  }
  return to - from - key.length;
}

interface Entries {
  /** Where each entry starts (one more: the end + 1). */
  starts: Int32Array;
  /** Where each entry's key ends. */
  keyEnds: Int32Array;
}

function entries(text: Uint8Array, name: string, pairs: boolean): Entries {
  const list = [0];
  for (let at = indexOfByte(text, COMMA); at >= 0; at = indexOfByte(text, COMMA, at + 1)) list.push(at + 1);
  list.push(text.length + 1);
  const starts = Int32Array.from(list);
  // a pair's key ends at its '=' (each pair has one), a word at its comma
  const keyEnds = new Int32Array(starts.length - 1);
  for (let i = 0; i < keyEnds.length; i++)
    keyEnds[i] = pairs ? indexOfByte(text, EQUALS, starts[i]!, starts[i + 1]! - 1) : starts[i + 1]! - 1;
  for (let i = 1; i < keyEnds.length; i++) {
    const previous = text.subarray(starts[i - 1]!, keyEnds[i - 1]!);
    if (keyEnds[i]! < 0 || !(compare(text, starts[i]!, keyEnds[i]!, previous) > 0))
      throw new Error(
        `[assetloom/generator] the generated list ${name} is not sorted at "${utf8Slice(text, starts[i]!, Math.max(keyEnds[i]!, starts[i]!))}": regenerate it (pnpm --filter @assetloom/pipeline gen)`,
      );
  }
  return { starts, keyEnds };
}

/** The entry whose key is `word`, or -1. */
function find(text: Uint8Array, { starts, keyEnds }: Entries, word: string): number {
  const key = encoder.encode(word);
  let lo = 0;
  let hi = keyEnds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = compare(text, starts[mid]!, keyEnds[mid]!, key);
    if (d === 0) return mid;
    if (d < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A sorted list of words (`a,b,c`), as UTF-8 bytes. */
export function sortedWordSet(text: Uint8Array, name: string): WordSet {
  const at = entries(text, name, false);
  return { has: (word) => find(text, at, word) >= 0 };
}

/** A list of pairs sorted by key (`a=x,b=y`), as UTF-8 bytes; `read` turns a value's text into the value. */
export function sortedWordMap<V>(text: Uint8Array, name: string, read: (value: string) => V): WordMap<V> {
  const at = entries(text, name, true);
  return {
    get(word) {
      const i = find(text, at, word);
      if (i < 0) return undefined;
      return read(utf8Slice(text, at.keyEnds[i]! + 1, at.starts[i + 1]! - 1));
    },
  };
}
