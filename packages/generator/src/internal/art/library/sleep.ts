/**
 * A creature asleep ("a cat sleeping", "a dragon napping", issue #39): its drawing breathes as it does
 * at rest, and the comic-strip sign every game uses for sleep rises over it — three Zs, small to large,
 * drifting up and out from above its head and fading in turn. Drawn on the art grid in whole pixels
 * with a dark outline (they read over any background), in the palette's colours when one is enforced.
 * Before this, "sleeping" was listed as not honoured and the cat stood awake.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { gridFor, type Painter, type Rgb } from '@assetloom/pipeline/pixel';

const SLEEP_WORDS =
  /^(sleep|sleeps|sleeping|asleep|slept|nap|naps|napping|snooze|snoozing|doze|dozing|slumber|slumbering|睡觉|睡着|睡|打盹)$/;

/** The prompt's word that puts a living thing to sleep, or null. */
export function sleepWord(words: readonly string[]): string | null {
  return words.find((w) => SLEEP_WORDS.test(w.toLowerCase())) ?? null;
}

const INK: Rgb = [236, 240, 250];
const LINE: Rgb = [46, 44, 66];

/** A Z of `s` art pixels square: its top bar, its diagonal, its bottom bar. */
function zCells(s: number): Array<[number, number]> {
  const cells: Array<[number, number]> = [];
  for (let x = 0; x < s; x++) cells.push([x, 0], [x, s - 1]);
  for (let y = 1; y < s - 1; y++) cells.push([s - 1 - y, y]);
  return cells;
}

/**
 * Draws the Zs over each frame: frame `f` of a row shows the Zs born before it, each rising a pixel a
 * frame from above the creature's head (the top of its opaque box, to its right) and the oldest gone
 * when a fourth would be born. Returns new frames.
 */
export function sleepMarks(
  frames: readonly RgbaImage[],
  job: {
    width: number;
    height: number;
    gridHint: number;
    framesPerDirection: number;
    painter: Painter;
    enforced: boolean;
  },
): RgbaImage[] {
  const fpd = job.framesPerDirection;
  const { gw, gh, factor } = gridFor(job.width, job.height, job.gridHint);
  const ox = Math.floor((job.width - gw * factor) / 2);
  const oy = Math.floor((job.height - gh * factor) / 2);
  const ink = job.enforced ? job.painter.choose(INK) : INK;
  const line = job.enforced ? job.painter.choose(LINE) : LINE;
  // Z sizes by the art grid: 5, 6, 7 cells at 64 (a 3-cell Z reads as a squiggle), 3, 4, 5 at 32
  const sizes = (gw >= 48 ? [5, 6, 7] : [3, 4, 5]).map((s) => s * Math.max(1, Math.round(gw / 96)));
  const out: RgbaImage[] = [];
  for (let row = 0; row * fpd < frames.length; row++) {
    const first = frames[row * fpd]!;
    // the head's top right, in art cells
    let top = gh;
    let right = -1;
    for (let gy = 0; gy < gh && top === gh; gy++)
      for (let gx = 0; gx < gw; gx++)
        if (first.data[((oy + gy * factor) * first.width + ox + gx * factor) * 4 + 3]! >= 128) top = gy;
    for (let gy = top; gy < Math.min(gh, top + Math.round(gh / 5)); gy++)
      for (let gx = 0; gx < gw; gx++)
        if (first.data[((oy + gy * factor) * first.width + ox + gx * factor) * 4 + 3]! >= 128)
          right = Math.max(right, gx);
    if (right < 0) right = Math.round(gw * 0.6);
    for (let f = 0; f < fpd; f++) {
      const src = frames[row * fpd + f]!;
      const data = new Uint8Array(src.data);
      const paint = (gx: number, gy: number, c: Rgb) => {
        if (gx < 1 || gy < 1 || gx >= gw - 1 || gy >= gh - 1) return;
        for (let y = 0; y < factor; y++)
          for (let x = 0; x < factor; x++)
            data.set(
              [c[0], c[1], c[2], 255],
              ((oy + gy * factor + y) * src.width + ox + gx * factor + x) * 4,
            );
      };
      // the Zs alive in this frame: one born every frame (every other from 6 frames), three at most
      const every = fpd >= 6 ? 2 : 1;
      for (let k = 0; k < 3; k++) {
        const born = Math.floor(f / every) - k;
        if (born < 0) continue;
        const age = f - born * every;
        const s = sizes[k]!;
        // the newest over the head's top right, each older one up and to the right of it (over the
        // drawing where the frame has no room above it: the outline keeps them apart)
        const x0 = Math.max(
          1,
          Math.min(gw - 2 - s, right - sizes[0]! - 1 + sizes.slice(0, k).reduce((a, b) => a + b + 1, 0)),
        );
        const y0 = Math.max(1, top + 3 - sizes.slice(1, k + 1).reduce((a, b) => a + b, 0) - age);
        const cells = zCells(s).map(([x, y]) => [x0 + x, y0 + y] as const);
        const taken = new Set(cells.map(([x, y]) => `${x},${y}`));
        for (const [x, y] of cells)
          for (const [dx, dy] of [
            [1, 0],
            [-1, 0],
            [0, 1],
            [0, -1],
          ] as const)
            if (!taken.has(`${x + dx},${y + dy}`)) paint(x + dx, y + dy, line);
        for (const [x, y] of cells) paint(x, y, ink);
      }
      out.push({ width: src.width, height: src.height, data });
    }
  }
  return out;
}
