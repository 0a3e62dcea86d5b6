import { indexOfByte, sharedUtf8, utf8Slice } from '@assetloom/text-bytes';
import { COMPOSITES, type CompositePart } from './composites.js';
import { DRAWINGS, SETS } from './generated/catalog.js';
import { drawingsConfig } from './load.js';

/** A set's Iconify prefix, or `assetloom` for drawings composed of theirs (a campfire). */
export type SetName = (typeof SETS)[number]['prefix'] | 'assetloom';

/** One drawing of one set, with the words that name it and what a render of it showed. */
export interface Drawing {
  /** `f/dog` (Fluent Emoji Flat), `n/dog` (Noto Emoji), `g/windmill` (game-icons.net). */
  readonly id: string;
  readonly set: SetName;
  /** The drawing's name in its Iconify set. */
  readonly name: string;
  /** English label: the emoji's CLDR annotation, or the icon's name in words. */
  readonly label: string;
  /** The nouns the label is about ("bow and arrow" → bow, arrow; "evergreen tree" → tree). */
  readonly heads: readonly string[];
  /** The label's other words and the emoji's English keywords. */
  readonly words: readonly string[];
  /** The emoji's Chinese annotation and keywords. */
  readonly zh: readonly string[];
  /** The emoji subgroup (animal-mammal, food-fruit, tool, …), or `icon` for game-icons. */
  readonly group: string;
  /** The drawing is cut by its own frame (a cow whose back is outside the picture). */
  readonly cropped: boolean;
  /** A round badge with the thing cut out of it (a disc with a flag-shaped hole): ranked last. */
  readonly knockout?: boolean;
  /** A head or a face only, not the whole animal. */
  readonly face: boolean;
  /** A person (jobs and fantasy people). */
  readonly person: boolean;
  /** A one-colour silhouette (game-icons): the generator colours it. */
  readonly silhouette: boolean;
  /** Where the eyes of a render are: a profile facing left or right, a front view, or unknown. */
  readonly facing: 'left' | 'right' | 'front' | 'unknown';
  /** The drawn part, in the icon's own units: x0, y0, x1, y1. */
  readonly box: readonly [number, number, number, number];
  /** The icon's own width and height units (its viewBox). */
  readonly size: readonly [number, number];
  /** Its main colour (the commonest colour with some chroma), sRGB. */
  readonly color: readonly [number, number, number];
  /** game-icons.net: the author (folder name in the game-icons repository). */
  readonly author?: string;
  /** A composite: the sets' drawings (and Assetloom's own markup) it is made of. */
  readonly parts?: readonly CompositePart[];
}

const FACING = { l: 'left', r: 'right', f: 'front', '?': 'unknown' } as const;
const SET_OF_KEY: Record<string, (typeof SETS)[number]> = Object.fromEntries(SETS.map((s) => [s.key, s]));

/** One row of the catalog (`id|label|heads|words|zh|group|flags|facing|box|rgb|author`) as a drawing. */
function decodeRow(row: string): Drawing {
  const [id, label, heads, words, zh, group, flags, facing, box, rgb, author] = row.split('|') as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    keyof typeof FACING,
    string,
    string,
    string,
  ];
  const slash = id.indexOf('/');
  const set = SET_OF_KEY[id.slice(0, slash)]!;
  return {
    id,
    set: set.prefix,
    name: id.slice(slash + 1),
    label,
    heads: heads ? heads.split(',') : [],
    words: words ? words.split(',') : [],
    zh: zh ? zh.split(',') : [],
    group,
    cropped: flags.includes('c'),
    ...(flags.includes('k') ? { knockout: true } : {}),
    face: flags.includes('h'),
    person: flags.includes('p'),
    silhouette: flags.includes('m'),
    facing: FACING[facing] ?? 'unknown',
    box: box.split(',').map(Number) as [number, number, number, number],
    size: [set.width, set.height],
    color: [0, 2, 4].map((i) => Number.parseInt(rgb.slice(i, i + 2), 16)) as [number, number, number],
    ...(author ? { author } : {}),
  };
}

