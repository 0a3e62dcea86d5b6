/**
 * The words a level prompt is read with, as typed tables (English and Chinese): what the level is
 * (an island, a dungeon…), the features it holds (lake, river, path, forest, clearing, cave
 * entrance, village, rooms and corridors…), where they go (north, centre, around, corners…) and the
 * ground they stand on (desert, snow, swamp…). `readLevelLayout` (layout.ts) reads a prompt with
 * them; adding a word is a row here.
 */
import type { TerrainName } from '../tileset/terrains.js';

/** What the whole level is: the shape its ground is grown in. */
export type LevelBase = 'land' | 'island' | 'archipelago' | 'dungeon' | 'cave';

/** A thing the prompt asks to have in the level. */
export type FeatureKind =
  | 'lake'
  | 'pond'
  | 'river'
  | 'sea'
  | 'path'
  | 'forest'
  | 'clearing'
  | 'cave'
  | 'village'
  | 'houses'
  | 'mountain'
  | 'lava'
  | 'chest'
  | 'rooms'
  | 'corridors'
  /** Rock slopes along two sides, the floor between them walked (along a river when there is one). */
  | 'valley'
  /** Farmland: plots of tilled soil in crop rows beside the village (issue #39: a farm had no farm). */
  | 'fields';

/** Where a feature goes, as the words say it. */
export type Placement =
  | 'north'
  | 'south'
  | 'east'
  | 'west'
  | 'northeast'
  | 'northwest'
  | 'southeast'
  | 'southwest'
  | 'centre'
  | 'around'
  /** One corner ("a pond in the corner"); the grower picks which. */
  | 'corner'
  | 'corners';

/** A biome: the level's ground terrain and what its water is. */
export type Biome = 'grass' | 'desert' | 'snow' | 'swamp' | 'volcanic';

interface WordRow {
  /** English words (lower case; a trailing `s` or `es` is read as the plural). */
  en: readonly string[];
  /** Chinese words, matched as they are written. */
  zh: readonly string[];
}

export const BASE_WORDS: Readonly<Record<Exclude<LevelBase, 'land'>, WordRow>> = {
  island: { en: ['island', 'isle', 'islet'], zh: ['岛', '小岛', '海岛', '岛屿'] },
  archipelago: { en: ['archipelago', 'islands', 'isles', 'islets'], zh: ['群岛', '列岛'] },
  dungeon: {
    en: ['dungeon', 'crypt', 'catacomb', 'tomb', 'mausoleum', 'labyrinth', 'maze'],
    zh: ['地牢', '地下城', '迷宫', '墓穴'],
  },
  cave: { en: ['cavern', 'underground', 'grotto'], zh: ['洞窟', '地下', '溶洞'] },
};

