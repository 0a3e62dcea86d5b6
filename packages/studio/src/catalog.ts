import BUILT_IN from 'virtual:assetloom-style-catalog';
import type { AssetClient } from '@assetloom/sdk';

/** A palette the `palette` style key accepts, with its colours (`#rrggbb`). */
export interface Palette {
  name: string;
  colors: string[];
}

/** What the style pickers offer: palettes with their colours, art styles, and the style keys the generator reads. */
export interface StyleCatalog {
  palettes: Palette[];
  artStyles: string[];
  keys: string[];
  /** `server`: GET /api/v1/styles/catalog answered; `built-in`: the pipeline's tables as of the studio's build. */
  source: 'server' | 'built-in';
}

/** The catalogue as built into the studio (the pipeline's NAMED_PALETTES, read by vite.config.ts at build time). */
export const builtInCatalog: StyleCatalog = { ...BUILT_IN, source: 'built-in' };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const nameOf = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : isRecord(v)
      ? ([v.name, v.key, v.value, v.id].find((x) => typeof x === 'string') as string | undefined)
      : undefined;
const HEX = /^#[0-9a-f]{6}$/i;

/**
 * Reads the server's catalogue, whatever its exact shape: palettes as a list of `{name, colors}` or a
 * map of name → colours, art styles and keys as lists of names (or of objects with a name). Answers
 * undefined when it has no palette with colours.
 */
export function readCatalog(data: unknown): StyleCatalog | undefined {
  if (!isRecord(data)) return undefined;
  const palettes: Palette[] = [];
  const raw = data.palettes;
  const entries: [string | undefined, unknown][] = Array.isArray(raw)
    ? raw.map((p) => [nameOf(p), isRecord(p) ? p.colors : undefined])
    : isRecord(raw)
      ? Object.entries(raw).map(([name, p]) => [name, isRecord(p) ? p.colors : p])
      : [];
  for (const [name, colors] of entries) {
    if (!name || !Array.isArray(colors)) continue;
    const list = colors
      .filter((c): c is string => typeof c === 'string' && HEX.test(c))
      .map((c) => c.toLowerCase());
    if (list.length > 0) palettes.push({ name, colors: list });
  }
  if (palettes.length === 0) return undefined;
  const names = (v: unknown) => (Array.isArray(v) ? v.map(nameOf).filter((x): x is string => !!x) : []);
  const artStyles = names(data.artStyles);
  const keys = names(data.keys);
  return {
    palettes,
    artStyles: artStyles.length > 0 ? artStyles : builtInCatalog.artStyles,
    keys: keys.length > 0 ? keys : builtInCatalog.keys,
    source: 'server',
  };
}

let pending: Promise<StyleCatalog> | undefined;

/**
 * The style catalogue: `GET /api/v1/styles/catalog` when the server has it, else the built-in one
 * (a server from before the endpoint answers 404). Asked once per page.
 */
export function styleCatalog(api: AssetClient): Promise<StyleCatalog> {
  pending ??= (api.GET as unknown as (path: string) => Promise<{ data?: unknown; error?: unknown }>)(
    '/api/v1/styles/catalog',
  )
    .then((result) => (result.error ? undefined : readCatalog(result.data)) ?? builtInCatalog)
    .catch(() => builtInCatalog);
  return pending;
}
