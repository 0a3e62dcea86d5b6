import type { ExpectedLayout } from '../asset-types/layout.js';
import { composeSheet } from '../formats/compose.js';
import { encodePng } from '../png.js';
import type { AssetMetadata, GeneratedAsset, PipelineAsset, QualityReport } from '../types/index.js';
import { godotTileSet, tiledTileset, tilesetDescription } from './formats.js';
import { tilesetRules } from './rules.js';

export interface TilesetFilesInput {
  generated: GeneratedAsset;
  layout: ExpectedLayout;
  keyPrefix: string;
  /** Metadata every asset of the run carries (provenance, interpretation…). */
  metadata: Omit<AssetMetadata, 'tileset' | 'atlas'>;
  text: Record<string, string>;
  quality: QualityReport;
  /** The enforced palette: the sheet is written indexed with exactly its colours. */
  palette: readonly (readonly [number, number, number])[] | null;
}

/**
 * A tileset's files: `tileset.png` (the tiles on the set's grid), `tileset.tres` (Godot 4 TileSet
 * with terrains), `tileset.tsx` (Tiled tileset with a Wang set) and `tileset.json` (for other
 * engines). One asset, the PNG, lists the others in `metadata.atlas`.
 */
export function tilesetFiles(input: TilesetFilesInput): {
  writes: Array<[string, Uint8Array, string]>;
  assets: PipelineAsset[];
} {
  const { generated, layout, keyPrefix } = input;
  const kind = layout.tileset!.kind;
  const rules = tilesetRules(kind);
  const sheet = composeSheet(generated.frames, rules.columns, rules.rows);
  const stem = `${keyPrefix}tileset`;
  const image = 'tileset.png';
  const terrains = generated.tileset?.terrains ?? [];
  const files = {
    image,
    width: sheet.width,
    height: sheet.height,
    tileSize: layout.frameWidth,
    rules,
    terrains,
    colors: generated.tileset?.colors ?? [],
    name: terrains.length ? `${terrains.join('-')}-${kind}` : kind,
  };
  const encoder = new TextEncoder();
  const text = 'text/plain; charset=utf-8';
  const writes: Array<[string, Uint8Array, string]> = [
    [
      `${stem}.png`,
      encodePng(sheet.data, sheet.width, sheet.height, {
        text: input.text,
        ...(input.palette ? { palette: input.palette } : {}),
      }),
      'image/png',
    ],
    [`${stem}.tres`, encoder.encode(godotTileSet(files)), text],
    [`${stem}.tsx`, encoder.encode(tiledTileset(files)), 'application/xml'],
    [
      `${stem}.json`,
      encoder.encode(`${JSON.stringify(tilesetDescription(files), null, 2)}\n`),
      'application/json',
    ],
  ];
  const seams = input.quality.seams;
  // a tileset has tiles, not animations: the sheets' `animations` list does not apply
  const { animations: _animations, ...metadata } = input.metadata;
  const asset: PipelineAsset = {
    key: `${stem}.png`,
    format: 'png',
    width: sheet.width,
    height: sheet.height,
    contentType: 'image/png',
    metadata: {
      ...metadata,
      layout: 'spritesheet',
      atlas: { godot: `${stem}.tres`, tiled: `${stem}.tsx`, tileset: `${stem}.json` },
      tileset: {
        kind,
        tileSize: layout.frameWidth,
        columns: rules.columns,
        rows: rules.rows,
        tileCount: rules.tiles.length,
        terrains,
        seams: seams
          ? { worst: seams.worst, mean: seams.mean, pairs: seams.pairs }
          : { worst: 0, mean: 0, pairs: 0 },
      },
    },
  };
  return { writes, assets: [asset] };
}
