import type { Interpretation, Scene, TimeOfDay, Weather } from '@assetloom/pipeline/interpret';
import { nounLemma, sceneOf, tokenize, wordClass } from '@assetloom/pipeline/interpret';

/**
 * What a background prompt names, as the scene composer draws it: the setting (where it is), the
 * layout (a corridor, a street), the time and weather, and the elements it puts in the picture
 * (palm trees, pyramids, torches, a full moon, fireflies, a harbour, a waterfall …).
 */
export type ElementKind =
  | 'sun'
  | 'moon'
  | 'full-moon'
  | 'stars'
  | 'clouds'
  | 'rainbow'
  | 'lightning'
  | 'aurora'
  | 'mountains'
  | 'hills'
  | 'volcano'
  | 'pyramids'
  | 'dunes'
  | 'palms'
  | 'pines'
  | 'trees'
  | 'cacti'
  | 'dead-trees'
  | 'bamboo'
  | 'wheat'
  | 'blossom-trees'
  | 'flowers'
  | 'rocks'
  | 'mushrooms'
  | 'sea'
  | 'lake'
  | 'river'
  | 'waterfall'
  | 'harbour'
  | 'boats'
  | 'lighthouse'
  | 'bridge'
  | 'wall'
  | 'castle'
  | 'houses'
  | 'ruins'
  | 'temple'
  | 'windmill'
  | 'tents'
  | 'skyline'
  | 'neon'
  | 'street-lamps'
  | 'road'
  | 'fence'
  | 'torches'
  | 'campfire'
  | 'fireflies'
  | 'lanterns'
  | 'coral'
  | 'seaweed'
  | 'fish'
  | 'bubbles'
  | 'crystals'
  | 'banners'
  | 'barrels'
  | 'throne'
  | 'chandelier'
  | 'bookshelves'
  | 'planets'
  | 'nebula'
  | 'asteroids'
  | 'snowman'
  | 'graves';

/** English words (lemmas, and the English the lexicon gives a Chinese word) for each element. */
const WORDS: ReadonlyArray<[ElementKind, string]> = [
  ['sun', 'sun sunny sunshine sunlight sunlit sunrise sunset'],
  ['moon', 'moon moonlit moonlight moonrise crescent'],
  ['stars', 'star stars starry starlit starlight constellation'],
  ['clouds', 'cloud clouds cloudy overcast'],
  ['rainbow', 'rainbow'],
  ['lightning', 'lightning thunder thunderstorm'],
  ['aurora', 'aurora'],
  ['mountains', 'mountain mountains peak peaks alps cliff cliffs summit ridge'],
  ['hills', 'hill hills'],
  ['volcano', 'volcano volcanoes volcanic lava magma eruption'],
  ['pyramids', 'pyramid pyramids sphinx'],
  ['dunes', 'dune dunes'],
  ['palms', 'palm palms'],
  ['pines', 'pine pines fir firs spruce conifer evergreen'],
  ['trees', 'tree trees woods grove oak oaks orchard'],
  ['cacti', 'cactus cacti'],
  ['dead-trees', 'deadwood'],
  ['bamboo', 'bamboo bamboos'],
  ['wheat', 'wheat wheatfield wheatfields barley grain crops rye'],
  ['blossom-trees', 'blossom blossoms sakura cherry'],
  ['flowers', 'flower flowers meadow blooms tulips roses daisies'],
  ['rocks', 'rock rocks boulder boulders stones pebbles'],
  ['mushrooms', 'mushroom mushrooms toadstool toadstools fungus'],
  ['sea', 'sea ocean oceans seaside coast shore waves wave surf seawater'],
  ['lake', 'lake pond lagoon'],
  ['river', 'river stream creek brook'],
  ['waterfall', 'waterfall waterfalls cascade falls'],
  ['harbour', 'harbour harbor port dock docks pier wharf marina'],
  ['boats', 'boat boats ship ships sailboat sailboats galleon'],
  ['lighthouse', 'lighthouse'],
  ['bridge', 'bridge'],
  [
    'wall',
    'wall walls rampart ramparts fortification fortifications battlement battlements bulwark bulwarks palisade palisades parapet parapets stockade',
  ],
  ['castle', 'castle castles fortress citadel palace'],
  ['houses', 'house houses cottage cottages hut huts cabin farmhouse'],
  ['ruins', 'ruin ruins'],
  ['temple', 'temple shrine pagoda'],
  ['windmill', 'windmill windmills'],
  ['tents', 'tent tents camp campsite'],
  ['skyline', 'skyscraper skyscrapers skyline buildings tower towers'],
  ['neon', 'neon cyberpunk sign signs billboard billboards hologram'],
  ['street-lamps', 'lamppost lampposts streetlight streetlights lamp lamps'],
  ['road', 'road path trail'],
  ['fence', 'fence fences'],
  ['torches', 'torch torches brazier braziers sconce'],
  ['campfire', 'campfire bonfire fire'],
  ['fireflies', 'firefly fireflies'],
  ['lanterns', 'lantern lanterns'],
  ['coral', 'coral corals reef'],
  ['seaweed', 'seaweed kelp algae'],
  ['fish', 'fish fishes shark sharks whale jellyfish turtle dolphin dolphins'],
  ['bubbles', 'bubble bubbles'],
  ['crystals', 'crystal crystals gem gems'],
  ['banners', 'banner banners flag flags tapestry'],
  ['barrels', 'barrel barrels crate crates'],
  ['throne', 'throne'],
  ['chandelier', 'chandelier candle candles'],
  ['bookshelves', 'bookshelf bookshelves books library'],
  ['planets', 'planet planets moons saturn jupiter'],
  ['nebula', 'nebula galaxy galaxies'],
  ['asteroids', 'asteroid asteroids meteor meteors comet'],
  ['snowman', 'snowman'],
  [
    'graves',
    'grave graves graveyard graveyards cemetery cemeteries tombstone tombstones headstone headstones gravestone gravestones',
  ],
];
/** Chinese words whose dictionary gloss loses the kind ("棕榈树" glosses as "palm tree", read as a tree). */
const ZH_WORDS: ReadonlyArray<[ElementKind, string]> = [
  ['palms', '棕榈树 棕榈 椰子树 椰树'],
  ['pines', '松树 松林 杉树'],
  ['blossom-trees', '樱花 樱花树 桃花'],
  ['cacti', '仙人掌'],
  ['torches', '火把 火炬'],
  ['neon', '霓虹 霓虹灯'],
  ['full-moon', '满月'],
  ['pyramids', '金字塔'],
  ['waterfall', '瀑布'],
  ['coral', '珊瑚'],
  ['lighthouse', '灯塔'],
  ['fireflies', '萤火虫'],
  ['lanterns', '灯笼'],
  ['windmill', '风车'],
  ['wall', '城墙 墙 围墙 长城'],
  ['bamboo', '竹 竹子 竹林'],
  ['wheat', '麦 小麦 麦子 麦田'],
];
const KIND_OF = new Map<string, ElementKind>();
for (const [kind, words] of [...WORDS, ...ZH_WORDS]) for (const w of words.split(' ')) KIND_OF.set(w, kind);

