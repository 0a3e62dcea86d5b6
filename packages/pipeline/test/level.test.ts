/**
 * Levels (issue #42): the prompt read into a layout by its word tables (every feature word and every
 * placement word, in English and Chinese), grown so that features stand where the words put them,
 * every place asked for is reachable, and every tile is one of the tileset's; a tileset given by a
 * task tiles the level with its own rules (blob47 too). The art here is flat colours — what is under
 * test is the reading, the growing and the tiling, not the drawing (packages/generator draws).
 */
import { describe, expect, it } from 'vitest';
import { assembleLevel, growLevel } from '../src/level/build.js';
import { levelChecks } from '../src/level/checks.js';
import { levelLdtk } from '../src/level/formats/ldtk.js';
import { levelTsx } from '../src/level/formats/tiled.js';
import { components } from '../src/level/grid.js';
import { readLevelLayout } from '../src/level/layout.js';
import { levelParams, levelProblems } from '../src/level/params.js';
import { PROP_BLOCKS, pocketSize } from '../src/level/plan.js';
import { LevelSpace } from '../src/level/space.js';
import { paintTiles, tilesMayTouch } from '../src/level/tiles.js';
import { FEATURE_WORDS, type FeatureKind, PLACEMENT_WORDS, type Placement } from '../src/level/words.js';
import { tilesetRules } from '../src/tileset/rules.js';
import { TERRAINS, type TerrainName, terrainSpecsOf } from '../src/tileset/terrains.js';
import type { LevelArt, RgbaImage } from '../src/types/index.js';

/** A flat tile of one colour (the art is not under test). */
function flat(c: readonly number[], size = 8): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) data.set([c[0]!, c[1]!, c[2]!, 255], i * 4);
  return { width: size, height: size, data };
}

/** Flat art for a layout's terrains: each pair's 16 tiles coloured by their top-left corner. */
function flatArt(terrains: readonly TerrainName[], size = 8): LevelArt {
  const pairs: LevelArt['pairs'] = [];
  for (let a = 0; a < terrains.length; a++)
    for (let b = a + 1; b < terrains.length; b++)
      pairs.push({
        a,
        b,
        tiles: Array.from({ length: 16 }, (_, i) => flat(TERRAINS[terrains[i & 1 ? b : a]!].color, size)),
      });
  const props = [
    'tree',
    'pine',
    'palm',
    'cactus',
    'bush',
    'rock',
    'house',
    'cottage',
    'hall-w',
    'hall-e',
    'chest',
    'cave',
    'door',
    'door-ew',
    'stairs',
    'stairs-down',
    'bridge',
    'bridge-ns',
    'flowers',
    'tuft',
    'reeds',
    'crops',
    'barrel',
    'torch',
    'crate',
    'table',
    'bones',
    'rubble',
    'shelf',
    'urn',
    'well',
    'garden',
  ].map((kind) => ({
    kind,
    image: flat([200, 40, 40], 2 * size),
    as: 'flat',
  }));
  return {
    pairs,
    plains: terrains.map((t) => flat(TERRAINS[t].color, size)),
    colors: terrains.map((t) => TERRAINS[t].color),
    props,
  };
}

function build(prompt: string, seed = 1, columns = 40, rows = 32, given: TerrainName[] | null = null) {
  const layout = readLevelLayout(prompt, given);
  return assembleLevel({ layout, columns, rows, tileSize: 8, seed, art: flatArt(layout.terrains) });
}

const checksOf = (b: ReturnType<typeof build>) =>
  Object.fromEntries(levelChecks(b).checks.map((c) => [c.name, c]));

describe('the layout reader', () => {
  const features = Object.entries(FEATURE_WORDS) as Array<[FeatureKind, (typeof FEATURE_WORDS)[FeatureKind]]>;
  it.each(features.flatMap(([kind, row]) => [...row.en, ...row.zh].map((word) => [kind, word] as const)))(
    'feature %s: "%s"',
    (kind, word) => {
      const zh = /[\u3400-\u9fff]/.test(word);
      const prompt = zh ? `一片草地,有${word}` : `a meadow with a ${word}`;
      const layout = readLevelLayout(prompt);
      // in a dungeon prompt the rooms and corridors are its own; elsewhere the word names the feature
      const found = layout.features.map((f) => f.kind);
      const expected: FeatureKind = kind;
      expect(found, prompt).toContain(expected);
      expect(layout.understood.join(' '), prompt).toContain(word.split(' ')[0]!);
    },
  );

  const placements = Object.entries(PLACEMENT_WORDS) as Array<
    [Placement, (typeof PLACEMENT_WORDS)[Placement]]
  >;
  it.each(placements.flatMap(([place, row]) => [...row.en, ...row.zh].map((word) => [place, word] as const)))(
    'placement %s: "%s"',
    (place, word) => {
      const zh = /[\u3400-\u9fff]/.test(word);
      const prompt = zh ? `草地,${word}有一个湖` : `a meadow with a lake in the ${word}`;
      const lake = readLevelLayout(prompt).features.find((f) => f.kind === 'lake');
      expect(lake?.placements, prompt).toContain(place);
    },
  );

  it.each([
    ['a small island with a lake', 'island', 'grass'],
    ['an archipelago of small islands', 'archipelago', 'grass'],
    ['a dungeon with rooms', 'dungeon', 'grass'],
    ['地牢', 'dungeon', 'grass'],
    // decision 0126: a tomb was an open meadow of trees, its word said nowhere
    ['a tomb with an exit stair', 'dungeon', 'grass'],
    ['a mausoleum with three chambers', 'dungeon', 'grass'],
    ['a dark cave with a pond', 'cave', 'grass'],
    ['a desert with rocks', 'land', 'desert'],
    ['a snowy valley', 'land', 'snow'],
    ['沼泽', 'land', 'swamp'],
    ['a volcanic island', 'island', 'volcanic'],
  ])('"%s" is a %s level of %s', (prompt, base, biome) => {
    const layout = readLevelLayout(prompt);
    expect([layout.base, layout.biome]).toEqual([base, biome]);
  });

  it('reads counts, links and the last room', () => {
    const d = readLevelLayout(
      'a dungeon with six rooms joined by corridors and a treasure chest in the last room',
    );
    expect(d.features.find((f) => f.kind === 'rooms')?.count).toBe(6);
    expect(d.features.find((f) => f.kind === 'chest')?.last).toBe(true);
    const r = readLevelLayout('a river running from north to south');
    expect(r.features.find((f) => f.kind === 'river')).toMatchObject({ from: 'north', to: 'south' });
    const p = readLevelLayout('a path to a cave');
    expect(p.features.find((f) => f.kind === 'path')?.to).toBe('cave');
    expect(p.features.map((f) => f.kind)).toContain('cave');
    expect(readLevelLayout('地牢,有四个房间').features.find((f) => f.kind === 'rooms')?.count).toBe(4);
  });

  it('maps roles onto the terrains at hand and names what it cannot draw', () => {
    const layout = readLevelLayout('an island with rocks in the north and a path', ['grass', 'water']);
    expect(layout.terrains).toEqual(['water', 'grass']);
    expect(layout.ignored).toContain('rocks');
    expect(layout.notes.join(' ')).toMatch(/rocks: none of the terrains at hand/);
  });
});

