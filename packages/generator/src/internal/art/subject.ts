import type { DrawingMatch } from '@assetloom/drawings';
import type { AssetType } from '@assetloom/pipeline';
import {
  type Interpretation,
  type KindSpec,
  kindSpec,
  regularSingulars,
} from '@assetloom/pipeline/interpret';
import { loadDrawings } from './library/sprite.js';

/**
 * Where the built-in generator takes a sprite's subject from, decided per subject:
 *
 * 1. People and humanoid creatures the rig knows by kind (knight, pirate, skeleton, goblin …): the
 *    rig, always — a game needs them in true directions and actions, and emoji people are busts.
 * 2. Animals and creatures the rig knows, in an animation, when no colour drawing shows them: the
 *    rig (legs that walk, wings that flap). A drawing moves as a whole (a walking cat, a hopping frog).
 * 3. A colour drawing (Fluent Emoji Flat, Noto Emoji) of the head noun: the drawing — an artist's
 *    drawing reads better than the rig's shapes (a dog, a trophy, a key), and a fox's or a panda's
 *    face reads as a fox or a panda at first glance where the rig's small quadruped reads as some
 *    animal. Whole drawings in their frame come first (see @assetloom/drawings' findDrawings).
 * 4. Whatever else the rig knows by a specific kind (a sword, a potion, a goldfish): the rig.
 * 5. The rig's figure for a person it knows only as a person ("a man", "a doctor").
 * 6. A game-icons.net silhouette (a windmill): coloured, shaded and outlined by the craft passes.
 * 7. The rig's generic beast for a noun that names one.
 * 8. Nothing: the task is refused, the word named, close drawable subjects suggested.
 *
 * A noun no drawing names is tried as the drawable noun WordNet places above it ("tabby" → cat).
 */
export type Source =
  | { kind: 'rig' }
  | {
      kind: 'drawing';
      matches: DrawingMatch[];
      drawnAs?: string;
      via: 'head' | 'label' | 'keyword' | 'hypernym';
    }
  | { kind: 'refused'; word: string | null; suggestions: string[] };

/** Rig kinds too general to stand for a subject a drawing shows better. */
const GENERIC_KINDS = new Set(['person.person', 'animal.beast', 'creature.monster', 'thing.drawing']);
const LABEL_STOP = new Set(['a', 'an', 'the', 'of', 'with', 'and', 'in', 'on', 'at', 'for', 'from']);
const RIG_ACTIONS = new Set(['walk', 'run', 'attack', 'jump', 'hurt', 'death', 'fly', 'idle']);

type Tables = { drawAs: Map<string, string>; near: Map<string, string[]> };
let tables: Promise<Tables> | null = null;
/** WordNet's links from nouns to drawable nouns (generated; loaded on first use). */
function wordnetLinks(): Promise<Tables> {
  if (!tables) {
    tables = import('../../generated/draw-as.js').then(({ DRAW_AS, NEAR }) => {
      const drawAs = new Map<string, string>();
      for (const p of DRAW_AS.split(',')) {
        const i = p.indexOf('=');
        drawAs.set(p.slice(0, i), p.slice(i + 1));
      }
      const near = new Map<string, string[]>();
      for (const p of NEAR.split(',')) {
        const i = p.indexOf('=');
        near.set(p.slice(0, i), p.slice(i + 1).split('+'));
      }
      return { drawAs, near };
    });
    tables.catch(() => {
      tables = null;
    });
  }
  return tables;
}

export interface SourceRequest {
  assetType: AssetType;
  directions: number;
}

