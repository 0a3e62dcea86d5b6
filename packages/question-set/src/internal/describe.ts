/** Small helpers that turn values and locations into words. */

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${value.length}`;
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return JSON.stringify(shown);
    }
    case 'number':
      return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "questions[3] (mc-004)" or "questions[3]" when the id is missing or not a string. */
export function questionLabel(index: number, question: unknown): string {
  const id = isRecord(question) && typeof question.id === 'string' ? question.id : undefined;
  return id === undefined ? `questions[${index}]` : `questions[${index}] (${id})`;
}

export function subQuestionLabel(index: number, sub: unknown): string {
  const idx = isRecord(sub) && typeof sub.index === 'number' ? sub.index : undefined;
  return idx === undefined ? `sub_questions[${index}]` : `sub_questions[${index}] (index ${idx})`;
}

/** Renders path segments after a field as `answer[1]` / `options.a`. */
export function fieldPathLabel(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) {
    if (/^(0|[1-9][0-9]*)$/.test(s)) out += `[${s}]`;
    else if (out === '') out = s;
    else out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  }
  return out;
}
