/**
 * Designs a figure's identity from the prompt's reading and a seed: its class and outfit (the kind,
 * the nouns' archetypes, the costume words, what it holds), its body type and proportions, and its
 * palette — every material's ramp fitted once to the palette it is drawn under. A character stores
 * the result; a sprite makes it afresh from the same inputs, so the same prompt and seed give the
 * same figure.
 */
import {
  type Feature,
  glossColorOf,
  type Interpretation,
  isFemale,
  KINDS,
  type KindSpec,
  kindSpec,
  tokenize,
} from '@assetloom/pipeline/interpret';
import { fromOklab, oklab, type Painter, parseHex, type Rgb, Rng } from '@assetloom/pipeline/pixel';
import { BODY_TYPES, type BodyType, type Build, proportionsOf } from './body.js';
import {
  type FigureIdentity,
  type Look,
  type Outfit,
  SLOTS,
  type Slot,
  type StoredRamp,
} from './identity.js';
import {
  ARCHETYPES,
  ARCHETYPES_ZH,
  type Archetype,
  COLOUR_NOUNS,
  COSTUME_WORDS,
  KIND_LOOKS,
  LOOKS,
} from './outfits.js';
import { HEADWEAR } from './pieces-wear.js';
import { boneBeing, type Role, roleOn, takeBeingBeforeRole } from './role.js';

/** Looks that are a body of their own: a class's clothes never replace their torso or legs. */
const BODY_LOOKS: ReadonlySet<Look> = new Set(['skeleton', 'zombie', 'robot', 'creature']);
/** Outfit keys a class may still change on a body look. */
const ACCESSORIES: ReadonlyArray<keyof Outfit> = ['head', 'weapon', 'offhand', 'beard'];

/** Lexicon kinds with no class of their own that are still dressed like people. */
const DRESSED_KINDS = /^person\.|^creature\.(goblin|fairy|angel|ogre)$/;

const SKIN_TONES: Rgb[] = [
  [236, 188, 160],
  [215, 165, 130],
  [180, 120, 85],
  [125, 80, 60],
];
const HAIR_COLOURS: Rgb[] = [
  [45, 35, 35],
  [90, 60, 40],
  [150, 100, 55],
  [225, 185, 95],
  [170, 70, 40],
];
const HERALDIC: Rgb[] = [
  [170, 40, 45],
  [45, 120, 70],
  [120, 60, 150],
  [200, 150, 40],
];
const STEEL: Rgb = [152, 158, 166];

/** Which weapon a held word names. */
function weaponOf(held: string): Outfit['weapon'] | 'shield' | 'book' | 'lantern' {
  const table: Array<[RegExp, Outfit['weapon'] | 'shield' | 'book' | 'lantern']> = [
    [/bow/, 'bow'],
    [/pickaxe|pick$/, 'pickaxe'],
    [/axe|ax$|hatchet/, 'axe'],
    [/hammer|mace/, 'hammer'],
    [/club/, 'club'],
    [/pitchfork|fork/, 'pitchfork'],
    [/spear|lance|pike|trident|halberd/, 'spear'],
    [/staff|rod|scepter|sceptre/, 'staff'],
    [/wand/, 'wand'],
    [/dagger|knife/, 'dagger'],
    [/shield/, 'shield'],
    [/book|tome|grimoire/, 'book'],
    [/lantern|lamp/, 'lantern'],
    [/torch/, 'torch'],
    [/gun|rifle|pistol|revolver/, 'gun'],
    [/cutlass|sabre|saber|scimitar/, 'cutlass'],
    [/katana|wakizashi|tachi/, 'katana'],
    [/ladle|spoon/, 'ladle'],
  ];
  for (const [re, w] of table) if (re.test(held)) return w;
  return 'sword';
}

const WEAPON_FEATURES: Record<string, Outfit['weapon']> = {
  'weapon:katana': 'katana',
  'weapon:sword': 'sword',
  'weapon:staff': 'staff',
  'weapon:bow': 'bow',
  'weapon:dagger': 'dagger',
  'weapon:club': 'club',
  'weapon:cutlass': 'cutlass',
  'weapon:pitchfork': 'pitchfork',
};

