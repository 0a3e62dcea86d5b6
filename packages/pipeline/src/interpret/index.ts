import { indexOfByte, sharedUtf8, utf8Slice } from '@assetloom/text-bytes';
import { promptSubjectPart } from '../prompt-sections.js';
import type {
  Action,
  AssetType,
  ColorWord,
  Interpretation,
  Scene,
  StyleMap,
  TimeOfDay,
  Weather,
} from '../types/index.js';
import {
  ADJECTIVES,
  CHINESE,
  COLORS,
  FEMALE,
  GLOSS_COLORS,
  GLOSS_FEATURES,
  NOUNS,
  PLURALS,
  SCENES,
  THINGS_ING,
} from './generated/lexicon.js';
import { type KindSpec, kindSpec } from './kinds.js';
import { regularSingulars } from './morph.js';

export {
  ACTIONS,
  type Action,
  type ColorWord,
  type Interpretation,
  SCENE_NAMES,
  type Scene,
  type TimeOfDay,
  type Weather,
} from '../types/interpretation.js';
export { type BodyPlan, type Feature, KINDS, type KindName, type KindSpec, kindSpec } from './kinds.js';

// ---- closed-class vocabulary ----------------------------------------------------------------
// (kept equal to scripts/lexicon-anchors.mjs WORDS, which feeds the Chinese forms of these words)
const MATERIALS: Record<string, [string, boolean]> = {
  wood: ['sienna', false],
  wooden: ['sienna', false],
  stone: ['gray', false],
  stony: ['gray', false],
  // (iron is a dark neutral grey; slate grey's blue read as steel-cyan: decision 0122)
  iron: ['dimgray', true],
  steel: ['lightsteelblue', true],
  metal: ['silver', true],
  metallic: ['silver', true],
  gold: ['gold', true],
  golden: ['gold', true],
  silver: ['silver', true],
  bronze: ['peru', true],
  copper: ['chocolate', true],
  crystal: ['lightskyblue', true],
  glass: ['lightcyan', true],
  ice: ['lightblue', true],
  icy: ['lightblue', true],
  bone: ['beige', false],
  leather: ['saddlebrown', false],
  fire: ['orangered', false],
  fiery: ['orangered', false],
  flame: ['orangered', false],
};
const TIMES: Record<string, TimeOfDay> = {
  night: 'night',
  midnight: 'night',
  nighttime: 'night',
  nocturnal: 'night',
  evening: 'dusk',
  dusk: 'dusk',
  sunset: 'dusk',
  twilight: 'dusk',
  dawn: 'dawn',
  sunrise: 'dawn',
  morning: 'dawn',
  noon: 'day',
  midday: 'day',
  day: 'day',
  daytime: 'day',
  sunny: 'day',
};
const WEATHER: Record<string, Weather> = {
  rain: 'rain',
  rainy: 'rain',
  raining: 'rain',
  storm: 'rain',
  stormy: 'rain',
  thunderstorm: 'rain',
  snowing: 'snow',
  snowfall: 'snow',
  snowy: 'snow',
  blizzard: 'snow',
  fog: 'fog',
  foggy: 'fog',
  mist: 'fog',
  misty: 'fog',
  haze: 'fog',
};
const ACTION_WORDS: Record<string, Action> = {
  idle: 'idle',
  idling: 'idle',
  standing: 'idle',
  stand: 'idle',
  walk: 'walk',
  walking: 'walk',
  walks: 'walk',
  run: 'run',
  running: 'run',
  runs: 'run',
  sprint: 'run',
  sprinting: 'run',
  attack: 'attack',
  attacking: 'attack',
  casting: 'attack',
  attacks: 'attack',
  slash: 'attack',
  slashing: 'attack',
  strike: 'attack',
  swing: 'attack',
  swinging: 'attack',
  swings: 'attack',
  slashes: 'attack',
  striking: 'attack',
  strikes: 'attack',
  chopping: 'attack',
  smashing: 'attack',
  fight: 'attack',
  fighting: 'attack',
  jump: 'jump',
  jumping: 'jump',
  jumps: 'jump',
  leap: 'jump',
  leaping: 'jump',
  hop: 'jump',
  hopping: 'jump',
  hurt: 'hurt',
  hit: 'hurt',
  damaged: 'hurt',
  wounded: 'hurt',
  death: 'death',
  die: 'death',
  dies: 'death',
  dying: 'death',
  dead: 'death',
  spin: 'spin',
  spins: 'spin',
  spinning: 'spin',
  rotate: 'spin',
  rotating: 'spin',
  turning: 'spin',
  twirling: 'spin',
  flicker: 'flicker',
  flickering: 'flicker',
  flickers: 'flicker',
  burn: 'flicker',
  burning: 'flicker',
  burns: 'flicker',
  blazing: 'flicker',
  crackling: 'flicker',
  lit: 'flicker',
  fly: 'fly',
  flying: 'fly',
  flies: 'fly',
  flapping: 'fly',
  soaring: 'fly',
  gliding: 'fly',
  float: 'float',
  floating: 'float',
  floats: 'float',
  hover: 'float',
  hovering: 'float',
  drifting: 'float',
  bobbing: 'float',
  glow: 'glow',
  glowing: 'glow',
  glows: 'glow',
  shining: 'glow',
  sparkling: 'glow',
  pulsing: 'glow',
  twinkling: 'glow',
};
/**
 * What things do, read as a verb after the subject even where WordNet also has the act as a noun ("a
 * flag fluttering" is a flag that flutters, never a compound "flag fluttering"); the generator draws
 * some of them (issue #39).
 */
const THING_VERBS = new Set([
  'fluttering',
  'billowing',
  'rippling',
  'swaying',
  'glittering',
  'glimmering',
  'shimmering',
  'gleaming',
  'bubbling',
  'boiling',
  'fizzing',
  'dripping',
  'opening',
  'closing',
]);
const SIZES: Record<string, number> = {
  tiny: 0.65,
  small: 0.8,
  little: 0.8,
  mini: 0.7,
  big: 1.15,
  large: 1.15,
  huge: 1.25,
  giant: 1.25,
  enormous: 1.25,
};
/** Size words of a held thing only ("a great sword", "a heavy axe"): of a subject they are no size. */
const HELD_SIZES: Record<string, number> = { ...SIZES, great: 1.25, heavy: 1.2, massive: 1.3 };
const TONE: Record<string, number> = { dark: -0.35, deep: -0.25, light: 0.35, pale: 0.4, bright: 0.15 };
/** Function words, and words about the medium rather than the subject (honoured by the style). */
const STOP = new Set(
  (
    'a an the of and or with without in on at to into onto from by for near under over inside behind ' +
    'beside above below its his her their this that some any very is are be being holding wielding ' +
    'carrying wearing riding using has have having while who which style styled pixel pixels pixelart art ' +
    'sprite sprites spritesheet sheet sheets game asset assets icon icons bit 8-bit 16-bit 32-bit retro ' +
    'background backgrounds scene ui tile tiles tileable seamless texture top-down topdown view side front ' +
    'frame frames animation animated cycle loop character-sprite x'
  ).split(' '),
);
/**
 * Words a UI piece draws: its kind, a bar's measure (its sign, decision 0136), a button's states (every
 * button sheet has them), a page's list of entries.
 */
