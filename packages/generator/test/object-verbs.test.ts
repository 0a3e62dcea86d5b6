import type { RgbaImage } from '@assetloom/pipeline';
import { inspectQuality, oklab } from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { renderProcedural } from '../src/index.js';
import { opaqueBox, spriteRequest } from './support.js';

// Things that do the verb the prompt names (issue #39): a lid or a door opens onto a dark inside,
// glints come and go while the body stays, a flag's cloth ripples on a still pole, bubbles rise, a
// halo pulses, and a still prop asked to move settles by a pixel — never a sheet of jittered copies;
// a still prop's sprite (nothing asked to move) holds its one picture.
// Prompts of this file's own (never the held-out lists of docs/art-review/).

const sheet = (prompt: string, frames = 8, resolution = 32) =>
  renderProcedural(spriteRequest(prompt, { assetType: 'animation', resolution, framesPerDirection: frames }));

const px = (f: RgbaImage, x: number, y: number) =>
  f.data.subarray((y * f.width + x) * 4, (y * f.width + x) * 4 + 4);
const same = (a: RgbaImage, b: RgbaImage, x: number, y: number) => {
  const p = px(a, x, y);
  const q = px(b, x, y);
  return p[3] === 0 && q[3] === 0 ? true : p.every((v, k) => v === q[k]);
};
/** Pixels that differ between two frames. */
function diff(a: RgbaImage, b: RgbaImage): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) if (!same(a, b, x, y)) out.push([x, y]);
  return out;
}
const light = (p: Uint8Array) => 0.3 * p[0]! + 0.59 * p[1]! + 0.11 * p[2]!;
/** Mean lightness of the opaque pixels of a box. */
function meanLight(f: RgbaImage, x0: number, y0: number, x1: number, y1: number): number {
  let s = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const p = px(f, x, y);
      if (!p[3]) continue;
      s += light(p);
      n++;
    }
  return n ? s / n : 0;
}
const opaque = (f: RgbaImage) => {
  let n = 0;
  for (let i = 3; i < f.data.length; i += 4) if (f.data[i]) n++;
  return n;
};