/** Words about the picture, not things in it: they are neither elements nor dropped. */
const NOT_THINGS = new Set(
  'background scene view landscape wallpaper panorama vista game level backdrop pixel art style interior outside inside night day dawn dusk evening morning noon midnight sunset sunrise twilight rain snow fog storm mist light lights parallax sky skies horizon scenery'.split(
    ' ',
  ),
);
/** Modifiers an element's drawing honours ("a full moon", "outer space", "palm trees", "an erupting volcano"). */
const HONOURED = new Set(
  'fortified full crescent outer deep distant far faraway tall high huge giant big small little old ancient snowy snowcapped snow-capped starry erupting active rocky sandy sunny tropical palm pine cherry dead bare neon stormy rainy foggy misty frozen icy underground dark dim night evening glowing shining sparkling rolling green lush medieval japanese chinese asian shinto pirate wooden stone calm quiet peaceful'.split(
    ' ',
  ),
);
/** Words of alchemy: a workshop or a laboratory they name is one of old (decision 0098). */
const ALCHEMY = /alchem|apothecar|potion|wizard|witch|sorcer|炼金/;
/** A room to work in that a word of alchemy makes a laboratory of old. */
const WORKSHOP = /^(workshop|workshops|workroom|laboratory|lab|study)$/;
/**
 * The trades a workshop is drawn for (decision 0107): a woodworker's (a workbench, a saw and tools on
 * the wall, planks) and a smith's (a forge's fire, an anvil, a quench tub). A workshop of another
 * trade ("a potter's studio") is the workshop with the trade's word not honoured, never its owner
 * standing in a meadow.
 */
const WOOD_TRADE =
  /^(carpenter|carpenters|carpenter's|carpenter’s|carpentry|woodworker|woodworker's|woodworking|joiner|joiner's|joinery|woodcarver|woodcarver's|wood)$/;