const UI_WORDS =
  /^(button|btn|bar|health|hp|mana|magic|mp|stamina|energy|xp|exp|experience|loading|progress|slider|panel|window|frame|dialog|dialogs|dialogue|dialogues|menu|hover|hovered|pressed|disabled|list|按钮|血条|进度|条|面板|窗口)$/;
const GENERIC_SCENE_WORDS = new Set(['interior', '室内', '大厅']);
const HOLD = new Set(['with', 'holding', 'wielding', 'carrying', 'using']);
/**
 * Weapons and tools a figure holds whose noun the lexicon files as a drawing of its own or not at all
 * ("hammer", "club", "pickaxe", "katana"): after a holding word they are what the figure holds.
 */
const HELD_TOOLS = new Set(
  (
    'hammer warhammer sledgehammer mallet maul mace club cudgel pickaxe pick pitchfork katana ' +
    'greatsword longsword broadsword shortsword claymore rapier sabre saber scimitar cutlass blade ' +
    'hatchet halberd trident lance pike spear glaive staff wand sceptre scepter rod shield buckler ' +
    'torch lantern ladle dagger knife tome grimoire book pistol revolver musket rifle crossbow longbow'
  ).split(' '),
);
/** Words that count what follows "of" ("a stack of gold bars"): the thing drawn is what they count. */
const QUANTITY = new Set(
  'stack stacks pile piles heap heaps bunch bunches handful pair pairs set sets lot lots group groups couple row rows collection'.split(
    ' ',
  ),
);
/** Colour words that only name a colour, never the thing drawn ("red", "white": not a subject). */
const BASIC_COLOURS = new Set(
  'red yellow green blue purple violet pink brown black white gray grey cyan magenta'.split(' '),
);
/** The noun of a rig weapon feature, as `held` names it. */
const WEAPON_LEMMA: Readonly<Record<string, string>> = {
  sword: 'sword',
  staff: 'staff',
  bow: 'bow',
  dagger: 'dagger',
  club: 'club',
  cutlass: 'cutlass',
  pitchfork: 'pitchfork',
};
const PHRASE_END = new Set([
  'in',
  'on',
  'at',
  'near',
  'under',
  'inside',
  'behind',
  'beside',
  'above',
  'below',
  'from',
  'into',
  'riding',
  'wearing',
  'and',
]);
const ZH_STOP = new Set(
  '的 地 得 了 着 一 这 那 个 只 把 位 头 条 匹 座 辆 艘 张 在 和 与 及 里 中 上 下 是 有 一个 一只 一把 一位 一头 一条 一座 一辆 一艘 棵 株 朵 颗 枚 盏 栋 幢 一棵 一株 一朵 一颗 一枚 一盏 一栋 一幢 像素 风格 精灵 动画 游戏 素材 图 图标 背景 场景 色 拿 拿着 持 带 带着 骑 骑着 穿 穿着 戴 戴着 背 背着 正在 很 非常'.split(
    ' ',
  ),
);
/**
 * Numerals and demonstratives a Chinese measure word (量词) follows: "一面旗", "两只猫", "这座城堡". The
 * measure word after one is grammar, never content (issue #39, decision 0078): a word of its own,
 * never glued to the noun after it nor named as "not in the picture".
 */
const ZH_COUNT = new Set('一二两三四五六七八九十几这那每某哪'.split(''));
/**
 * Counts ("three trees", "两只猫"): one thing is drawn and the count is said not honoured; a count is
 * never a modifier of the head (it picked a "christmas tree" among the trees, or refused "两猫").
 */
const COUNTS = new Set(
  'two three four five six seven eight nine ten eleven twelve several many few dozen pair couple'.split(' '),
);
/** The English word of a count before a measure word; 一, 这, 那 are grammar (no word). */
const ZH_NUMERAL: Record<string, string> = {
  二: 'two',
  两: 'two',
  三: 'three',
  四: 'four',
  五: 'five',
  六: 'six',
  七: 'seven',
  八: 'eight',
  九: 'nine',
  十: 'ten',
  几: 'several',
  每: 'each',
  某: 'some',
  哪: 'which',
};
const ZH_MEASURE = new Set(
  '面 把 只 个 张 座 棵 株 条 头 匹 块 颗 粒 朵 顶 艘 辆 本 件 瓶 杯 堆 位 枚 盏 栋 幢 根 支 枝 片 扇 双 对 群 串 副 架 台 部 盒 袋 碗 盘 套 尾 口 间 封'.split(
    ' ',
  ),
);
const ZH_HOLD = new Set(['拿', '拿着', '持', '带', '带着']);
/**
 * Verbs that begin a clause describing the head noun after 的 ("穿红衣服的小女孩", "戴头盔的士兵",
 * "骑马的骑士"): the nouns up to 的 are what the subject wears, holds or rides, never the subject nor
 * a compound with it.
 */
const ZH_CLAUSE = new Set([...ZH_HOLD, '穿', '穿着', '戴', '戴着', '背', '背着', '骑', '骑着', '有']);

// ---- lexicon tables -------------------------------------------------------------------------
interface Lexicon {
  nouns: Map<string, string>;
  scenes: Map<string, Scene>;
  glossColors: Map<string, string>;
  glossFeatures: Map<string, string>;
  plurals: Map<string, string>;
  adjectives: Set<string>;
  female: Set<string>;
  thingsIng: Set<string>;
  chinese: Map<string, string>;
  colors: Map<string, string>;
  zhMaxLen: number;
}
let lexicon: Lexicon | null = null;

const LEXICON_NAMES: Record<keyof LexiconTexts, () => string> = {
  NOUNS,
  SCENES,
  GLOSS_COLORS,
  GLOSS_FEATURES,
  PLURALS,
  CHINESE,
  FEMALE,
  THINGS_ING,
  ADJECTIVES,
  COLORS,
};
/** The lexicon's generated lists (`interpret/generated/lexicon.ts`), by name, as UTF-8 bytes. */
export type LexiconTexts = Readonly<
  Record<
    | 'NOUNS'
    | 'SCENES'
    | 'GLOSS_COLORS'
    | 'GLOSS_FEATURES'
    | 'PLURALS'
    | 'CHINESE'
    | 'FEMALE'
    | 'THINGS_ING'
    | 'ADJECTIVES'
    | 'COLORS',
    Uint8Array
  >
>;
let lexiconTexts: LexiconTexts | null = null;

/**
 * The lexicon's lists as UTF-8 bytes, each one SharedArrayBuffer made once from the generated module
 * (the same bytes for every caller): a server hands them to its pipeline threads
 * (`configureLexicon`), which read them instead of making the module's text in each thread's heap
 * (issue #38, decision 0079).
 */
export function sharedLexicon(): LexiconTexts {
  if (!lexiconTexts) {
    const out: Partial<Record<keyof LexiconTexts, Uint8Array>> = {};
    for (const [name, text] of Object.entries(LEXICON_NAMES))
      out[name as keyof LexiconTexts] = sharedUtf8(text());
    lexiconTexts = out as LexiconTexts;
  }
  return lexiconTexts;
}