function lookOf(kind: string): Look {
  const look = KIND_LOOKS[kind];
  if (look) return look;
  if (DRESSED_KINDS.test(kind)) return kind === 'creature.angel' ? 'priest' : 'plain';
  return 'creature';
}

/** Every word of the reading, lower-cased, the subject's first. */
function wordsOf(it: Interpretation): string[] {
  const all = [it.subject, it.lemma, ...(it.modifiers ?? []), ...it.understood, ...it.ignored];
  const words = new Set(all.filter((w): w is string => !!w).map((w) => w.toLowerCase()));
  // a Chinese word is also its English ("头盔" a helmet, "胡子" a beard): the costume rows are English
  for (const w of [...words]) if (/[\u3400-\u9fff]/.test(w)) for (const en of englishOf(w)) words.add(en);
  return [...words];
}

/** The English words of a Chinese word, as the prompt reader glosses it. */
function englishOf(zh: string): string[] {
  return tokenize(zh)
    .map((t) => t.en)
    .filter((en) => !!en);
}

interface Designing {
  look: Look;
  outfit: Outfit;
  builds: Build[];
  body?: BodyType;
  skin?: Rgb;
  hair?: Rgb;
  main?: Rgb;
  cape?: Rgb;
  female: boolean;
  old: boolean;
  honoured: Set<string>;
}

/** What a being's noun may still change on a figure a role dresses: its hair and beard, not the role's gear. */
const BEING_KEEPS: ReadonlyArray<keyof Outfit> = ['hair', 'beard'];

function applyArchetype(d: Designing, a: Archetype, word: string, being = false): void {
  const bodyLook = BODY_LOOKS.has(d.look);
  for (const [k, v] of Object.entries(a.outfit ?? {})) {
    if (bodyLook && !a.look && !ACCESSORIES.includes(k as keyof Outfit)) continue;
    // "an orc archer" holds the archer's bow, not the orc's club (issue #39)
    if (being && !BEING_KEEPS.includes(k as keyof Outfit)) continue;
    (d.outfit as unknown as Record<string, unknown>)[k] = Array.isArray(v) ? [...v] : v;
  }
  for (const piece of a.add ?? []) addPiece(d.outfit, piece);
  d.builds.push(...(a.builds ?? []));
  if (a.body && !d.body) d.body = a.body;
  d.skin ??= a.skin;
  d.hair ??= a.hair;
  // a being's colour is its skin's: the role's clothes keep the role's colour (a green elf's robe)
  if (!being) d.main ??= a.main;
  if (!being) d.cape ??= a.cape;
  if (a.female) d.female = true;
  if (a.old) d.old = true;
  d.honoured.add(word);
}

function addPiece(o: Outfit, piece: string): void {
  const back = ['cape', 'quiver', 'pack', 'sheath', 'tank', 'wings', 'tail'];
  if (back.includes(piece)) {
    if (!o.back.includes(piece as never)) o.back.push(piece as never);
  } else if (!o.extras.includes(piece as never)) o.extras.push(piece as never);
}

/** Kind features that are pieces of the outfit or body. */
function applyFeatures(
  d: Designing,
  features: ReadonlySet<Feature>,
  classLook: boolean,
  anthro = false,
): void {
  const o = d.outfit;
  for (const f of features) {
    if (f.startsWith('weapon:') && !o.weapon && !classLook) o.weapon = WEAPON_FEATURES[f] ?? null;
    if (f === 'horns' || f === 'antlers') addPiece(o, 'horns');
    if (f === 'wings') addPiece(o, 'wings');
    if ((f === 'tail' || f === 'bushy-tail') && (d.look === 'creature' || anthro)) addPiece(o, 'tail');
    if (f === 'ears' || f === 'long-ears' || f === 'round-ears') addPiece(o, f);
    if (f === 'snout') addPiece(o, 'snout');
    if (f === 'halo') addPiece(o, 'halo');
    if (f === 'claws') o.hands = 'claws';
    if (f === 'robe' && !classLook) {
      o.torso = 'robe';
      o.legs = 'robe';
    }
    if (f === 'cape') addPiece(o, 'cape');
    if (f === 'heavy' || f === 'big') d.builds.push('heavy');
    if (f === 'female') d.female = true;
  }
}