const SMITH_TRADE =
  /^(blacksmith|blacksmith's|blacksmith’s|blacksmiths|smith|smith's|blacksmithing|armorer|armorer's|armourer|armourer's|weaponsmith|weaponsmith's|ironsmith|smithing|metalworking)$/;
/** A room a trade works in: with an owner's word before it, it is a workshop ("a potter's studio"). */
const WORK_ROOM = /^(studio|studios|atelier|ateliers)$/;
/** Words that make a city an old walled one. */
const OLD_CITY = /^(ancient|old|walled|medieval|fortified)$/;
/** Words of a cozy room. */
const COZY = /^(cozy|cosy|snug|homely|homey|warm|comfy|comfortable|温馨|舒适)$/;

/** Words for a haunted place. */
const HAUNTED = /^(haunted|spooky|eerie|ghostly|cursed|creepy|sinister)$/;
/** Chinese modifiers the drawing honours that the lexicon does not gloss (古老 ancient, 荒废 ruined). */
const ZH_HONOURED = new Set(['古老', '古', '荒废', '破败', '废弃']);
/**
 * Chinese words the lexicon splits into characters that mean something else alone (阳台 → 阳 + 台
 * "desk", 城墙 → 城 + 墙): joined back, with the English the scene reads them by.
 */
const ZH_JOINED: Readonly<Record<string, string>> = {
  阳台: 'balcony',
  露台: 'terrace',
  楼顶: 'rooftop',
  屋顶: 'roof',
  城墙: 'wall',
  围墙: 'wall',
  竹林: 'bamboo',
  麦田: 'wheatfield',
  科幻: 'sci-fi',
  庭院: 'courtyard',
  院子: 'courtyard',
};
function joinChinese(tokens: ReturnType<typeof tokenize>): ReturnType<typeof tokenize> {
  const out: ReturnType<typeof tokenize> = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = tokens[i]!;
    const b = tokens[i + 1];
    const en = b && a.zh && b.zh ? ZH_JOINED[a.text + b.text] : undefined;
    if (en) {
      out.push({ text: a.text + b!.text, en, zh: true, known: true });
      i++;
    } else out.push(a);
  }
  return out;
}
/** Place words the lexicon's scenes do not have. */
const PLACES: Record<string, Setting> = {
  street: 'city',
  streets: 'city',
  alley: 'city',
  alleyway: 'city',
  avenue: 'city',
  downtown: 'city',
  cyberpunk: 'city',
  metropolis: 'city',
  rooftop: 'city',
  rooftops: 'city',
  library: 'library',
  // common interiors and yards (issue #39, decision 0083)
  laboratory: 'laboratory',
  lab: 'laboratory',
  courtyard: 'courtyard',
  courtyards: 'courtyard',
  bailey: 'courtyard',
  // a castle's gate is drawn from its courtyard: the gatehouse, its portcullis, the land through it
  gatehouse: 'courtyard',
  mountains: 'mountains',
  mountain: 'mountains',
  alps: 'mountains',
  jungle: 'forest',
  woods: 'forest',
  cosmos: 'space',
  galaxy: 'space',
  orbit: 'space',
  seabed: 'underwater',
  reef: 'underwater',
  island: 'beach',
  seaside: 'beach',
  coast: 'beach',
  shore: 'beach',
  harbour: 'beach',
  harbor: 'beach',
  port: 'beach',
  oasis: 'desert',
  wasteland: 'desert',
  savanna: 'grassland',
  savannah: 'grassland',
  farm: 'village',
  farmland: 'village',
  town: 'village',
  hamlet: 'village',
  throne: 'castle_hall',
  hall: 'castle_hall',
  crypt: 'dungeon',
  catacomb: 'dungeon',
  catacombs: 'dungeon',
  prison: 'dungeon',
  mine: 'cave',
  cavern: 'cave',
  inn: 'tavern',
  pub: 'tavern',
  // a workshop of old (decision 0107: "a carpenter's workshop" was a person standing in a meadow)
  workshop: 'workshop',
  workshops: 'workshop',
  workroom: 'workshop',
  woodshop: 'workshop',
  smithy: 'workshop',
  forge: 'workshop',
  forges: 'workshop',
  pass: 'mountains',
  valley: 'mountains',
  canyon: 'mountains',
  gorge: 'mountains',
  field: 'grassland',
  fields: 'grassland',
  plain: 'grassland',
  plains: 'grassland',
  prairie: 'grassland',
  countryside: 'grassland',
};

export type Setting =
  | 'grassland'
  | 'forest'
  | 'desert'
  | 'snow'
  | 'beach'
  | 'ocean'
  | 'volcano'
  | 'swamp'
  | 'mountains'
  | 'city'
  | 'village'
  | 'dungeon'
  | 'cave'
  | 'castle_hall'
  | 'tavern'
  | 'library'
  | 'workshop'
  | 'laboratory'
  | 'courtyard'
  | 'underwater'
  | 'space';

/**
 * What a body of water is made of (issue #39: "a river of lava" was blue water): the words that say
 * so, before or after the water's word ("a lava river", "rivers of lava", "a river of molten rock",
 * 熔岩河, "a frozen lake").
 */
export type WaterMaterial = 'water' | 'lava' | 'ice' | 'mud' | 'poison';
const MATERIAL_OF = new Map<string, WaterMaterial>([
  ...'lava magma molten 熔岩 岩浆'.split(' ').map((w) => [w, 'lava'] as const),
  ...'frozen icy ice freeze 冰 冻 结冰 冰冻'.split(' ').map((w) => [w, 'ice'] as const),
  ...'mud muddy 泥 泥浆'.split(' ').map((w) => [w, 'mud'] as const),
  ...'poison poisonous toxic acid acidic 毒 毒液'.split(' ').map((w) => [w, 'poison'] as const),
]);
/** The water elements a material word qualifies. */
const WATERS: ReadonlySet<ElementKind> = new Set(['river', 'lake', 'waterfall', 'sea']);

/**
 * Where the picture is seen from, when a word says (issue #39: "a balcony overlooking the sea" was the
 * sea seen from nowhere, "a rooftop" a street seen from the ground): a balustrade, or a roof's edge,
 * across the foreground.
 */
type Viewpoint = 'balcony' | 'rooftop';
const VIEWPOINTS: Record<string, Viewpoint> = {
  balcony: 'balcony',
  balconies: 'balcony',
  terrace: 'balcony',
  veranda: 'balcony',
  verandah: 'balcony',
  阳台: 'balcony',
  露台: 'balcony',
  rooftop: 'rooftop',
  rooftops: 'rooftop',
  天台: 'rooftop',
  楼顶: 'rooftop',
};

