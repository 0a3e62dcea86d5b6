import { type Interpretation, interpret, type Scene, tokenize } from '../interpret/index.js';
import type { StyleMap } from '../types/index.js';

/** The ground materials the tileset generator draws. */
export type TerrainName =
  | 'grass'
  | 'water'
  /** A lake's or pond's still fresh water: lighter and greener than the sea, lily pads on it. */
  | 'freshwater'
  | 'sand'
  | 'dirt'
  | 'mud'
  /** Large cut slabs (flagstones). */
  | 'stone'
  /** Rounded cobbles with dark gaps. */
  | 'cobble'
  /** Bricks in stretcher bond with dark mortar. */
  | 'brick'
  | 'rock'
  | 'lava'
  | 'snow'
  | 'ice'
  /** Laid stone blocks: a dungeon's walls round its rooms and corridors (not walked on). */
  | 'wall'
  /** Wooden planks with grain and nails. */
  | 'wood'
  /** Riveted metal plates. */
  | 'metal'
  /** Roof tiles (shingles) in overlapping rows. */
  | 'roof';

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
  // (decision 0142: the olive [96, 92, 44] fell on the default palette's teal-green, read as deep
  // water or moss) wet brown earth, darker than dirt
  mud: { name: 'mud', color: [112, 86, 44], height: 1, liquid: false },
  stone: { name: 'stone', color: [140, 144, 150], height: 4, liquid: false },
  cobble: { name: 'cobble', color: [132, 132, 136], height: 4, liquid: false },
  brick: { name: 'brick', color: [160, 74, 56], height: 5, liquid: false },
  rock: { name: 'rock', color: [104, 98, 92], height: 5, liquid: false },
  lava: { name: 'lava', color: [236, 84, 28], height: 0, liquid: true },
  snow: { name: 'snow', color: [236, 242, 246], height: 3, liquid: false },
  ice: { name: 'ice', color: [150, 212, 236], height: 1, liquid: false },
  wall: { name: 'wall', color: [86, 90, 98], height: 6, liquid: false },
  wood: { name: 'wood', color: [196, 124, 52], height: 3, liquid: false },
  metal: { name: 'metal', color: [124, 132, 146], height: 4, liquid: false },
  roof: { name: 'roof', color: [200, 76, 70], height: 6, liquid: false },
  // last, so the materials before it keep their places (the tests seed by the index)
  freshwater: { name: 'freshwater', color: [60, 170, 190], height: 0, liquid: true },
};

/**
 * The water of a swamp (beside mud): still, dark and murky green-grey — a hue and a value step from
 * the brown mud round it since decision 0142 (beside the old olive mud, which fell on the same
 * teal, it had neither and did not read as water; [52, 84, 64] was the mud's value in endesga32).
 */
const MURKY_WATER: TerrainSpec = { ...TERRAINS.water, color: [36, 64, 60] };

/** Basalt: a dark volcanic rock, near-black with cool lights (decision 0142: it drew grey paving). */
const BASALT: TerrainSpec = { ...TERRAINS.rock, color: [48, 50, 60] };

/** Words (English, and Chinese through the lexicon's glosses) naming a terrain. */
const WORDS: Record<string, TerrainName> = {
  grass: 'grass',
  grassy: 'grass',
  grassland: 'grass',
  meadow: 'grass',
  lawn: 'grass',
  field: 'grass',
  turf: 'grass',
  // a forest's, a wood's or a jungle's floor is its grass and undergrowth ("forest floor" drew
  // flagstones: "floor" alone is paving)
  forest: 'grass',
  woodland: 'grass',
  woods: 'grass',
  jungle: 'grass',
  water: 'water',
  sea: 'water',
  ocean: 'water',
  lake: 'water',
  river: 'water',
  pond: 'water',
  shallow: 'water',
  freshwater: 'freshwater',
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
  flagstone: 'stone',
  slab: 'stone',
  pavement: 'stone',
  paving: 'stone',
  floor: 'stone',
  cobble: 'cobble',
  cobbled: 'cobble',
  cobblestone: 'cobble',
  brick: 'brick',
  brickwork: 'brick',
  wall: 'wall',
  masonry: 'wall',
  wood: 'wood',
  wooden: 'wood',
  plank: 'wood',
  board: 'wood',
  timber: 'wood',
  deck: 'wood',
  metal: 'metal',
  metallic: 'metal',
  steel: 'metal',
  iron: 'metal',
  roof: 'roof',
  shingle: 'roof',
  rooftop: 'roof',
  rock: 'rock',
  rocky: 'rock',
  cliff: 'rock',
  mountain: 'rock',
  cave: 'rock',
  basalt: 'rock',
  lava: 'lava',
  magma: 'lava',
  molten: 'lava',
  volcano: 'lava',
  volcanic: 'lava',
  snow: 'snow',
  snowy: 'snow',
  snowfield: 'snow',
  snowdrift: 'snow',
  ice: 'ice',
  icy: 'ice',
  frozen: 'ice',
};