describe('growing a level', () => {
  const PLACES: Placement[] = [
    'north',
    'south',
    'east',
    'west',
    'northeast',
    'northwest',
    'southeast',
    'southwest',
    'centre',
    'corners',
  ];
  it.each(PLACES)('a lake in the %s is there, and every check passes', (place) => {
    const word = place === 'corners' ? 'ponds in the corners' : `a lake in the ${place}`;
    const b = build(`a meadow with ${word}`, 3);
    const c = checksOf(b);
    expect(c.level_placement?.passed, c.level_placement?.detail).toBe(true);
    expect(c.level_tile_rules?.passed, c.level_tile_rules?.detail).toBe(true);
    expect(c.level_connected?.passed, c.level_connected?.detail).toBe(true);
    const lake = b.plan.regions.find((r) => r.kind === 'lake' || r.kind === 'pond')!;
    expect(lake.cells.length).toBeGreaterThan(4);
  });

  it('a lake placed in the north is not where the south is: the check fails a misplaced feature', () => {
    const b = build('a meadow with a lake in the north', 3);
    const region = b.plan.regions.find((r) => r.kind === 'lake')!;
    region.placements = ['south'];
    const c = checksOf(b);
    expect(c.level_placement?.passed).toBe(false);
    expect(c.level_placement?.detail).toMatch(/lake \(south: its middle is at \d+ % across, \d+ % down\)/);
  });

  it.each([
    ['rocks around the edges', 'mountain'],
    ['a forest around a clearing in the centre', 'forest'],
  ])('"%s": around reaches every side', (prompt, kind) => {
    const b = build(`a meadow with ${prompt}`, 5, 48, 40);
    const c = checksOf(b);
    expect(c.level_placement?.passed, c.level_placement?.detail).toBe(true);
    expect(b.plan.regions.find((r) => r.kind === kind)!.cells.length).toBeGreaterThan(20);
  });

  it.each([
    ['a river from west to east', 'river'],
    ['a village in the south', 'village'],
    ['a cave entrance in the east', 'cave'],
    ['a clearing in the west', 'clearing'],
    ['a forest in the north', 'forest'],
    ['houses in the north', 'houses'],
    ['a chest in the east', 'chest'],
    ['a path from west to east', 'path'],
    ['lava in the centre', 'lava'],
    ['the sea in the south', 'sea'],
    ['a valley', 'valley'],
  ])('"%s" grows its %s, joined to the spawn', (prompt, kind) => {
    const b = build(`a meadow with ${prompt}`, 2, 48, 40);
    const c = checksOf(b);
    for (const name of ['level_connected', 'level_placement', 'level_tile_rules'])
      expect(c[name]?.passed, `${name}: ${c[name]?.detail}`).toBe(true);
    expect(b.plan.regions.find((r) => r.kind === kind)?.cells.length ?? 0).toBeGreaterThan(0);
  });

  it.each([
    ['a village with houses and a river', 1],
    ['a village with five houses in the south', 5],
  ])(
    '"%s": the village\'s houses are the houses asked for, placed where the words put them',
    (prompt, least) => {
      // issue #39: both were refused with "houses (not drawn)" or "houses (south: its middle is at 52 %)"
      const b = build(prompt, 3, 32, 32);
      const c = checksOf(b);
      for (const name of ['level_connected', 'level_placement'])
        expect(c[name]?.passed, `${name}: ${c[name]?.detail}`).toBe(true);
      expect(b.plan.props.filter((p) => p.kind === 'house').length).toBeGreaterThanOrEqual(least);
    },
  );

  it('a river from north to south crosses the map', () => {
    const b = build('a meadow with a river from north to south', 4);
    const rows = b.plan.regions
      .find((r) => r.kind === 'river')!
      .cells.map((c) => Math.floor(c / b.plan.columns));
    expect(Math.min(...rows)).toBe(0);
    expect(Math.max(...rows)).toBe(b.plan.rows - 1);
  });

  it('a dungeon: the rooms asked for, every one reachable, doors where corridors leave them', () => {
    const b = build('a dungeon with six rooms joined by corridors and a chest in the last room', 7, 48, 40);
    const c = checksOf(b);
    expect(c.level_connected?.passed, c.level_connected?.detail).toBe(true);
    expect(b.plan.rooms.length).toBe(6);
    expect(b.plan.anchors.filter((a) => a.name.startsWith('room'))).toHaveLength(6);
    expect(b.props.filter((p) => p.kind === 'door' || p.kind === 'door-ew').length).toBeGreaterThanOrEqual(5);
    expect(b.props.filter((p) => p.kind === 'chest')).toHaveLength(1);
    expect(b.props.filter((p) => p.kind === 'stairs')).toHaveLength(1);
  });

  it.each([
    ['a crypt with an exit', false],
    ['a dungeon of five rooms with a chest in the final room', true],
  ] as const)(
    '"%s": stairs up in the spawn room, stairs down in the room farthest walked from it (the goal)',
    (prompt, chest) => {
      for (const seed of [1, 2]) {
        const b = build(prompt, seed, 40, 30);
        const { columns, rows } = b.plan;
        const up = b.plan.props.filter((p) => p.kind === 'stairs');
        const down = b.plan.props.filter((p) => p.kind === 'stairs-down');
        expect(up, `seed ${seed}: one start`).toHaveLength(1);
        expect(down, `seed ${seed}: one goal`).toHaveLength(1);
        expect(up[0]!.y * columns + up[0]!.x).toBe(b.plan.spawn);
        const goal = down[0]!.y * columns + down[0]!.x;
        expect(b.plan.anchors.find((a) => a.name === 'goal')?.cell).toBe(goal);
        // steps walked from the spawn over the walkable graph: no room's middle lies farther than the goal
        const { walk } = walkGraph(b);
        const steps = new Int32Array(columns * rows).fill(-1);
        steps[b.plan.spawn] = 0;
        const queue = [b.plan.spawn];
        for (let i = 0; i < queue.length; i++) {
          const c = queue[i]!;
          const [x, y] = [c % columns, Math.floor(c / columns)];
          for (const [nx, ny] of [
            [x + 1, y],
            [x - 1, y],
            [x, y + 1],
            [x, y - 1],
          ] as const) {
            const n = ny * columns + nx;
            if (nx < 0 || ny < 0 || nx >= columns || ny >= rows || steps[n]! >= 0 || !walk(n)) continue;
            steps[n] = steps[c]! + 1;
            queue.push(n);
          }
        }
        expect(steps[goal], `seed ${seed}: the goal is reached`).toBeGreaterThan(0);
        for (const a of b.plan.anchors.filter((a) => a.name.startsWith('room ')))
          expect(steps[a.cell]!, `seed ${seed}: ${a.name} farther than the goal`).toBeLessThanOrEqual(
            steps[goal]!,
          );
        // nothing stands on the cells round either stairwell (it is drawn wider and taller than its cell)
        for (const s of [b.plan.spawn, goal])
          for (const p of b.plan.props)
            if (p.kind !== 'stairs' && p.kind !== 'stairs-down' && p.kind !== 'chest')
              expect(
                Math.max(Math.abs(p.x - (s % columns)), Math.abs(p.y - Math.floor(s / columns))),
                `seed ${seed}: ${p.kind} beside stairs`,
              ).toBeGreaterThan(1);
        // a chest asked for in the final room stands beside the goal
        const chests = b.plan.props.filter((p) => p.kind === 'chest');
        if (chest) expect(chests.map((p) => p.y * columns + p.x)).toEqual([goal + 1]);
        else expect(chests).toEqual([]);
      }
    },
  );

  it('a dungeon is walled: laid blocks between every floor and the rock, each door in a gap of the wall, one to a doorway', () => {
    for (const seed of [1, 2, 3]) {
      const b = build('a dungeon with six rooms and a pool', seed, 44, 36);
      const { floor, rock, wall, water } = b.layout.roles;
      expect(b.layout.terrains[wall!]).toBe('wall');
      const { width, height, cells } = b.plan.terrain;
      let walls = 0;
      const touching: string[] = [];
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const t = cells[y * width + x]!;
          if (t === wall) walls++;
          if (t !== floor && t !== water) continue;
          // no floor or pool point touches the rock: a wall stands between (no tile holds three terrains)
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++)
              if (cells[Math.min(height - 1, Math.max(0, y + dy)) * width + x + dx] === rock)
                touching.push(`(${x}, ${y})`);
        }
      expect(touching, `seed ${seed}: floor next to rock`).toEqual([]);
      expect(walls, `seed ${seed}`).toBeGreaterThan(100);
      const space = new LevelSpace(
        b.plan.kind,
        b.plan.columns,
        b.plan.rows,
        b.layout.terrains,
        b.plan.terrain,
      );
      const walked = (x: number, y: number) =>
        x >= 0 && y >= 0 && x < b.plan.columns && y < b.plan.rows && space.cellWalkable(x, y);
      const doors = b.props.filter((p) => p.kind === 'door' || p.kind === 'door-ew');
      expect(doors.length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
      for (const d of doors) {
        const [ax, ay] = d.kind === 'door-ew' ? [0, 1] : [1, 0];
        const at = `seed ${seed}: ${d.kind} at (${d.x}, ${d.y})`;
        expect(walked(d.x, d.y), at).toBe(true);
        // wall on both sides across the way walked, floor ahead and behind
        expect([walked(d.x + ax, d.y + ay), walked(d.x - ax, d.y - ay)], at).toEqual([false, false]);
        expect([walked(d.x + ay, d.y + ax), walked(d.x - ay, d.y - ax)], at).toEqual([true, true]);
        for (const e of doors)
          if (e !== d) expect(Math.max(Math.abs(e.x - d.x), Math.abs(e.y - d.y)), at).toBeGreaterThan(2);
      }
      // a door is walked through: its collision says so in every engine's file
      expect(PROP_BLOCKS.door || PROP_BLOCKS['door-ew']).toBe(false);
      const c = checksOf(b);
      expect(c.level_connected?.passed, `seed ${seed}: ${c.level_connected?.detail}`).toBe(true);
      expect(c.level_tile_rules?.passed, `seed ${seed}: ${c.level_tile_rules?.detail}`).toBe(true);
    }
  });

  it('a cave: one walkable hollow with the lake asked for', () => {
    const b = build('a small cave with an underground lake', 3, 40, 30);
    const c = checksOf(b);
    expect(c.level_connected?.passed, c.level_connected?.detail).toBe(true);
    expect(b.plan.regions.find((r) => r.kind === 'lake')!.cells.length).toBeGreaterThan(3);
  });

  it('a cut-off place fails the check naming it', () => {
    const b = build('a meadow with a pond in the north, a village in the east and a chest in the west', 2);
    // wall the chest in with water
    const anchor = b.plan.anchors.find((a) => a.name === 'chest')!;
    const water = b.layout.roles.water!;
    const x0 = anchor.cell % b.plan.columns;
    const y0 = Math.floor(anchor.cell / b.plan.columns);
    for (let y = y0 - 2; y <= y0 + 3; y++)
      for (let x = x0 - 2; x <= x0 + 3; x++)
        if (Math.max(Math.abs(x - x0 - 0.5), Math.abs(y - y0 - 0.5)) > 1.5)
          b.plan.terrain.cells[y * b.plan.terrain.width + x] = water;
    const c = checksOf(b);
    expect(c.level_connected?.passed).toBe(false);
    expect(c.level_connected?.detail).toMatch(/cut off from the spawn: .*chest/);
  });

  it('is the same level for the same seed, another for another seed', () => {
    const layout = readLevelLayout('an island with a lake and a forest in the north');
    const a = growLevel(layout, 'wang16', 32, 24, 9);
    const b = growLevel(layout, 'wang16', 32, 24, 9);
    const c = growLevel(layout, 'wang16', 32, 24, 10);
    expect(Buffer.from(a.terrain.cells).equals(Buffer.from(b.terrain.cells))).toBe(true);
    expect(Buffer.from(a.terrain.cells).equals(Buffer.from(c.terrain.cells))).toBe(false);
  });
});

/**
 * The walkable graph of a built level, computed here from its terrain and props (not by the check):
 * a cell is walked on when all its terrain is (water, sea, lava and rock are not) and no blocking
 * prop stands on it; bridges are planks over cells whose terrain is walked on.
 */
function walkGraph(b: ReturnType<typeof build>) {
  const { columns, rows } = b.plan;
  const space = new LevelSpace(b.plan.kind, columns, rows, b.layout.terrains, b.plan.terrain);
  const blocked = new Set(b.plan.props.filter((p) => PROP_BLOCKS[p.kind]).map((p) => p.y * columns + p.x));
  const walk = (c: number) => !blocked.has(c) && space.cellWalkable(c % columns, Math.floor(c / columns));
  return { space, walk, parts: components(columns, rows, walk) };
}

/** The rivers' centre line: per row (north–south) or column (west–east), the mean of its water cells. */
function riverTurns(b: ReturnType<typeof build>, down: boolean): number {
  const { columns } = b.plan;
  const cells = b.plan.regions.find((r) => r.kind === 'river')!.cells;
  const lines = new Map<number, number[]>();
  for (const c of cells) {
    const [x, y] = [c % columns, Math.floor(c / columns)];
    const k = down ? y : x;
    lines.set(k, [...(lines.get(k) ?? []), down ? x : y]);
  }
  const centre = [...lines.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, v]) => v.reduce((s, q) => s + q, 0) / v.length);
  // smoothed over 5, then each change of the sign of its slope (beyond half a cell) is a turn
  const smooth = centre.map((_, i) => {
    const w = centre.slice(Math.max(0, i - 2), i + 3);
    return w.reduce((s, q) => s + q, 0) / w.length;
  });
  let turns = 0;
  let dir = 0;
  let from = smooth[0]!;
  for (const v of smooth) {
    const d = v - from;
    if (Math.abs(d) < 0.5) continue;
    const s = Math.sign(d);
    if (dir !== 0 && s !== dir) turns++;
    dir = s;
    from = v;
  }
  return turns;
}

