import { tilesetFiles } from '../tileset/files.js';
import { tilesetFromModel } from '../tileset/model.js';
import { tilesetParams } from '../tileset/params.js';
import { TILESET_KINDS, type TilesetKind, tilesetRules } from '../tileset/rules.js';
import { frameRects, runMetadata } from './output.js';
import type { AssetTypeModule } from './types.js';

const KIND_WORDS = {
  zh: {
    seamless: '四向无缝平铺图块 (1 块 + 3 块变体)',
    blob47: '47 块 8 邻接自动图块 (blob) + 1 块底色 + 整块变体',
    wang16: '16 块 Wang 角点过渡图块 + 整块变体',
  },
  en: {
    seamless: 'one tile seamless in four directions, with 3 variants',
    blob47: '47 eight-neighbour autotiles (blob) + 1 fill tile + full-tile variants',
    wang16: '16 Wang corner-transition tiles + full-tile variants',
  },
} as const;

/**
 * Tilesets: the tiles of a Wang, blob or seamless set on its grid, with Godot, Tiled and JSON files;
 * each set's tile count (its rule tiles and its full tiles' variants, decision 0094).
 */
const TILES_OF = Object.fromEntries(
  TILESET_KINDS.map((kind) => [kind, tilesetRules(kind).tiles.length]),
) as Record<TilesetKind, number>;

export const tileset: AssetTypeModule<'tileset'> = {
  type: 'tileset',
  canvas: false,
  framed: false,
  // its tiles at the tile size (blob sets 56, wang 20, seamless 4 with their variants), and the preview's canvas
  pixels: (params) =>
    (params.tileset ? TILES_OF[params.tileset.kind] * params.tileset.tileSize ** 2 : 0) +
    params.resolution ** 2,
  problems: () => [],
  layout(params) {
    const { kind, tileSize } = tilesetParams(params.tileset);
    const rules = tilesetRules(kind);
    return {
      frameWidth: tileSize,
      frameHeight: tileSize,
      directions: 1,
      framesPerDirection: rules.tiles.length,
      frameCount: rules.tiles.length,
      directionNames: ['down'],
      opaque: true,
      tileset: { kind, columns: rules.columns, rows: rules.rows },
    };
  },
  promptSize: (p, language) =>
    p.tileset
      ? language === 'en'
        ? `${p.tileset.tileSize}×${p.tileset.tileSize} px per tile`
        : `每块 ${p.tileset.tileSize}×${p.tileset.tileSize} 像素`
      : null,
  promptParts: (p, language) => {
    const words = KIND_WORDS[language];
    const kind = words[p.tileset?.kind ?? 'wang16'] ?? words.wang16;
    return language === 'en'
      ? ['top-down terrain', kind, 'tile edges join seamlessly', 'opaque']
      : ['俯视地形', kind, '图块边缘无缝衔接', '不透明'];
  },
  modelPrompt: ({ total, terrainNames }) => [
    total > 1
      ? `Two square top-down ground textures side by side, each filling its half edge to edge: left ${terrainNames[0]}, right ${terrainNames[1]}. Flat even lighting, no objects, no border.`
      : `One square top-down ${terrainNames[0]} ground texture filling the whole picture edge to edge. Flat even lighting, no objects, no border.`,
  ],
  providerRequest: (params) => ({ tileset: tilesetParams(params.tileset) }),
  // terrain pictures → a tileset: cut, blended to wrap, read as native pixels (tileset/model.ts)
  fromModel({ generated, params, userPrompt, tags, style, seed, palette }) {
    const { kind, tileSize } = tilesetParams(params.tileset);
    const set = tilesetFromModel(generated.frames, {
      kind,
      tileSize,
      userPrompt,
      tags,
      style,
      seed,
      palette,
    });
    return {
      generated: {
        frames: set.tiles,
        animation: 'tileset',
        interpretation: set.interpretation,
        tileset: { kind, terrains: set.terrains.map((t) => t.name), colors: set.colors },
      },
    };
  },
  // its own model check is the seam check: its tiles are drawn, not cut from the picture
  modelChecks: null,
  files(ctx) {
    const names = frameRects(ctx.generated, ctx.layout);
    return tilesetFiles({
      generated: ctx.generated,
      layout: ctx.layout,
      keyPrefix: ctx.keyPrefix,
      metadata: runMetadata(ctx, ctx.format, [...new Set(names.map((n) => n.animation))]),
      text: ctx.text,
      quality: ctx.provenance.quality,
      palette: ctx.palette,
    });
  },
};