/** Reads the lexicon from these bytes (another thread's `sharedLexicon()`). Before the first interpretation. */
export function configureLexicon(texts: LexiconTexts): void {
  lexiconTexts = texts;
  lexicon = null;
}

/** Each `sep`-separated part of bytes[from, to), as [start, end) offsets. */
function* parts(bytes: Uint8Array, sep: number, from = 0, to = bytes.length): Generator<[number, number]> {
  if (from >= to) return;
  for (let at = from; ; ) {
    const end = indexOfByte(bytes, sep, at, to);
    if (end < 0) {
      yield [at, to];
      return;
    }
    yield [at, end];
    at = end + 1;
  }
}
const COLON = 0x3a;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const BAR = 0x7c;
// Each key and value is decoded on its own from the bytes: a Map of slices of one decoded list would
// keep the whole list alive in the thread's heap.
function grouped(bytes: Uint8Array): Map<string, string> {
  const m = new Map<string, string>();
  for (const [from, to] of parts(bytes, BAR)) {
    const colon = indexOfByte(bytes, COLON, from, to);
    const kind = utf8Slice(bytes, from, colon);
    for (const [a, b] of parts(bytes, COMMA, colon + 1, to)) m.set(utf8Slice(bytes, a, b), kind);
  }
  return m;
}
function pairs(bytes: Uint8Array): Map<string, string> {
  const m = new Map<string, string>();
  for (const [from, to] of parts(bytes, COMMA)) {
    const i = indexOfByte(bytes, EQUALS, from, to);
    m.set(utf8Slice(bytes, from, i), utf8Slice(bytes, i + 1, to));
  }
  return m;
}
function words(bytes: Uint8Array): Set<string> {
  const s = new Set<string>();
  for (const [from, to] of parts(bytes, COMMA)) s.add(utf8Slice(bytes, from, to));
  return s;
}
function lex(): Lexicon {
  if (lexicon) return lexicon;
  const t = sharedLexicon();
  const chinese = pairs(t.CHINESE);
  let zhMaxLen = 1;
  for (const w of chinese.keys()) zhMaxLen = Math.max(zhMaxLen, w.length);
  for (const w of ZH_STOP) zhMaxLen = Math.max(zhMaxLen, w.length);
  const scenes = grouped(t.SCENES) as Map<string, Scene>;
  scenes.set('snow', 'snow');
  lexicon = {
    nouns: grouped(t.NOUNS),
    scenes,
    glossColors: pairs(t.GLOSS_COLORS),
    glossFeatures: pairs(t.GLOSS_FEATURES),
    plurals: pairs(t.PLURALS),
    adjectives: words(t.ADJECTIVES),
    female: words(t.FEMALE),
    thingsIng: words(t.THINGS_ING),
    chinese,
    colors: pairs(t.COLORS),
    zhMaxLen,
  };
  return lexicon;
}

/** The lexicon's noun for a word: the word itself, its irregular singular, or a regular singular. */
export function nounLemma(word: string): string | null {
  const { nouns, plurals } = lex();
  if (nouns.has(word)) return word;
  const irregular = plurals.get(word);
  if (irregular) return irregular;
  for (const s of regularSingulars(word).slice(1)) if (nouns.has(s)) return s;
  return null;
}

function kindOf(lemma: string): { kind: string; spec: KindSpec } | null {
  const kind = lex().nouns.get(lemma);
  const spec = kind ? kindSpec(kind) : undefined;
  return kind && spec ? { kind, spec } : null;
}

/**
 * Where a CSS colour name is not what the word means in a prompt: CSS "brown" (#a52a2a) is a
 * maroon that a palette maps to red, so "a brown bear" came out red.
 */
const COLOR_WORD_FIXES: Readonly<Record<string, string>> = {
  brown: '8b5a2b',
};

/**
 * Materials whose CSS colour reads as another material: CSS "lightsteelblue" (b0c4de) is a sky blue,
 * and a steel blade drawn in it snapped to a palette's teal (issue #39, decision 0095): steel is a
 * light grey-blue, a step lighter and bluer than iron's slate grey.
 */
const MATERIAL_COLOR_FIXES: Readonly<Record<string, string>> = {
  steel: '9ba7b6',
};

/**
 * Animals whose gloss colour errs or is missing: the commonest coloured kind is not the animal's
 * colour ("red deer" made every deer red), or the gloss names none (penguins are black and white,
 * drawn with a white belly).
 */
const ANIMAL_COLOR_FIXES: Readonly<Record<string, string>> = {
  deer: '9a6a3c',
  penguin: '23232e',
  chicken: 'f2efe6',
  hen: 'f2efe6',
  duck: 'e8e4d8',
  goose: 'f2efe6',
  swan: 'ffffff',
  shark: '7d8a99',
  dolphin: '7f95ad',
  whale: '4d6a8c',
  parrot: '3cb043',
  eagle: '7a5230',
  owl: '9a7048',
  sheep: 'ece6d6',
  cow: 'f0ece4',
  pig: 'f2b6b6',
  horse: '8b5a2b',
  wolf: '8a8a92',
  raccoon: '85807a',
  squirrel: 'a0643c',
  bear: '7a4e2d',
};

/** The default colour WordNet's gloss gives a noun ("apple: fruit with red or yellow … skin"). */
export function glossColorOf(lemma: string): string | null {
  const fixed = ANIMAL_COLOR_FIXES[lemma];
  if (fixed) return `#${fixed}`;
  const css = lex().glossColors.get(lemma);
  return css ? `#${COLOR_WORD_FIXES[css] ?? lex().colors.get(css) ?? ''}` : null;
}

/** Whether a person noun is a woman or a girl (a princess, a witch, a bride): no beard, long hair. */
export function isFemale(lemma: string): boolean {
  return lex().female.has(lemma);
}

/** Shape words WordNet's gloss states for a noun ("big", "mane", "long-neck", "short", …). */
export function glossFeaturesOf(lemma: string): string[] {
  return lex().glossFeatures.get(lemma)?.split('+') ?? [];
}

export interface Token {
  /** As written (for `understood` / `ignored`). */
  text: string;
  /** English key: the word itself, or the English word a Chinese word maps to. */
  en: string;
  zh: boolean;
  known: boolean;
}

/**
 * The adjectives of fantasy peoples read as their nouns ("an elven archer" is an elf archer, "a
 * dwarven blacksmith" a dwarf blacksmith, as the nouns already were): the word was listed as not
 * honoured and the figure drawn as a plain person.
 */
const PEOPLE_ADJECTIVES: Readonly<Record<string, string>> = {
  elven: 'elf',
  elvish: 'elf',
  dwarven: 'dwarf',
  dwarvish: 'dwarf',
  orcish: 'orc',
  gnomish: 'gnome',
  goblinoid: 'goblin',
  trollish: 'troll',
};

