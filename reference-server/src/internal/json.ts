/**
 * JSON text of response data, byte for byte `JSON.stringify(value)`, with the text of every frozen
 * plain object or array remembered. Frozen values come from the domain service's reads of the
 * embedded store (one frozen value per stored document version, see @assetloom/core), so a list of
 * unchanged projects is stringified once and afterwards only joined.
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
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const known = texts.get(value);
    if (known !== undefined) return known;
  }
  let text: string;
  if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    text = JSON.stringify(value);
  } else if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      text += textOf(value[i], depth + 1) ?? 'null';
    }
    text += ']';
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      text = JSON.stringify(value);
    } else {
      text = '{';
      for (const key of Object.keys(value)) {
        const item = textOf((value as Record<string, unknown>)[key], depth + 1);
        if (item === undefined) continue; // undefined, a function or a symbol: left out
        if (text.length > 1) text += ',';
        text += `${JSON.stringify(key)}:${item}`;
      }
      text += '}';
    }
  }
  if (frozen) texts.set(value, text);
  return text;
}
