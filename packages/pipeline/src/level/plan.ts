/** What growing a level makes: the terrain grid, the props, where each feature went and what must join up. */
import type { TilesetKind } from '../tileset/rules.js';
import type { Grid } from './grid.js';
import type { FeatureKind, Placement } from './words.js';

/** The things placed on a level as objects (sprites of the built-in generator), not baked into tiles. */
export type PropKind =
  | 'tree'
  | 'pine'
  | 'palm'
  | 'cactus'
  | 'bush'
  | 'rock'
  | 'house'
  /** A village's thatched cottage: a house with a straw roof (decision 0143). */
  | 'cottage'
  /** A village's long hall, four tiles wide: its west and east halves on two cells side by side. */
  | 'hall-w'
  | 'hall-e'
  | 'chest'
  | 'cave'
  /** A door walked north–south (its face seen). */
  | 'door'
  /** A door walked east–west (seen edge-on, in a side wall). */
  | 'door-ew'
  /** A dungeon's start: stairs up out of the spawn room. */
  | 'stairs'
  /** A dungeon's goal: stairs down in the room farthest from the spawn (the last room), its way on. */
  | 'stairs-down'
  /** Planks over water walked east–west (a river running north–south), one per cell of the span. */
  | 'bridge'
  /** Planks over water walked north–south. */
  | 'bridge-ns'
  /** Ground cover scattered in patches so an open field is not one repeated tile (walked over). */
  | 'flowers'
  | 'tuft'
  /** Reeds at the water's edge (a swamp's, a lake's, a river's). */
  | 'reeds'
  /** A field's crop rows on tilled soil, one per cell of the plot (walked over). */
  | 'crops'
  /** A dungeon room's furnishings by its role (dungeon.ts `furnish`): barrels and crates in its corners, a torch on its north wall, a table in a hall's middle, bones and rubble on its floor (walked over). */
  | 'barrel'
  | 'torch'
  | 'crate'
  | 'table'
  | 'bones'
  | 'rubble'
  /** A shelf of books and jars against a room's north wall; a clay urn (decision 0137). */
  | 'shelf'
  | 'urn'
  /** A village's well on its square; a fenced cottage garden beside a house (decision 0143). */
  | 'well'
  | 'garden';

export const PROP_KINDS: readonly PropKind[] = [
  'tree',
  'pine',
  'palm',
  'cactus',
  'bush',
  'rock',
  'house',
  'cottage',
  'hall-w',
  'hall-e',
  'chest',
  'cave',
  'door',
  'door-ew',
  'stairs',
  'stairs-down',
  'bridge',
  'bridge-ns',
  'flowers',
  'tuft',
  'reeds',
  'crops',
  'barrel',
  'torch',
  'crate',
  'table',
  'bones',
  'rubble',
  'shelf',
  'urn',
  'well',
  'garden',
];

/** Whether a prop stops a walker (its collision box); doors, chests and stairs are walked up to. */
export const PROP_BLOCKS: Readonly<Record<PropKind, boolean>> = {
  tree: true,
  pine: true,
  palm: true,
  cactus: true,
  bush: false,
  rock: true,
  house: true,
  cottage: true,
  'hall-w': true,
  'hall-e': true,
  chest: false,
  cave: false,
  door: false,
  'door-ew': false,
  stairs: false,
  'stairs-down': false,
  bridge: false,
  'bridge-ns': false,
  flowers: false,
  tuft: false,
  reeds: false,
  crops: false,
  barrel: true,
  torch: false,
  crate: true,
  table: true,
  bones: false,
  rubble: false,
  shelf: true,
  urn: true,
  well: true,
  garden: true,
};

/**
 * Walkable regions (4-joined cells, blocking props counted) smaller than this are pockets between
 * water and rock, not places: the growing need not join them, the check does not count them.
 */
export function pocketSize(columns: number, rows: number): number {
  return Math.max(6, Math.round(columns * rows * 0.004));
}

/** A prop on a cell: its sprite's bottom centre is the cell's bottom centre. */
export interface PlacedProp {
  kind: PropKind;
  /** Map cell (tile column and row). */
  x: number;
  y: number;
}

/** Where a feature went: the grid points it took (terrain features) or its props' cells. */
export interface FeatureRegion {
  kind: FeatureKind;
  words: string[];
  placements: Placement[];
  /** Map cells (row-major indices over columns × rows). */
  cells: number[];
}

/** A place that must be reachable from every other (spawn, the cave's mouth, a room, a chest). */
export interface Anchor {
  name: string;
  /** Map cell index. */
  cell: number;
}

export interface LevelPlan {
  kind: Exclude<TilesetKind, 'seamless'>;
  columns: number;
  rows: number;
  /** Terrain ids: on the cell corners ((columns+1) × (rows+1)) for wang16, on the cells for blob47. */
  terrain: Grid;
  props: PlacedProp[];
  regions: FeatureRegion[];
  anchors: Anchor[];
  /** Dungeons: the rooms, in map cells. */
  rooms: Array<{ x: number; y: number; w: number; h: number }>;
  /** Where a player starts (map cell). */
  spawn: number;
  /** How the ground was grown, for the report. */
  method: string;
  /**
   * Words of features the growing could not draw at a size that reads or where the words put them,
   * each with why ("lake (no room for it)"): reported in the asset's `notHonoured`, never dropped.
   */
  notHonoured: string[];
}