/** Splits text into English words and Chinese words (forward maximum matching on the lexicon). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const re = /([a-z][a-z'-]*[a-z]|[a-z])|([\u3400-\u9fff]+)/g;
  // a size written in the prompt ("32px", "64 x 64", "16 pixels") is the request's resolution, no
  // word of the picture ("a steel sword 32px" was refused naming "sword px")
  const words = text.toLowerCase().replace(/\b\d+\s*(?:px|pixels?|x\s*\d+(?:\s*px)?)\b/g, ' ');
  for (const m of words.matchAll(re)) {
    if (m[1]) {
      const en = m[1].replace(/'s$/, '');
      out.push({ text: m[1], en: PEOPLE_ADJECTIVES[en] ?? en, zh: false, known: true });
      continue;
    }
    out.push(...segmentZh(m[2]!));
  }
  return out;
}

/**
 * One run of Chinese characters as words: forward maximum matching on the lexicon, unless matching
 * from the end leaves fewer characters no word covers. A noun phrase ends in its head, so the backward
 * reading keeps the head whole where the forward one swallows its first character into the word
 * before it ("戴头盔的士兵": forward 的士 a taxi and a stray 兵, backward 的 and 士兵 the soldier).
 */
function segmentZh(run: string): Token[] {
  const { chinese, zhMaxLen } = lex();
  // a measure word after a numeral or a demonstrative splits the run there, unless the lexicon has a
  // longer word starting at the numeral ("九头蛇" the hydra, "一杯奶")
  for (let i = 1; i < run.length; i++) {
    if (!ZH_COUNT.has(run[i - 1]!) || !ZH_MEASURE.has(run[i]!)) continue;
    let longer = false;
    for (let len = 3; len <= Math.min(zhMaxLen, run.length - i + 1) && !longer; len++)
      longer = chinese.has(run.slice(i - 1, i - 1 + len));
    if (longer) continue;
    const measure: Token = { text: run[i]!, en: '', zh: true, known: true };
    const after = run.slice(i + 1);
    // the numeral is a word of its own, read as its English one ("两只猫" is "two cats": a cat, and
    // "两" named as not in the picture), never glued to the noun as an unknown "两猫"
    const count = run[i - 1]!;
    const numeral: Token = { text: count, en: ZH_NUMERAL[count] ?? '', zh: true, known: true };
    const before = run.slice(0, i - 1);
    return [...(before ? segmentZh(before) : []), numeral, measure, ...(after ? segmentZh(after) : [])];
  }
  return segmentRun(run);
}

function segmentRun(run: string): Token[] {
  const { chinese, zhMaxLen } = lex();
  const known = (piece: string) => chinese.has(piece) || ZH_STOP.has(piece);
  const token = (hit: string): Token => ({
    text: hit,
    en: ZH_STOP.has(hit) ? '' : chinese.get(hit)!,
    zh: true,
    known: true,
  });
  const unknownToken = (text: string): Token => ({ text, en: '', zh: true, known: false });
  const forward: Token[] = [];
  let unknown = '';
  let missF = 0;
  for (let i = 0; i < run.length; ) {
    let hit = '';
    for (let len = Math.min(zhMaxLen, run.length - i); len >= 1; len--)
      if (known(run.slice(i, i + len))) {
        hit = run.slice(i, i + len);
        break;
      }
    if (!hit) {
      unknown += run[i];
      missF++;
      i++;
      continue;
    }
    if (unknown) forward.push(unknownToken(unknown));
    unknown = '';
    forward.push(token(hit));
    i += hit.length;
  }
  if (unknown) forward.push(unknownToken(unknown));
  if (!missF) return withNounSuffix(forward);
  const backward: Token[] = [];
  unknown = '';
  let missB = 0;
  for (let j = run.length; j > 0; ) {
    let hit = '';
    for (let len = Math.min(zhMaxLen, j); len >= 1; len--)
      if (known(run.slice(j - len, j))) {
        hit = run.slice(j - len, j);
        break;
      }
    if (!hit) {
      unknown = run[j - 1] + unknown;
      missB++;
      j--;
      continue;
    }
    if (unknown) backward.unshift(unknownToken(unknown));
    unknown = '';
    backward.unshift(token(hit));
    j -= hit.length;
  }
  if (unknown) backward.unshift(unknownToken(unknown));
  return withNounSuffix(missB < missF ? backward : forward);
}

/**
 * 子 after one character the lexicon has no word X子 for is that word's suffix ("钳子" pliers, "包子" a
 * bun), never a word of its own: read alone, 子 is a son (a person), and "一双靴子" drew a figure.
 */
function withNounSuffix(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const prev = out.at(-1);
    if (t.text === '子' && prev?.zh && prev.text.length === 1 && !ZH_STOP.has(prev.text)) {
      // X子 is a word of its own, not X's gloss ("包子" a bun, not 包 a cover): refused as itself
      out[out.length - 1] = { text: `${prev.text}子`, en: '', zh: true, known: false };
      continue;
    }
    out.push(t);
  }
  return out;
}

const SCENE_KEYS = ['scene', 'subject', 'mood', 'theme', 'biome'];

/**
 * What kind of word a token is, as the readers of a prompt tell phrases apart: a function word, a
 * word that ends a phrase ("in", "with", "and"), a colour or material, a time, weather, action or
 * size word, a place (scene) word, an adjective or verb form, a noun, or unknown.
 */
export type WordClass =
  | 'stop'
  | 'break'
  | 'colour'
  | 'material'
  | 'time'
  | 'weather'
  | 'action'
  | 'size'
  | 'place'
  | 'adjective'
  | 'noun'
  | 'unknown';
export function wordClass(token: { text: string; en: string; zh: boolean; known: boolean }): WordClass {
  const w = token.en;
  if (!token.known) return 'unknown';
  if (!w) return token.zh ? 'stop' : 'unknown';
  if (!token.zh && (PHRASE_END.has(w) || HOLD.has(w))) return 'break';
  if (STOP.has(w) || w in TONE) return 'stop';
  if (MATERIALS[w]) return 'material';
  const { scenes, colors: css, adjectives, thingsIng } = lex();
  if ((COLOR_WORD_FIXES[w] ?? css.get(w)) && !nounLemma(w)?.length) return 'colour';
  if (TIMES[w]) return 'time';
  if (WEATHER[w]) return 'weather';
  if (ACTION_WORDS[w]) return 'action';
  if (SIZES[w] !== undefined) return 'size';
  if (scenes.has(w)) return 'place';
  if (!token.zh && ((/(ing|ed|ly)$/.test(w) && !thingsIng.has(w)) || adjectives.has(w))) return 'adjective';
  // an English word the lexicon does not class otherwise names a thing (a drawer decides if it can draw it)
  return 'noun';
}

/** The scene a place word names ("forest", "森林" through its English), if it names one. */
export function sceneOf(word: string): Scene | undefined {
  return lex().scenes.get(word);
}