const compositeDrawings: readonly Drawing[] = COMPOSITES.map((c) => ({
  id: c.id,
  set: 'assetloom',
  name: c.id.slice(2),
  label: c.label,
  heads: c.heads,
  words: c.words,
  zh: c.zh,
  group: c.group,
  cropped: false,
  face: false,
  person: false,
  silhouette: false,
  facing: c.facing ?? 'front',
  box: c.box,
  size: [32, 32],
  color: c.color,
  parts: c.parts,
}));

/**
 * The ways a drawing is looked up: its id, a head noun of its label, a Chinese word, its whole label,
 * or a word of its label other than its heads ("beer" of "beer mug"; not for composites).
 */
type Key = 'id' | 'head' | 'zh' | 'label' | 'labelWord';
const KEY_CODE: Record<Key, number> = { id: 1, head: 2, zh: 3, label: 4, labelWord: 5 };
const labelWords = (label: string) => label.split(/[\s-]+/);

/** Whether drawing `d` answers `key` = `word` (a hash's candidate checked against the drawing). */
function answers(d: Drawing, key: Key, word: string): boolean {
  switch (key) {
    case 'id':
      return d.id === word;
    case 'head':
      return d.heads.includes(word);
    case 'zh':
      return d.zh.includes(word);
    case 'label':
      return d.label === word;
    case 'labelWord':
      return labelWords(d.label).includes(word) && !d.heads.includes(word);
  }
}