/** Places whose bricks are grey laid stone. */
const STONE_PLACES =
  /\b(dungeons?|crypts?|catacombs?|castles?|prisons?|jails?|tombs?|cellars?|keeps?|fortress(es)?)\b|地牢|城堡|监狱|墓穴/;

/**
 * Surfaces and shapes a material word before them makes of that material ("a brick wall", "a wooden
 * floor", "a cobblestone road", "a lava river"): the pair is one terrain, the material's.
 */
const SHAPED_BY: Readonly<Record<string, true>> = {
  wall: true,
  floor: true,
  ground: true,
  road: true,
  path: true,
  street: true,
  surface: true,
  texture: true,
  tile: true,
  river: true,
  lake: true,
  pond: true,
  pool: true,
  stream: true,
  sea: true,
  flow: true,
  plate: true,
  block: true,
};

/**
 * Ground materials a prompt may name that no terrain draws: a tileset of one is refused by the
 * built-in generator (never drawn as another material), see {@link undrawnMaterial}.
 */
const UNDRAWN: ReadonlySet<string> = new Set([
  'marble',
  'carpet',
  'rug',
  'glass',
  'crystal',
  'concrete',
  'asphalt',
  'tarmac',
  'gravel',
  'hay',
  'straw',
  'obsidian',
  'parquet',
  'tatami',
]);

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
  ['鹅卵石', 'cobble'],
  ['砖', 'brick'],
  ['木板', 'wood'],
  ['金属', 'metal'],
  ['屋顶', 'roof'],
  ['瓦', 'roof'],
  ['石', 'stone'],
  ['雪', 'snow'],
  ['冰', 'ice'],
];

/** Chinese surfaces a terrain word before them makes of that terrain ("石板路", "砖墙", "石头地面"). */
const ZH_SHAPED: readonly string[] = ['路', '道', '小路', '小径', '路面', '墙', '墙壁', '地', '地面', '地板'];