/** Lower-cased text the generator reads: raw prompt, tags and scene-like style values. */
export function subjectText(request: {
  userPrompt: string;
  tags: readonly string[];
  style: StyleMap;
}): string {
  const { style } = request;
  const extra = SCENE_KEYS.map((k) => style[k] ?? '').join(' ');
  return `${promptSubjectPart(request.userPrompt)} ${request.tags.join(' ')} ${extra}`
    .toLowerCase()
    .replace(PALETTE_PHRASE, ' ')
    .replace(ELIDED_HYPHEN, '');
}

/**
 * An apostrophe that marks an elision inside a hyphenated word ("jack-o'-lantern", "will-o'-the-wisp",
 * curly or straight) is dropped: the lexicon spells them "jack-o-lantern" (issue #39: the apostrophe
 * split the word and the task was refused while "jack-o-lantern" was offered).
 */
const ELIDED_HYPHEN = /(?<=-[a-z]{1,3})['’](?=-)/g;

/**
 * A palette named in the prompt ("with the pico-8 palette", "pico8", "sweetie 16 colours", "调色板")
 * says how to colour the picture, never what to draw (issue #39: "pico" drew a spike).
 */
const PALETTE_PHRASE =
  /(?:\b(?:with|in|using)\s+(?:the\s+|a\s+)?)?(?:\b(?:pico[\s-]?8|sweetie[\s-]?16|endesga[\s-]?32|(?:pico|sweetie|endesga|gameboy|game\s+boy|dmg|nes|famicom|limited|restricted|custom)(?=\s+(?:palette|colou?rs?)))\b(?:\s+(?:palette|colou?rs?))?|(?<!\b(?:artist|artist's|artists|paint|painter's|painters|wooden)\s+)\b(?:colou?r\s+)?palette\b)|(?:使用|用)?\s*(?:pico-?8\s*)?调色板/g;

export interface InterpretInput {
  assetType: AssetType;
  userPrompt: string;
  tags: readonly string[];
  style: StyleMap;
}

const hexOf = (rgb: readonly number[]) =>
  `#${rgb
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
function toned(hex: string, tone: number): string {
  const v = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return hexOf(v.map((c) => (tone < 0 ? c * (1 + tone) : c + (255 - c) * tone)));
}

type Noun = { text: string; lemma: string; kind: string; spec: KindSpec; phrase: number; held: boolean };

/** Every word that could name the subject, in order: known nouns and words no table knows. */
type ContentWord = {
  text: string;
  en: string;
  zh: boolean;
  phrase: number;
  known: boolean;
  /** A verb's or adjective's form ("breathing", "polar"): a modifier, never the head. */
  modifierOnly?: boolean;
};

/** What `interpret` has read so far: the words sorted by what they say, and where the reading is. */
interface Reading {
  tokens: Token[];
  sprite: boolean;
  result: Interpretation;
  understood: string[];
  ignored: string[];
  colors: ColorWord[];
  nouns: Noun[];
  phrase: number;
  holding: boolean;
  tone: number;
  /** The colour words waiting for the noun they stand before (English word order), and what they found. */
  pendingColours: ColorWord[];
  colourNoun: Map<ColorWord, string>;
  sceneWords: Array<{ text: string; scene: Scene }>;
  timeWords: string[];
  weatherWords: string[];
  actionWords: string[];
  content: ContentWord[];
  /** Material words ("stone", "石"): the subject when the prompt names nothing else ("a stone"). */
  materialWords: Array<{ text: string; en: string; phrase: number }>;
  /** The first weapon or tool of {@link HELD_TOOLS} named after a holding word. */
  heldTool?: { text: string; lemma: string };
}

function startReading(input: InterpretInput): Reading {
  const { assetType, style } = input;
  // tags default to the style's values: palette names, line weights and lighting are not subject words
  const styleNoise = new Set(
    Object.entries(style)
      .filter(([key]) => !SCENE_KEYS.includes(key))
      .map(([, v]) => String(v).toLowerCase()),
  );
  const tags = input.tags.filter((t) => !styleNoise.has(t.toLowerCase()));
  const text = subjectText({ userPrompt: input.userPrompt, tags, style: style });
  const understood: string[] = [];
  const ignored: string[] = [];
  const colors: ColorWord[] = [];
  return {
    tokens: tokenize(text),
    sprite: assetType === 'sprite' || assetType === 'animation',
    result: { subject: null, understood, ignored, colors },
    understood,
    ignored,
    colors,
    nouns: [],
    phrase: 0,
    holding: false,
    tone: 0,
    pendingColours: [],
    colourNoun: new Map(),
    sceneWords: [],
    timeWords: [],
    weatherWords: [],
    actionWords: [],
    content: [],
    materialWords: [],
  };
}

/** A new phrase starts: what follows is held by the head (`holding`) or stands apart from it. */
function newPhrase(r: Reading, holding: boolean): void {
  r.holding = holding;
  r.phrase++;
  r.pendingColours = [];
}

/** Whether the current phrase already has a known noun a verb could follow ("a knight swinging"). */
const phraseHasNoun = (r: Reading) =>
  r.content.some((c) => c.phrase === r.phrase && c.known && !c.modifierOnly);

function unknownWord(r: Reading, token: Token): void {
  r.ignored.push(token.text);
  // "breathing", "rusted", "shiny", "polar": a verb's or adjective's form is not the thing drawn,
  // but it may pick among the drawings of the thing ("a polar bear")
  const modifierOnly =
    !token.zh &&
    ((/(ing|ed|ly)$/.test(token.en) && !lex().thingsIng.has(token.en)) || lex().adjectives.has(token.en));
  r.content.push({
    text: token.text,
    en: token.en,
    zh: token.zh,
    phrase: r.phrase,
    known: false,
    modifierOnly,
  });
}

/**
 * The words that shape phrases rather than name anything (quantities, "of", a clause's verb, holding
 * and phrase-ending words, function words) and the words no table knows: true when it read `token`.
 */
function readPhraseWord(r: Reading, token: Token, index: number): boolean {
  const w = token.en;
  const lower = token.text.toLowerCase();
  const { tokens } = r;
  if (!token.zh && QUANTITY.has(lower) && tokens[index + 1]?.text.toLowerCase() === 'of') {
    // "a stack of gold bars", "a pile of coins": the thing is what the quantity counts
    r.understood.push(token.text);
    return true;
  }
  if (!token.zh && lower === 'of' && !QUANTITY.has(tokens[index - 1]?.text.toLowerCase() ?? '')) {
    // "a bag of apples", "a sword of fire": what follows "of" belongs to the head before it, never
    // a compound with it
    newPhrase(r, false);
    return true;
  }
  if (
    !token.zh &&
    /^[a-z]{3,}ing$/.test(lower) &&
    !ACTION_WORDS[w ?? ''] &&
    (nounLemma(lower) === null || THING_VERBS.has(lower)) &&
    // a thing's verb follows its noun even when no table knows the noun ("a wardrobe opening": the
    // refusal names the wardrobe, never "opening")
    (phraseHasNoun(r) ||
      (THING_VERBS.has(lower) && r.content.some((c) => c.phrase === r.phrase && !c.modifierOnly)))
  ) {
    // a verb after the subject starts a clause ("a knight swinging a sword", "a dog chasing a
    // ball"): its objects are what the subject holds or acts on, never a compound with it
    r.ignored.push(token.text);
    newPhrase(r, true);
    return true;
  }
  if (!token.known) {
    unknownWord(r, token);
    return true;
  }
  if (!w) {
    if (token.zh && ZH_CLAUSE.has(token.text)) {
      // a clause of its own: its nouns are the head's attributes
      newPhrase(r, true);
    } else if (token.zh && token.text === '的') {
      // 的 joins a modifier (a clause, "白胡子") to the head after it: what stands before it is no
      // part of the head's compound
      r.holding = false;
      r.phrase++;
    }
    return true;
  }
  if (!token.zh && HOLD.has(w)) {
    newPhrase(r, true);
    return true;
  }
  if (!token.zh && PHRASE_END.has(w)) {
    // "with a shield and a hammer": what "and" adds to a held phrase is held too
    newPhrase(r, w === 'and' && r.holding);
    return true;
  }
  return STOP.has(w);
}

/** Tone ("dark", "light"), material and colour words: true when it read `token`. */
function readColourWord(r: Reading, token: Token): boolean {
  const w = token.en;
  const { colors, understood } = r;
  const { colors: css } = lex();
  if (w in TONE && !token.zh) {
    r.tone = TONE[w]!;
    if (r.sprite || r.tone < 0) understood.push(token.text);
    else r.ignored.push(token.text);
    return true;
  }
  const material = MATERIALS[w];
  if (material) {
    r.materialWords.push({ text: token.text, en: w, phrase: r.phrase });
    // a material word is a colour (and, for a sprite, the subject's material)
    if (!r.result.material) r.result.material = w;
    colors.push({
      word: token.text,
      hex: `#${MATERIAL_COLOR_FIXES[w] ?? COLOR_WORD_FIXES[material[0]] ?? css.get(material[0])}`,
    });
    r.pendingColours.push(colors.at(-1)!);
    understood.push(token.text);
    return true;
  }
  const c = COLOR_WORD_FIXES[w] ?? css.get(w);
  if (!c) return false;
  if (!nounLemma(w)?.length) {
    colors.push({ word: token.text, hex: r.tone ? toned(`#${c}`, r.tone) : `#${c}` });
    // Chinese puts a colour before its noun too: "红衣服" red clothes, "白胡子" a white beard
    r.pendingColours.push(colors.at(-1)!);
    r.tone = 0;
    understood.push(token.text);
    return true;
  }
  // colour names that are also nouns ("orange", "salmon", "olive"): a colour before a noun,
  // the subject when nothing else is named ("an orange")
  if (!BASIC_COLOURS.has(w)) r.materialWords.push({ text: token.text, en: w, phrase: r.phrase });
  colors.push({ word: token.text, hex: `#${c}` });
  r.pendingColours.push(colors.at(-1)!);
  understood.push(token.text);
  return true;
}