describe('crossings, meanders and reachability (the review after #42)', () => {
  const PROMPTS = [
    'a village in the centre with a river running from north to south',
    'grassland with a river from west to east and a forest in the south',
    'a meadow with a winding river from north to south, a lake in the east and rocks in the west',
    'a small island with a lake, a forest in the north and a path to a cave',
    'a swamp with a winding path from west to east',
  ];
  it.each(PROMPTS)(
    '"%s": every walkable region joins the spawn over the walkable graph, water a barrier (seeds 1–4)',
    (prompt) => {
      for (const seed of [1, 2, 3, 4]) {
        const b = build(prompt, seed, 48, 36);
        const { parts } = walkGraph(b);
        const home = parts.label[b.plan.spawn]!;
        expect(home, `seed ${seed}: the spawn stands on a walkable cell`).toBeGreaterThanOrEqual(0);
        const cutOff = parts.sizes.filter((n, i) => i !== home && n >= pocketSize(48, 36));
        expect(cutOff, `seed ${seed}: regions cut off from the spawn`).toEqual([]);
        for (const a of b.plan.anchors) expect(parts.label[a.cell], `seed ${seed}: ${a.name}`).toBe(home);
        const c = checksOf(b);
        for (const name of ['level_connected', 'level_tile_rules'])
          expect(c[name]?.passed, `seed ${seed} ${name}: ${c[name]?.detail}`).toBe(true);
      }
    },
  );

  it('a river that crosses the map gets a bridge, and every bridge joins two walkable banks over water', () => {
    let bridges = 0;
    for (const [prompt, seed] of [
      ['a village in the centre with a river running from north to south', 1],
      ['grassland with a river from west to east and a forest in the south', 2],
      ['a meadow with a river from north to south', 3],
      ['a meadow with a river from west to east', 4],
    ] as const) {
      const b = build(prompt, seed, 48, 36);
      const { space, walk } = walkGraph(b);
      const { columns } = b.plan;
      const water = b.layout.roles.water!;
      const planks = b.plan.props.filter((p) => p.kind === 'bridge' || p.kind === 'bridge-ns');
      expect(planks.length, `${prompt}: no bridge`).toBeGreaterThan(0);
      const at = new Set(planks.map((p) => p.y * columns + p.x));
      for (const p of planks) {
        const [dx, dy] = p.kind === 'bridge' ? [1, 0] : [0, 1];
        // the first plank of a run: walk back and forth to its banks
        if (at.has((p.y - dy) * columns + p.x - dx)) continue;
        bridges++;
        let n = 0;
        while (at.has((p.y + dy * n) * columns + p.x + dx * n)) n++;
        const before = (p.y - dy) * columns + p.x - dx;
        const after = (p.y + dy * n) * columns + p.x + dx * n;
        expect(
          walk(before) && walk(after),
          `${prompt}: a bridge at (${p.x}, ${p.y}) ends on walkable banks`,
        ).toBe(true);
        // over water: the cells beside its planks hold water
        const beside = Array.from({ length: n }, (_, k) => [p.x + dx * k + dy, p.y + dy * k + dx] as const);
        expect(
          beside.some(([x, y]) => space.cellTerrains(x, y).includes(water)),
          `${prompt}: the bridge at (${p.x}, ${p.y}) spans water`,
        ).toBe(true);
        // and it is what joins them: without its planks (water again) the banks are apart
        const cut = (c: number) => walk(c) && !at.has(c);
        const apart = components(columns, b.plan.rows, cut);
        expect(apart.label[before]).not.toBe(apart.label[after]);
      }
    }
    expect(bridges).toBeGreaterThanOrEqual(4);
  });

  it('a river with its bridge taken away fails the check, naming the region cut off', () => {
    const b = build('a meadow with a river from north to south', 3, 48, 36);
    const water = b.layout.roles.water!;
    const { columns } = b.plan;
    const planks = b.plan.props.filter((p) => p.kind === 'bridge' || p.kind === 'bridge-ns');
    expect(planks.length).toBeGreaterThan(0);
    const space = new LevelSpace(b.plan.kind, columns, b.plan.rows, b.layout.terrains, b.plan.terrain);
    for (const p of planks) for (const q of space.cellPoints(p.x, p.y)) b.plan.terrain.cells[q] = water;
    b.plan.props = b.plan.props.filter((p) => !planks.includes(p));
    const c = checksOf(b);
    expect(c.level_connected?.passed).toBe(false);
    expect(c.level_connected?.detail).toMatch(
      /cut off from the spawn: .*a walkable region of \d+ cells around/,
    );
  });

  it('a lake ringed by rock fails the check, naming the lake and what seals it in', () => {
    const b = build('a meadow with a lake in the north-east and rocks in the west', 2);
    expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    const { water, rock } = b.layout.roles;
    const { width, height, cells } = b.plan.terrain;
    // every point within three of the lake's water becomes rock: the lake is drawn, its shore gone
    const wet = cells.map((t) => (t === water ? 1 : 0));
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        if (cells[y * width + x] === water) continue;
        let near = false;
        for (let dy = -3; dy <= 3 && !near; dy++)
          for (let dx = -3; dx <= 3 && !near; dx++)
            near = wet[(y + dy) * width + x + dx] === 1 && x + dx >= 0 && x + dx < width;
        if (near) cells[y * width + x] = rock!;
      }
    const c = checksOf(b).level_connected!;
    expect(c.passed).toBe(false);
    expect(c.detail).toMatch(
      /cut off from the spawn: .*lake \(no walked cell at its edge: sealed in by rock\)/,
    );
  });

  it.each([
    'a small cave with a lake',
    'a cave with an underground river',
    'a desert oasis surrounded by rocks',
  ])('"%s": the water is walked to — its shore joins the spawn (seeds 1–4)', (prompt) => {
    for (const seed of [1, 2, 3, 4]) {
      const b = build(prompt, seed);
      const c = checksOf(b);
      // before the shores were grown, every seed of the cave lake failed this (sealed in by rock)
      expect(c.level_connected?.passed, `seed ${seed}: ${c.level_connected?.detail}`).toBe(true);
      const water = b.plan.regions.find((r) => ['lake', 'river', 'pond'].includes(r.kind))!;
      expect(water.cells.length, `seed ${seed}`).toBeGreaterThan(3);
    }
  });

  it.each([
    ['a meadow with a river from north to south', true],
    ['a meadow with a river from west to east', false],
    ['a meadow with a winding river from north to south', true],
  ] as const)('"%s" turns: its centre line changes direction, seed after seed', (prompt, down) => {
    const turns = [1, 2, 3, 4, 5].map((seed) => riverTurns(build(prompt, seed, 48, 36), down));
    // a straight channel (the review's "ruler-straight" river) has none
    expect(Math.min(...turns), `turns per seed: ${turns.join(', ')}`).toBeGreaterThanOrEqual(1);
    expect(
      turns.reduce((s, n) => s + n, 0) / turns.length,
      `turns per seed: ${turns.join(', ')}`,
    ).toBeGreaterThanOrEqual(1.5);
  });

  it('a path from west to east bends and runs on the diagonal, not in right angles', () => {
    for (const seed of [1, 2, 3]) {
      const b = build('a swamp with a winding path from west to east', seed, 48, 36);
      const { columns } = b.plan;
      const path = b.plan.regions.find((r) => r.kind === 'path')!.cells;
      const rowsOf = new Map<number, number[]>();
      for (const c of path)
        rowsOf.set(c % columns, [...(rowsOf.get(c % columns) ?? []), Math.floor(c / columns)]);
      const centre = [...rowsOf.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([, v]) => v.reduce((s, q) => s + q, 0) / v.length);
      expect(Math.max(...centre) - Math.min(...centre), `seed ${seed}: it wanders`).toBeGreaterThanOrEqual(3);
      // on the diagonal: many columns step its centre by less than a whole turn of the route
      const steps = centre.slice(1).map((v, i) => Math.abs(v - centre[i]!));
      expect(
        steps.filter((d) => d > 0.2 && d < 2).length,
        `seed ${seed}: columns where it climbs gently`,
      ).toBeGreaterThanOrEqual(4);
    }
  });
});

describe('the features the review found missing', () => {
  it('"a snowy valley with a river": rock slopes on both sides of the river, its floor open', () => {
    for (const seed of [1, 2, 3]) {
      const b = build('a snowy valley with a river from north to south and houses in the west', seed, 48, 36);
      const { columns } = b.plan;
      const slopes = b.plan.regions.find((r) => r.kind === 'valley')!.cells;
      const u = slopes.map((c) => (c % columns) / columns);
      expect(u.filter((v) => v < 0.3).length, `seed ${seed}: west slope`).toBeGreaterThan(40);
      expect(u.filter((v) => v > 0.7).length, `seed ${seed}: east slope`).toBeGreaterThan(40);
      const c = checksOf(b);
      for (const name of ['level_connected', 'level_placement', 'level_tile_rules'])
        expect(c[name]?.passed, `seed ${seed} ${name}: ${c[name]?.detail}`).toBe(true);
    }
  });

  it('a swamp has pools of water among its mud, reeds at their edges, and stays joined', () => {
    const b = build('a swamp with a winding path from west to east', 2, 48, 36);
    const water = b.layout.roles.water!;
    expect(water).not.toBeNull();
    const wet = [...b.plan.terrain.cells].filter((t) => t === water).length;
    expect(wet / b.plan.terrain.cells.length).toBeGreaterThan(0.03);
    expect(b.plan.props.filter((p) => p.kind === 'reeds').length).toBeGreaterThan(5);
    expect(checksOf(b).level_connected?.passed).toBe(true);
  });

  it("a bog's pools are bowed like ponds (no straight shore of four points), murky green-brown water beside mud", () => {
    for (const seed of [1, 2, 3]) {
      const b = build('a bog', seed, 40, 30);
      const water = b.layout.roles.water!;
      const { width, height, cells } = b.plan.terrain;
      const wet = (x: number, y: number) =>
        x >= 0 && y >= 0 && x < width && y < height && cells[y * width + x] === water;
      let longest = 0;
      // a straight shore: water points in a row (or column) whose neighbours on one side are all dry
      for (const [dx, dy] of [
        [0, -1],
        [0, 1],
        [-1, 0],
        [1, 0],
      ] as const)
        for (let a = 0; a < (dy ? height : width); a++) {
          let run = 0;
          for (let k = 0; k <= (dy ? width : height); k++) {
            const [x, y] = dy ? [k, a] : [a, k];
            run = wet(x, y) && !wet(x + dx, y + dy) ? run + 1 : 0;
            longest = Math.max(longest, run);
          }
        }
      expect(longest, `seed ${seed}: longest straight shore`).toBeLessThanOrEqual(3);
      expect(b.plan.props.filter((p) => p.kind === 'reeds').length, `seed ${seed}: reeds`).toBeGreaterThan(5);
    }
    const [murky] = terrainSpecsOf(['water', 'mud']);
    expect(murky!.color).not.toEqual(TERRAINS.water.color);
    // green-brown: its green over its blue, darker than clear water
    expect(murky!.color[1]).toBeGreaterThan(murky!.color[2]);
    expect(terrainSpecsOf(['water', 'grass'])[0]).toBe(TERRAINS.water);
  });

  it('a clearing with no forest asked for is ringed by trees, none inside it', () => {
    for (const seed of [1, 2, 3]) {
      const b = build('a meadow with a clearing in the centre and a chest', seed, 40, 32);
      const { columns } = b.plan;
      const clearing = b.plan.regions.find((r) => r.kind === 'clearing')!.cells;
      const inside = new Set(clearing);
      const trees = b.plan.props.filter((p) => p.kind === 'tree' || p.kind === 'pine');
      expect(
        trees.filter((t) => inside.has(t.y * columns + t.x)),
        `seed ${seed}: trees in the clearing`,
      ).toEqual([]);
      const cx = clearing.reduce((s, c) => s + (c % columns), 0) / clearing.length;
      const cy = clearing.reduce((s, c) => s + Math.floor(c / columns), 0) / clearing.length;
      const r = Math.sqrt(clearing.length / Math.PI);
      const ring = trees.filter((t) => Math.hypot(t.x - cx, t.y - cy) < r + 3.5);
      expect(ring.length, `seed ${seed}: trees around the clearing`).toBeGreaterThanOrEqual(8);
      // a wood round it, not a hedge (the after-1130j review: "a ring of trees in open grass, no forest
      // around it"): the band 2–4.5 cells out from the rim is mostly wooded
      let band = 0;
      let wooded = 0;
      const at = new Set(trees.map((t) => t.y * columns + t.x));
      for (let y = 0; y < b.plan.rows; y++)
        for (let x = 0; x < columns; x++) {
          const d = Math.hypot(x - cx, y - cy) - r;
          if (d < 2 || d > 4.5) continue;
          band++;
          if (at.has(y * columns + x)) wooded++;
        }
      expect(wooded / band, `seed ${seed}: wooded share of the band round the clearing`).toBeGreaterThan(
        0.45,
      );
    }
  });

  it('open grass gets ground cover in patches, walked over, so the field is not one tile repeated', () => {
    const b = build('a meadow with a lake in the north', 4, 48, 36);
    const cover = b.plan.props.filter((p) => p.kind === 'flowers' || p.kind === 'tuft');
    expect(cover.length).toBeGreaterThan(40);
    expect(cover.every((p) => !PROP_BLOCKS[p.kind])).toBe(true);
    // in patches, not sprinkled evenly: over 4 × 4 blocks of plain ground, the counts' variance is
    // well above their mean (an even, independent sprinkle has the two about equal)
    const space = new LevelSpace(b.plan.kind, 48, 36, b.layout.terrains, b.plan.terrain);
    const counts: number[] = [];
    for (let by = 0; by < 36; by += 4)
      for (let bx = 0; bx < 48; bx += 4) {
        let ground = 0;
        for (let y = by; y < by + 4; y++)
          for (let x = bx; x < bx + 4; x++) if (space.cellIs(x, y, b.layout.roles.ground)) ground++;
        if (ground < 16) continue;
        counts.push(cover.filter((p) => p.x >= bx && p.x < bx + 4 && p.y >= by && p.y < by + 4).length);
      }
    const mean = counts.reduce((s, n) => s + n, 0) / counts.length;
    const variance = counts.reduce((s, n) => s + (n - mean) ** 2, 0) / counts.length;
    expect(variance / mean, `mean ${mean.toFixed(2)}, variance ${variance.toFixed(2)}`).toBeGreaterThan(1.8);
  });

  it.each([
    'a village in the centre with a river running from north to south',
    'a swamp with a winding path from west to east',
    'a snowy valley with a frozen lake in the south and a cave entrance in the west',
    'a tiny starting area: a clearing with a chest, a cave entrance in the north-east',
    'a desert with an oasis in the east and rocks around the edges',
  ])('"%s": every feature the reader understood is drawn, or listed as not honoured', (prompt) => {
    const b = build(prompt, 1, 48, 36);
    for (const f of b.layout.features) {
      const drawn = b.plan.regions.find((r) => r.kind === f.kind)?.cells.length ?? 0;
      expect(
        drawn > 0 || f.words.every((w) => b.layout.ignored.includes(w)),
        `${f.kind} (${f.words.join(', ')})`,
      ).toBe(true);
    }
  });
});

