/**
 * A level prompt read into a layout: what the level is, its biome, the features it asks for with
 * where the words put them, and the terrains it needs (words.ts holds the words).
 */
import { nounLemma, tokenize, wordClass } from '../interpret/index.js';
import { TERRAINS, type TerrainName } from '../tileset/terrains.js';
import {
  BASE_WORDS,
  BIOME_TERRAINS,
  BIOME_WORDS,
  type Biome,
  COUNT_WORDS,
  FEATURE_WORDS,
  type FeatureKind,
  type LevelBase,
  LINK_WORDS,
  PLACEMENT_WORDS,
  type Placement,
  SIZE_WORDS,
  UNDRAWN_WORDS,
  WINDING_WORDS,
} from './words.js';

/** A feature the prompt asks for. */
export interface FeatureRequest {
  kind: FeatureKind;
  /** Where the words put it (several for "rocks in the north and south"); empty: anywhere. */
  placements: Placement[];
  /** Rivers and paths: the side they start from and where they go (a side or a feature). */
  from: Placement | null;
  to: Placement | FeatureKind | null;
  /** How many ("six rooms", "ponds in the corners"). */
  count: number;
  /** Size factor from "small", "large", "dense". */
  scale: number;
  /** "the last room": the farthest room from the entrance. */
  last: boolean;
  /** "the first room", "the entrance room": the room the player starts in (decision 0143). */
  first?: boolean;
  /** The prompt's words for it. */
  words: string[];
  /** A lake or pond with an island in it ("a lake with an island", "an isle in a pond"; decision 0144). */
  isle?: boolean;
}

/** A feature the level has without the words asking for it (a dungeon's rooms, a farm's fields). */
function implied(kind: FeatureKind): FeatureRequest {
  return { kind, placements: [], from: null, to: null, count: 0, scale: 1, last: false, words: [] };
}

/** The terrain each role of a level is drawn with (indices into `LevelLayout.terrains`). */
interface TerrainRoles {
  ground: number;
  shore: number | null;
  water: number | null;
  sea: number | null;
  rock: number | null;
  path: number | null;
  floor: number | null;
  lava: number | null;
  /** A dungeon's walls: a ring of laid blocks round every room and corridor, the rock beyond. */
  wall: number | null;
  /** The ring round inland water: a lake's beach (sand in grass), an oasis's green (grass in sand). */
  bank: number | null;
}

export interface LevelLayout {
  base: LevelBase;
  biome: Biome;
  /** The level's terrains, in id order (the IntGrid values and Wang colours are id + 1). */
  terrains: TerrainName[];
  roles: TerrainRoles;
  features: FeatureRequest[];
  /** Size of the island(s) and the biome's features: "a small island" 0.8. */
  scale: number;
  understood: string[];
  /** Words read but not honoured, with why (a feature whose terrain the given tileset lacks). */
  ignored: string[];
  notes: string[];
}

/** Terrains a creature can walk on (water, lava and rock walls are not). */
export function isWalkable(name: TerrainName): boolean {
  return name !== 'water' && name !== 'freshwater' && name !== 'lava' && name !== 'rock' && name !== 'wall';
}

interface Hit {
  at: number;
  end: number;
  word: string;
  type: 'feature' | 'placement' | 'count' | 'size' | 'from' | 'to' | 'last' | 'prefix';
  value: string | number;
}

