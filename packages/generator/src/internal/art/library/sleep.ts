/**
 * A creature asleep ("a cat sleeping", "a dragon napping", issue #39): its drawing breathes as it does
 * at rest, and the comic-strip sign every game uses for sleep rises over it — three Zs, small to large,
 * drifting up and out from above its head and fading in turn. Drawn on the art grid in whole pixels
 * with a dark outline (they read over any background), in the palette's colours when one is enforced.
 * Before this, "sleeping" was listed as not honoured and the cat stood awake.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { gridFor, type Painter, type Rgb } from '@assetloom/pipeline/pixel';

/** The four neighbours of a cell. */
const N4 = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

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
          for (const [dx, dy] of N4) if (!taken.has(`${x + dx},${y + dy}`)) paint(x + dx, y + dy, line);
        for (const [x, y] of cells) paint(x, y, ink);
      }
      out.push({ width: src.width, height: src.height, data });
    }
  }
  return out;
}

/**
 * A sleeper lies down and shuts its eyes (decision 0103: "a cat sleeping" showed Zs over a cat
 * standing awake). On each frame's art grid: the legs — the rows under the body where its outline
 * breaks into separate runs, none of them half as wide as the body — fold under it (their rows go, the
 * paws' last two rows stay tucked under the belly, the whole dropped to the ground line), and each eye
 * — a small mark much darker than the body inside it, in its upper half — becomes a closed lid: the
 * body's colour with a dark line along the eye's lower edge. A drawing with no legs (a bear's head, a
 * snake) keeps its outline and only shuts its eyes. Returns new frames and whether the legs folded.
 */
