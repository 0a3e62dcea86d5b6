import { assetApiDocument } from '@assetloom/openapi';
import {
  createMemoryStorage,
  decodePng,
  type ImageProvider,
  type RgbaImage,
  type TilesetKind,
  validateRequest,
} from '@assetloom/pipeline';
import { expectedLayout } from '@assetloom/pipeline/formats';
import { inspectQuality } from '@assetloom/pipeline/pixel';
import {
  BLOB_MASKS,
  blobTileFor,
  chooseTerrains,
  fullTileDrawings,
  jointDifference,
  mayTouch,
  measureSeams,
  paintMap,
  SEAM_GOALS,
  seamScore,
  TERRAIN_NAMES,
  TILESET_DEFAULTS,
  TILESET_LIMITS,
  tilesetRules,
  touchingPairs,
} from '@assetloom/pipeline/tileset';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { preflightProcedural, renderTileset, runPipeline } from '../src/index.js';

/** Cuts a sheet into `columns × rows` tiles of `size` (row-major). */
function cut(sheet: RgbaImage, size: number, columns: number, rows: number): RgbaImage[] {
  const out: RgbaImage[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      const data = new Uint8Array(size * size * 4);
      for (let y = 0; y < size; y++) {
        const from = ((r * size + y) * sheet.width + c * size) * 4;
        data.set(sheet.data.subarray(from, from + size * 4), y * size * 4);
      }
      out.push({ width: size, height: size, data });
    }
  return out;
}