describe('things do their verb', () => {
  it('a chest opening: only the lid moves, and open it stands set back from the box (decision 0132)', async () => {
    // the open lid's inside was as wide as the box and continued its sides straight up: the box
    // seemed to grow between the shut frame and the open ones (the blind review after 1130g)
    for (const resolution of [32, 64]) {
      const chest = await sheet('a loot coffer opening', 4, resolution);
      expect(chest.animation).toBe('open');
      const [first, last] = [chest.frames[0]!, chest.frames.at(-1)!];
      // the rim: the row under the lowest row the opening changes
      let rim = 0;
      for (const f of chest.frames) for (const [, y] of diff(first, f)) rim = Math.max(rim, y + 1);
      const widest = (f: RgbaImage, y0: number, y1: number) => {
        let w = 0;
        for (let y = y0; y < y1; y++) {
          let n = 0;
          for (let x = 0; x < f.width; x++) if (px(f, x, y)[3]) n++;
          w = Math.max(w, n);
        }
        return w;
      };
      const box = widest(first, rim, first.height);
      expect(rim, `${resolution}: the box below the rim is the same pixels in every frame`).toBeLessThan(
        opaqueBox(first).y0 + (opaqueBox(first).y1 - opaqueBox(first).y0) * 0.5,
      );
      // (before: 26 of 26 at 32 px, 50 of 52 at 64 — the heap within the box's outline, the lid as wide)
      expect(widest(last, 0, rim), `${resolution}: open lid and heap, box ${box}`).toBeLessThanOrEqual(
        box * 0.93,
      );
    }
  });

  it('a door swings open onto a dark doorway; a chest drawn open starts closed and its lid lifts; the verb is understood', async () => {
    const door = await sheet('a door opening');
    expect(door.animation).toBe('open');
    expect(door.interpretation?.understood).toContain('opening');
    expect(door.interpretation?.ignored).not.toContain('opening');
    const first = door.frames[0]!;
    const last = door.frames.at(-1)!;
    const b = opaqueBox(first);
    // the doorway's right half: the door's face at first, the dark inside at the end
    const mx = Math.round((b.x0 + b.x1) / 2) + 1;
    expect(meanLight(last, mx, b.y0 + 2, b.x1 - 2, b.y1 - 2)).toBeLessThan(
      meanLight(first, mx, b.y0 + 2, b.x1 - 2, b.y1 - 2) - 40,
    );
    // the door turns through its widths: more than two distinct pictures, the last two held
    expect(new Set(door.frames.map((f) => Buffer.from(f.data).toString('hex'))).size).toBeGreaterThanOrEqual(
      5,
    );
    expect(diff(door.frames.at(-2)!, last)).toEqual([]);

    const chest = await sheet('a treasure chest opening');
    expect(chest.animation).toBe('open');
    const tops = chest.frames.map((f) => opaqueBox(f).y0);
    // closed: its top is low; open, the lid stands above it (and never sinks below the shut top)
    expect(tops[0]! - tops.at(-1)!).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < tops.length; i++) expect(tops[i]!).toBeLessThanOrEqual(tops[0]!);
    // the bottom (the chest's foot and what lies round it) stays
    const cb = opaqueBox(chest.frames.at(-1)!);
    for (const f of chest.frames)
      for (let x = 0; x < f.width; x++) expect(same(f, chest.frames[0]!, x, cb.y1)).toBe(true);
  });

  it('a chest opening over four frames at 64 px is one chest: its lid rises every frame, its body stays, its iron bands run over the shut lid (decision 0086)', async () => {
    const chest = await sheet('a treasure chest opening', 4, 64);
    const fs = chest.frames;
    expect(fs).toHaveLength(4);
    // never two frames alike: the lid held open for the last two frames read as a third chest
    expect(new Set(fs.map((f) => Buffer.from(f.data).toString('hex'))).size).toBe(4);
    // the lid turns up about its hinge on the box's back edge: every frame's top stands above the shut
    // one's, and the open lid 4 px or more above it (decision 0121: a rigid lid's front corner sweeps
    // highest at mid-swing, then the lid tips back behind the box — its top falls a little at the end;
    // decisions 0086 and 0110 asked for a top that never falls, which a turning solid lid cannot keep)
    const tops = fs.map((f) => opaqueBox(f).y0);
    for (let i = 1; i < tops.length; i++) expect(tops[i]!, `frame ${i}`).toBeLessThan(tops[0]!);
    expect(tops[0]! - tops[3]!).toBeGreaterThanOrEqual(4);
    // the body's lower half is the same pixels in every frame (IoU of the opaque pixels ≥ 0.9)
    const b0 = opaqueBox(fs[0]!);
    const below = Math.round((b0.y0 + b0.y1) / 2) + 2;
    for (const f of fs.slice(1)) {
      let both = 0;
      let either = 0;
      for (let y = below; y <= b0.y1; y++)
        for (let x = 0; x < f.width; x++) {
          const a = px(f, x, y)[3]! > 0;
          const b = px(fs[0]!, x, y)[3]! > 0;
          if (a && b) both++;
          if (a || b) either++;
        }
      expect(both / either).toBeGreaterThanOrEqual(0.9);
    }
    // nothing reaches the cell's edge
    for (const f of fs) {
      const b = opaqueBox(f);
      expect(Math.min(b.x0, b.y0, f.width - 1 - b.x1, f.height - 1 - b.y1)).toBeGreaterThanOrEqual(2);
    }
    // the shut lid is not a flat slab: grey iron runs across it in two or more columns
    const f = fs[0]!;
    const greyCols = new Set<number>();
    for (let y = b0.y0 + 1; y < b0.y0 + Math.round((b0.y1 - b0.y0) * 0.35); y++)
      for (let x = b0.x0 + 1; x < b0.x1; x++) {
        const p = px(f, x, y);
        if (p[3] && Math.max(p[0]!, p[1]!, p[2]!) - Math.min(p[0]!, p[1]!, p[2]!) < 30 && light(p) > 60)
          greyCols.add(x);
      }
    expect(greyCols.size).toBeGreaterThanOrEqual(2);
  });

  it.each([
    'a gem sparkling',
    // the rig's objects too (the diamond is drawn by the rig, not from a drawing)
    'a diamond glinting',
  ])('%s: glints brighter than the body appear and go again while the body stays', async (prompt) => {
    const out = await sheet(prompt);
    expect(out.animation).toBe('sparkle');
    expect(out.interpretation?.ignored).toEqual([]);
    const [f0] = out.frames;
    const box = opaqueBox(f0!);
    const changed = out.frames.map((f) => diff(f0!, f));
    // the body: pixels that are the same in every frame; its lightest
    const moving = new Set(changed.flat().map(([x, y]) => y * f0!.width + x));
    let body = 0;
    for (let i = 0; i < f0!.width * f0!.height; i++)
      if (f0!.data[i * 4 + 3] && !moving.has(i))
        body = Math.max(body, light(f0!.data.subarray(i * 4, i * 4 + 3)));
    // a changed pixel is a glint in one of the two frames (lighter than all of the body), and a frame
    // is never more than a few glints off frame 0 (a star is 7 px across at 32 px, decision 0076)
    for (const [i, d] of changed.entries()) {
      expect(d.length).toBeLessThan(0.15 * opaque(f0!));
      for (const [x, y] of d)
        expect(
          Math.max(light(px(out.frames[i]!, x, y)), light(px(f0!, x, y))),
          `frame ${i} (${x},${y})`,
        ).toBeGreaterThan(body);
    }
    // a glint seen in some frame is gone in a later one
    const k = changed.findIndex((d) => d.length > 0);
    expect(k).toBeGreaterThanOrEqual(0);
    const [gx, gy] = changed[k]![0]!;
    expect(out.frames.slice(k + 1).some((f) => same(f, f0!, gx, gy))).toBe(true);
    // glints stay on the gem (within two pixels of its box)
    for (const d of changed)
      for (const [x, y] of d)
        expect(x >= box.x0 - 2 && x <= box.x1 + 2 && y >= box.y0 - 2 && y <= box.y1 + 2).toBe(true);
  });

  it('a coin turned towards edge-on shows its side: a dark rim on the side it turns from', async () => {
    const out = await sheet('a coin spinning');
    expect(out.animation).toBe('spin');
    /** Mean lightness of the second and third opaque columns from one side of a frame. */
    const band = (f: RgbaImage, side: -1 | 1) => {
      const b = opaqueBox(f);
      const x0 = side < 0 ? b.x0 + 1 : b.x1 - 2;
      return meanLight(f, x0, b.y0 + 2, x0 + 1, b.y1 - 2);
    };
    // narrowing (frame 3 of 8) the rim is on the left; widening again (frame 5) on the right
    expect(band(out.frames[3]!, -1)).toBeLessThan(band(out.frames[3]!, 1) - 15);
    expect(band(out.frames[5]!, 1)).toBeLessThan(band(out.frames[5]!, -1) - 15);
  });

  it('a still prop asked to move settles by whole rows with held frames, never scattered pixels', async () => {
    for (const prompt of ['a barrel', 'a wooden crate']) {
      const out = await sheet(prompt);
      expect(out.animation).toBe('idle');
      const [f0] = out.frames;
      const b = opaqueBox(f0!);
      let moved = 0;
      for (const f of out.frames) {
        if (diff(f0!, f).length === 0) continue;
        moved++;
        // the rows from its foot up to some row are frame 0's; the rows above are frame 0's a pixel lower
        let y = b.y1;
        while (y >= 0 && Array.from({ length: f.width }, (_, x) => same(f, f0!, x, y)).every(Boolean)) y--;
        for (let r = y; r >= 1; r--)
          for (let x = 0; x < f.width; x++) {
            const p = px(f, x, r);
            const q = px(f0!, x, r - 1);
            expect(
              p[3] === 0 && q[3] === 0 ? true : p.every((v, c) => v === q[c]),
              `${prompt} (${x},${r})`,
            ).toBe(true);
          }
      }
      // it rests most of the cycle and moves in some of it
      expect(moved).toBeGreaterThanOrEqual(1);
      expect(moved).toBeLessThanOrEqual(3);
    }
  });

  it('a ball bouncing squashes on the ground, stretches in the air, and its shadow shrinks as it rises (decision 0105)', async () => {
    const ball = await sheet('a ball bouncing', 8, 64);
    expect(ball.animation).toBe('bounce');
    expect(ball.interpretation?.ignored).not.toContain('bouncing');
    const fs = ball.frames;
    // the ball (the group above the shadow's row) and the shadow (the bottom row's run)
    const ground = Math.max(...fs.map((f) => opaqueBox(f).y1));
    const shape = (f: RgbaImage) => {
      let [x0, y0, x1, y1] = [f.width, f.height, -1, -1];
      for (let y = 0; y < ground - 2; y++)
        for (let x = 0; x < f.width; x++)
          if (px(f, x, y)[3])
            [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      let shadow = 0;
      for (let x = 0; x < f.width; x++) if (px(f, x, ground)[3]) shadow++;
      return { w: x1 - x0 + 1, h: y1 - y0 + 1, bottom: y1, shadow };
    };
    const s = fs.map(shape);
    // on the ground: wider than tall (squashed), its shadow widest; at the top of its arc: risen, the
    // shadow smaller; on the way: taller than wide (stretched)
    expect(s[0]!.w).toBeGreaterThan(s[0]!.h);
    expect(s[4]!.bottom).toBeLessThan(s[0]!.bottom - 10);
    expect(s[4]!.shadow).toBeLessThan(s[0]!.shadow);
    expect(s[1]!.h).toBeGreaterThan(s[1]!.w);
    // a chair does not bounce: the word is said, not drawn
    const chair = await sheet('a chair bouncing', 2);
    expect(chair.animation).not.toBe('bounce');
    expect(chair.interpretation?.ignored).toContain('bouncing');
  });

  it("a flag's cloth ripples while its pole stays; bubbles rise inside a potion; a glow's halo brightens and dims", async () => {
    const flag = await sheet('a flag waving', 8, 48);
    expect(flag.animation).toBe('wave');
    const fb = opaqueBox(flag.frames[0]!);
    // the pole's foot (the lowest rows) never moves; the cloth changes shape in every frame
    for (const f of flag.frames)
      for (let x = 0; x < f.width; x++)
        for (let y = fb.y1 - 3; y <= fb.y1; y++) expect(same(f, flag.frames[0]!, x, y)).toBe(true);
    // "fluttering" is a verb here too, not part of a compound "flag fluttering" (refused before)
    expect((await sheet('a red flag fluttering', 2)).animation).toBe('wave');
    expect(new Set(flag.frames.map((f) => Buffer.from(f.data).toString('hex'))).size).toBeGreaterThanOrEqual(
      6,
    );

    const potion = await sheet('a potion bubbling');
    expect(potion.animation).toBe('bubble');
    const p0 = potion.frames[0]!;
    // the silhouette is the same in every frame: the bubbles are inside it
    for (const f of potion.frames)
      for (let i = 3; i < f.data.length; i += 4) expect(f.data[i]).toBe(p0.data[i]);
    // a bubble climbs: the highest changed pixel of frame 1 is higher than frame 0's lowest bubble row
    const rows = (a: RgbaImage, b: RgbaImage) => diff(a, b).map(([, y]) => y);
    const up = potion.frames.slice(1).some((f, i) => {
      const d = rows(potion.frames[i]!, f);
      return d.length > 0 && Math.min(...d) < Math.max(...d);
    });
    expect(up).toBe(true);

    // out of an open vessel they rise into the air above its rim, each frame at other heights
    const pot = await sheet('a cauldron bubbling');
    expect(pot.animation).toBe('bubble');
    expect(new Set(pot.frames.map((f) => opaqueBox(f).y0)).size).toBeGreaterThanOrEqual(3);

    const orb = await sheet('a crystal glowing');
    expect(orb.animation).toBe('glow');
    const sizes = orb.frames.map(opaque);
    // a halo round the body at its height, none at its low
    expect(Math.max(...sizes)).toBeGreaterThan(sizes[0]! + 10);
    expect(sizes[0]).toBe(Math.min(...sizes));
  });

  it('a chest closing is its opening played backwards: its lid comes down on the same box (decision 0081)', async () => {
    const open = await sheet('a treasure chest opening');
    const shut = await sheet('a treasure chest closing');
    expect(shut.animation).toBe('close');
    expect(shut.interpretation?.understood).toContain('closing');
    expect(shut.interpretation?.ignored).not.toContain('closing');
    const n = open.frames.length;
    for (const [i, f] of shut.frames.entries()) expect(diff(f, open.frames[n - 1 - i]!)).toEqual([]);
  });

  it('a heart beating or pulsing swells by a sixth of its size and eases back, stretching up and squashing wide, on model, with no halo (decisions 0088, 0141)', async () => {
    for (const prompt of ['a heart beating', 'a heart pulsing', 'a star throbbing']) {
      const out = await sheet(prompt, 8, 64);
      expect(out.animation, prompt).toBe('pulse');
      expect(out.interpretation?.ignored, prompt).not.toContain('beating');
      const boxes = out.frames.map(opaqueBox);
      const area = (b: ReturnType<typeof opaqueBox>) => (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1);
      const areas = boxes.map(area);
      // a beat you can see: its box's area at its height a fifth or more above its rest (a 1-px
      // swell was 5 → 4 px of margin, the reviewer's "barely moves")
      expect(Math.max(...areas), prompt).toBeGreaterThanOrEqual(areas[0]! * 1.2);
      // eased: it grows to the middle of the cycle and shrinks back (no jump from rest to full)
      const peak = areas.indexOf(Math.max(...areas));
      expect(peak, prompt).toBeGreaterThan(1);
      expect(peak, prompt).toBeLessThan(7);
      expect(areas[1], prompt).toBeGreaterThan(areas[0]!);
      expect(areas[1], prompt).toBeLessThan(areas[peak]!);
      // squash and stretch between (decision 0141): rising it is taller for its width than falling back
      // at the same swell (frames 2 and 6 of 8 were one picture: a scale, not a beat)
      const aspect = (b: ReturnType<typeof opaqueBox>) => (b.y1 - b.y0 + 1) / (b.x1 - b.x0 + 1);
      expect(aspect(boxes[2]!), prompt).toBeGreaterThan(aspect(boxes[6]!) * 1.06);
      // on model: it swells about its middle (no drift), and never touches the frame's edge
      for (const b of boxes) {
        expect(Math.abs(b.x0 + b.x1 - boxes[0]!.x0 - boxes[0]!.x1), prompt).toBeLessThanOrEqual(2);
        expect(Math.abs(b.y0 + b.y1 - boxes[0]!.y0 - boxes[0]!.y1), prompt).toBeLessThanOrEqual(2);
        expect(Math.min(b.x0, b.y0), prompt).toBeGreaterThan(0);
        expect(Math.max(b.x1, b.y1), prompt).toBeLessThan(63);
      }
    }
    // a drum beating is no heart: `beating` pulses hearts only
    const drum = await sheet('a drum beating', 4);
    expect(drum.animation).not.toBe('pulse');
  });
});

