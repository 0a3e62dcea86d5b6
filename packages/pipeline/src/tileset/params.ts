import type { TilesetParams } from '../types/index.js';
import { TILESET_KINDS } from './rules.js';

/**
 * The defaults and limits of `params.tileset` as the contract states them (openapi/asset-api.yaml,
 * `Tileset` and `TilesetKind`); test/tileset.test.ts holds them equal to the bundled contract.
 */
export const TILESET_DEFAULTS: Readonly<TilesetParams> = Object.freeze({ kind: 'wang16', tileSize: 16 });
export const TILESET_LIMITS = Object.freeze({ kinds: TILESET_KINDS, tileSize: { min: 8, max: 64 } });

/** `params.tileset` with its defaults filled in. */
export function tilesetParams(value: Partial<TilesetParams> | null | undefined): TilesetParams {
  return {
    kind: value?.kind ?? TILESET_DEFAULTS.kind,
    tileSize: value?.tileSize ?? TILESET_DEFAULTS.tileSize,
  };
}

/** What is wrong with a request's `params.tileset`, in words (empty when absent or valid). */
export function tilesetProblems(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return ['params.tileset must be an object'];
  const t = value as Record<string, unknown>;
  const out: string[] = [];
  if (t.kind !== undefined && !TILESET_LIMITS.kinds.includes(t.kind as never))
    out.push(`params.tileset.kind must be ${TILESET_LIMITS.kinds.join(', ')}`);
  const { min, max } = TILESET_LIMITS.tileSize;
  if (
    t.tileSize !== undefined &&
    (!Number.isInteger(t.tileSize) || (t.tileSize as number) < min || (t.tileSize as number) > max)
  )
    out.push(`params.tileset.tileSize must be an integer from ${min} to ${max}`);
  for (const key of Object.keys(t))
    if (key !== 'kind' && key !== 'tileSize') out.push(`params.tileset.${key} is not a known field`);
  return out;
}
