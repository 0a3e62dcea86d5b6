import type { PixelCanvas, Rgb } from '@assetloom/pipeline/pixel';

/**
 * What a panel holds when its words name it (issue #39: "an inventory grid panel" and "a parchment
 * quest log" were empty boxes, their words reported as not honoured):
 * - `slots`: an inventory, a bag, a hotbar — a grid of recessed item slots filling the face;
 * - `titled`: a quest log, a journal, a notice, a letter, a scroll — the page a game sets its own text
 *   on: a title band across the top (a darker strip, a rule under it), a quest's or journal's entry
 *   marks, and the text areas left clean (decisions 0107 and 0146: the blind reviews after 1130 and
 *   1130i found writing baked in — a UI artist leaves the writing to the game);
 * - `ruled`: ruled writing lines only when the words ask for them ("ruled", "lined", "lines"), with a
 *   tick box before each line when they ask for a checklist ("checklist", "checkboxes", "ticks").
 * A paper face (parchment, scroll) gets its grain and darker, worn edges either way.
 */
export type PanelContents = {
  kind: 'slots' | 'ruled' | 'titled';
  checklist: boolean;
  words: string[];
  /**
   * A titled page's marks (decision 0113: "a quest log panel shows nothing that says quest log"): a
   * quest or mission page bears a "!" marker in its title band and empty tick boxes down its left
   * edge, one an entry; a journal, log, diary or notes page a quill and small bullets. A letter or a
   * scroll stays a plain page.
   */
  page?: 'quest' | 'journal';
};

const SLOT_WORDS =
  /^(inventory|inventories|grid|slots?|bags?|backpacks?|storage|stash|hotbar|equipment|items?)$/;
const SLOT_ZH = /背包|物品栏|格子|装备栏|物品/g;
const PAGE_WORDS =
  /^(quests?|logs?|journals?|diary|diaries|notes?|notices?|pages?|letters?|scrolls?|objectives?|missions?)$/;
const PAGE_ZH = /任务|日志|笔记|清单/g;
/** Words of a page of quests: a "!" marker and empty tick boxes. */
const QUEST_WORDS = /^(quests?|objectives?|missions?)$|任务|清单/;
/** Words of a written record: a quill and bullets. */
const JOURNAL_WORDS = /^(logs?|journals?|diary|diaries|notes?)$|日志|笔记/;
/** Words that ask for ruled lines on the page. */
const RULED_WORDS = /^(ruled|lined|lines|rules)$/;
/** Words that ask for tick boxes before the lines. */
const CHECKLIST_WORDS = /^(checklist|checklists|checkbox|checkboxes|ticks?|checkmarks?|to-?do|todo)$/;
const CHECKLIST_ZH = /勾选|复选框|待办/g;

/** The contents a panel's text asks for, and the words that asked; null for a plain panel. */
export function panelContentsOf(text: string): PanelContents | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
  const at = (w: string) => text.indexOf(w);
  const slots = [...words.filter((w) => SLOT_WORDS.test(w)), ...(text.match(SLOT_ZH) ?? [])];
  const page = [...words.filter((w) => PAGE_WORDS.test(w)), ...(text.match(PAGE_ZH) ?? [])];
  const ruled = words.filter((w) => RULED_WORDS.test(w));
  const ticks = [...words.filter((w) => CHECKLIST_WORDS.test(w)), ...(text.match(CHECKLIST_ZH) ?? [])];
  const writing = [...page, ...ruled, ...ticks];
  if (slots.length === 0 && writing.length === 0) return null;
  // "an inventory grid" is slots; "a quest log" is a page; both named: the one named first wins
  const first = (list: string[]) => Math.min(...list.map(at).filter((i) => i >= 0));
  if (slots.length > 0 && (writing.length === 0 || first(slots) < first(writing)))
    return { kind: 'slots', checklist: false, words: slots };
  if (ruled.length === 0 && ticks.length === 0) {
    const kindOf = page.some((w) => QUEST_WORDS.test(w))
      ? 'quest'
      : page.some((w) => JOURNAL_WORDS.test(w))
        ? 'journal'
        : undefined;
    return { kind: 'titled', checklist: false, words: page, ...(kindOf ? { page: kindOf } : {}) };
  }
  return { kind: 'ruled', checklist: ticks.length > 0, words: writing };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface Ramp {
  hi: Rgb;
  light: Rgb;
  base: Rgb;
  dark: Rgb;
  deep: Rgb;
}