async function generate(
  prompt: string,
  kind: TilesetKind,
  tileSize: number,
  style: Record<string, string> = {},
  seed?: number,
) {
  const storage = createMemoryStorage();
  const result = await runPipeline(
    {
      prompt,
      assetType: 'tileset',
      projectStyle: style,
      params: {
        resolution: 64,
        format: 'spritesheet',
        tileset: { kind, tileSize },
        ...(seed === undefined ? {} : { seed }),
      },
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!result.ok) throw new Error(result.error);
  const text = (key: string) => new TextDecoder().decode(storage.objects.get(key)!.bytes);
  const png = decodePng(storage.objects.get('p/t/tileset.png')!.bytes);
  if (!png.ok) throw new Error('tileset.png does not decode');
  return { result, storage, text, sheet: png.image };
}

/** A Godot text resource as sections of `key = value` lines (the .tres grammar this file uses). */
function parseTres(source: string) {
  const sections: Array<{
    header: string;
    tag: string;
    attrs: Record<string, string>;
    props: Map<string, string>;
  }> = [];
  for (const line of source.split('\n')) {
    if (!line.trim()) continue;
    const head = /^\[(\w+)((?:\s+\w+=(?:"[^"]*"|\d+))*)\]$/.exec(line);
    if (head) {
      const attrs: Record<string, string> = {};
      for (const m of head[2]!.matchAll(/(\w+)=("([^"]*)"|\d+)/g)) attrs[m[1]!] = m[3] ?? m[2]!;
      sections.push({ header: line, tag: head[1]!, attrs, props: new Map() });
      continue;
    }
    const kv = /^([\w/:]+) = (.+)$/.exec(line);
    if (!kv || !sections.length) throw new Error(`not a .tres line: ${line}`);
    sections.at(-1)!.props.set(kv[1]!, kv[2]!);
  }
  return sections;
}

const CORNER_BITS = ['top_left_corner', 'top_right_corner', 'bottom_left_corner', 'bottom_right_corner'];
const ALL_BITS = [
  'right_side',
  'bottom_right_corner',
  'bottom_side',
  'bottom_left_corner',
  'left_side',
  'top_left_corner',
  'top_side',
  'top_right_corner',
];

describe('tileset rules', () => {
  it('wang16 has one tile per corner combination, blob47 the 47 canonical masks and a plain tile', () => {
    const rulesOnly = (kind: TilesetKind) => {
      const r = tilesetRules(kind);
      return { ...r, tiles: r.tiles.filter((t) => t.variantOf === undefined) };
    };
    const wang = rulesOnly('wang16');
    expect(wang.tiles).toHaveLength(16);
    expect(new Set(wang.tiles.map((t) => t.wangid.join())).size).toBe(16);
    expect(BLOB_MASKS).toHaveLength(47);
    const blob = rulesOnly('blob47');
    expect(blob.tiles).toHaveLength(48);
    expect(new Set(blob.tiles.map((t) => t.lattice.join())).size).toBe(48);
    // the pairs the rules allow: wang16 joins 4 tiles to the right of each (corners must agree)
    expect(touchingPairs(wang).filter((p) => p.axis === 'x')).toHaveLength(64);
    expect(rulesOnly('seamless').tiles).toHaveLength(1);
  });

  it('each full tile has variants appended after the rule tiles: the old indices stay, the grid is whole rows (decision 0094)', () => {
    for (const [kind, plains, count, columns, rows] of [
      ['wang16', [0, 15], 16, 4, 5],
      ['blob47', [47, 46], 48, 8, 7],
      ['seamless', [0], 1, 2, 2],
    ] as const) {
      const rules = tilesetRules(kind);
      // the rule tiles first, at the indices they always had (a Wang tile's index is its corners)
      rules.tiles.slice(0, count).forEach((t, i) => {
        expect(t.index).toBe(i);
        expect(t.variantOf).toBeUndefined();
      });
      if (kind === 'wang16')
        for (const [i, t] of rules.tiles.slice(0, 16).entries())
          expect(t.name).toBe(`corners_${i & 1}${(i >> 1) & 1}${(i >> 2) & 1}${(i >> 3) & 1}`);
      if (kind === 'blob47') expect(rules.tiles[47]!.name).toBe('fill_0');
      const variants = rules.tiles.slice(count);
      expect(variants.length).toBeGreaterThanOrEqual(2 * plains.length);
      expect(variants.map((v) => v.variantOf)).toEqual(
        plains.flatMap((p) => variants.filter((v) => v.variantOf === p).map(() => p)),
      );
      for (const v of variants) {
        const plain = rules.tiles[v.variantOf!]!;
        expect(v.lattice).toEqual(plain.lattice);
        expect(v.wangid).toEqual(plain.wangid);
        expect(v.peering).toEqual(plain.peering);
      }
      expect([rules.columns, rules.rows]).toEqual([columns, rows]);
      expect(rules.tiles).toHaveLength(columns * rows);
    }
  });

  it('every blob neighbourhood of a filled cell has its tile; corners count only between two sides', () => {
    for (let m = 0; m < 256; m++) {
      const neighbours = [0, 1, 2, 3, 4, 5, 6, 7].map((b) => (m >> b) & 1);
      const index = blobTileFor(1, neighbours);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(47);
    }
    expect(blobTileFor(0, [1, 1, 1, 1, 1, 1, 1, 1])).toBe(47);
  });

  it('reads the two terrains from the prompt, the scene or Chinese words', () => {
    const names = (prompt: string, n: 1 | 2 = 2) =>
      chooseTerrains({ userPrompt: prompt, tags: [], style: {} }, n).terrains.map((t) => t.name);
    expect(names('grass and water')).toEqual(['grass', 'water']);
    expect(names('sand and lava')).toEqual(['sand', 'lava']);
    expect(names('沙子和熔岩')).toEqual(['sand', 'lava']);
    expect(names('草地和水')).toEqual(['grass', 'water']);
    expect(names('a sandy beach')).toEqual(['sand', 'water']);
    expect(names('snow tiles')).toEqual(['snow', 'ice']);
    expect(names('mossy cobblestone', 1)).toEqual(['cobble']);
    const choice = chooseTerrains({ userPrompt: 'grass and water, bright', tags: [], style: {} }, 2);
    expect(choice.interpretation.understood).toEqual(expect.arrayContaining(['grass', 'water']));
    expect(choice.interpretation.ignored).not.toContain('grass');
  });

  it('states the defaults and limits the contract states', () => {
    type Schema = {
      default?: unknown;
      enum?: unknown[];
      minimum?: number;
      maximum?: number;
      properties?: Record<string, Schema>;
    };
    const schemas = assetApiDocument.components.schemas as unknown as Record<string, Schema>;
    expect(TILESET_DEFAULTS.kind).toBe(schemas.TilesetKind!.default);
    expect(TILESET_DEFAULTS.tileSize).toBe(schemas.Tileset!.properties!.tileSize!.default);
    expect([...TILESET_LIMITS.kinds]).toEqual(schemas.TilesetKind!.enum);
    expect(TILESET_LIMITS.tileSize).toEqual({
      min: schemas.Tileset!.properties!.tileSize!.minimum,
      max: schemas.Tileset!.properties!.tileSize!.maximum,
    });
  });

  it('rejects bad tileset params with the field named', () => {
    const base = { prompt: 'grass', assetType: 'tileset', projectStyle: {}, keyPrefix: 'k/' };
    const problems = (tileset: unknown) =>
      validateRequest({ ...base, params: { resolution: 64, format: 'spritesheet', tileset } });
    expect(problems({ kind: 'wang16', tileSize: 16 })).toEqual([]);
    expect(problems({ kind: 'hex' })).toEqual(['params.tileset.kind must be wang16, blob47, seamless']);
    expect(problems({ tileSize: 7 })).toEqual(['params.tileset.tileSize must be an integer from 8 to 64']);
    expect(problems({ tileSize: 16.5 })).toHaveLength(1);
    expect(problems({ colour: 'red' })).toEqual(['params.tileset.colour is not a known field']);
    expect(problems('wang16')).toEqual(['params.tileset must be an object']);
  });
});

describe('tileset materials', () => {
  it('a ground material no terrain draws is refused naming it, in the preflight and the run; a drawn one is not', async () => {
    const ask = (userPrompt: string) => ({ assetType: 'tileset' as const, userPrompt, tags: [], style: {} });
    const pre = await preflightProcedural(ask('a marble floor'));
    expect(pre.ok).toBe(false);
    expect(pre.ok ? '' : pre.message).toContain('"marble"');
    expect(pre.ok ? '' : pre.message).toContain('brick');
    for (const drawn of ['a brick wall', 'wooden planks', 'a lava river', 'grass and water'])
      expect((await preflightProcedural(ask(drawn))).ok, drawn).toBe(true);
    const run = await runPipeline(
      {
        prompt: 'carpet tiles',
        projectStyle: {},
        assetType: 'tileset',
        params: { resolution: 64, format: 'spritesheet', tileset: { kind: 'seamless', tileSize: 16 } },
        keyPrefix: 'p/t/',
      },
      { storage: createMemoryStorage() },
    );
    expect(run.ok).toBe(false);
    expect(run.ok ? null : run.code).toBe('subject_not_drawable');
    expect(run.ok ? '' : run.error).toContain('"carpet"');
  });
});

describe('tileset seams', () => {
  it('every generated set meets the goal (worst ≤ 1.5, mean ≤ 1.1) over 72 sets, measured again from the stored PNG', async () => {
    const prompts = [
      'grass and water',
      'sand and lava',
      'snow and ice',
      'stone floor and grass',
      'dirt and grass',
      'mud and water',
      '草地和水',
      'a volcano',
    ];
    const kinds: TilesetKind[] = ['wang16', 'blob47', 'seamless'];
    const sizes = [8, 16, 24, 32];
    const palettes: Record<string, string>[] = [
      {},
      { palette: 'sweetie16' },
      { palette: 'pico8' },
      { palette: 'endesga32' },
    ];
    let sets = 0;
    let retries = 0;
    let worst = 0;
    for (const seed of [1, 2, 3])
      for (const [i, prompt] of prompts.entries()) {
        for (const [k, kind] of kinds.entries()) {
          const size = sizes[(i + k + seed) % sizes.length]!;
          const style = palettes[(i * 3 + k + seed) % palettes.length];
          const { result, sheet } = await generate(prompt, kind, size, style, seed * 1000 + i);
          const rules = tilesetRules(kind);
          const tiles = cut(sheet, size, rules.columns, rules.rows).slice(0, rules.tiles.length);
          const seams = measureSeams(tiles, rules);
          expect(seams.worst, `${prompt} ${kind} ${size}`).toBeLessThanOrEqual(SEAM_GOALS.worst);
          expect(seams.mean, `${prompt} ${kind} ${size}`).toBeLessThanOrEqual(SEAM_GOALS.mean);
          // the quality report says the same as the independent measure
          const report = result.ok ? result.provenance.quality.seams : undefined;
          expect(report?.worst).toBeCloseTo(seams.worst, 2);
          expect(report?.worstPair).not.toBeNull();
          sets++;
          retries += result.ok ? result.retryCount : 0;
          worst = Math.max(worst, seams.worst);
        }
      }
    expect(sets).toBe(72);
    expect(retries).toBeLessThanOrEqual(sets); // retries are rare, not the rule
    expect(worst).toBeGreaterThan(0);
  }, 120_000);

  it('the supervisor rejects a set whose joints do not join, naming the pair', () => {
    const set = renderTileset({
      kind: 'wang16',
      tileSize: 16,
      userPrompt: 'grass and water',
      tags: [],
      style: {},
      seed: 3,
    });
    const layout = expectedLayout(
      'tileset',
      { resolution: 64, format: 'spritesheet', tileset: { kind: 'wang16', tileSize: 16 } },
      '',
    );
    expect(inspectQuality({ frames: set.tiles, expected: layout }).passed).toBe(true);
    // a tile drawn upside down: its edges no longer meet the tiles the rules put beside it
    const broken = set.tiles.map((t) => ({ ...t, data: new Uint8Array(t.data) }));
    const flipped = broken[9]!;
    for (let y = 0; y < 8; y++) {
      const a = flipped.data.slice(y * 64, y * 64 + 64);
      flipped.data.set(flipped.data.subarray((15 - y) * 64, (15 - y) * 64 + 64), y * 64);
      flipped.data.set(a, (15 - y) * 64);
    }
    const report = inspectQuality({ frames: broken, expected: layout });
    expect(report.passed).toBe(false);
    expect(report.rejectReason).toMatch(
      /^tile_seams_worst: the joint tile \d+ (left of|above) tile \d+ scores/,
    );
    expect(report.seams!.worst).toBeGreaterThan(SEAM_GOALS.worst);
    expect([report.seams!.worstPair!.a, report.seams!.worstPair!.b]).toContain(9);
  });

  it('a provider whose tiles never join fails the task after the quality retries', async () => {
    let calls = 0;
    const noisy: ImageProvider = {
      name: 'noise',
      async generate(request) {
        calls++;
        const tiles = Array.from({ length: tilesetRules('wang16').tiles.length }, (_, t) => {
          const data = new Uint8Array(16 * 16 * 4);
          for (let i = 0; i < 256; i++) {
            // near-flat tiles of different colours: every joint between two of them is a hard seam
            const v = (i >> 4) % 2;
            data.set(
              [
                40 + ((t * 53) % 180) + v * 32,
                40 + ((t * 97) % 200),
                40 + ((t * 31 + request.attempt) % 200),
                255,
              ],
              i * 4,
            );
          }
          return { width: 16, height: 16, data };
        });
        return { frames: tiles, animation: 'tileset' };
      },
    };
    const result = await runPipeline(
      {
        prompt: 'grass and water',
        assetType: 'tileset',
        projectStyle: {},
        params: { resolution: 64, format: 'spritesheet', tileset: { kind: 'wang16', tileSize: 16 } },
        keyPrefix: 'x/',
      },
      { storage: createMemoryStorage(), providers: { image: noisy }, maxRetries: 1 },
    );
    expect(result.ok).toBe(false);
    expect(calls).toBe(2);
    if (!result.ok) {
      expect(result.code).toBe('quality_rejected');
      expect(result.error).toMatch(/tile_seams_worst/);
    }
  });
});

describe('tileset variants (decision 0094)', () => {
  const differ = (a: RgbaImage, b: RgbaImage) => {
    let n = 0;
    for (let i = 0; i < a.data.length; i += 4)
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
    return n;
  };
  it('every material: a seamless set is 4 drawings that differ inside, join each other on every edge, and fill 3 × 3 without a seam', () => {
    const least: Record<string, number> = {};
    for (const [i, name] of TERRAIN_NAMES.entries()) {
      const set = renderTileset({
        kind: 'seamless',
        tileSize: 16,
        userPrompt: name,
        tags: [],
        style: {},
        seed: 40 + i,
      });
      expect(set.terrains[0]!.name).toBe(name);
      expect(set.tiles).toHaveLength(4);
      const [plain, ...variants] = set.tiles;
      for (const v of variants) {
        // the edges are the plain tile's: the first and last rows and columns pixel for pixel
        for (let k = 0; k < 16; k++)
          for (const [x, y] of [
            [k, 0],
            [k, 15],
            [0, k],
            [15, k],
          ] as const) {
            const at = (y * 16 + x) * 4;
            expect([...v.data.subarray(at, at + 3)], `${name} edge ${x},${y}`).toEqual([
              ...plain!.data.subarray(at, at + 3),
            ]);
          }
        // inside: a mark of its own (a crack, a tuft, a pebble), not a re-tint of the whole tile (a
        // loose ground's variant is drawn afresh inside the outer ring, decision 0104: up to 196 px)
        const d = differ(v, plain!);
        least[name] = Math.min(least[name] ?? 256, d);
        expect(d, `${name}: the variant is the plain tile`).toBeGreaterThanOrEqual(6);
        expect(d, `${name}: the variant differs everywhere`).toBeLessThanOrEqual(170);
      }
      // the variants differ from each other as well
      expect(differ(variants[0]!, variants[1]!), name).toBeGreaterThanOrEqual(6);
      // any drawing beside any other (the rules' pairs), and a 3 × 3 fill by the brush
      const seams = measureSeams(set.tiles, set.rules);
      expect(seams.pairs).toBe(32);
      expect(seams.worst, name).toBeLessThanOrEqual(SEAM_GOALS.worst);
      const map = paintMap(set.tiles, set.rules, { columns: 3, rows: 3, seed: 3 + i });
      expect(new Set(map.cells).size, name).toBeGreaterThanOrEqual(2);
      expect(map.seams.worst, name).toBeLessThanOrEqual(SEAM_GOALS.worst);
    }
    expect(Object.keys(least)).toHaveLength(TERRAIN_NAMES.length);
  });

  it("wang16 and blob47: each terrain's plain tile and its variants share every edge; the rule tiles are what they were", () => {
    for (const kind of ['wang16', 'blob47'] as const) {
      const job = { kind, tileSize: 16, userPrompt: 'snow and ice', tags: [], style: {}, seed: 9 };
      const set = renderTileset(job);
      const drawings = fullTileDrawings(set.rules);
      expect([...drawings.keys()]).toEqual(kind === 'wang16' ? [0, 15] : [47, 46]);
      for (const ids of drawings.values())
        for (const v of ids.slice(1)) {
          expect(differ(set.tiles[v]!, set.tiles[ids[0]!]!)).toBeGreaterThanOrEqual(6);
          for (const other of set.tiles)
            for (const axis of ['x', 'y'] as const)
              if (mayTouch(set.rules.tiles[v]!, set.rules.tiles[set.tiles.indexOf(other)]!, axis)) {
                // the joint is the plain tile's, pixel for pixel; scored against the variant's own inside
                expect(jointDifference(set.tiles[v]!, other, axis)).toBe(
                  jointDifference(set.tiles[ids[0]!]!, other, axis),
                );
                expect(seamScore(set.tiles[v]!, other, axis)).toBeLessThanOrEqual(SEAM_GOALS.worst);
              }
        }
    }
  });

  it('snow: the transition tiles of a set draw more than one drawing of it, not the plain tile every time (decision 0129)', () => {
    // (0123 left: a wang16/blob47 snow set's transition tiles all drew the plain texture, so its
    // hollows repeated on the tile's period wherever the snow met the ice; before: 0 pixels differed)
    for (const [kind, size] of [
      ['wang16', 16],
      ['wang16', 32],
    ] as const) {
      const set = renderTileset({
        kind,
        tileSize: size,
        userPrompt: 'snowfield and frozen pond',
        tags: [],
        style: {},
        seed: 9,
      });
      const t = set.terrains.findIndex((x) => x.name === 'snow');
      expect(t).toBeGreaterThanOrEqual(0);
      const plainIndex = set.rules.tiles.findIndex(
        (r) => r.lattice.every((v) => v === t) && r.variantOf === undefined,
      );
      const plain = set.tiles[plainIndex]!;
      const key = (im: RgbaImage, i: number) =>
        `${im.data[4 * i]},${im.data[4 * i + 1]},${im.data[4 * i + 2]}`;
      const snowy = new Set(Array.from({ length: size * size }, (_, i) => key(plain, i)));
      let differing = 0;
      let changed = 0;
      set.rules.tiles.forEach((rule, k) => {
        if (rule.lattice.every((v) => v === rule.lattice[0]) || rule.variantOf !== undefined) return;
        const tile = set.tiles[k]!;
        let d = 0;
        // snow pixels clear of the shore (every pixel within 2 is a snow colour), off the joint ring
        for (let y = 2; y < size - 2; y++)
          for (let x = 2; x < size - 2; x++) {
            let clear = true;
            for (let dy = -2; dy <= 2 && clear; dy++)
              for (let dx = -2; dx <= 2; dx++)
                if (!snowy.has(key(tile, (y + dy) * size + x + dx))) {
                  clear = false;
                  break;
                }
            if (clear && key(tile, y * size + x) !== key(plain, y * size + x)) d++;
          }
        differing += d;
        if (d >= 4) changed++;
      });
      expect(
        changed,
        `${kind} ${size}: transition tiles whose snow is another drawing`,
      ).toBeGreaterThanOrEqual(3);
      expect(differing, `${kind} ${size}`).toBeGreaterThan(size * 2);
    }
  });

  it('the seamless sheet is the 2 × 2 drawings, and the whole sheet wraps as one texture', async () => {
    const { sheet, text } = await generate('desert dunes', 'seamless', 16, {}, 5);
    expect([sheet.width, sheet.height]).toEqual([32, 32]);
    const json = JSON.parse(text('p/t/tileset.json'));
    expect(json.tiles.map((t: { variantOf?: number }) => t.variantOf ?? null)).toEqual([null, 0, 0, 0]);
    const tres = parseTres(text('p/t/tileset.tres'));
    const atlas = tres.find((x) => x.tag === 'sub_resource')!;
    expect(atlas.props.get('1:1/0/probability')).toBe('0.5');
    expect(atlas.props.get('1:1/0/terrains_peering_bit/top_left_corner')).toBe('0');
    expect(tres.at(-1)!.props.get('terrain_set_0/terrain_0/name')).toBe('"sand"');
    // the sheet's own joints (its right edge to its left, its bottom to its top) are tile joints
    const column = (x: number) =>
      Array.from({ length: 32 }, (_, y) => [...sheet.data.subarray((y * 32 + x) * 4, (y * 32 + x) * 4 + 3)]);
    expect(column(0).slice(0, 16)).toEqual(column(0).slice(16));
    expect(column(31).slice(0, 16)).toEqual(column(31).slice(16));
  });
});

describe('tileset files', () => {
  for (const kind of ['wang16', 'blob47'] as const) {
    it(`${kind}: the Godot TileSet has the documented fields, and its peering bits paint a seamless map`, async () => {
      const { text, sheet, result } = await generate('grass and water', kind, 16, { palette: 'sweetie16' });
      const rules = tilesetRules(kind);
      const sections = parseTres(text('p/t/tileset.tres'));
      expect(sections[0]!.header).toBe('[gd_resource type="TileSet" load_steps=3 format=3]');
      const ext = sections.find((s) => s.tag === 'ext_resource')!;
      expect(ext.attrs).toMatchObject({ type: 'Texture2D', path: 'res://tileset.png', id: '1_tex' });
      const atlas = sections.find((s) => s.tag === 'sub_resource')!;
      expect(atlas.attrs.type).toBe('TileSetAtlasSource');
      expect(atlas.props.get('texture')).toBe('ExtResource("1_tex")');
      expect(atlas.props.get('texture_region_size')).toBe('Vector2i(16, 16)');
      const resource = sections.at(-1)!;
      expect(resource.tag).toBe('resource');
      expect(resource.props.get('tile_size')).toBe('Vector2i(16, 16)');
      expect(resource.props.get('terrain_set_0/mode')).toBe(kind === 'wang16' ? '1' : '0');
      expect(resource.props.get('terrain_set_0/terrain_0/name')).toBe('"grass"');
      expect(resource.props.get('terrain_set_0/terrain_1/name')).toBe('"water"');
      expect(resource.props.get('terrain_set_0/terrain_1/color')).toMatch(
        /^Color\([\d.]+, [\d.]+, [\d.]+, 1\)$/,
      );
      // sources come last (tile_set.cpp: tile data relies on the terrain sets being set first)
      expect([...resource.props.keys()].at(-1)).toBe('sources/0');
      expect(resource.props.get('sources/0')).toBe(`SubResource("${atlas.attrs.id}")`);

      // every tile: inside the atlas grid, terrain set 0, centre terrain, the mode's peering bits only
      const bits = kind === 'wang16' ? CORNER_BITS : ALL_BITS;
      const tiles = new Map<string, { index: number; key: string }>();
      const variants: Array<{ pattern: string; index: number }> = [];
      for (const [key, value] of atlas.props) {
        const m = /^(\d+):(\d+)\/0$/.exec(key);
        if (!m) continue;
        expect(value).toBe('0');
        const [x, y] = [Number(m[1]), Number(m[2])];
        expect(x).toBeLessThan(rules.columns);
        expect(y).toBeLessThan(rules.rows);
        const get = (p: string) => atlas.props.get(`${x}:${y}/0/${p}`);
        expect(get('terrain_set')).toBe('0');
        expect(['0', '1']).toContain(get('terrain'));
        const present = [...atlas.props.keys()].filter((k) =>
          k.startsWith(`${x}:${y}/0/terrains_peering_bit/`),
        );
        expect(present.map((k) => k.split('/').at(-1)).sort()).toEqual([...bits].sort());
        const pattern = `${get('terrain')}|${bits.map((b) => get(`terrains_peering_bit/${b}`)).join('')}`;
        const index = y * rules.columns + x;
        // a full tile's variants share its terrain and bits, with a probability the brush picks by
        if (get('probability') !== undefined) {
          expect(get('probability')).toBe('0.5');
          variants.push({ pattern, index });
          continue;
        }
        expect(tiles.has(pattern), `two plain tiles with the pattern ${pattern}`).toBe(false);
        tiles.set(pattern, { index, key });
      }
      expect(tiles.size + variants.length).toBe(rules.tiles.length);
      expect(variants.length).toBeGreaterThanOrEqual(4);
      const drawings = new Map([...tiles].map(([p, t]) => [p, [t.index]]));
      for (const v of variants) {
        expect(drawings.has(v.pattern), `a variant of no plain tile: ${v.pattern}`).toBe(true);
        drawings.get(v.pattern)!.push(v.index);
      }

      // the terrain brush: a random terrain grid, each cell's tile found by its peering bits alone
      const images = cut(sheet, 16, rules.columns, rules.rows);
      const W = 20;
      const H = 14;
      let seed = 12345;
      const rand = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
      const cells: number[] = [];
      if (kind === 'wang16') {
        const corners = Array.from({ length: (W + 1) * (H + 1) }, () => (rand() < 0.45 ? 1 : 0));
        const c = (x: number, y: number) => corners[y * (W + 1) + x]!;
        for (let y = 0; y < H; y++)
          for (let x = 0; x < W; x++) {
            const v = [c(x, y), c(x + 1, y), c(x, y + 1), c(x + 1, y + 1)];
            const centre = v.reduce((a, b) => a + b, 0) >= 2 ? 1 : 0;
            const hit = drawings.get(`${centre}|${v.join('')}`);
            expect(hit, `no tile for corners ${v.join('')}`).toBeDefined();
            cells.push(hit![Math.floor(rand() * hit!.length)]!);
          }
      } else {
        const grid = Array.from({ length: W * H }, () => (rand() < 0.55 ? 1 : 0));
        const t = (x: number, y: number) => (x < 0 || y < 0 || x >= W || y >= H ? 0 : grid[y * W + x]!);
        for (let y = 0; y < H; y++)
          for (let x = 0; x < W; x++) {
            const centre = t(x, y);
            const side = (dx: number, dy: number) => (centre && t(x + dx, y + dy) ? 1 : 0);
            const corner = (dx: number, dy: number) =>
              centre && t(x + dx, y) && t(x, y + dy) && t(x + dx, y + dy) ? 1 : 0;
            const v = {
              right_side: side(1, 0),
              bottom_right_corner: corner(1, 1),
              bottom_side: side(0, 1),
              bottom_left_corner: corner(-1, 1),
              left_side: side(-1, 0),
              top_left_corner: corner(-1, -1),
              top_side: side(0, -1),
              top_right_corner: corner(1, -1),
            } as Record<string, number>;
            const hit = drawings.get(`${centre}|${ALL_BITS.map((b) => v[b]).join('')}`);
            expect(hit, `no tile for ${JSON.stringify(v)}`).toBeDefined();
            cells.push(hit![Math.floor(rand() * hit!.length)]!);
          }
      }
      let worst = 0;
      let sum = 0;
      let joints = 0;
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const a = images[cells[y * W + x]!]!;
          for (const [dx, dy, axis] of [
            [1, 0, 'x'],
            [0, 1, 'y'],
          ] as const) {
            if (x + dx >= W || y + dy >= H) continue;
            const b = cells[(y + dy) * W + x + dx]!;
            expect(mayTouch(rules.tiles[cells[y * W + x]!]!, rules.tiles[b]!, axis)).toBe(true);
            const s = seamScore(a, images[b]!, axis);
            worst = Math.max(worst, s);
            sum += s;
            joints++;
          }
        }
      expect(worst).toBeLessThanOrEqual(SEAM_GOALS.worst);
      expect(sum / joints).toBeLessThanOrEqual(SEAM_GOALS.mean);
      // the brush laid the variants too
      expect(cells.some((c) => rules.tiles[c]!.variantOf !== undefined)).toBe(true);
      // sweetie16 is enforced: the palette travels with the engine files (issue #39)
      expect(result.ok && result.assets[0]!.metadata.atlas).toEqual({
        godot: 'p/t/tileset.tres',
        tiled: 'p/t/tileset.tsx',
        tileset: 'p/t/tileset.json',
        palette: 'p/t/palette.gpl',
        paletteHex: 'p/t/palette.hex',
      });
    });

    it(`${kind}: the Tiled tileset parses as XML with the documented Wang set fields`, async () => {
      const { text, sheet } = await generate('sand and lava', kind, 16);
      const rules = tilesetRules(kind);
      const errors: string[] = [];
      const doc = new DOMParser({
        errorHandler: { warning: () => {}, error: (e) => errors.push(e), fatalError: (e) => errors.push(e) },
      }).parseFromString(text('p/t/tileset.tsx'), 'text/xml');
      expect(errors).toEqual([]);
      const root = doc.documentElement!;
      expect(root.tagName).toBe('tileset');
      expect(root.getAttribute('tilewidth')).toBe('16');
      expect(root.getAttribute('tileheight')).toBe('16');
      expect(root.getAttribute('tilecount')).toBe(String(rules.tiles.length));
      expect(root.getAttribute('columns')).toBe(String(rules.columns));
      const image = root.getElementsByTagName('image')[0]!;
      expect(image.getAttribute('source')).toBe('tileset.png');
      expect(Number(image.getAttribute('width'))).toBe(sheet.width);
      expect(Number(image.getAttribute('height'))).toBe(sheet.height);
      const sets = root.getElementsByTagName('wangset');
      expect(sets.length).toBe(1);
      const set = sets[0]!;
      expect(set.getAttribute('type')).toBe(kind === 'wang16' ? 'corner' : 'mixed');
      const colors = set.getElementsByTagName('wangcolor');
      expect([colors[0]!.getAttribute('name'), colors[1]!.getAttribute('name')]).toEqual(['sand', 'lava']);
      for (let i = 0; i < colors.length; i++)
        expect(colors[i]!.getAttribute('color')).toMatch(/^#[0-9a-f]{6}$/);
      const wangTiles = set.getElementsByTagName('wangtile');
      expect(wangTiles.length).toBe(rules.tiles.length);
      const ids = new Set<string>();
      for (let i = 0; i < wangTiles.length; i++) {
        const w = wangTiles[i]!;
        const tileid = Number(w.getAttribute('tileid'));
        expect(tileid).toBe(i);
        const wangid = w.getAttribute('wangid')!.split(',').map(Number);
        expect(wangid).toHaveLength(8);
        // corner sets use the odd slots (corners) only; mixed sets every slot; colours 1 or 2
        wangid.forEach((v, slot) => {
          if (kind === 'wang16' && slot % 2 === 0) expect(v).toBe(0);
          else expect([1, 2]).toContain(v);
        });
        ids.add(wangid.join());
      }
      // a wang16 set has all 16 corner combinations; a blob set all but the isolated blob's twin
      expect(ids.size).toBe(kind === 'wang16' ? 16 : 47);
      if (kind === 'blob47') {
        const tile0 = root.getElementsByTagName('tile')[0]!;
        expect([tile0.getAttribute('id'), tile0.getAttribute('probability')]).toEqual(['0', '0']);
      }
      // each variant: the Wang id of the plain tile it varies, and a probability the brush picks by
      const probability = new Map<number, string>();
      const tileElements = root.getElementsByTagName('tile');
      for (let i = 0; i < tileElements.length; i++)
        probability.set(
          Number(tileElements[i]!.getAttribute('id')),
          tileElements[i]!.getAttribute('probability')!,
        );
      const variants = rules.tiles.filter((t) => t.variantOf !== undefined);
      expect(variants.length).toBeGreaterThanOrEqual(4);
      for (const v of variants) {
        expect(probability.get(v.index)).toBe('0.5');
        expect(wangTiles[v.index]!.getAttribute('wangid')).toBe(
          wangTiles[v.variantOf!]!.getAttribute('wangid'),
        );
        expect(probability.has(v.variantOf!)).toBe(false);
      }
    });
  }

  it('the JSON description lists the grid, the terrains and each tile’s terrains', async () => {
    const { text } = await generate('snow and ice', 'blob47', 16);
    const json = JSON.parse(text('p/t/tileset.json'));
    expect(json).toMatchObject({
      format: 'assetloom-tileset',
      version: 1,
      kind: 'blob47',
      tileSize: 16,
      columns: 8,
    });
    expect(json.terrains.map((t: { name: string }) => t.name)).toEqual(['snow', 'ice']);
    expect(json.tiles).toHaveLength(56);
    expect(
      json.tiles
        .filter(
          (t: { blobMask?: number; variantOf?: number }) =>
            t.blobMask !== undefined && t.variantOf === undefined,
        )
        .map((t: { blobMask: number }) => t.blobMask),
    ).toEqual([...BLOB_MASKS]);
    expect(json.tiles[47]).toMatchObject({ center: 0, corners: [0, 0, 0, 0], sides: [0, 0, 0, 0] });
    // the variants name the plain tile they vary and their probability; ids 48… after the rule tiles
    expect(json.tiles.slice(48).map((t: { variantOf: number }) => t.variantOf)).toEqual([
      47, 47, 47, 47, 46, 46, 46, 46,
    ]);
    expect(json.tiles.slice(48).every((t: { probability: number }) => t.probability === 0.5)).toBe(true);
    expect(json.tiles[52]).toMatchObject({
      center: 1,
      corners: [1, 1, 1, 1],
      sides: [1, 1, 1, 1],
      blobMask: 255,
    });
  });

  it('a painted map joins without a seam above the goal', () => {
    for (const kind of ['wang16', 'blob47'] as const) {
      const set = renderTileset({
        kind,
        tileSize: 16,
        userPrompt: 'grass and water',
        tags: [],
        style: {},
        seed: 21,
      });
      const map = paintMap(set.tiles, set.rules, { columns: 16, rows: 12, seed: 5 });
      expect(map.image.width).toBe(256);
      expect(new Set(map.cells).size).toBeGreaterThan(6);
      expect(map.seams.worst).toBeLessThanOrEqual(SEAM_GOALS.worst);
      expect(map.seams.mean).toBeLessThanOrEqual(SEAM_GOALS.mean);
    }
  });
});
