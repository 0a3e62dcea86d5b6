import { PipelineError } from '../errors.js';
import type { RgbaImage } from '../types/index.js';

/** The largest sheet edge written on one page: wider or taller sheets wrap onto more pages. */
export const MAX_PAGE_SIZE = 4096;

/** Where one frame (direction-major index) sits: its page and its top-left corner there. */
interface FramePlacement {
  page: number;
  x: number;
  y: number;
}

export interface SheetPage {
  index: number;
  width: number;
  height: number;
  /** Direction-major frame indices on this page, in order. */
  frames: number[];
}

export interface PageLayout {
  pages: SheetPage[];
  placements: FramePlacement[];
  /** Frames per row on every page. */
  columns: number;
}

/**
 * Places `directions × framesPerDirection` frames (direction-major) on pages of at most
 * `maxSize` px a side. A sheet that fits keeps the plain layout: one row per direction, one column
 * per frame. One that does not fits as many columns as the page allows (a direction's frames wrap
 * onto further rows) and as many whole directions per page as fit, so every direction — every
 * animation — lies on one page. Pages are filled in direction order; the last may be shorter.
 */
export function layoutPages(
  frameWidth: number,
  frameHeight: number,
  directions: number,
  framesPerDirection: number,
  maxSize: number = MAX_PAGE_SIZE,
): PageLayout {
  const maxColumns = Math.floor(maxSize / frameWidth);
  const maxRows = Math.floor(maxSize / frameHeight);
  const columns = Math.min(framesPerDirection, maxColumns);
  const rowsPerDirection = columns > 0 ? Math.ceil(framesPerDirection / columns) : Infinity;
  const directionsPerPage = Math.floor(maxRows / rowsPerDirection);
  if (columns < 1 || directionsPerPage < 1) {
    throw new PipelineError(
      'invalid_request',
      `one direction of ${framesPerDirection} frames of ${frameWidth}×${frameHeight} px does not fit a ${maxSize}×${maxSize} page`,
    );
  }
  const pages: SheetPage[] = [];
  const placements: FramePlacement[] = [];
  for (let d = 0; d < directions; d++) {
    const page = Math.floor(d / directionsPerPage);
    const firstRow = (d % directionsPerPage) * rowsPerDirection;
    if (pages[page] === undefined) pages[page] = { index: page, width: 0, height: 0, frames: [] };
    const p = pages[page]!;
    for (let f = 0; f < framesPerDirection; f++) {
      const x = (f % columns) * frameWidth;
      const y = (firstRow + Math.floor(f / columns)) * frameHeight;
      placements.push({ page, x, y });
      p.frames.push(d * framesPerDirection + f);
      p.width = Math.max(p.width, x + frameWidth);
      p.height = Math.max(p.height, y + frameHeight);
    }
  }
  return { pages, placements, columns };
}

/** Draws one page: the frames listed on it at their placements (the rest transparent). */
export function composePage(frames: readonly RgbaImage[], layout: PageLayout, page: SheetPage): RgbaImage {
  const { width, height } = page;
  const data = new Uint8Array(width * height * 4);
  for (const i of page.frames) {
    const f = frames[i]!;
    const { x: ox, y: oy } = layout.placements[i]!;
    for (let y = 0; y < f.height; y++) {
      data.set(f.data.subarray(y * f.width * 4, (y + 1) * f.width * 4), ((oy + y) * width + ox) * 4);
    }
  }
  return { width, height, data };
}
