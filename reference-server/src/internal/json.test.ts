import { describe, expect, it } from 'vitest';
import { jsonText, okEnvelope } from './json.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const deepFrozen = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFrozen(item);
  }
  return value;
};

describe('jsonText', () => {
  const values: [string, unknown][] = [
    ['null', null],
    ['a number', 42.5],
    ['NaN and Infinity', [Number.NaN, Number.POSITIVE_INFINITY]],
    ['a string with escapes', 'quote " backslash \\ newline \n 中文 \u2028'],
    ['booleans', [true, false]],
    ['undefined at the top', undefined],
    ['an empty object and array', { a: {}, b: [] }],
    ['undefined, functions and symbols in an object', { a: undefined, b: () => 1, c: Symbol('s'), d: 1 }],
    ['undefined, functions and symbols in an array', [undefined, () => 1, Symbol('s'), 1]],
    ['a Date (toJSON)', { at: new Date(Date.UTC(2026, 10, 21, 12, 0, 0)) }],
    ['a plain object with its own toJSON', { nested: { toJSON: () => ({ replaced: true }) } }],
    ['a class instance', { p: new Point(1, 2) }],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1 })],
    ['keys needing escapes', { 'a"b': 1, 'line\nbreak': 2, '': 3 }],
    ['integer-like keys (ordered first by JS)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
    [
      'a list envelope with frozen items',
      {
        total: 2,
        projects: deepFrozen([
          { id: 'a', n: 1 },
          { id: 'b', n: null },
        ]),
      },
    ],
    ['deep nesting past the walked depth', { a: { b: { c: { d: { e: [1, { f: undefined }] } } } } }],
    ['a frozen object with a nested array', deepFrozen({ frames: [{ x: 1 }, { x: 2 }], style: { k: 'v' } })],
  ];

  it.each(values)('writes %s exactly as JSON.stringify does', (_name, value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value) ?? 'null');
  });

  it('writes each frozen value once and reuses its text while it lives', () => {
    const item = deepFrozen({ id: 'p1', name: 'Knight', taskCount: 1 });
    const first = jsonText({ projects: [item] });
    // Object.keys is how the walk reads an object: counting its calls shows whether it walked again.
    const keys = Object.keys;
    let walked = 0;
    Object.keys = ((o: object) => {
      if (o === item) walked++;
      return keys(o);
    }) as typeof Object.keys;
    try {
      expect(jsonText({ projects: [item] })).toBe(first);
      expect(jsonText(item)).toBe(JSON.stringify(item));
    } finally {
      Object.keys = keys;
    }
    expect(walked).toBe(0);
  });

  it('never reuses text for unfrozen values, so changes show', () => {
    const item = { id: 'p1', taskCount: 1 };
    expect(jsonText([item])).toBe('[{"id":"p1","taskCount":1}]');
    item.taskCount = 2;
    expect(jsonText([item])).toBe('[{"id":"p1","taskCount":2}]');
  });

  it('throws where JSON.stringify throws (BigInt, cycles)', () => {
    expect(() => jsonText({ n: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonText(cyclic)).toThrow();
  });
});

describe('okEnvelope', () => {
  const envelopeOf = (data: unknown) => JSON.stringify({ code: 0, message: 'ok', data });
  const bytesOf = (body: string | Buffer) => (typeof body === 'string' ? Buffer.from(body) : body);

  it.each([
    ['null', null],
    ['a number', 7],
    ['an unfrozen object', { id: 'p1', name: '骑士 "quoted"', at: new Date(0) }],
    ['a frozen task', deepFrozen({ taskId: 't1', prompt: '像素风格的骑士 \u2028', params: { n: [1, 2] } })],
    [
      'a frozen page of frozen items',
      deepFrozen({
        total: 2,
        projects: [
          { id: 'a', name: '工程' },
          { id: 'b', name: 'B' },
        ],
      }),
    ],
    ['a frozen empty list', deepFrozen({ total: 0, projects: [] })],
  ])('answers %s with the bytes of JSON.stringify(ok(data))', (_name, data) => {
    expect(bytesOf(okEnvelope(data)).equals(Buffer.from(envelopeOf(data)))).toBe(true);
  });

  it('makes the bytes of frozen data once, in memory of their own, and shares them', () => {
    const page = deepFrozen({ total: 1, projects: [{ id: 'p1', name: '工程一' }] });
    const first = okEnvelope(page);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(okEnvelope(page)).toBe(first);
    const bytes = first as Buffer;
    // not a slice of Node's shared 8 KB pool, which a remembered slice would keep alive whole
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    // an equal but distinct value gets its own bytes
    const again = deepFrozen({ total: 1, projects: [{ id: 'p1', name: '工程一' }] });
    expect(okEnvelope(again)).not.toBe(first);
    expect((okEnvelope(again) as Buffer).equals(bytes)).toBe(true);
  });

  it('writes unfrozen data afresh on every call, so changes show', () => {
    const data = { taskCount: 1 };
    expect(okEnvelope(data)).toBe('{"code":0,"message":"ok","data":{"taskCount":1}}');
    data.taskCount = 2;
    expect(okEnvelope(data)).toBe('{"code":0,"message":"ok","data":{"taskCount":2}}');
  });
});