/** Time, weather and action words: true when it read `token`. */
function readMomentWord(r: Reading, token: Token): boolean {
  const w = token.en;
  const { result } = r;
  if (TIMES[w]) {
    result.time ??= TIMES[w];
    r.timeWords.push(token.text);
    return true;
  }
  if (WEATHER[w]) {
    result.weather ??= WEATHER[w];
    r.weatherWords.push(token.text);
    return true;
  }
  if (!ACTION_WORDS[w]) return false;
  result.action ??= ACTION_WORDS[w];
  r.actionWords.push(token.text);
  // a verb after the subject ends its phrase: what follows is its object ("a wizard casting a spell")
  if (!token.zh && /ing$/.test(w) && phraseHasNoun(r)) r.phrase++;
  return true;
}

/** Size, place and noun words; what is none of them is an unknown word. */
function readNamingWord(r: Reading, token: Token): void {
  const w = token.en;
  const { tokens, sprite } = r;
  // a shield gives way to a weapon named beside it ("with a shield and a hammer"): design carries both
  if (r.holding && !token.zh && (!r.heldTool || /^(shield|buckler)$/.test(r.heldTool.lemma))) {
    const lemma = nounLemma(w) ?? w;
    if (HELD_TOOLS.has(lemma) && !r.heldTool) r.heldTool = { text: token.text, lemma };
    else if (HELD_TOOLS.has(lemma) && !/^(shield|buckler)$/.test(lemma))
      r.heldTool = { text: token.text, lemma };
  }
  const next = tokens[tokens.indexOf(token) + 1];
  const endsPhrase =
    !next ||
    (!next.zh && (PHRASE_END.has(next.en) || HOLD.has(next.en) || ACTION_WORDS[next.en] !== undefined));
  // a size word that is also a being ends a phrase as its noun: after another word ("a frost giant"),
  // or alone, when nothing before it names a thing ("a giant", "a giant with a club")
  const headNoun =
    !token.zh &&
    endsPhrase &&
    (r.content.some((c) => c.phrase === r.phrase) || r.nouns.length === 0) &&
    kindOf(nounLemma(w) ?? '') !== null;
  // in a held phrase a size word sizes what is held ("a knight with a big sword"), not the subject
  if (r.holding && HELD_SIZES[w] !== undefined && !headNoun) {
    r.result.heldSize ??= HELD_SIZES[w];
    (sprite ? r.understood : r.ignored).push(token.text);
    return;
  }
  if (SIZES[w] !== undefined && !headNoun) {
    r.result.size ??= SIZES[w];
    (sprite ? r.understood : r.ignored).push(token.text);
    return;
  }
  const scene = lex().scenes.get(w);
  const lemma = nounLemma(w);
  if (lemma && r.pendingColours.length > 0) {
    for (const c of r.pendingColours) r.colourNoun.set(c, lemma);
    r.pendingColours = [];
  }
  const place = (scene: Scene) => {
    r.sceneWords.push({ text: token.text, scene });
    if (sprite)
      r.content.push({
        text: token.text,
        en: w,
        zh: token.zh,
        phrase: r.phrase,
        known: true,
        modifierOnly: true,
      });
  };
  if (scene && (!sprite || !lemma)) {
    place(scene);
    return;
  }
  const k = lemma ? kindOf(lemma) : null;
  if (lemma && k) {
    const text = token.zh ? token.text : lemma;
    r.nouns.push({ text, lemma, ...k, phrase: r.phrase, held: r.holding });
    r.content.push({ text, en: lemma, zh: token.zh, phrase: r.phrase, known: true });
    return;
  }
  if (scene) place(scene);
  else unknownWord(r, token);
}

/** The scene (the last scene noun; "snowy"/"rainy" give one only when no other is named) and the time. */
function readSetting(r: Reading, style: StyleMap): { text: string; scene: Scene } | undefined {
  const { result, sceneWords } = r;
  // "interior" names a kind of scene only when nothing more specific does ("dungeon interior")
  const sceneWord = sceneWords.filter((s) => !GENERIC_SCENE_WORDS.has(s.text)).at(-1) ?? sceneWords.at(-1);
  if (sceneWord) result.scene = sceneWord.scene;
  else if (result.weather === 'snow' && !r.sprite) result.scene = 'snow';
  if (style.lighting && /night/i.test(style.lighting)) result.time ??= 'night';
  return sceneWord;
}