export interface SceneRequest {
  setting: Setting;
  /** A corridor (a dungeon's, a castle's): the walls run towards a far door. */
  corridor: boolean;
  time: TimeOfDay;
  weather?: Weather | 'storm';
  /** Snow lies on the land ("snowy mountains"), whether or not it is falling. */
  snowCover: boolean;
  /** A neon-lit place (cyberpunk): night colours and coloured lights. */
  neon: boolean;
  /** The elements the prompt names, with the word that named each. */
  elements: Array<{
    word: string;
    kind: ElementKind;
    /** The place words before the element that heads its phrase ("underwater" in "an underwater palace"). */
    within?: string[];
    /** A body of water's material, when its phrase names one ("lava" in "a river of lava"). */
    material?: WaterMaterial;
  }>;
  /** A word that says where the picture is seen from: drawn across the foreground. */
  viewpoint?: { word: string; kind: Viewpoint };
  /**
   * Nouns of the prompt that are none of the elements, places, things or viewpoints the scene reads
   * (a noun before a phrase's head: "balcony" in "a balcony overlooking the sea" before viewpoints
   * were read): the scene is refused naming them, never drawn without them (issue #39).
   */
  unread: string[];
  /**
   * Things the prompt names that no element is ("a wizard", "a red dragon"): each phrase (its
   * colour and modifier words, then its noun) is drawn by the sprite generator into the scene, or
   * dropped when it cannot be drawn.
   */
  others: Array<{
    phrase: string;
    word: string;
    /**
     * The place and element words before the thing in its phrase ("temple" in "a temple roof",
     * "city" in "a city subway station"): they are drawn only with it — when the thing cannot be
     * drawn, the scene they would draw is another picture and is refused (issue #39).
     */
    within: string[];
    /** The phrase as written, up to the thing ("city subway station"). */
    written: string;
  }>;
  /** The words that named the place, and modifiers the drawing honours: understood. */
  honoured: string[];
  /**
   * An alchemist's workshop (a laboratory of old): stone walls, shelves of books and jars, a furnace
   * and a bench of flasks, never consoles and steel (decision 0098).
   */
  alchemy?: true;
  /** A workshop's trade (decision 0107): a woodworker's bench and tools, or a smith's forge and anvil. */
  trade?: 'wood' | 'smith';
  /** An old walled city (古城, "an ancient city"): its wall, the old town's roofs behind it. */
  oldCity?: true;
  /** A cozy room: a rug before the hearth, candles, a second lamp (decision 0107). */
  cozy?: true;
  /** "dark": the whole scene a step darker. */
  dark: boolean;
  /** "haunted", "spooky", 闹鬼: bare dead trees, a cold sickly light and will-o'-wisps, by night unless a time is named. */
  haunted: boolean;
  /**
   * No word named the place and no element implied one: the setting is the meadow every scene falls
   * back to. `rooms` are the room words read meanwhile (a corridor, a lab's room) that no setting drew.
   */
  defaulted: boolean;
  rooms: string[];
}

const SETTING_OF_SCENE: Record<Scene, Setting> = {
  grassland: 'grassland',
  forest: 'forest',
  desert: 'desert',
  snow: 'snow',
  ocean: 'ocean',
  beach: 'beach',
  volcano: 'volcano',
  swamp: 'swamp',
  city: 'city',
  village: 'village',
  dungeon: 'dungeon',
  cave: 'cave',
  castle_hall: 'castle_hall',
  tavern: 'tavern',
  underwater: 'underwater',
  space: 'space',
};
/** Where an element puts the scene when the prompt names no place ("palm trees" is a beach). */
const SETTING_OF_ELEMENT: Partial<Record<ElementKind, Setting>> = {
  pyramids: 'desert',
  dunes: 'desert',
  cacti: 'desert',
  palms: 'beach',
  sea: 'beach',
  harbour: 'beach',
  lighthouse: 'beach',
  coral: 'underwater',
  seaweed: 'underwater',
  fish: 'underwater',
  bubbles: 'underwater',
  neon: 'city',
  skyline: 'city',
  'street-lamps': 'city',
  houses: 'village',
  windmill: 'village',
  castle: 'grassland',
  volcano: 'volcano',
  mountains: 'mountains',
  pines: 'forest',
  bamboo: 'forest',
  wheat: 'grassland',
  trees: 'forest',
  waterfall: 'forest',
  torches: 'dungeon',
  throne: 'castle_hall',
  chandelier: 'castle_hall',
  bookshelves: 'library',
  crystals: 'cave',
  planets: 'space',
  nebula: 'space',
  asteroids: 'space',
  snowman: 'snow',
  graves: 'grassland',
};
/** What a place named after the setting's own puts in the picture ("a mountain village": houses). */
const SECOND_PLACE: Partial<Record<Setting, ElementKind>> = {
  village: 'houses',
  forest: 'trees',
  city: 'skyline',
  beach: 'sea',
  ocean: 'sea',
  desert: 'dunes',
  mountains: 'mountains',
  volcano: 'volcano',
};
/** Ends a phrase in the text before it is split into words (punctuation is lost in tokens). */
const PUNCTUATION = /[,;.!?，。；！？、]+/;

/**
 * "Under the sea", "beneath the waves" name the place under the water, and a kelp forest is kelp
 * growing there (decision 0125: "a kelp forest under the sea" was refused as kelp in a forest, and
 * "coral under the sea" as coral in an ocean): read as "underwater" and "kelp".
 */
function underSea(text: string): string {
  return text
    .replace(/\b(under|beneath|below) (the )?(sea|ocean|waves|water)\b/gi, 'underwater')
    .replace(/\bkelp forests?\b/gi, 'kelp');
}