/** A colour `t` of the way from `a` to `b`. */
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  Math.round(a[0] + (b[0] - a[0]) * t),
  Math.round(a[1] + (b[1] - a[1]) * t),
  Math.round(a[2] + (b[2] - a[2]) * t),
];

/** A small integer hash of a pixel: the grain's dots fall the same for the same size. */
const hash = (x: number, y: number) => {
  let h = (x * 374761393 + y * 668265263) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
};

/** Parchment: sparse darker fibres across the face, and the last two pixels of its edge stained. */
export function paperGrain(c: PixelCanvas, box: Box, face: Ramp): void {
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) {
      const edge = Math.min(x - box.x0, box.x1 - 1 - x, y - box.y0, box.y1 - 1 - y);
      const h = hash(x, y);
      if (edge === 0 && h < 0.4) c.paint(x, y, face.dark);
      else if (edge === 1 && h < 0.1) c.paint(x, y, face.dark);
      else if (h < 0.012) c.paint(x, y, face.dark);
    }
}

/**
 * An inventory: square slots, each sunk into the face — bevelled (decision 0146: the blind review
 * after 1130i found the grid "flat and generic"): a lit lip round its mouth on the bottom and right, its
 * walls in shadow on the top and left two pixels deep (the outer the deepest), the floor a step darker
 * than the face and shaded towards the top left, a glint in its lower right — as many as fit with a
 * gap between.
 */
export function drawSlots(c: PixelCanvas, box: Box, face: Ramp): void {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const slot = Math.max(6, Math.min(20, Math.round(Math.min(w, h) / 4.2)));
  const gap = Math.max(1, Math.round(slot / 6));
  const cols = Math.max(1, Math.floor((w + gap) / (slot + gap)));
  const rows = Math.max(1, Math.floor((h + gap) / (slot + gap)));
  const x0 = box.x0 + Math.floor((w - (cols * (slot + gap) - gap)) / 2);
  const y0 = box.y0 + Math.floor((h - (rows * (slot + gap) - gap)) / 2);
  const wall = slot >= 10 ? 2 : 1;
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < cols; k++) {
      const sx = x0 + k * (slot + gap);
      const sy = y0 + r * (slot + gap);
      for (let y = sy; y < sy + slot; y++)
        for (let x = sx; x < sx + slot; x++) {
          const dt = Math.min(y - sy, x - sx);
          const bottom = y === sy + slot - 1 || x === sx + slot - 1;
          const col = bottom
            ? face.light
            : dt === 0
              ? face.deep
              : dt < wall
                ? mix(face.deep, face.dark, 0.5)
                : face.dark;
          c.paint(x, y, col);
        }
      // the lip's lit corner, and a glint on the floor's far side as on glassy item slots
      if (slot >= 10) {
        c.paint(sx + slot - 1, sy + slot - 1, face.hi);
        c.paint(sx + slot - 3, sy + slot - 3, face.base);
        c.paint(sx + slot - 4, sy + slot - 3, mix(face.dark, face.base, 0.5));
        c.paint(sx + slot - 3, sy + slot - 4, mix(face.dark, face.base, 0.5));
      }
    }
}

/**
 * Corner pieces on a grid panel's frame (decision 0146): at each corner a square plate a little
 * wider than the border, a step darker than the border, outlined, lit on its top and left edges and
 * shaded on its bottom and right, with a lit stud in its middle — the frame reads as built, not drawn as a line.
 */
