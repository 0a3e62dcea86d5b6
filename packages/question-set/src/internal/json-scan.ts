/**
 * A small strict JSON scanner (RFC 8259) that never recurses, so any nesting depth is safe.
 * It serves two purposes on the error path only (the happy path uses JSON.parse):
 *   - find where a document that JSON.parse rejected is broken, with a readable reason;
 *   - map JSON Pointers to source offsets, so issues can carry line:column.
 */

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

export interface ScanResult {
  /** Offset of each wanted pointer: the key of an object member, the first character of an array item or the root. */
  positions: Map<string, number>;
  error?: JsonSyntaxError;
}

interface Frame {
  kind: 'array' | 'object';
  pointer: string;
  count: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'end of input';
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f)
    return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${ch}'`;
}

/**
 * Scans `text`. When `wanted` is given only those pointers are recorded (cheap on large documents);
 * otherwise every pointer is recorded.
 */
export function scanJson(text: string, wanted?: ReadonlySet<string>): ScanResult {
  const positions = new Map<string, number>();
  const n = text.length;
  let i = 0;
  const stack: Frame[] = [];
  const fail = (offset: number, message: string): ScanResult => ({ positions, error: { offset, message } });
  const record = (pointer: string, offset: number) => {
    if (wanted === undefined || wanted.has(pointer)) positions.set(pointer, offset);
  };
  const skipWs = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  /** Reads a string starting at text[i] === '"'; returns the end offset (exclusive) or an error. */
  const readString = (): number | JsonSyntaxError => {
    const start = i;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return i;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            return { offset: i, message: 'invalid \\u escape: expected 4 hexadecimal digits' };
          }
          i += 6;
          continue;
        }
        if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
          continue;
        }
        if (e === undefined) break;
        return { offset: i, message: `invalid escape sequence '\\${e}' in string` };
      }
      if (c === 0x0a || c === 0x0d) {
        return { offset: i, message: 'line break inside a string: unterminated string, or escape it as \\n' };
      }
      if (c < 0x20) {
        return {
          offset: i,
          message: `${describeChar(text[i])} must be escaped inside a string (unterminated string?)`,
        };
      }
      i++;
    }
    return { offset: start, message: 'unterminated string: missing closing double quote' };
  };
  /** Reads an object key and the colon after it; returns the key or an error. */
  const readKey = (): { key: string; offset: number } | JsonSyntaxError => {
    skipWs();
    const keyStart = i;
    if (text[i] !== '"') {
      if (text[i] === '}') return { offset: i, message: "trailing comma before '}' is not allowed in JSON" };
      return {
        offset: i,
        message: `expected a property name in double quotes, found ${describeChar(text[i])}`,
      };
    }
    const end = readString();
    if (typeof end !== 'number') return end;
    const key = JSON.parse(text.slice(keyStart, end)) as string;
    skipWs();
    if (text[i] !== ':') {
      return {
        offset: i,
        message: `expected ':' after property name "${key}", found ${describeChar(text[i])}`,
      };
    }
    i++;
    return { key, offset: keyStart };
  };

  let pointer = '';
  skipWs();
  if (i >= n) return fail(i, 'empty document: expected a JSON value');
  record('', i);
  // Each turn of this loop parses one value at `pointer`, then unwinds finished containers.
  for (;;) {
    skipWs();
    const c = text[i];
    let closedScalar = true;
    if (c === '{') {
      i++;
      skipWs();
      if (text[i] === '}') {
        i++;
      } else {
        stack.push({ kind: 'object', pointer, count: 0 });
        const k = readKey();
        if ('message' in k) return fail(k.offset, k.message);
        pointer = `${pointer}/${escapePointerSegment(k.key)}`;
        record(pointer, k.offset);
        closedScalar = false;
      }
    } else if (c === '[') {
      i++;
      skipWs();
      if (text[i] === ']') {
        i++;
      } else {
        stack.push({ kind: 'array', pointer, count: 0 });
        pointer = `${pointer}/0`;
        record(pointer, i);
        closedScalar = false;
      }
    } else if (c === '"') {
      const end = readString();
      if (typeof end !== 'number') return fail(end.offset, end.message);
    } else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (text.startsWith(word, i)) i += word.length;
      else return fail(i, `unexpected ${describeChar(c)}: did you mean ${word}?`);
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) return fail(i, 'invalid number');
      i += m[0].length;
    } else if (c === undefined) {
      return fail(i, 'unexpected end of input: expected a value');
    } else if (c === ']' && stack.length > 0) {
      return fail(i, "trailing comma before ']' is not allowed in JSON");
    } else if (c === "'") {
      return fail(i, 'strings must use double quotes in JSON');
    } else {
      return fail(i, `unexpected ${describeChar(c)}: expected a value`);
    }
    if (!closedScalar) continue;
    // The value is complete: close containers until one wants another item.
    for (;;) {
      skipWs();
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (i < n) return fail(i, `unexpected ${describeChar(text[i])} after the end of the JSON value`);
        return { positions };
      }
      const ch = text[i];
      if (ch === ',') {
        i++;
        top.count++;
        if (top.kind === 'array') {
          pointer = `${top.pointer}/${top.count}`;
          skipWs();
          record(pointer, i);
        } else {
          const k = readKey();
          if ('message' in k) return fail(k.offset, k.message);
          pointer = `${top.pointer}/${escapePointerSegment(k.key)}`;
          record(pointer, k.offset);
        }
        break;
      }
      if ((top.kind === 'array' && ch === ']') || (top.kind === 'object' && ch === '}')) {
        i++;
        stack.pop();
        continue;
      }
      if (ch === undefined) {
        return fail(i, `unexpected end of input: missing '${top.kind === 'array' ? ']' : '}'}'`);
      }
      return fail(
        i,
        `expected ',' or '${top.kind === 'array' ? ']' : '}'}' after ${top.kind === 'array' ? 'an array item' : 'a property value'}, found ${describeChar(ch)}`,
      );
    }
  }
}

/** Converts offsets to 1-based line and column (columns count UTF-16 code units, like editors and V8). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x0a) this.starts.push(k + 1);
      else if (c === 0x0d && text.charCodeAt(k + 1) !== 0x0a) this.starts.push(k + 1);
    }
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}