// Decision 0093: a flag reads as dyed cloth on a steel pole, not one brown rag on a stick; a banner
// waves its hanging cloth from a crossbar that stays.
describe('cloth on a pole', () => {
  const chroma = (p: Uint8Array) => {
    const [, a, b] = oklab([p[0]!, p[1]!, p[2]!]);
    return { c: Math.hypot(a, b), h: (Math.atan2(b, a) * 180) / Math.PI };
  };
  it("a flag's cloth is dyed (red or blue), its pole a grey steel of another hue family", async () => {
    for (const seed of [1, 2]) {
      const flag = await renderProcedural(
        spriteRequest('a flag waving', {
          assetType: 'animation',
          resolution: 64,
          framesPerDirection: 2,
          seed,
        }),
      );
      const f = flag.frames[0]!;
      const b = opaqueBox(f);
      // the pole's foot: the lowest rows; the cloth: the top third's inside pixels
      const pole: Array<{ c: number; h: number }> = [];
      for (let y = b.y1 - 4; y <= b.y1; y++)
        for (let x = b.x0; x <= b.x1; x++) if (px(f, x, y)[3]) pole.push(chroma(px(f, x, y)));
      const cloth: Array<{ c: number; h: number }> = [];
      for (let y = b.y0 + 2; y < b.y0 + (b.y1 - b.y0) / 3; y++)
        for (let x = b.x0; x <= b.x1; x++) if (px(f, x, y)[3]) cloth.push(chroma(px(f, x, y)));
      const mean = (xs: Array<{ c: number }>) => xs.reduce((s, v) => s + v.c, 0) / xs.length;
      expect(mean(cloth)).toBeGreaterThan(0.1);
      expect(mean(pole)).toBeLessThan(mean(cloth) * 0.5);
      // not brown: a red's or a blue's hue (a brown's is 40–90°)
      const hues = cloth.filter((p) => p.c > 0.08).map((p) => p.h);
      const brown = hues.filter((h) => h > 40 && h < 95).length;
      expect(brown / hues.length).toBeLessThan(0.2);
    }
  });

  it('a banner waves its cloth from a crossbar that stays; the cloth moves by ≥ 2 px', async () => {
    const banner = await renderProcedural(
      spriteRequest("a knight's banner waving", {
        assetType: 'animation',
        resolution: 64,
        framesPerDirection: 4,
      }),
    );
    expect(banner.animation).toBe('wave');
    const f0 = banner.frames[0]!;
    const b = opaqueBox(f0);
    // the bar: its top two rows, the same in every frame
    for (const f of banner.frames)
      for (let y = b.y0; y <= b.y0 + 1; y++)
        for (let x = 0; x < f.width; x++) expect(same(f, f0, x, y)).toBe(true);
    // the cloth's lower part moves sideways: its leftmost pixel in a row shifts ≥ 2 px in some frame
    const left = (f: RgbaImage, y: number) => {
      for (let x = 0; x < f.width; x++) if (px(f, x, y)[3]) return x;
      return -1;
    };
    const y = Math.round(b.y0 + (b.y1 - b.y0) * 0.7);
    const shifts = banner.frames.map((f) => Math.abs(left(f, y) - left(f0, y)));
    expect(Math.max(...shifts)).toBeGreaterThanOrEqual(2);
  });

  it("a still thing's sprite holds its one picture in every frame, never re-drawn or settled (a fire extinguisher is no fire), and passes the quality check", async () => {
    // a library drawing (a mailbox), the procedural object plan (a chest), a
    // drawing whose name says fire: a sheet played as an idle wobbled when it settled by a pixel (the
    // blind review after 1130b: "static props with 1 px jitter between columns"; decision 0115)
    for (const prompt of ['a fire extinguisher', 'a mailbox', 'a treasure chest']) {
      const req = spriteRequest(prompt, { resolution: 64, directions: 4, framesPerDirection: 4 });
      const out = await renderProcedural(req);
      expect(out.still, prompt).toBe(true);
      expect(out.animation, prompt).toBe('idle');
      for (let d = 0; d < 4; d++) {
        const first = Buffer.from(out.frames[d * 4]!.data);
        for (let f = 1; f < 4; f++)
          expect(
            Buffer.from(out.frames[d * 4 + f]!.data).equals(first),
            `${prompt}: row ${d} frame ${f}`,
          ).toBe(true);
      }
      const report = inspectQuality({
        frames: out.frames,
        expected: {
          frameWidth: 64,
          frameHeight: 64,
          directions: 4,
          framesPerDirection: 4,
          frameCount: 16,
          directionNames: ['down', 'left', 'right', 'up'],
          opaque: false,
        },
        motion: out.animation,
        still: out.still,
      });
      const distinct = report.checks.find((c) => c.name === 'frames_distinct')!;
      expect(distinct.passed, prompt).toBe(true);
      // asked to move, the same thing moves: its cycle is not one picture, and the check holds it to that
      const moving = await renderProcedural({ ...req, assetType: 'animation' });
      expect(moving.still, prompt).toBeUndefined();
      expect(
        moving.frames
          .slice(0, 4)
          .some((f) => !Buffer.from(f.data).equals(Buffer.from(moving.frames[0]!.data))),
        `${prompt}: animation`,
      ).toBe(true);
    }
    // a still cycle the generator did not mean still fails as before
    const frozen = await renderProcedural(
      spriteRequest('a barrel', { resolution: 32, directions: 1, framesPerDirection: 2 }),
    );
    const report = inspectQuality({
      frames: frozen.frames,
      expected: {
        frameWidth: 32,
        frameHeight: 32,
        directions: 1,
        framesPerDirection: 2,
        frameCount: 2,
        directionNames: ['down'],
        opaque: false,
      },
    });
    expect(report.checks.find((c) => c.name === 'frames_distinct')!.passed).toBe(false);
  });
});

