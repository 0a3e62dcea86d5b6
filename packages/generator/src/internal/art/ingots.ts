/**
 * Metal bars and ingots (issue #39, decision 0075): no drawing of the catalogue shows a stack of
 * ingots as one (game-icons' crystal bars read as crystals, the emoji's bar is chocolate, and a pile
 * of round-cornered blocks reads as honeycomb or bread). Drawn here as a pixel artist draws them:
 * trapezoid bricks seen from the front and a little above, each with a lighter top face, a bright edge
 * where the top meets the front, a shaded right end and a dark outline, stacked in a pyramid (3-2-1)
 * for a stack or plural, one large bar for one.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import type { Interpretation } from '@assetloom/pipeline/interpret';
import { mix, type Painter, type Rgb } from '@assetloom/pipeline/pixel';

/** Metal words and their base colour. */
const METALS: ReadonlyArray<[RegExp, Rgb]> = [
  [/^(gold|golden|金)$/, [228, 176, 52]],
  [/^(silver|platinum|mithril|银)$/, [188, 194, 204]],
  [/^(copper|铜)$/, [196, 112, 64]],
  [/^(bronze|brass)$/, [176, 128, 64]],
  [/^(iron|steel|metal|lead|tin|铁)$/, [140, 146, 156]],
];
const INGOT_WORDS = /^(ingot|ingots|bullion|锭)$/;
const BAR_WORDS = /^(bar|bars)$/;
const PILE_WORDS = /^(stack|stacks|stacked|pile|piles|piled|heap|heaps|heaped|pyramid|hoard)$/;
const ZH_INGOTS: ReadonlyArray<[string, string]> = [
  ['金条', 'gold'],
  ['金砖', 'gold'],
  ['金锭', 'gold'],
  ['银锭', 'silver'],
  ['银条', 'silver'],
  ['铁锭', 'iron'],
  ['铜锭', 'copper'],
];

export interface IngotRequest {
  /** The metal word drawn ("gold" when none is named), and the words the drawing honours. */
  metal: string;
  colour: Rgb;
  pile: boolean;
  words: string[];
}

/** Whether the prompt asks for metal bars or ingots, and which: null when it does not. */
export function ingotsOf(it: Interpretation, text: string): IngotRequest | null {
  const words = [it.subject, it.lemma, it.material, ...(it.modifiers ?? []), ...it.understood, ...it.ignored]
    .filter((w): w is string => !!w)
    .map((w) => w.toLowerCase());
  const zh = ZH_INGOTS.find(([w]) => text.includes(w));
  const subject = (it.subject ?? '').toLowerCase();
  const metalWord = zh?.[1] ?? words.find((w) => METALS.some(([re]) => re.test(w)));
  const ingot = INGOT_WORDS.test(subject) || (BAR_WORDS.test(subject) && metalWord !== undefined);
  if (!zh && !ingot) return null;
  const metal = metalWord ?? 'gold';
  const colour = METALS.find(([re]) => re.test(metal))![1];
  const pile = /s$/.test(subject) || words.some((w) => PILE_WORDS.test(w)) || /堆|叠|些/.test(text);
  const honoured = [
    ...(zh ? [zh[0]] : [it.subject!]),
    ...words.filter((w) => w === metalWord || PILE_WORDS.test(w)),
  ];
  return { metal, colour, pile, words: [...new Set(honoured)] };
}

interface Shades {
  outline: Rgb;
  shadow: Rgb;
  dark: Rgb;
  base: Rgb;
  light: Rgb;
  shine: Rgb;
}

/**
 * The frames of an ingot sprite: `directions × frames` pictures of `size` px. The stack is the same
 * from every side (said by the caller's views); an animation runs a glint along the top edges.
 */
