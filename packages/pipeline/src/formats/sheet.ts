import type { Playback } from './playback.js';

/** One frame of a sheet as the atlas writers see it. */
export interface SheetFrame {
  /** Unique in the sheet, e.g. `walk_down_0`. */
  name: string;
  /** The animation it belongs to, e.g. `walk_down`. */
  animation: string;
  /** Page index (0 unless the sheet wraps). */
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Milliseconds it shows. */
  duration: number;
}

/** One animation: the indices of its frames (into the sheet's frames) in forward order. */
export interface SheetAnimation {
  name: string;
  frames: number[];
}

/** One PNG page of a sheet, named as it is stored beside the atlas files. */
interface SheetImage {
  image: string;
  width: number;
  height: number;
}

/** Everything an atlas writer needs: pages, frames, animations and their playback. */
export interface SheetDescription {
  pages: SheetImage[];
  frames: SheetFrame[];
  animations: SheetAnimation[];
  playback: Playback;
}

export const ATLAS_APP = 'https://github.com/assetloom/assetloom';
