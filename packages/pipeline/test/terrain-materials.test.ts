/**
 * Tile materials that read as their material (issue #39, decision 0071): each common ground is its
 * own pixel-art pattern — bricks in courses with staggered joints, cobbles as closed dark-gapped
 * stones, lava as a dark crust with a few glowing flow lines — that differs from the others in its
 * structure (not only its colour), still wraps without a seam, and is reached by its own words.
 */
import { describe, expect, it } from 'vitest';
import { oklab } from '../src/colour.js';
import { makeGrid } from '../src/level/grid.js';
import { LevelSpace } from '../src/level/space.js';
import { type LevelTileset, tileMap } from '../src/level/tiles.js';
import { PaletteMatcher, type Rgb } from '../src/palette.js';
import { Painter } from '../src/pixel/canvas.js';
import { Rng } from '../src/pixel/random.js';
import { resolveStyle } from '../src/style.js';
import { fullTileVariant, renderTerrainTiles } from '../src/terrain/render.js';
import { terrainTexture, variantTexture } from '../src/terrain/textures.js';
import { paintMap } from '../src/tileset/map.js';
import { tilesetRules } from '../src/tileset/rules.js';
import { measureSeams, SEAM_GOALS } from '../src/tileset/seams.js';
import { chooseTerrains, TERRAINS, type TerrainName } from '../src/tileset/terrains.js';

const painterOf = (palette?: string) => {
  const style = resolveStyle(palette ? { palette } : {}, '');
  return new Painter(style.palette, new PaletteMatcher(style.palette));
};
const PAINTER = painterOf();
const texture = (name: TerrainName, n: number, seed = 1, painter = PAINTER) =>
  terrainTexture(TERRAINS[name], n, new Rng(seed).fork('terrain-0'), painter);
const same = (a: Rgb, b: Rgb) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const lightness = (c: Rgb) => oklab(c)[0];
/** Lava's period correlation in a 6 × 6 seamless fill, 4 seeds (decision 0112: before 0.65, after 0.55). */
const LAVA_PERIOD = 0.58;

/** The pixels darker than the texture's own mean by a margin (its joints, gaps, cracks and shadows). */
function darkMask(name: TerrainName, n: number, seed = 1): Uint8Array {
  const t = texture(name, n, seed);
  const L = t.pixels.map(lightness);
  const mean = L.reduce((a, b) => a + b, 0) / L.length;
  const sd = Math.sqrt(L.reduce((a, b) => a + (b - mean) ** 2, 0) / L.length);
  return Uint8Array.from(L, (l) => (l < mean - 0.6 * sd ? 1 : 0));
}

/** The 4-connected regions of `mask === value` on the torus, as their sizes. */
function regions(mask: Uint8Array, n: number, value: number): number[] {
  const seen = new Uint8Array(mask.length);
  const sizes: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (seen[i] || mask[i] !== value) continue;
    let size = 0;
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const j = stack.pop()!;
      size++;
      const x = j % n;
      const y = Math.floor(j / n);
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const k = ((y + dy + n) % n) * n + ((x + dx + n) % n);
        if (!seen[k] && mask[k] === value) {
          seen[k] = 1;
          stack.push(k);
        }
      }
    }
    sizes.push(size);
  }
  return sizes;
}