/** A feature's words, and whether its ground is walked on (a lake is not, a clearing is). */
export const FEATURE_WORDS: Readonly<Record<FeatureKind, WordRow & { walkable: boolean }>> = {
  lake: {
    en: ['lake', 'lagoon', 'oasis', 'loch', 'lakeside', 'lakeshore'],
    zh: ['湖', '湖泊', '绿洲', '湖边', '湖畔'],
    walkable: false,
  },
  pond: { en: ['pond', 'pool', 'puddle'], zh: ['池塘', '水塘', '池'], walkable: false },
  river: {
    en: ['river', 'stream', 'creek', 'brook', 'riverside', 'riverbank'],
    zh: ['河', '河流', '小河', '溪', '小溪'],
    walkable: false,
  },
  sea: {
    en: ['sea', 'ocean', 'beach', 'coast', 'shore', 'bay', 'cove', 'inlet', 'gulf'],
    zh: ['海', '大海', '海滩', '沙滩', '海岸', '海湾'],
    walkable: false,
  },
  path: {
    en: ['path', 'road', 'trail', 'track', 'way'],
    zh: ['路', '小路', '小径', '道路', '山路'],
    walkable: true,
  },
  forest: {
    en: ['forest', 'wood', 'woods', 'trees', 'tree', 'grove', 'jungle', 'palm', 'palm tree', 'palm grove'],
    zh: ['森林', '树林', '树', '丛林', '棕榈', '椰树'],
    walkable: true,
  },
  clearing: {
    en: ['clearing', 'glade', 'meadow', 'field', 'area'],
    zh: ['空地', '林间空地', '草地'],
    walkable: true,
  },
  cave: {
    en: ['cave', 'cave entrance', 'cave mouth', 'mine', 'grotto', 'cavern'],
    zh: ['洞穴', '山洞', '洞口', '洞'],
    walkable: true,
  },
  village: {
    en: [
      'village',
      'town',
      'hamlet',
      'farm',
      'farmstead',
      'settlement',
      'camp',
      // a village's square (growVillage draws it wider)
      'market square',
      'town square',
      'village square',
      'marketplace',
      'plaza',
    ],
    zh: ['村庄', '村子', '村', '小镇', '农场'],
    walkable: true,
  },
  houses: {
    en: ['house', 'houses', 'hut', 'cottage', 'cabin', 'home'],
    zh: ['房子', '房屋', '小屋', '房'],
    walkable: true,
  },
  mountain: {
    en: [
      'mountain',
      'mountains',
      'rock',
      'rocks',
      'cliff',
      'cliffs',
      'hill',
      'hills',
      'boulder',
      'peak',
      'peaks',
      // a rim of rock round the level ("a desert with rocky edges"): placed around (layout.ts)
      'rocky edge',
      'rocky edges',
      'rocky border',
      'rocky borders',
      'rocky rim',
    ],
    zh: ['山', '岩石', '石头', '悬崖'],
    walkable: false,
  },
  lava: { en: ['lava', 'magma'], zh: ['岩浆', '熔岩'], walkable: false },
  chest: { en: ['chest', 'treasure', 'loot'], zh: ['宝箱', '箱子', '宝藏'], walkable: true },
  rooms: {
    en: ['room', 'rooms', 'chamber', 'chambers', 'hall', 'halls'],
    zh: ['房间', '密室', '大厅'],
    walkable: true,
  },
  corridors: {
    en: ['corridor', 'corridors', 'hallway', 'passage', 'passages', 'tunnel', 'tunnels'],
    zh: ['走廊', '通道', '过道', '隧道'],
    walkable: true,
  },
  valley: {
    en: ['valley', 'canyon', 'gorge', 'ravine', 'dale', 'mountain pass', 'valley pass', 'pass'],
    zh: ['山谷', '峡谷', '河谷', '山口'],
    walkable: true,
  },
  fields: {
    en: [
      'fields',
      'farmland',
      'farmlands',
      'crops',
      'crop',
      'wheat',
      'wheat field',
      'crop field',
      'farm field',
      'cornfield',
      'farming',
      'paddy',
      'paddies',
      'vegetable patch',
    ],
    zh: ['农田', '田地', '麦田', '庄稼', '稻田', '菜地'],
    walkable: true,
  },
};

export const PLACEMENT_WORDS: Readonly<Record<Placement, WordRow>> = {
  northeast: { en: ['north-east', 'northeast', 'north east', 'upper right', 'top right'], zh: ['东北'] },
  northwest: { en: ['north-west', 'northwest', 'north west', 'upper left', 'top left'], zh: ['西北'] },
  southeast: { en: ['south-east', 'southeast', 'south east', 'lower right', 'bottom right'], zh: ['东南'] },
  southwest: { en: ['south-west', 'southwest', 'south west', 'lower left', 'bottom left'], zh: ['西南'] },
  north: { en: ['north', 'northern', 'top', 'up'], zh: ['北', '北边', '北部', '北方', '上方'] },
  south: { en: ['south', 'southern', 'bottom', 'down'], zh: ['南', '南边', '南部', '南方', '下方'] },
  east: { en: ['east', 'eastern', 'right'], zh: ['东', '东边', '东部', '东方', '右边'] },
  west: { en: ['west', 'western', 'left'], zh: ['西', '西边', '西部', '西方', '左边'] },
  centre: {
    en: ['centre', 'center', 'middle', 'central', 'heart'],
    zh: ['中间', '中央', '中心', '中部', '正中'],
  },
  around: {
    en: ['around', 'surrounded', 'surrounding', 'edges', 'edge', 'border', 'ring', 'encircled'],
    zh: ['周围', '四周', '环绕', '边缘', '包围'],
  },
  // one corner is one (issue #39: "a pond in the corner" grew a pond in each of the four)
  corner: { en: ['corner', 'one corner', 'a corner'], zh: ['一角', '角落'] },
  corners: { en: ['corners', 'four corners', 'each corner', 'every corner'], zh: ['四角', '各个角落'] },
};