describe('named features at a size that reads, where the words put them, or said (issue #39, decision 0099)', () => {
  const share = (b: ReturnType<typeof build>, t: number | null) =>
    [...b.plan.terrain.cells].filter((v) => v === t).length / b.plan.terrain.cells.length;

  it('"a cavern with an underground lake": a body of water of 8 % of the map or more, walked to', () => {
    // the blind review: the cave's underground lake was a 4 × 3-tile puddle (under 2 % of the map)
    for (const seed of [1, 2, 3]) {
      const b = build('a cavern with an underground lake', seed, 40, 30);
      expect(b.layout.base).toBe('cave');
      expect(share(b, b.layout.roles.water), `seed ${seed}`).toBeGreaterThanOrEqual(0.08);
      expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    }
  });

  it('a lake in grass is a real body of water, ringed by a sand bank, inside the map, with no specks', () => {
    for (const seed of [1, 2]) {
      const b = build('a meadow with a lake in the west', seed, 40, 30);
      const { water, bank, ground } = b.layout.roles;
      expect(bank).not.toBeNull();
      expect(share(b, water), `seed ${seed}`).toBeGreaterThanOrEqual(0.06);
      const { width, height, cells } = b.plan.terrain;
      for (let p = 0; p < cells.length; p++) {
        if (cells[p] !== water) continue;
        const x = p % width;
        const y = Math.floor(p / width);
        // inside the map: the map's edge never clips it
        expect(x > 0 && y > 0 && x < width - 1 && y < height - 1).toBe(true);
        // the water meets its bank, never the grass
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) expect(cells[(y + dy) * width + x + dx]).not.toBe(ground);
      }
      const bodies = components(width, height, (p) => cells[p] === water);
      expect(Math.min(...bodies.sizes), 'no stray specks of water').toBeGreaterThanOrEqual(6);
      expect(checksOf(b).level_placement?.passed, checksOf(b).level_placement?.detail).toBe(true);
    }
  });

  it('"a marsh with a path from west to east": the path is one piece from the west edge to the east edge', () => {
    // the blind review: the swamp's west–east path had a ~7-tile gap
    for (const seed of [1, 2, 3]) {
      const b = build('a marsh with a path from west to east', seed, 40, 30);
      const { columns, rows } = b.plan;
      const path = b.layout.roles.path!;
      const bridges = new Set(
        b.plan.props.filter((p) => p.kind.startsWith('bridge')).map((p) => p.y * columns + p.x),
      );
      const on = (c: number) =>
        bridges.has(c) || b.space.cellTerrains(c % columns, Math.floor(c / columns)).includes(path);
      const pieces = components(columns, rows, on);
      const touching = pieces.sizes.map((_, i) => {
        const xs: number[] = [];
        for (let c = 0; c < columns * rows; c++) if (pieces.label[c] === i) xs.push(c % columns);
        return [Math.min(...xs), Math.max(...xs)];
      });
      expect(
        touching.some(([lo, hi]) => lo === 0 && hi === columns - 1),
        `seed ${seed}: pieces span ${JSON.stringify(touching)}`,
      ).toBe(true);
    }
  });

  it('"a volcanic island with a path around the lava": the path rings the lava (no way out from it that does not cross the path)', () => {
    for (const seed of [1, 2]) {
      const b = build('a volcanic island with a path around the lava', seed, 40, 30);
      const { columns, rows } = b.plan;
      const path = b.layout.roles.path!;
      const lava = b.plan.regions.find((r) => r.kind === 'lava')!.cells;
      expect(lava.length).toBeGreaterThan(10);
      const off = components(
        columns,
        rows,
        (c) => !b.space.cellTerrains(c % columns, Math.floor(c / columns)).includes(path),
      );
      const inside = off.label[lava[Math.floor(lava.length / 2)]!]!;
      for (let c = 0; c < columns * rows; c++) {
        const x = c % columns;
        const y = Math.floor(c / columns);
        if (x === 0 || y === 0 || x === columns - 1 || y === rows - 1)
          expect(off.label[c], `seed ${seed}: the lava's side of the path reaches the map's edge`).not.toBe(
            inside,
          );
      }
    }
  });

  it('"a lava cave with a path around the magma": a cave with a magma pool and a path that rings it', () => {
    for (const seed of [1, 2]) {
      const b = build('a lava cave with a path around the magma', seed, 40, 30);
      expect(b.layout.base).toBe('cave');
      expect(share(b, b.layout.roles.lava), `seed ${seed}`).toBeGreaterThanOrEqual(0.06);
      const { columns, rows } = b.plan;
      const path = b.layout.roles.path!;
      expect(path).not.toBe(b.layout.roles.floor);
      const lava = b.plan.regions.find((r) => r.kind === 'lava')!.cells;
      const off = components(
        columns,
        rows,
        (c) => !b.space.cellTerrains(c % columns, Math.floor(c / columns)).includes(path),
      );
      const inside = off.label[lava[Math.floor(lava.length / 2)]!]!;
      for (let c = 0; c < columns * rows; c++) {
        const x = c % columns;
        const y = Math.floor(c / columns);
        if (x === 0 || y === 0 || x === columns - 1 || y === rows - 1) expect(off.label[c]).not.toBe(inside);
      }
      expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    }
  });

  it('a farm has fields: crop rows on tilled plots beside the village, each crop on a cell of soil', () => {
    for (const prompt of ['a farm village', 'a farming hamlet with wheat fields']) {
      const b = build(prompt, 2, 40, 30);
      expect(b.layout.features.map((f) => f.kind)).toEqual(expect.arrayContaining(['village', 'fields']));
      const crops = b.plan.props.filter((p) => p.kind === 'crops');
      expect(crops.length, prompt).toBeGreaterThanOrEqual(15);
      const soil = b.layout.roles.path!;
      for (const p of crops) expect(b.space.cellIs(p.x, p.y, soil)).toBe(true);
      const fields = new Set(b.plan.regions.find((r) => r.kind === 'fields')!.cells);
      for (const p of crops) expect(fields.has(p.y * b.plan.columns + p.x)).toBe(true);
      expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    }
  });

  it('an oasis has palms round its water, the water meeting the sand (no grass ring: decision 0114)', () => {
    const b = build('a desert with an oasis and palms', 3, 40, 30);
    const { columns } = b.plan;
    // the review after 1130b: a grass ring round the oasis made the desert read as a lawn
    expect(b.layout.roles.bank).toBeNull();
    expect(b.layout.terrains).not.toContain('grass');
    const water = new Set(b.plan.regions.find((r) => r.kind === 'lake')!.cells);
    const palms = b.plan.props.filter((p) => p.kind === 'palm');
    const byWater = palms.filter((p) => {
      for (let dy = -3; dy <= 3; dy++)
        for (let dx = -3; dx <= 3; dx++) if (water.has((p.y + dy) * columns + p.x + dx)) return true;
      return false;
    });
    expect(byWater.length).toBeGreaterThanOrEqual(6);
    expect(b.plan.props.some((p) => p.kind === 'cactus')).toBe(true);
  });

  it('a place no level feature draws is named, with why, not dropped ("a ruined fort in the east")', () => {
    expect(readLevelLayout('a ruined fort in the east').ignored).toEqual([
      'fort (no level feature draws it)',
    ]);
    expect(readLevelLayout('a lakeside village').features.map((f) => f.kind)).toContain('lake');
  });

  it('any other thing a level prompt names is said, never dropped: a dungeon too; terrains, doors and map words are drawn or no things', () => {
    expect(readLevelLayout('a crypt of five chambers with a sarcophagus').ignored).toEqual([
      'sarcophagus (no level feature draws it)',
    ]);
    expect(readLevelLayout('a village with a well').ignored).toEqual(['well (no level feature draws it)']);
    expect(readLevelLayout('a farm with cows and a barn').ignored).toEqual([
      'cows (no level feature draws it)',
      'barn (no level feature draws it)',
    ]);
    // a terrain's name is drawn only when the level has that terrain ("an ice rink level" was a meadow)
    expect(readLevelLayout('an ice rink level').ignored).toContain('ice (no level feature draws it)');
    expect(readLevelLayout('a frozen pond in a snowy field').ignored).toEqual([]);
    for (const drawn of [
      'a coast along the west with the sea, grass and some huts in the east',
      'a big dungeon with many rooms and doors',
      'a riverside hamlet with a bridge',
      'a small clearing with a chest and a cave entrance in the south-west',
      'a gorge: cliffs in the east and west, a trail through the middle from north to south',
    ])
      expect(readLevelLayout(drawn).ignored, drawn).toEqual([]);
  });

  it('a word the level tables do not know is said, never dropped: a mangrove, a district, tombs outside a dungeon, a bayou (decision 0138)', () => {
    const said = (prompt: string) => readLevelLayout(prompt).ignored.map((w) => w.split(' (')[0]);
    expect(said('a mangrove marsh')).toEqual(['mangrove']);
    expect(said('a swamp with mangroves')).toEqual(['mangroves']);
    expect(said('a lake district')).toEqual(['district']);
    expect(said('a graveyard with tombs')).toEqual(['graveyard', 'tombs']);
    expect(said('a bayou')).toEqual(['bayou']);
    expect(said('a coral reef')).toEqual(['coral', 'reef']);
    // a dungeon's words in a dungeon, an island's beside its islets, words of where: read, not said
    expect(said('a tomb with coffins')).toEqual(['coffins']);
    expect(said('an island with islets')).toEqual([]);
    expect(said('a path along the river, across the middle of the map')).toEqual([]);
    // a pronoun is no thing, and open grass by another name is the grass the level stands on (the blind
    // review after 1130h: a level's notes said "it" and a grass level's own grass were not drawn)
    expect(said('a river and a bridge over it')).toEqual([]);
    expect(said('a pond in open grassland')).toEqual([]);
    expect(said('a pasture with a pond, and a cave beyond that')).toEqual([]);
    expect(said('a desert with grassland')).toEqual(['grassland']);
  });

  it('a cave in the west is in the west wall: its mouth in the west tenth-to-fifth, its rock running to the edge', () => {
    for (const seed of [1, 2]) {
      const b = build('a hill with a cave in the west', seed, 40, 30);
      const cave = b.plan.props.find((p) => p.kind === 'cave')!;
      expect(cave.x, `seed ${seed}`).toBeLessThanOrEqual(8);
      const rock = b.layout.roles.rock!;
      const rows = b.plan.regions.find((r) => r.kind === 'cave')!;
      expect(rows.cells.length).toBeGreaterThan(0);
      const edge = [...Array(b.plan.rows).keys()].filter((y) => b.space.cellTerrains(0, y).includes(rock));
      expect(edge.length, `seed ${seed}: rock at the west edge`).toBeGreaterThan(0);
      expect(checksOf(b).level_placement?.passed, checksOf(b).level_placement?.detail).toBe(true);
    }
  });

  it("a glade in a dense wood has a way in: a trail free of trees from the glade to the map's edge", () => {
    for (const seed of [1, 2]) {
      const b = build('a glade in a dense wood', seed, 40, 30);
      const { columns, rows } = b.plan;
      const path = b.layout.roles.path!;
      const blocked = new Set(
        b.plan.props.filter((p) => PROP_BLOCKS[p.kind]).map((p) => p.y * columns + p.x),
      );
      const trail = components(
        columns,
        rows,
        (c) => !blocked.has(c) && b.space.cellTerrains(c % columns, Math.floor(c / columns)).includes(path),
      );
      const glade = b.plan.anchors.find((a) => a.name === 'clearing')!.cell;
      const mine = trail.label[glade]!;
      expect(mine, `seed ${seed}: the glade's middle is on the trail`).toBeGreaterThanOrEqual(0);
      let out = false;
      for (let c = 0; c < columns * rows; c++) {
        const x = c % columns;
        const y = Math.floor(c / columns);
        if (trail.label[c] === mine && (x === 0 || y === 0 || x === columns - 1 || y === rows - 1))
          out = true;
      }
      expect(out, `seed ${seed}: the trail reaches the map's edge`).toBe(true);
      expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    }
  });

  it('a chest in a forest is reached by a way two cells wide, not through a one-tile gap', () => {
    for (const seed of [1, 2, 3, 4]) {
      const b = build('a dense forest with a cave entrance in the north-east and a chest', seed, 40, 30);
      const { columns, rows } = b.plan;
      const blocked = new Set(
        b.plan.props.filter((p) => PROP_BLOCKS[p.kind]).map((p) => p.y * columns + p.x),
      );
      const open = (c: number) =>
        !blocked.has(c) && b.space.cellWalkable(c % columns, Math.floor(c / columns));
      const wide = components(columns, rows, (c) => {
        const x = c % columns;
        const y = Math.floor(c / columns);
        return x + 1 < columns && y + 1 < rows && [c, c + 1, c + columns, c + columns + 1].every(open);
      });
      const labels = (cell: number) =>
        [cell, cell - 1, cell - columns, cell - columns - 1]
          .filter((c) => c >= 0 && Math.abs((c % columns) - (cell % columns)) <= 1)
          .map((c) => wide.label[c]!)
          .filter((l) => l >= 0);
      const home = new Set(labels(b.plan.spawn));
      for (const name of ['chest', 'cave']) {
        const anchor = b.plan.anchors.find((a) => a.name === name)!;
        expect(
          labels(anchor.cell).some((l) => home.has(l)),
          `seed ${seed}: the ${name} is not on a 2-wide way from the spawn`,
        ).toBe(true);
      }
    }
  });

  it('"mountains in the east and west with a pass between them": two rock walls with no gap, the pass open', () => {
    for (const seed of [1, 2, 3]) {
      const b = build('mountains in the east and west with a pass between them', seed, 40, 30);
      const { columns, rows } = b.plan;
      const rock = b.layout.roles.rock!;
      // a gap is a row with no rock across a wall's quarter of the map (the review: bands with gaps)
      const gaps: string[] = [];
      for (let y = 0; y < rows; y++)
        for (const [lo, hi, side] of [
          [0, Math.floor(columns / 4), 'west'],
          [Math.ceil((3 * columns) / 4), columns, 'east'],
        ] as const) {
          let wall = false;
          for (let x = lo; x < hi; x++) wall ||= b.space.cellTerrains(x, y).includes(rock);
          if (!wall) gaps.push(`${side} row ${y}`);
        }
      expect(gaps, `seed ${seed}`).toEqual([]);
      expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    }
  });

  it('fields with no room for a plot are named in notHonoured, with why', () => {
    const b = build('a farm village with rocks around the edges and a lake in the centre', 1, 12, 10);
    const fields = b.plan.regions.find((r) => r.kind === 'fields')!;
    if (fields.cells.length === 0) expect(b.plan.notHonoured.join(' ')).toMatch(/farm|fields/);
    else expect(b.plan.notHonoured).toEqual([]);
  });
});