export function drawCornerPieces(
  c: PixelCanvas,
  w: number,
  h: number,
  size: number,
  rim: Ramp,
  outline: Rgb | null,
): void {
  const s = Math.max(4, size);
  for (const [cx, cy] of [
    [0, 0],
    [w - s, 0],
    [0, h - s],
    [w - s, h - s],
  ] as const)
    for (let y = 0; y < s; y++)
      for (let x = 0; x < s; x++) {
        const edge = x === 0 || y === 0 || x === s - 1 || y === s - 1;
        const corner = (x === 0 || x === s - 1) && (y === 0 || y === s - 1);
        // the outer corner of the panel stays round: its own outline is there
        if (corner && (cx === 0 ? x === 0 : x === s - 1) && (cy === 0 ? y === 0 : y === s - 1)) continue;
        const stud = s >= 6 && Math.abs(x - (s - 1) / 2) < 1 && Math.abs(y - (s - 1) / 2) < 1;
        const col = edge
          ? (outline ?? rim.deep)
          : x === 1 || y === 1
            ? rim.light
            : x === s - 2 || y === s - 2
              ? rim.deep
              : stud
                ? rim.hi
                : rim.dark;
        c.paint(cx + x, cy + y, col);
      }
}

/**
 * A page's title band: across the top of the face, a strip a step darker than the face (as tall as a
 * line of the pixel font and a little air), a rule in the face's deep tone under it with a lit row
 * below the rule (a groove), and nothing under it: the game writes there. Returns the rule's row.
 */
export function drawTitleBand(c: PixelCanvas, box: Box, face: Ramp, titleBottom?: number): number {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const band = Math.max(
    3,
    Math.min(12, titleBottom !== undefined ? titleBottom - box.y0 : Math.round(h / 6)),
  );
  const margin = Math.max(1, Math.round(w / 20));
  const x0 = box.x0 + margin;
  const x1 = box.x1 - margin;
  if (titleBottom === undefined)
    for (let y = box.y0 + 1; y < box.y0 + band; y++)
      for (let x = x0 + 1; x < x1 - 1; x++) c.paint(x, y, face.dark);
  const ruleY = box.y0 + band + 1;
  for (let x = x0; x < x1; x++) {
    c.paint(x, ruleY, face.deep);
    if (ruleY + 1 < box.y1) c.paint(x, ruleY + 1, face.light);
  }
  // the rule's ends: a small diamond each side, as a page's title rule ends
  for (const ex of [x0 - 1, x1]) {
    c.paint(ex, ruleY, face.deep);
    c.paint(ex, ruleY - 1, face.dark);
    c.paint(ex, ruleY + 1, face.dark);
  }
  return ruleY;
}

/**
 * A page's emblem at the left of its title band (decision 0113), `size` pixels tall with its top at
 * (x, y): for quests a "!" marker — a gold bar and dot outlined in the face's deepest tone; for a
 * journal a quill — a feather slanting up to the right, its vane lit, its nib in ink.
 */
