import type { RgbaImage } from '@assetloom/pipeline';

/**
 * Icons a pixel artist draws exactly symmetric (issue #39, decision 0122): a heart is its own mirror
 * image about its middle column, a gear is the same under every quarter turn and mirror. The SVG drawn
 * on the grid, halved from twice its size (the commonest colour of each 2 × 2 cell breaks ties to the
 * left) and shaded from the upper left is not quite: at 32 px a gear's teeth came out 1–2 px uneven
 * and a heart's left lobe a pixel higher. Its silhouette is made symmetric here, its shading kept.
 */
export type Symmetry = 'mirror' | 'square';

const SYMMETRIC: Readonly<Record<string, Symmetry>> = {
  'x/heart': 'mirror',
  // the emoji hearts a seed may pick instead (a UI icon's seed walks the drawings of its subject)
  'f/red-heart': 'mirror',
  'n/red-heart': 'mirror',
  'x/gear': 'square',
};

/** The symmetry a drawing's silhouette keeps on the grid, if it has one. */
export function symmetryOf(id: string): Symmetry | undefined {
  return SYMMETRIC[id];
}

/**
 * The frame with its silhouette symmetric about its drawn box's middle: a pixel is drawn where at
 * least half of its images under the symmetry are (so the outline is the same pixel pattern on every
 * side); a pixel keeps its own colour when its images agree on whether it is an edge, else takes the
 * colour of an image that is the same kind of pixel (an outline pixel's, an inside pixel's).
 */
export function symmetrise(frame: RgbaImage, symmetry: Symmetry): RgbaImage {
  const { width: w, height: h, data } = frame;
  const on = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && data[(y * w + x) * 4 + 3]! > 0;
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (on(x, y)) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return frame;
  // about the box's middle (twice its coordinates, so a middle on a pixel's edge stays exact); a
  // square symmetry on a box a pixel wider than tall turns about the middle of the square round it
  let sx = x0 + x1;
  let sy = y0 + y1;
  // (an odd difference of width and height cannot be centred on the grid: the narrower side is
  // taken a pixel longer, so both middles lie on a pixel's centre or both on its edge)
  if (symmetry === 'square' && (x1 - x0 - (y1 - y0)) % 2 !== 0) {
    if (y1 - y0 < x1 - x0) sy++;
    else sx++;
  }
  const images = (x: number, y: number): Array<[number, number]> => {
    const mx = sx - x;
    if (symmetry === 'mirror')
      return [
        [x, y],
        [mx, y],
      ];
    // the eight turns and mirrors of the square about (sx / 2, sy / 2)
    const dx = 2 * x - sx;
    const dy = 2 * y - sy;
    const out: Array<[number, number]> = [];
    for (const [u, v] of [
      [dx, dy],
      [-dx, dy],
      [dx, -dy],
      [-dx, -dy],
      [dy, dx],
      [-dy, dx],
      [dy, -dx],
      [-dy, -dx],
    ] as const)
      out.push([(u + sx) / 2, (v + sy) / 2]);
    return out;
  };
  const pad = symmetry === 'square' ? 2 : 0;
  const X0 = Math.max(0, x0 - pad);
  const X1 = Math.min(w - 1, x1 + pad);
  const Y0 = Math.max(0, y0 - pad);
  const Y1 = Math.min(h - 1, y1 + pad);
  const edgeIn = (has: (x: number, y: number) => boolean, x: number, y: number) =>
    !has(x - 1, y) || !has(x + 1, y) || !has(x, y - 1) || !has(x, y + 1);
  const keyAt = (x: number, y: number) => {
    const i = (y * w + x) * 4;
    return (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
  };
  // the commonest colour of the old edge: the outline
  const edgeCount = new Map<number, number>();
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++)
      if (on(x, y) && edgeIn(on, x, y)) edgeCount.set(keyAt(x, y), (edgeCount.get(keyAt(x, y)) ?? 0) + 1);
  let outline = 0;
  let best = -1;
  for (const [k, n] of edgeCount)
    if (n > best) {
      best = n;
      outline = k;
    }
  // the vote is on the shape inside the outline, and the outline is drawn again round the result:
  // voting on the outlined silhouette left 1-px horns and notches on a gear's teeth (a line pixel
  // kept where half its images were line, the fill under it not) — the blind review's "stray spikes"
  const filled = (x: number, y: number) => on(x, y) && keyAt(x, y) !== outline;
  const want = new Uint8Array(w * h);
  for (let y = Y0; y <= Y1; y++)
    for (let x = X0; x <= X1; x++) {
      const imgs = images(x, y);
      let n = 0;
      for (const [u, v] of imgs) if (Number.isInteger(u) && Number.isInteger(v) && filled(u, v)) n++;
      want[y * w + x] = n * 2 >= imgs.length ? 1 : 0;
    }
  const wants = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && want[y * w + x] === 1;
  // a pixel standing alone on a flat edge of four or more (a tooth's top, a lobe's crown) is the
  // halving's tooth, not a drawn point: gone, on every side alike (so the symmetry holds)
  const nubs: number[] = [];
  for (let y = Y0; y <= Y1; y++)
    for (let x = X0; x <= X1; x++) {
      if (!wants(x, y)) continue;
      for (const [ax, ay] of [
        [0, 1],
        [0, -1],
        [1, 0],
        [-1, 0],
      ] as const) {
        // (ax, ay): towards the edge it stands on; (bx, by): along that edge
        const bx = ay;
        const by = ax;
        const along = (k: number) => wants(x + ax + k * bx, y + ay + k * by);
        if (wants(x - ax, y - ay) || wants(x + bx, y + by) || wants(x - bx, y - by)) continue;
        if (along(-1) && along(0) && along(1) && (along(-2) || along(2))) {
          nubs.push(y * w + x);
          break;
        }
      }
    }
  for (const p of nubs) want[p] = 0;
  const out = new Uint8Array(data.length);
  for (let y = Y0; y <= Y1; y++)
    for (let x = X0; x <= X1; x++) {
      const o = (y * w + x) * 4;
      if (!want[y * w + x]) {
        // the outline again, all round what was kept (inside the hub's hole too)
        if (wants(x - 1, y) || wants(x + 1, y) || wants(x, y - 1) || wants(x, y + 1))
          out.set([(outline >> 16) & 255, (outline >> 8) & 255, outline & 255, 255], o);
        continue;
      }
      const edge = edgeIn(wants, x, y);
      let from: [number, number] | null = null;
      let any: [number, number] | null = null;
      for (const [u, v] of images(x, y)) {
        if (!Number.isInteger(u) || !Number.isInteger(v) || !filled(u, v)) continue;
        any ??= [u, v];
        if (edgeIn(filled, u, v) === edge) {
          from = [u, v];
          break;
        }
      }
      const src = from ?? any ?? [x, y];
      out.set(data.subarray((src[1] * w + src[0]) * 4, (src[1] * w + src[0]) * 4 + 4), o);
    }
  return { width: w, height: h, data: out };
}
