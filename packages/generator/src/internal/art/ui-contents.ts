import type { PixelCanvas, Rgb } from '@assetloom/pipeline/pixel';

/**
 * What a panel holds when its words name it (issue #39: "an inventory grid panel" and "a parchment
 * quest log" were empty boxes, their words reported as not honoured):
 * - `slots`: an inventory, a bag, a hotbar — a grid of recessed item slots filling the face;
 * - `titled`: a quest log, a journal, a letter, a scroll — the page a game sets its own text on: a
 *   title band across the top (a darker strip, a rule under it) and the rest of the face left empty
 *   (decision 0107: the blind review after 1130 found "the quest-log panel's ruled lines and tick are
 *   baked in" — a UI artist leaves the writing to the game);
 * - `ruled`: ruled writing lines only when the words ask for them ("ruled", "lined", "lines"), with a
 *   tick box before each line when they ask for a checklist ("checklist", "checkboxes", "ticks").
 * A paper face (parchment, scroll) gets its grain and darker, worn edges either way.
 */
export type PanelContents = { kind: 'slots' | 'ruled' | 'titled'; checklist: boolean; words: string[] };

const SLOT_WORDS =
  /^(inventory|inventories|grid|slots?|bags?|backpacks?|storage|stash|hotbar|equipment|items?)$/;
const SLOT_ZH = /背包|物品栏|格子|装备栏|物品/g;
const PAGE_WORDS = /^(quests?|logs?|journals?|diary|diaries|notes?|letters?|scrolls?|objectives?|missions?)$/;
const PAGE_ZH = /任务|日志|笔记|清单/g;
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
  if (ruled.length === 0 && ticks.length === 0) return { kind: 'titled', checklist: false, words: page };
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
 * An inventory: square slots, each sunk into the face (its shadow on the top and left, its light on
 * the bottom and right, the floor a step darker than the face), as many as fit with a gap between.
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
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < cols; k++) {
      const sx = x0 + k * (slot + gap);
      const sy = y0 + r * (slot + gap);
      for (let y = sy; y < sy + slot; y++)
        for (let x = sx; x < sx + slot; x++) {
          const top = y === sy || x === sx;
          const bottom = y === sy + slot - 1 || x === sx + slot - 1;
          c.paint(x, y, top ? face.deep : bottom ? face.light : face.dark);
        }
      // a glint in the slot's floor, top left, as on glassy item slots
      if (slot >= 10) c.paint(sx + 2, sy + 2, face.base);
    }
}

/**
 * A page's title band: across the top of the face, a strip a step darker than the face (as tall as a
 * line of the pixel font and a little air), a rule in the face's deep tone under it with a lit row
 * below the rule (a groove), and nothing under it: the game writes there.
 */
export function drawTitleBand(c: PixelCanvas, box: Box, face: Ramp, titleBottom?: number): void {
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
