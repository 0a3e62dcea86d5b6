import type { Rgb } from '../palette.js';

/** How a subject is built: a body plan for creatures and people, an object class for things. */
export type BodyPlan =
  | 'biped'
  | 'quadruped'
  | 'bird'
  | 'fish'
  | 'serpent'
  | 'many-legged'
  | 'blob'
  | 'floating'
  | 'object';

export type Feature =
  | 'ears'
  | 'long-ears'
  | 'round-ears'
  | 'tail'
  | 'bushy-tail'
  | 'horns'
  | 'antlers'
  | 'wings'
  | 'mane'
  | 'trunk'
  | 'shell'
  | 'claws'
  | 'tentacles'
  | 'snout'
  | 'beak'
  | 'fins'
  | 'halo'
  | 'hat:helmet'
  | 'hat:wizard'
  | 'hat:hood'
  | 'hat:crown'
  | 'hat:straw'
  | 'hat:tricorn'
  | 'hat:chef'
  | 'hat:space'
  | 'hat:kabuto'
  | 'hat:ninja'
  | 'coat'
  | 'weapon:katana'
  | 'weapon:sword'
  | 'weapon:staff'
  | 'weapon:bow'
  | 'weapon:dagger'
  | 'weapon:club'
  | 'weapon:cutlass'
  | 'weapon:pitchfork'
  | 'robe'
  | 'cape'
  | 'armor'
  | 'long-hair'
  | 'female'
  | 'male'
  | 'small'
  | 'big'
  | 'tall'
  | 'low'
  | 'heavy'
  | 'six-legs'
  | 'eight-legs'
  | 'long-neck';

export interface KindSpec {
  plan: BodyPlan;
  /** For plan 'object': the object class drawn. */
  object?: string;
  features: readonly Feature[];
  /** The main body colour when the prompt names none (sRGB). */
  color: Rgb;
  /** Metal, glass and gems get a specular highlight. */
  shiny?: boolean;
}

const k = (
  plan: BodyPlan,
  color: Rgb,
  features: Feature[] = [],
  extra: Partial<KindSpec> = {},
): KindSpec => ({
  plan,
  color,
  features,
  ...extra,
});
const o = (object: string, color: Rgb, features: Feature[] = [], shiny = false): KindSpec => ({
  plan: 'object',
  object,
  color,
  features,
  shiny,
});

