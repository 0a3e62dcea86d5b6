import { type Interpretation, interpret, type Scene, tokenize } from '../interpret/index.js';
import type { StyleMap } from '../types/index.js';

/** The ground materials the tileset generator draws. */
export type TerrainName =
  | 'grass'
  | 'water'
  | 'sand'
  | 'dirt'
  | 'mud'
  | 'stone'
  | 'rock'
  | 'lava'
  | 'snow'
  | 'ice'
  /** Laid stone blocks: a dungeon's walls round its rooms and corridors (not walked on). */
  | 'wall';

export interface TerrainSpec {
  name: TerrainName;
  /** Target colour before palette mapping. */
  color: readonly [number, number, number];
  /** Which terrain lies on top where two meet (the higher one gets the bank, the lower the shadow). */
  height: number;
  /** Liquids get a foam or glow line and shallow dithering at the shore instead of a cast shadow. */
  liquid: boolean;
}

export const TERRAINS: Readonly<Record<TerrainName, TerrainSpec>> = {
  grass: { name: 'grass', color: [88, 160, 56], height: 3, liquid: false },
  water: { name: 'water', color: [52, 104, 200], height: 0, liquid: true },
  sand: { name: 'sand', color: [226, 196, 120], height: 2, liquid: false },
  dirt: { name: 'dirt', color: [138, 92, 52], height: 2, liquid: false },
  mud: { name: 'mud', color: [92, 68, 48], height: 1, liquid: false },
  stone: { name: 'stone', color: [140, 144, 150], height: 4, liquid: false },
  rock: { name: 'rock', color: [104, 98, 92], height: 5, liquid: false },
  lava: { name: 'lava', color: [236, 84, 28], height: 0, liquid: true },
  snow: { name: 'snow', color: [236, 242, 246], height: 3, liquid: false },
  ice: { name: 'ice', color: [150, 212, 236], height: 1, liquid: false },
  wall: { name: 'wall', color: [150, 120, 96], height: 6, liquid: false },
};

/** Words (English, and Chinese through the lexicon's glosses) naming a terrain. */
const WORDS: Record<string, TerrainName> = {
  grass: 'grass',
  grassy: 'grass',
  grassland: 'grass',
  meadow: 'grass',
  lawn: 'grass',
  field: 'grass',
  turf: 'grass',
  water: 'water',
  sea: 'water',
  ocean: 'water',
  lake: 'water',
  river: 'water',
  pond: 'water',
  shallow: 'water',
  sand: 'sand',
  sandy: 'sand',
  beach: 'sand',
  desert: 'sand',
  dune: 'sand',
  dirt: 'dirt',
  soil: 'dirt',
  earth: 'dirt',
  mud: 'mud',
  muddy: 'mud',
  swamp: 'mud',
  bog: 'mud',
  marsh: 'mud',
  stone: 'stone',
  cobble: 'stone',
  cobblestone: 'stone',
  pavement: 'stone',
  paving: 'stone',
  brick: 'stone',
  floor: 'stone',
  rock: 'rock',
  rocky: 'rock',
  cliff: 'rock',
  mountain: 'rock',
  cave: 'rock',
  lava: 'lava',
  magma: 'lava',
  volcano: 'lava',
  volcanic: 'lava',
  snow: 'snow',
  snowy: 'snow',
  ice: 'ice',
  icy: 'ice',
  frozen: 'ice',
};

/** Chinese terrain words the lexicon does not gloss (沙 has no entry of its own, 岩浆 is missing). */
const ZH_WORDS: ReadonlyArray<[string, TerrainName]> = [
  ['沙漠', 'sand'],
  ['沙滩', 'sand'],
  ['沙子', 'sand'],
  ['沙', 'sand'],
  ['岩浆', 'lava'],
  ['熔岩', 'lava'],
  ['泥', 'mud'],
  ['沼泽', 'mud'],
  ['海', 'water'],
  ['河', 'water'],
  ['水', 'water'],
  ['草', 'grass'],
  ['土', 'dirt'],
  ['岩石', 'rock'],
  ['石', 'stone'],
  ['雪', 'snow'],
  ['冰', 'ice'],
];

