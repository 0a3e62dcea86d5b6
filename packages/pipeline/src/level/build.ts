/**
 * A level from its layout: grown (grow.ts, places.ts, dungeon.ts), tiled with its tileset's rules
 * (tiles.ts), its props placed as objects, and its preview drawn — the tiles, then each prop in the
 * order the engine files list them (top to bottom), as Tiled's renderer draws the map.
 */
import type { Rgb } from '../palette.js';
import type { TerrainName } from '../tileset/terrains.js';
import type { LevelArt, LevelAssembly, RgbaImage } from '../types/index.js';
import { buildWalls, growCaveLevel, growDungeon } from './dungeon.js';
import { Grower, growGround, growShore, growWaterAndRock } from './grow.js';
import type { LevelLayout } from './layout.js';
import {
  bridgeRegions,
  clearRegions,
  growPlaces,
  joinAnchors,
  joinBridges,
  joinFeatures,
  repairPairs,
  widenWays,
} from './places.js';
import type { LevelPlan, PlacedProp, PropKind } from './plan.js';
import { LevelSpace } from './space.js';
import {
  type LevelTileset,
  paintTiles,
  pairsUsed,
  tileMap,
  tilesetFromPairs,
  tilesetFromSheet,
} from './tiles.js';

/** Grows the terrain grid, props and anchors of a level; deterministic in the seed. */
export function growLevel(
  layout: LevelLayout,
  kind: 'wang16' | 'blob47',
  columns: number,
  rows: number,
  seed: number,
): LevelPlan {
  const g = new Grower(layout, kind, columns, rows, seed);
  let method: string;
  let rooms: LevelPlan['rooms'] = [];
  if (layout.base === 'dungeon') {
    rooms = growDungeon(g);
    method =
      'dungeon: rooms apart on rock, corridors along a minimum spanning tree of the rooms (+ loops), doors where corridors leave rooms';
  } else if (layout.base === 'cave') {
    growCaveLevel(g);
    repairPairs(g);
    growPlaces(g);
    for (let c = 0; c < columns * rows; c++) {
      const x = c % columns;
      const y = Math.floor(c / columns);
      if (
        g.space.cellWalkable(x, y) &&
        g.space.cellIs(x, y, layout.roles.floor ?? layout.roles.ground) &&
        !g.keepFree[c] &&
        g.rng.chance(0.03)
      )
        g.place('rock', c);
    }
    method = 'cave: cellular automaton (4-5 rule, 5 steps) over 45 % rock, its hollows joined by tunnels';
  } else {
    growGround(g);
    growWaterAndRock(g);
    growShore(g);
    repairPairs(g);
    growPlaces(g);
    // bridges first, so a river is crossed on planks rather than forded by the anchors' joining below
    bridgeRegions(g);
    repairPairs(g);
    method =
      'noise shaped by the placement words (islands, lakes, rocks), rivers and paths as cheapest routes over a noise cost, every named place joined to the spawn';
  }
  // joining may paint a ford, a cut or a lake's shore, the repair may widen a shore: twice settles both
  let changed = 0;
  for (let round = 0; round < 2; round++) {
    joinFeatures(g);
    joinAnchors(g);
    changed += repairPairs(g);
  }
  // a cut the joining made through a dungeon's rock gets its walls too
  if (layout.base === 'dungeon') buildWalls(g);
  // every walkable region joins the spawn's: bridges over water, gaps through rock, props cleared
  if (layout.base !== 'dungeon') {
    for (let round = 0; round < 2; round++) {
      bridgeRegions(g);
      changed += repairPairs(g);
    }
    // a road runs on to its bridge's planks (after the last repair, which would wear its ends away)
    joinBridges(g);
    clearRegions(g);
    widenWays(g);
    // planks a later repair left over water are no bridge: take them away
    for (const p of g.props)
      if ((p.kind === 'bridge' || p.kind === 'bridge-ns') && p.x >= 0 && !g.space.cellWalkable(p.x, p.y))
        g.removePropAt(p.y * columns + p.x);
  }
  return g.finish(`${method}; at most two terrains a tile (${changed} corners changed)`, rooms);
}

/** A level put together: its plan, tiles, map and preview (what the checks and the files read). */
export interface LevelBuild extends LevelAssembly {
  layout: LevelLayout;
  plan: LevelPlan;
  space: LevelSpace;
  tileset: LevelTileset;
  /** Tile index per map cell (−1: no tile fits). */
  map: Int32Array;
  /** The props' sprites, one per kind used (the props tileset, in this order). */
  propImages: Array<{ kind: PropKind; image: RgbaImage; as: string }>;
  /** The props in drawing order (top to bottom, then left to right). */
  props: PlacedProp[];
  preview: RgbaImage;
  seed: number;
  tilesetTaskId?: string;
}

export interface LevelSheetInput {
  picture: RgbaImage;
  kind: 'wang16' | 'blob47';
  tileSize: number;
  terrains: readonly string[];
  taskId: string;
}

