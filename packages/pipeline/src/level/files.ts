/**
 * A level's files: the preview (`level.png`, the asset), the tileset and props sheets, the Tiled
 * tilesets and map (TMX and TMJ), the LDtk project, the Godot TileSet and scene, and the level as
 * JSON. One asset, the preview, lists the others in `metadata.atlas`.
 */
import type { OutputContext, OutputFiles } from '../asset-types/output.js';
import { runMetadata } from '../asset-types/output.js';
import { encodePng } from '../png.js';
import type { LevelMetadata, RgbaImage } from '../types/index.js';
import type { LevelBuild } from './build.js';
import { levelChecks } from './checks.js';
import { levelTres, levelTscn } from './formats/godot.js';
import { levelLdtk } from './formats/ldtk.js';
import { LEVEL_FILES, placedProps, places, regionBoxes } from './formats/shared.js';
import { levelTmj, levelTmx, levelTsx, propsTsx } from './formats/tiled.js';
import { tilesetSheet } from './tiles.js';

/** The props sheet: each kind's sprite side by side, 2 × 2 tiles each. */
function propsSheet(build: LevelBuild): RgbaImage {
  const s = build.tileset.tileSize * 2;
  const n = Math.max(1, build.propImages.length);
  const data = new Uint8Array(n * s * s * 4);
  build.propImages.forEach((p, k) => {
    for (let y = 0; y < s; y++)
      for (let x = 0; x < s; x++) {
        const i = (y * p.image.width + x) * 4;
        const j = (y * n * s + k * s + x) * 4;
        // alpha is 0 or 255 (the preview draws them so)
        const on = p.image.data[i + 3]! >= 128;
        data[j] = on ? p.image.data[i]! : 0;
        data[j + 1] = on ? p.image.data[i + 1]! : 0;
        data[j + 2] = on ? p.image.data[i + 2]! : 0;
        data[j + 3] = on ? 255 : 0;
      }
  });
  return { width: n * s, height: s, data };
}

/** The level as JSON, for engines without a Tiled, LDtk or Godot importer. */
function levelJson(build: LevelBuild) {
  const { columns, rows } = build.plan;
  return {
    format: 'assetloom-level',
    version: 1,
    columns,
    rows,
    tileSize: build.tileset.tileSize,
    kind: build.tileset.kind,
    terrains: build.layout.terrains.map((name, id) => ({ id, name, walkable: build.space.walkable[id] })),
    layout: { base: build.layout.base, biome: build.layout.biome, features: build.layout.features },
    seed: build.seed,
    tiles: {
      image: LEVEL_FILES.tiles,
      columns: build.tileset.columns,
      count: build.tileset.tiles.length,
      lattice: build.tileset.tiles.map((t) => t.lattice),
    },
    map: Array.from(build.map),
    terrainGrid: {
      width: build.plan.terrain.width,
      height: build.plan.terrain.height,
      cells: Array.from(build.plan.terrain.cells),
    },
    props: placedProps(build).map((p) => ({ kind: p.kind, x: p.x, y: p.y, blocks: p.blocks })),
    // the props sheet: one sprite per kind, 2 × 2 tiles each, side by side in this order; a prop at
    // tile (x, y) is drawn from (x − ½, y − 1) tiles, its feet on that tile
    propSheet: {
      image: LEVEL_FILES.props,
      size: 2 * build.tileset.tileSize,
      kinds: build.propImages.map((i) => i.kind),
    },
    places: places(build),
    regions: regionBoxes(build),
    rooms: build.plan.rooms,
    method: build.plan.method,
  };
}

export function levelFiles(ctx: OutputContext): OutputFiles {
  const build = ctx.generated.level as LevelBuild | undefined;
  if (!build) throw new Error('[assetloom/pipeline] a level run has no level to write');
  const key = (name: string) => `${ctx.keyPrefix}${name}`;
  const text = 'text/plain; charset=utf-8';
  const enc = new TextEncoder();
  const png = (img: RgbaImage) => encodePng(img.data, img.width, img.height, { text: ctx.text });
  const tiles = tilesetSheet(build.tileset);
  const writes: OutputFiles['writes'] = [
    [key(LEVEL_FILES.preview), png(build.preview), 'image/png'],
    [key(LEVEL_FILES.tiles), png(tiles), 'image/png'],
    [key(LEVEL_FILES.props), png(propsSheet(build)), 'image/png'],
    [key(LEVEL_FILES.tsx), enc.encode(levelTsx(build)), 'application/xml'],
    [key(LEVEL_FILES.propsTsx), enc.encode(propsTsx(build)), 'application/xml'],
    [key(LEVEL_FILES.tmx), enc.encode(levelTmx(build)), 'application/xml'],
    [key(LEVEL_FILES.tmj), enc.encode(levelTmj(build)), 'application/json'],
    [key(LEVEL_FILES.ldtk), enc.encode(levelLdtk(build)), 'application/json'],
    [key(LEVEL_FILES.tres), enc.encode(levelTres(build)), text],
    [key(LEVEL_FILES.tscn), enc.encode(levelTscn(build)), text],
    [key(LEVEL_FILES.json), enc.encode(`${JSON.stringify(levelJson(build))}\n`), 'application/json'],
  ];
  const figures = levelChecks(build).figures;
  const counts: Record<string, number> = {};
  for (const p of build.props) counts[p.kind] = (counts[p.kind] ?? 0) + 1;
  const level: LevelMetadata = {
    columns: build.plan.columns,
    rows: build.plan.rows,
    tileSize: build.tileset.tileSize,
    kind: build.tileset.kind,
    terrains: [...build.layout.terrains],
    ...(build.tilesetTaskId ? { tilesetTaskId: build.tilesetTaskId } : {}),
    layout: {
      base: build.layout.base,
      biome: build.layout.biome,
      features: build.layout.features.map((f) => ({
        kind: f.kind,
        placements: [...f.placements],
        count: f.count,
        words: [...f.words],
      })),
    },
    seed: build.seed,
    tileCount: build.tileset.tiles.length,
    props: counts,
    ...(build.plan.rooms.length ? { rooms: build.plan.rooms.length } : {}),
    checks: figures,
  };
  const { animations: _a, ...metadata } = runMetadata(ctx, 'spritesheet', null);
  return {
    writes,
    assets: [
      {
        key: key(LEVEL_FILES.preview),
        format: 'png',
        width: build.preview.width,
        height: build.preview.height,
        contentType: 'image/png',
        metadata: {
          ...metadata,
          atlas: {
            tiled: key(LEVEL_FILES.tmx),
            tiledJson: key(LEVEL_FILES.tmj),
            tiledTileset: key(LEVEL_FILES.tsx),
            tiledProps: key(LEVEL_FILES.propsTsx),
            ldtk: key(LEVEL_FILES.ldtk),
            godot: key(LEVEL_FILES.tscn),
            godotTileSet: key(LEVEL_FILES.tres),
            tilesetImage: key(LEVEL_FILES.tiles),
            propsImage: key(LEVEL_FILES.props),
            level: key(LEVEL_FILES.json),
          },
          level,
        },
      },
    ],
  };
}
