import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodePng, type RgbaImage } from '@assetloom/pipeline';
import type { AssetClient } from '@assetloom/sdk';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTarget, mockTarget, serverTarget } from '../contract/targets.js';

/**
 * Levels (issue #42) through the API, on the msw mock and on the reference server, each checked by
 * the engines' own tools:
 * - Tiled: Debian's `tiled` package renders the TMX and the TMJ with `tmxrasterizer` (headless), and
 *   each render equals the level's preview PNG pixel for pixel — tiles, Wang tiles and props as
 *   objects as Tiled draws them;
 * - LDtk: the project validates against LDtk's published JSON schema (vendored in ./ldtk, with its
 *   licence) with ajv, and its auto-layer rules, run over its IntGrid the way LDtk's rule engine
 *   matches them (AutoLayerRuleDef.matches), place exactly the tiles it lists;
 * - Godot 4: godot-parser (PyPI, .tools/venv) reads the scene and the TileSet; the TileMapLayer's
 *   cells are the map, every tile's peering bits agree with its neighbours' at every shared corner
 *   (and side), tiles that are not walked on carry collision polygons.
 * A level tiled with a given blob47 tileset task, a dungeon and an outdoor level of five terrains;
 * the tileset task's checks (another user's, another project's, not a tileset, unknown).
 */
const PYTHON = resolve(import.meta.dirname, '../../.tools/venv/bin/python');
const GODOT_READER = resolve(import.meta.dirname, 'godot_level.py');
const LDTK_SCHEMA = resolve(import.meta.dirname, 'ldtk/JSON_SCHEMA.json');
const RASTERIZER = '/usr/bin/tmxrasterizer';
if (!existsSync(RASTERIZER))
  throw new Error(
    `${RASTERIZER} is missing: install Debian's 'tiled' package (bash scripts/bootstrap.sh --test does, as root; or sudo apt-get install tiled)`,
  );
if (!existsSync(PYTHON))
  throw new Error('.tools/venv is missing: run bash scripts/python-tools.sh (bootstrap.sh --test does)');

const name = (key: string) => key.slice(key.lastIndexOf('/') + 1);
const png = (bytes: Uint8Array): RgbaImage => {
  const d = decodePng(bytes);
  if (!d.ok) throw new Error(d.error);
  return d.image;
};
/** How many pixels of two pictures differ (-1 when their sizes do). */
function differing(a: RgbaImage, b: RgbaImage): number {
  if (a.width !== b.width || a.height !== b.height) return -1;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4)
    if (
      a.data[i] !== b.data[i] ||
      a.data[i + 1] !== b.data[i + 1] ||
      a.data[i + 2] !== b.data[i + 2] ||
      a.data[i + 3] !== b.data[i + 3]
    )
      n++;
  return n;
}

interface LdtkRule {
  uid: number;
  size: number;
  pattern: number[];
  tileRectsIds: number[][];
  tileXOffset: number;
  tileYOffset: number;
  breakOnMatch: boolean;
  outOfBoundsValue: number | null;
}

/** LDtk's rule matching (AutoLayerRuleDef.matches, specific values only): 0 anything, v must be v, −v must not. */
function ldtkMatches(
  rule: LdtkRule,
  grid: number[],
  cw: number,
  ch: number,
  cx: number,
  cy: number,
): boolean {
  const r = Math.floor(rule.size / 2);
  for (let py = 0; py < rule.size; py++)
    for (let px = 0; px < rule.size; px++) {
      const want = rule.pattern[px + py * rule.size]!;
      if (want === 0) continue;
      const x = cx + px - r;
      const y = cy + py - r;
      const value = x >= 0 && y >= 0 && x < cw && y < ch ? grid[x + y * cw]! : rule.outOfBoundsValue;
      if (value === null) return false;
      if (want > 0 && value !== want) return false;
      if (want < 0 && value === -want) return false;
    }
  return true;
}

interface Files {
  dir: string;
  preview: RgbaImage;
  metadata: Record<string, any>;
}