/**
 * Puts a level together from the art a provider drew (`LevelArt`: the pairs' tiles and the props)
 * or a given tileset's sheet: grows it with the attempt's seed, tiles it and draws its preview.
 */
export function assembleLevel(input: {
  layout: LevelLayout;
  columns: number;
  rows: number;
  tileSize: number;
  seed: number;
  art: LevelArt;
  sheet?: LevelSheetInput;
}): LevelBuild {
  const { layout, columns, rows, art, sheet } = input;
  const kind = sheet?.kind ?? 'wang16';
  const plan = growLevel(layout, kind, columns, rows, input.seed);
  const space = new LevelSpace(kind, columns, rows, layout.terrains, plan.terrain);
  const given = sheet && art.colors.length === 0 ? sheetColors(sheet) : null;
  const colors = layout.terrains.map(
    (name, i) => (given ? given[sheet!.terrains.indexOf(name)] : art.colors[i]) ?? ([128, 128, 128] as Rgb),
  );
  const tileset = sheet
    ? tilesetFromSheet(
        sheet.picture,
        sheet.kind,
        sheet.tileSize,
        [
          layout.terrains.indexOf(sheet.terrains[0] as TerrainName),
          layout.terrains.indexOf(sheet.terrains[1] as TerrainName),
        ],
        layout.terrains,
        colors,
        `task ${sheet.taskId}`,
      )
    : tilesetFromPairs(
        art.pairs,
        art.plains ?? [],
        pairsUsed(space),
        layout.terrains,
        colors,
        input.tileSize,
        art.variants ?? [],
      );
  const map = tileMap(space, tileset, input.seed);
  const props = [...plan.props].sort((a, b) => a.y - b.y || a.x - b.x);
  const kinds = [...new Set(props.map((p) => p.kind))];
  const propImages = kinds
    .map((k) => art.props.find((p) => p.kind === k))
    .filter((p): p is LevelArt['props'][number] => p !== undefined)
    .map((p) => ({ kind: p.kind as PropKind, image: p.image, as: p.as }));
  const drawn = props.filter((p) => propImages.some((i) => i.kind === p.kind));
  const preview = paintTiles(map, columns, rows, tileset);
  for (const p of drawn)
    drawProp(preview, propImages.find((i) => i.kind === p.kind)!.image, p, tileset.tileSize);
  return {
    assembled: 'level',
    layout,
    plan,
    space,
    tileset,
    map,
    propImages,
    props: drawn,
    preview,
    seed: input.seed,
    ...(sheet ? { tilesetTaskId: sheet.taskId } : {}),
  };
}

/**
 * Where a prop's sprite goes: 2 × 2 tiles, its bottom middle on its cell's bottom middle — but an
 * east–west bridge's or door's centred on its cell, so its deck or slab covers the half tiles of bank
 * or wall the crossing leaves above and below (a Wang edge runs through the middle of a tile).
 */
export function propRect(p: PlacedProp, tileSize: number): { x: number; y: number; size: number } {
  const down = p.kind === 'bridge' || p.kind === 'door-ew' ? tileSize / 2 : 0;
  return {
    x: p.x * tileSize - tileSize / 2,
    y: (p.y + 1) * tileSize - 2 * tileSize + down,
    size: 2 * tileSize,
  };
}

/** Draws a sprite over the picture: its opaque pixels replace, its transparent ones leave (alpha is 0 or 255). */
function drawProp(target: RgbaImage, sprite: RgbaImage, p: PlacedProp, tileSize: number): void {
  const r = propRect(p, tileSize);
  for (let y = 0; y < sprite.height; y++) {
    const ty = r.y + y;
    if (ty < 0 || ty >= target.height) continue;
    for (let x = 0; x < sprite.width; x++) {
      const tx = r.x + x;
      if (tx < 0 || tx >= target.width) continue;
      const i = (y * sprite.width + x) * 4;
      if (sprite.data[i + 3]! < 128) continue;
      const j = (ty * target.width + tx) * 4;
      target.data[j] = sprite.data[i]!;
      target.data[j + 1] = sprite.data[i + 1]!;
      target.data[j + 2] = sprite.data[i + 2]!;
      target.data[j + 3] = 255;
    }
  }
}

/** A given sheet's terrain colours: the mean of each terrain's plain tile. */
function sheetColors(sheet: LevelSheetInput): Rgb[] {
  const s = sheet.tileSize;
  const columns = sheet.kind === 'wang16' ? 4 : 8;
  const plain = sheet.kind === 'wang16' ? [0, 15] : [47, 46];
  return plain.map((index) => {
    const ox = (index % columns) * s;
    const oy = Math.floor(index / columns) * s;
    const sum = [0, 0, 0];
    for (let y = 0; y < s; y++)
      for (let x = 0; x < s; x++) {
        const i = ((oy + y) * sheet.picture.width + ox + x) * 4;
        for (let c = 0; c < 3; c++) sum[c]! += sheet.picture.data[i + c]!;
      }
    return sum.map((v) => Math.round(v / (s * s))) as unknown as Rgb;
  });
}
