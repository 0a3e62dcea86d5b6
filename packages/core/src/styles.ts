import type { OpenApiDocument } from '@assetloom/openapi';
import { NAMED_PALETTES, parsePalette } from '@assetloom/pipeline';
import { type ResolvedStyle, resolveStyle, toHex } from '@assetloom/pipeline/pixel';
import { type FieldProblem, type Language, STYLE_KEY_TEXTS } from './messages.js';

/**
 * What the style keys accept (decision 0037). Spec 000 leaves style values open; the built-in
 * generator chooses by five keys and silently falls back to its default for a value it does not
 * read, so a value of those keys that it does not read is refused (400, rule `styleValue`). "Reads"
 * is decided by the generator itself: the value changes what `resolveStyle` makes of the style, or
 * names the default. The catalogue (`GET /api/v1/styles/catalog`) lists the values to offer.
 */

/** The keys the generator chooses by; their values are checked. */
export const CHOICE_KEYS = ['palette', 'artStyle', 'lineWeight', 'lighting', 'tileable'] as const;
export type ChoiceKey = (typeof CHOICE_KEYS)[number];

/** The keys read as free text together with the prompt (pipeline README, "Style keys"). */
export const TEXT_KEYS = ['scene', 'subject', 'mood', 'theme', 'biome'] as const;

/** Every known key, in the catalogue's order (the contract's `StyleKey`). */
export const STYLE_KEYS = [...CHOICE_KEYS, ...TEXT_KEYS] as const;
export type StyleKey = (typeof STYLE_KEYS)[number];

/** Other names of the named palettes, as the generator reads them (checked against it by a test). */
export const PALETTE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  pico8: ['pico-8', 'pico'],
  sweetie16: ['sweetie'],
  gameboy: ['game boy', 'gb', 'dmg'],
  nes: ['famicom'],
  endesga32: ['endesga'],
};

/** The values each choice key offers (each is read by the generator; a test checks it). */
export const STYLE_VALUES: Readonly<Record<ChoiceKey, readonly string[]>> = {
  palette: Object.keys(NAMED_PALETTES).filter((name) => name !== 'default'),
  artStyle: [
    'pixel',
    '8-bit',
    'retro',
    'smooth',
    'hd',
    'vector',
    'cartoon',
    'flat',
    'painterly',
    'hand-drawn',
  ],
  lineWeight: ['none', 'thin', 'thick'],
  lighting: [
    'top-left',
    'top-right',
    'top',
    'left',
    'right',
    'bottom',
    'night',
    'sunset',
    'dramatic',
    'soft',
    'flat',
  ],
  tileable: ['true', 'false'],
};

const DEFAULT = resolveStyle({});

/** What each choice key changes in the resolved style. */
const EFFECT: Readonly<Record<Exclude<ChoiceKey, 'palette'>, (s: ResolvedStyle) => unknown[]>> = {
  artStyle: (s) => [s.artStyle, s.gridHint],
  lineWeight: (s) => [s.lineWeight],
  lighting: (s) => [s.light.x, s.light.y, s.mood],
  tileable: (s) => [s.tileable],
};

/** Words that name a key's default (they change nothing, and are read all the same). */
const DEFAULT_WORDS: Readonly<Record<Exclude<ChoiceKey, 'palette'>, RegExp>> = {
  artStyle: /pixel|像素/i,
  lineWeight: /thin|medium|regular|细/i,
  lighting: /left|day|noon|左|白天/i,
  tileable: /^(?:false|no|0)$/i,
};

const ACCEPTS: Readonly<Record<ChoiceKey, FieldProblem['accepts']>> = {
  palette: 'hexColours',
  artStyle: 'words',
  lineWeight: 'number',
  lighting: 'words',
  tileable: undefined,
};

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Whether the generator reads `value` for the choice key `key`. */
export function isReadStyleValue(key: ChoiceKey, value: string): boolean {
  if (key === 'palette') {
    return parsePalette(value) !== null || value.trim().toLowerCase() === 'default';
  }
  if (DEFAULT_WORDS[key].test(value)) return true;
  if (key === 'lineWeight' && Number.isFinite(Number.parseFloat(value))) return true;
  const effect = EFFECT[key];
  return !same(effect(resolveStyle({ [key]: value })), effect(DEFAULT));
}