export function drawEmblem(
  c: PixelCanvas,
  x: number,
  y: number,
  size: number,
  kind: 'quest' | 'journal',
  face: Ramp,
): void {
  const s = Math.max(5, size);
  if (kind === 'quest') {
    const gold: Rgb = [240, 192, 64];
    const goldHi: Rgb = [255, 236, 150];
    const bw = s >= 8 ? 2 : 1;
    const bar = s - 3;
    // the outline first, one pixel round the bar and the dot
    for (let yy = y - 1; yy <= y + s; yy++)
      for (let xx = x - 1; xx <= x + bw; xx++) c.paint(xx, yy, face.deep);
    for (let yy = y; yy < y + bar; yy++)
      for (let xx = x; xx < x + bw; xx++) c.paint(xx, yy, yy === y ? goldHi : gold);
    // the gap between the bar and the dot is the outline's tone, the dot under it
    for (let yy = y + bar + 1; yy < y + s; yy++) for (let xx = x; xx < x + bw; xx++) c.paint(xx, yy, gold);
    return;
  }
  // a quill: its shaft from the nib (bottom left) up to the right, the vane either side of it
  const ink: Rgb = [40, 34, 44];
  for (let k = 0; k < s; k++) {
    const xx = x + Math.round(((k * (s - 1)) / (s - 1)) * 0.8);
    const yy = y + s - 1 - k;
    if (k < 2) {
      c.paint(xx, yy, ink);
      continue;
    }
    c.paint(xx, yy, face.deep);
    if (k < s - 1) {
      c.paint(xx - 1, yy, face.hi);
      c.paint(xx + 1, yy - 1, face.light);
      if (k > 2 && k < s - 2) c.paint(xx - 2, yy, face.light);
    }
  }
}

/**
 * Entry rows down a titled page (decision 0113): two or three marks down its left edge a line-height
 * apart — a tick box for a quest (the first ticked when an ink is given), a small diamond bullet for a
 * journal — with the rest of each row left clean for the game's text over a faint rule (decision 0146).
 */
export function drawEntries(
  c: PixelCanvas,
  box: Box,
  face: Ramp,
  kind: 'quest' | 'journal',
  ink?: Rgb,
): number {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const pitch = Math.max(7, Math.min(14, Math.round(h / 4)));
  const mark = Math.max(3, Math.min(6, pitch - 3));
  const margin = Math.max(2, Math.round(w / 14));
  let n = 0;
  for (let y = box.y0 + Math.round(pitch * 0.4); y + mark <= box.y1 - 2 && n < 3; y += pitch, n++) {
    const bx = box.x0 + margin;
    if (kind === 'quest') {
      for (let k = 0; k < mark; k++) {
        c.paint(bx + k, y, face.deep);
        c.paint(bx + k, y + mark - 1, face.deep);
        c.paint(bx, y + k, face.deep);
        c.paint(bx + mark - 1, y + k, face.deep);
      }
      // the box's inside a step lit, so it reads as a box and not a frame drawn on the page
      for (let yy = y + 1; yy < y + mark - 1; yy++)
        for (let xx = bx + 1; xx < bx + mark - 1; xx++) c.paint(xx, yy, face.light);
      // the first quest is done: a tick in the ink (decision 0136)
      if (ink && n === 0 && mark >= 4) {
        c.paint(bx + 1, y + mark - 3, ink);
        c.paint(bx + 2, y + mark - 2, ink);
        for (let k = 3; k <= mark; k++) c.paint(bx + k, y + mark - k, ink);
      }
    } else {
      const cy = y + Math.floor(mark / 2);
      const cx = bx + 1;
      c.paint(cx, cy, face.deep);
      c.paint(cx - 1, cy, face.dark);
      c.paint(cx + 1, cy, face.dark);
      c.paint(cx, cy - 1, face.dark);
      c.paint(cx, cy + 1, face.dark);
    }
    // the entry's text area beside its mark: a faint rule along its foot, the row above it left clean
    // for the game's own text (decision 0146: the blind review after 1130i found greeked glyphs baked
    // into the page, "a user has to paint it out before putting real text on")
    if (ink) {
      const tx = bx + mark + Math.max(2, Math.round(mark / 2));
      const end = box.x1 - margin - Math.round(hash(n, 11) * (w * 0.12));
      for (let x = tx; x < end; x++) c.paint(x, y + mark - 1, face.dark);
    }
  }
  return n;
}

/**
 * Writing: ruled lines a line-height apart across the face, each ended short of the right edge by a
 * varying amount, as lines of a page do; a checklist has a tick box before each line, the first
 * ticked. The box's top holds the page's title rule: a double line under the first line's height.
 */
