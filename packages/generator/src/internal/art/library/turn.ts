import type { RgbaImage } from '@assetloom/pipeline';

/**
 * A front view of a living thing turned for a row it has no view for (issue #39, decision 0076): its
 * face — the dark marks inside its body (eyes, a nose, a mouth, with their glints: much darker than the
 * body, each under an eighth of it) — moved towards the
 * row's side by an eighth of its width (`side` −1 left, 1 right), or taken away for its back (0); the
 * body's own pixels stay. Null when no face is found (two or more marks, together under a sixth of the
 * inside): the row then repeats the view and says so. A mammal's or a bird's face (`featured`) may
 * also be small dark spots on a darker body (a bear) or a beak (a penguin), decision 0091.
 */
export function turnedView(img: RgbaImage, side: -1 | 0 | 1, featured = false): RgbaImage | null {
  const { width: w, height: h, data } = img;
  const op = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && data[(y * w + x) * 4 + 3]! > 0;
  const luma = (i: number) => 0.3 * data[i * 4]! + 0.59 * data[i * 4 + 1]! + 0.11 * data[i * 4 + 2]!;
  let [x0, y0, x1, y1] = [w, h, -1, -1];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (op(x, y)) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return null;
  // inside: two pixels from the outside every way (the outline and its inner edge are the body's)
  const inside = (x: number, y: number) => {
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) if (!op(x + dx, y + dy)) return false;
    return true;
  };
  let sum = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++)
      if (inside(x, y)) {
        sum += luma(y * w + x);
        n++;
      }
  if (n < 12) return null;
  const body = sum / n;
  // the face: dark marks on a light body; else (a bear's eyes on brown fur, a panda's patches: the body
  // too dark for marks a hundred below it) small dark spots, each much darker than the body and alone;
  // else a beak or a nose of its own warm colour in the upper middle (a penguin's eyes are lost on its
  // dark head) — these two for a mammal's or a bird's face (`featured`) only: a crab's shell flecks and
  // a butterfly's wing veins are no face (issue #39, decision 0091)
  const dark = darkMarks();
  const spotted = !dark && featured ? spots() : null;
  const mark = dark ?? spotted ?? (featured ? beak() : null);
  if (!mark) return null;
  // a bird's beak goes with the eyes the marks found (an owl's back kept its beak)
  if (featured && (mark === dark || mark === spotted)) {
    const bill = beak();
    if (bill) for (let p = 0; p < w * h; p++) if (bill[p]) mark[p] = 1;
  }
  function darkMarks(): Uint8Array | null {
    const mark = new Uint8Array(w * h);
    let marks = 0;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        if (inside(x, y) && luma(y * w + x) < body - 100) {
          mark[y * w + x] = 1;
          marks++;
        }
    marks += glints(mark);
    if (!marks || marks > n / 6) return null;
    const { groups, largest } = groupsOf(mark);
    // a face's marks are small (a stripe or a spot pattern is not a face)
    return groups < 2 || largest > n / 8 ? null : mark;
  }
  function spots(): Uint8Array | null {
    const dark = new Uint8Array(w * h);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        if (inside(x, y) && luma(y * w + x) < Math.min(body - 50, body * 0.6)) dark[y * w + x] = 1;
    // each spot small (an eye, a nose, a mouth: ≤ 1/30 of the inside) and on the body's own colour;
    // a larger dark region is colouring the face sits in (a raccoon's mask, a koala's big nose, a
    // penguin's head): moving the marks would tear it, so no face is found by spots
    const mark = new Uint8Array(w * h);
    for (const members of componentsOf(dark)) {
      if (members.length > n / 30) return null;
      for (const p of members) mark[p] = 1;
    }
    const marks = mark.reduce((a, b) => a + b, 0) + glints(mark);
    if (!marks || marks > n / 6) return null;
    const { groups } = groupsOf(mark);
    return groups < 2 ? null : mark;
  }
  function beak(): Uint8Array | null {
    const warm = new Uint8Array(w * h);
    const sat = (p: number) => {
      const [r, g, b] = [data[p * 4]!, data[p * 4 + 1]!, data[p * 4 + 2]!];
      return r - b > 100 && r >= g && g - b > 30;
    };
    let warmInside = 0;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        if (inside(x, y) && y < y0 + (y1 - y0 + 1) * 0.6 && sat(y * w + x)) {
          warm[y * w + x] = 1;
          warmInside++;
        }
    // one small warm patch in the upper 60 %, in the middle third across: its beak
    const parts = componentsOf(warm);
    if (parts.length !== 1 || warmInside > n / 12) return null;
    const xs = parts[0]!.map((p) => p % w);
    const ys = parts[0]!.map((p) => Math.floor(p / w));
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const bw = x1 - x0 + 1;
    if (Math.abs(mx - (x0 + x1) / 2) > bw / 6 || my < 0) return null;
    return warm;
  }
  // an eye's glint goes with the eye: a light pixel touching a mark is a mark (twice, for a 2-px glint)
  function glints(mark: Uint8Array): number {
    let added = 0;
    for (let pass = 0; pass < 2; pass++) {
      const add: number[] = [];
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const p = y * w + x;
          if (mark[p] || !inside(x, y) || luma(p) < body + 40) continue;
          let touching = false;
          for (let dy = -1; dy <= 1 && !touching; dy++)
            for (let dx = -1; dx <= 1; dx++) if (mark[(y + dy) * w + x + dx]) touching = true;
          if (touching) add.push(p);
        }
      for (const p of add) mark[p] = 1;
      added += add.length;
    }
    return added;
  }
  function componentsOf(set: Uint8Array): number[][] {
    const seen = new Uint8Array(w * h);
    const out: number[][] = [];
    for (let p = 0; p < w * h; p++) {
      if (!set[p] || seen[p]) continue;
      const members: number[] = [];
      const stack = [p];
      seen[p] = 1;
      while (stack.length) {
        const q = stack.pop()!;
        members.push(q);
        const qx = q % w;
        const qy = (q - qx) / w;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const r = (qy + dy) * w + qx + dx;
            if (qx + dx < 0 || qx + dx >= w || qy + dy < 0 || qy + dy >= h || !set[r] || seen[r]) continue;
            seen[r] = 1;
            stack.push(r);
          }
      }
      out.push(members);
    }
    return out;
  }
  // two or more separate marks (two eyes, an eye and a mouth)
  function groupsOf(set: Uint8Array): { groups: number; largest: number } {
    const parts = componentsOf(set);
    return { groups: parts.length, largest: Math.max(0, ...parts.map((m) => m.length)) };
  }
  // what a mark holds goes with it: a tongue in a mouth, an eye's white — a small patch of one colour
  // family (neighbours alike within 60 of 441) touching a mark; so a back shows no tongue and a side
  // row does not leave it behind as a bar (decision 0081). A large patch is the body's own colouring
  // (a fox's cream muzzle, a penguin's white front) and stays.
  const alike = (p: number, q: number) =>
    Math.hypot(
      data[p * 4]! - data[q * 4]!,
      data[p * 4 + 1]! - data[q * 4 + 1]!,
      data[p * 4 + 2]! - data[q * 4 + 2]!,
    ) < 60;
  const patchOf = new Int32Array(w * h).fill(-1);
  const held: number[] = [];
  let patches = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const start = y * w + x;
      if (mark[start] || patchOf[start]! >= 0 || !inside(x, y)) continue;
      const members = [start];
      patchOf[start] = patches;
      let touches = false;
      for (let i = 0; i < members.length; i++) {
        const p = members[i]!;
        const px = p % w;
        const py = (p - px) / w;
        for (const [dx, dy] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const qx = px + dx;
          const qy = py + dy;
          if (qx < 0 || qy < 0 || qx >= w || qy >= h) continue;
          const q = qy * w + qx;
          if (mark[q]) touches = true;
          if (mark[q] || patchOf[q]! >= 0 || !inside(qx, qy) || !alike(p, q)) continue;
          patchOf[q] = patches;
          members.push(q);
        }
      }
      patches++;
      if (touches && members.length <= n / 10) held.push(...members);
    }
  if (held.length <= n / 6) for (const p of held) mark[p] = 1;
  // spots sit on a muzzle (a bear's): the light region around them, shaded in several tones, goes
  // with them when it is under a fifth of the inside, so a side row does not tear it and the back
  // shows none of it
  if (spotted) {
    const muzzle: number[] = [];
    const inMuzzle = new Uint8Array(w * h);
    const light = (q: number) =>
      !mark[q] && !inMuzzle[q] && inside(q % w, Math.floor(q / w)) && luma(q) > body + 25;
    for (let p = 0; p < w * h; p++) {
      if (!mark[p]) continue;
      for (const q of [p - 1, p + 1, p - w, p + w])
        if (q >= 0 && q < w * h && light(q)) {
          inMuzzle[q] = 1;
          muzzle.push(q);
        }
    }
    for (let i = 0; i < muzzle.length && muzzle.length <= n / 5; i++) {
      const p = muzzle[i]!;
      for (const q of [p - 1, p + 1, p - w, p + w])
        if (q >= 0 && q < w * h && light(q)) {
          inMuzzle[q] = 1;
          muzzle.push(q);
        }
    }
    if (muzzle.length <= n / 5) for (const p of muzzle) mark[p] = 1;
  }
  // a mammal's or a bird's light front — a penguin's or an owl's belly, a cat's muzzle, a bib — is a
  // front's, not the body's: the back shows the back's colour there and a side row moves it that way
  // (issue #39, decision 0096: "the penguin's back view shows the white belly")
  const marked: Uint8Array = mark;
  const front = featured ? lightFront() : null;
  function lightFront(): Uint8Array | null {
    const light = new Uint8Array(w * h);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const p = y * w + x;
        if (op(x, y) && !marked[p] && luma(p) > body + 35) light[p] = 1;
      }
    // the largest light region, a real part of the body (an eighth to three quarters of the inside:
    // a penguin's white front is three fifths of it),
    // in the middle third across and centred below the top third: a front, not a highlight or a cheek
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    const parts = componentsOf(light).sort((a, b) => b.length - a.length);
    const patch = parts[0];
    if (!patch || patch.length < n / 8 || patch.length > n * 0.75) return null;
    const mx = patch.reduce((a, p) => a + (p % w), 0) / patch.length;
    const my = patch.reduce((a, p) => a + Math.floor(p / w), 0) / patch.length;
    if (Math.abs(mx - (x0 + x1) / 2) > bw / 6 || my < y0 + bh / 3) return null;
    const set = new Uint8Array(w * h);
    for (const p of patch) set[p] = 1;
    // what the front holds is the front's: eyes drawn on a penguin's white face are holes in it, and
    // the back kept them (decision 0103) — every pixel of the front's box that no path of pixels
    // outside the front joins to the box's edge
    let [px0, py0, px1, py1] = [w, h, -1, -1];
    for (const p of patch) {
      [px0, px1] = [Math.min(px0, p % w), Math.max(px1, p % w)];
      [py0, py1] = [Math.min(py0, Math.floor(p / w)), Math.max(py1, Math.floor(p / w))];
    }
    const outside = new Uint8Array(w * h);
    const stack: number[] = [];
    for (let y = py0; y <= py1; y++)
      for (let x = px0; x <= px1; x++)
        if ((x === px0 || x === px1 || y === py0 || y === py1) && !set[y * w + x]) {
          outside[y * w + x] = 1;
          stack.push(y * w + x);
        }
    while (stack.length) {
      const p = stack.pop()!;
      const [x, y] = [p % w, Math.floor(p / w)];
      for (const [qx, qy] of [
        [x + 1, y],
        [x - 1, y],
        [x, y + 1],
        [x, y - 1],
      ] as const) {
        if (qx < px0 || qx > px1 || qy < py0 || qy > py1) continue;
        const q = qy * w + qx;
        if (set[q] || outside[q]) continue;
        outside[q] = 1;
        stack.push(q);
      }
    }
    for (let y = py0; y <= py1; y++)
      for (let x = px0; x <= px1; x++) if (!outside[y * w + x]) set[y * w + x] = 1;
    return set;
  }
  const gone = (p: number) => mark[p] || front?.[p];
  // the back's own colour where a row has none of it inside: the rest's colour of middle lightness
  // (its commonest can be a shadow's)
  let back: Uint8Array | null = null;
  if (front) {
    const rest: number[] = [];
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) if (inside(x, y) && !gone(y * w + x)) rest.push(y * w + x);
    rest.sort((a, b) => luma(a) - luma(b));
    const mid = rest[Math.floor(rest.length / 2)];
    if (mid !== undefined) back = data.slice(mid * 4, mid * 4 + 4);
  }
  const out: RgbaImage = { width: w, height: h, data: new Uint8Array(data) };
  // each mark's (and the front's) place takes the colour of the nearest inside pixel of its row that
  // is the body's
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      if (!gone(y * w + x)) continue;
      // a front's place is the back's one colour: filled from each side of its row, it showed a seam
      // and streaks of the rows' shading down the back (decision 0103)
      if (back && front?.[y * w + x]) {
        out.data.set(back, (y * w + x) * 4);
        continue;
      }
      let filled = false;
      for (let d = 1; d < w && !filled; d++) {
        const hit = [x - d, x + d].find(
          (sx) => sx >= 0 && sx < w && op(sx, y) && !gone(y * w + sx) && inside(sx, y),
        );
        if (hit === undefined) continue;
        // (with a front gone, the back's colour where the row's nearest is a shadow or an outline: a
        // dark bar across a penguin's back where its eyes were)
        if (back && luma(y * w + hit) < 0.3 * back[0]! + 0.59 * back[1]! + 0.11 * back[2]! - 30) break;
        out.data.set(data.subarray((y * w + hit) * 4, (y * w + hit) * 4 + 4), (y * w + x) * 4);
        filled = true;
      }
      if (!filled && back) out.data.set(back, (y * w + x) * 4);
    }
  if (side === 0) return out;
  const k = side * Math.max(1, Math.round((x1 - x0 + 1) / 8));
  // the front first, then the face over it
  for (const set of front ? [front, mark] : [mark])
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        if (set[y * w + x] && inside(x + k, y))
          out.data.set(data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), (y * w + x + k) * 4);
  return out;
}