const isChoiceKey = (key: string): key is ChoiceKey => (CHOICE_KEYS as readonly string[]).includes(key);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** The problems of the choice keys of one style map at `pointer` (`/kvPairs`). */
export function styleMapProblems(style: unknown, pointer: string): FieldProblem[] {
  if (!isPlainObject(style)) return [];
  const out: FieldProblem[] = [];
  for (const [key, value] of Object.entries(style)) {
    if (!isChoiceKey(key) || typeof value !== 'string' || isReadStyleValue(key, value)) continue;
    const problem: FieldProblem = {
      in: 'body',
      path: `${pointer}/${escapePointer(key)}`,
      rule: 'styleValue',
      allowed: [...STYLE_VALUES[key]],
    };
    const accepts = ACCEPTS[key];
    if (accepts !== undefined) problem.accepts = accepts;
    out.push(problem);
  }
  return out;
}

/** The problems of every style map of a body, at the property paths `pointers` (from {@link stylePointers}). */
export function styleProblems(body: unknown, pointers: readonly (readonly string[])[]): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const path of pointers) {
    let value: unknown = body;
    for (const part of path) value = isPlainObject(value) ? value[part] : undefined;
    out.push(...styleMapProblems(value, path.map((part) => `/${escapePointer(part)}`).join('')));
  }
  return out;
}

const STYLE_MAP_REF = '#/components/schemas/StyleMap';

/**
 * The property paths of a request body schema that hold a style map (a `$ref` to `StyleMap`, also as
 * a branch of `oneOf` / `anyOf`): `[['kvPairs']]`, `[['style']]`, `[['taskStyle']]`.
 */
export function stylePointers(document: OpenApiDocument, schema: unknown): string[][] {
  const out: string[][] = [];
  const resolve = (node: unknown): Record<string, unknown> | undefined => {
    let current = node;
    for (let hops = 0; hops < 8 && isPlainObject(current) && typeof current.$ref === 'string'; hops++) {
      const ref = current.$ref as string;
      if (ref === STYLE_MAP_REF || !ref.startsWith('#/')) return current;
      let target: unknown = document;
      for (const part of ref.slice(2).split('/')) target = isPlainObject(target) ? target[part] : undefined;
      current = target;
    }
    return isPlainObject(current) ? current : undefined;
  };
  const isStyleMap = (node: unknown): boolean => {
    const resolved = resolve(node);
    if (resolved === undefined) return false;
    if (resolved.$ref === STYLE_MAP_REF) return true;
    const branches = [resolved.oneOf, resolved.anyOf].filter(Array.isArray).flat() as unknown[];
    return branches.some((branch) => resolve(branch)?.$ref === STYLE_MAP_REF);
  };
  const walk = (node: unknown, path: string[]) => {
    if (path.length > 4) return;
    const resolved = resolve(node);
    if (resolved === undefined || !isPlainObject(resolved.properties)) return;
    for (const [name, property] of Object.entries(resolved.properties)) {
      if (isStyleMap(property)) out.push([...path, name]);
      else walk(property, [...path, name]);
    }
  };
  walk(schema, []);
  return out;
}

/** A named palette with its colours (`#rrggbb`) and other names. */
export interface NamedPalette {
  name: string;
  colors: string[];
  aliases: string[];
}

/** One known style key: the values to offer (`null`: any text) and what it does. */
export interface StyleKeyInfo {
  name: StyleKey;
  values: string[] | null;
  description: string;
}

/** The answer of `GET /api/v1/styles/catalog` (the contract's `StyleCatalog`). */
export interface StyleCatalog {
  palettes: NamedPalette[];
  artStyles: string[];
  keys: StyleKeyInfo[];
}

const catalogs = new Map<Language, StyleCatalog>();

/** The style catalogue, its descriptions in `language` (made once per language, then frozen). */
export function styleCatalog(language: Language): StyleCatalog {
  let catalog = catalogs.get(language);
  if (catalog === undefined) {
    catalog = deepFreeze({
      palettes: STYLE_VALUES.palette.map((name) => ({
        name,
        colors: (NAMED_PALETTES[name] ?? []).map(toHex),
        aliases: [...(PALETTE_ALIASES[name] ?? [])],
      })),
      artStyles: [...STYLE_VALUES.artStyle],
      keys: STYLE_KEYS.map((name) => ({
        name,
        values: isChoiceKey(name) ? [...STYLE_VALUES[name]] : null,
        description: STYLE_KEY_TEXTS[name][language],
      })),
    });
    catalogs.set(language, catalog);
  }
  return catalog;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