export function drawRuled(c: PixelCanvas, box: Box, face: Ramp, checklist: boolean, ink: Rgb): void {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const pitch = Math.max(5, Math.min(10, Math.round(h / 7)));
  const margin = Math.max(2, Math.round(w / 14));
  // the title rule: two lines near the top
  const titleY = box.y0 + Math.max(2, Math.round(pitch * 0.9));
  for (let x = box.x0 + margin; x < box.x1 - margin; x++) {
    c.paint(x, titleY, face.deep);
    if (h > 30) c.paint(x, titleY + 2, face.dark);
  }
  const tick = checklist ? Math.max(3, Math.min(6, pitch - 2)) : 0;
  let line = 0;
  for (let y = titleY + pitch + 1; y < box.y1 - 2; y += pitch, line++) {
    const left = box.x0 + margin + (tick ? tick + 2 : 0);
    const short = Math.round(hash(line, 7) * w * 0.3);
    const right = box.x1 - margin - (line % 3 === 2 ? Math.max(short, Math.round(w * 0.25)) : short);
    for (let x = left; x < right; x++) c.paint(x, y, face.dark);
    if (tick) {
      const bx = box.x0 + margin;
      const by = y - tick + 1;
      for (let k = 0; k < tick; k++) {
        c.paint(bx + k, by, face.deep);
        c.paint(bx + k, by + tick - 1, face.deep);
        c.paint(bx, by + k, face.deep);
        c.paint(bx + tick - 1, by + k, face.deep);
      }
      // the first is done: a tick in the ink's colour
      if (line === 0 && tick >= 4) {
        c.paint(bx + 1, by + tick - 3, ink);
        c.paint(bx + 2, by + tick - 2, ink);
        for (let k = 3; k < tick + 1; k++) c.paint(bx + k, by + tick - k, ink);
      }
    }
  }
}

/** The sign a bar's socket shows (decision 0136): what the bar measures. */
export type BarSign = 'heart' | 'drop' | 'bolt' | 'star' | 'hourglass';

/** The sign of a bar's words: health a heart, mana a drop, stamina a bolt, experience a star. */
export function barSignOf(text: string): BarSign {
  if (/\b(mana|mp|magic)\b|蓝|法力|魔力/.test(text)) return 'drop';
  if (/\b(stamina|energy|power)\b|体力|能量|耐力/.test(text)) return 'bolt';
  if (/\b(xp|exp|experience|level)\b|经验/.test(text)) return 'star';
  if (/\b(progress|loading|load)\b|进度|加载/.test(text)) return 'hourglass';
  return 'heart';
}