/** Decides where the subject of a sprite or animation comes from (see {@link Source}). */
export async function chooseSource(it: Interpretation, request: SourceRequest): Promise<Source> {
  const lib = await loadDrawings();
  const { drawAs, near } = await wordnetLinks();
  const word = it.lemma ?? it.subject;
  if (!it.subject || !word) return { kind: 'refused', word: null, suggestions: [] };
  const spec: KindSpec | undefined = it.kind && it.kind !== 'thing.drawing' ? kindSpec(it.kind) : undefined;
  const generic = !spec || GENERIC_KINDS.has(it.kind ?? '');
  const living = spec !== undefined && spec.plan !== 'object';
  const animation = request.assetType === 'animation';
  const modifiers = it.modifiers ?? [];

  // the drawings of the word (its singulars too), else of the drawable noun above it in WordNet
  let matches: DrawingMatch[] = [];
  let drawnAs: string | undefined;
  const zh = /[\u3400-\u9fff]/.test(word);
  for (const w of zh ? [word] : regularSingulars(word)) {
    matches = lib.findDrawings({ head: w, modifiers });
    if (matches.length) break;
  }
  if (zh && !matches.length && it.subject !== word)
    matches = lib.findDrawings({ head: it.subject, modifiers });
  if (!matches.length && !zh) {
    for (const w of regularSingulars(word)) {
      const as = drawAs.get(w);
      if (!as) continue;
      // drawn as its hypernym only in that hypernym's own drawing ("water", not "holy water")
      matches = lib.findDrawings({ head: as, modifiers }).filter((m) => m.typical || m.drawing.label === as);
      if (matches.length) {
        drawnAs = as;
        break;
      }
    }
  }
  // a colour drawing whose label adds two words the prompt did not ask for is a particular kind of
  // the thing ("red paper lantern" for "a lantern"): not the typical one
  const asked = new Set([...modifiers, word]);
  const particular = (m: DrawingMatch) =>
    m.drawing.label
      .split(/[\s-]+/)
      .filter((w) => !asked.has(w) && !m.drawing.heads.includes(w) && !LABEL_STOP.has(w)).length >= 2;
  const colour = matches.filter((m) => !m.drawing.silhouette && !particular(m));
  const silhouettes = matches.filter((m) => m.drawing.silhouette && m.via !== 'keyword');
  const via = drawnAs ? 'hypernym' : undefined;
  const drawing = (list: DrawingMatch[]): Source => ({
    kind: 'drawing',
    matches: list,
    ...(drawnAs ? { drawnAs } : {}),
    via: via ?? list[0]!.via,
  });

  // a drawing whose label is the whole phrase ("police officer") is what was asked, whatever kind
  // the head alone would be ("officer" is a soldier to the rig)
  const phrase = colour.find((m) => m.via === 'label');
  if (phrase && modifiers.length) return drawing([phrase, ...colour.filter((m) => m !== phrase)]);
  // the drawing a game maker means by the noun, chosen by hand (a fence is a wooden fence)
  const typical = matches.filter((m) => m.typical);
  if (typical.length) return drawing(typical);
  const humanoid = spec !== undefined && spec.plan === 'biped' && /^(person|creature)\./.test(it.kind ?? '');
  if (humanoid && !generic) return { kind: 'rig' };
  // an animal in motion: a colour drawing of it moves as a whole (a cat emoji walks with a waddle
  // and a bob, a frog's face hops); without one, the rig's legs and wings
  if (spec && !generic && living && animation && RIG_ACTIONS.has(it.action ?? 'walk') && !colour.length)
    return { kind: 'rig' };
  // a colour drawing, even of the head alone (a fox's face reads as a fox at once; the rig's small
  // quadruped reads as some animal)
  const best = colour[0];
  if (best) return drawing(colour);
  if (spec && !generic) return { kind: 'rig' };
  // a person the rig knows only as a person ("a man", "a doctor") is its figure, not a silhouette icon
  if (spec && spec.plan === 'biped') return { kind: 'rig' };
  if (silhouettes.length) return drawing(silhouettes);
  if (spec) return { kind: 'rig' };

  // refused: close drawable subjects — WordNet's neighbours, then nouns spelt alike
  const suggestions = [...new Set([...(near.get(word) ?? []), ...lib.drawableLike(word, 3)])].slice(0, 4);
  return { kind: 'refused', word: it.subject, suggestions };
}