/** Oklab of a pixel, with its hue in degrees. */
const lab = (p: Uint8Array) => {
  const [L, a, b] = oklab([p[0]!, p[1]!, p[2]!]);
  return { L, C: Math.hypot(a, b), h: ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360, a, b };
};
const opaquePixels = (f: RgbaImage) => {
  const out: Uint8Array[] = [];
  for (let i = 0; i < f.data.length; i += 4) if (f.data[i + 3]) out.push(f.data.subarray(i, i + 4));
  return out;
};

describe('one model in every cell, and every sheet says its views (issue #39, decision 0095)', () => {
  it('every sheet of a still thing says how each row shows it, and says it truly', async () => {
    const VIEWS = ['source', 'mirror', 'repeat', 'turned', 'rotated'];
    const seen: Record<string, string[]> = {};
    for (const [prompt, assetType] of [
      ['a steel sword', 'sprite'],
      ['a healing flask', 'animation'],
      ['a mailbox', 'animation'],
      ['a beetle', 'sprite'],
      ['a racing car', 'sprite'],
      ['a stack of gold bars', 'sprite'],
      ['a knight', 'animation'],
    ] as const) {
      const out = await renderProcedural(
        spriteRequest(prompt, { assetType, directions: 4, framesPerDirection: 2 }),
      );
      expect(
        out.views?.map((v) => v.direction),
        prompt,
      ).toEqual(['down', 'left', 'right', 'up']);
      for (const v of out.views!) expect(VIEWS, prompt).toContain(v.view);
      seen[prompt] = out.views!.map((v) => v.view);
    }
    // a side view in the row facing the viewer repeats it; a view from above is rotated in the plane
    expect(seen['a racing car']![0]).toBe('repeat');
    expect(seen['a beetle']).toContain('rotated');
    // a sword is the diagonal sword icon (decision 0110): every row repeats its one view, never its edge
    expect(seen['a steel sword']![0]).toBe('source');
    expect(seen['a steel sword']!.slice(1)).not.toContain('turned');
  });

  it("a sword's guard and grip keep their pixels in every row and every frame", async () => {
    for (const assetType of ['sprite', 'animation'] as const) {
      const out = await renderProcedural(
        spriteRequest('a steel sword', { assetType, resolution: 64, directions: 4, framesPerDirection: 4 }),
      );
      // the guard's and the pommel's gold: warm, saturated, light
      const gold = out.frames.map(
        (f) =>
          opaquePixels(f).filter((p) => {
            const c = lab(p);
            return c.C > 0.08 && c.h > 60 && c.h < 110 && c.L > 0.6;
          }).length,
      );
      expect(gold[0], assetType).toBeGreaterThan(8);
      // (a still sheet's settle drops a row across the diagonal icon's guard in its settled frames: the
      // guard keeps nine tenths of its gold there; settle is the lead's, decision 0110)
      for (const g of gold)
        expect(g, `${assetType}: ${gold.join(' ')}`).toBeGreaterThanOrEqual(gold[0]! * 0.85);
    }
  });

  it('a steel blade is grey steel, not teal', async () => {
    for (const prompt of ['a steel sword', 'a steel dagger', 'a steel axe']) {
      const px = opaquePixels((await renderProcedural(spriteRequest(prompt, { resolution: 64 }))).frames[0]!);
      const teal = px.filter((p) => {
        const c = lab(p);
        return c.C > 0.05 && c.h > 170 && c.h < 240;
      }).length;
      expect(teal / px.length, prompt).toBeLessThan(0.03);
    }
  });

  it("a carved pumpkin and a jack-o'-lantern have a face cut in them, lit from inside, and keep it in every frame", async () => {
    for (const [prompt, seed] of [
      ['a carved pumpkin', 1],
      ["a jack-o'-lantern", 2],
      ["a jack-o'-lantern", 3],
    ] as const) {
      const out = await renderProcedural(
        spriteRequest(prompt, { resolution: 64, seed, assetType: 'animation', framesPerDirection: 4 }),
      );
      const what = `${prompt} #${seed}`;
      // the cuts: light warm yellow pixels (the pumpkin itself is a deeper orange)
      const lit = out.frames.map(
        (f) =>
          opaquePixels(f).filter((p) => {
            const c = lab(p);
            return c.L > 0.8 && c.b > 0.08 && c.h > 60 && c.h < 110;
          }).length,
      );
      expect(lit[0], what).toBeGreaterThanOrEqual(20);
      // its body is orange in every seed's look (a turned hue made it pink)
      const body = opaquePixels(out.frames[0]!).filter((p) => lab(p).L > 0.45);
      const orange = body.filter((p) => {
        const h = lab(p).h;
        return h > 35 && h < 85;
      }).length;
      expect(orange / body.length, what).toBeGreaterThan(0.5);
      // no flame moves it: the frames are its one picture at rest or settled
      expect(Buffer.from(out.frames[1]!.data).equals(Buffer.from(out.frames[0]!.data)), what).toBe(true);
    }
  });

  it('a pirate flag is black cloth on a pole with its emblem on it', async () => {
    for (const prompt of ['a pirate flag', 'a jolly roger flag']) {
      const out = await renderProcedural(spriteRequest(prompt, { resolution: 64 }));
      const f = out.frames[0]!;
      const px = opaquePixels(f);
      const dark = px.filter((p) => lab(p).L < 0.35).length;
      const bone = px.filter((p) => lab(p).L > 0.8 && lab(p).C < 0.05).length;
      // the cloth is most of it, the emblem's bone white is on it; it fills its cell
      expect(dark / px.length, prompt).toBeGreaterThan(0.45);
      expect(bone, prompt).toBeGreaterThanOrEqual(15);
      const b = opaqueBox(f);
      expect(b.x1 - b.x0 + 1, prompt).toBeGreaterThanOrEqual(44);
      expect(out.interpretation?.ignored ?? [], prompt).toEqual([]);
    }
  });

  it('a long low thing sinks whole in its settle: no row goes through its wheels, and its sheet moves', async () => {
    // the frame moved `dy` rows down, whole
    const down = (f: RgbaImage, dy: number) => {
      const row = f.width * 4;
      const data = new Uint8Array(f.data.length);
      for (let y = 0; y + dy < f.height; y++)
        if (y + dy >= 0) data.set(f.data.subarray(y * row, (y + 1) * row), (y + dy) * row);
      return Buffer.from(data);
    };
    for (const resolution of [64, 128]) {
      const out = await renderProcedural(
        spriteRequest('a racing car', { resolution, assetType: 'animation', framesPerDirection: 4 }),
      );
      const first = out.frames[0]!;
      const row = out.frames.slice(0, 4);
      // every frame is the first one, or the first one sunk by whole pixels (the wheels keep their rows)
      for (const f of row)
        expect(
          [0, 1, 2, 3, 4].some((dy) => Buffer.from(f.data).equals(down(first, dy))),
          `${resolution}: a frame is not the car moved whole`,
        ).toBe(true);
      // and not every frame is the same: a sheet whose cycle does not move fails the quality check
      expect(row.some((f) => !Buffer.from(f.data).equals(Buffer.from(first.data)))).toBe(true);
    }
  });
});
