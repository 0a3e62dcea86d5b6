/** How a prompt was read: the plain types of `metadata.interpretation` (no code, no imports). */
export type Scene =
  | 'grassland'
  | 'forest'
  | 'desert'
  | 'snow'
  | 'ocean'
  | 'beach'
  | 'volcano'
  | 'swamp'
  | 'city'
  | 'village'
  | 'dungeon'
  | 'cave'
  | 'castle_hall'
  | 'tavern'
  | 'underwater'
  | 'space';
export const SCENE_NAMES: readonly Scene[] = [
  'grassland',
  'forest',
  'desert',
  'snow',
  'ocean',
  'beach',
  'volcano',
  'swamp',
  'city',
  'village',
  'dungeon',
  'cave',
  'castle_hall',
  'tavern',
  'underwater',
  'space',
];
export type TimeOfDay = 'day' | 'dawn' | 'dusk' | 'night';
export type Weather = 'rain' | 'snow' | 'fog';
/**
 * What the subject does: the rig's actions (idle … death) and the motions of things (spin, flicker,
 * fly, float, glow). Each verb of the prompt becomes the motion of an animation.
 */
export type Action =
  | 'idle'
  | 'walk'
  | 'run'
  | 'attack'
  | 'jump'
  | 'hurt'
  | 'death'
  | 'spin'
  | 'flicker'
  | 'fly'
  | 'float'
  | 'glow';
export const ACTIONS: readonly Action[] = [
  'idle',
  'walk',
  'run',
  'attack',
  'jump',
  'hurt',
  'death',
  'spin',
  'flicker',
  'fly',
  'float',
  'glow',
];

export interface ColorWord {
  /** The word as the user wrote it (or its CSS name for a Chinese colour word). */
  word: string;
  /** sRGB hex, `#rrggbb`, before any palette mapping. */
  hex: string;
  /**
   * The noun the colour word stands before when that noun is not the subject ("a knight with a red
   * cape" → `cape`, "a knight with a blue shield" → `shield`); absent when it colours the subject.
   */
  of?: string;
}

/** What the prompt asks for, as far as the built-in generator reads it (`metadata.interpretation`). */
export interface Interpretation {
  /** The noun drawn, in the user's own word (or its singular); null when no known noun was found. */
  subject: string | null;
  /** The lexicon kind of the subject (e.g. `animal.canine`), when there is one. */
  kind?: string;
  /** The English lemma of the subject (for a Chinese subject, the word CC-CEDICT glosses it with). */
  lemma?: string;
  /** Words the drawing honours. */
  understood: string[];
  /** Words the drawing does not honour (unknown, or known but not drawable for this asset type). */
  ignored: string[];
  /** Colour words and materials, in prompt order; the first colours the subject's main body. */
  colors: ColorWord[];
  material?: string;
  action?: Action;
  scene?: Scene;
  time?: TimeOfDay;
  weather?: Weather;
  /** Size factor from size words (tiny 0.65 … huge 1.25). */
  size?: number;
  /** Backgrounds: "dark" with no colour after it darkens the scene. */
  dark?: boolean;
  /** A weapon or tool the subject holds ("a knight with an axe"). */
  held?: string;
  /** Size factor of what it holds, from a size word before it ("a big axe" 1.15, "a great sword" 1.25). */
  heldSize?: number;
  /**
   * The other words of the subject's phrase, before its head noun ("pine" in "a pine tree"), as
   * lemmas or Chinese words: the built-in generator picks among the drawings of the head by them.
   */
  modifiers?: string[];
  /** Sprites: what drew the subject — a licensed drawing, or the rig (true directions and actions). */
  source?: 'drawing' | 'rig';
  /** The licensed drawing drawn, and how the subject's word reached it. */
  drawing?: { id: string; label: string; set: string; via: 'head' | 'label' | 'keyword' | 'hypernym' };
  /** A head noun drawn as the drawable noun WordNet places above it ("tabby" → cat). */
  drawnAs?: string;
  /**
   * Only with `params.placeholder`: the subject no source can draw, and the placeholder drawn in
   * its place. Without it such a task fails and names the word.
   */
  substitute?: { for: string; drawn: string };
  /**
   * Backgrounds: each element and noun the prompt named, and what became of it — drawn (`as` says
   * how: "pier and boats", a drawing's id) or dropped (no place for it in this scene). `thing`: not a
   * scene element but a thing the sprite generator drew into it (or could not: then dropped).
   */
  elements?: Array<{ word: string; drawn: boolean; as?: string; thing?: true }>;
  /** UI pieces: the words set on the piece (quoted or named by the prompt) and the pixel font they are set in. */
  text?: { text: string; font: string };
}
