/**
 * A figure's identity: everything that makes a character itself, stored once (in a character, or
 * made from a prompt and a seed for a one-off sprite) and read by every frame of every task — the
 * body type and proportions, the outfit's pieces and the palette (each material's whole ramp). Two
 * drawings from one identity are the same character: same parts, same proportions, same colours.
 */
import type { BodyType, Proportions } from './body.js';

/** The material slots of a figure, in raster order (slot i is material i + 1). */
export const SLOTS = [
  'skin',
  'hair',
  'cloth',
  'cloth2',
  'pants',
  'hat',
  'cape',
  'enamel',
  'metal',
  'leather',
  'gold',
  'wood',
  'white',
  'eye',
  'glow',
  'bone',
] as const;
export type Slot = (typeof SLOTS)[number];
export const SLOT: Readonly<Record<Slot, number>> = Object.fromEntries(
  SLOTS.map((s, i) => [s, i + 1]),
) as Record<Slot, number>;

export type Look =
  | 'plain'
  | 'knight'
  | 'warrior'
  | 'mage'
  | 'priest'
  | 'archer'
  | 'rogue'
  | 'royal'
  | 'pirate'
  | 'ninja'
  | 'samurai'
  | 'farmer'
  | 'chef'
  | 'astronaut'
  | 'skeleton'
  | 'zombie'
  | 'robot'
  | 'vampire'
  | 'creature';

export type Headwear =
  | 'none'
  | 'helm'
  | 'open-helm'
  | 'horned-helm'
  | 'crested-helm'
  | 'hood'
  | 'wizard'
  | 'witch'
  | 'crown'
  | 'circlet'
  | 'straw'
  | 'tricorn'
  | 'cowboy'
  | 'chef'
  | 'space'
  | 'power'
  | 'kabuto'
  | 'wrap'
  | 'bandana'
  | 'cap'
  | 'dome';
export type Hair = 'short' | 'long' | 'bun' | 'spiky' | 'ponytail' | 'bald' | 'tufts' | 'slick';
export type Face =
  | 'eyes'
  | 'glare'
  | 'visor'
  | 'glass'
  | 'sockets'
  | 'lenses'
  | 'slit'
  | 'hollow'
  | 'beast'
  | 'eyepatch'
  | 'mask';
export type Beard = 'none' | 'short' | 'long';
export type Torso =
  | 'tunic'
  | 'shirt'
  | 'plate'
  | 'robe'
  | 'dress'
  | 'coat'
  | 'gi'
  | 'lamellar'
  | 'suit'
  | 'ribs'
  | 'chassis'
  | 'rags'
  | 'fur'
  | 'vest';
export type Legs =
  | 'trousers'
  | 'greaves'
  | 'robe'
  | 'skirt'
  | 'hakama'
  | 'bones'
  | 'pistons'
  | 'fur'
  | 'overalls';
export type Feet = 'boots' | 'sabatons' | 'shoes' | 'sandals' | 'bare' | 'bones' | 'paws';
export type Hands = 'bare' | 'gloves' | 'gauntlets' | 'bones' | 'claws';
export type Back = 'cape' | 'quiver' | 'pack' | 'sheath' | 'tank' | 'wings' | 'tail';
export type Extra =
  | 'belt'
  | 'sash'
  | 'pauldrons'
  | 'tabard'
  /** A cross on the tabard, front and back, in the cape's colour (a crusader's red cross). */
  | 'cross'
  | 'collar'
  | 'high-collar'
  | 'apron'
  | 'straps'
  | 'stole'
  | 'bracers'
  | 'scarf'
  | 'halo'
  | 'horns'
  | 'ears'
  | 'long-ears'
  | 'round-ears'
  | 'snout'
  | 'muzzle'
  | 'tusks'
  | 'fangs'
  | 'glasses';
export type Weapon =
  | 'sword'
  | 'axe'
  | 'club'
  | 'spear'
  | 'pitchfork'
  | 'staff'
  | 'wand'
  | 'dagger'
  | 'bow'
  | 'gun'
  | 'katana'
  | 'cutlass'
  | 'hammer'
  | 'pickaxe'
  | 'torch'
  | 'ladle';
export type Offhand = 'shield' | 'round-shield' | 'book' | 'lantern';

/** The pieces a figure wears and carries. */
export interface Outfit {
  look: Look;
  head: Headwear;
  hair: Hair;
  face: Face;
  beard: Beard;
  torso: Torso;
  legs: Legs;
  feet: Feet;
  hands: Hands;
  back: Back[];
  extras: Extra[];
  weapon: Weapon | null;
  offhand: Offhand | null;
  /** Reaches forward (a zombie's shamble). */
  reach?: boolean;
  /** Plate armour enamelled in the figure's colour ("a blue knight"), not bare steel. */
  enamelled?: boolean;
  /** What it holds drawn this much bigger: a size word before it ("a big sword" 1.15, "a great axe" 1.25). */
  prop?: number;
}

/** A ramp as stored: outline, deepest shadow, shadow, base, light (hex `#rrggbb`). */
export type StoredRamp = [outline: string, shadow: string, dark: string, base: string, light: string];

export interface FigureIdentity {
  /** The figure rig's identity format. */
  rig: 'figure';
  version: 1;
  /** The lexicon kind drawn (`person.knight`) and the noun (its lemma). */
  kind: string;
  noun: string;
  body: BodyType;
  proportions: Proportions;
  /** Scale from size words (a tiny goblin) — the figure fills less of its frame. */
  scale: number;
  outfit: Outfit;
  /** Every slot's ramp (SLOTS order), already fitted to the palette it was made under. */
  palette: Record<Slot, StoredRamp>;
  /** The seed it was made from. */
  seed: number;
  /** Prompt words the identity honours (the outfit draws them). */
  honoured: string[];
}