const ZH = /[\u3400-\u9fff]/;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place `word` occurs in `text` (English on word boundaries, plurals too; Chinese as written). */
function findAll(text: string, word: string, plural: boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (ZH.test(word)) {
    for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length))
      out.push([i, i + word.length]);
    return out;
  }
  const re = new RegExp(`(?<![a-z])${escapeRe(word)}${plural ? '(?:e?s)?' : ''}(?![a-z])`, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** The longest word of each table at each place; shorter words inside a longer one do not count. */
function scan(text: string): Hit[] {
  const hits: Hit[] = [];
  const add = (type: Hit['type'], value: string | number, words: readonly string[], plural = true) => {
    for (const word of words)
      for (const [at, end] of findAll(text, word, plural))
        hits.push({ at, end, word: text.slice(at, end), type, value });
  };
  for (const [kind, row] of Object.entries(FEATURE_WORDS)) add('feature', kind, [...row.en, ...row.zh]);
  for (const [place, row] of Object.entries(PLACEMENT_WORDS))
    add('placement', place, [...row.en, ...row.zh], false);
  for (const [word, n] of Object.entries(COUNT_WORDS)) add('count', n, [word], false);
  for (const [word, n] of Object.entries(SIZE_WORDS)) add('size', n, [word], false);
  add('from', 'from', LINK_WORDS.from.en, false);
  add('from', 'from', LINK_WORDS.from.zh, false);
  add('to', 'to', LINK_WORDS.to.en, false);
  add('to', 'to', LINK_WORDS.to.zh, false);
  add(
    'last',
    'last',
    ['last', 'final', 'farthest', 'furthest', 'deepest', 'end', '最后', '尽头', '最深'],
    false,
  );
  // "the first room", "the entrance hall": the room the player starts in (decision 0143); only a
  // room takes it ("a cave entrance" is a cave word, the longer hit)
  add('last', 'first', ['first', 'entrance', 'entry', 'starting', '第一', '入口'], false);
  add('prefix', 'around', ['surrounded by', 'encircled by', 'ringed by', 'bordered by', '被'], false);
  // longest first, a word as written before another's plural ("fields" is farmland, not two
  // clearings); drop hits inside a longer one
  const exact = (h: Hit) =>
    typeof h.value === 'string' &&
    h.type === 'feature' &&
    FEATURE_WORDS[h.value as FeatureKind]?.en.includes(h.word)
      ? 0
      : 1;
  hits.sort((a, b) => a.at - b.at || b.end - b.at - (a.end - a.at) || exact(a) - exact(b));
  const kept: Hit[] = [];
  for (const h of hits) {
    const inside = kept.find((k) => h.at >= k.at && h.end <= k.end);
    if (inside && !(inside.type === 'count' && h.type !== 'count')) continue;
    kept.push(h);
  }
  return kept.sort((a, b) => a.at - b.at);
}

/** The clauses of a prompt: features of one clause share its placement words. */
function clauses(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /[,.;:!?，。；：、]|\band\b|\bwith\b|\bbut\b|\bwhile\b|\bplus\b|和|并且|还有|以及|，|。/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  out.push([start, text.length]);
  return out.filter(([a, b]) => text.slice(a, b).trim().length > 0);
}

/**
 * Whether the prompt puts an island inside still water — "a lake with an island in it", "a pond
 * with a small isle", "a lake around an island", "an island in the middle of a lake", "湖中有岛" —
 * rather than water on an
 * island ("an island with a lake"): the level is then land round a lake holding an island (issue #39:
 * it grew an island with a lake, the order reversed, silently; decision 0144).
 */
function isleInWater(text: string): boolean {
  const water = [...FEATURE_WORDS.lake.en, ...FEATURE_WORDS.pond.en].join('|');
  const isle = BASE_WORDS.island.en.join('|');
  const zhWater = [...FEATURE_WORDS.lake.zh, ...FEATURE_WORDS.pond.zh].join('|');
  return (
    new RegExp(
      `\\b(${water})s?\\b[^,.;]*?\\b(with|around|round|surrounding|encircling|ringing)\\b[^,.;]*?\\b(${isle})\\b`,
    ).test(text) ||
    new RegExp(
      `\\b(${isle})\\b[^,.;]*?\\b(in|inside|within|amid|amidst|in the (middle|centre|center|heart) of|at the (middle|centre|center|heart) of|surrounded by)\\s+(an? |the )?([a-z]+ )?(${water})\\b`,
    ).test(text) ||
    new RegExp(`(${zhWater})(中|里|心|中间|中央)[^，。；]*岛`).test(text)
  );
}

function baseOf(text: string): LevelBase {
  const has = (row: { en: readonly string[]; zh: readonly string[] }, plural = false) =>
    [...row.en, ...row.zh].some((w) => findAll(text, w, plural).length > 0);
  if (has(BASE_WORDS.dungeon)) return 'dungeon';
  if (has(BASE_WORDS.archipelago)) return 'archipelago';
  // whichever the words name first: "an isle with a trail to a grotto" is an island with a cave
  // (issue #39: it grew a cave level), "a grotto on an island" a cave
  const first = (row: { en: readonly string[]; zh: readonly string[] }) =>
    Math.min(...[...row.en, ...row.zh].flatMap((w) => findAll(text, w, false).map(([at]) => at)), Infinity);
  const cave = first(BASE_WORDS.cave);
  // "a meadow with a grotto" is a meadow with a cave in it: a feature other than the waters a cave
  // holds named before the cave word makes it a feature, not the level
  const before = scan(text).some(
    (h) =>
      h.type === 'feature' && h.at < cave && !['cave', 'lake', 'pond', 'river'].includes(h.value as string),
  );
  if (
    (has(BASE_WORDS.cave) && cave < first(BASE_WORDS.island) && !before) ||
    /^\s*(an? |the )?(small |large |big |dark |deep |little |lava |magma |ice |icy |crystal |flooded |hidden |secret |mossy |volcanic )*cave(?! entrance)\b/.test(
      text,
    )
  )
    return 'cave';
  if (has(BASE_WORDS.island) && !isleInWater(text)) return 'island';
  return 'land';
}

function biomeOf(text: string): Biome {
  for (const [biome, row] of Object.entries(BIOME_WORDS) as Array<
    [Biome, { en: readonly string[]; zh: readonly string[] }]
  >) {
    // "lava in the centre" of an island is a feature; "volcanic" is the biome
    if (biome === 'volcanic' && !/volcan|火山/.test(text)) continue;
    if ([...row.en, ...row.zh].some((w) => findAll(text, w, false).length > 0)) return biome;
  }
  return 'grass';
}

/** The terrain a role is drawn with among the terrains at hand, by preference. */
const FALLBACKS: Readonly<Record<TerrainName, readonly TerrainName[]>> = {
  water: ['water', 'freshwater', 'ice', 'lava', 'mud'],
  freshwater: ['freshwater', 'water', 'ice', 'mud'],
  ice: ['ice', 'water', 'snow'],
  lava: ['lava', 'water'],
  sand: ['sand', 'dirt', 'snow', 'mud', 'grass', 'stone'],
  grass: ['grass', 'snow', 'sand', 'dirt', 'mud', 'stone'],
  dirt: ['dirt', 'stone', 'sand', 'mud', 'snow'],
  stone: ['stone', 'dirt', 'sand', 'snow'],
  mud: ['mud', 'dirt', 'sand', 'grass'],
  snow: ['snow', 'ice', 'grass', 'sand'],
  rock: ['rock', 'stone'],
  // never a floor: with no wall or rock at hand the rock itself is the wall
  wall: ['wall', 'rock'],
  cobble: ['cobble', 'stone', 'dirt'],
  brick: ['brick', 'stone', 'cobble'],
  wood: ['wood', 'dirt', 'stone'],
  metal: ['metal', 'stone'],
  roof: ['roof', 'brick'],
};

/**
 * Reads a level prompt into a layout. `given` is the terrains to use (a given tileset's, or
 * `params.level.terrains`): each role takes the nearest of them, and a feature none of them can draw
 * is named in `ignored`.
 */
export function readLevelLayout(prompt: string, given: readonly TerrainName[] | null = null): LevelLayout {
  const text = prompt.toLowerCase().replace(/\s+/g, ' ');
  const base = baseOf(text);
  const biome = biomeOf(text);
  const hits = scan(text);
  const features: FeatureRequest[] = [];
  const understood = new Set<string>();
  let scale = 1;
  for (const [a, b] of clauses(text)) {
    const inClause = hits.filter((h) => h.at >= a && h.end <= b);
    const own: FeatureRequest[] = [];
    let pendingCount: number | null = null;
    let pendingScale = 1;
    let pendingFrom = false;
    let pendingTo = false;
    let pendingAround = false;
    let pendingLast: false | 'last' | 'first' = false;
    let firstWord = '';
    let lastFeature: FeatureRequest | null = null;
    const loosePlacements: Placement[] = [];
    for (const h of inClause) {
      if (h.type === 'count') pendingCount = h.value as number;
      else if (h.type === 'size') pendingScale = h.value as number;
      else if (h.type === 'from') pendingFrom = true;
      else if (h.type === 'to') pendingTo = true;
      else if (h.type === 'last') {
        pendingLast = h.value === 'first' ? 'first' : 'last';
        firstWord = h.word;
      } else if (h.type === 'prefix') pendingAround = true;
      else if (h.type === 'feature') {
        const kind = h.value as FeatureKind;
        understood.add(h.word);
        if (pendingTo && lastFeature && (lastFeature.kind === 'path' || lastFeature.kind === 'river')) {
          lastFeature.to = kind;
          pendingTo = false;
          // the goal is a feature of its own too ("a path to a cave": the cave is there)
        }
        const plural = /s$/.test(h.word) && !FEATURE_WORDS[kind].en.includes(h.word);
        const f: FeatureRequest = {
          kind,
          placements: pendingAround || /^rocky (edge|border|rim)/.test(h.word) ? ['around'] : [],
          from: null,
          to: null,
          count: pendingCount ?? (plural || h.word === 'houses' ? 0 : 1),
          scale: pendingScale,
          last: pendingLast === 'last',
          words: [h.word],
        };
        if (pendingLast === 'first' && kind === 'rooms') {
          // "a chest in the first room": the thing before goes in the room the player starts in
          f.first = true;
          understood.add(firstWord);
          const prev = lastFeature ?? features.at(-1);
          if (prev) prev.first = true;
        } else if (pendingLast === 'last' && kind === 'rooms') {
          // "a chest in the last room": the thing before goes in the last room
          const prev = lastFeature ?? features.at(-1);
          if (prev) prev.last = true;
        }
        pendingAround = false;
        pendingCount = null;
        pendingScale = 1;
        pendingLast = false;
        // "forest clearing": the clearing is in the forest; keep both
        own.push(f);
        lastFeature = f;
      } else if (h.type === 'placement') {
        const place = h.value as Placement;
        understood.add(h.word);
        if (pendingFrom && lastFeature) {
          lastFeature.from = place;
          pendingFrom = false;
        } else if (pendingTo && lastFeature && lastFeature.from !== null) {
          lastFeature.to = place;
          pendingTo = false;
        } else if (
          pendingTo &&
          lastFeature &&
          (lastFeature.kind === 'path' || lastFeature.kind === 'river') &&
          lastFeature.placements.length > 0
        ) {
          // "a trail north to south": the side before "to" is where it starts (issue #39: it was read
          // as a path in the north and the south, and grew through the middle of neither)
          lastFeature.from = lastFeature.placements.pop()!;
          lastFeature.to = place;
          pendingTo = false;
        } else if (lastFeature) {
          if (!lastFeature.placements.includes(place)) lastFeature.placements.push(place);
          pendingTo = false;
        } else loosePlacements.push(place);
      }
    }
    // a placement before any feature belongs to the clause's first feature ("北边有森林"), or to the
    // previous clause's last one ("rocks in the north and south")
    if (loosePlacements.length) {
      const target = own[0] ?? features.at(-1);
      if (target)
        for (const p of loosePlacements) if (!target.placements.includes(p)) target.placements.unshift(p);
    }
    for (const f of own) {
      const same = features.find((g) => g.kind === f.kind);
      if (same) {
        for (const p of f.placements) if (!same.placements.includes(p)) same.placements.push(p);
        same.count = Math.max(same.count, f.count);
        same.scale = Math.max(same.scale, f.scale);
        same.from ??= f.from;
        same.to ??= f.to;
        same.last ||= f.last;
        same.words.push(...f.words);
      } else features.push(f);
    }
    // a size word before the level's own word ("a small island")
    const sizeHit = inClause.find((h) => h.type === 'size');
    if (sizeHit && own.length === 0) scale = sizeHit.value as number;
  }
  // a path to a feature the prompt does not otherwise name still gets it ("a path to a cave")
  for (const f of [...features]) {
    if (f.to && !(f.to in PLACEMENT_WORDS) && !features.some((g) => g.kind === f.to)) {
      features.push({
        kind: f.to as FeatureKind,
        placements: [],
        from: null,
        to: null,
        count: 1,
        scale: 1,
        last: false,
        words: [],
      });
    }
  }
  // base, biome and winding words are understood
  for (const row of [...Object.values(BASE_WORDS), ...Object.values(BIOME_WORDS), WINDING_WORDS])
    for (const w of [...row.en, ...row.zh])
      for (const [at, end] of findAll(text, w, false)) understood.add(text.slice(at, end));
  for (const w of ['door', 'doors', 'entrance', '门', 'grass', 'grassland', 'sea', '草'])
    for (const [at, end] of findAll(text, w, false)) understood.add(text.slice(at, end));
  // in a dungeon, rooms and corridors are always there; a cave base has no cave entrance feature
  if (base === 'dungeon') {
    if (!features.some((f) => f.kind === 'rooms')) features.push(implied('rooms'));
    if (!features.some((f) => f.kind === 'corridors')) features.push(implied('corridors'));
  }
  // a farm is a village with fields (issue #39: "a farm village" had houses and no farm)
  const farm = features.find((f) => f.kind === 'village' && f.words.some((w) => /farm|农场/.test(w)));
  if (farm && !features.some((f) => f.kind === 'fields')) features.push(implied('fields'));
  // a valley's cliffs are its sides ("a canyon pass between cliffs"), not a clump across its floor
  const valley = features.find((f) => f.kind === 'valley');
  const cliffs = features.find((f) => f.kind === 'mountain' && f.placements.length === 0);
  if (valley && cliffs) {
    valley.words.push(...cliffs.words);
    features.splice(features.indexOf(cliffs), 1);
  }
  // "a ravine with cliffs east and west": the cliffs on two sides are its walls and it is the floor
  // between them (issue #39: the valley grew nothing of its own beside them, and was said undrawn)
  const walls = features.find(
    (f) =>
      f.kind === 'mountain' &&
      f.placements.length >= 2 &&
      f.placements.every((p) => p === 'east' || p === 'west' || p === 'north' || p === 'south'),
  );
  if (valley && walls && features.includes(valley)) {
    walls.words.push(...valley.words);
    features.splice(features.indexOf(valley), 1);
  }
  // a pass is walked through (issue #39: a pass's path ran along its north edge, or there was none):
  // a path from one open end to the other, down the pass's middle, unless a path is placed already
  const pass = features.find(
    (f) => (f.kind === 'valley' || f.kind === 'mountain') && f.words.some((w) => /\bpass\b|山口/.test(w)),
  );
  if (pass && base === 'land') {
    const across = pass.placements.some((p) => p === 'north' || p === 'south');
    const [from, to]: [Placement, Placement] = across ? ['west', 'east'] : ['north', 'south'];
    const path = features.find((f) => f.kind === 'path');
    if (!path) features.push({ ...implied('path'), from, to });
    else if (path.from === null && path.to === null && path.placements.length === 0) {
      path.from = from;
      path.to = to;
    }
  }
  // "a lake with an island in it": the island is the lake's, the level is the land round it
  if (base === 'land' && isleInWater(text)) {
    const still = features.find((f) => f.kind === 'lake' || f.kind === 'pond');
    if (still) still.isle = true;
    for (const w of [...BASE_WORDS.island.en, ...BASE_WORDS.island.zh])
      for (const [at, end] of findAll(text, w, false)) still?.words.push(text.slice(at, end));
  }
  const kept = base === 'cave' ? features.filter((f) => f.kind !== 'cave') : features;
  const { terrains, roles, dropped, notes } = terrainsFor(base, biome, kept, given);
  const ignored: string[] = [];
  for (const f of dropped) ignored.push(...f.words);
  // places no level feature draws: said, not dropped ("a ruined fort" grows no fort)
  for (const w of [...UNDRAWN_WORDS.en, ...UNDRAWN_WORDS.zh])
    for (const [at, end] of findAll(text, w, false))
      if (!hits.some((h) => h.at <= at && h.end >= end) && base !== 'dungeon')
        ignored.push(`${text.slice(at, end)} (no level feature draws it)`);
  // any other thing the prompt names ("a crypt with a sarcophagus", "a village with a well"): no
  // level feature draws it, and it is said (issue #39: such words were dropped silently)
  // a village's square is a crossroads (growVillage's cross street), a river's road crosses it on a
  // bridge: said only where the level does not draw them (decision 0137)
  const drawnHere = (note: string) =>
    (/^crossroads? /.test(note) && features.some((f) => f.kind === 'village')) ||
    (/^crossings? /.test(note) &&
      features.some((f) => f.kind === 'river') &&
      features.some((f) => f.kind === 'path'));
  ignored.push(...unreadThings(text, hits, ignored, terrains, base).filter((n) => !drawnHere(n)));
  return {
    base,
    biome,
    terrains,
    roles,
    features: kept.filter((f) => !dropped.includes(f)),
    scale,
    understood: [...understood].filter((w) => !ignored.includes(w)),
    ignored,
    notes,
  };
}

/** The terrain a feature is drawn with, by role. */
function rolesNeeded(
  base: LevelBase,
  biome: Biome,
  features: readonly FeatureRequest[],
): Map<keyof TerrainRoles, TerrainName> {
  const t = BIOME_TERRAINS[biome];
  const need = new Map<keyof TerrainRoles, TerrainName>();
  if (base === 'dungeon') {
    need.set('ground', 'rock');
    need.set('floor', 'stone');
    need.set('rock', 'rock');
    need.set('wall', 'wall');
  } else if (base === 'cave') {
    need.set('ground', 'rock');
    need.set('floor', biome === 'snow' ? 'snow' : 'dirt');
    need.set('rock', 'rock');
  } else {
    need.set('ground', biome === 'volcanic' ? 'dirt' : t.ground);
    if (base === 'island' || base === 'archipelago') {
      need.set('sea', 'water');
      need.set('shore', biome === 'volcanic' ? 'rock' : t.shore === t.ground ? 'sand' : t.shore);
    }
  }
  for (const f of features) {
    if (f.kind === 'lake' || f.kind === 'pond' || f.kind === 'river')
      need.set(
        'water',
        base === 'cave' || base === 'dungeon'
          ? 'water'
          : // a lake or a pond is fresh water, never the sea's tile (issue #39: an island's lake
            // looked like the ocean); a river with one runs into it and is fresh too
            t.water === 'water' && features.some((g) => g.kind === 'lake' || g.kind === 'pond')
            ? 'freshwater'
            : t.water,
      );
    if ((f.kind === 'lake' || f.kind === 'pond') && base !== 'cave' && base !== 'dungeon') {
      // inland water gets a shore (issue #39: lakes met the grass with no beach)
      if (biome === 'grass') need.set('bank', 'sand');
      // an oasis in sand meets the sand itself, its palms round it (issue #39: a grass ring round
      // it made the desert read as a lawn); no middle terrain where the pair can meet
    }
    if (f.kind === 'sea') {
      need.set('sea', 'water');
      if (!need.has('shore')) need.set('shore', t.shore === t.ground ? 'sand' : t.shore);
    }
    // a clearing in a wood gets a trail in
    const trail = f.kind === 'clearing' && features.some((g) => g.kind === 'forest');
    if (f.kind === 'path' || f.kind === 'village' || f.kind === 'houses' || f.kind === 'fields' || trail)
      need.set(
        'path',
        base === 'dungeon'
          ? 'stone'
          : t.path === need.get('ground') || t.path === need.get('floor')
            ? 'stone'
            : t.path,
      );
    if (f.kind === 'cave' || f.kind === 'mountain' || f.kind === 'valley') need.set('rock', 'rock');
    if (f.kind === 'lava') need.set('lava', 'lava');
  }
  // a swamp is wet ground: pools of its water among the mud
  if (biome === 'swamp' && base !== 'dungeon' && base !== 'cave') need.set('water', t.water);
  if (biome === 'volcanic' && !need.has('lava') && base !== 'dungeon' && base !== 'cave')
    need.set('lava', 'lava');
  return need;
}

function terrainsFor(
  base: LevelBase,
  biome: Biome,
  features: readonly FeatureRequest[],
  given: readonly TerrainName[] | null,
): { terrains: TerrainName[]; roles: TerrainRoles; dropped: FeatureRequest[]; notes: string[] } {
  const need = rolesNeeded(base, biome, features);
  const notes: string[] = [];
  const pick = (want: TerrainName): TerrainName | null => {
    if (!given) return want;
    const found = FALLBACKS[want].find((t) => given.includes(t));
    if (found && found !== want)
      notes.push(`${want} is drawn as ${found} (the terrains at hand: ${given.join(', ')})`);
    return found ?? null;
  };
  const chosen = new Map<keyof TerrainRoles, TerrainName | null>();
  for (const [role, want] of need) chosen.set(role, pick(want));
  // the ground must exist: the first given terrain that is walkable, else the first
  if (chosen.get('ground') === null && given) chosen.set('ground', given.find(isWalkable) ?? given[0]!);
  const names = [...new Set([...chosen.values()].filter((v): v is TerrainName => v !== null))];
  if (given) for (const g of given) if (!names.includes(g)) names.push(g);
  names.sort((a, b) => TERRAINS[a].height - TERRAINS[b].height || a.localeCompare(b));
  const idOf = (role: keyof TerrainRoles) => {
    const name = chosen.get(role);
    return name === undefined || name === null ? null : names.indexOf(name);
  };
  const roles: TerrainRoles = {
    ground: idOf('ground') ?? 0,
    shore: idOf('shore'),
    water: idOf('water'),
    sea: idOf('sea'),
    rock: idOf('rock'),
    path: idOf('path'),
    floor: idOf('floor'),
    lava: idOf('lava'),
    wall: idOf('wall'),
    bank: idOf('bank'),
  };
  const dropped: FeatureRequest[] = [];
  for (const f of features) {
    const role: keyof TerrainRoles | null =
      f.kind === 'lake' || f.kind === 'pond' || f.kind === 'river'
        ? 'water'
        : f.kind === 'sea'
          ? 'sea'
          : f.kind === 'lava'
            ? 'lava'
            : f.kind === 'mountain' || f.kind === 'valley'
              ? 'rock'
              : null;
    if (role && roles[role] === null) {
      dropped.push(f);
      notes.push(`${f.words[0] ?? f.kind}: none of the terrains at hand (${names.join(', ')}) can draw it`);
    }
  }
  return { terrains: names, roles, dropped, notes };
}

/** Words of a level prompt about the map itself, not a thing on it. */
const MAP_WORDS = new Set(
  (
    'level map maps area areas place places region world land ground terrain tile tiles tileset middle ' +
    'centre center edge edges side sides part parts way ways start end top bottom spot zone scene game rpg ' +
    'view layout kind sort lot lots bit half third quarter number couple pair plenty size space rest ' +
    // what every level draws where it belongs: doors of rooms, bridges over water, stairs, the furnishing
    'door doors doorway bridge bridges stair stairs staircase torch torches barrel barrels ' +
    // words of where, that the lexicon files as nouns
    'along across around between beside near toward towards into onto over under within without far beyond ' +
    // words that describe, that the lexicon files as nouns (its "the open", "the old"): how the place
    // looks, not a thing in it
    'open wide vast old ancient wild lush narrow shallow'
  ).split(' '),
);

/**
 * Whether an unread word names a thing: a drawable noun of the lexicon, or any other word it files as
 * a noun or a place or does not know ("mangrove", "tombs", "bayou", "reef", "district"): issue #39,
 * decision 0138, such words were dropped unsaid because no drawable kind holds them.
 */
function namesThing(word: string): boolean {
  // a pronoun or a word standing for one ("a path around the lava that circles it"): the lexicon files
  // "it" (information technology) and "one" as nouns
  if (PRONOUNS.has(word)) return false;
  if (nounLemma(word) !== null) return true;
  const token = tokenize(word)[0];
  if (!token || token.zh) return false;
  const cls = wordClass(token);
  return cls === 'noun' || cls === 'place' || cls === 'unknown';
}

const PRONOUNS = new Set(
  (
    'it its itself they them their theirs themselves there here this that these those what which who ' +
    'whom whose something anything everything nothing someone anyone everyone one ones another other others'
  ).split(' '),
);

/** Names of the open grass a level of the grass biome stands on (the biome every level has by default). */
const GRASS_NAMES = new Set(
  'grass grassland grasslands meadow meadows field fields plain plains prairie prairies pasture pastures lawn lawns greenery'.split(
    ' ',
  ),
);

/**
 * The English nouns of `text` that no table read (no feature, base, biome, place, count or size word
 * covers them) and that are no word about the map itself nor a terrain the level draws (`drawn`): each
 * as "<word> (no level feature draws it)".
 */
function unreadThings(
  text: string,
  hits: readonly Hit[],
  said: readonly string[],
  drawn: readonly string[],
  base: LevelBase,
): string[] {
  // a dungeon's words only in a dungeon: "tombs" in a graveyard's meadow are no dungeon (decision 0138)
  const own = Object.entries(BASE_WORDS)
    .filter(([b]) => b !== 'dungeon' || base === 'dungeon')
    .map(([, row]) => row);
  const rows = [...own, ...Object.values(BIOME_WORDS), WINDING_WORDS];
  const covered: Array<[number, number]> = hits.map((h) => [h.at, h.end]);
  for (const row of rows) for (const w of row.en) covered.push(...findAll(text, w, true));
  const out: string[] = [];
  for (const m of text.matchAll(/[a-z][a-z'-]*[a-z]/g)) {
    const at = m.index ?? 0;
    const end = at + m[0].length;
    if (covered.some(([a, b]) => a <= at && b >= end)) continue;
    const word = m[0].replace(/'s$/, '');
    if (!namesThing(word)) continue;
    const lemma = nounLemma(word) ?? word;
    if (MAP_WORDS.has(lemma) || MAP_WORDS.has(word)) continue;
    // a terrain's own name ("grass", "sand") is drawn as that terrain, when the level has it ("an ice
    // rink level" was a meadow, its ice unsaid: 39aq found)
    if (lemma in TERRAINS && drawn.includes(lemma)) continue;
    // ... and so is open grass by another name, when the level stands on grass ("a grassland with a pond")
    if ((GRASS_NAMES.has(lemma) || GRASS_NAMES.has(word)) && drawn.includes('grass')) continue;
    const note = `${word} (no level feature draws it)`;
    if (!said.some((s) => s.startsWith(`${word} `)) && !out.includes(note)) out.push(note);
  }
  return out;
}