/** Every kind the generated lexicon can name (scripts/lexicon-anchors.mjs), and how it is drawn. */
export const KINDS = {
  'animal.beast': k('quadruped', [150, 110, 80], ['ears', 'tail']),
  'animal.canine': k('quadruped', [200, 110, 50], ['ears', 'bushy-tail', 'snout']),
  'animal.feline': k('quadruped', [220, 150, 70], ['ears', 'tail']),
  'animal.bear': k('quadruped', [120, 80, 50], ['round-ears', 'heavy', 'big']),
  'animal.equine': k('quadruped', [150, 100, 60], ['mane', 'tail', 'tall', 'long-neck', 'snout']),
  'animal.bovid': k('quadruped', [235, 230, 215], ['horns', 'tail', 'heavy', 'snout']),
  'animal.deer': k('quadruped', [170, 115, 70], ['antlers', 'tall', 'tail', 'long-neck']),
  'animal.swine': k('quadruped', [240, 170, 170], ['ears', 'snout', 'heavy', 'low']),
  'animal.rodent': k('quadruped', [150, 140, 130], ['round-ears', 'tail', 'small', 'low']),
  'animal.rabbit': k('quadruped', [235, 230, 225], ['long-ears', 'small']),
  'animal.elephant': k('quadruped', [150, 150, 160], ['trunk', 'round-ears', 'big', 'heavy']),
  'animal.primate': k('biped', [140, 95, 60], ['round-ears', 'tail']),
  'animal.lizard': k('quadruped', [90, 160, 70], ['tail', 'low']),
  'animal.turtle': k('quadruped', [90, 150, 80], ['shell', 'low']),
  'animal.frog': k('quadruped', [90, 180, 70], ['low', 'small']),
  'animal.bird': k('bird', [120, 150, 210], ['beak', 'wings', 'tail']),
  'animal.bat': k('bird', [90, 70, 90], ['ears', 'wings']),
  'animal.fish': k('fish', [90, 150, 220], ['fins', 'tail']),
  'animal.whale': k('fish', [70, 100, 150], ['fins', 'tail', 'big']),
  'animal.snake': k('serpent', [100, 170, 60], []),
  'animal.insect': k('many-legged', [120, 90, 50], ['six-legs']),
  'animal.flyer': k('many-legged', [240, 200, 40], ['six-legs', 'wings']),
  'animal.spider': k('many-legged', [70, 60, 70], ['eight-legs']),
  'animal.crab': k('many-legged', [220, 80, 60], ['six-legs', 'claws']),
  'animal.octopus': k('blob', [200, 90, 140], ['tentacles']),
  'animal.snail': k('blob', [200, 180, 140], ['shell', 'low']),
  'creature.monster': k('biped', [120, 170, 80], ['horns', 'claws', 'big']),
  'creature.dragon': k('quadruped', [60, 160, 80], ['wings', 'horns', 'tail', 'big', 'long-neck']),
  'creature.ogre': k('biped', [130, 160, 90], ['big', 'heavy', 'weapon:club']),
  'creature.ghost': k('floating', [225, 235, 245], []),
  'creature.goblin': k('biped', [110, 170, 70], ['long-ears', 'small', 'weapon:dagger']),
  'creature.demon': k('biped', [190, 40, 40], ['horns', 'wings', 'tail']),
  'creature.angel': k('biped', [245, 240, 225], ['wings', 'halo', 'robe']),
  'creature.fairy': k('biped', [160, 230, 150], ['wings', 'ears', 'small']),
  'creature.skeleton': k('biped', [235, 230, 210], ['weapon:sword']),
  'creature.zombie': k('biped', [110, 170, 60], []),
  'creature.vampire': k('biped', [60, 50, 70], ['cape']),
  'creature.werewolf': k('biped', [110, 100, 100], ['ears', 'snout', 'tail', 'claws', 'big']),
  'creature.slime': k('blob', [90, 200, 90], []),
  'creature.robot': k('biped', [160, 170, 185], ['armor'], { shiny: true }),
  'creature.golem': k('biped', [140, 135, 130], ['big', 'heavy']),
  'creature.unicorn': k('quadruped', [245, 245, 250], ['horns', 'mane', 'tail', 'tall', 'long-neck']),
  'creature.griffin': k('quadruped', [200, 160, 90], ['wings', 'beak', 'tail']),
  'creature.mermaid': k('serpent', [60, 170, 170], ['long-hair', 'fins']),
  'person.person': k('biped', [70, 110, 190], []),
  'person.knight': k('biped', [135, 150, 165], ['hat:helmet', 'weapon:sword', 'armor', 'cape'], {
    shiny: true,
  }),
  'person.mage': k('biped', [80, 70, 170], ['hat:wizard', 'weapon:staff', 'robe']),
  'person.priest': k('biped', [235, 230, 215], ['hat:hood', 'weapon:staff', 'robe']),
  'person.archer': k('biped', [70, 130, 60], ['hat:hood', 'weapon:bow']),
  'person.rogue': k('biped', [70, 70, 90], ['hat:hood', 'weapon:dagger', 'cape']),
  'person.king': k('biped', [170, 40, 60], ['hat:crown', 'cape']),
  'person.pirate': k('biped', [150, 40, 40], ['hat:tricorn', 'weapon:cutlass', 'coat']),
  'person.ninja': k('biped', [44, 44, 60], ['hat:ninja', 'weapon:katana']),
  'person.samurai': k('biped', [120, 30, 40], ['hat:kabuto', 'weapon:katana', 'armor']),
  'person.farmer': k('biped', [70, 110, 190], ['hat:straw', 'weapon:pitchfork']),
  'person.chef': k('biped', [240, 240, 240], ['hat:chef']),
  'person.child': k('biped', [230, 140, 60], ['small']),
  'person.woman': k('biped', [200, 80, 130], ['long-hair']),
  'person.girl': k('biped', [235, 120, 160], ['long-hair', 'small']),
  'person.astronaut': k('biped', [235, 235, 240], ['hat:space', 'armor']),
  'item.blade': o('blade', [195, 205, 220], [], true),
  'item.axe': o('axe', [175, 185, 200], [], true),
  'item.hammer': o('hammer', [150, 150, 160], [], true),
  'item.spear': o('spear', [185, 195, 210], [], true),
  'item.staff': o('staff', [130, 90, 55]),
  'item.bow': o('bow', [150, 100, 55]),
  'item.gun': o('gun', [90, 90, 100], [], true),
  'item.shield': o('shield', [70, 110, 190], [], true),
  'item.hat': o('hat', [110, 80, 150]),
  'item.crown': o('crown', [240, 200, 60], [], true),
  'item.garment': o('garment', [70, 120, 190]),
  'item.boot': o('boot', [120, 80, 50]),
  'item.chest': o('chest', [150, 95, 50]),
  'item.bag': o('bag', [190, 150, 100]),
  'item.bottle': o('bottle', [120, 200, 220], [], true),
  'item.barrel': o('barrel', [150, 100, 60]),
  'item.cup': o('cup', [220, 220, 225]),
  'item.potion': o('potion', [220, 50, 80], [], true),
  'food.fruit': o('fruit', [220, 50, 50]),
  'food.bread': o('bread', [215, 160, 90]),
  'food.cake': o('cake', [245, 200, 210]),
  'food.meat': o('meat', [190, 80, 60]),
  'food.cheese': o('cheese', [245, 210, 80]),
  'food.food': o('bowl', [230, 170, 80]),
  'item.gem': o('gem', [80, 200, 230], [], true),
  'item.coin': o('coin', [240, 200, 60], [], true),
  'item.key': o('key', [235, 195, 70], [], true),
  'item.ring': o('ring', [240, 200, 60], [], true),
  'item.book': o('book', [150, 50, 50]),
  'item.scroll': o('scroll', [235, 220, 180]),
  'item.lamp': o('lamp', [240, 190, 70], [], true),
  'item.candle': o('candle', [240, 235, 215]),
  'item.torch': o('torch', [130, 90, 55]),
  'plant.tree': o('tree', [60, 150, 60]),
  'plant.flower': o('flower', [230, 80, 140]),
  'plant.bush': o('bush', [70, 150, 70]),
  'plant.mushroom': o('mushroom', [210, 50, 50]),
  'plant.cactus': o('cactus', [80, 160, 80]),
  'rock.rock': o('rock', [140, 140, 145]),
  'furniture.chair': o('chair', [150, 100, 60]),
  'furniture.table': o('table', [150, 100, 60]),
  'furniture.bed': o('bed', [200, 60, 70]),
  'furniture.cabinet': o('cabinet', [140, 95, 60]),
  'building.house': o('house', [200, 80, 60]),
  'building.tower': o('tower', [160, 160, 170]),
  'building.castle': o('castle', [170, 170, 180]),
  'building.temple': o('temple', [230, 225, 210]),
  'building.hut': o('hut', [170, 130, 80]),
  'building.tent': o('tent', [200, 170, 110]),
  'vehicle.cart': o('cart', [150, 100, 60]),
  'vehicle.car': o('car', [210, 50, 50], [], true),
  'vehicle.boat': o('boat', [150, 100, 60]),
  'vehicle.plane': o('plane', [220, 225, 235], [], true),
  'vehicle.rocket': o('rocket', [230, 230, 235], [], true),
  'vehicle.train': o('train', [70, 70, 80], [], true),
  'vehicle.bike': o('bike', [200, 50, 50], [], true),
  /** A noun only the licensed drawings show (windmill, trophy, heart): never drawn by the rig. */
  'thing.drawing': o('drawing', [150, 120, 100]),
} as const satisfies Readonly<Record<string, KindSpec>>;

/** A kind name of the lexicon: `animal.canine`, `person.knight`, `thing.drawing` … */
export type KindName = keyof typeof KINDS;

/** The spec of a kind name read from data (the lexicon, a stored interpretation), if it is one. */
export function kindSpec(name: string): KindSpec | undefined {
  return Object.hasOwn(KINDS, name) ? KINDS[name as KindName] : undefined;
}