/**
 * Reads a background prompt into a scene. The text splits into phrases (at punctuation and at words
 * like "with", "in", "and"); a phrase's last noun is its head. A head that is an element ("palm
 * trees", "a full moon") is that element, its honoured modifiers understood; a place word ("forest",
 * "dungeon", "a city street") sets the place, the first one winning; any other noun is a thing to
 * draw into the scene. With no place word, the elements say where it is ("pyramids": a desert).
 */
export function readScene(text: string, it: Interpretation): SceneRequest {
  const elements: SceneRequest['elements'] = [];
  const others: SceneRequest['others'] = [];
  const honoured: string[] = [];
  const places: Setting[] = [];
  const placeWords: Array<[Setting, string]> = [];
  let corridor = false;
  let alchemy = false;
  let trade: SceneRequest['trade'];
  let oldCity = false;
  let cozy = false;
  const cozyWords: string[] = [];
  let neon = false;
  let snowCover = false;
  let library = false;
  const rooms: string[] = [];
  const unread: string[] = [];
  let haunted = false;
  let viewpoint: SceneRequest['viewpoint'];
  const addElement = (word: string, kind: ElementKind, within: string[] = [], material?: WaterMaterial) => {
    if (kind === 'neon') neon = true;
    const had = elements.find((e) => e.kind === kind);
    if (!had)
      elements.push({
        word,
        kind,
        ...(within.length ? { within } : {}),
        ...(material && WATERS.has(kind) ? { material } : {}),
      });
    else {
      if (material && WATERS.has(kind) && !had.material) had.material = material;
      honoured.push(word);
    }
  };
  for (const chunk of underSea(text).split(PUNCTUATION)) {
    const tokens = joinChinese(tokenize(chunk));
    // phrases: runs of words between breaks
    const phrases: Array<typeof tokens> = [[]];
    for (const t of tokens) {
      const c = wordClass(t);
      // Chinese "and" (和, 与, 跟, 及) ends a phrase as "and" does: "沙滩和海水" is a beach and sea water
      if (
        c === 'break' ||
        /^(by|next|beside|near|over|under|behind|before|overlooking|facing|above)$/.test(t.en) ||
        (t.zh && /^(和|与|跟|及|以及|看|望|俯瞰|眺望)$/.test(t.text))
      ) {
        phrases.push([]);
        // "overlooking", "facing": the two phrases are the view and what it looks at
        if (/^(overlooking|facing)$/.test(t.en) || (t.zh && /^(看|望|俯瞰|眺望)$/.test(t.text)))
          honoured.push(t.text);
      } else if (c !== 'stop') phrases.at(-1)!.push(t);
    }
    for (const phrase of phrases) {
      if (!phrase.length) continue;
      // a Chinese word that names an element itself is read as that element, else through its English
      const en = phrase.map((t) => (t.zh ? (KIND_OF.has(t.text) ? t.text : t.en || t.text) : t.en));
      const classes = phrase.map((t) => wordClass(t));
      // a material qualifies the phrase's water, in any order ("a lava river", "a river of molten
      // rock", 熔岩河): its words are the water's, not elements of their own (lava is not a volcano)
      const materialWord = (k: number) => MATERIAL_OF.get(en[k]!) ?? MATERIAL_OF.get(phrase[k]!.text);
      const hasWater = en.some((x) => WATERS.has(kindOfWord(x) as ElementKind));
      const consumed = new Set<number>();
      let material: WaterMaterial | undefined;
      if (hasWater)
        for (let k = 0; k < phrase.length; k++) {
          const m = materialWord(k);
          if (!m || WATERS.has(kindOfWord(en[k]!) as ElementKind)) continue;
          material ??= m;
          consumed.add(k);
          if (en[k] === 'molten' && /^(rock|rocks|stone)$/.test(en[k + 1] ?? '')) consumed.add(k + 1);
        }
      // the head: the last word that names a thing (an element, a place, a noun)
      let head = -1;
      for (let i = phrase.length - 1; i >= 0 && head < 0; i--) {
        const w = en[i]!;
        if (consumed.has(i)) continue;
        if (
          kindOfWord(w) ||
          PLACES[w] ||
          ROOM_WORDS.test(w) ||
          classes[i] === 'place' ||
          classes[i] === 'noun'
        )
          head = i;
      }
      for (let i = 0; i < phrase.length; i++) {
        const t = phrase[i]!;
        const w = en[i]!;
        if (consumed.has(i)) {
          honoured.push(t.text);
          continue;
        }
        if (/snow/.test(w) || t.text.includes('雪')) snowCover = true;
        // ice on the water: the land lies under snow too (issue #39: a frozen lake in a green meadow)
        if (material === 'ice' || /^(wintry|winter|wintertime)$/.test(w) || /冬/.test(t.text))
          snowCover = true;
        // where the picture is seen from: a balustrade or a roof's edge across the foreground
        const view = VIEWPOINTS[w] ?? VIEWPOINTS[t.text];
        if (view) {
          viewpoint ??= { word: t.text, kind: view };
          honoured.push(t.text);
          if (view === 'rooftop' && !elements.length) places.push('city');
          continue;
        }
        // 城墙 is read as 城 + 墙 (the wall); 古老 (ancient) and 荒废 (ruined) are modifiers it draws
        if ((t.text === '城' && phrase[i + 1]?.text === '墙') || ZH_HONOURED.has(t.text)) {
          honoured.push(t.text);
          continue;
        }
        // "haunted", "spooky": the haunted look (dead trees, a sickly light, wisps)
        if (HAUNTED.test(w) || /闹鬼|鬼/.test(t.text)) {
          haunted = true;
          honoured.push(t.text);
          continue;
        }
        // "ruined", "crumbling": drawn on a wall and ruins (broken merlons, a breach), else not honoured
        if (/^(ruined|broken|crumbling|destroyed)$/.test(w)) {
          const headKind = kindOfWord(en[head] ?? '');
          if (headKind === 'wall' || headKind === 'ruins' || headKind === 'temple') honoured.push(t.text);
          continue;
        }
        // a laboratory's own look: "a sci-fi lab", "a futuristic laboratory", 科幻实验室 (decision 0083)
        if (LAB_LOOK.test(w) && en.some((x) => PLACES[x] === 'laboratory')) {
          honoured.push(t.text);
          continue;
        }
        // winter is drawn (snow lies on the land, set above): "a frozen pond in winter" was refused
        // on the word (decision 0093)
        if (/^(winter|wintertime|wintry)$/.test(w) || t.text === '冬天' || t.text === '冬季') {
          honoured.push(t.text);
          continue;
        }
        // seasons other than winter are not drawn: named as not honoured, never refused as nouns
        if (/^(summer|spring|autumn|fall|summertime|springtime)$/.test(w)) continue;
        // "a town square", "a city plaza": the middle of the place named before it, never a square shape
        if (
          /^(square|squares|plaza|piazza)$/.test(w) &&
          i > 0 &&
          (PLACES[en[i - 1]!] || classes[i - 1] === 'place')
        ) {
          honoured.push(t.text);
          continue;
        }
        // "a fortress wall": the wall is the fortress's, with its towers; no castle beside it
        if (kindOfWord(w) === 'castle' && kindOfWord(en[head] ?? '') === 'wall') {
          honoured.push(t.text);
          continue;
        }
        // "a mountain range", "sand dunes": the range is the mountains, the sand the dunes' (decision 0107)
        if (
          (/^(range|ranges|chain)$/.test(w) && /^mountains?$/.test(en[i - 1] ?? '')) ||
          (w === 'sand' && /^dunes?$/.test(en[i + 1] ?? ''))
        ) {
          honoured.push(t.text);
          continue;
        }
        // an old walled city (decision 0107: 古城 was a meadow, "an ancient city" a street of towers of
        // glass): its wall with towers, the roofs of the old town behind it, weathered stone
        if (
          t.text === '古城' ||
          (/^(city|cities|town|towns)$/.test(w) && en.slice(0, i).some((x) => OLD_CITY.test(x)))
        ) {
          oldCity = true;
          places.push('village');
          addElement(t.text, 'wall');
          continue;
        }
        if (
          /^(walled|fortified)$/.test(w) &&
          en.slice(i + 1).some((x) => /^(city|cities|town|towns)$/.test(x))
        ) {
          honoured.push(t.text);
          continue;
        }
        // "cozy", "snug", "warm": a room with a hearth drawn warm (a rug, candles, a second lamp);
        // honoured below where the room has one
        if (COZY.test(w) || COZY.test(t.text)) cozyWords.push(t.text);
        // a workshop and whose it is (decision 0107): a woodworker's or a smith's is drawn with its
        // trade's things; another trade's owner ("a potter's studio") is named as not honoured — the
        // room is the workshop — and never drawn as a person standing in a meadow
        const workshopAt = ALCHEMY.test(text)
          ? -1
          : en.findIndex(
              (x, k) =>
                PLACES[x] === 'workshop' ||
                (WORK_ROOM.test(x) && k > 0 && /['’]s$/.test(phrase[k - 1]!.text)),
            );
        if (workshopAt >= 0) {
          const lw = t.text.toLowerCase();
          if (i === workshopAt) {
            if (/^(forge|forges|smithy)$/.test(w)) trade ??= 'smith';
            if (WORK_ROOM.test(w)) {
              places.push('workshop');
              honoured.push(t.text);
              continue;
            }
          } else if (i < workshopAt) {
            const bare = lw.replace(/['’]s$/, '');
            const kindOfTrade = WOOD_TRADE.test(bare) ? 'wood' : SMITH_TRADE.test(bare) ? 'smith' : undefined;
            if (kindOfTrade) {
              trade ??= kindOfTrade;
              honoured.push(t.text, ...(bare !== lw ? [bare] : []));
              continue;
            }
            if (/['’]s$/.test(t.text)) continue;
          }
        }
        // an alchemist's workshop, an apothecary's lab: a laboratory of old (decision 0098: "a
        // workshop" was a person standing in a meadow); a workshop of another trade is not one
        if (WORKSHOP.test(w) && ALCHEMY.test(text)) {
          places.push('laboratory');
          alchemy = true;
          honoured.push(t.text);
          continue;
        }
        // "a castle gate": the castle's gatehouse seen from its courtyard (decision 0098: a wooden
        // garden gate stood in a meadow beside a toy castle); the castle and the gate are both drawn by it
        if (/^(gate|gates)$/.test(w) && en.some((x) => kindOfWord(x) === 'castle')) {
          places.push('courtyard');
          honoured.push(t.text);
          continue;
        }
        // "a castle yard", "the fort's yard": the yard inside its walls (decision 0135: "a castle
        // yard" was a meadow with a toy castle, the yard said nowhere)
        if (/^(yard|yards|ward)$/.test(w) && en.some((x) => kindOfWord(x) === 'castle')) {
          places.push('courtyard');
          honoured.push(t.text);
          continue;
        }
        if (/^(cyberpunk|赛博朋克)/.test(w) || /赛博朋克/.test(t.text)) addElement(t.text, 'neon');
        // 火山喷发: the lexicon splits 喷发 (erupting), and an erupting volcano is what is drawn
        if (/^(喷|发|喷发|爆发)$/.test(t.text) && phrase.some((x) => /火山/.test(x.text))) {
          honoured.push(t.text);
          continue;
        }
        // "interior" is a room word before it is a word about the picture: "a bakery interior" is a room
        if (NOT_THINGS.has(w) && !ROOM_WORDS.test(w)) {
          // the sky, the snow, the night: the scene's own light and weather draw them
          honoured.push(t.text);
          continue;
        }
        // an oasis: a pool of water in the desert
        if (w === 'oasis' || t.text === '绿洲') {
          places.push('desert');
          addElement(t.text, 'lake');
          continue;
        }
        const kind = kindOfWord(w);
        const place = PLACES[w] ?? (classes[i] === 'place' ? sceneSetting(w) : undefined);
        if (ROOM_WORDS.test(w) || ROOM_WORDS.test(t.text)) {
          if (/corridor|hallway|passage|走廊/.test(w + t.text)) corridor = true;
          honoured.push(t.text);
          rooms.push(t.text);
          // "a castle interior": the castle's hall (issue #39: it was a castle in a meadow)
          if (w === 'hall' || t.text === '大厅' || en.some((x) => kindOfWord(x) === 'castle'))
            places.push('castle_hall');
          continue;
        }
        // "palm trees", "pine trees": the kind of tree names the trees
        if (
          kind === 'trees' &&
          en.slice(0, i).some((x) => /^(palms|pines|blossom-trees|dead-trees)$/.test(kindOfWord(x) ?? ''))
        ) {
          honoured.push(t.text);
          continue;
        }
        if (kind && (i === head || kindOfWord(en[head] ?? '') === kind || !place)) {
          // "a full moon": the moon, full
          const full = kind === 'moon' && i > 0 && /^(full|满)/.test(en[i - 1] ?? phrase[i - 1]!.text);
          if (kind === 'bookshelves' && /library/.test(w)) library = true;
          const within =
            i === head
              ? phrase
                  .slice(0, i)
                  .flatMap((x, k) => (classes[k] === 'place' || PLACES[en[k]!] ? [x.text] : []))
              : [];
          addElement(t.text, full ? 'full-moon' : kind, within, material);
          // a lake, a river, a waterfall are in a place, not the place (the sea is)
          if (place && i === head && kind !== 'lake' && kind !== 'river' && kind !== 'waterfall')
            places.push(place);
          continue;
        }
        if (place) {
          places.push(place);
          placeWords.push([place, t.text]);
          honoured.push(t.text);
          continue;
        }
        // the time and weather words: the light and the weather layer draw them
        if (classes[i] === 'time' || classes[i] === 'weather') {
          honoured.push(t.text);
          continue;
        }
        // a lone Chinese character left over from a word the lexicon splits (喷发 → 喷, 发) names nothing
        if (i === head && classes[i] === 'noun' && !(t.zh && [...t.text].length === 1)) {
          const placed = (k: number) => classes[k] === 'place' || !!kindOfWord(en[k]!) || !!PLACES[en[k]!];
          const from = phrase.slice(0, i + 1).filter((_, k) => !placed(k));
          const within = phrase.slice(0, i).flatMap((x, k) => (placed(k) ? [x.text] : []));
          const join = t.zh ? '' : ' ';
          others.push({
            phrase: from.map((x) => x.text).join(join),
            word: t.text,
            within,
            written: phrase
              .slice(0, i + 1)
              .map((x) => x.text)
              .join(join),
          });
          continue;
        }
        // modifiers: honoured when the head is an element that draws them; a thing's go with its phrase
        const oldLab = ALCHEMY.test(text) && WORKSHOP.test(en[head] ?? '');
        if (
          head >= 0 &&
          (kindOfWord(en[head]!) || PLACES[en[head]!] || classes[head] === 'place' || oldLab)
        ) {
          if (HONOURED.has(w)) honoured.push(t.text);
          // whose place it is ("an alchemist's workshop", "a wizard's tower room"): the place is
          // drawn as theirs, its fittings say who works there; the owner is not a thing in it
          else if (/['’]s$/.test(t.text) && (PLACES[en[head]!] || oldLab))
            honoured.push(t.text, t.text.slice(0, -2));
          // a noun before an element or a place that none of the above read ("balcony" was one):
          // never drawn without, never silent; an English word the lexicon has no noun of ("winter",
          // "fantasy", "dusty", "futuristic": a season, a genre, a describing word) is named, not refused
          else if (
            classes[i] === 'noun' &&
            !(t.zh && [...t.text].length === 1) &&
            (t.zh || nounLemma(w) !== null)
          )
            unread.push(t.text);
        }
      }
    }
  }
  // the place: the first place word, else what the elements imply, else a meadow
  // a lava river, a lava waterfall with no place named: the volcanic land it runs in, not a meadow
  // or the forest a waterfall implies
  const lava = elements.some((e) => e.material === 'lava');
  const named =
    (library ? 'library' : undefined) ??
    places.find((p) => p !== 'castle_hall') ??
    places[0] ??
    (lava ? 'volcano' : undefined) ??
    elements.map((e) => SETTING_OF_ELEMENT[e.kind]).find(Boolean);
  let setting: Setting = named ?? 'grassland';
  if (setting === 'castle_hall' && /dungeon|地牢/.test(text)) setting = 'dungeon';
  // "a castle hall": the castle is where the hall is, not a castle drawn in it
  if (setting === 'castle_hall' || setting === 'dungeon' || setting === 'courtyard')
    for (let i = elements.length - 1; i >= 0; i--)
      if (elements[i]!.kind === 'castle') honoured.push(...elements.splice(i, 1).map((e) => e.word));
  // a second place word is drawn as what it puts in the first (issue #39: "a snowy mountain village"
  // had no houses): a village's houses, a forest's trees, a city's skyline, the sea of a coast
  // "a town street": the town's street, its buildings along it (decision 0135: refused as a street
  // the village had no drawing of); a village's street is still refused (its cottages stand on no
  // street), an old walled town keeps its wall
  const townStreet =
    setting === 'village' &&
    !oldCity &&
    placeWords.some(([p, word]) => p === 'village' && /^towns?$/i.test(word)) &&
    placeWords.some(([p, word]) => p === 'city' && /^(street|streets|alley|alleyway|avenue)$/i.test(word));
  if (townStreet) setting = 'city';
  for (const [p, word] of placeWords) {
    if (townStreet && p === 'village') continue;
    const kind = p === setting ? undefined : SECOND_PLACE[p];
    if (kind && !elements.some((e) => e.kind === kind)) elements.push({ word, kind });
  }
  if (snowCover && (setting === 'grassland' || setting === 'forest')) setting = 'snow';
  if (cozyWords.length && (setting === 'tavern' || setting === 'workshop')) {
    cozy = true;
    honoured.push(...cozyWords);
    for (const word of cozyWords) if (unread.includes(word)) unread.splice(unread.indexOf(word), 1);
  }
  const time: TimeOfDay =
    it.time ??
    (neon ||
    haunted ||
    elements.some(
      (e) => e.kind === 'moon' || e.kind === 'full-moon' || e.kind === 'stars' || e.kind === 'fireflies',
    )
      ? 'night'
      : elements.some((e) => e.kind === 'sun' && /sunset/.test(e.word))
        ? 'dusk'
        : 'day');
  // falling snow only when the prompt says it falls; "snowy mountains" are covered, not snowed on
  const falling =
    /\b(snowing|snowfall|snowstorm|blizzard|snowflakes?)\b|下雪|飘雪|暴风雪|大雪/.test(text) ||
    /\bin the snow\b/.test(text);
  const weather: SceneRequest['weather'] = elements.some((e) => e.kind === 'lightning')
    ? 'storm'
    : it.weather === 'snow' && !falling
      ? undefined
      : it.weather;
  return {
    setting,
    corridor,
    time,
    ...(weather ? { weather } : {}),
    snowCover,
    neon,
    elements,
    others,
    honoured,
    dark: it.dark === true,
    haunted,
    ...(alchemy ? { alchemy: true as const } : {}),
    ...(trade ? { trade } : {}),
    ...(oldCity ? { oldCity: true as const } : {}),
    ...(cozy ? { cozy: true as const } : {}),
    ...(viewpoint ? { viewpoint } : {}),
    unread,
    defaulted: named === undefined && !snowCover && elements.length === 0,
    rooms,
  };
}

/** The settings the scene composer draws inside: a room word ("interior", "chamber") is drawn only in them. */
export const INDOOR: ReadonlySet<Setting> = new Set([
  'workshop',
  'dungeon',
  'cave',
  'castle_hall',
  'tavern',
  'library',
  'laboratory',
]);

/** Words that say how a laboratory looks, drawn by its consoles and tubes. */
const LAB_LOOK = /^(sci-fi|scifi|futuristic|science|scientific|high-tech|hi-tech|secret|alien)$/;

function kindOfWord(w: string): ElementKind | undefined {
  const one = (x: string) => KIND_OF.get(x) ?? KIND_OF.get(x.replace(/ies$/, 'y').replace(/(?<=[^s])s$/, ''));
  const whole = one(w);
  if (whole || !w.includes(' ')) return whole;
  // a Chinese word's English may be a phrase ("palm tree"): its most specific element word
  const kinds = w
    .split(' ')
    .map(one)
    .filter((k): k is ElementKind => k !== undefined);
  return kinds.find((k) => k !== 'trees') ?? kinds[0];
}

function sceneSetting(w: string): Setting | undefined {
  const scene = sceneOf(w);
  return scene ? SETTING_OF_SCENE[scene] : undefined;
}

/** Room words: they say it is inside, the other words say where. */
const ROOM_WORDS = /^(corridor|hallway|hall|chamber|passage|interior|room|室内|大厅|走廊)$/;