describe('tile materials', () => {
  it('reads each material from its own words, the surface after it being that material', () => {
    const names = (prompt: string, n: 1 | 2 = 1) =>
      chooseTerrains({ userPrompt: prompt, tags: [], style: {} }, n).terrains.map((t) => t.name);
    for (const w of ['lava', 'magma', 'molten rock', 'a lava river', 'a river of molten magma'])
      expect(names(w), w).toEqual(['lava']);
    // a lava river is lava beside its usual bank, not lava and water
    expect(names('a lava river', 2)).toEqual(['lava', 'rock']);
    // one ground of a named place goes with the place's other ground, not a meadow's (decision 0082)
    expect(names('dungeon flagstones', 2)).toEqual(['stone', 'rock']);
    expect(names('desert sand', 2)).toEqual(['sand', 'rock']);
    for (const w of ['brick', 'bricks', 'a brick wall', 'red brick floor'])
      expect(names(w), w).toEqual(['brick']);
    for (const w of ['cobble', 'cobblestone', 'a cobblestone road', 'cobbles'])
      expect(names(w), w).toEqual(['cobble']);
    expect(names('flagstone floor')).toEqual(['stone']);
    // a forest's floor is its grass, never paving
    expect(names('forest floor')).toEqual(['grass']);
    expect(names('a jungle floor')).toEqual(['grass']);
    expect(names('a stone wall')).toEqual(['wall']);
    // a dungeon's or a castle's bricks are its grey laid stone, a house's stay red brick
    expect(names('a dungeon brick wall')).toEqual(['wall']);
    expect(names('castle bricks')).toEqual(['wall']);
    expect(names('a red brick wall')).toEqual(['brick']);
    const castle = chooseTerrains({ userPrompt: 'castle brick wall', tags: [], style: {} }, 1);
    expect(castle.interpretation.ignored).not.toContain('castle');
    expect(names('wooden planks')).toEqual(['wood']);
    expect(names('a wooden floor and grass', 2)).toEqual(['wood', 'grass']);
    expect(names('riveted metal plates')).toEqual(['metal']);
    expect(names('roof shingles')).toEqual(['roof']);
    expect(names('砖墙')).toEqual(['brick']);
    const choice = chooseTerrains({ userPrompt: 'a brick wall', tags: [], style: {} }, 1);
    expect(choice.interpretation.ignored).not.toContain('wall');
    expect(choice.interpretation.understood).toEqual(expect.arrayContaining(['brick', 'wall']));
  });

  it('brick: horizontal mortar rows a course apart, vertical joints staggered by half a brick', () => {
    for (const n of [16, 32]) {
      const t = texture('brick', n);
      const mortar = t.ramp.shadow;
      const at = (x: number, y: number) => t.at(x, y);
      const rows = Array.from({ length: n }, (_, y) => y).filter((y) =>
        Array.from({ length: n }, (_, x) => x).every((x) => same(at(x, y), mortar)),
      );
      expect(rows.length, `${n}`).toBeGreaterThanOrEqual(n / 8);
      const course = rows[1]! - rows[0]!;
      expect(rows.every((r, i) => i === 0 || r - rows[i - 1]! === course)).toBe(true);
      // the joints of each course: columns that are mortar through the course's face rows
      const joints = (top: number) =>
        Array.from({ length: n }, (_, x) => x).filter((x) =>
          Array.from({ length: course - 1 }, (_, v) => top + 1 + v).every((y) => same(at(x, y), mortar)),
        );
      const a = joints(rows[0]!);
      const b = joints(rows[1]!);
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBe(a.length);
      const brick = n / a.length;
      // bricks twice as long as a course is high, the next course's joints half a brick along
      expect(brick).toBe(2 * course);
      expect(b.map((x) => (x - a[0]! + n) % brick).sort()).toEqual(b.map(() => brick / 2));
    }
  });

  it('lava: warm everywhere, never a blue, a molten flow carrying darker crust plates — in every palette (decision 0104)', () => {
    // (decision 0082: a honeycomb of bright cracks over near-black crust; 0087: mostly dark crust
    // with thin seams read as "maroon carpet with glyph squiggles" to the blind review after 1130)
    for (const palette of [undefined, 'pico8', 'sweetie16', 'endesga32'])
      for (const n of [16, 32])
        for (const seed of [1, 3, 7]) {
          const t = texture('lava', n, seed, painterOf(palette));
          const at = `${palette} ${n} seed ${seed}`;
          for (const c of t.pixels) expect(c[2], `${at} ${c}`).toBeLessThanOrEqual(c[0]);
          const L = t.pixels.map(lightness);
          const mean = L.reduce((a, b) => a + b, 0) / L.length;
          // molten: the mean lightness of a glowing surface, not of a dark carpet
          // (decision 0123: dark crust plates split by bright cracks, no leopard print of pools: 0.46)
          expect(mean, at).toBeGreaterThan(0.42);
          // the cracks (orange to yellow) are a large share, the crust plates the larger
          const hot = t.pixels.filter((c) => c[0] > 180 && c[1] > 90 && c[2] < c[1]);
          expect(hot.length / t.pixels.length, at).toBeGreaterThan(0.22);
          expect(L.filter((l) => l < 0.45).length / L.length, at).toBeGreaterThan(0.45);
          // a yellow-hot core where the flow is widest: present, and not the whole flow
          const white = L.filter((l) => l > 0.85).length / L.length;
          expect(white, at).toBeGreaterThan(0.04);
          expect(white, at).toBeLessThan(0.16);
        }
  });

  it('snow is white with blue-grey shadows, ice a pale sheet with no hatch, in every palette (decision 0082)', () => {
    // a frozen pond is ice (the pond is the shape of the frozen water), beside snow
    expect(
      chooseTerrains({ userPrompt: 'a frozen pond and snow', tags: [], style: {} }, 2).terrains.map(
        (t) => t.name,
      ),
    ).toEqual(['ice', 'snow']);
    for (const palette of [undefined, 'pico8', 'sweetie16', 'endesga32'])
      for (const n of [16, 32]) {
        const painter = painterOf(palette);
        const snow = texture('snow', n, 3, painter);
        const whiteL = lightness(painter.lightest);
        // most of the snow is the palette's white (or within a step of it), never a cream or a sand
        const white = snow.pixels.filter((c) => lightness(c) > whiteL - 0.08 && c[0] - c[2] <= 32);
        expect(white.length / snow.pixels.length, `snow ${palette} ${n}`).toBeGreaterThan(0.6);
        // its shadows are cool: blue at least red
        for (const c of snow.pixels.filter((c) => lightness(c) <= whiteL - 0.08))
          expect(c[2], `snow shadow ${palette} ${c}`).toBeGreaterThanOrEqual(c[0] - 8);
        // ice: no two parallel diagonal streaks (the hatch that read as rippling water)
        const ice = texture('ice', n, 3, painter);
        const L = ice.pixels.map(lightness);
        let hatch = 0;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++) {
            const at = (dx: number, dy: number) => L[((y + dy + n) % n) * n + ((x + dx + n) % n)]!;
            const streak = (ox: number) => [0, 1, 2].every((i) => at(ox + i, -i) > at(ox + i, -i + 1) + 0.05);
            if (streak(0) && streak(2)) hatch++;
          }
        expect(hatch, `ice ${palette} ${n}`).toBe(0);
      }
  });

  it('snow beside ice: no edge darker than the two materials themselves — no dark pits along a shore (decision 0104)', () => {
    // (the blind review after 1130: snow and ice "stamp a row of dark pits along every north-facing
    // shoreline": the lower ground took its ramp's shadow under the higher one)
    for (const palette of [undefined, 'sweetie16'])
      for (const kind of ['wang16', 'blob47'] as const) {
        const painter = painterOf(palette);
        const rng = new Rng(5);
        const ice = terrainTexture(TERRAINS.ice, 16, rng.fork('terrain-0'), painter);
        const snow = terrainTexture(TERRAINS.snow, 16, rng.fork('terrain-1'), painter, [ice.ramp.base]);
        const floor = Math.min(
          ...[...ice.pixels, ...snow.pixels, ice.ramp.dark, snow.ramp.dark].map(lightness),
        );
        const tiles = renderTerrainTiles({
          tiles: tilesetRules(kind).tiles,
          size: 16,
          layers: [
            { spec: TERRAINS.ice, texture: ice },
            { spec: TERRAINS.snow, texture: snow },
          ],
          rng: rng.fork('tiles'),
        });
        let darker = 0;
        for (const tile of tiles)
          for (let i = 0; i < tile.data.length; i += 4) {
            const c: Rgb = [tile.data[i]!, tile.data[i + 1]!, tile.data[i + 2]!];
            if (lightness(c) < floor - 1e-9) darker++;
          }
        expect(darker, `${palette} ${kind}`).toBe(0);
      }
  });

  it('a fill of loose ground does not repeat on the tile period: the drawings share one pixel ring, not a 3 px band (decision 0104)', () => {
    // (the blind review after 1130: dirt and mud "show a fleck or puddle grid"): the correlation of
    // the fill's lightness at the tile period, over its mean at other offsets — 1 a wallpaper, 0 none
    const n = 16;
    const repetition = (name: TerrainName, seed: number) => {
      const rules = tilesetRules('seamless');
      const rng = new Rng(seed);
      const base = terrainTexture(TERRAINS[name], n, rng.fork('terrain-0'), PAINTER);
      const tiles = rules.tiles.map((rule) =>
        rule.variantOf === undefined
          ? { width: n, height: n, data: Uint8Array.from(base.pixels.flatMap((c) => [...c, 255])) }
          : fullTileVariant(
              base,
              variantTexture(TERRAINS[name], base, rng.fork(`v${rule.index}`), PAINTER),
              n,
            ),
      );
      const { image } = paintMap(tiles, rules, { columns: 6, rows: 6, seed });
      const W = image.width;
      const L = Array.from({ length: W * W }, (_, i) =>
        lightness([image.data[4 * i]!, image.data[4 * i + 1]!, image.data[4 * i + 2]!]),
      );
      const mean = L.reduce((a, b) => a + b, 0) / L.length;
      const r = (dx: number, dy: number) => {
        let s = 0;
        let a = 0;
        let b = 0;
        for (let y = 0; y + dy < W; y++)
          for (let x = 0; x + dx < W; x++) {
            const p = L[y * W + x]! - mean;
            const q = L[(y + dy) * W + x + dx]! - mean;
            s += p * q;
            a += p * p;
            b += q * q;
          }
        return s / Math.sqrt(a * b);
      };
      const others = [3, 5, 7, 9, 11, 13].map((d) => (r(d, 0) + r(0, d)) / 2);
      return (r(n, 0) + r(0, n)) / 2 - others.reduce((a, b) => a + b, 0) / others.length;
    };
    for (const name of ['dirt', 'snow'] as const) {
      const mean = [1, 2, 3, 4].reduce((a, seed) => a + repetition(name, seed), 0) / 4;
      // (before: dirt 0.73, snow 0.73)
      expect(mean, name).toBeLessThan(0.6);
    }
    // lava (decision 0112): a variant's plate field blends into the plain tile's at the edge, and the
    // joint is a middling column, not the calm channel of flow that drew a grid of orange lines
    const lava = [1, 2, 3, 4].reduce((a, seed) => a + repetition('lava', seed), 0) / 4;
    expect(lava).toBeLessThan(LAVA_PERIOD);
  });

  it("a level's full tile with 2 or 3 drawings is laid at random, not in diagonal stripes (decision 0104)", () => {
    // one grass field 40 × 40 (wang16: 41 × 41 corner points), its full tile drawn k times
    const columns = 40;
    const space = new LevelSpace(
      'wang16',
      columns,
      columns,
      ['grass'],
      makeGrid(columns + 1, columns + 1, 0),
    );
    for (const k of [2, 3]) {
      const set = {
        kind: 'wang16',
        byCorners: new Map([['0,0,0,0', 0]]),
        fullVariants: new Map([[0, Array.from({ length: k }, (_, i) => i)]]),
      } as unknown as LevelTileset;
      let diagonal = 0;
      let anti = 0;
      let pairs = 0;
      for (const seed of [1, 2, 3]) {
        const map = tileMap(space, set, seed);
        expect(new Set(map).size).toBe(k);
        for (let y = 0; y + 1 < columns; y++)
          for (let x = 1; x + 1 < columns; x++) {
            pairs++;
            if (map[y * columns + x] === map[(y + 1) * columns + x + 1]) diagonal++;
            if (map[y * columns + x] === map[(y + 1) * columns + x - 1]) anti++;
          }
      }
      // a drawing meets itself on a diagonal about as often as chance (1/k), not 75 % or always
      // (before: 3 drawings 0.75, 2 drawings 1.0: a checkerboard)
      for (const share of [diagonal / pairs, anti / pairs])
        expect(share, `${k} drawings`).toBeLessThan(1 / k + 0.12);
    }
  });

  it('stone, cobbles and a dungeon wall are grey, not a warm brick ramp; flagstones are irregular (decision 0087)', () => {
    const chroma = (c: Rgb) => Math.hypot(oklab(c)[1], oklab(c)[2]);
    for (const name of ['stone', 'cobble', 'wall'] as const)
      for (const n of [16, 32]) {
        const t = texture(name, n, 2);
        // green moss on a wall aside, every stone pixel is near neutral: no pink lights, no terracotta
        const stone = t.pixels.filter((c) => !(c[1] > c[0] && c[1] > c[2]));
        const mean = stone.reduce((a, c) => a + chroma(c), 0) / stone.length;
        expect(mean, `${name} ${n}`).toBeLessThan(0.035);
        const warm = stone.filter((c) => c[0] > c[2] + 24 && chroma(c) > 0.045);
        expect(warm.length, `${name} ${n}: warm pixels`).toBe(0);
      }
    // a dungeon wall is large dark blocks: its mean lightness below the middle, courses ≥ 6 px high
    const wall = texture('wall', 32, 2);
    expect(wall.pixels.reduce((a, c) => a + lightness(c), 0) / wall.pixels.length).toBeLessThan(0.5);
    const mortarRows = Array.from({ length: 32 }, (_, y) => y).filter((y) =>
      Array.from({ length: 32 }, (_, x) => x).every((x) => same(wall.at(x, y), wall.ramp.outline)),
    );
    expect(mortarRows.length).toBeGreaterThan(0);
    expect(mortarRows.length).toBeLessThanOrEqual(32 / 6);
    // flagstones: no joint runs straight through the tile (slabs are not laid in courses)
    for (const n of [16, 32])
      for (const seed of [1, 2, 3]) {
        const t = texture('stone', n, seed);
        const joint = (x: number, y: number) => lightness(t.at(x, y)) < lightness(t.ramp.dark) - 0.01;
        const straight = Array.from({ length: n }, (_, i) => i).filter(
          (i) =>
            Array.from({ length: n }, (_, j) => j).filter((j) => joint(j, i)).length >= 0.9 * n ||
            Array.from({ length: n }, (_, j) => j).filter((j) => joint(i, j)).length >= 0.9 * n,
        );
        expect(straight, `stone ${n} seed ${seed}`).toEqual([]);
      }
  });

  it('snow has soft drifts, no dashes: no run of shadow one pixel high between white rows (decision 0087)', () => {
    for (const n of [16, 32])
      for (const seed of [1, 2, 3]) {
        const t = texture('snow', n, seed);
        const top = t.pixels.reduce((a, c) => (lightness(c) > lightness(a) ? c : a));
        const white = (x: number, y: number) => same(t.at(x, y), top);
        let dashes = 0;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++) {
            const run = [0, 1, 2].every(
              (d) => !white(x + d, y) && white(x + d, y - 1) && white(x + d, y + 1),
            );
            if (run) dashes++;
          }
        expect(dashes, `snow ${n} seed ${seed}`).toBe(0);
        // and it is shaded at all: a drift, not a blank
        expect(t.pixels.filter((_, i) => !white(i % n, Math.floor(i / n))).length / (n * n)).toBeGreaterThan(
          0.05,
        );
      }
  });

  it('a swamp is drawn: its mud holds murky water and reeds, in every palette (decision 0087)', () => {
    const names = (prompt: string) =>
      chooseTerrains({ userPrompt: prompt, tags: [], style: {} }, 2).terrains.map((t) => t.name);
    expect(names('a swamp')).toContain('mud');
    expect(names('marsh and grass')).toEqual(['mud', 'grass']);
    expect(names('snowfield and frozen pond')).toEqual(['snow', 'ice']);
    // the bog's water is murky (green at least blue), the mud not a red-brown (decision 0104: "red
    // wasteland with clear blue ponds"); a lake's water stays blue
    const bog = chooseTerrains({ userPrompt: 'bog tiles', tags: [], style: {} }, 2).terrains;
    expect(bog.map((t) => t.name)).toEqual(['mud', 'water']);
    expect(bog[1]!.color[1]).toBeGreaterThanOrEqual(bog[1]!.color[2]);
    // (decision 0142: the olive mud fell on the default palette's teal and read as deep water) the
    // mud is brown — its drawn ground warm — and the swamp's water a hue and a value step from it
    const hue = (c: Rgb) => (Math.atan2(oklab(c)[2], oklab(c)[1]) * 180) / Math.PI;
    for (const palette of [undefined, 'pico8', 'endesga32']) {
      const p = painterOf(palette);
      const mud = terrainTexture(bog[0]!, 16, new Rng(1).fork('terrain-0'), p);
      const pond = terrainTexture(bog[1]!, 16, new Rng(1).fork('terrain-1'), p, [mud.ramp.base]);
      expect(mud.pixels.filter((c) => c[0] > c[2] + 8).length / 256, `${palette}: warm mud`).toBeGreaterThan(
        0.6,
      );
      const dh = Math.abs(((hue(mud.ramp.base) - hue(pond.ramp.base) + 540) % 360) - 180);
      expect(dh, `${palette}: mud/water hue`).toBeGreaterThan(90);
      expect(
        lightness(mud.ramp.base) - lightness(pond.ramp.base),
        `${palette}: water darker`,
      ).toBeGreaterThan(0.05);
    }
    const lake = chooseTerrains({ userPrompt: 'grass and a lake', tags: [], style: {} }, 2).terrains;
    expect(lake.find((t) => t.name === 'water')!.color).toEqual(TERRAINS.water.color);
    for (const palette of [undefined, 'pico8', 'sweetie16', 'endesga32'])
      for (const n of [16, 32]) {
        const t = texture('mud', n, 4, painterOf(palette));
        // standing water: cool pixels (blue at least red) on warm brown mud
        const water = t.pixels.filter((c) => c[2] >= c[0]);
        expect(water.length / t.pixels.length, `${palette} ${n}`).toBeGreaterThan(0.03);
        // reeds: green pixels
        const reeds = t.pixels.filter((c) => c[1] > c[0] + 12 && c[1] > c[2]);
        expect(reeds.length, `${palette} ${n}`).toBeGreaterThan(0);
      }
  });

  it('snow is shaded in a checker or a pale blue, never x and Y marks of one pixel in four (decision 0112)', () => {
    // (the blind review after 1130b: snow/ice "x/Y marks on a grid"; stone floor "floating dash
    // marks and speckle patches")
    for (const palette of [undefined, 'sweetie16'])
      for (const n of [16, 32])
        for (const seed of [1, 2, 3]) {
          const t = texture('snow', n, seed, painterOf(palette));
          const top = t.pixels.reduce((a, c) => (lightness(c) > lightness(a) ? c : a));
          const white = (x: number, y: number) => lightness(t.at(x, y)) >= lightness(top) - 0.02;
          // a shadow pixel with white all round it: a fleck, the stroke of an x or a Y
          let lone = 0;
          let shaded = 0;
          for (let y = 0; y < n; y++)
            for (let x = 0; x < n; x++) {
              if (white(x, y)) continue;
              shaded++;
              const round = [-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => [dx, dy] as const));
              if (round.every(([dx, dy]) => (dx === 0 && dy === 0) || white(x + dx, y + dy))) lone++;
            }
          expect(lone / Math.max(1, shaded), `snow ${palette} ${n} seed ${seed}`).toBeLessThan(0.25);
        }
  });

  it('cobble: closed stones of stone-like size, each ringed by dark gaps and lit by a highlight (decision 0112, 0142)', () => {
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
    const sizes: Record<number, number> = {};
    for (const n of [16, 32]) {
      const t = texture('cobble', n);
      const gap = Uint8Array.from(t.pixels, (c) => (same(c, t.ramp.outline) ? 1 : 0));
      const stones = regions(gap, n, 0);
      // (decision 0142: stones 3–5 px across, 25 to a 32 px tile, read as gravel or studs) about 8 px
      // across: 2–3 to a 16 px tile's width, 3–4 to a 32 px one's (before: 9 and 25 stones)
      sizes[n] = median(stones);
      const across = Math.sqrt(stones.length);
      expect(across, `${n}: stones across`).toBeGreaterThanOrEqual(n === 16 ? 1.9 : 2.9);
      expect(across, `${n}: stones across`).toBeLessThanOrEqual(n === 16 ? 3 : 4.2);
      // a highlight on the stones: pixels lighter than every face tone of the ramp
      const lit = t.pixels.filter((c) => lightness(c) > lightness(t.ramp.base) + 0.1).length;
      expect(lit, `${n}: highlights`).toBeGreaterThanOrEqual(stones.length * 0.6);
      for (const s of stones) {
        expect(s).toBeGreaterThanOrEqual(4);
        expect(s).toBeLessThanOrEqual(110);
      }
      // the gaps are one net (a stray dark pixel or two aside)
      const nets = regions(gap, n, 1);
      expect(Math.max(...nets) / nets.reduce((a, b) => a + b, 0)).toBeGreaterThan(0.7);
    }
    expect(sizes[16]).toBeGreaterThanOrEqual(20);
    expect(sizes[32]).toBeGreaterThanOrEqual(36);
  });

  it('laid stone reads clean: one mortar line a flagstone, no course of one shade a wall; basalt is dark rock (decision 0142)', () => {
    for (const n of [16, 32])
      for (const seed of [1, 2]) {
        // a flagstone's joint is one dark line with the light on one side: no slab face pixel in the
        // ramp's dark beside a joint (before: a dark line under and right of every slab, a double line)
        const t = texture('stone', n, seed);
        const joint = (x: number, y: number) => same(t.at(x, y), t.ramp.shadow);
        let doubled = 0;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++)
            if (same(t.at(x, y), t.ramp.dark) && (joint(x + 1, y) || joint(x, y + 1))) doubled++;
        expect(doubled, `stone ${n} seed ${seed}`).toBe(0);
        // a dungeon wall's courses: no course whose blocks' faces are all one shade other than the
        // plain one — a band across every tile (before: a 16 px course was one block, its darker
        // shade a teal band)
        const w = texture('wall', n, seed);
        // the middle row of each course (its top is lit, its bottom shaded, in every block)
        const mortar = Array.from({ length: n }, (_, y) => y).filter((y) =>
          Array.from({ length: n }, (_, x) => x).every((x) => same(w.at(x, y), w.ramp.outline)),
        );
        expect(mortar.length).toBeGreaterThan(0);
        for (const m of mortar) {
          const y = m + 4;
          const face = Array.from({ length: n }, (_, x) => w.at(x, y)).filter(
            (c) => !same(c, w.ramp.outline),
          );
          const dark = face.filter((c) => same(c, w.ramp.dark)).length / face.length;
          expect(dark, `wall ${n} seed ${seed} row ${y}`).toBeLessThan(0.6);
        }
      }
    // basalt is rock, dark (before: "basalt floor" drew grey flagstones)
    const basalt = chooseTerrains({ userPrompt: 'basalt floor', tags: [], style: {} }, 1).terrains[0]!;
    expect(basalt.name).toBe('rock');
    const b = terrainTexture(basalt, 32, new Rng(1).fork('terrain-0'), PAINTER);
    const rock = texture('rock', 32);
    const mean = (px: Rgb[]) => px.reduce((a, c) => a + lightness(c), 0) / px.length;
    expect(mean(b.pixels)).toBeLessThan(0.36);
    expect(mean(b.pixels)).toBeLessThan(mean(rock.pixels) - 0.1);
  });

  it('ice reads as ice, not water: paler, deeper-blue patches, long diagonal glints, a shore line against snow (decision 0117)', () => {
    // (the review after 1130b: "a frozen lake reads as open water", "ice in snow gets no shore")
    for (const palette of [undefined, 'sweetie16'])
      for (const n of [16, 32]) {
        const painter = painterOf(palette);
        const ice = texture('ice', n, 2, painter);
        const water = texture('water', n, 2, painter);
        const mean = (t: typeof ice) => t.pixels.reduce((a, c) => a + lightness(c), 0) / t.pixels.length;
        expect(mean(ice), `ice lighter than water ${palette} ${n}`).toBeGreaterThan(mean(water) + 0.08);
        // clear, deep patches from 32 px: a darker blue than the sheet on a tenth of it or more
        // (before: a crack's few pixels); a 16 px sheet stays calm (its few patches were wavelets
        // on every tile of a level)
        const baseL = lightness(ice.ramp.base);
        const deep = ice.pixels.filter((c) => lightness(c) < baseL - 0.05 && c[2] >= c[0]);
        if (n >= 32)
          expect(deep.length / ice.pixels.length, `ice depth ${palette} ${n}`).toBeGreaterThan(0.1);
        else expect(deep.length / ice.pixels.length, `ice calm ${palette} ${n}`).toBeLessThan(0.02);
        // a glint: a straight diagonal run, up to the right, of a quarter of the tile or more
        const lit = (x: number, y: number) => lightness(ice.at(x, y)) > baseL + 0.05;
        let longest = 0;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++) {
            let k = 0;
            while (k < n && lit(x + k, y - k)) k++;
            longest = Math.max(longest, k);
          }
        expect(longest, `ice glint ${palette} ${n}`).toBeGreaterThanOrEqual(Math.round(n * 0.25));
      }
    // ice set in snow: no pixel of the bare sheet touches the snow — a rim of the ice's deep blue
    // runs along every shore (before: the sheet met the snow directly)
    for (const palette of [undefined, 'endesga32'])
      for (const n of [16, 32]) {
        const painter = painterOf(palette);
        const rng = new Rng(5);
        const ice = terrainTexture(TERRAINS.ice, n, rng.fork('terrain-0'), painter);
        const snow = terrainTexture(TERRAINS.snow, n, rng.fork('terrain-1'), painter, [ice.ramp.base]);
        const masks: Uint8Array[] = [];
        const tiles = renderTerrainTiles({
          tiles: tilesetRules('wang16').tiles,
          size: n,
          layers: [
            { spec: TERRAINS.ice, texture: ice },
            { spec: TERRAINS.snow, texture: snow },
          ],
          rng: rng.fork('tiles'),
          masks,
        });
        let bare = 0;
        let rim = 0;
        // (decision 0129) no deep-blue patch within 3 px of the shore that is not the rim itself:
        // one that touched the rim read as a square hole punched through the ice's edge (before:
        // 32 px sets held them at the tips of the shore's scallops)
        let holes = 0;
        tiles.forEach((tile, k) => {
          const m = masks[k]!;
          const snowAt = (x: number, y: number) => x >= 0 && y >= 0 && x < n && y < n && m[y * n + x] === 1;
          for (let y = 0; y < n; y++)
            for (let x = 0; x < n; x++) {
              const i = (y * n + x) * 4;
              if (m[y * n + x] || !same([tile.data[i]!, tile.data[i + 1]!, tile.data[i + 2]!], ice.foam))
                continue;
              if (snowAt(x - 1, y) || snowAt(x + 1, y) || snowAt(x, y - 1) || snowAt(x, y + 1)) continue;
              let near = false;
              for (let dy = -3; dy <= 3; dy++)
                for (let dx = -3 + Math.abs(dy); dx <= 3 - Math.abs(dy); dx++)
                  if (snowAt(x + dx, y + dy)) near = true;
              if (near) holes++;
            }
        });
        expect(holes, `deep blue holes at the ice's shore ${palette} ${n}`).toBe(0);
        for (const tile of tiles) {
          const px = (x: number, y: number): Rgb => {
            const i = (y * n + x) * 4;
            return [tile.data[i]!, tile.data[i + 1]!, tile.data[i + 2]!];
          };
          for (let y = 0; y < n; y++)
            for (let x = 0; x < n; x++) {
              const c = px(x, y);
              if (same(c, ice.foam)) rim++;
              // a pixel of the bare sheet (its texture's own base, unchanged) beside a pixel of snow
              if (!same(c, ice.ramp.base) || !same(ice.at(x, y), c) || same(snow.at(x, y), c)) continue;
              for (const [dx, dy] of [
                [1, 0],
                [-1, 0],
                [0, 1],
                [0, -1],
              ] as const) {
                const u = x + dx;
                const v = y + dy;
                if (u < 0 || v < 0 || u >= n || v >= n) continue;
                const d = px(u, v);
                if (same(d, snow.at(u, v)) && !same(d, ice.at(u, v))) bare++;
              }
            }
        }
        expect(bare, `bare ice against snow ${palette} ${n}`).toBe(0);
        expect(rim, `shore rim ${palette} ${n}`).toBeGreaterThan(n * 4);
      }
  });

  it('snow has four tones where the palette has them — white, a pale blue-grey, a blue-grey and a deeper lee (decision 0117)', () => {
    // (before: three in endesga32 — its white, #c0cbdc and #8b9bb4; the default keeps its two
    // colours, from 32 px a solid shaded face beside the checkered lit face)
    for (const n of [16, 32])
      for (const seed of [1, 2, 3]) {
        const t = texture('snow', n, seed, painterOf('endesga32'));
        const tones = new Set(t.pixels.map((c) => c.join(',')));
        expect(tones.size, `endesga32 snow ${n} seed ${seed}`).toBeGreaterThanOrEqual(4);
        if (n < 32) continue;
        const d = texture('snow', n, seed);
        const shade = d.ramp.dark;
        // the default: a solid shaded face — blue-grey pixels with blue-grey below or beside them
        let solid = 0;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++)
            if (same(d.at(x, y), shade) && (same(d.at(x + 1, y), shade) || same(d.at(x, y + 1), shade)))
              solid++;
        expect(solid, `default snow shaded face ${n} seed ${seed}`).toBeGreaterThan(0);
      }
  });

  it('every material differs from every other in its structure, not only its colour', () => {
    const names = Object.keys(TERRAINS) as TerrainName[];
    const n = 32;
    const features = new Map(
      names.map((name) => {
        const m = darkMask(name, n);
        // runs of dark along rows and columns, the dark share, the regions of the rest
        let h = 0;
        let hr = 0;
        let v = 0;
        let vr = 0;
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            if (m[i * n + j] && !m[i * n + ((j + n - 1) % n)]) hr++;
            if (m[i * n + j]) h++;
            if (m[j * n + i] && !m[((j + n - 1) % n) * n + i]) vr++;
            if (m[j * n + i]) v++;
          }
        const light = regions(m, n, 0);
        // straight joints right through the tile (a grid of plates, courses of bricks)
        const through = (row: boolean) =>
          Array.from({ length: n }, (_, i) => i).filter((i) =>
            Array.from({ length: n }, (_, j) => j).every((j) => m[row ? i * n + j : j * n + i]),
          ).length;
        return [
          name,
          [
            h / Math.max(1, hr),
            v / Math.max(1, vr),
            h / (n * n),
            light.length,
            Math.max(...light) / (n * n),
            through(true),
            through(false),
          ],
        ] as const;
      }),
    );
    const differ = (a: readonly number[], b: readonly number[]) =>
      Math.max(...a.map((x, i) => Math.abs(x - b[i]!) / Math.max(Math.abs(x), Math.abs(b[i]!), 1e-9)));
    if (process.env.DEBUG_FEATURES)
      for (const [k, f] of features) console.log(k, f.map((x) => x.toFixed(3)).join(' '));
    const alike: string[] = [];
    for (const [i, a] of names.entries())
      for (const b of names.slice(i + 1))
        if (differ(features.get(a)!, features.get(b)!) <= 0.25) alike.push(`${a} ~ ${b}`);
    expect(alike).toEqual([]);
  });

  it('a seamless tile does not double its joint: its edge column and row differ from the opposite ones (decision 0123)', () => {
    // (the review: a stone floor's and a wall's left column equalled its right one, a 2 px joint at
    // every wrap; before: 32 of 32 stone and wall tiles) — brick, boards and plates may keep an
    // identical pair of plain face columns where every other pair is busier than the mean
    const doubled: string[] = [];
    for (const name of [
      'stone',
      'wall',
      'cobble',
      'rock',
      'roof',
      'grass',
      'dirt',
      'sand',
      'snow',
      'lava',
    ] as const)
      for (const n of [16, 32])
        for (const seed of n === 16 ? [1, 2] : [1]) {
          const t = texture(name, n, seed);
          const col = Array.from({ length: n }, (_, i) => same(t.at(0, i), t.at(n - 1, i))).every(Boolean);
          const row = Array.from({ length: n }, (_, i) => same(t.at(i, 0), t.at(i, n - 1))).every(Boolean);
          if (col || row) doubled.push(`${name} ${n} seed ${seed}`);
        }
    expect(doubled).toEqual([]);
  });

  it('a corner tile holds no island: each terrain reaches the tile from its edges, no chip of one in the other (decision 0123)', () => {
    // (the review: a swamp's SE-only corner tile had a grass chip inside its mud, a wedge that floated
    // off every grass island's corner; before: 378 of 1680 wang16 tiles over 7 pairs held one)
    const islands = (m: Uint8Array, n: number, keep: number) => {
      const seen = new Uint8Array(n * n);
      let count = 0;
      for (let s = 0; s < n * n; s++) {
        if (seen[s]) continue;
        const v = m[s]!;
        const stack = [s];
        seen[s] = 1;
        let open = false;
        let middle = false;
        while (stack.length) {
          const k = stack.pop()!;
          const x = k % n;
          const y = (k - x) / n;
          if (x === 0 || y === 0 || x === n - 1 || y === n - 1) open = true;
          if (k === (n >> 1) * n + (n >> 1)) middle = true;
          for (const [dx, dy] of [
            [1, 0],
            [-1, 0],
            [0, 1],
            [0, -1],
          ] as const) {
            const xx = x + dx;
            const yy = y + dy;
            const kk = yy * n + xx;
            if (xx >= 0 && yy >= 0 && xx < n && yy < n && !seen[kk] && m[kk] === v) {
              seen[kk] = 1;
              stack.push(kk);
            }
          }
        }
        if (!open && !(middle && v === keep)) count++;
      }
      return count;
    };
    const found: string[] = [];
    for (const [kind, a, b] of [
      ['wang16', 'mud', 'grass'],
      ['wang16', 'grass', 'dirt'],
      ['blob47', 'lava', 'rock'],
    ] as const)
      for (const n of a === 'mud' ? [16, 32] : [16])
        for (const seed of a === 'mud' ? [1, 2] : [1]) {
          const rules = tilesetRules(kind);
          const masks: Uint8Array[] = [];
          renderTerrainTiles({
            tiles: rules.tiles,
            size: n,
            layers: [
              { spec: TERRAINS[a], texture: texture(a, n, seed) },
              { spec: TERRAINS[b], texture: texture(b, n, seed + 7) },
            ],
            rng: new Rng(seed),
            masks,
          });
          masks.forEach((m, i) => {
            const rule = rules.tiles[i]!;
            if (islands(m, n, kind === 'blob47' ? rule.lattice[4]! : -1))
              found.push(`${a}/${b} ${n} ${rule.name}`);
          });
          // the SE-only corner: its terrain 1 is one region at its own corner
          if (kind === 'wang16') {
            const se = masks[rules.tiles.findIndex((r) => r.lattice.join() === '0,0,0,0,0.25,0.5,0,0.5,1')]!;
            expect(se[(n - 1) * n + n - 1], `${a}/${b} ${n}`).toBe(1);
          }
        }
    expect(found).toEqual([]);
  });

  it('a 32 px shore is a smooth curve, not a comb of teeth: a tile-wide line crosses it at most twice (decision 0134)', () => {
    // (the levels review: every 32 px path and rock edge tile had comb-like hanging teeth — the
    // shore's wander ran past the ramp into the flat edge band and stopped dead there. A grass/dirt
    // wang16 set at 32 px laid on a random 10 × 10 corner grid, 3 seeds: before, 6.5–16.5 % of the
    // tile-wide rows and columns that hold both terrains crossed the shore 3 times or more (mean 10.6 %),
    // after 0134 at most 9 %, mean under 7 %)
    const n = 32;
    const rules = tilesetRules('wang16');
    const shares: number[] = [];
    for (const seed of [1, 2, 3]) {
      const masks: Uint8Array[] = [];
      renderTerrainTiles({
        tiles: rules.tiles,
        size: n,
        layers: [
          { spec: TERRAINS.grass, texture: texture('grass', n, seed) },
          { spec: TERRAINS.dirt, texture: texture('dirt', n, seed + 7) },
        ],
        rng: new Rng(seed),
        masks,
      });
      const cells = 10;
      const rng = new Rng(seed + 100);
      const corner = Array.from({ length: (cells + 1) ** 2 }, () => (rng.chance(0.5) ? 1 : 0));
      const W = cells * n;
      const map = new Uint8Array(W * W);
      for (let cy = 0; cy < cells; cy++)
        for (let cx = 0; cx < cells; cx++) {
          const c = (x: number, y: number) => corner[(cy + y) * (cells + 1) + cx + x]!;
          const k = rules.tiles.findIndex(
            ({ lattice: l }) => l[0] === c(0, 0) && l[2] === c(1, 0) && l[6] === c(0, 1) && l[8] === c(1, 1),
          );
          for (let y = 0; y < n; y++)
            for (let x = 0; x < n; x++) map[(cy * n + y) * W + cx * n + x] = masks[k]![y * n + x]!;
        }
      let lines = 0;
      let comb = 0;
      for (const across of [true, false])
        for (let a = 0; a < W; a++)
          for (let t0 = 0; t0 < W; t0 += n) {
            let changes = 0;
            for (let t = t0 + 1; t < t0 + n; t++) {
              const p = across ? map[a * W + t]! : map[t * W + a]!;
              const q = across ? map[a * W + t - 1]! : map[(t - 1) * W + a]!;
              if (p !== q) changes++;
            }
            if (changes === 0) continue;
            lines++;
            if (changes >= 3) comb++;
          }
      shares.push(comb / lines);
    }
    expect(Math.max(...shares), shares.map((v) => v.toFixed(3)).join(' ')).toBeLessThan(0.09);
    expect(shares.reduce((a, b) => a + b, 0) / shares.length).toBeLessThan(0.07);
  });

  it('a path that steps stays one shape: in a Wang saddle tile the lower terrain runs on through the middle (decision 0134)', () => {
    // (the levels review: where a 32 px path stepped it split into two pieces touching only at a
    // corner; before, 8 of the 48 grass/dirt saddle tiles at 16 and 32 px, seeds 1–6, cut the dirt
    // in two)
    const split: string[] = [];
    for (const n of [16, 32])
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const rules = tilesetRules('wang16');
        const masks: Uint8Array[] = [];
        const rng = new Rng(seed);
        renderTerrainTiles({
          tiles: rules.tiles,
          size: n,
          layers: [
            { spec: TERRAINS.grass, texture: terrainTexture(TERRAINS.grass, n, rng.fork('a'), PAINTER) },
            { spec: TERRAINS.dirt, texture: terrainTexture(TERRAINS.dirt, n, rng.fork('b'), PAINTER) },
          ],
          rng: rng.fork('t'),
          masks,
        });
        rules.tiles.forEach(({ lattice: l, name }, i) => {
          if (l[0] !== l[8] || l[2] !== l[6] || l[0] === l[2]) return;
          // dirt (lower than grass) is terrain 1: one region
          if (regions(masks[i]!, n, 1).length !== 1) split.push(`${n} px seed ${seed} ${name}`);
        });
      }
    expect(split).toEqual([]);
  });

  it('a one-cell blob47 channel stays open and about half a tile wide at 16 px (decision 0134)', () => {
    // (the review: one-cell channels shrank to a 4 px trickle; before, seed 4's sand/water
    // blob_0x11 closed the river in two rows, width 0)
    const n = 16;
    const rules = tilesetRules('blob47');
    const widths: number[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const masks: Uint8Array[] = [];
      const rng = new Rng(seed);
      renderTerrainTiles({
        tiles: rules.tiles,
        size: n,
        layers: [
          { spec: TERRAINS.sand, texture: terrainTexture(TERRAINS.sand, n, rng.fork('a'), PAINTER) },
          { spec: TERRAINS.water, texture: terrainTexture(TERRAINS.water, n, rng.fork('b'), PAINTER) },
        ],
        rng: rng.fork('t'),
        masks,
      });
      rules.tiles.forEach(({ lattice: l }, i) => {
        const m = masks[i]!;
        if (l[1] === 1 && l[7] === 1 && l[3] === 0 && l[5] === 0)
          for (let y = 0; y < n; y++) widths.push(m.subarray(y * n, y * n + n).reduce((a, b) => a + b, 0));
        if (l[3] === 1 && l[5] === 1 && l[1] === 0 && l[7] === 0)
          for (let x = 0; x < n; x++)
            widths.push(Array.from({ length: n }, (_, y) => m[y * n + x]!).reduce((a, b) => a + b, 0));
      });
    }
    widths.sort((a, b) => a - b);
    expect(widths[0]).toBeGreaterThanOrEqual(4);
    expect(widths[widths.length >> 1]).toBeGreaterThanOrEqual(n / 2);
  });

  it('every material still wraps without a seam alone, and beside others as the goals ask (the supervisor redraws the rare set over)', () => {
    const names = Object.keys(TERRAINS) as TerrainName[];
    const seamless = tilesetRules('seamless');
    const wang = tilesetRules('wang16');
    let sets = 0;
    const over: string[] = [];
    for (const [i, name] of names.entries())
      for (const n of [8, 16, 32]) {
        const tex = texture(name, n, i + 1);
        const tiles = renderTerrainTiles({
          tiles: seamless.tiles,
          size: n,
          layers: [{ spec: TERRAINS[name], texture: tex }],
          rng: new Rng(i),
        });
        expect(measureSeams(tiles, seamless).worst, `${name} ${n}`).toBeLessThanOrEqual(SEAM_GOALS.worst);
        if (n === 8) continue;
        for (const step of [3, 7]) {
          const other = names[(i + step) % names.length]!;
          const pair = renderTerrainTiles({
            tiles: wang.tiles,
            size: n,
            layers: [
              { spec: TERRAINS[name], texture: tex },
              { spec: TERRAINS[other], texture: texture(other, n, i + step) },
            ],
            rng: new Rng(i),
          });
          const beside = measureSeams(pair, wang);
          sets++;
          expect(beside.mean, `${name}+${other} ${n}`).toBeLessThanOrEqual(SEAM_GOALS.mean);
          if (beside.worst > SEAM_GOALS.worst) over.push(`${name}+${other} ${n}: ${beside.worst.toFixed(2)}`);
        }
      }
    expect(sets).toBe(names.length * 4);
    // a set over the goal is redrawn by the pipeline's supervisor: it stays rare
    expect(over.length, over.join(', ')).toBeLessThanOrEqual(3);
  });
});