export interface DesignInput {
  interpretation: Interpretation;
  seed: number;
  painter: Painter;
  /** The palette is the project's own: ramps use its colours only. */
  enforced: boolean;
  /** A body type asked for (a character's `params.body`), else chosen from the words and the seed. */
  body?: BodyType;
}

/** The identity of the figure a prompt's reading names, for a seed. */
export function designFigure(input: DesignInput): FigureIdentity {
  const it = { ...input.interpretation };
  takeBeingBeforeRole(it);
  // "a bone warrior" is the skeleton in the warrior's class (a character too, not only a sprite)
  boneBeing(it);
  const rng = new Rng(input.seed ^ 0x5f3759df);
  // a role on a being ("an orc archer", "a cat chef"): the role's class on that being (issue #39)
  const role = roleOn(it);
  const anthro = role?.anthro === true;
  const kind = it.kind && (kindSpec(it.kind)?.plan === 'biped' || anthro) ? it.kind : 'person.person';
  const spec: KindSpec = kindSpec(kind) ?? KINDS['person.person'];
  const words = wordsOf(it);
  const look = anthro ? (role.look ?? 'plain') : lookOf(kind);
  const d: Designing = {
    look,
    outfit: { look, hair: 'short', ...structuredClone(LOOKS[look]) } as Outfit,
    builds: [],
    female: false,
    old: false,
    honoured: new Set(),
  };
  if (it.subject) d.honoured.add(it.subject);
  // archetypes: a class noun sets the look (unless the body is its own), races and others add
  const archetypes = words
    .map((w) => [w, ARCHETYPES[ARCHETYPES_ZH[w] ?? w]] as const)
    .filter((e): e is readonly [string, Archetype] => e[1] !== undefined);
  const classWord = role?.look ? undefined : archetypes.find(([, a]) => a.look && !BODY_LOOKS.has(d.look));
  const classLook = role?.look && !BODY_LOOKS.has(d.look) ? role.look : classWord?.[1].look;
  if (classLook) {
    d.look = classLook;
    d.outfit = { ...structuredClone(LOOKS[d.look]), look: d.look, hair: d.outfit.hair } as Outfit;
  }
  d.outfit.hair = LOOKS[d.look].hair ?? d.outfit.hair;
  const features = new Set<Feature>(spec.features);
  // the lexicon files elves and gnomes with the fairies: they have no wings
  if (/^(elf|elves|gnome|gnomes|dwarf|dwarves|精灵|矮人)$/.test(it.lemma ?? '')) features.delete('wings');
  // and files dwarves with the goblins: a dwarf's ears are a man's
  if (/^(dwarf|dwarves|矮人)$/.test(it.lemma ?? '')) features.delete('long-ears');
  if (it.lemma && isFemale(it.lemma)) d.female = true;
  for (const w of words)
    if (/^(female|woman|girl|lady|女|女性)$/.test(w)) {
      // drawn: the figure's build, hair and face are a woman's ("a female knight" named it not honoured)
      d.female = true;
      d.honoured.add(w);
    }
  applyFeatures(d, features, KIND_LOOKS[kind] !== undefined || !!classLook || !!role, anthro);
  if (role) dressInRole(d, role, anthro, spec);
  // the role's own noun first, so its gear stands; the being's nouns add its body (skin, ears, tusks)
  const roleWord = (w: string) => role !== null && (w === role.word || w === role.lemma);
  for (const [w, a] of archetypes) if (roleWord(w)) applyArchetype(d, a, w);
  for (const [w, a] of archetypes) if (!roleWord(w)) applyArchetype(d, a, w, role !== null);
  // (a skeleton's main colour is its bone, a robot's its metal: those keep theirs)
  if (role && d.look !== 'skeleton' && d.look !== 'robot')
    d.main ??= kindSpec(role.kind)?.color as Rgb | undefined;
  // costume words: what the figure wears because the prompt says so
  for (const w of words) {
    const c = COSTUME_WORDS[w];
    if (!c || c.unless?.includes(d.look)) continue;
    for (const [k, v] of Object.entries(c.set ?? {})) (d.outfit as unknown as Record<string, unknown>)[k] = v;
    for (const piece of c.add ?? []) addPiece(d.outfit, piece);
    d.outfit.extras = d.outfit.extras.filter((e) => !c.remove?.includes(e));
    d.builds.push(...(c.builds ?? []));
    if (c.female) d.female = true;
    if (c.old) d.old = true;
    d.honoured.add(w);
  }
  if (words.includes('hat')) hatByName(d, words);
  if (it.held) {
    const w = weaponOf(it.held.toLowerCase());
    if (w === 'shield') d.outfit.offhand = d.outfit.offhand === 'round-shield' ? 'round-shield' : 'shield';
    else if (w === 'book' || w === 'lantern') d.outfit.offhand = w;
    else d.outfit.weapon = w;
    d.honoured.add(it.held);
  }
  // a shield the prompt names beside the weapon ("a guard with a shield") is carried, not dropped: the
  // prompt reader holds one noun only
  const shield = words.find((w) => /^(shield|buckler)$/.test(w));
  if (shield && !d.outfit.offhand && d.outfit.weapon !== 'bow') {
    d.outfit.offhand = 'shield';
    d.honoured.add(shield);
  }
  if (it.heldSize && it.heldSize > 1) d.outfit.prop = Math.min(1.3, it.heldSize);
  if (d.outfit.weapon === 'bow' && d.outfit.offhand === 'shield') d.outfit.offhand = null;
  finishOutfit(d, rng);
  const body: BodyType =
    input.body ??
    d.body ??
    (features.has('small') || (it.size !== undefined && it.size < 1)
      ? 'chibi'
      : features.has('tall')
        ? 'tall'
        : rng.pick(['chibi', 'normal', 'normal', 'tall'] as BodyType[]));
  if (d.female) d.builds.push('female');
  const vary = Array.from({ length: 12 }, () => rng.range(-1, 1));
  const proportions = proportionsOf(
    BODY_TYPES.includes(body) ? body : 'normal',
    [...new Set(d.builds)],
    vary,
  );
  const palette = paletteOf(d, it, spec, input, rng);
  return {
    rig: 'figure',
    version: 1,
    kind,
    noun: it.lemma ?? it.subject ?? 'figure',
    body,
    proportions,
    scale: Math.min(1, it.size ?? 1),
    outfit: d.outfit,
    palette,
    seed: input.seed,
    // a Chinese word is honoured where its English is ("戴头盔": the helmet is drawn)
    honoured: [
      ...d.honoured,
      ...words.filter((w) => /[\u3400-\u9fff]/.test(w) && englishOf(w).some((en) => d.honoured.has(en))),
    ],
  };
}

