/** cyrb53-style 53-bit string hash: fast, pure JS, well distributed, stable across platforms. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** JSON with sorted object keys, so equal values always serialise identically. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/** A small, fast, seedable PRNG (sfc32) with helpers. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 4294967296) >>> 0;
    this.a = 0x9e3779b9 ^ lo;
    this.b = 0x243f6a88 ^ hi;
    this.c = 0xb7e15162 ^ lo;
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  fork(salt: string): Rng {
    return new Rng(hash53(salt, Math.floor(this.next() * 4294967296)));
  }
}

/** Periodic 1D value noise with smooth interpolation; `period` lattice cells wrap around. */
export class Noise1D {
  private readonly values: Float64Array;
  constructor(
    rng: Rng,
    private readonly period: number,
  ) {
    this.values = new Float64Array(period);
    for (let i = 0; i < period; i++) this.values[i] = rng.next();
  }
  /** x in lattice units; returns 0–1. */
  at(x: number): number {
    const i = Math.floor(x);
    const f = x - i;
    const p = this.period;
    const a = this.values[((i % p) + p) % p]!;
    const b = this.values[(((i + 1) % p) + p) % p]!;
    const s = f * f * (3 - 2 * f);
    return a + (b - a) * s;
  }
  /** Fractal sum over octaves; `x` in 0–1 of the full period when `unit` is true. */
  fbm(x: number, octaves: number, persistence = 0.5): number {
    let sum = 0;
    let amp = 1;
    let norm = 0;
    let freq = 1;
    for (let o = 0; o < octaves; o++) {
      sum += this.at(x * freq + o * 17.31) * amp;
      norm += amp;
      amp *= persistence;
      freq *= 2;
    }
    return sum / norm;
  }
}

/** Periodic 2D value noise on a `period × period` lattice. */
export class Noise2D {
  private readonly values: Float64Array;
  constructor(
    rng: Rng,
    private readonly period: number,
  ) {
    this.values = new Float64Array(period * period);
    for (let i = 0; i < this.values.length; i++) this.values[i] = rng.next();
  }
  at(x: number, y: number): number {
    const p = this.period;
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    const fx = x - xi;
    const fy = y - yi;
    const x0 = ((xi % p) + p) % p;
    const y0 = ((yi % p) + p) % p;
    const x1 = (x0 + 1) % p;
    const y1 = (y0 + 1) % p;
    const v = this.values;
    const sx = fx * fx * (3 - 2 * fx);
    const sy = fy * fy * (3 - 2 * fy);
    const a = v[y0 * p + x0]!;
    const b = v[y0 * p + x1]!;
    const c = v[y1 * p + x0]!;
    const d = v[y1 * p + x1]!;
    const top = a + (b - a) * sx;
    const bottom = c + (d - c) * sx;
    return top + (bottom - top) * sy;
  }
  /** Octaves double the frequency; with integer lattice coordinates the sum keeps the period. */
  fbm(x: number, y: number, octaves: number, persistence = 0.5): number {
    let sum = 0;
    let amp = 1;
    let norm = 0;
    let freq = 1;
    for (let o = 0; o < octaves; o++) {
      sum += this.at(x * freq, y * freq) * amp;
      norm += amp;
      amp *= persistence;
      freq *= 2;
    }
    return sum / norm;
  }
}