describe('places that read as the place named (issue #39, decision 0106)', () => {
  // growing alone (no tiling): the regions are what is measured
  const grown = (prompt: string, seed: number) => ({
    plan: growLevel(readLevelLayout(prompt), 'wang16', 40, 30, seed),
  });
  const middle = (b: { plan: ReturnType<typeof growLevel> }, kind: string) => {
    const cells = b.plan.regions.filter((r) => r.kind === kind).flatMap((r) => r.cells);
    const { columns, rows } = b.plan;
    return [
      cells.reduce((a, c) => a + ((c % columns) + 0.5) / columns, 0) / cells.length,
      cells.reduce((a, c) => a + (Math.floor(c / columns) + 0.5) / rows, 0) / cells.length,
    ] as const;
  };

  it("an island's lake is fresh water, another terrain than the sea round the island", () => {
    // the blind review: a lake enclosed by sand looked identical to the ocean
    const b = build('an island with a lake in the south', 1, 40, 30);
    const { water, sea } = b.layout.roles;
    expect(water).not.toBeNull();
    expect(b.layout.terrains[water!]).toBe('freshwater');
    expect(b.layout.terrains[sea!]).toBe('water');
    const lake = b.plan.regions.find((r) => r.kind === 'lake')!.cells;
    expect(lake.length).toBeGreaterThan(20);
    for (const c of lake)
      expect(b.space.cellTerrains(c % b.plan.columns, Math.floor(c / b.plan.columns))).not.toContain(sea);
    // still water: not walked on, reached round its bank
    expect(b.space.walkable[water!]).toBe(false);
    expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
  });

  it('reads "north to south" as where a trail starts and ends, an isle with a grotto as an island with a cave, cliffs east and west as a ravine\'s walls', () => {
    const trail = readLevelLayout('a gorge between cliffs with a track running north to south');
    expect(trail.features.find((f) => f.kind === 'path')).toMatchObject({
      from: 'north',
      to: 'south',
      placements: [],
    });
    const isle = readLevelLayout('an isle with a freshwater pond and a trail to a grotto');
    expect(isle.base).toBe('island');
    expect(isle.features.find((f) => f.kind === 'path')?.to).toBe('cave');
    expect(isle.features.map((f) => f.kind)).toContain('cave');
    expect(readLevelLayout('a cavern with an underground lake').base).toBe('cave');
    const ravine = build('a ravine with cliffs east and west and a trail north to south', 2, 40, 30);
    expect(ravine.layout.features.map((f) => f.kind).sort()).toEqual(['mountain', 'path']);
    const c = checksOf(ravine);
    expect(c.level_placement?.passed, c.level_placement?.detail).toBe(true);
  });

  it('compass words put the middle of a feature in the third of the map they name, seeds 1–4', () => {
    for (const seed of [1, 2, 3, 4]) {
      const [, lakeV] = middle(grown('a meadow with a lake in the south', seed), 'lake');
      expect(lakeV, `seed ${seed}: the lake in the south`).toBeGreaterThan(2 / 3);
      const [islandU, islandV] = middle(grown('an island with a lake in the south', seed), 'lake');
      expect(islandV, `seed ${seed}: the island's lake in the south`).toBeGreaterThan(2 / 3);
      expect(Math.abs(islandU - 0.5)).toBeLessThan(1 / 6);
      const [caveU] = middle(grown('a bandit hideout cave in the east cliffs', seed), 'cave');
      expect(caveU, `seed ${seed}: the cave in the east`).toBeGreaterThan(2 / 3);
      const [pondU, pondV] = middle(grown('a field with a pond in the north-west', seed), 'pond');
      expect(pondU < 1 / 3 && pondV < 1 / 3, `seed ${seed}: the pond in the north-west`).toBe(true);
    }
  });

  it('no dungeon room is empty, no two furnished alike, from a wider set than barrels and a torch; every room still reached', () => {
    const FURNISHING = new Set(['torch', 'barrel', 'crate', 'table', 'bones', 'rubble', 'shelf', 'urn']);
    for (const seed of [1, 2, 3]) {
      const b = build('a crypt of five chambers', seed, 40, 30);
      const { columns } = b.plan;
      const kinds = new Set<string>();
      const rooms: string[] = [];
      for (const r of b.plan.rooms) {
        const inside = b.plan.props.filter(
          (p) =>
            FURNISHING.has(p.kind) &&
            p.x >= r.x - 1 &&
            p.x <= r.x + r.w &&
            p.y >= r.y - 1 &&
            p.y <= r.y + r.h,
        );
        expect(inside.length, `seed ${seed}: room at ${r.x},${r.y}`).toBeGreaterThan(0);
        for (const p of inside) kinds.add(p.kind);
        rooms.push(
          inside
            .map((p) => p.kind)
            .sort()
            .join(),
        );
      }
      // decision 0114: the review after 1130b found every room the same barrels in corners and a torch
      expect(new Set(rooms).size, `seed ${seed}: ${rooms.join(' | ')}`).toBe(rooms.length);
      // decision 0137: the review after 1130g still saw the same barrel, table and bones in every
      // room; six kinds besides the torch (main has five in all: 4–5 used on these seeds)
      kinds.delete('torch');
      expect(kinds.size, `seed ${seed}: ${[...kinds]}`).toBeGreaterThanOrEqual(6);
      expect(
        b.plan.props.some(
          (p) =>
            (p.kind === 'barrel' || p.kind === 'crate' || p.kind === 'table') &&
            p.y * columns + p.x === b.plan.spawn,
        ),
      ).toBe(false);
      expect(checksOf(b).level_connected?.passed, checksOf(b).level_connected?.detail).toBe(true);
    }
  });

  it('"a pond in the corner" is one pond in one corner; "ponds in the corners" four', () => {
    for (const seed of [1, 2, 3, 4]) {
      const one = build('a meadow with a pond in the corner', seed, 40, 30);
      const water = one.layout.roles.water!;
      const { width, height, cells } = one.plan.terrain;
      const bodies = components(width, height, (p) => cells[p] === water);
      expect(bodies.sizes.length, `seed ${seed}`).toBe(1);
      const [u, v] = middle(one, 'pond');
      expect((u < 0.35 || u > 0.65) && (v < 0.35 || v > 0.65), `seed ${seed}: in a corner`).toBe(true);
    }
    const four = build('a meadow with ponds in the corners', 1, 40, 30);
    const water = four.layout.roles.water!;
    const { width, height, cells } = four.plan.terrain;
    expect(components(width, height, (p) => cells[p] === water).sizes.length).toBe(4);
  });

  it('"a path to a cave" runs from the map\'s edge to the cave mouth, in one piece', () => {
    // the blind review: the path to a cave started from nowhere
    for (const seed of [1, 2, 3]) {
      const b = build('a meadow with a path to a cave in the west', seed, 40, 30);
      const { columns, rows } = b.plan;
      const path = b.layout.roles.path!;
      const trail = components(columns, rows, (c) =>
        b.space.cellTerrains(c % columns, Math.floor(c / columns)).includes(path),
      );
      const mouth = b.plan.anchors.find((a) => a.name === 'cave')!.cell;
      const label = trail.label[mouth]!;
      expect(label, `seed ${seed}: the path reaches the cave mouth`).toBeGreaterThanOrEqual(0);
      let edge = false;
      for (let c = 0; c < columns * rows; c++) {
        const x = c % columns;
        const y = Math.floor(c / columns);
        if (trail.label[c] === label && (x === 0 || y === 0 || x === columns - 1 || y === rows - 1))
          edge = true;
      }
      expect(edge, `seed ${seed}: the path comes in from the map's edge`).toBe(true);
    }
  });
});