/**
 * A role's class on a being: on a body of its own (a skeleton, a zombie, a robot) the class's
 * headwear, what it holds and carries on its back, and a robe where the class wears one (a zombie
 * wizard in a robe and pointed hat, a skeleton knight in a helm with sword and shield); an animal
 * stands as the figure with its ears, snout, tail and colour, in the class's clothes ("a cat chef").
 */
function dressInRole(d: Designing, role: Role, anthro: boolean, spec: KindSpec): void {
  const o = d.outfit;
  if (role.look && BODY_LOOKS.has(d.look)) {
    const row = LOOKS[role.look];
    // a closed helm would hide the skull or the beast's head that makes it this being
    o.head = row.head === 'helm' ? 'open-helm' : row.head;
    if (d.look === 'zombie' || d.look === 'creature') d.skin ??= spec.color as Rgb;
    if (row.weapon) o.weapon = row.weapon;
    if (row.offhand) o.offhand = row.offhand;
    for (const piece of row.back) addPiece(o, piece);
    for (const piece of row.extras) if (piece !== 'belt') addPiece(o, piece);
    if (row.torso === 'robe') {
      o.torso = 'robe';
      o.legs = 'robe';
    }
  }
  if (anthro) {
    // an animal's face: its eyes and a light muzzle (a mammal's), no human hair or beard; its colour
    // is its skin
    o.hair = 'bald';
    o.beard = 'none';
    d.skin ??= spec.color as Rgb;
    if (o.extras.some((e) => /ears$/.test(e)) && !o.extras.includes('snout')) addPiece(o, 'muzzle');
    if (o.head === 'helm') {
      o.head = 'open-helm';
      o.face = 'eyes';
    }
  }
  d.honoured.add(role.word);
}

