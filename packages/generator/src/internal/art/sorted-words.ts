/**
 * A generated, sorted, comma-separated list read in place (issue #38): words (`a,b,c`) or pairs
 * (`a=x,b=y`), looked up by binary search over the one string instead of a Set or Map of it in every
 * pipeline thread. Holds only where each entry starts (4 bytes an entry).
 */
export interface WordSet {
  has(word: string): boolean;
}
export interface WordMap<V> {
  get(word: string): V | undefined;
}

function entries(
  text: string,
  name: string,
  pairs: boolean,
): { starts: Int32Array; keyAt: (i: number) => string } {
  const list = [0];
  for (let at = text.indexOf(','); at >= 0; at = text.indexOf(',', at + 1)) list.push(at + 1);
  list.push(text.length + 1);
  const starts = Int32Array.from(list);
  // a pair's key ends at its '=' (each pair has one), a word at its comma
  const keyAt = (i: number) =>
    text.slice(starts[i], pairs ? text.indexOf('=', starts[i]) : starts[i + 1]! - 1);
  for (let i = 1; i < starts.length - 1; i++)
    if (!(keyAt(i - 1) < keyAt(i)))
      throw new Error(
        `[assetloom/generator] the generated list ${name} is not sorted at "${keyAt(i)}": regenerate it (pnpm --filter @assetloom/pipeline gen)`,
      );
  return { starts, keyAt };
}

/** The entry whose key is `word`, or -1. */
function find(starts: Int32Array, keyAt: (i: number) => string, word: string): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const key = keyAt(mid);
    if (key === word) return mid;
    if (key < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A sorted list of words (`a,b,c`). */
export function sortedWordSet(text: string, name: string): WordSet {
  const { starts, keyAt } = entries(text, name, false);
  return { has: (word) => find(starts, keyAt, word) >= 0 };
}

/** A list of pairs sorted by key (`a=x,b=y`); `read` turns a value's text into the value. */
export function sortedWordMap<V>(text: string, name: string, read: (value: string) => V): WordMap<V> {
  const { starts, keyAt } = entries(text, name, true);
  return {
    get(word) {
      const i = find(starts, keyAt, word);
      if (i < 0) return undefined;
      const from = starts[i]! + keyAt(i).length + 1;
      return read(text.slice(from, starts[i + 1]! - 1));
    },
  };
}