describe('levels laid out as a designer would (issue #39, decision 0114)', () => {
  it('"woods in the east" fill the eastern third in clumps, ragged, not one line; the west stays open', () => {
    for (const seed of [1, 2]) {
      const b = build('a map with woods in the east', seed, 40, 30);
      const { columns, rows } = b.plan;
      const trees = b.plan.props.filter((p) => p.kind === 'tree' || p.kind === 'pine');
      const east = trees.filter((p) => p.x >= (columns * 2) / 3);
      const west = trees.filter((p) => p.x < columns / 2);
      // a third of the map's cells: a wood holds a tree on a fifth of them or more
      expect(east.length, `seed ${seed}`).toBeGreaterThan((columns / 3) * rows * 0.2);
      expect(west.length, `seed ${seed}`).toBeLessThan(east.length / 3);
      // it runs the whole side (a blob round the side's middle left its ends bare): every fifth of the
      // eastern third from north to south is wooded, a tree on a tenth of its cells or more
      for (let k = 0; k < 5; k++) {
        const band = east.filter((p) => p.y >= (rows * k) / 5 && p.y < (rows * (k + 1)) / 5);
        expect(band.length, `seed ${seed} band ${k}`).toBeGreaterThanOrEqual(
          ((columns / 3) * rows * 0.1) / 5,
        );
      }
      // clumps and glades: the trees per 4 × 4 block of the third vary (not an even spread)
      const blocks: number[] = [];
      for (let by = 0; by + 4 <= rows; by += 4)
        for (let bx = Math.ceil((columns * 2) / 3); bx + 4 <= columns - 1; bx += 4)
          blocks.push(east.filter((p) => p.x >= bx && p.x < bx + 4 && p.y >= by && p.y < by + 4).length);
      expect(Math.max(...blocks) - Math.min(...blocks), `seed ${seed}`).toBeGreaterThanOrEqual(6);
    }
  });

  it('a village is on a street: a road edge to edge through its square, every door on it or a lane to it', () => {
    for (const prompt of ['a hamlet with a market square', 'a fishing village by a lake']) {
      for (const seed of [1, 2]) {
        const b = build(prompt, seed, 40, 30);
        const { columns, rows } = b.plan;
        const { path, bank } = b.layout.roles;
        // a street is not painted over a lake's sand bank: it is walked over as it is
        const onPath = (x: number, y: number) =>
          x >= 0 &&
          y >= 0 &&
          x < columns &&
          y < rows &&
          b.space.cellTerrains(x, y).some((t) => t === path || t === bank);
        const streets = components(columns, rows, (c) => onPath(c % columns, Math.floor(c / columns)));
        const doors = b.plan.props
          .filter((p) => p.kind === 'house' || p.kind === 'cottage')
          .map((p) => [p.x, p.y + 1] as const);
        expect(doors.length, `${prompt} #${seed}`).toBeGreaterThanOrEqual(3);
        const labels = new Set(doors.map(([x, y]) => streets.label[y * columns + x]));
        // one street network holds every door (the review after 1130b: houses with no paths)
        expect([...labels], `${prompt} #${seed}`).toHaveLength(1);
        expect([...labels][0], `${prompt} #${seed}`).toBeGreaterThanOrEqual(0);
        const net = [...labels][0]!;
        const west = Array.from({ length: rows }, (_, y) => streets.label[y * columns]).includes(net);
        const east = Array.from(
          { length: rows },
          (_, y) => streets.label[y * columns + columns - 1],
        ).includes(net);
        expect(west && east, `${prompt} #${seed}: the road reaches both edges`).toBe(true);
      }
    }
  });

  it('a lake, a pond and a lava pool have round shores: no straight edge runs more than three points', () => {
    // the review after 1130b: stair-step rectangular lake shores; before this a pond's side ran 3–5
    // points straight and a lake's 6–7 (seeds 1–4)
    for (const [prompt, kinds] of [
      ['an icy pond in a snowfield', ['pond']],
      ['a fishing village by a lake', ['lake']],
      ['a lava field with a trail around it', ['lava']],
    ] as const)
      for (const seed of [1, 2]) {
        const plan = growLevel(readLevelLayout(prompt), 'wang16', 40, 30, seed);
        const { width: w, height: h } = plan.terrain;
        const body = new Set(
          plan.regions.filter((r) => (kinds as readonly string[]).includes(r.kind)).flatMap((r) => r.cells),
        );
        expect(body.size, `${prompt} #${seed}`).toBeGreaterThan(0);
        const wet = (x: number, y: number) =>
          x >= 0 &&
          y >= 0 &&
          x < w &&
          y < h &&
          body.has(y * plan.columns + x) &&
          x < plan.columns &&
          y < plan.rows;
        let longest = 0;
        for (const [dx, dy] of [
          [0, -1],
          [0, 1],
          [-1, 0],
          [1, 0],
        ] as const) {
          const rowwise = dy !== 0;
          for (let a = 0; a < (rowwise ? plan.rows : plan.columns); a++) {
            let run = 0;
            for (let b = 0; b <= (rowwise ? plan.columns : plan.rows); b++) {
              const [x, y] = rowwise ? [b, a] : [a, b];
              if (wet(x, y) && !wet(x + dx, y + dy)) run++;
              else {
                longest = Math.max(longest, run);
                run = 0;
              }
            }
          }
        }
        expect(longest, `${prompt} #${seed}`).toBeLessThanOrEqual(3);
      }
  });

  it('a lake is lobed, not a diamond: no side of it steps out one point a row for more than four rows', () => {
    // decision 0126: bowing every straight side out twice made a round lake a diamond — its four
    // sides 45-degree staircases of 5–7 rows on these prompts (seeds 1–4); a lobed lake steps at most 4
    for (const prompt of ['a fishing village by a lake', 'a big lake in the middle of a meadow'])
      for (const seed of [1, 2, 3, 4]) {
        const plan = growLevel(readLevelLayout(prompt), 'wang16', 40, 30, seed);
        const lake = new Set(plan.regions.filter((r) => r.kind === 'lake').flatMap((r) => r.cells));
        expect(lake.size, `${prompt} #${seed}`).toBeGreaterThan(60);
        let stair = 0;
        for (const across of [true, false])
          for (const far of [true, false]) {
            // the lake's first (or last) point on each row (or column), then runs of one-point steps one way
            const n = across ? plan.rows : plan.columns;
            const m = across ? plan.columns : plan.rows;
            const edge = Array.from({ length: n }, (_, a) => {
              const on = Array.from({ length: m }, (_, b) => b).filter((b) =>
                lake.has(across ? a * plan.columns + b : b * plan.columns + a),
              );
              return on.length ? (far ? on[on.length - 1]! : on[0]!) : Number.NaN;
            });
            let run = 0;
            let dir = 0;
            for (let a = 1; a < n; a++) {
              const d = edge[a]! - edge[a - 1]!;
              if (Math.abs(d) !== 1) run = 0;
              else run = d === dir ? run + 1 : 1;
              dir = Math.abs(d) === 1 ? d : 0;
              stair = Math.max(stair, run);
            }
          }
        expect(stair, `${prompt} #${seed}`).toBeLessThanOrEqual(4);
      }
  });

  it('an archipelago has six or more islands, the largest three times the smallest or more', () => {
    for (const seed of [1, 2, 3]) {
      const b = build('a chain of islands', seed, 40, 30);
      const sea = b.layout.roles.sea!;
      const { width, height, cells } = b.plan.terrain;
      const seen = new Uint8Array(cells.length);
      const sizes: number[] = [];
      for (let p = 0; p < cells.length; p++) {
        if (seen[p] || cells[p] === sea) continue;
        let n = 0;
        const stack = [p];
        seen[p] = 1;
        while (stack.length) {
          const q = stack.pop()!;
          n++;
          const x = q % width;
          for (const r of [q - 1, q + 1, q - width, q + width]) {
            if (r < 0 || r >= cells.length || seen[r] || cells[r] === sea) continue;
            if ((r === q - 1 && x === 0) || (r === q + 1 && x === width - 1)) continue;
            seen[r] = 1;
            stack.push(r);
          }
        }
        if (n >= 4) sizes.push(n);
      }
      expect(sizes.length, `seed ${seed}: ${sizes}`).toBeGreaterThanOrEqual(6);
      expect(Math.max(...sizes), `seed ${seed}: ${sizes}`).toBeGreaterThanOrEqual(3 * Math.min(...sizes));
      void height;
    }
  });

  it('a pass has a path from end to end down its middle; "rocky edges" are a rim of rock round the level', () => {
    for (const seed of [1, 2]) {
      const b = build('a valley pass between peaks', seed, 40, 30);
      const { columns, rows } = b.plan;
      const path = b.layout.roles.path!;
      expect(path, `seed ${seed}`).not.toBeNull();
      const xs: number[] = [];
      for (const y of [0, rows - 1]) {
        let any = false;
        for (let x = 0; x < columns; x++) any ||= b.space.cellIs(x, y, path);
        expect(any, `seed ${seed} row ${y}`).toBe(true);
      }
      for (let y = 0; y < rows; y++)
        for (let x = 0; x < columns; x++) if (b.space.cellIs(x, y, path)) xs.push(x);
      const mean = xs.reduce((a, x) => a + x, 0) / xs.length / (columns - 1);
      // the review after 1130b: the pass's path ran along its north edge
      expect(mean, `seed ${seed}`).toBeGreaterThan(0.38);
      expect(mean, `seed ${seed}`).toBeLessThan(0.62);
    }
    const rim = readLevelLayout('a sandy desert with a small oasis and rocky edges');
    expect(rim.features.map((f) => [f.kind, f.placements])).toEqual([
      ['lake', []],
      ['mountain', ['around']],
    ]);
  });
});

describe('water that holds what the words put in it (issue #39, decision 0144)', () => {
  it('"a lake with an island in it" is land round a lake holding an island, not an island holding a lake', () => {
    // the review: "a lake with an island in it" was drawn reversed (an island in the sea with a lake
    // on it), silently; the same for "an island in the middle of a lake" and "a pond with a small isle"
    for (const prompt of [
      'a lake with an island in it',
      'an island in the middle of a lake',
      'a pond with a small isle',
      'a lake around an island',
      '湖中有岛',
    ]) {
      const layout = readLevelLayout(prompt);
      expect(layout.base, prompt).toBe('land');
      const still = layout.features.filter((f) => f.kind === 'lake' || f.kind === 'pond');
      expect(
        still.map((f) => f.isle),
        prompt,
      ).toEqual([true]);
    }
    // the other order is still water on an island
    const onIsland = readLevelLayout('an island with a lake');
    expect(onIsland.base).toBe('island');
    expect(onIsland.features.find((f) => f.kind === 'lake')?.isle).toBeUndefined();
    for (const [prompt, seed] of [
      ['a lake with an island in it', 1],
      ['a pond with a small isle', 2],
    ] as const) {
      const layout = readLevelLayout(prompt);
      const plan = growLevel(layout, 'wang16', 40, 30, seed);
      const { width: w, height: h, cells } = plan.terrain;
      const water = layout.roles.water!;
      const at = `${prompt} #${seed}`;
      expect(plan.notHonoured, at).toEqual([]);
      // the water is inside the map: no water point on its edge (an island's sea rims the map)
      for (let p = 0; p < w * h; p++) {
        const [x, y] = [p % w, Math.floor(p / w)];
        if (x === 0 || y === 0 || x === w - 1 || y === h - 1) expect(cells[p], at).not.toBe(water);
      }
      // the island: land (bridges' planks left out) apart from the map's edge, ringed by the water
      const planks = new Set<number>();
      for (const b of plan.props.filter((q) => q.kind === 'bridge' || q.kind === 'bridge-ns'))
        for (const [dx, dy] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ])
          planks.add((b.y + dy!) * w + b.x + dx!);
      const land = components(w, h, (p) => cells[p] !== water && !planks.has(p));
      const edge = new Set<number>();
      for (let p = 0; p < w * h; p++) {
        const [x, y] = [p % w, Math.floor(p / w)];
        if (x === 0 || y === 0 || x === w - 1 || y === h - 1) edge.add(land.label[p]!);
      }
      const isles = land.sizes.flatMap((n, i) => (edge.has(i) ? [] : [n]));
      expect(Math.max(0, ...isles), at).toBeGreaterThanOrEqual(9);
    }
  });

  it('a lava pool has no one-point spikes: no lava point with one neighbour across or down and two or fewer of eight', () => {
    // the review: "crude lava edges"; a rough blob left the tip of a taper standing (main: 2 on seed 2)
    const layout = readLevelLayout('a lava field with a path');
    const plan = growLevel(layout, 'wang16', 40, 30, 2);
    const { width: w, height: h, cells } = plan.terrain;
    const lava = layout.roles.lava!;
    const is = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && cells[y * w + x] === lava;
    let count = 0;
    const spikes: string[] = [];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (!is(x, y)) continue;
        count++;
        const k = +is(x + 1, y) + +is(x - 1, y) + +is(x, y + 1) + +is(x, y - 1);
        const all = k + +is(x + 1, y + 1) + +is(x - 1, y + 1) + +is(x + 1, y - 1) + +is(x - 1, y - 1);
        if (k <= 1 && all <= 2) spikes.push(`${x},${y}`);
      }
    expect(count).toBeGreaterThan(60);
    expect(spikes).toEqual([]);
  });
});