/** Hats a word before "hat" names ("a cowboy hat", "a straw hat"), by the rig's headwear. */
const NAMED_HATS: ReadonlyArray<[RegExp, Outfit['head']]> = [
  [/^(cowboy|stetson|ranger|western)$/, 'cowboy'],
  [/^straw$/, 'straw'],
  [/^(wizard|wizards|mage)$/, 'wizard'],
  [/^(witch|witches|pointy|pointed)$/, 'witch'],
  [/^(chef|chefs)$/, 'chef'],
  [/^(pirate|tricorn|tricorne)$/, 'tricorn'],
];
/** Headwear that is a hat already: "a wizard in a hat" keeps the wizard's. */
const HATS: ReadonlySet<Outfit['head']> = new Set(['cowboy', 'straw', 'wizard', 'witch', 'chef', 'tricorn']);

/**
 * "hat": the hat a word names ("a gunslinger in a cowboy hat"), else the hat the figure's class wears,
 * else a wide-brimmed hat ("a rancher in a brown hat") — a cap is a cap, not what "hat" draws.
 */
function hatByName(d: Designing, words: readonly string[]): void {
  const named = NAMED_HATS.find(([re]) => words.some((w) => re.test(w)))?.[1];
  if (named) d.outfit.head = named;
  else if (!HATS.has(d.outfit.head)) d.outfit.head = 'cowboy';
  d.honoured.add('hat');
}

/** Least OKLab distance between the colours of two regions that touch (skin and robe, coat and cape). */
const APART = 0.13;
const distance = (a: Rgb, b: Rgb): number => {
  const [l1, a1, b1] = oklab(a);
  const [l2, a2, b2] = oklab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
};
/** A colour a step lighter or darker (OKLab L), its hue and chroma kept. */
const relit = (c: Rgb, dl: number): Rgb => {
  const [L, a, b] = oklab(c);
  return fromOklab(Math.max(0.12, Math.min(0.93, L + dl)), a, b);
};

/**
 * Keeps regions that touch apart in colour, as a pixel artist picks a skin that is not the robe's
 * orange and a coat that is not the cape's red: where two come out within {@link APART} of each
 * other, the one the prompt did not ask for moves — skin to the nearest other skin tone, hair to
 * another hair colour, a hat, cape, coat or trousers a step lighter or darker — to the first choice
 * apart from every region it touches. Deterministic (no draw of the seed), so identities of prompts
 * whose colours were apart are unchanged.
 */
/** Two colours of one hue family (both coloured, their hues within 40°). */
function sameHue(a: Rgb, b: Rgb): boolean {
  const [, a1, b1] = oklab(a);
  const [, a2, b2] = oklab(b);
  if (Math.hypot(a1, b1) < 0.03 || Math.hypot(a2, b2) < 0.03) return false;
  const d = Math.abs(Math.atan2(b1, a1) - Math.atan2(b2, a2));
  return Math.min(d, 2 * Math.PI - d) < (40 * Math.PI) / 180;
}