/** The subject's noun: the last of the first phrase in English; the last creature or person in Chinese. */
function chooseHead(r: Reading): { head: Noun | undefined; heldNoun: Noun | undefined } {
  const { nouns } = r;
  let head: Noun | undefined;
  const free = nouns.filter((n) => !n.held);
  const firstPhrase = free.length ? Math.min(...free.map((n) => n.phrase)) : 0;
  const living = (n: Noun) => n.spec.plan !== 'object';
  const zh = r.tokens.some((t) => t.zh && t.known && t.en);
  if (zh) head = [...free].reverse().find(living) ?? free.at(-1);
  else head = free.filter((n) => n.phrase === firstPhrase).at(-1);
  head ??= nouns.find((n) => !n.held);
  const heldNoun = nouns.find(
    (n) =>
      n !== head &&
      n.spec.plan === 'object' &&
      ['blade', 'axe', 'hammer', 'spear', 'staff', 'bow', 'gun', 'shield'].includes(n.spec.object!),
  );
  return { head, heldNoun };
}

/**
 * A sprite's subject from its head noun. "a skeleton warrior", "a pirate captain", "a goblin archer":
 * a being named before a being is what it looks like; the head keeps its weapon ("archer" → a bow).
 */
function spriteHead(r: Reading, head: Noun): void {
  const { result, nouns } = r;
  result.subject = head.text;
  result.kind = head.kind;
  result.lemma = head.lemma;
  r.understood.push(head.text);
  // a generic beast ("female", "young", "giant") describes the head, it is no look of its own
  const being = (n: Noun) =>
    n.spec.plan !== 'object' &&
    n.kind !== 'person.person' &&
    n.kind !== 'thing.drawing' &&
    n.kind !== 'animal.beast';
  const before = nouns.filter((n) => n !== head && n.phrase === head.phrase && !n.held && being(n));
  const look = before.at(-1);
  // a role named before a being of a body of its own ("a necromancer skeleton", "a knight zombie") is
  // that being in the role, as "a skeleton necromancer" reads: the role's man was drawn and the
  // skeleton dropped unsaid (issue #39, decision 0115)
  if (
    look &&
    being(head) &&
    /^creature\./.test(head.kind) &&
    head.spec.plan === 'biped' &&
    /^person\./.test(look.kind) &&
    look.kind !== 'person.person'
  ) {
    const weapon = look.spec.features.find((f) => f.startsWith('weapon:'))?.slice(7);
    result.subject = look.text;
    r.understood.push(look.text);
    if (weapon && !result.held) result.held = WEAPON_LEMMA[weapon] ?? weapon;
    nouns.splice(nouns.indexOf(look), 1);
    return;
  }
  // a role named after a being is that being in the role ("a robot helper" is a robot, "an orc
  // brute" an orc): a person or beast the head names only generally takes the being's look
  const generalHead = head.kind === 'person.person' || head.kind === 'animal.beast';
  const humanoidLook = look !== undefined && /^(person|creature)\./.test(look.kind);
  if (
    look &&
    ((being(head) && /^(person|creature)\./.test(head.kind)) || (generalHead && humanoidLook)) &&
    look.kind !== head.kind
  ) {
    const weapon = head.spec.features.find((f) => f.startsWith('weapon:'))?.slice(7);
    result.kind = look.kind;
    result.lemma = look.lemma;
    r.understood.push(look.text);
    if (weapon && !result.held) result.held = WEAPON_LEMMA[weapon] ?? weapon;
    nouns.splice(nouns.indexOf(look), 1);
  }
}

/**
 * A sprite with no noun any table knows: the last word of the first phrase names the subject ("a
 * windmill", "a tabby"), else a material ("a stone"), else a place ("a lake"); the generator draws it
 * or refuses it by name, never something else.
 */
function spriteUnknownSubject(r: Reading): void {
  const { result, content, materialWords, understood, ignored, colors } = r;
  const first = content.length ? Math.min(...content.map((c) => c.phrase)) : 0;
  const word = content.filter((c) => !c.known && !c.modifierOnly && c.phrase === first).at(-1);
  const stuff = !word && materialWords.length ? materialWords.at(-1) : undefined;
  // a place named as a sprite ("a lake", "a volcano"): the subject, drawn or refused by name
  const place = !word && !stuff ? r.sceneWords.at(-1) : undefined;
  if (place) {
    result.subject = place.text;
    result.lemma = r.tokens.find((t) => t.text === place.text)?.en || place.text;
    const at = ignored.indexOf(place.text);
    if (at >= 0) ignored.splice(at, 1);
  }
  if (stuff) {
    // "a stone", "an ice", "石": the material is the thing
    result.subject = stuff.text;
    result.lemma = stuff.en;
    const c = colors.findIndex((x) => x.word === stuff.text);
    if (c >= 0) colors.splice(c, 1);
    delete result.material;
    const at = understood.indexOf(stuff.text);
    if (at >= 0) understood.splice(at, 1);
  }
  if (word) {
    result.subject = word.text;
    // its singular is found by the generator, against the drawings' own words; a Chinese word
    // the dictionary glosses is looked up by its English ("监狱" → prison)
    result.lemma = word.zh ? word.en || word.text : word.en;
    const at = ignored.indexOf(word.text);
    if (at >= 0) ignored.splice(at, 1);
  }
}

/** A sprite: the subject, its modifiers and held weapon; the other nouns colour it or are ignored. */
function finishSprite(r: Reading, head: Noun | undefined, heldNoun: Noun | undefined): void {
  const { result, colors, content, understood, ignored } = r;
  // a colour word standing before another noun than the subject describes that noun
  for (const c of colors) {
    const noun = r.colourNoun.get(c);
    if (noun !== undefined && head !== undefined && noun !== head.lemma) c.of = noun;
  }
  if (head) spriteHead(r, head);
  else spriteUnknownSubject(r);
  if (result.subject) {
    // the words before the head in its phrase: "pine" in "a pine tree", "pirate" in "a pirate captain"
    const at = content.findIndex((c) => c.text === result.subject && (head ? c.known : !c.known));
    const phraseOf = content[at]?.phrase;
    const mods = content
      .slice(0, Math.max(0, at))
      .filter((c) => c.phrase === phraseOf && c.text !== result.subject && !COUNTS.has(c.en))
      .map((c) => (c.zh ? c.text : c.en));
    if (mods.length) result.modifiers = dedupe(mods);
    // a colour before a compound describes the whole: "a green wizard hat" is a green hat, not a hat
    // of a green wizard (the colour stood before "wizard", a word of the head's own phrase)
    const own = new Set(mods.map((m) => m.toLowerCase()));
    const lemmas = new Set(
      content
        .slice(0, Math.max(0, at))
        .filter((c) => c.phrase === phraseOf)
        .map((c) => c.en.toLowerCase()),
    );
    for (const c of colors)
      if (c.of && (own.has(c.of.toLowerCase()) || lemmas.has(c.of.toLowerCase()))) delete c.of;
  }
  if (heldNoun && head && head.spec.plan === 'biped') {
    result.held = heldNoun.lemma;
    understood.push(heldNoun.text);
  } else if (r.heldTool && head && head.spec.plan === 'biped') {
    // "an ogre with a heavy hammer", "a miner with a pickaxe": a tool the lexicon files as a drawing
    // of its own (or not at all) is held all the same
    result.held = r.heldTool.lemma;
    understood.push(r.heldTool.text);
  }
  for (const n of r.nouns) {
    if (n === head || n === heldNoun) continue;
    // a gem, fruit or flower before the head whose gloss names a colour colours it ("an emerald dragon")
    const namesColor =
      /^(item\.gem|food\.fruit|plant\.flower)$/.test(n.kind) &&
      !/^(frost|ice|rime|hailstone|icicle|plasma|twins|sparkler)$/.test(n.lemma);
    const hex =
      head && namesColor && n.phrase === head.phrase && !colors.length ? glossColorOf(n.lemma) : null;
    if (hex) {
      colors.push({ word: n.text, hex });
      understood.push(n.text);
    } else ignored.push(n.text);
  }
  if (heldNoun && !(head && head.spec.plan === 'biped')) ignored.push(heldNoun.text);
  for (const s of r.sceneWords) if (s.text !== result.subject) ignored.push(s.text);
  // time of day shades the sprite (night is darker); weather needs a background
  understood.push(...r.timeWords);
  ignored.push(...r.weatherWords);
  understood.push(...r.actionWords);
  if (!head) {
    // colours and materials have nothing to colour without a subject
    for (const c of colors) moveToIgnored(r, c.word);
  }
}