export function lieDown(
  frames: readonly RgbaImage[],
  job: { width: number; height: number; gridHint: number },
): { frames: RgbaImage[]; folded: boolean } {
  const { gw, gh, factor } = gridFor(job.width, job.height, job.gridHint);
  const ox = Math.floor((job.width - gw * factor) / 2);
  const oy = Math.floor((job.height - gh * factor) / 2);
  let folded = false;
  const out = frames.map((src) => {
    const at = (gx: number, gy: number) => ((oy + gy * factor) * src.width + ox + gx * factor) * 4;
    const op = (gx: number, gy: number) =>
      gx >= 0 && gy >= 0 && gx < gw && gy < gh && src.data[at(gx, gy) + 3]! >= 128;
    let [x0, y0, x1, y1] = [gw, gh, -1, -1];
    for (let gy = 0; gy < gh; gy++)
      for (let gx = 0; gx < gw; gx++)
        if (op(gx, gy))
          [x0, y0, x1, y1] = [Math.min(x0, gx), Math.min(y0, gy), Math.max(x1, gx), Math.max(y1, gy)];
    if (x1 < 0) return { width: src.width, height: src.height, data: new Uint8Array(src.data) };
    // the cells of the art grid, copied so that rows can go
    const cells: Array<Array<Uint8Array | null>> = [];
    for (let gy = 0; gy < gh; gy++) {
      const row: Array<Uint8Array | null> = [];
      for (let gx = 0; gx < gw; gx++)
        row.push(op(gx, gy) ? src.data.slice(at(gx, gy), at(gx, gy) + 4) : null);
      cells.push(row);
    }
    const luma = (c: Uint8Array) => 0.3 * c[0]! + 0.59 * c[1]! + 0.11 * c[2]!;
    const inside = (gx: number, gy: number) =>
      op(gx, gy) && op(gx - 1, gy) && op(gx + 1, gy) && op(gx, gy - 1) && op(gx, gy + 1);
    // eyes shut: small dark marks inside the upper half, much darker than the body
    const lumas: number[] = [];
    for (let gy = y0; gy <= y1; gy++)
      for (let gx = x0; gx <= x1; gx++) if (inside(gx, gy)) lumas.push(luma(cells[gy]![gx]!));
    const body = lumas.sort((a, b) => a - b)[lumas.length >> 1] ?? 0;
    const dark = (gx: number, gy: number) =>
      inside(gx, gy) && gy < y0 + (y1 - y0 + 1) * 0.55 && luma(cells[gy]![gx]!) < body * 0.55;
    const seen = new Set<number>();
    const most = Math.max(4, Math.round((gw / 12) ** 2));
    for (let gy = y0; gy <= y1; gy++)
      for (let gx = x0; gx <= x1; gx++) {
        if (seen.has(gy * gw + gx) || !dark(gx, gy)) continue;
        const group: Array<[number, number]> = [[gx, gy]];
        seen.add(gy * gw + gx);
        for (let i = 0; i < group.length; i++) {
          const [cx, cy] = group[i]!;
          for (const [dx, dy] of N4)
            if (!seen.has((cy + dy) * gw + cx + dx) && dark(cx + dx, cy + dy)) {
              seen.add((cy + dy) * gw + cx + dx);
              group.push([cx + dx, cy + dy]);
            }
        }
        // (a lone dark cell is a mouth's corner or a whisker, no eye — but at 32 px an eye is one cell)
        if (group.length < (gw >= 48 ? 2 : 1) || group.length > most) continue;
        const ex0 = Math.min(...group.map(([x]) => x));
        const ex1 = Math.max(...group.map(([x]) => x));
        const ey0 = Math.min(...group.map(([, y]) => y));
        const ey1 = Math.max(...group.map(([, y]) => y));
        const ink = group.map(([x, y]) => cells[y]![x]!).sort((a, b) => luma(a) - luma(b))[0]!;
        // the lid: the colour just above the eye (the body's)
        const lid = cells[ey0 - 1]?.[Math.round((ex0 + ex1) / 2)] ?? null;
        if (!lid || luma(lid) < body * 0.6) continue;
        for (const [x, y] of group) cells[y]![x] = lid;
        const l0 = ex1 - ex0 >= 1 ? ex0 : ex0 - (op(ex0 - 1, ey1) && inside(ex0 - 1, ey1) ? 1 : 0);
        for (let x = l0; x <= Math.max(ex1, l0 + 1); x++) if (inside(x, ey1)) cells[ey1]![x] = ink;
      }
    // the legs: from the ground up, the rows split in two or more runs (or one thin foot), none of
    // them two thirds as wide as the body's widest row (a head's round chin is one run: no legs)
    const runsOf = (gy: number) => {
      let best = 0;
      let run = 0;
      let runs = 0;
      for (let gx = x0; gx <= x1 + 1; gx++) {
        if (cells[gy]?.[gx]) {
          if (!run) runs++;
          run++;
        } else run = 0;
        best = Math.max(best, run);
      }
      return { best, runs };
    };
    let bodyW = 0;
    for (let gy = y0; gy <= y1; gy++) bodyW = Math.max(bodyW, runsOf(gy).best);
    const leg = (gy: number) => {
      const { best, runs } = runsOf(gy);
      return best < bodyW * 0.65 && (runs >= 2 || best < bodyW * 0.25);
    };
    // (the paws' bottom rows may touch in one run: five rows from the ground need only be narrow)
    let legTop = y1 + 1;
    while (
      legTop - 1 > y0 &&
      (leg(legTop - 1) || (y1 - legTop < 5 && runsOf(legTop - 1).best < bodyW * 0.65))
    )
      legTop--;
    const legs = y1 + 1 - legTop;
    // (two of its rows at least are legs apart, not one narrow bottom)
    let apart = 0;
    for (let gy = legTop; gy <= y1; gy++) if (runsOf(gy).runs >= 2) apart++;
    // legs are a real part, not a whole drawing's bottom: at least 5 rows at 64 px (3 at 32), at most two fifths of it
    const cut =
      apart >= 2 && legs >= Math.max(3, Math.round(gh / 13)) && legs <= (y1 - y0 + 1) * 0.4 ? legs - 2 : 0;
    if (cut) {
      folded = true;
      // the rows above the legs drop by the cut; the paws' two rows stay on the ground
      for (let gy = legTop - 1; gy >= 0; gy--) cells[gy + cut] = cells[gy]!;
      for (let gy = 0; gy < cut; gy++) cells[gy] = new Array(gw).fill(null);
    }
    const data = new Uint8Array(src.data.length);
    for (let gy = 0; gy < gh; gy++)
      for (let gx = 0; gx < gw; gx++) {
        const c = cells[gy]![gx];
        if (!c) continue;
        for (let y = 0; y < factor; y++)
          for (let x = 0; x < factor; x++)
            data.set(c, ((oy + gy * factor + y) * src.width + ox + gx * factor + x) * 4);
      }
    return { width: src.width, height: src.height, data };
  });
  return { frames: out, folded };
}