describe.each([
  ['mock', mockTarget],
  ['server', serverTarget],
] as const)('levels on the %s', (_target, factory) => {
  let target: ContractTarget;
  let api: AssetClient;
  let projectId: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    target = await factory();
    api = target.client();
    const username = `levels_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const reg = await api.POST('/auth/register', { body: { username, password: 'levels-pass-1' } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: 'levels-pass-1' });
    if (login.error) throw login.error;
    const created = await api.POST('/api/v1/projects', { body: { name: 'Levels' } });
    if (created.error) throw created.error;
    projectId = created.data.id;
  }, 60_000);
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    return target?.stop();
  });

  const run = async (body: Parameters<AssetClient['generate']>[0]) => {
    const submitted = await api.generate(body);
    if (submitted.error) throw submitted.error;
    const done = await api.waitForTask(submitted.data.taskId, {
      transport: 'poll',
      pollIntervalMs: 50,
      timeoutMs: 120_000,
    });
    if (done.error)
      throw new Error(`${done.error.message}: ${(done.error as { task?: { error?: string } }).task?.error}`);
    expect(done.data.status).toBe('completed');
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', {
      params: { path: { taskId: submitted.data.taskId } },
    });
    if (listed.error) throw listed.error;
    return { taskId: submitted.data.taskId, assets: listed.data.assets };
  };
  /** Generates a level and downloads its files side by side, as the CLI and the Studio do. */
  const level = async (prompt: string, level: Record<string, unknown>, seed?: number): Promise<Files> => {
    const params = seed === undefined ? { level } : { level, seed };
    const { assets } = await run({ projectId, prompt, assetType: 'level', params: params as never });
    expect(assets).toHaveLength(1);
    const asset = assets[0]!;
    const dir = mkdtempSync(join(tmpdir(), 'assetloom-level-'));
    dirs.push(dir);
    for (const key of [asset.key, ...Object.values(asset.metadata.atlas ?? {})]) {
      const file = await api.downloadAsset(key as string);
      if (file.error) throw file.error;
      writeFileSync(join(dir, name(key as string)), file.data.bytes);
    }
    return {
      dir,
      preview: png(readFileSync(join(dir, 'level.png'))),
      metadata: asset.metadata as Record<string, any>,
    };
  };

  /** Every check of the real tools over one level's files. */
  const engineChecks = (files: Files) => {
    const { dir, preview, metadata } = files;
    const meta = metadata.level;
    // the level's own checks passed
    expect(meta.checks).toMatchObject({ connected: true, misplaced: [], ruleBreaks: 0 });
    expect(preview.width).toBe(meta.columns * meta.tileSize);

    // Tiled: tmxrasterizer renders the TMX and the TMJ exactly as the preview
    for (const map of ['level.tmx', 'level.tmj']) {
      const out = join(dir, `${map}.png`);
      execFileSync(RASTERIZER, [join(dir, map), out], {
        env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
        stdio: 'pipe',
      });
      expect(differing(png(readFileSync(out)), preview), `${map} rendered by Tiled`).toBe(0);
    }

    // LDtk: the published schema, and the rules placing exactly the listed tiles (a full tile's rule
    // places one of its drawings: the listed one must be among them)
    const project = JSON.parse(readFileSync(join(dir, 'level.ldtk'), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    // the schema names draft-07 by its https address; ajv knows draft-07 (its default) by the http one
    const { $schema: _draft, ...schema } = JSON.parse(readFileSync(LDTK_SCHEMA, 'utf8'));
    const validate = ajv.compile(schema);
    expect(validate(project), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const layers = project.levels[0].layerInstances as Array<Record<string, any>>;
    const grid = layers.find((l) => l.__type === 'IntGrid')!;
    const auto = layers.find((l) => l.__type === 'AutoLayer')!;
    const def = project.defs.layers.find((d: { uid: number }) => d.uid === auto.layerDefUid);
    const rules = def.autoRuleGroups.flatMap((g: { rules: LdtkRule[] }) => g.rules) as LdtkRule[];
    const placed: string[] = [];
    for (let cy = 0; cy < grid.__cHei; cy++)
      for (let cx = 0; cx < grid.__cWid; cx++) {
        const rule = rules.find((r) => ldtkMatches(r, grid.intGridCsv, grid.__cWid, grid.__cHei, cx, cy));
        if (rule)
          placed.push(
            `${cx * grid.__gridSize + rule.tileXOffset},${cy * grid.__gridSize + rule.tileYOffset}:${rule.uid}`,
          );
      }
    const listed = auto.autoLayerTiles.map((t: { px: number[]; t: number; d: number[] }) => {
      const by = rules.find((r) => r.uid === t.d[0]);
      expect(by?.tileRectsIds.flat(), `tile ${t.t} at ${t.px} is one its rule places`).toContain(t.t);
      return `${t.px[0]},${t.px[1]}:${t.d[0]}`;
    });
    expect(placed.sort()).toEqual(listed.sort());
    expect(listed.length).toBe(meta.columns * meta.rows);
    expect(layers.find((l) => l.__type === 'Entities')!.entityInstances.length).toBeGreaterThan(0);

    // Godot: the TileSet and the scene as godot-parser reads them
    const read = JSON.parse(
      execFileSync(PYTHON, [GODOT_READER, join(dir, 'level.tres'), join(dir, 'level.tscn')], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }),
    );
    const tiles = read.tres.tiles as Record<string, Record<string, any>>;
    const columnsOfSheet = Math.max(...Object.keys(tiles).map((k) => Number(k.split(':')[0]))) + 1;
    expect(Object.keys(tiles)).toHaveLength(meta.tileCount);
    expect(read.tres.resource['terrain_set_0/mode']).toBe(meta.kind === 'wang16' ? 1 : 0);
    expect(
      meta.terrains.map((_: string, i: number) => read.tres.resource[`terrain_set_0/terrain_${i}/name`]),
    ).toEqual(meta.terrains);
    expect(read.tres.resource['physics_layer_0/collision_layer']).toBe(1);
    const layer = read.scene.nodes.find((n: { type: string }) => n.type === 'TileMapLayer');
    expect(layer.properties.tile_set).toEqual({
      ext: expect.objectContaining({ type: 'TileSet', path: 'res://level.tres' }),
    });
    const bytes = Uint8Array.from(layer.properties.tile_map_data.PackedByteArray as number[]);
    const view = new DataView(bytes.buffer);
    expect(view.getUint16(0, true)).toBe(0);
    const cells = new Map<string, Record<string, any>>();
    for (let o = 2; o < bytes.length; o += 12) {
      const key = `${view.getUint16(o + 6, true)}:${view.getUint16(o + 8, true)}`;
      expect(tiles[key], `tile ${key}`).toBeDefined();
      cells.set(`${view.getInt16(o, true)},${view.getInt16(o + 2, true)}`, tiles[key]!);
    }
    expect(cells.size).toBe(meta.columns * meta.rows);
    const bit = (x: number, y: number, b: string) => cells.get(`${x},${y}`)?.[`terrains_peering_bit/${b}`];
    for (let y = 0; y < meta.rows; y++)
      for (let x = 0; x < meta.columns; x++) {
        if (x + 1 < meta.columns) {
          expect(bit(x, y, 'top_right_corner')).toBe(bit(x + 1, y, 'top_left_corner'));
          expect(bit(x, y, 'bottom_right_corner')).toBe(bit(x + 1, y, 'bottom_left_corner'));
          if (meta.kind === 'blob47') expect(bit(x, y, 'right_side')).toBe(bit(x + 1, y, 'left_side'));
        }
        if (y + 1 < meta.rows) {
          expect(bit(x, y, 'bottom_left_corner')).toBe(bit(x, y + 1, 'top_left_corner'));
          if (meta.kind === 'blob47') expect(bit(x, y, 'bottom_side')).toBe(bit(x, y + 1, 'top_side'));
        }
      }
    // collision: a tile of a terrain not walked on has polygons; the scene's props are the map's
    const blocked = meta.terrains.map((t: string) =>
      ['water', 'freshwater', 'lava', 'rock', 'wall'].includes(t),
    );
    for (const tile of Object.values(tiles)) {
      const corners = [
        'top_left_corner',
        'top_right_corner',
        'bottom_left_corner',
        'bottom_right_corner',
      ].map((b) => tile[`terrains_peering_bit/${b}`]);
      if (corners.every((t) => blocked[t]))
        expect(tile['physics_layer_0/polygon_0/points']).toEqual({
          PackedVector2Array: [
            -meta.tileSize / 2,
            -meta.tileSize / 2,
            meta.tileSize / 2,
            -meta.tileSize / 2,
            meta.tileSize / 2,
            meta.tileSize / 2,
            -meta.tileSize / 2,
            meta.tileSize / 2,
          ],
        });
      if (!corners.some((t) => blocked[t])) expect(tile['physics_layer_0/polygon_0/points']).toBeUndefined();
    }
    const sprites = read.scene.nodes.filter(
      (n: { type: string; parent?: string }) => n.type === 'Sprite2D' && n.parent === 'Props',
    );
    expect(sprites.length).toBe(
      Object.values(meta.props as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    expect(columnsOfSheet).toBeGreaterThan(0);
  };

  it('an outdoor level of its own terrains: Tiled renders it as its preview, LDtk’s schema and rules, Godot’s parser', async () => {
    const files = await level('an island with a pond, a forest in the east and a path to a cave', {
      columns: 32,
      rows: 24,
      tileSize: 16,
    });
    expect(files.metadata.level.terrains.length).toBeGreaterThanOrEqual(4);
    expect(files.metadata.level.layout.features.map((f: { kind: string }) => f.kind)).toEqual(
      expect.arrayContaining(['pond', 'forest', 'path', 'cave']),
    );
    // full tiles come in several drawings (tiles of the plain one's Wang colour) and the map shows them
    const tsx = readFileSync(join(files.dir, 'level.tsx'), 'utf8');
    const wangs = [...tsx.matchAll(/wangtile tileid="(\d+)" wangid="([^"]+)"/g)];
    const plain = tsx.match(/<wangcolor name="grass"[^>]* tile="(\d+)"/)![1];
    const plainWang = wangs.find(([, id]) => id === plain)![2];
    const full = wangs.filter(([, , w]) => w === plainWang).map(([, id]) => Number(id));
    expect(full.length).toBeGreaterThanOrEqual(2);
    const tmj = JSON.parse(readFileSync(join(files.dir, 'level.tmj'), 'utf8'));
    const gids = new Set(tmj.layers.find((l: { type: string }) => l.type === 'tilelayer').data as number[]);
    const firstgid = tmj.tilesets[0].firstgid as number;
    expect(full.filter((id) => gids.has(id + firstgid)).length).toBeGreaterThanOrEqual(2);
    engineChecks(files);
  }, 180_000);

  it('a river crossed by a bridge: its planks are objects Tiled draws as the preview, walked tiles under them', async () => {
    const files = await level('a meadow with a river from north to south and a village in the east', {
      columns: 28,
      rows: 20,
      tileSize: 8,
    });
    // the bridge is what joins the banks (the level's connected check counts every walkable region)
    expect(
      (files.metadata.level.props.bridge ?? 0) + (files.metadata.level.props['bridge-ns'] ?? 0),
    ).toBeGreaterThan(0);
    engineChecks(files);
  }, 180_000);

  it('a dungeon: rooms, corridors and doors, through the same tools', async () => {
    // seed 1: a layout with five doors. Unseeded, this passed on the first attempt's retry only — that
    // layout hangs 3 doors (as do 2 of seeds 1–8) and its old wall texture failed the level's seams;
    // since the materials of decision 0071 it passes them, and the 3-door layout was returned
    const files = await level(
      'a dungeon with five rooms and a chest in the last room',
      { columns: 32, rows: 28, tileSize: 8 },
      1,
    );
    expect(files.metadata.level.rooms).toBe(5);
    // doors face on (walked north–south) and edge-on (walked east–west), each in a gap of the wall
    expect(
      (files.metadata.level.props.door ?? 0) + (files.metadata.level.props['door-ew'] ?? 0),
    ).toBeGreaterThanOrEqual(4);
    expect(files.metadata.level.terrains).toContain('wall');
    engineChecks(files);
  }, 180_000);

  it('a level tiled with a blob47 tileset task of the project: its tiles, its terrains, its rules', async () => {
    const set = await run({
      projectId,
      prompt: 'grass and water',
      assetType: 'tileset',
      params: { tileset: { kind: 'blob47', tileSize: 16 } },
    });
    const files = await level('a lake in the west and a clearing in the east', {
      columns: 24,
      rows: 20,
      tilesetTaskId: set.taskId,
    });
    expect(files.metadata.level).toMatchObject({
      kind: 'blob47',
      tilesetTaskId: set.taskId,
      terrains: ['water', 'grass'],
      // 48 blob tiles and 4 variants of each plain tile (decision 0094)
      tileCount: 56,
    });
    // the level's tiles are the tileset task's own picture
    const sheet = png((await api.downloadAsset(set.assets[0]!.key)).data!.bytes);
    expect(differing(png(readFileSync(join(files.dir, 'level-tiles.png'))), sheet)).toBe(0);
    engineChecks(files);
  }, 240_000);

  it('refuses a tileset task that is not one of this project’s usable tilesets, naming the field', async () => {
    const sprite = await run({ projectId, prompt: 'a red apple', assetType: 'sprite' });
    const refused = await api.generate({
      projectId,
      prompt: 'a lake',
      assetType: 'level',
      params: { level: { tilesetTaskId: sprite.taskId } } as never,
    });
    expect(refused.error?.code).toBe(400);
    expect(JSON.stringify(refused.error)).toContain('/params/level/tilesetTaskId');
    const unknown = await api.generate({
      projectId,
      prompt: 'a lake',
      assetType: 'level',
      params: { level: { tilesetTaskId: 'tsk_doesnotexist0000' } } as never,
    });
    expect(unknown.error?.code).toBe(404);
    const both = await api.generate({
      projectId,
      prompt: 'a lake',
      assetType: 'level',
      params: { level: { tilesetTaskId: sprite.taskId, terrains: ['grass', 'water'] } } as never,
    });
    expect(both.error?.code).toBe(400);
    const wide = await api.generate({
      projectId,
      prompt: 'a lake',
      assetType: 'level',
      params: { level: { columns: 256, tileSize: 32 } } as never,
    });
    expect(wide.error?.code).toBe(400);
    expect(JSON.stringify(wide.error)).toContain('/params/level/columns');
  }, 120_000);
});