/** A background: the scene word is the subject; nouns, actions and colours are not drawn. */
function finishBackground(r: Reading, sceneWord: { text: string; scene: Scene } | undefined): void {
  const { result, understood, ignored } = r;
  if (sceneWord) result.subject = sceneWord.text;
  for (const s of r.sceneWords)
    (s === sceneWord || GENERIC_SCENE_WORDS.has(s.text) ? understood : ignored).push(s.text);
  if (r.tone < 0) result.dark = true;
  understood.push(...r.timeWords, ...r.weatherWords);
  for (const n of r.nouns) ignored.push(n.text);
  ignored.push(...r.actionWords);
  for (const c of r.colors) moveToIgnored(r, c.word);
  result.colors = [];
  delete result.material;
  delete result.action;
}

/** UI pieces: the kind comes from the prompt's UI words; colours and materials tint the piece. */
function finishUi(r: Reading): void {
  const { result, understood, ignored } = r;
  for (const word of [...r.sceneWords.map((s) => s.text), ...r.nouns.map((n) => n.text)])
    (UI_WORDS.test(word) ? understood : ignored).push(word);
  for (let i = ignored.length - 1; i >= 0; i--)
    if (UI_WORDS.test(ignored[i]!)) understood.push(...ignored.splice(i, 1));
  // a button's state read as a verb ("hover") is the state the sheet draws
  for (const w of r.actionWords) (UI_WORDS.test(w) ? understood : ignored).push(w);
  ignored.push(...r.timeWords, ...r.weatherWords);
  delete result.action;
  delete result.scene;
}

function moveToIgnored(r: Reading, word: string): void {
  const i = r.understood.indexOf(word);
  if (i >= 0) r.understood.splice(i, 1);
  r.ignored.push(word);
}

/**
 * Reads the prompt, the tags and the scene-like style keys into a structured request, in English and
 * Chinese. Every word lands in `understood` (honoured by the drawing of this asset type) or `ignored`;
 * function words and words about the medium ("pixel art") land in neither.
 */
export function interpret(input: InterpretInput): Interpretation {
  const r = startReading(input);
  for (const [index, token] of r.tokens.entries()) {
    if (readPhraseWord(r, token, index) || readColourWord(r, token) || readMomentWord(r, token)) continue;
    readNamingWord(r, token);
  }
  const sceneWord = readSetting(r, input.style);
  const { head, heldNoun } = chooseHead(r);
  if (r.sprite) {
    finishSprite(r, head, heldNoun);
    honourOwnParts(r);
  } else if (input.assetType === 'background') finishBackground(r, sceneWord);
  else finishUi(r);
  const { result } = r;
  if (!r.sprite) {
    delete result.size;
    delete result.held;
    delete result.heldSize;
  }
  result.understood = dedupe(r.understood);
  result.ignored = dedupe(r.ignored).filter((w) => !result.understood.includes(w));
  return result;
}

/**
 * A body part of the subject's own, after a possessive ("a bat flapping its wings", "a dog wagging
 * its tail", "a cat licking its paw"): the subject's drawing shows it, so it is honoured, never named
 * as not in the picture (issue #39, decision 0078). A part the subject's kind does not have ("a
 * horse flapping its wings") stays ignored.
 */
const OWN_PART: Readonly<Record<string, (plan: string, has: (f: string) => boolean) => boolean>> = {
  wing: (_, has) => has('wings'),
  tail: (_, has) => has('tail') || has('bushy-tail'),
  paw: (plan) => plan === 'quadruped',
  hoof: (_, has) => has('mane') || has('horns') || has('antlers'),
  horn: (_, has) => has('horns'),
  antler: (_, has) => has('antlers'),
  fin: (_, has) => has('fins'),
  claw: (_, has) => has('claws'),
  beak: (_, has) => has('beak'),
  mane: (_, has) => has('mane'),
  trunk: (_, has) => has('trunk'),
  tentacle: (_, has) => has('tentacles'),
  shell: (_, has) => has('shell'),
  ear: (_, has) => has('ears') || has('round-ears') || has('long-ears'),
  head: (plan) => plan !== 'object',
  eye: (plan) => plan !== 'object',
  body: (plan) => plan !== 'object',
  leg: (plan) => plan === 'quadruped' || plan === 'biped' || plan === 'many-legged' || plan === 'bird',
  foot: (plan) => plan === 'quadruped' || plan === 'biped' || plan === 'bird',
  arm: (plan) => plan === 'biped',
  hand: (plan) => plan === 'biped',
};
const POSSESSIVE = new Set(['its', 'his', 'her', 'their']);

function honourOwnParts(r: Reading): void {
  const spec = r.result.kind ? kindSpec(r.result.kind) : undefined;
  if (!spec || !r.result.subject) return;
  const features = new Set<string>([
    ...spec.features,
    ...(r.result.lemma ? glossFeaturesOf(r.result.lemma) : []),
  ]);
  const has = (f: string) => features.has(f);
  for (const [i, token] of r.tokens.entries()) {
    if (token.zh || !POSSESSIVE.has(r.tokens[i - 1]?.text ?? '')) continue;
    const w = token.en;
    const part = w === 'feet' ? 'foot' : w === 'hooves' ? 'hoof' : w.replace(/s$/, '');
    const shown = OWN_PART[part] ?? OWN_PART[w];
    if (!shown?.(spec.plan, has) || !r.ignored.includes(token.text)) continue;
    r.ignored.splice(r.ignored.indexOf(token.text), 1);
    r.understood.push(token.text);
  }
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}