/** Biome words: the ground of the level. */
export const BIOME_WORDS: Readonly<Record<Exclude<Biome, 'grass'>, WordRow>> = {
  desert: { en: ['desert', 'sand', 'sandy', 'dune', 'dunes', 'arid'], zh: ['沙漠', '沙'] },
  snow: {
    en: ['snow', 'snowy', 'winter', 'frozen', 'icy', 'tundra', 'glacier'],
    zh: ['雪', '雪地', '冰', '冬'],
  },
  swamp: { en: ['swamp', 'marsh', 'bog', 'mud', 'muddy', 'wetland'], zh: ['沼泽', '泥'] },
  volcanic: { en: ['volcanic', 'volcano', 'lava', 'magma'], zh: ['火山', '岩浆', '熔岩'] },
};

/** The terrains each biome stands on: ground, its shore, its water, its rock, its path. */
export const BIOME_TERRAINS: Readonly<
  Record<
    Biome,
    { ground: TerrainName; shore: TerrainName; water: TerrainName; rock: TerrainName; path: TerrainName }
  >
> = {
  grass: { ground: 'grass', shore: 'sand', water: 'water', rock: 'rock', path: 'dirt' },
  desert: { ground: 'sand', shore: 'sand', water: 'water', rock: 'rock', path: 'dirt' },
  snow: { ground: 'snow', shore: 'snow', water: 'ice', rock: 'rock', path: 'stone' },
  swamp: { ground: 'mud', shore: 'mud', water: 'water', rock: 'rock', path: 'dirt' },
  volcanic: { ground: 'rock', shore: 'rock', water: 'lava', rock: 'rock', path: 'dirt' },
};

/**
 * Places a prompt may name that no level feature draws (issue #39: "a ruined fort in the east" grew a
 * meadow and said nothing): read, and named in the level's notHonoured with why, never dropped.
 */
export const UNDRAWN_WORDS: WordRow = {
  en: [
    'fort',
    'fortress',
    'castle',
    'tower',
    'temple',
    'ruin',
    'ruins',
    'church',
    'graveyard',
    'cemetery',
    'harbour',
    'harbor',
    'port',
    'dock',
    'mill',
    'windmill',
    'market',
    'wall',
    'walls',
    'shrine',
    'statue',
  ],
  zh: [
    '城堡',
    '堡垒',
    '塔',
    '神庙',
    '废墟',
    '教堂',
    '墓地',
    '港口',
    '码头',
    '磨坊',
    '市场',
    '城墙',
    '神社',
    '雕像',
  ],
};

/** Count words ("six rooms", "四个房间", "a few houses"). */
export const COUNT_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  single: 1,
  two: 2,
  pair: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  few: 3,
  several: 4,
  some: 3,
  many: 9,
  lots: 9,
  large: 0,
  一: 1,
  两: 2,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
  几: 3,
  多: 8,
  许多: 9,
  很多: 9,
};

/** Words that join a feature to what follows in the same clause ("a path to a cave", "from west to east"). */
export const LINK_WORDS = {
  from: { en: ['from'], zh: ['从'] },
  to: { en: ['to', 'towards', 'toward', 'into', 'leading to', 'through'], zh: ['到', '通往', '通向', '至'] },
} as const;

/** Words that make rivers and paths bend more ("a winding path"): the level's, read as understood. */
export const WINDING_WORDS = {
  en: ['winding', 'twisting', 'meandering', 'curving', 'snaking'],
  zh: ['蜿蜒', '弯弯曲曲', '曲折'],
} as const;

/** Size words: a small island covers less of the map, a large one more. */
export const SIZE_WORDS: Readonly<Record<string, number>> = {
  tiny: 0.6,
  small: 0.8,
  little: 0.8,
  large: 1.2,
  big: 1.2,
  huge: 1.35,
  vast: 1.35,
  dense: 1.3,
  thick: 1.3,
  小: 0.8,
  大: 1.2,
  茂密: 1.3,
};