function separate(
  out: Record<Slot, StoredRamp>,
  t: Record<Slot, Rgb>,
  asked: Partial<Record<Slot | 'main', Rgb>>,
  d: Designing,
  rampFor: (slot: Slot, target: Rgb) => StoredRamp,
): void {
  const o = d.outfit;
  const hairShows = !HEADWEAR[o.head].covers;
  const hatShows = o.head !== 'none';
  const caped = o.back.includes('cape');
  const fixed = (slot: Slot): boolean =>
    asked[slot] !== undefined ||
    (slot === 'cloth' && (asked.main !== undefined || d.look === 'knight')) ||
    (slot === 'skin' && (d.skin !== undefined || d.look === 'vampire')) ||
    (slot === 'hair' && d.hair !== undefined);
  const touching: Array<[Slot, Slot]> = [
    ...(caped ? ([['cloth', 'cape']] as Array<[Slot, Slot]>) : []),
    ['skin', 'cloth'],
    ...(hairShows
      ? ([
          ['skin', 'hair'],
          ['hair', 'cloth'],
        ] as Array<[Slot, Slot]>)
      : []),
    ...(hatShows ? ([['skin', 'hat']] as Array<[Slot, Slot]>) : []),
    ...(hatShows && hairShows ? ([['hair', 'hat']] as Array<[Slot, Slot]>) : []),
    ['cloth', 'pants'],
  ];
  const base = (r: StoredRamp): Rgb => parseHex(r[3]) ?? [0, 0, 0];
  const neighbours = (slot: Slot): Slot[] =>
    touching.flatMap(([a, b]) => (a === slot ? [b] : b === slot ? [a] : []));
  const choices = (slot: Slot): Rgb[] => {
    const c = t[slot];
    const own =
      slot === 'skin'
        ? [...SKIN_TONES].sort((x, y) => distance(x, c) - distance(y, c))
        : slot === 'hair'
          ? [...HAIR_COLOURS].sort((x, y) => distance(x, c) - distance(y, c))
          : [];
    return [...own, relit(c, -0.16), relit(c, 0.16), relit(c, -0.26), relit(c, 0.26)];
  };
  for (const [a, b] of touching) {
    if (distance(base(out[a]), base(out[b])) >= APART) continue;
    // the hair, hat, cape or trousers moves before the skin or coat it touches; what was asked stays
    const order: Slot[] = a === 'skin' && b !== 'cloth' ? [b, a] : a === 'cloth' ? [b, a] : [a, b];
    const mover = order.find((s) => !fixed(s));
    if (!mover) continue;
    const near = neighbours(mover);
    const gap = (r: StoredRamp) => Math.min(...near.map((n) => distance(base(r), base(out[n]))));
    let best = out[mover];
    for (const c of choices(mover)) {
      const r = rampFor(mover, c);
      if (gap(r) > gap(best)) best = r;
      if (gap(r) >= APART) break;
    }
    out[mover] = best;
  }
}