export function drawIngots(
  req: IngotRequest,
  painter: Painter,
  size: number,
  directions: number,
  frames: number,
): RgbaImage[] {
  const ramp = painter.spriteRamp(req.colour);
  const shades: Shades = {
    outline: ramp.outline,
    shadow: ramp.shadow,
    dark: ramp.dark,
    base: ramp.base,
    light: ramp.light,
    shine: painter.chooseLab(mix(ramp.light, [255, 255, 245], 0.6)),
  };
  const out: RgbaImage[] = [];
  for (let d = 0; d < directions; d++)
    for (let f = 0; f < frames; f++) out.push(drawFrame(req, shades, size, frames > 1 ? f / frames : -1));
  return out;
}

function drawFrame(req: IngotRequest, s: Shades, size: number, glint: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  const u = size / 64;
  const put = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    data.set([c[0], c[1], c[2], 255], (y * size + x) * 4);
  };
  // one bar: its front face's bottom centre at (cx, by), its measures in 64ths of the frame
  const bar = (cx: number, by: number, bottom: number, top: number, front: number, depth: number) => {
    const fy0 = Math.round(by - front * u);
    const ty0 = Math.round(fy0 - depth * u);
    const backHalf = top * 0.86;
    // top face: from the back edge (narrower) to the front edge
    for (let y = ty0; y < fy0; y++) {
      const t = (y - ty0) / Math.max(1, fy0 - ty0);
      const half = (backHalf + (top - backHalf) * t) * u;
      const x0 = Math.round(cx - half);
      const x1 = Math.round(cx + half);
      for (let x = x0; x <= x1; x++)
        put(x, y, y === ty0 || x === x0 || x === x1 ? s.outline : x > cx + half * 0.55 ? s.base : s.light);
    }
    // front face: widening to the bottom, lit on the left, its right end in shade, its foot dark
    for (let y = fy0; y <= Math.round(by); y++) {
      const t = (y - fy0) / Math.max(1, Math.round(by) - fy0);
      const half = (top + (bottom - top) * t) * u;
      const x0 = Math.round(cx - half);
      const x1 = Math.round(cx + half);
      for (let x = x0; x <= x1; x++) {
        const edge = x === x0 || x === x1 || y === Math.round(by);
        const right = x > cx + half * 0.62;
        const c = edge
          ? s.outline
          : y === fy0
            ? s.shine
            : y >= Math.round(by) - Math.max(1, Math.round(u))
              ? s.shadow
              : right
                ? s.dark
                : x < x0 + 1 + Math.max(1, Math.round(u))
                  ? s.light
                  : s.base;
        put(x, y, c);
      }
    }
    // the glint of an animation: a short bright run travelling along the front edge
    if (glint >= 0) {
      const x0 = Math.round(cx - top * u);
      const x1 = Math.round(cx + top * u);
      const gx = Math.round(x0 + (x1 - x0 + 6 * u) * glint - 3 * u);
      for (let k = -1; k <= 1; k++) if (gx + k > x0 && gx + k < x1) put(gx + k, fy0 - 1, s.shine);
    }
  };
  const cx = size / 2;
  const base = size - Math.round(8 * u);
  if (!req.pile) {
    bar(cx, base - 6 * u, 26, 20, 14, 10);
  } else {
    // three, two and one: each bar of a row rests on the two below it, on their top faces
    const [bottom, top, front, depth, step] = [9, 7, 8, 5, 19];
    for (const [row, n] of [
      [0, 3],
      [1, 2],
      [2, 1],
    ] as const)
      for (let i = 0; i < n; i++) {
        const x = cx + (i - (n - 1) / 2) * step * u;
        const y = base - row * (front + depth * 0.6) * u;
        bar(Math.round(x), Math.round(y), bottom, top, front, depth);
      }
    // The V between two trapezoids of a row is the shade between the bars, not a hole through the
    // stack: see-through gaps made the stack look as if it floated (a blind review).
    for (let y = 0; y < size; y++) {
      let left = -1;
      let right = -1;
      for (let x = 0; x < size; x++) {
        if (data[(y * size + x) * 4 + 3] === 0) continue;
        if (left < 0) left = x;
        right = x;
      }
      for (let x = left + 1; x < right; x++) if (data[(y * size + x) * 4 + 3] === 0) put(x, y, s.shadow);
    }
  }
  return { width: size, height: size, data };
}
