/**
 * A role noun on a being (issue #39, decision 0075): "an orc archer", "a zombie wizard", "a lizard
 * warrior", "一个哥布林法师". The prompt reader takes the being for the look (the kind) and keeps the
 * role as the subject; the figure rig puts the role's class — its headwear, clothes and what it
 * holds — on that being. An animal in a role ("a cat chef", "a rat king") is drawn standing, as the
 * figure with the animal's ears, snout, tail and colour; a being no figure can carry (a slime, a fish,
 * a spider) is refused in a role rather than drawn without it.
 */
import { type Interpretation, interpret, kindSpec, nounLemma } from '@assetloom/pipeline/interpret';
import type { Look } from './identity.js';
import { ARCHETYPES, ARCHETYPES_ZH, type Archetype, KIND_LOOKS } from './outfits.js';

export interface Role {
  /** The role's word as written ("archer", "法师"), and its English lemma ("wizard"). */
  word: string;
  lemma: string;
  /** The role's own lexicon kind (person.archer): its colour is the clothes' when no word names one. */
  kind: string;
  /** The class it dresses the being in, when it names one (an archer's look); a miner has none. */
  look?: Look;
  archetype?: Archetype;
  /** The being is an animal or a four-legged creature: drawn standing, as the figure. */
  anthro: boolean;
  /** No figure carries it (a slime, a fish, a ghost): the role is not drawn. */
  undrawable: boolean;
}

/** Words of a person's sex or age before a role: the person's, never a being of their own. */
const SEX_WORDS = new Set(['female', 'male', 'young', 'old', 'adult', 'baby']);

/** Body plans a standing figure shows: a cat, a lizard, a frog, a bird stand as people do in games. */
const STANDS = new Set(['biped', 'quadruped', 'bird']);

const cache = new Map<string, string | undefined>();
/** The lexicon kind of a noun alone ("archer" → person.archer), cached. */
export function kindOfWord(word: string): string | undefined {
  if (!cache.has(word))
    cache.set(word, interpret({ assetType: 'sprite', userPrompt: `a ${word}`, tags: [], style: {} }).kind);
  return cache.get(word);
}

/**
 * The role the prompt's subject names on another being (its kind), or null: the subject is a person
 * noun of a class or trade the rig dresses (an archetype, or a person kind with a class of its own),
 * and the kind was taken from a being before it (the reading's lemma is that being's, not the role's).
 */
export function roleOn(it: Interpretation): Role | null {
  const subject = it.subject;
  if (!subject || !it.kind || !it.lemma || /^person\./.test(it.kind)) return null;
  const zh = /[\u3400-\u9fff]/.test(subject);
  const lemma = zh ? ARCHETYPES_ZH[subject] : (nounLemma(subject.toLowerCase()) ?? subject.toLowerCase());
  if (!lemma || lemma === it.lemma || ARCHETYPES_ZH[it.lemma] === lemma) return null;
  const roleKind = kindOfWord(lemma);
  if (!roleKind || !/^person\./.test(roleKind)) return null;
  const archetype = ARCHETYPES[lemma];
  const look = archetype?.look ?? KIND_LOOKS[roleKind];
  if (!archetype && !look) return null;
  const spec = kindSpec(it.kind);
  if (!spec) return null;
  const animal = /^animal\./.test(it.kind) || spec.plan !== 'biped';
  return {
    word: subject,
    lemma,
    kind: roleKind,
    ...(look ? { look } : {}),
    ...(archetype ? { archetype } : {}),
    anthro: animal && STANDS.has(spec.plan),
    undrawable: !STANDS.has(spec.plan),
  };
}

/**
 * "a fox rogue", "a dog guard", "a mouse miner": the reader takes a role it knows only as a person
 * for a plain person and leaves the animal before it aside. The animal is the being the role is on:
 * the reading's kind and lemma become the animal's, and the word is understood (changes `it`).
 */
export function takeBeingBeforeRole(it: Interpretation): void {
  if (it.kind !== 'person.person' || !it.lemma || !ARCHETYPES[it.lemma]) return;
  const m = it.modifiers?.at(-1);
  if (!m || !it.ignored.includes(m) || /[\u3400-\u9fff]/.test(m)) return;
  // a person's sex is no being ("female" is first an animal in WordNet: "a female ranger" drew a beast)
  if (SEX_WORDS.has(m.toLowerCase())) return;
  const lemma = nounLemma(m.toLowerCase());
  const kind = lemma ? kindOfWord(lemma) : undefined;
  if (!lemma || !kind || !/^(animal|creature)\./.test(kind)) return;
  it.kind = kind;
  it.lemma = lemma;
  it.ignored = it.ignored.filter((w) => w !== m);
  if (!it.understood.includes(m)) it.understood = [...it.understood, m];
}

/**
 * Materials a being may be said to be made of ("a bone warrior", "a stone knight", "an ice wolf",
 * "a crystal spider"): a colour on a figure or a drawing is a being in that colour, never one made of
 * it (issue #39, decision 0138). Gold, silver, bronze and copper are colours a being may well wear.
 */
const BEING_STUFF = new Set([
  'bone',
  'stone',
  'stony',
  'ice',
  'icy',
  'crystal',
  'glass',
  'wood',
  'wooden',
  'iron',
  'steel',
  'metal',
  'metallic',
]);
/** Kinds whose body is a material ("a stone golem", "an iron robot"): its colour is its stuff. */
export const MADE_KINDS = new Set(['creature.golem', 'creature.robot']);

/** The being a sprite names and the material word before it, when the reading has both. */
export function beingStuff(it: Interpretation): { word: string; stuff: string } | null {
  const stuff = it.material;
  if (!stuff || !BEING_STUFF.has(stuff) || !it.kind || !it.subject) return null;
  const spec = kindSpec(it.kind);
  if (!spec || spec.plan === 'object') return null;
  const word = it.understood.find((w) => w.toLowerCase() === stuff);
  return word ? { word, stuff } : null;
}

/**
 * A humanoid made of bone is a skeleton ("a bone warrior", "a bone knight"): the rig's skeleton in
 * the role the noun names, as "a skeleton warrior" reads (issue #39: a warrior in beige). Changes `it`.
 */
export function boneBeing(it: Interpretation): void {
  const found = beingStuff(it);
  if (found?.stuff !== 'bone') return;
  const kind = it.kind!;
  if (kindSpec(kind)?.plan !== 'biped' || kind === 'creature.skeleton' || MADE_KINDS.has(kind)) return;
  if (!/^(person|creature)\./.test(kind)) return;
  it.kind = 'creature.skeleton';
  it.lemma = 'skeleton';
  // the skeleton's own bone colour, not a beige cast over its robe and cape
  it.colors = it.colors.filter((c) => c.word !== found.word);
  delete it.material;
}