/** What goes with a terrain named alone. */
const PARTNER: Record<TerrainName, TerrainName> = {
  grass: 'water',
  water: 'sand',
  freshwater: 'grass',
  sand: 'water',
  dirt: 'grass',
  mud: 'water',
  stone: 'grass',
  rock: 'lava',
  lava: 'rock',
  snow: 'ice',
  ice: 'snow',
  wall: 'stone',
  cobble: 'grass',
  brick: 'grass',
  wood: 'dirt',
  metal: 'stone',
  roof: 'brick',
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
  const known = (w: string) => WORDS[w] !== undefined || SHAPED_BY[w] !== undefined;
  if (known(word)) return word;
  if (word.endsWith('es') && known(word.slice(0, -2))) return word.slice(0, -2);
  if (word.endsWith('s') && known(word.slice(0, -1))) return word.slice(0, -1);
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
  // the word before this one, when it named a material (a surface after it is that material's)
  let material: (typeof hits)[number] | null = null;
  const absorbed: string[] = [];
  const tokens = tokenize(text);
  for (const [i, token] of tokens.entries()) {
    const at = lower.indexOf(token.text, cursor);
    if (at >= 0) cursor = at + token.text.length;
    if (token.zh) {
      material = null;
      continue;
    }
    // a hyphened compound is its last terrain word ("stone-slab" the slabs, "dirt-road" the dirt)
    const parts = token.en.includes('-') ? token.en.split('-').map(singular) : [];
    const word =
      WORDS[singular(token.en)] !== undefined
        ? singular(token.en)
        : (parts.findLast((p) => WORDS[p]) ?? singular(token.en));
    const shape = SHAPED_BY[word];
    if (material && shape) {
      // "a brick wall", "wooden floor", "lava river": the material is the surface; a stone wall is
      // the laid blocks of a wall
      absorbed.push(token.text, word);
      if (word === 'wall' && (material.name === 'stone' || material.name === 'rock')) material.name = 'wall';
      material = null;
      continue;
    }
    // "a river of lava", "a floor of bricks": the shape is of the material named after it
    const of =
      shape && tokens[i + 1]?.en === 'of' && tokens.slice(i + 2, i + 4).some((o) => WORDS[singular(o.en)]);
    if (of) {
      absorbed.push(token.text, word);
      material = null;
      continue;
    }
    // bricks of a dungeon, a crypt or a castle are its grey laid stone, not a house's red brick ("a
    // dungeon brick wall" read as a cheerful pink house wall to a reviewer)
    const place = WORDS[word] === 'brick' ? STONE_PLACES.exec(lower) : null;
    if (place) absorbed.push(place[0]);
    const name = place ? 'wall' : WORDS[word];
    material = name ? { at, name, word: token.text } : null;
    if (material) hits.push(material);
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
    // one terrain of a named place's grounds goes with the place's other ground ("dungeon
    // flagstones": rock, not grass; decision 0082), else with its usual partner
    else
      names.push(
        pair?.includes(names[0]!)
          ? (pair.find((n) => n !== names[0]) ?? PARTNER[names[0]!])
          : PARTNER[names[0]!],
      );
    names = names.slice(0, count);
  }
  words.push(...absorbed);
  // Chinese: a word holding a drawn terrain's word ("石板" flagstones holds 石) and a surface word
  // right after one ("石板路": the path is of the slabs) are drawn, never "not in the picture"
  // (issue #39, decision 0078)
  const drawn = hits.filter((h) => names.includes(h.name) && /[\u3400-\u9fff]/.test(h.word));
  for (const w of base.ignored) {
    if (!/[\u3400-\u9fff]/.test(w)) continue;
    const at = lower.indexOf(w);
    const holds = drawn.some((h) => w.includes(h.word));
    const after =
      ZH_SHAPED.includes(w) &&
      drawn.some((h) => {
        // the surface word follows the terrain's word, or the lexicon word that holds it ("石板")
        const held = base.ignored.find(
          (x) => x.includes(h.word) && lower.indexOf(x) <= h.at && lower.indexOf(x) + x.length > h.at,
        );
        const end = held ? lower.indexOf(held) + held.length : h.at + h.word.length;
        return at === end;
      });
    if (holds || after) words.push(w);
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
  // a swamp's, bog's or marsh's water is murky green-brown, not a clear blue pond beside its mud
  // (the blind review after 1130: "red wasteland with clear blue ponds"; decision 0104)
  const dark = hits.some((h) => h.name === 'rock' && /^basalt/i.test(h.word));
  return { terrains: terrainSpecsOf(names, dark), interpretation };
}

/**
 * The specs of a set's (or a level's) terrains: water beside mud is a swamp's, murky green-brown
 * (decision 0104 for tilesets; 0128 for levels, whose swamp pools were clear blue).
 */
export function terrainSpecsOf(names: readonly TerrainName[], basalt = false): TerrainSpec[] {
  const murky = names.includes('mud');
  return names.map((n) =>
    n === 'water' && murky ? MURKY_WATER : n === 'rock' && basalt ? BASALT : TERRAINS[n],
  );
}

/**
 * The first ground material the prompt names that no terrain draws ("a marble floor", "carpet
 * tiles"), or null: the built-in generator refuses it rather than drawing another material.
 */
export function undrawnMaterial(input: { userPrompt: string; tags: readonly string[] }): string | null {
  for (const token of tokenize(`${input.userPrompt} ${input.tags.join(' ')}`)) {
    if (token.zh) continue;
    const w = token.en;
    for (const form of [w, w.endsWith('s') ? w.slice(0, -1) : w]) if (UNDRAWN.has(form)) return token.text;
  }
  return null;
}

/** Every terrain the built-in generator draws, for a refusal to name. */
export const TERRAIN_NAMES: readonly TerrainName[] = Object.keys(TERRAINS) as TerrainName[];