/** What goes with a terrain named alone. */
const PARTNER: Record<TerrainName, TerrainName> = {
  grass: 'water',
  water: 'sand',
  sand: 'water',
  dirt: 'grass',
  mud: 'water',
  stone: 'grass',
  rock: 'lava',
  lava: 'rock',
  snow: 'ice',
  ice: 'snow',
  wall: 'stone',
};

/** The two terrains of a scene named without terrain words ("a beach", "a volcano"). */
const SCENE_TERRAINS: Partial<Record<Scene, [TerrainName, TerrainName]>> = {
  grassland: ['grass', 'water'],
  forest: ['grass', 'dirt'],
  desert: ['sand', 'rock'],
  snow: ['snow', 'ice'],
  ocean: ['water', 'sand'],
  beach: ['sand', 'water'],
  volcano: ['rock', 'lava'],
  swamp: ['mud', 'water'],
  city: ['stone', 'grass'],
  village: ['grass', 'dirt'],
  dungeon: ['stone', 'rock'],
  cave: ['rock', 'water'],
  castle_hall: ['stone', 'rock'],
  tavern: ['stone', 'dirt'],
  underwater: ['sand', 'water'],
};

export interface TerrainChoice {
  /** Two terrains (wang16, blob47) or one (seamless), in prompt order. */
  terrains: TerrainSpec[];
  /** How the generator read the prompt, with the terrain words among the understood ones. */
  interpretation: Interpretation;
}

function singular(word: string): string {
  if (WORDS[word]) return word;
  if (word.endsWith('es') && WORDS[word.slice(0, -2)]) return word.slice(0, -2);
  if (word.endsWith('s') && WORDS[word.slice(0, -1)]) return word.slice(0, -1);
  return word;
}

/**
 * The terrains a tileset prompt names ("grass and water", "沙子和熔岩", "a sandy beach"), read with
 * the pipeline's own tokenizer; a scene word stands for its usual pair, one terrain gets its
 * usual partner, nothing at all gives grass and water.
 */
export function chooseTerrains(
  input: { userPrompt: string; tags: readonly string[]; style: StyleMap },
  count: 1 | 2,
): TerrainChoice {
  const base = interpret({ assetType: 'background', ...input });
  const text = `${input.userPrompt} ${input.tags.join(' ')} ${input.style.scene ?? ''} ${input.style.biome ?? ''}`;
  const lower = text.toLowerCase();
  const hits: Array<{ at: number; name: TerrainName; word: string }> = [];
  let cursor = 0;
  for (const token of tokenize(text)) {
    const at = lower.indexOf(token.text, cursor);
    if (at >= 0) cursor = at + token.text.length;
    if (token.zh) continue;
    const name = WORDS[singular(token.en)];
    if (name) hits.push({ at, name, word: token.text });
  }
  // Chinese: longest terrain word first at each position
  for (let i = 0; i < lower.length; i++) {
    const hit = ZH_WORDS.find(([w]) => lower.startsWith(w, i));
    if (!hit) continue;
    hits.push({ at: i, name: hit[1], word: hit[0] });
    i += hit[0].length - 1;
  }
  hits.sort((a, b) => a.at - b.at);
  const found: TerrainName[] = [];
  const words: string[] = [];
  for (const h of hits) {
    words.push(h.word);
    if (!found.includes(h.name)) found.push(h.name);
  }
  let names: TerrainName[] = found.slice(0, count);
  if (names.length < count) {
    const pair = base.scene ? SCENE_TERRAINS[base.scene] : undefined;
    if (names.length === 0) names = pair ? [...pair] : ['grass', 'water'];
    else names.push(PARTNER[names[0]!]);
    names = names.slice(0, count);
  }
  const understood = [...new Set([...base.understood, ...words])];
  const ignored = base.ignored.filter(
    (w) => !words.some((x) => x === w || (x.includes(w) && /[\u3400-\u9fff]/.test(w))),
  );
  const interpretation: Interpretation = {
    ...base,
    subject: `${names.join(' and ')} tileset`,
    understood,
    ignored,
  };
  return { terrains: names.map((n) => TERRAINS[n]), interpretation };
}