/** Choices the seed makes among what the words leave open: hair style, beard, a cape. */
function finishOutfit(d: Designing, rng: Rng): void {
  const o = d.outfit;
  const hairPick = d.female
    ? rng.pick(['long', 'long', 'ponytail', 'bun'] as const)
    : rng.pick(['short', 'short', 'spiky'] as const);
  if (!LOOKS[d.look].hair && !['bald', 'tufts', 'slick'].includes(o.hair)) o.hair = hairPick;
  if (d.old && !d.female && o.hair !== 'bald') o.hair = rng.pick(['short', 'bald'] as const);
  if (d.female) o.beard = 'none';
  // a skull grows no beard, however old
  else if (d.old && o.beard === 'none' && !BODY_LOOKS.has(d.look) && o.face !== 'sockets') o.beard = 'long';
  if (d.female && d.look === 'plain' && o.torso === 'tunic' && rng.next() < 0.6) {
    o.torso = 'dress';
    o.legs = 'skirt';
  }
  if (d.look === 'knight' && !o.back.includes('cape') && rng.next() < 0.5) o.back.push('cape');
  o.extras = [...new Set(o.extras)];
  o.back = [...new Set(o.back)];
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** Nouns whose colour is the armour's own (the plate enamelled), not a piece's over it. */
const ARMOUR_NOUNS = new Set(['armour', 'armor', 'plate', 'mail', '盔甲', '铠甲']);

/** Every slot's target colour, then its ramp fitted to the painter's palette. */
function paletteOf(
  d: Designing,
  it: Interpretation,
  spec: KindSpec,
  input: DesignInput,
  rng: Rng,
): Record<Slot, StoredRamp> {
  // the colour words: each to the slot of the noun it stands before, or the figure's main colour
  const asked: Partial<Record<Slot | 'main', Rgb>> = {};
  // a colour of the armour itself ("in blue armour"), not of a shield or a tabard worn over it
  let armourWord = false;
  for (const c of it.colors) {
    const raw = parseHex(c.hex);
    if (!raw) continue;
    // a CSS colour is harsher than any pixel-art palette's ("blue" is #0000ff): tempered a little
    const rgb = input.enforced ? raw : mix(raw, [128, 128, 128], 0.14);
    const slot = c.of ? COLOUR_NOUNS[c.of.toLowerCase()] : 'main';
    if (!slot) continue;
    if (asked[slot] === undefined) asked[slot] = rgb;
    if (c.of && ARMOUR_NOUNS.has(c.of.toLowerCase())) armourWord = true;
    // (a material the reading said the figure is not made of, "a stone knight", tints it unhonoured)
    if (!it.ignored.includes(c.word)) d.honoured.add(c.word);
    if (c.of) d.honoured.add(c.of);
  }
  const gloss = it.lemma ? glossColorOf(it.lemma) : null;
  const jitter = (c: Rgb): Rgb => {
    const k = rng.range(0.9, 1.08);
    return [c[0] * k, c[1] * k, c[2] * k];
  };
  const look = d.look;
  const defaultMain: Rgb =
    d.main ??
    (gloss ? parseHex(gloss) : null) ??
    (look === 'knight' ? rng.pick(HERALDIC) : (spec.color as Rgb));
  const main = asked.main ?? asked.cloth ?? asked.enamel ?? jitter(defaultMain);
  // "a blue knight", "a knight in blue armour": the plate itself is enamelled, steel at its trims
  const armourAsked = (asked.main !== undefined || armourWord) && d.outfit.torso === 'plate';
  if (armourAsked) {
    d.outfit.enamelled = true;
    d.outfit.extras = d.outfit.extras.filter((e) => e !== 'tabard');
  }
  const bodyLook = BODY_LOOKS.has(look);
  const skinTone = rng.pick(SKIN_TONES);
  const picked = d.old
    ? rng.pick([
        [200, 200, 205],
        [235, 235, 240],
      ] as Rgb[])
    : rng.pick(HAIR_COLOURS);
  // a gold crown on blond hair is lost in it: a crowned head's hair is brown unless the prompt says
  const crowned = d.outfit.head === 'crown' || d.outfit.head === 'circlet';
  const hairTone = crowned && picked === HAIR_COLOURS[3] ? HAIR_COLOURS[1]! : picked;
  const t: Record<Slot, Rgb> = {
    skin:
      asked.skin ??
      d.skin ??
      (look === 'creature' || look === 'zombie' ? main : look === 'vampire' ? [200, 196, 214] : skinTone),
    hair: asked.hair ?? d.hair ?? hairTone,
    cloth:
      look === 'knight'
        ? [70, 62, 80]
        : look === 'zombie' && d.outfit.torso !== 'robe'
          ? rng.pick([
              [90, 100, 130],
              [110, 85, 60],
            ] as Rgb[])
          : (asked.cloth ?? main),
    cloth2:
      asked.cloth2 ??
      (it.colors[1]
        ? parseHex(it.colors[1].hex)!
        : bodyLook
          ? mix(main, [250, 245, 230], 0.45)
          : mix(main, [245, 235, 210], 0.55)),
    pants:
      asked.pants ??
      rng.pick([
        [85, 65, 50],
        [60, 60, 75],
        [55, 70, 100],
      ] as Rgb[]),
    hat:
      asked.hat ??
      (d.outfit.head === 'straw'
        ? [225, 195, 110]
        : d.outfit.head === 'cowboy'
          ? [125, 85, 50]
          : d.outfit.head === 'tricorn'
            ? [50, 40, 45]
            : d.outfit.head === 'bandana'
              ? [190, 45, 45]
              : d.outfit.head === 'witch'
                ? [38, 32, 44]
                : main),
    cape:
      asked.cape ?? d.cape ?? (look === 'vampire' ? [150, 25, 40] : look === 'rogue' ? [50, 48, 60] : main),
    enamel: armourAsked
      ? mix(STEEL, asked.enamel ?? main, input.enforced ? 0.85 : 0.7)
      : (asked.enamel ??
        (look === 'knight' || look === 'samurai' ? main : (asked.main ?? rng.pick(HERALDIC)))),
    metal: look === 'robot' ? main : STEEL,
    leather: asked.leather ?? [110, 72, 45],
    gold: [240, 200, 60],
    wood: [130, 85, 50],
    white: [240, 240, 232],
    eye: input.painter.darkest,
    glow: asked.glow ?? (look === 'vampire' ? [220, 40, 50] : [255, 225, 90]),
    bone: look === 'skeleton' ? main : [235, 228, 205],
  };
  if (look === 'creature') t.cloth2 = mix(main, [250, 240, 220], 0.45);
  // a skeleton's main colour is its bone: what it wears (a mage's robe and hat, a cape) is a dark
  // cloth over the bones unless the prompt names a colour, so the skull, the hands and the bone
  // limbs stand out of it (a white robe on white bones read as a snowman wizard: issue #39)
  if (look === 'skeleton' && asked.main === undefined && asked.cloth === undefined) {
    const robe: Rgb = [62, 44, 82];
    t.cloth = robe;
    if (asked.hat === undefined && t.hat === main) t.hat = robe;
    if (asked.cape === undefined && t.cape === main) t.cape = robe;
  }
  // a being's own skin ("a goblin archer": green) never dressed in its own hue unless the prompt
  // says so: the ranger's green on a green goblin was one value range, the head a green hood-blob
  // (issue #39). Its clothes go to brown leather and its hood a darker brown.
  if (
    d.skin &&
    !bodyLook &&
    asked.main === undefined &&
    asked.cloth === undefined &&
    sameHue(t.cloth, t.skin)
  ) {
    const was = t.cloth;
    t.cloth = [122, 84, 52];
    if (asked.hat === undefined && t.hat === was) t.hat = [88, 60, 42];
    if (asked.cape === undefined && t.cape === was) t.cape = [88, 60, 42];
  }
  // what a figure holds in wood (a bow, a staff, a spear's shaft) stands out of brown clothes: a
  // goblin archer's bow was [130, 85, 50] on a [122, 84, 52] tunic, drawn and invisible (issue #39)
  const near = (a: Rgb, b: Rgb) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < 90;
  if (near(t.wood, t.cloth) || near(t.wood, t.cape)) t.wood = [205, 160, 95];
  const out = {} as Record<Slot, StoredRamp>;
  const hex = (c: Rgb) =>
    `#${c
      .map((v) =>
        Math.max(0, Math.min(255, Math.round(v)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  const used: Rgb[] = [];
  const rampFor = (slot: Slot, target: Rgb): StoredRamp => {
    if (slot === 'eye' || slot === 'glow') {
      const c = slot === 'eye' ? target : input.painter.chooseLab(target);
      return [hex(c), hex(c), hex(c), hex(c), hex(c)];
    }
    // the asked and main colours are matched as colour words (their hue kept); others avoid the
    // main body's colour when another is close enough
    const exact = slot === 'cloth' || slot === 'enamel' || slot === 'cape' || slot === 'metal';
    const byWord = exact && !!asked[slot === 'cloth' ? 'cloth' : slot];
    let ramp = input.painter.spriteRamp(target, exact ? [] : used.slice(0, 1), byWord);
    // a colour word's palette colour keeps its hue in light and shadow when the palette is free (a red
    // cape stepped through the palette's neighbours turned orange lit and brown in shadow, so the
    // back of a vampire did not match its side)
    if (byWord && !input.enforced) ramp = { ...input.painter.spriteRamp(ramp.base), base: ramp.base };
    if (slot === 'cloth') used.push(ramp.base);
    let light = ramp.light;
    // a dark material gets a brighter rim, so its shape reads against its own outline
    if (oklab(ramp.base)[0] < 0.32) light = input.painter.shade(ramp.base, 1, 0.45);
    return [hex(ramp.outline), hex(ramp.shadow), hex(ramp.dark), hex(ramp.base), hex(light)];
  };
  for (const slot of SLOTS) out[slot] = rampFor(slot, t[slot]);
  if (!['creature', 'zombie', 'skeleton', 'robot'].includes(look)) separate(out, t, asked, d, rampFor);
  return out;
}
