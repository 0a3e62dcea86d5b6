import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runPipeline } from '@assetloom/generator';
import {
  createMemoryStorage,
  decodePng,
  encodePng,
  type RgbaImage,
  type TilesetKind,
} from '@assetloom/pipeline';
import { paintMap, tilesetRules } from '@assetloom/pipeline/tileset';
import { enlarge } from './gallery.js';

export interface TilesetEntry {
  name: string;
  prompt: string;
  kind: TilesetKind;
  tileSize: number;
  style: Record<string, string>;
}

/** The tilesets the gallery draws, each with a map painted by its autotile rules. */
export const TILESETS: TilesetEntry[] = [
  { name: 'tileset-grass-water-wang16', prompt: 'grass and water', kind: 'wang16', tileSize: 16, style: {} },
  {
    name: 'tileset-sand-lava-blob47',
    prompt: 'sand and lava',
    kind: 'blob47',
    tileSize: 16,
    style: { palette: 'endesga32' },
  },
  {
    name: 'tileset-sand-sea-wang16',
    prompt: 'a sandy beach',
    kind: 'wang16',
    tileSize: 24,
    style: { palette: 'sweetie16' },
  },
  { name: 'tileset-snow-ice-blob47', prompt: 'snow and ice', kind: 'blob47', tileSize: 32, style: {} },
  {
    name: 'tileset-stone-grass-wang16',
    prompt: 'cobblestone and grass',
    kind: 'wang16',
    tileSize: 16,
    style: { palette: 'pico8' },
  },
  { name: 'tileset-grass-seamless', prompt: 'grass', kind: 'seamless', tileSize: 32, style: {} },
];

export interface TilesetMapFile {
  name: string;
  /** The enlarged map painted by the rules. */
  map: string;
  /** The enlarged tileset sheet. */
  sheet: string;
  /** Seam scores of every joint in the map. */
  seams: { worst: number; mean: number; joints: number };
}

function cut(sheet: RgbaImage, size: number, columns: number, count: number): RgbaImage[] {
  return Array.from({ length: count }, (_, i) => {
    const data = new Uint8Array(size * size * 4);
    const ox = (i % columns) * size;
    const oy = Math.floor(i / columns) * size;
    for (let y = 0; y < size; y++) {
      const from = ((oy + y) * sheet.width + ox) * 4;
      data.set(sheet.data.subarray(from, from + size * 4), y * size * 4);
    }
    return { width: size, height: size, data };
  });
}

/**
 * Generates each tileset through the pipeline, writes its files under `raw/<name>/` (PNG, Godot
 * TileSet, Tiled tsx, JSON), an enlarged sheet `<name>.png`, and a map `<name>-map.png`: a random
 * terrain grid turned into tiles by the set's rules, the way a map editor's terrain brush paints.
 */
export async function writeTilesetMaps(
  outDir: string,
  entries: TilesetEntry[] = TILESETS,
): Promise<TilesetMapFile[]> {
  const out: TilesetMapFile[] = [];
  for (const entry of entries) {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      {
        prompt: entry.prompt,
        assetType: 'tileset',
        projectStyle: entry.style,
        params: {
          resolution: 64,
          format: 'spritesheet',
          tileset: { kind: entry.kind, tileSize: entry.tileSize },
        },
        keyPrefix: `raw/${entry.name}/`,
      },
      { storage },
    );
    if (!result.ok) throw new Error(`[assetloom/example-gallery] ${entry.name}: ${result.error}`);
    for (const key of storage.keys()) {
      const path = join(outDir, key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, storage.get(key)!.bytes);
    }
    const decoded = decodePng(storage.get(result.assets[0]!.key)!.bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    const rules = tilesetRules(entry.kind);
    const tiles = cut(decoded.image, entry.tileSize, rules.columns, rules.tiles.length);
    const columns = Math.round(384 / entry.tileSize);
    const map = paintMap(tiles, rules, { columns, rows: Math.round(columns * 0.7), seed: 7 });
    const sheetPath = join(outDir, `${entry.name}.png`);
    const sheet = enlarge(decoded.image, Math.max(1, Math.floor(512 / decoded.image.width)));
    await writeFile(sheetPath, encodePng(sheet.data, sheet.width, sheet.height));
    const mapPath = join(outDir, `${entry.name}-map.png`);
    const big = enlarge(map.image, 2);
    await writeFile(mapPath, encodePng(big.data, big.width, big.height));
    out.push({ name: entry.name, map: mapPath, sheet: sheetPath, seams: map.seams });
  }
  return out;
}
