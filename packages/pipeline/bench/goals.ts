import { interpret, type RgbaImage, renderProcedural } from '../src/index.js';

/**
 * The two goals of issue #19, measured on a list of common game nouns (animals, people and classes,
 * monsters, items, props, vehicles): how many are understood and drawn from their own kind, and how
 * many have a silhouette distinct from every other subject's.
 */
export const GAME_NOUNS = [
  // animals
  'fox',
  'wolf',
  'dog',
  'cat',
  'lion',
  'tiger',
  'bear',
  'horse',
  'cow',
  'sheep',
  'goat',
  'pig',
  'deer',
  'rabbit',
  'mouse',
  'rat',
  'elephant',
  'monkey',
  'lizard',
  'crocodile',
  'turtle',
  'frog',
  'bird',
  'eagle',
  'owl',
  'chicken',
  'duck',
  'penguin',
  'bat',
  'fish',
  'shark',
  'whale',
  'dolphin',
  'snake',
  'worm',
  'spider',
  'scorpion',
  'bee',
  'butterfly',
  'ant',
  'beetle',
  'crab',
  'octopus',
  'snail',
  // people and classes
  'knight',
  'warrior',
  'soldier',
  'wizard',
  'witch',
  'priest',
  'archer',
  'thief',
  'ninja',
  'king',
  'queen',
  'princess',
  'pirate',
  'farmer',
  'villager',
  'merchant',
  'chef',
  'child',
  'astronaut',
  'hero',
  // monsters
  'dragon',
  'slime',
  'ghost',
  'goblin',
  'orc',
  'troll',
  'ogre',
  'demon',
  'angel',
  'fairy',
  'skeleton',
  'zombie',
  'vampire',
  'werewolf',
  'robot',
  'golem',
  'unicorn',
  'griffin',
  'mermaid',
  'monster',
  // items
  'sword',
  'dagger',
  'axe',
  'hammer',
  'spear',
  'staff',
  'wand',
  'bow',
  'crossbow',
  'gun',
  'shield',
  'helmet',
  'crown',
  'armor',
  'boots',
  'potion',
  'bottle',
  'chest',
  'barrel',
  'bag',
  'coin',
  'gem',
  'key',
  'ring',
  'book',
  'scroll',
  'torch',
  'lantern',
  'candle',
  'apple',
  'bread',
  'cake',
  'meat',
  'cheese',
  'mushroom',
  // props and nature
  'tree',
  'flower',
  'bush',
  'cactus',
  'rock',
  'chair',
  'table',
  'bed',
  'throne',
  'house',
  'tower',
  'castle',
  'church',
  'tent',
  'hut',
  // vehicles
  'car',
  'cart',
  'wagon',
  'train',
  'ship',
  'boat',
  'airplane',
  'rocket',
  'bicycle',
  'truck',
] as const;

export interface GoalFigures {
  nouns: number;
  understood: number;
  understoodShare: number;
  notUnderstood: string[];
  distinct: number;
  distinctShare: number;
  /** Pairs of subjects whose silhouettes are alike in every direction (IoU ≥ threshold). */
  alike: Array<[string, string, number]>;
}

/** Silhouette of a frame: its opaque cells, cropped to the bounding box, resampled to n × n. */
export function silhouette(img: RgbaImage, n = 16): Uint8Array {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[(y * img.width + x) * 4 + 3]! > 0) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  const out = new Uint8Array(n * n);
  if (x1 < 0) return out;
  // keep the aspect ratio: a tall figure and a long animal must not stretch into the same square
  const side = Math.max(x1 - x0 + 1, y1 - y0 + 1);
  const cx = (x0 + x1 + 1) / 2;
  const by = y1 + 1;
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const x = Math.floor(cx - side / 2 + ((i + 0.5) * side) / n);
      const y = Math.floor(by - side + ((j + 0.5) * side) / n);
      if (x >= 0 && y >= 0 && x < img.width && y < img.height)
        out[j * n + i] = img.data[(y * img.width + x) * 4 + 3]! > 0 ? 1 : 0;
    }
  return out;
}

/** Intersection over union of two silhouettes (1 = the same shape). */
export function iou(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i]! & b[i]!;
    union += a[i]! | b[i]!;
  }
  return union ? inter / union : 1;
}

/**
 * Understood: the noun is read as the subject with a drawable kind. Distinct: in the four directions
 * (frame 0, 64 px, seed fixed) the mean silhouette IoU with every other subject stays below `alikeAt`.
 */
export function measureGoals(nouns: readonly string[] = GAME_NOUNS, alikeAt = 0.85): GoalFigures {
  const notUnderstood: string[] = [];
  const shapes: Array<{ noun: string; dirs: Uint8Array[] }> = [];
  for (const noun of nouns) {
    const prompt = `a ${noun}`;
    const it = interpret({ assetType: 'sprite', userPrompt: prompt, tags: [], style: {} });
    if (!it.kind || !it.subject) {
      notUnderstood.push(noun);
      continue;
    }
    const out = renderProcedural({
      assetType: 'sprite',
      prompt,
      userPrompt: prompt,
      tags: [],
      style: {},
      resolution: 64,
      directions: 4,
      framesPerDirection: 1,
      seed: 1,
      attempt: 0,
    });
    shapes.push({ noun, dirs: out.frames.map((f) => silhouette(f)) });
  }
  const alike: Array<[string, string, number]> = [];
  const notDistinct = new Set<string>();
  for (let i = 0; i < shapes.length; i++)
    for (let j = i + 1; j < shapes.length; j++) {
      const a = shapes[i]!;
      const b = shapes[j]!;
      const mean = a.dirs.reduce((s, d, k) => s + iou(d, b.dirs[k]!), 0) / a.dirs.length;
      if (mean >= alikeAt) {
        alike.push([a.noun, b.noun, Math.round(mean * 100) / 100]);
        notDistinct.add(a.noun);
        notDistinct.add(b.noun);
      }
    }
  const understood = shapes.length;
  return {
    nouns: nouns.length,
    understood,
    understoodShare: understood / nouns.length,
    notUnderstood,
    distinct: understood - notDistinct.size,
    distinctShare: understood ? (understood - notDistinct.size) / understood : 0,
    alike,
  };
}
