/** A level's grids: terrain ids on points, and the small grid tools the growing and the checks share. */

/** Terrain ids on a `width × height` grid, row-major. */
export interface Grid {
  width: number;
  height: number;
  cells: Uint8Array;
}

export function makeGrid(width: number, height: number, fill = 0): Grid {
  return { width, height, cells: new Uint8Array(width * height).fill(fill) };
}

export const at = (g: Grid, x: number, y: number): number => g.cells[y * g.width + x]!;
const inside = (g: { width: number; height: number }, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < g.width && y < g.height;

/** Paints a disc of radius `r` (grid units). */
export function disc(
  g: Grid,
  cx: number,
  cy: number,
  r: number,
  v: number,
  only?: (old: number) => boolean,
): void {
  const r2 = r * r;
  for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++)
    for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++) {
      if (!inside(g, x, y) || (x - cx) ** 2 + (y - cy) ** 2 > r2) continue;
      if (only && !only(at(g, x, y))) continue;
      g.cells[y * g.width + x] = v;
    }
}

const DX4 = [1, -1, 0, 0];
const DY4 = [0, 0, 1, -1];

/**
 * Connected components of the cells `open` accepts (4-neighbours): a label per cell (-1 closed)
 * and each component's size.
 */
export function components(
  width: number,
  height: number,
  open: (i: number) => boolean,
): { label: Int32Array; sizes: number[] } {
  const label = new Int32Array(width * height).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  for (let s = 0; s < width * height; s++) {
    if (label[s] !== -1 || !open(s)) continue;
    const id = sizes.length;
    let n = 0;
    label[s] = id;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      n++;
      const x = i % width;
      const y = (i - x) / width;
      for (let k = 0; k < 4; k++) {
        const nx = x + DX4[k]!;
        const ny = y + DY4[k]!;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const j = ny * width + nx;
        if (label[j] === -1 && open(j)) {
          label[j] = id;
          stack.push(j);
        }
      }
    }
    sizes.push(n);
  }
  return { label, sizes };
}

/**
 * The cheapest 4-connected route from `from` to any cell `goal` accepts (Dijkstra over a cost per
 * cell; Infinity is a wall). Returns the cells from start to goal, or null when none is reachable.
 */
export function cheapestRoute(
  width: number,
  height: number,
  from: number,
  goal: (i: number) => boolean,
  cost: (i: number) => number,
): number[] | null {
  const dist = new Float64Array(width * height).fill(Infinity);
  const prev = new Int32Array(width * height).fill(-1);
  // a binary heap of [cost, cell]
  const heap: Array<[number, number]> = [];
  const push = (d: number, i: number) => {
    heap.push([d, i]);
    let c = heap.length - 1;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (heap[p]![0] <= heap[c]![0]) break;
      [heap[p], heap[c]] = [heap[c]!, heap[p]!];
      c = p;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        const r = l + 1;
        let m = c;
        if (l < heap.length && heap[l]![0] < heap[m]![0]) m = l;
        if (r < heap.length && heap[r]![0] < heap[m]![0]) m = r;
        if (m === c) break;
        [heap[m], heap[c]] = [heap[c]!, heap[m]!];
        c = m;
      }
    }
    return top;
  };
  dist[from] = 0;
  push(0, from);
  while (heap.length) {
    const [d, i] = pop();
    if (d > dist[i]!) continue;
    if (goal(i)) {
      const route: number[] = [];
      for (let c = i; c !== -1; c = prev[c]!) route.push(c);
      return route.reverse();
    }
    const x = i % width;
    const y = (i - x) / width;
    for (let k = 0; k < 4; k++) {
      const nx = x + DX4[k]!;
      const ny = y + DY4[k]!;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const j = ny * width + nx;
      const c = cost(j);
      if (!Number.isFinite(c)) continue;
      const nd = d + c;
      if (nd < dist[j]!) {
        dist[j] = nd;
        prev[j] = i;
        push(nd, j);
      }
    }
  }
  return null;
}

/** Breadth-first distance (4-neighbours) from the `sources` over the cells `open` accepts; -1 unreached. */
export function distances(
  width: number,
  height: number,
  sources: readonly number[],
  open: (i: number) => boolean,
): Int32Array {
  const d = new Int32Array(width * height).fill(-1);
  let queue = [...sources];
  for (const s of sources) d[s] = 0;
  while (queue.length) {
    const next: number[] = [];
    for (const i of queue) {
      const x = i % width;
      const y = (i - x) / width;
      for (let k = 0; k < 4; k++) {
        const nx = x + DX4[k]!;
        const ny = y + DY4[k]!;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const j = ny * width + nx;
        if (d[j] !== -1 || !open(j)) continue;
        d[j] = d[i]! + 1;
        next.push(j);
      }
    }
    queue = next;
  }
  return d;
}
