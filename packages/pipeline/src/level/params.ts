import { TERRAINS, type TerrainName } from '../tileset/terrains.js';
import type { LevelParams } from '../types/index.js';

/**
 * The defaults and limits of `params.level` as the contract states them (openapi/asset-api.yaml,
 * `Level`); test/level.test.ts holds them equal to the bundled contract.
 */
const LEVEL_DEFAULTS = Object.freeze({ columns: 32, rows: 32, tileSize: 16 });
const LEVEL_LIMITS = Object.freeze({
  columns: { min: 8, max: 256 },
  rows: { min: 8, max: 256 },
  tileSize: { min: 8, max: 64 },
  terrains: { min: 2, max: 6 },
  /** The preview's longest side in pixels (columns × tileSize, rows × tileSize). */
  previewSide: 4096,
});
const TERRAIN_NAMES = Object.keys(TERRAINS) as TerrainName[];

/** `params.level` with its defaults filled in. */
export function levelParams(value: Partial<LevelParams> | null | undefined): LevelParams {
  return {
    columns: value?.columns ?? LEVEL_DEFAULTS.columns,
    rows: value?.rows ?? LEVEL_DEFAULTS.rows,
    tileSize: value?.tileSize ?? LEVEL_DEFAULTS.tileSize,
    ...(value?.tilesetTaskId ? { tilesetTaskId: value.tilesetTaskId } : {}),
    ...(value?.terrains?.length ? { terrains: [...value.terrains] } : {}),
  };
}

const isInt = (v: unknown, r: { min: number; max: number }) =>
  Number.isInteger(v) && (v as number) >= r.min && (v as number) <= r.max;

/** What is wrong with a request's `params.level`, in words (empty when absent or valid). */
export function levelProblems(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return ['params.level must be an object'];
  const l = value as Record<string, unknown>;
  const out: string[] = [];
  for (const side of ['columns', 'rows', 'tileSize'] as const) {
    const r = LEVEL_LIMITS[side];
    if (l[side] !== undefined && !isInt(l[side], r))
      out.push(`params.level.${side} must be an integer from ${r.min} to ${r.max}`);
  }
  if (
    l.tilesetTaskId !== undefined &&
    l.tilesetTaskId !== null &&
    (typeof l.tilesetTaskId !== 'string' || !l.tilesetTaskId)
  )
    out.push('params.level.tilesetTaskId must be a task id');
  if (l.terrains !== undefined && l.terrains !== null) {
    const t = l.terrains;
    const { min, max } = LEVEL_LIMITS.terrains;
    if (!Array.isArray(t) || t.length < min || t.length > max)
      out.push(`params.level.terrains must list ${min} to ${max} terrains`);
    else {
      for (const name of t)
        if (!TERRAIN_NAMES.includes(name as TerrainName))
          out.push(`params.level.terrains: "${String(name)}" is not a terrain (${TERRAIN_NAMES.join(', ')})`);
      if (new Set(t).size !== t.length) out.push('params.level.terrains names a terrain twice');
    }
    if (l.tilesetTaskId) out.push('params.level: give tilesetTaskId or terrains, not both');
  }
  for (const key of Object.keys(l))
    if (!['columns', 'rows', 'tileSize', 'tilesetTaskId', 'terrains'].includes(key))
      out.push(`params.level.${key} is not a known field`);
  const p = levelParams(l as Partial<LevelParams>);
  const side = LEVEL_LIMITS.previewSide;
  if (out.length === 0 && Math.max(p.columns, p.rows) * p.tileSize > side)
    out.push(
      `params.level: ${p.columns} × ${p.rows} tiles of ${p.tileSize} px make a ${p.columns * p.tileSize} × ${p.rows * p.tileSize} px level, above ${side} px a side: use fewer or smaller tiles`,
    );
  return out;
}