describe('ways that reach what they lead to, woods that close (issue #39, decision 0137)', () => {
  const grown = (prompt: string, seed: number) => {
    const layout = readLevelLayout(prompt);
    const plan = growLevel(layout, 'wang16', 40, 30, seed);
    return { layout, plan, space: new LevelSpace('wang16', 40, 30, layout.terrains, plan.terrain) };
  };

  it("a path to a cave runs on to the mouth's sill; a road runs on to its bridge's planks on both banks", () => {
    // the blind review after 1130g: a path stopped a tile short of the cave mouth, a road 1–2 tiles
    // before the bridge on both sides (on main: the trail a point short of the sill on both seeds,
    // the road of seed 1 never crossing the river, the village's of seed 3 one to six cells short)
    for (const seed of [1, 3]) {
      for (const prompt of ['a trail leading to a cave mouth in the north']) {
        const { layout, plan, space } = grown(prompt, seed);
        const cave = plan.props.find((p) => p.kind === 'cave')!;
        const t = layout.roles.path!;
        // the mouth's sill: the bottom corners of its cell hold the path
        for (const x of [cave.x, cave.x + 1])
          expect(plan.terrain.cells[(cave.y + 1) * space.gw + x], `${prompt} #${seed} sill (${x})`).toBe(t);
      }
      for (const prompt of [
        seed === 1 ? 'a dirt road crossing a river by a bridge' : 'a village on a river from north to south',
      ]) {
        const { layout, plan, space } = grown(prompt, seed);
        const { columns } = plan;
        const t = layout.roles.path!;
        const planks = new Set(
          plan.props
            .filter((p) => p.kind === 'bridge' || p.kind === 'bridge-ns')
            .map((p) => p.y * columns + p.x),
        );
        expect(planks.size, `${prompt} #${seed}: a bridge`).toBeGreaterThan(0);
        const hasPath = (c: number) =>
          space.cellPoints(c % columns, Math.floor(c / columns)).some((p) => plan.terrain.cells[p] === t);
        let ends = 0;
        for (const p of plan.props) {
          if (p.kind !== 'bridge' && p.kind !== 'bridge-ns') continue;
          const [dx, dy] = p.kind === 'bridge' ? [1, 0] : [0, 1];
          for (const s of [-1, 1]) {
            const next = (p.y + dy * s) * columns + p.x + dx * s;
            if (planks.has(next) || !space.cellWalkable(p.x + dx * s, p.y + dy * s)) continue;
            // a run's end on a bank: the road is in the next cell (the road crosses every bridge here)
            ends++;
            expect(hasPath(next), `${prompt} #${seed}: the road at the planks' end (${p.x}, ${p.y})`).toBe(
              true,
            );
          }
        }
        expect(ends, `${prompt} #${seed}`).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it('a village gathers round a crossroads: streets to three sides or more, buildings in three quarters round the square, a long hall among the cottages', () => {
    // the blind review after 1130g: villages were rows of one-tile houses on one road (on main: the
    // road reached two sides, every house in the two northern quarters, one footprint)
    for (const [prompt, seed] of [
      ['a small town with a crossroads', 1],
      ['a hamlet with a market square', 2],
    ] as const) {
      const { layout, plan, space } = grown(prompt, seed);
      const { columns, rows } = plan;
      const square = plan.anchors.find((a) => a.name === 'village')!.cell;
      const [sx, sy] = [square % columns, Math.floor(square / columns)];
      const street = components(columns, rows, (c) =>
        space.cellTerrains(c % columns, Math.floor(c / columns)).includes(layout.roles.path!),
      );
      const net = street.label[square]!;
      const reaches = [
        Array.from({ length: columns }, (_, x) => x).some((x) => street.label[x] === net),
        Array.from({ length: columns }, (_, x) => x).some(
          (x) => street.label[(rows - 1) * columns + x] === net,
        ),
        Array.from({ length: rows }, (_, y) => y).some((y) => street.label[y * columns] === net),
        Array.from({ length: rows }, (_, y) => y).some(
          (y) => street.label[y * columns + columns - 1] === net,
        ),
      ].filter(Boolean).length;
      expect(reaches, `${prompt} #${seed}: sides the streets reach`).toBeGreaterThanOrEqual(3);
      const buildings = plan.props.filter(
        (p) => p.kind === 'house' || p.kind === 'cottage' || p.kind === 'hall-w',
      );
      const quarters = new Set(buildings.map((p) => `${p.x < sx ? 'w' : 'e'}${p.y < sy ? 'n' : 's'}`));
      expect(quarters.size, `${prompt} #${seed}: quarters with a building`).toBeGreaterThanOrEqual(3);
      // gathered: every building within a third of the map's shorter side of the square
      for (const p of buildings)
        expect(Math.hypot(p.x - sx, p.y - sy), `${prompt} #${seed}: (${p.x}, ${p.y})`).toBeLessThanOrEqual(
          Math.min(columns, rows) / 3 + 2,
        );
      // a hall is its two halves side by side, four tiles of one building
      const west = plan.props.filter((p) => p.kind === 'hall-w');
      expect(west.length, `${prompt} #${seed}: a hall`).toBeGreaterThanOrEqual(1);
      for (const w of west)
        expect(plan.props.some((p) => p.kind === 'hall-e' && p.x === w.x + 2 && p.y === w.y)).toBe(true);
      expect(buildings.length, `${prompt} #${seed}`).toBeGreaterThanOrEqual(5);
    }
  });

  it('"dense", "thick", "surrounded", "a ring of" close a wood round its place: seven in ten cells of the ring wooded, no side open', () => {
    // on main: 7–36 % of the ring wooded and four to eight of its eight sides open (a glade "in a
    // thick forest" stood beside a wood in one corner; a pond's ring was the map's outer band)
    for (const [prompt, seed] of [
      ['a glade deep in a thick forest', 1],
      ['a shrine clearing surrounded by forest', 2],
      ['a pond with a ring of trees around it', 1],
    ] as const) {
      {
        const { layout, plan } = grown(prompt, seed);
        const { columns, rows } = plan;
        const trees = new Set(
          plan.props.filter((p) => p.kind === 'tree' || p.kind === 'pine').map((p) => p.y * columns + p.x),
        );
        const ground = (c: number) => {
          const p = Math.floor(c / columns) * (columns + 1) + (c % columns);
          return [p, p + 1, p + columns + 1, p + columns + 2].every(
            (k) => plan.terrain.cells[k] === layout.roles.ground,
          );
        };
        // the place: the clearing, or the pond and the cells not of plain ground round it (its bank)
        let inner = plan.regions.find((r) => r.kind === 'clearing')?.cells ?? [];
        if (!inner.length) {
          const pond = plan.regions.find((r) => r.kind === 'pond')!.cells;
          const [x0, x1] = [
            Math.min(...pond.map((c) => c % columns)) - 3,
            Math.max(...pond.map((c) => c % columns)) + 3,
          ];
          const ys = pond.map((c) => Math.floor(c / columns));
          inner = [];
          for (let y = Math.min(...ys) - 3; y <= Math.max(...ys) + 3; y++)
            for (let x = x0; x <= x1; x++)
              if (x >= 0 && y >= 0 && x < columns && y < rows && !ground(y * columns + x))
                inner.push(y * columns + x);
        }
        const mid = [
          inner.reduce((a, c) => a + (c % columns), 0) / inner.length,
          inner.reduce((a, c) => a + Math.floor(c / columns), 0) / inner.length,
        ];
        const own = new Set(inner);
        const sides = Array.from({ length: 8 }, () => [0, 0]);
        let band = 0;
        let wooded = 0;
        for (let c = 0; c < columns * rows; c++) {
          const x = c % columns;
          const y = Math.floor(c / columns);
          // the ring: ground cells one to four cells out from the place (a trail is a way, not wood)
          if (own.has(c) || x < 1 || y < 1 || x > columns - 2 || !ground(c)) continue;
          const d = Math.min(...inner.map((q) => Math.hypot((q % columns) - x, Math.floor(q / columns) - y)));
          if (d < 1 || d > 4) continue;
          const side = Math.floor(((Math.atan2(y - mid[1]!, x - mid[0]!) + Math.PI) / (2 * Math.PI)) * 8) % 8;
          band++;
          sides[side]![0]!++;
          if (trees.has(c)) {
            wooded++;
            sides[side]![1]!++;
          }
        }
        expect(wooded / band, `${prompt} #${seed}: the ring's wooded share`).toBeGreaterThanOrEqual(0.7);
        const open = sides.filter(([n, w]) => n! > 0 && w! / n! < 0.4);
        expect(open, `${prompt} #${seed}: sides open`).toHaveLength(0);
      }
    }
  });
});

describe('features a designer recognises (issue #39, decision 0143)', () => {
  const grown = (prompt: string, seed: number) => {
    const layout = readLevelLayout(prompt);
    const plan = growLevel(layout, 'wang16', 40, 30, seed);
    return { layout, plan };
  };
  const isTree = (kind: string) => kind === 'tree' || kind === 'pine';

  it('a village has a well on its square and fenced gardens beside its cottages, two sizes of building', () => {
    // the blind review after 1130i: "a village is one row of one cottage stamp" (on main: no well,
    // no garden, six cottages and a hall)
    for (const [prompt, seed] of [
      ['a small village', 1],
      ['a farming hamlet with a square', 2],
    ] as const) {
      const { plan } = grown(prompt, seed);
      const { columns } = plan;
      const square = plan.anchors.find((a) => a.name === 'village')!.cell;
      const wells = plan.props.filter((p) => p.kind === 'well');
      expect(wells, `${prompt} #${seed}: a well`).toHaveLength(1);
      const [w] = wells;
      expect(
        Math.max(Math.abs(w!.x - (square % columns)), Math.abs(w!.y - Math.floor(square / columns))),
        `${prompt} #${seed}: the well by the square`,
      ).toBeLessThanOrEqual(1);
      const houses = plan.props.filter((p) => p.kind === 'house' || p.kind === 'cottage');
      // two roofs: red-tiled houses and thatched cottages
      expect(new Set(houses.map((p) => p.kind)).size, `${prompt} #${seed}: roofs`).toBe(2);
      const gardens = plan.props.filter((p) => p.kind === 'garden');
      expect(gardens.length, `${prompt} #${seed}: gardens`).toBeGreaterThanOrEqual(3);
      for (const g of gardens)
        expect(houses.some((h) => h.y === g.y && Math.abs(h.x - g.x) === 2)).toBe(true);
      expect(houses.length, `${prompt} #${seed}: cottages`).toBeGreaterThanOrEqual(7);
      expect(plan.props.some((p) => p.kind === 'hall-w')).toBe(true);
    }
  });

  it("a wood named on a side covers that side's quarter: a tree on six cells in ten or more", () => {
    // on main: 24–43 % ("a forest in the north" read as a scatter of trees)
    for (const [prompt, inSide] of [
      ['a forest in the north and farmland', (x: number, y: number) => y < 30 / 4],
      ['a pine forest along the west side', (x: number) => x < 40 / 4],
    ] as const)
      for (const seed of [1, 2]) {
        const { plan } = grown(prompt, seed);
        const trees = new Set(plan.props.filter((p) => isTree(p.kind)).map((p) => p.y * 40 + p.x));
        let cells = 0;
        let wooded = 0;
        for (let y = 1; y < 29; y++)
          for (let x = 1; x < 39; x++)
            if (inSide(x, y)) {
              cells++;
              if (trees.has(y * 40 + x)) wooded++;
            }
        expect(wooded / cells, `${prompt} #${seed}`).toBeGreaterThanOrEqual(0.6);
      }
  });

  it('"the final chamber" is one room of a dungeon, not a dungeon of one; "the first room" is where the player starts', () => {
    // on main: "a crypt where the final chamber holds a relic" grew two rooms; "a chest in the first
    // room" stood in the room farthest from the stairs up (11–29 cells from them)
    for (const seed of [1, 2]) {
      const crypt = grown('a crypt where the final chamber holds a relic', seed).plan;
      expect(crypt.rooms.length, `crypt #${seed}`).toBeGreaterThanOrEqual(4);
      expect(crypt.props.filter((p) => p.kind === 'stairs-down')).toHaveLength(1);
      for (const prompt of [
        'a dungeon with a chest in the first room',
        'a dungeon whose entrance room has a chest',
      ]) {
        const { plan } = grown(prompt, seed);
        const chest = plan.props.find((p) => p.kind === 'chest')!;
        const up = plan.props.find((p) => p.kind === 'stairs')!;
        expect(Math.abs(chest.x - up.x) + Math.abs(chest.y - up.y), `${prompt} #${seed}`).toBeLessThanOrEqual(
          1,
        );
        expect(readLevelLayout(prompt).ignored, prompt).toEqual([]);
      }
    }
    // an ordinal the levels cannot draw is said
    expect(readLevelLayout('the second room of a dungeon holds a chest').ignored.join(' ')).toContain(
      'second',
    );
  });

  it('a clearing is a closed ring of trees round open grass, in a wood on a side too: no sector of the ring open', () => {
    // on main: "a clearing in a forest in the west" was a notch open to the east (1–4 of 16 sectors of
    // its rim with no tree), a glade on open grass a loose U (2 open on seed 4)
    for (const [prompt, seed] of [
      ['a clearing in a forest in the west', 1],
      ['a clearing in a forest in the west', 2],
      ['a sunny glade with flowers', 4],
    ] as const) {
      const { plan } = grown(prompt, seed);
      const cells = plan.regions.find((r) => r.kind === 'clearing')!.cells;
      const mx = cells.reduce((a, c) => a + (c % 40), 0) / cells.length;
      const my = cells.reduce((a, c) => a + Math.floor(c / 40), 0) / cells.length;
      const r = Math.sqrt(cells.length / Math.PI);
      const trees = plan.props.filter((p) => isTree(p.kind));
      const open: number[] = [];
      for (let k = 0; k < 16; k++) {
        const [a0, a1] = [(k / 16) * Math.PI * 2, ((k + 1) / 16) * Math.PI * 2];
        // a sector whose rim lies off the map is closed by the map's edge
        const [ex, ey] = [mx + Math.cos((a0 + a1) / 2) * (r + 1.5), my + Math.sin((a0 + a1) / 2) * (r + 1.5)];
        if (ex < 1 || ey < 1 || ex > 38 || ey > 29) continue;
        const held = trees.some((t) => {
          const d = Math.hypot(t.x - mx, t.y - my);
          const a = (Math.atan2(t.y - my, t.x - mx) + Math.PI * 2) % (Math.PI * 2);
          return d >= r - 0.5 && d <= r + 3 && a >= a0 && a < a1;
        });
        if (!held) open.push(k);
      }
      expect(open, `${prompt} #${seed}: open sectors`).toEqual([]);
      // and nothing grows inside it
      const inside = new Set(cells);
      expect(trees.filter((t) => inside.has(t.y * 40 + t.x))).toEqual([]);
    }
  });

  it('a dungeon with no count asked for differs by seed in its rooms: count, sizes and places', () => {
    // on main: four seeds gave four layouts, all of five rooms
    const layouts = [1, 2, 3, 4].map((seed) => grown('a dungeon', seed).plan.rooms);
    expect(new Set(layouts.map((r) => JSON.stringify(r))).size).toBe(4);
    expect(new Set(layouts.map((r) => r.length)).size).toBeGreaterThanOrEqual(2);
  });
});

describe('tiling', () => {
  it('every joint of a many-terrain map is allowed by its tiles’ lattices, and no tile holds three terrains', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const b = build(
        'a volcanic island with lava in the centre, rocks in the north and a path around it',
        seed,
        40,
        40,
      );
      const { columns, rows } = b.plan;
      for (let i = 0; i < columns * rows; i++) expect(b.map[i], `cell ${i}`).toBeGreaterThanOrEqual(0);
      for (let y = 0; y < rows; y++)
        for (let x = 0; x + 1 < columns; x++)
          expect(
            tilesMayTouch(
              b.tileset.tiles[b.map[y * columns + x]!]!,
              b.tileset.tiles[b.map[y * columns + x + 1]!]!,
              'x',
            ),
          ).toBe(true);
    }
  });

  it('an edge tile drawn four times never repeats along a straight shore, and every drawing joins as the first (decision 0149)', () => {
    const layout = readLevelLayout('a lake in a meadow');
    const art = flatArt(layout.terrains);
    // each pair's further drawings: the first drawing with a mark of 10·d in its middle pixel
    const marked = (image: RgbaImage, d: number) => {
      const data = new Uint8Array(image.data);
      data[(4 * 8 + 4) * 4] = (data[(4 * 8 + 4) * 4]! + 10 * d) % 256;
      return { ...image, data };
    };
    const pairs = art.pairs.map((p) => ({
      ...p,
      drawings: [1, 2, 3].map((d) => p.tiles.map((t) => marked(t, d))),
    }));
    for (const seed of [1, 2, 3, 4]) {
      const b = assembleLevel({ layout, columns: 40, rows: 30, tileSize: 8, seed, art: { ...art, pairs } });
      const { columns, rows } = b.plan;
      let longest = 0;
      let edges = 0;
      for (let y = 0; y < rows; y++)
        for (let x = 0; x < columns; x++) {
          const id = b.map[y * columns + x]!;
          if (new Set(b.tileset.tiles[id]!.lattice).size === 1) continue;
          edges++;
          for (const [dx, dy] of [
            [1, 0],
            [0, 1],
          ] as const) {
            let run = 1;
            while (b.map[(y + dy * run) * columns + x + dx * run] === id && x + dx * run < columns) run++;
            longest = Math.max(longest, run);
          }
        }
      expect(edges, `seed ${seed}`).toBeGreaterThan(20);
      expect(longest, `seed ${seed}: longest run of one edge drawing`).toBe(1);
      // the drawings are the edge tile's: its lattice, listed with it for the engines (LDtk's one rule)
      for (const [first, ids] of b.tileset.fullVariants)
        for (const id of ids) expect(b.tileset.tiles[id]!.lattice).toEqual(b.tileset.tiles[first]!.lattice);
      expect(checksOf(b).level_tile_rules?.passed).toBe(true);
    }
  });

  it('full tiles drawn four times break up the grid: appended after the other tiles, no drawing beside itself, the same map for the same seed, in every engine file', () => {
    const layout = readLevelLayout('a grassy meadow with a pond in the middle');
    const plain = flatArt(layout.terrains);
    // each terrain's variants: its colour, lighter by 10·k (flat art; the drawing is the generator's)
    const variants = layout.terrains.map((t) =>
      [1, 2, 3].map((k) =>
        flat(
          TERRAINS[t].color.map((v) => Math.min(255, v + 10 * k)),
          8,
        ),
      ),
    );
    const at = (seed: number, art: LevelArt) =>
      assembleLevel({ layout, columns: 32, rows: 24, tileSize: 8, seed, art });
    const before = at(3, plain);
    const b = at(3, { ...plain, variants });
    // the tiles there were keep their ids; the variants come after them, one full lattice each
    const n = before.tileset.tiles.length;
    expect(b.tileset.tiles.slice(0, n).map((t) => t.name)).toEqual(before.tileset.tiles.map((t) => t.name));
    // (then each edge tile's drawings with the variants' pixels where it shows a plain one, decision 0149)
    const appended = b.tileset.tiles.slice(n, n + 3 * layout.terrains.length);
    expect(appended.every((t) => new Set(t.lattice).size === 1)).toBe(true);
    const { columns, rows } = b.plan;
    const grass = layout.terrains.indexOf('grass');
    const full = (id: number) => new Set(b.tileset.tiles[id]!.lattice).size === 1;
    const shown = new Set<number>();
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < columns; x++) {
        const id = b.map[y * columns + x]!;
        // where the map had a full tile it has one of the same terrain; everything else is unchanged
        const was = before.map[y * columns + x]!;
        expect(b.tileset.tiles[id]!.lattice).toEqual(before.tileset.tiles[was]!.lattice);
        if (full(id) && b.tileset.tiles[id]!.lattice[0] === grass) shown.add(id);
        if (x > 0 && full(id)) expect(b.map[y * columns + x - 1], `cell ${x},${y}`).not.toBe(id);
        if (y > 0 && full(id)) expect(b.map[(y - 1) * columns + x], `cell ${x},${y}`).not.toBe(id);
      }
    expect(shown.size).toBe(4);
    expect(checksOf(b).level_tile_rules?.passed).toBe(true);
    expect(at(3, { ...plain, variants }).map).toEqual(b.map);
    expect(at(4, { ...plain, variants }).map).not.toEqual(b.map);
    // Tiled: the variants are tiles of the grass's Wang colour; LDtk: one rule places any of the drawings
    const ids = b.tileset.fullVariants.get(b.tileset.byCorners.get(`${grass},${grass},${grass},${grass}`)!)!;
    const tsx = levelTsx(b);
    const wangOf = (id: number) => tsx.match(new RegExp(`wangtile tileid="${id}" wangid="([^"]+)"`))?.[1];
    for (const id of ids) expect(wangOf(id)).toBe(wangOf(ids[0]!));
    const ldtk = JSON.parse(levelLdtk(b));
    const rules = ldtk.defs.layers.flatMap((l: any) => l.autoRuleGroups.flatMap((g: any) => g.rules));
    expect(rules.filter((r: any) => r.tileRectsIds.flat().includes(ids[1]))).toHaveLength(1);
    expect(rules.find((r: any) => r.tileRectsIds.flat().includes(ids[1])).tileRectsIds).toEqual(
      ids.map((i) => [i]),
    );
  });

  it("a textured fill does not repeat on the tile's period: its drawings also mirrored, where their seams allow (decision 0124)", () => {
    const layout = readLevelLayout('a grassy meadow with a pond in the middle');
    const s = 8;
    let state = 7;
    const rand = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 16) / 65536;
    };
    // a texture of rows (a step of 10 from row to row, round the tile and across its joints) with a
    // little grain in every pixel; each drawing keeps the plain one's outer ring (as the generator's do)
    const textured = (c: readonly number[], ring?: RgbaImage): RgbaImage => {
      const img = flat(c, s);
      for (let y = 0; y < s; y++)
        for (let x = 0; x < s; x++) {
          const i = (y * s + x) * 4;
          const edge = x === 0 || y === 0 || x === s - 1 || y === s - 1;
          const lift = 10 * (y < s / 2 ? y : s - y);
          for (let k = 0; k < 3; k++)
            img.data[i + k] =
              ring && edge ? ring.data[i + k]! : Math.min(255, c[k]! + lift + Math.floor(rand() * 6));
        }
      return img;
    };
    const art = flatArt(layout.terrains, s);
    const plains = layout.terrains.map((t) => textured(TERRAINS[t].color));
    const variants = plains.map((p, t) =>
      [1, 2, 3].map(() => textured(TERRAINS[layout.terrains[t]!].color, p)),
    );
    const b = assembleLevel({
      layout,
      columns: 32,
      rows: 24,
      tileSize: s,
      seed: 3,
      art: { ...art, plains, variants },
    });
    const grass = layout.terrains.indexOf('grass');
    const ids = b.tileset.fullVariants.get(b.tileset.byCorners.get(`${grass},${grass},${grass},${grass}`)!)!;
    // four drawings and their four mirror images, all on the map
    expect(ids).toHaveLength(8);
    expect(new Set(ids.map((id) => b.tileset.tiles[id]!.name.includes('_m'))).size).toBe(2);
    const { columns, rows } = b.plan;
    const used = new Set(Array.from(b.map));
    for (const id of ids) expect(used.has(id), b.tileset.tiles[id]!.name).toBe(true);
    // (the mirrors are there: each joined every drawing under the seam measure's goal)
    // of the pixel pairs one tile apart (across and down) in the grass, the share of one colour:
    // every drawing's ring alone is 28 of 64 pixels (0.44); a third or more was the repeat
    const isGrass = (cx: number, cy: number) => ids.includes(b.map[cy * columns + cx]!);
    let pairs = 0;
    let same = 0;
    // the tiles alone (the props scattered over the grass are the same sprite every time)
    const { data, width } = paintTiles(b.map, columns, rows, b.tileset);
    for (let y = 0; y < rows * s; y++)
      for (let x = 0; x < columns * s; x++)
        for (const [dx, dy] of [
          [s, 0],
          [0, s],
        ]) {
          const [x2, y2] = [x + dx!, y + dy!];
          if (x2 >= columns * s || y2 >= rows * s) continue;
          if (
            !isGrass(Math.floor(x / s), Math.floor(y / s)) ||
            !isGrass(Math.floor(x2 / s), Math.floor(y2 / s))
          )
            continue;
          pairs++;
          const [i, j] = [(y * width + x) * 4, (y2 * width + x2) * 4];
          if (data[i] === data[j] && data[i + 1] === data[j + 1] && data[i + 2] === data[j + 2]) same++;
        }
    expect(pairs).toBeGreaterThan(20000);
    expect(same / pairs).toBeLessThan(0.3);
  });

  it('a given blob47 tileset tiles the level by its own rules', () => {
    const layout = readLevelLayout('a meadow with a lake in the north and a clearing in the south', [
      'grass',
      'water',
    ]);
    const rules = tilesetRules('blob47');
    // the set's sheet: terrain 0 grass, 1 water; each tile coloured by its centre so the preview shows the rule
    const s = 8;
    const sheet = {
      width: rules.columns * s,
      height: rules.rows * s,
      data: new Uint8Array(rules.columns * s * rules.rows * s * 4),
    };
    for (const t of rules.tiles) {
      const c = TERRAINS[t.terrain ? 'water' : 'grass'].color;
      for (let y = 0; y < s; y++)
        for (let x = 0; x < s; x++)
          sheet.data.set(
            [c[0], c[1], c[2], 255],
            ((Math.floor(t.index / rules.columns) * s + y) * sheet.width +
              (t.index % rules.columns) * s +
              x) *
              4,
          );
    }
    const b = assembleLevel({
      layout,
      columns: 32,
      rows: 24,
      tileSize: s,
      seed: 2,
      art: { pairs: [], colors: [], props: flatArt(layout.terrains).props },
      sheet: { picture: sheet, kind: 'blob47', tileSize: s, terrains: ['grass', 'water'], taskId: 't1' },
    });
    expect(b.tileset.kind).toBe('blob47');
    expect(b.plan.terrain.width).toBe(32);
    const c = checksOf(b);
    expect(c.level_tile_rules?.passed, c.level_tile_rules?.detail).toBe(true);
    expect(c.level_placement?.passed, c.level_placement?.detail).toBe(true);
    // a water cell takes the blob tile of its 8 neighbours, a grass cell the plain tile
    const space = new LevelSpace('blob47', 32, 24, layout.terrains, b.plan.terrain);
    const water = layout.terrains.indexOf('water');
    for (let i = 0; i < 32 * 24; i++) {
      const tile = b.tileset.tiles[b.map[i]!]!;
      expect(tile.lattice[4]).toBe(space.grid.cells[i] === water ? water : layout.terrains.indexOf('grass'));
    }
  });
});

describe('params.level', () => {
  it.each([
    [{ columns: 7 }, /columns must be an integer from 8 to 256/],
    [{ rows: 300 }, /rows must be an integer from 8 to 256/],
    [{ tileSize: 65 }, /tileSize must be an integer from 8 to 64/],
    [{ columns: 256, tileSize: 32 }, /above 4096 px a side/],
    [{ terrains: ['grass'] }, /2 to 6 terrains/],
    [{ terrains: ['grass', 'plasma'] }, /"plasma" is not a terrain/],
    [{ terrains: ['grass', 'water'], tilesetTaskId: 't' }, /not both/],
    [{ size: 3 }, /params.level.size is not a known field/],
  ])('%j is refused', (level, message) => {
    expect(levelProblems(level).join('; ')).toMatch(message);
  });
  it('fills its defaults', () => {
    expect(levelParams(undefined)).toEqual({ columns: 32, rows: 32, tileSize: 16 });
  });
});