/** FNV-1a over the key's kind and the word's UTF-16 code units. */
function hashOf(key: Key, word: string): number {
  let h = (0x811c9dc5 ^ KEY_CODE[key]) >>> 0;
  h = Math.imul(h, 0x01000193);
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The catalog as its text and a hash index of it (issue #38): the rows stay one text, as UTF-8 bytes
 * in one SharedArrayBuffer that every pipeline thread is handed (decision 0079; `sharedCatalog()`,
 * `configureDrawings({ catalog })`); the index holds, per lookup word, the rows that may answer it, in typed arrays
 * (about 0.3 MB for ~32,000 words); a row becomes a `Drawing` only when a lookup reaches it, and the
 * decoded drawings are kept in a bounded cache. Each pipeline thread used to parse all ~5,800 rows
 * into objects and five word maps at its first query (+7.7 MB of heap per thread).
 */
interface Index {
  /** Where each row starts in the catalog's bytes (one more: the end + 1). */
  rowStart: Int32Array;
  /** A bucket's entries: entries[bucketStart[b] .. bucketStart[b + 1]). */
  bucketStart: Int32Array;
  /** Per entry, in bucket order (rows in catalog order within a bucket): its word's full hash and its row. */
  hashes: Uint32Array;
  rows: Int32Array;
  mask: number;
}
let index: Index | null = null;

/** Decoded rows, the most recently used last; at most DECODED_MAX (a few hundred kB). */
const decoded = new Map<number, Drawing>();
const DECODED_MAX = 1024;
let decodes = 0;

/** How many rows have been decoded into drawings so far, and how many are held now (tests, benchmarks). */
export function catalogStats(): { rows: number; decodes: number; held: number } {
  return { rows: catalogIndex().rowStart.length - 1, decodes, held: decoded.size };
}

let bytes: Uint8Array | null = null;

/**
 * The catalog's rows as UTF-8 bytes, one SharedArrayBuffer made once from the module's text (the
 * same bytes for every caller): a server hands them to its pipeline threads, which read them in place
 * (`configureDrawings({ catalog })`) instead of holding the text in each thread's heap (issue #38).
 */
export function sharedCatalog(): Uint8Array {
  bytes ??= drawingsConfig().catalog ?? sharedUtf8(DRAWINGS());
  return bytes;
}

function rowText(i: number): string {
  const { rowStart } = catalogIndex();
  return utf8Slice(sharedCatalog(), rowStart[i]!, rowStart[i + 1]! - 1);
}

function rowDrawing(i: number): Drawing {
  const held = decoded.get(i);
  if (held) {
    decoded.delete(i);
    decoded.set(i, held);
    return held;
  }
  const d = decodeRow(rowText(i));
  decodes += 1;
  decoded.set(i, d);
  if (decoded.size > DECODED_MAX) decoded.delete(decoded.keys().next().value!);
  return d;
}

/** Builds the index once: one pass over the rows, no drawing decoded. */
function catalogIndex(): Index {
  if (index) return index;
  const text = sharedCatalog();
  const starts = [0];
  for (let at = indexOfByte(text, 0x0a); at >= 0; at = indexOfByte(text, 0x0a, at + 1)) starts.push(at + 1);
  starts.push(text.length + 1);
  const rowStart = Int32Array.from(starts);
  const entryHashes: number[] = [];
  const entryRows: number[] = [];
  const add = (key: Key, word: string, row: number) => {
    entryHashes.push(hashOf(key, word));
    entryRows.push(row);
  };
  for (let row = 0; row < rowStart.length - 1; row++) {
    const line = utf8Slice(text, rowStart[row]!, rowStart[row + 1]! - 1);
    const [id, label, heads, , zh] = line.split('|', 5) as [string, string, string, string, string];
    const headList = heads ? heads.split(',') : [];
    add('id', id, row);
    for (const h of headList) add('head', h, row);
    if (zh) for (const z of zh.split(',')) add('zh', z, row);
    add('label', label, row);
    for (const w of labelWords(label)) if (!headList.includes(w)) add('labelWord', w, row);
  }
  // about two entries a bucket
  let buckets = 1;
  while (buckets * 2 < entryHashes.length) buckets *= 2;
  const mask = buckets - 1;
  const bucketStart = new Int32Array(buckets + 1);
  for (const h of entryHashes) bucketStart[(h & mask) + 1]! += 1;
  for (let b = 0; b < buckets; b++) bucketStart[b + 1]! += bucketStart[b]!;
  const fill = bucketStart.slice(0, buckets);
  const hashes = new Uint32Array(entryHashes.length);
  const rows = new Int32Array(entryHashes.length);
  entryHashes.forEach((h, e) => {
    const at = fill[h & mask]!++;
    hashes[at] = h;
    rows[at] = entryRows[e]!;
  });
  index = { rowStart, bucketStart, hashes, rows, mask };
  return index;
}

/** The drawings that answer `key` = `word`: rows in catalog order, then composites (as the maps had them). */
export function lookup(key: Key, word: string): Drawing[] {
  const { bucketStart, hashes, rows, mask } = catalogIndex();
  const h = hashOf(key, word);
  const out: Drawing[] = [];
  for (let e = bucketStart[h & mask]!; e < bucketStart[(h & mask) + 1]!; e++) {
    if (hashes[e] !== h) continue;
    const d = rowDrawing(rows[e]!);
    if (answers(d, key, word)) out.push(d);
  }
  if (key !== 'labelWord')
    for (const c of compositeDrawings) {
      if (key === 'head' || key === 'zh') {
        for (const w of key === 'head' ? c.heads : c.zh) if (w === word) out.push(c);
      } else if (answers(c, key, word)) out.push(c);
    }
  return out;
}

/** Every drawing of the catalog (each row decoded; the list is not kept). */
export function allDrawings(): readonly Drawing[] {
  const all: Drawing[] = [];
  for (let row = 0; row < catalogIndex().rowStart.length - 1; row++) all.push(rowDrawing(row));
  return [...all, ...compositeDrawings];
}

/** One drawing by its id (`f/dog`), or undefined. */
export function drawingById(id: string): Drawing | undefined {
  return lookup('id', id)[0];
}

/** What a prompt asks to be drawn: its head noun and the words before it. */
export interface DrawingQuery {
  /** The head noun, as an English lemma ("tree"), or a Chinese word ("熊猫"). */
  head: string;
  /** Other words of the subject's phrase ("pine" in "a pine tree"), English lemmas or Chinese words. */
  modifiers?: readonly string[];
}

export interface DrawingMatch {
  drawing: Drawing;
  /** The drawing a game maker means by the noun (a curated choice, see TYPICAL). */
  typical?: boolean;
  /** Higher is better; a match scores at least 5. */
  score: number;
  /** How the head reached the drawing: its label's noun, its whole label, or an emoji keyword. */
  via: 'head' | 'label' | 'keyword';
}

/** Heads of labels that show what the label's other word names: a beer mug shows beer. */
const CONTAINERS = new Set([
  'mug',
  'glass',
  'bottle',
  'cup',
  'can',
  'jar',
  'bowl',
  'box',
  'bar',
  'face',
  'head',
]);

/**
 * The drawing a game maker means by a noun many drawings share, where the scores alone would pick
 * another: a chicken is the whole bird (the 🐔 emoji is its head), a tree is a leafy tree (not a
 * Christmas tree), a heart is the red one.
 */
const TYPICAL: Readonly<Record<string, readonly string[]>> = {
  chicken: ['f/rooster', 'n/rooster'],
  // an explosion is the burst of fire of 💥 (Unicode's "collision symbol"), not a silhouette that a
  // single colour turns into a splat (issue #39)
  explosion: ['f/collision', 'n/collision'],
  blast: ['f/collision', 'n/collision'],
  boom: ['f/collision', 'n/collision'],
  hen: ['f/rooster', 'n/rooster'],
  tree: ['f/deciduous-tree', 'n/deciduous-tree'],
  heart: ['x/heart', 'f/red-heart', 'n/red-heart'],
  // a gear or a cog is the even-toothed gear with a hole (decision 0110), not game-icons' cog
  gear: ['x/gear'],
  cog: ['x/gear'],
  齿轮: ['x/gear'],
  // a crystal ball is the seer's orb on its claw stand (decision 0136), not Fluent's snow globe
  水晶球: ['x/crystal-ball'],
  star: ['f/star', 'n/star'],
  house: ['f/house', 'n/house'],
  flower: ['f/hibiscus', 'f/blossom', 'n/blossom'],
  mask: ['f/performing-arts', 'g/carnival-mask'],
  motel: ['f/hotel'],
  road: ['f/motorway'],
  claw: ['g/bird-claw'],
  disc: ['f/optical-disk', 'g/compact-disc'],
  fish: ['f/fish', 'n/fish'],
  bird: ['f/bird', 'n/bird'],
  moon: ['f/crescent-moon', 'n/crescent-moon'],
  cloud: ['f/cloud', 'n/cloud'],
  sun: ['f/sun', 'n/sun'],
  car: ['f/automobile', 'n/automobile'],
  // a gear's teeth are square-cut (issue #39): the emoji's rounded lobes read as a flower at 32–64 px
  // staples (issue #39, decision 0083): Noto's jack-o'-lantern glows orange where Fluent's quantizes
  // to pink; a signpost is the wooden post with direction boards, a lamppost the street light
  'jack-o-lantern': ['n/jack-o-lantern', 'f/jack-o-lantern'],
  signpost: ['g/direction-sign'],
  guidepost: ['g/direction-sign'],
  fingerpost: ['g/direction-sign'],
  lamppost: ['g/street-light'],
  streetlight: ['g/street-light'],
  boat: ['f/sailboat', 'n/sailboat'],
  ship: ['f/sailboat', 'n/sailboat'],
  gem: ['f/gem-stone', 'n/gem-stone'],
  // a bottle in a game is a glass bottle, not the emoji sets' first (a baby's feeding bottle, issue #39)
  bottle: ['g/beer-bottle'],
  // (decision 0148: a hammer is a steel block with a flat face and a claw, a shield a heater shield
  // with a boss, a crown keeps its gems inside its band, an apple has a stem and a small leaf)
  apple: ['x/apple', 'f/red-apple', 'n/red-apple'],
  hammer: ['x/hammer'],
  mallet: ['x/mallet'],
  锤: ['x/hammer'],
  shield: ['x/shield'],
  盾牌: ['x/shield'],
  crown: ['x/crown'],
  key: ['f/key', 'n/key'],
  book: ['f/closed-book', 'n/closed-book'],
  // a potion is the round flask with its cork (decision 0105): the standing potion floats its flask over its stand
  potion: ['x/potion', 'g/round-potion'],
  stone: ['f/rock', 'n/rock'],
  ball: ['f/soccer-ball', 'n/soccer-ball'],
  sheep: ['f/ewe', 'n/ewe'],
  bee: ['f/honeybee', 'n/honeybee'],
  train: ['f/locomotive', 'n/locomotive'],
  lantern: ['g/old-lantern', 'g/lantern'],
  // a flag is cloth on a pole: the nations' silhouettes lose their cloth's edge (Brazil's is a
  // diamond with a disc), and the black flag is a badge (decision 0067)
  // (decision 0105: Assetloom's flag first, its pole solid steel with a lit edge; the flying flag's pole is hollow)
  flag: ['x/flag', 'g/flying-flag'],
  lock: ['f/locked', 'n/locked'],
  padlock: ['f/locked', 'n/locked'],
  cross: ['g/gothic-cross', 'g/jerusalem-cross'],
  armor: ['g/breastplate', 'g/chest-armor'],
  fence: ['g/wooden-fence'],
  tower: ['g/stone-tower', 'g/white-tower'],
  bridge: ['g/stone-bridge', 'g/arch-bridge'],
  gate: ['g/medieval-gate', 'g/gate'],
  wall: ['g/stone-wall', 'g/brick-wall'],
  tail: ['g/fox-tail'],
  hood: ['g/hood'],
  bride: ['f/person-with-veil', 'n/person-with-veil'],
  trunk: ['n/treasure-chest'],
  office: ['f/office-building', 'n/office-building'],
  hill: ['f/mountain', 'n/mountain'],
  ocean: ['f/water-wave', 'n/water-wave'],
  sea: ['f/water-wave', 'n/water-wave'],
  wave: ['f/water-wave', 'n/water-wave'],
  orange: ['f/tangerine', 'n/tangerine'],
  painting: ['f/framed-picture', 'n/framed-picture'],
  picture: ['f/framed-picture', 'n/framed-picture'],
  photo: ['f/framed-picture', 'n/framed-picture'],
  screen: ['f/desktop-computer', 'n/desktop-computer'],
  nurse: ['f/health-worker', 'n/health-worker'],
  doctor: ['f/health-worker', 'n/health-worker'],
  physician: ['f/health-worker', 'n/health-worker'],
  policeman: ['f/police-officer', 'n/police-officer'],
  police: ['f/police-officer', 'n/police-officer'],
  cop: ['f/police-officer', 'n/police-officer'],
  armour: ['g/breastplate', 'g/chest-armor'],
  rock: ['f/rock', 'n/rock'],
};

/** Fluent's flat colours pixelize best; a composite was put together for its subject on purpose. */
const SET_BONUS: Record<SetName, number> = {
  'fluent-emoji-flat': 1.5,
  noto: 1,
  'game-icons': 0,
  assetloom: 2,
};

/**
 * The drawings that show `head`, best first: a drawing whose label is about the head noun, or whose
 * whole label is the phrase, or (Chinese) whose annotation names it. Each word of the phrase the
 * drawing also names (its label or its keywords: "pine" for the evergreen tree) adds to the score;
 * words the drawing adds ("dog face" for "dog") take from it, as do drawings cut by their frame and
 * heads without bodies. Empty when no drawing shows the head: the caller refuses rather than drawing
 * something else.
 */
export function findDrawings(query: DrawingQuery): DrawingMatch[] {
  const head = query.head.toLowerCase();
  const modifiers = (query.modifiers ?? []).map((m) => m.toLowerCase()).filter((m) => m && m !== head);
  const phrase = [...modifiers, head].join(' ');
  const found = new Map<string, DrawingMatch>();
  const offer = (d: Drawing, base: number, via: DrawingMatch['via']) => {
    const labelWords = d.label.split(/[\s-]+/);
    let score = base + SET_BONUS[d.set];
    for (const m of modifiers)
      if (d.heads.includes(m) || d.words.includes(m) || labelWords.includes(m) || d.zh.includes(m))
        score += 3;
    // words of the label the prompt did not ask for ("face" in "dog face", "arrow" in "bow and arrow")
    for (const w of labelWords)
      if (w !== head && !modifiers.includes(w) && !d.heads.includes(w)) score -= 0.75;
    if (d.heads.length > 1) score -= 0.5;
    if (d.cropped) score -= 4;
    if (d.knockout) score -= 4;
    if (d.face) score -= 2;
    const prev = found.get(d.id);
    if (!prev || prev.score < score) found.set(d.id, { drawing: d, score, via });
  };
  for (const d of lookup('label', phrase)) offer(d, 14, 'label');
  // a composite whose hyphenated head is the phrase was made for it: it leads an emoji labelled by the
  // phrase (issue #39, decision 0138: "a racing car" was Fluent's emoji, not the race car of 0121)
  if (phrase.includes(' '))
    for (const d of lookup('head', phrase.replace(/ /g, '-')))
      if (d.set === 'assetloom') offer(d, 17, 'label');
  // the typical drawing of the noun leads when the phrase asks for nothing more particular
  if (modifiers.length === 0)
    (TYPICAL[head] ?? []).forEach((id, i) => {
      const d = drawingById(id);
      if (d) offer(d, 16 - i * 0.5, 'head');
      const m = d && found.get(d.id);
      if (m) m.typical = true;
    });
  for (const d of lookup('head', head)) offer(d, 10, 'head');
  // …and leads the head's drawings by a little when the phrase's words are ones no drawing names
  // ("a health heart" is the red heart, not the anatomical one; a word a drawing names still wins)
  const names = (d: Drawing, m: string) =>
    d.heads.includes(m) || d.words.includes(m) || d.label.split(/[\s-]+/).includes(m) || d.zh.includes(m);
  if (modifiers.length > 0 && ![...found.values()].some((f) => modifiers.some((m) => names(f.drawing, m))))
    (TYPICAL[head] ?? []).forEach((id, i) => {
      const d = drawingById(id);
      if (d) offer(d, 10.5 - i * 0.25, 'head');
    });
  // a container or a face named after what it holds or whose it is: "beer mug" shows beer, "wine
  // glass" wine (the label's own word, never an emoji keyword)
  if (!found.size)
    for (const d of lookup('labelWord', head))
      if (d.heads.some((h) => CONTAINERS.has(h))) offer(d, 8, 'label');
  // an emoji's Chinese annotation names it; a Chinese keyword only when it belongs to one emoji
  // (its two drawings). English keywords name no drawing: they are associations ("dinner" is a
  // keyword of the fish, "lake" of the speedboat), and a fish is no dinner. The generator reaches a
  // drawing through WordNet instead (a noun drawn as its hypernym: "tabby" as a cat).
  const zhHits = lookup('zh', head);
  for (const d of zhHits) offer(d, d.zh[0] === head ? 11 : zhHits.length <= 2 ? 6 : 0, 'keyword');
  return [...found.values()]
    .filter((m) => m.score >= 5)
    .sort((a, b) => b.score - a.score || (a.drawing.id < b.drawing.id ? -1 : 1));
}

/** Whether any drawing shows `head` (see `findDrawings`). */
export function canDraw(query: DrawingQuery): boolean {
  return findDrawings(query).length > 0;
}

/** Edits between two words, a swap of two neighbouring letters counting as one (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/**
 * Drawable head nouns spelt like `word` (a typo: "dargon" → dragon), nearest first. The generator's
 * own lexicon adds the nouns WordNet places near it.
 */
export function drawableLike(word: string, limit = 3): string[] {
  const w = word.toLowerCase();
  if (!/^[a-z]/.test(w)) return [];
  const max = w.length <= 4 ? 1 : w.length <= 7 ? 2 : 3;
  const scored: Array<[string, number, number]> = [];
  for (const [head, drawn] of drawableHeads()) {
    if (Math.abs(head.length - w.length) > max) continue;
    const d = editDistance(w, head);
    if (d <= max && d > 0) scored.push([head, d, drawn]);
  }
  // nearest first; among equals, the noun more drawings show (the commoner one)
  return scored
    .sort((a, b) => a[1] - b[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([h]) => h);
}

let headCounts: Map<string, number> | null = null;

/** Every head noun of the catalog, with how many drawings show it (read from the rows once, none decoded). */
export function drawableHeads(): ReadonlyMap<string, number> {
  if (headCounts) return headCounts;
  const out = new Map<string, number>();
  const count = (h: string) => out.set(h, (out.get(h) ?? 0) + 1);
  const { rowStart } = catalogIndex();
  for (let row = 0; row < rowStart.length - 1; row++) {
    const heads = rowText(row).split('|', 3)[2];
    if (heads) for (const h of heads.split(',')) count(h);
  }
  for (const c of compositeDrawings) for (const h of c.heads) count(h);
  headCounts = out;
  return out;
}
