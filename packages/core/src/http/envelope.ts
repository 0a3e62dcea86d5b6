/**
 * JSON text of response data, byte for byte `JSON.stringify(value)`, with the text of every frozen
 * plain object or array remembered. Frozen values come from the domain service's reads of the
 * embedded store (one frozen value per stored document version, and one frozen page per unchanged
 * index key, see @assetloom/core), so unchanged records are stringified once and afterwards only
 * joined; `createOkEnvelope` goes one step further and keeps the encoded envelope of a frozen value.
 *
 * The walk reproduces JSON.stringify for plain objects and arrays (own enumerable string keys in
 * order; `undefined`, functions and symbols left out of objects and written as `null` in arrays)
 * and descends at most {@link MAX_DEPTH} levels: data → list → item is where frozen values sit.
 * Anything deeper, and anything that is not a plain object or array (dates, `toJSON`), goes to
 * `JSON.stringify` whole, so unfrozen data costs about what it did.
 */
const texts = new WeakMap<object, string>();

const MAX_DEPTH = 2;

export function jsonText(value: unknown): string {
  return textOf(value, 0) ?? 'null';
}

function textOf(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (!Object.isFrozen(value)) return compose(value, depth);
  let text = texts.get(value);
  if (text === undefined) {
    text = compose(value, depth);
    texts.set(value, text);
  }
  return text;
}

/** The text of an object or array, its members through `textOf`. */
function compose(value: object, depth: number): string {
  if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      text += textOf(value[i], depth + 1) ?? 'null';
    }
    return `${text}]`;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return JSON.stringify(value);
  let text = '{';
  for (const key of Object.keys(value)) {
    const item = textOf((value as Record<string, unknown>)[key], depth + 1);
    if (item === undefined) continue; // undefined, a function or a symbol: left out
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${item}`;
  }
  return `${text}}`;
}

const ENVELOPE_START = '{"code":0,"message":"ok","data":';

/** The success envelope `{"code":0,"message":"ok","data":…}` as text, byte for byte `JSON.stringify(ok(data))`. */
export function okEnvelopeText(data: unknown): string {
  return `${ENVELOPE_START}${jsonText(data)}}`;
}

/**
 * The success envelope `{"code":0,"message":"ok","data":…}`, byte for byte
 * `JSON.stringify(ok(data))`. For frozen data (a read of unchanged records: a task, a project, a
 * page of a list) it is `encode(text)`, made once per data value and shared by every later answer
 * with that data, so a repeated read neither joins, measures nor encodes any text (the encoded value
 * must never be written to). Other data gets the text, as `jsonText` makes it. A transport passes
 * its own encoder: the Node server makes a Buffer of its own memory; without one the text is kept.
 */
export function createOkEnvelope<T = string>(
  encode: (text: string) => T = (text) => text as unknown as T,
): (data: unknown) => string | T {
  const envelopes = new WeakMap<object, T>();
  return (data) => {
    if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return okEnvelopeText(data);
    let encoded = envelopes.get(data);
    if (encoded === undefined) {
      // The data's own text is not remembered as well: the encoded envelope stands for it.
      encoded = encode(`${ENVELOPE_START}${compose(data, 0)}}`);
      envelopes.set(data, encoded);
    }
    return encoded;
  };
}