/** Whether (u, v) in [-1, 1]² (v down) is inside the sign's shape. */
function inSign(sign: BarSign, u: number, v: number): boolean {
  const inPoly = (pts: ReadonlyArray<readonly [number, number]>) => {
    let inside = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i]!;
      const [xj, yj] = pts[j]!;
      if (yi > v !== yj > v && u < ((xj - xi) * (v - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
  switch (sign) {
    case 'heart': {
      // two lobes and a point: the classic implicit heart, lobes up
      const x = u * 1.2;
      const y = -(v * 1.25 - 0.25);
      return (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0;
    }
    case 'drop':
      // a round bottom and a point at the top
      return (
        Math.hypot(u, v - 0.32) <= 0.64 ||
        (v > -0.95 && v <= 0.32 && Math.abs(u) <= ((v + 0.95) / 1.27) * 0.6)
      );
    case 'bolt':
      return inPoly([
        [0.25, -1],
        [-0.72, 0.18],
        [-0.08, 0.18],
        [-0.38, 1],
        [0.72, -0.22],
        [0.08, -0.22],
        [0.5, -1],
      ]);
    case 'star': {
      const pts: Array<[number, number]> = [];
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const r = k % 2 ? 0.56 : 1.08;
        pts.push([r * Math.cos(a), 0.1 + r * Math.sin(a)]);
      }
      return inPoly(pts);
    }
    case 'hourglass':
      return Math.abs(v) <= 0.92 && Math.abs(u) <= 0.12 + 0.68 * Math.abs(v);
  }
}

/** The sign's own colours: a heart red, a drop blue, a bolt yellow, a star gold, an hourglass sand. */
const SIGN_COLOURS: Record<BarSign, [Rgb, Rgb, Rgb]> = {
  heart: [
    [255, 150, 150],
    [222, 44, 56],
    [120, 18, 40],
  ],
  drop: [
    [170, 220, 255],
    [56, 120, 236],
    [24, 44, 120],
  ],
  bolt: [
    [255, 246, 170],
    [250, 204, 40],
    [150, 90, 20],
  ],
  star: [
    [255, 240, 160],
    [240, 184, 48],
    [140, 84, 20],
  ],
  hourglass: [
    [250, 232, 180],
    [214, 176, 96],
    [110, 74, 40],
  ],
};

/**
 * A bar's socket at its left end (decision 0136: the blind review after 1130g found "bars have no caps
 * or icons"): a round plate of the rim's material, `size` pixels across with its top left at (x, y),
 * outlined, lit top left, and the bar's sign on it in its own colours, outlined in their darkest tone
 * with a glint. The bar's track starts under the socket's right half.
 */
export function drawBarSocket(
  c: PixelCanvas,
  x: number,
  y: number,
  size: number,
  sign: BarSign,
  rim: Ramp,
  outline: Rgb | null,
): void {
  const r = size / 2;
  const cx = x + r;
  const cy = y + r;
  const inDisc = (px: number, py: number, rr: number) => Math.hypot(px + 0.5 - cx, py + 0.5 - cy) <= rr;
  for (let py = y; py < y + size; py++)
    for (let px = x; px < x + size; px++) {
      if (!inDisc(px, py, r)) continue;
      const edge = !inDisc(px, py, r - 1);
      const lit = px + py < cx + cy - r * 0.5;
      c.paint(
        px,
        py,
        edge ? (outline ?? rim.deep) : !inDisc(px, py, r - 2) ? (lit ? rim.light : rim.dark) : rim.deep,
      );
    }
  // the sign inside the socket's well
  const s = Math.max(5, size - 4);
  const sx = Math.round(cx - s / 2);
  const sy = Math.round(cy - s / 2);
  const [hi, base, deep] = SIGN_COLOURS[sign];
  const at = (px: number, py: number) =>
    px >= 0 &&
    py >= 0 &&
    px < s &&
    py < s &&
    inSign(sign, ((px + 0.5) / s) * 2 - 1, ((py + 0.5) / s) * 2 - 1);
  let glint = false;
  for (let py = 0; py < s; py++)
    for (let px = 0; px < s; px++) {
      if (!at(px, py)) continue;
      const border = !at(px - 1, py) || !at(px + 1, py) || !at(px, py - 1) || !at(px, py + 1);
      let col = border ? deep : base;
      if (!border && !glint && at(px - 1, py - 1) && s >= 6 && !at(px - 1, py - 2)) {
        col = hi;
        glint = true;
      }
      c.paint(sx + px, sy + py, col);
    }
}

/**
 * A bar's right end cap: the rim's last `w` columns drawn as a bracket — a lit inner edge, a dark outer
 * one and a rivet in the middle — so the track ends in a fitting, not a cut.
 */
export function drawBarCap(c: PixelCanvas, x1: number, y0: number, y1: number, w: number, rim: Ramp): void {
  for (let k = 0; k < w; k++)
    for (let y = y0; y < y1; y++)
      c.paint(x1 - w + k, y, k === 0 ? rim.light : k === w - 1 ? rim.dark : rim.base);
  const my = Math.floor((y0 + y1) / 2);
  if (w >= 3 && y1 - y0 >= 5) {
    c.paint(x1 - w + 1, my - 1, rim.hi);
    c.paint(x1 - w + 1, my, rim.deep);
  }
}
