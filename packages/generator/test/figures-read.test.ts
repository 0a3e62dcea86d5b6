// Characters a stranger names at first glance (issue #39, decision 0080): measured on the real
// rendered frames of the built-in generator, four direction rows each (down, left, right, up).
import type { RgbaImage } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { drawingSetup } from '../src/drawing-setup.js';
import { characterIdentity, renderProcedural } from '../src/index.js';
import { drawFigure, fitOf, posedRaster, sideOf } from '../src/internal/art/figure/draw.js';
import { type FigureAction, motionPose } from '../src/internal/art/figure/motion.js';
import { attackOf } from '../src/internal/art/figure/pieces-held.js';
import { projector, type V3 } from '../src/internal/art/rig.js';
import { frameStats, spriteRequest } from './support.js';

interface Px {
  x: number;
  y: number;
  r: number;
  g: number;
  b: number;
}

const rows = async (prompt: string, resolution = 64) =>
  (await renderProcedural(spriteRequest(prompt, { directions: 4, resolution }))).frames;

const lum = (p: Px) => (0.2126 * p.r + 0.7152 * p.g + 0.0722 * p.b) / 255;

function opaque(f: RgbaImage): Px[] {
  const out: Px[] = [];
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++) {
      const i = (y * f.width + x) * 4;
      if (f.data[i + 3]) out.push({ x, y, r: f.data[i]!, g: f.data[i + 1]!, b: f.data[i + 2]! });
    }
  return out;
}

/** The top `share` of the figure's height: its head. */
function top(ps: Px[], share: number): Px[] {
  const y0 = Math.min(...ps.map((p) => p.y));
  const y1 = Math.max(...ps.map((p) => p.y));
  return ps.filter((p) => p.y < y0 + (y1 - y0) * share);
}

/** A warm skin tone: red over green over blue, not dark. */
const skinLike = (p: Px) => p.r > p.g && p.g > p.b && p.r - p.b > 35 && lum(p) > 0.25;
/** Leather and wood brown. */
const brown = (p: Px) => p.r > p.g + 12 && p.g > p.b + 5 && p.r - p.b > 30 && lum(p) < 0.6;
const share = (ps: Px[], f: (p: Px) => boolean) => ps.filter(f).length / ps.length;

describe('characters that read (issue #39)', () => {
  it('a skeleton warrior keeps its skull under the helm: no skin face, dark sockets, no brown hands', async () => {
    const frames = await rows('a skeleton warrior');
    for (const [i, f] of frames.entries()) {
      const ps = opaque(f);
      // the helm's face opening was a man's skin face with a nose guard
      expect(top(ps, 0.3).filter(skinLike), `row ${i}: skin in the head`).toHaveLength(0);
      // leather bracers on bone forearms read as big brown hands
      expect(share(ps, brown), `row ${i}: brown share`).toBeLessThan(0.02);
    }
    const face = top(opaque(frames[0]!), 0.3);
    expect(face.filter((p) => lum(p) < 0.12).length, 'dark sockets in the skull').toBeGreaterThanOrEqual(2);
  });

  it('a skeleton mage is a skull and ribs over a dark robe, never white on white', async () => {
    for (const [i, f] of (await rows('a skeleton mage')).entries()) {
      const ps = opaque(f);
      // the robe took the bone's colour: a snowman wizard
      expect(
        share(ps, (p) => lum(p) < 0.35),
        `row ${i}: dark share`,
      ).toBeGreaterThan(0.5);
      if (i < 3) expect(ps.filter((p) => lum(p) > 0.7).length, `row ${i}: bone shows`).toBeGreaterThan(8);
    }
    // the down row's chest: light rib rows with dark between them, on the figure's middle column
    const f = (await rows('a skeleton mage', 128))[0]!;
    const ps = opaque(f);
    const y0 = Math.min(...ps.map((p) => p.y));
    const y1 = Math.max(...ps.map((p) => p.y));
    const xs = ps.map((p) => p.x);
    const cx = Math.round((Math.min(...xs) + Math.max(...xs)) / 2);
    let runs = 0;
    let was = false;
    for (let y = Math.round(y0 + (y1 - y0) * 0.3); y < y0 + (y1 - y0) * 0.6; y++) {
      const p = ps.find((q) => q.x === cx && q.y === y);
      const light = !!p && lum(p) > 0.6;
      if (light && !was) runs++;
      was = light;
    }
    expect(runs, 'light rib rows parted by dark').toBeGreaterThanOrEqual(2);
  });

  it('a robot is metal to its hands and feet and has a visor across its face', async () => {
    const frames = await rows('a steampunk robot');
    for (const [i, f] of frames.entries())
      expect(share(opaque(f), brown), `row ${i}: brown gloves and boots`).toBeLessThan(0.01);
    // the down row: a run of ≥ 4 dark pixels across the head (the visor band)
    const f = frames[0]!;
    const head = top(opaque(f), 0.3);
    const dark = new Set(head.filter((p) => lum(p) < 0.12).map((p) => p.y * f.width + p.x));
    let longest = 0;
    for (const p of head) {
      let n = 0;
      while (dark.has(p.y * f.width + p.x + n)) n++;
      longest = Math.max(longest, n);
    }
    expect(longest, 'visor band').toBeGreaterThanOrEqual(4);
  });

  it('a soldier and a guard wear a uniform in their colour, not grey plate', async () => {
    for (const [prompt, hue] of [
      ['a soldier', (p: Px) => p.r > p.g + 40 && p.r > p.b + 40],
      ['a city guard', (p: Px) => p.b > p.r + 30 && p.b > p.g + 15],
    ] as const) {
      const [down] = await rows(prompt);
      expect(share(opaque(down!), hue), `${prompt}: uniform share`).toBeGreaterThan(0.25);
    }
  });

  it.each([32, 64, 128])('a goblin keeps its ears in the side rows at %i px', async (res) => {
    const frames = await rows('a goblin with a dagger', res);
    // the silhouette's top point is the swept-back ear tip, well behind the crown of the round head
    // (pointing straight out, the ears lay along the line of sight and vanished)
    for (const [i, back] of [
      [1, 1],
      [2, -1],
    ] as const) {
      const f = frames[i]!;
      const spans: Array<[number, number]> = [];
      for (let y = 0; y < f.height; y++) {
        const xs = opaque(f)
          .filter((p) => p.y === y)
          .map((p) => p.x);
        if (xs.length) spans.push([Math.min(...xs), Math.max(...xs)]);
      }
      const mid = (s: [number, number]) => (s[0] + s[1]) / 2;
      const R = Math.round(res * 0.1);
      const head = spans.slice(R, 2 * R);
      const centre = head.reduce((a, s) => a + mid(s), 0) / head.length;
      expect(back * (mid(spans[0]!) - centre), `row ${i}: ear tip behind the head`).toBeGreaterThanOrEqual(
        res * 0.08,
      );
    }
  });

  it('a goblin archer is not one green: its clothes part from its skin', async () => {
    for (const [i, f] of (await rows('a goblin archer')).entries())
      expect(
        share(opaque(f), (p) => p.g > p.r + 20 && p.g > p.b + 20),
        `row ${i}: green share`,
      ).toBeLessThan(0.4);
  });

  it.each([
    'a soldier',
    'a city guard',
    'a skeleton mage',
    'a skeleton warrior',
    'a steampunk robot',
    'a goblin archer',
    'a monk',
  ])('%s spans at least three value bands', async (prompt) => {
    const ps = opaque((await rows(prompt))[0]!);
    const bands = new Array(5).fill(0) as number[];
    for (const p of ps) bands[Math.min(4, Math.floor(lum(p) * 5))]!++;
    expect(bands.filter((n) => n >= ps.length * 0.04).length).toBeGreaterThanOrEqual(3);
  });

  it("an archer's bow stands out of its clothes beside the body (a goblin bowman too)", async () => {
    // a light wood: the bow's [130, 85, 50] was the tunic's [122, 84, 52], drawn and invisible
    const lightWood = (p: Px) => p.r > p.g + 15 && p.g > p.b + 15 && lum(p) > 0.5;
    const [plain] = await rows('a goblin');
    const bare = (x: number, y: number) => plain!.data[(y * plain!.width + x) * 4 + 3] === 0;
    for (const prompt of ['a goblin archer', 'a goblin bowman']) {
      const [front] = await rows(prompt);
      // what the archer has beside the goblin's own silhouette, in light wood: its bow
      const wood = opaque(front!).filter((p) => bare(p.x, p.y) && lightWood(p)).length;
      expect(wood, `${prompt}: the bow's light wood beside the body`).toBeGreaterThanOrEqual(4);
    }
  });

  it.each([
    // the pipeline's seed for "a skeleton archer": its bow's lower limb below the feet drew it 23 px tall
    ['a skeleton archer', 3499460039834679],
    ['a goblin archer', 2],
    ['an elf ranger', 2],
    ['a knight', 1],
    ['a wizard', 1],
  ])(
    '%s (seed %d) stands at least 42 px (65 per cent) of a 64 px cell tall in every row (decision 0092)',
    async (prompt, seed) => {
      const req = spriteRequest(prompt, { directions: 4, resolution: 64, seed });
      for (const [i, f] of (await renderProcedural(req)).frames.entries()) {
        const ys = opaque(f).map((p) => p.y);
        expect(Math.max(...ys) - Math.min(...ys) + 1, `row ${i}: figure height`).toBeGreaterThanOrEqual(42);
      }
    },
  );

  it.each(['an elf ranger with a longbow', 'a skeleton archer'])(
    '%s holds its bow out before it in the side rows: a limb with a string ahead of its face (decision 0102)',
    async (prompt) => {
      // hanging at the hip the bow lay along the leg inside the silhouette: a brown line (0 pixels
      // ahead of the face before, 82–98 with 13–16 of its string now)
      const frames = await rows(prompt);
      for (const [i, ahead] of [
        [1, -1],
        [2, 1],
      ] as const) {
        const ps = opaque(frames[i]!);
        const y1 = Math.max(...ps.map((p) => p.y));
        // the head's front: from the figure's middle column outwards along each of the top rows of
        // the body (a bow as tall as the figure reaches above the head: its tip is not the face)
        const f = frames[i]!;
        const solid = (x: number, y: number) =>
          x >= 0 && x < f.width && f.data[(y * f.width + x) * 4 + 3]! > 0;
        const xs = ps.map((p) => p.x).sort((a, b) => a - b);
        const mid = xs[xs.length >> 1]!;
        const body = ps.filter((p) => p.x === mid);
        const top = Math.min(...body.map((p) => p.y));
        let front = mid;
        for (let y = top; y < top + (y1 - top) * 0.15; y++) {
          let x = mid;
          while (solid(x + ahead, y)) x += ahead;
          front = ahead < 0 ? Math.min(front, x) : Math.max(front, x);
        }
        const out = ps.filter((p) => p.y >= top + (y1 - top) * 0.25 && ahead * (p.x - front) >= 2);
        expect(out.length, `row ${i}: pixels ahead of the face`).toBeGreaterThanOrEqual(40);
        // its string: pale pixels out there
        expect(out.filter((p) => lum(p) > 0.6).length, `row ${i}: the string`).toBeGreaterThanOrEqual(6);
      }
    },
  );

  it("a robot's walk lifts its feet in the down row: the legs' pixels change between frames", async () => {
    const req = {
      ...spriteRequest('a robot walking', { directions: 4, resolution: 64, framesPerDirection: 4 }),
    };
    const down = (await renderProcedural({ ...req, assetType: 'animation' })).frames.slice(0, 4);
    const y1 = Math.max(...down.flatMap((f) => opaque(f).map((p) => p.y)));
    const on = (f: RgbaImage, x: number, y: number) => f.data[(y * f.width + x) * 4 + 3]! > 0;
    // the bottom ten rows' silhouette against frame 0's: a foot 1 px up changed ~18 pixels
    const changed = down.slice(1).map((f) => {
      let n = 0;
      for (let y = y1 - 10; y <= y1; y++)
        for (let x = 0; x < f.width; x++) if (on(f, x, y) !== on(down[0]!, x, y)) n++;
      return n;
    });
    expect(Math.max(...changed)).toBeGreaterThanOrEqual(28);
  });

  it("a face in profile has a nose: the head's outline juts out in front of the face (decision 0096)", async () => {
    // before 0096 a profile head was a round ball: its front edge bulged smoothly, never a 1-row jut
    for (const prompt of ['a hobgoblin', 'an orc']) {
      const frames = await rows(prompt);
      for (const [i, way] of [
        [1, -1],
        [2, 1],
      ] as const) {
        const head = top(opaque(frames[i]!), 0.4);
        const edge = new Map<number, number>();
        for (const p of head) edge.set(p.y, Math.max(edge.get(p.y) ?? -Infinity, p.x * way));
        const ys = [...edge.keys()].sort((a, b) => a - b);
        const juts = ys.filter(
          (y) => edge.get(y)! > (edge.get(y - 1) ?? Infinity) && edge.get(y)! > (edge.get(y + 1) ?? Infinity),
        );
        expect(juts.length, `${prompt} row ${i}: a nose's jut`).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it.each([
    ['a goblin archer', 0.6, 0.58, 0.78],
    ['a robot sentry', 0.65, 0.4, 0.62],
    ['a knight', 0.48, 0.4, 0.62],
  ] as const)(
    '%s in profile is a body as deep as ~%s of its front, not a stick under the head (decision 0102)',
    async (prompt, least, from, to) => {
      // the median width of the silhouette across its torso (from..to of its height from the top; a
      // goblin's big head takes more of it): the side rows' torso was a round capsule's width, 0.50 of
      // the goblin's front, 0.57 of the robot's, 0.36 and 0.52 of the knight's (0.67, 0.70, 0.52–0.56 now)
      const torso = (f: RgbaImage) => {
        const ps = opaque(f);
        const y0 = Math.min(...ps.map((p) => p.y));
        const y1 = Math.max(...ps.map((p) => p.y));
        const widths: number[] = [];
        for (let y = Math.round(y0 + (y1 - y0) * from); y <= y0 + (y1 - y0) * to; y++) {
          const xs = ps.filter((p) => p.y === y).map((p) => p.x);
          widths.push(Math.max(...xs) - Math.min(...xs) + 1);
        }
        return widths.sort((a, b) => a - b)[widths.length >> 1]!;
      };
      const frames = await rows(prompt);
      for (const i of [1, 2])
        expect(torso(frames[i]!) / torso(frames[0]!), `row ${i}: side torso / front`).toBeGreaterThanOrEqual(
          least,
        );
    },
  );

  it.each(['a skeleton warrior', 'a skeleton mage'])(
    "%s's side rows show a socket in the skull under its helm or hat, not a blank ball",
    async (prompt) => {
      // 39r: in profile the open helm's brim was nearer than the face under it and hid the sockets;
      // a mage's socket lay on the skull's front outline under the hat's brim (decision 0102)
      for (const i of [1, 2]) {
        const f = (await rows(prompt))[i]!;
        const at = (x: number, y: number) => {
          const k = (y * f.width + x) * 4;
          return f.data[k + 3] ? lum({ x, y, r: f.data[k]!, g: f.data[k + 1]!, b: f.data[k + 2]! }) : -1;
        };
        const head = top(opaque(f), 0.4); // under a tall hat the skull is lower
        // a dark pixel inside the head (opaque all round) in a run of one or two (a socket is two wide
        // in profile from 64 px, decision 0096) with lit bone or metal each side: not the outline
        const lit = (x: number, y: number, dx: number) =>
          at(x + dx, y) > 0.12 || (at(x + dx, y) >= 0 && at(x + dx, y) < 0.12 && at(x + 2 * dx, y) > 0.12);
        const sockets = head.filter(
          (p) =>
            lum(p) < 0.12 &&
            [at(p.x - 1, p.y), at(p.x + 1, p.y), at(p.x, p.y - 1), at(p.x, p.y + 1)].every((l) => l >= 0) &&
            lit(p.x, p.y, -1) &&
            lit(p.x, p.y, 1) &&
            !(at(p.x - 1, p.y) < 0.12 && at(p.x + 1, p.y) < 0.12) &&
            // set in the pale skull or helm: pale within 2 px on both sides and above or below
            // (on the skull's outline under a brim, one side was the brim's dark)
            [-1, 1].every((dx) => at(p.x + dx, p.y) > 0.5 || at(p.x + 2 * dx, p.y) > 0.5) &&
            [-1, 1, -2, 2].some((dy) => at(p.x, p.y + dy) > 0.5),
        );
        expect(sockets.length, `row ${i}: socket pixels in profile`).toBeGreaterThanOrEqual(2);
      }
    },
  );

  it.each(['a skeleton mage', 'an old wizard with a staff'])(
    "%s's hand grips its staff: the shaft runs through the hand in the front and near-side rows",
    async (prompt) => {
      // the shaft lay over the hand (a pixel of bone beside the wood): the staff floated by the
      // figure (the blind review after 1130b, decision 0111)
      const frames = await rows(prompt);
      for (const i of [0, 2]) {
        const f = frames[i]!;
        const px = (x: number, y: number): Px | null => {
          const k = (y * f.width + x) * 4;
          return f.data[k + 3] ? { x, y, r: f.data[k]!, g: f.data[k + 1]!, b: f.data[k + 2]! } : null;
        };
        const wood = (p: Px | null) =>
          !!p && p.r > p.g + 25 && p.g > p.b + 10 && lum(p) > 0.15 && lum(p) < 0.48;
        // a hand's pixel on the shaft's line: wood two or three rows above and below in its column,
        // the pixel itself light and not wood
        let grips = 0;
        for (let y = 3; y < f.height - 3; y++)
          for (let x = 1; x < f.width - 1; x++) {
            const p = px(x, y);
            if (!p || wood(p) || lum(p) < 0.48) continue;
            const near = (dy: number) => wood(px(x, y + dy));
            if ((near(-2) || near(-3)) && (near(2) || near(3))) grips++;
          }
        expect(grips, `${prompt} row ${i}: hand pixels over the shaft`).toBeGreaterThanOrEqual(1);
      }
    },
  );

  it('a small figure fills its cell and what it holds keeps off the edge: a tiny imp, a goblin bowman (decision 0145)', async () => {
    // a size word changed how much of the cell a figure filled: "a tiny imp" 56 % of 64 px, a goblin
    // archer's face 3 px; its bow's lower limb touched the cell's bottom row
    for (const prompt of ['a tiny imp', 'a little goblin bowman']) {
      const out = await renderProcedural(
        spriteRequest(prompt, { directions: 4, framesPerDirection: 4, resolution: 64 }),
      );
      const s = frameStats(out.frames);
      expect(s.share, prompt).toBeGreaterThanOrEqual(0.7);
      expect(s.margin, prompt).toBeGreaterThanOrEqual(2);
    }
  });

  it('a goblin fills its cell though it bows its long-eared head dying: the hurt and death rows slide, never clip (decision 0147)', async () => {
    // its death's first frame (the head bowed, the ears 14.8 rig units to one side in the diagonal
    // rows) set the scale of every sheet: a goblin stood at 66 % of a 64 px cell
    const still = frameStats(
      (
        await renderProcedural(
          spriteRequest('a goblin', { directions: 4, framesPerDirection: 4, resolution: 64 }),
        )
      ).frames,
    );
    expect(still.share).toBeGreaterThanOrEqual(0.7);
    expect(still.margin).toBeGreaterThanOrEqual(2);
    for (const prompt of ['a goblin dying', 'a goblin hurt']) {
      const out = await renderProcedural(
        spriteRequest(prompt, { directions: 8, framesPerDirection: 4, resolution: 64 }),
      );
      for (const [i, f] of out.frames.entries())
        expect(frameStats([f]).margin, `${prompt}: frame ${i}`).toBeGreaterThanOrEqual(1);
    }
  });

  it.each(['a goblin archer', 'an elf ranger with a bow'])(
    "%s's bow is most of its height: a bent limb of light wood at least 60 percent of the figure, from the front",
    async (prompt) => {
      // at 0.6 of a chibi's short arm either side of the grip the bow was a 40 % stick (decision 0111);
      // 0.587 for a goblin drawn at the cell's full height (0145: 27 of 46 rows, a pixel's rounding)
      const [down] = await rows(prompt);
      const ps = opaque(down!);
      const y0 = Math.min(...ps.map((p) => p.y));
      const y1 = Math.max(...ps.map((p) => p.y));
      const lightWood = (p: Px) => p.r > p.g + 15 && p.g > p.b + 15 && lum(p) > 0.45;
      const bow = ps.filter(lightWood);
      const span = Math.max(...bow.map((p) => p.y)) - Math.min(...bow.map((p) => p.y)) + 1;
      expect(span / (y1 - y0 + 1), prompt).toBeGreaterThanOrEqual(0.58);
    },
  );

  it('a robot is painted in two materials: its shins and forearms are not its grey chassis', async () => {
    const [down] = await rows('a robot', 64);
    const ps = opaque(down!);
    const y0 = Math.min(...ps.map((p) => p.y));
    const y1 = Math.max(...ps.map((p) => p.y));
    const shins = ps.filter((p) => p.y > y0 + (y1 - y0) * 0.75);
    const chroma = (p: Px) => Math.max(p.r, p.g, p.b) - Math.min(p.r, p.g, p.b);
    // one grey from head to feet read as a mannequin (the review's "monochrome grey")
    expect(share(shins, (p) => chroma(p) > 60)).toBeGreaterThan(0.1);
  });
});

/**
 * A figure's frames of an action as the sheet draws them (64 px, seed 1), per row (down, left, right,
 * up): the pixels of each piece, the pelvis's screen height and the skeleton's joints.
 */
function motion(prompt: string, action: FigureAction, frames: number, facings = [0, 270, 90, 180]) {
  const id = characterIdentity({ prompt, seed: 1, resolution: 64 })!;
  const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: 64 }));
  const fit = fitOf(id, { width: 64, height: 64, style });
  const attack = attackOf(id.outfit.weapon);
  const held = action === 'attack' ? 'front' : action === 'jump' ? 'posed' : 'rest';
  return facings.map((facing) =>
    Array.from({ length: frames }, (_, f) => {
      const { raster, cam, fig } = posedRaster(
        id,
        motionPose(action, f, frames, attack, facing),
        facing,
        fit,
        style,
        held as never,
      );
      const u = fit.unit;
      const P = projector(cam);
      const at = (p: V3) => P([p[0] * u, p[1] * u, p[2] * u]);
      const of = (re: RegExp) => {
        const set = new Set<number>();
        raster.piece.forEach((k, i) => {
          if (k && re.test(raster.pieces[k - 1]!)) set.add(i);
        });
        return set;
      };
      return { id, fig, at, of, w: raster.w, raster };
    }),
  );
}

/** The angle at the knee between thigh and shin, in degrees (180: straight). */
function kneeAngle(a: V3, k: V3, b: V3): number {
  const u = [a[0] - k[0], a[1] - k[1], a[2] - k[2]];
  const v = [b[0] - k[0], b[1] - k[1], b[2] - k[2]];
  const dot = u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
  return (Math.acos(dot / (Math.hypot(...u) * Math.hypot(...v))) * 180) / Math.PI;
}

describe('figures in motion (issue #39, decision 0097)', () => {
  it("a walk steps upright in every row: straight knees at the contacts, a 1-px bob, the back row's legs move under a cape", () => {
    for (const prompt of ['a knight', 'a soldier', 'a robot']) {
      const rows = motion(prompt, 'walk', 4);
      for (const [r, row] of rows.entries()) {
        // the knees bent ~130° standing and stepping (thigh and shin longer than the hip's height):
        // side rows read as a crouch or a kneel
        // (side rows: facing the viewer a forward foot is raised to keep the feet on one screen line)
        for (const f of r === 1 || r === 2 ? [0, 2] : []) {
          const { j } = row[f]!.fig;
          for (const [hip, knee, ankle] of [
            [j.hipL, j.kneeL, j.ankleL],
            [j.hipR, j.kneeR, j.ankleR],
          ] as const)
            expect(kneeAngle(hip, knee, ankle), `${prompt} row ${r} frame ${f}`).toBeGreaterThanOrEqual(155);
        }
        // the pelvis rises passing and sinks at the contacts (4 frames sampled one height: 0 px)
        const ys = row.map((c) => c.at(c.fig.j.pelvis)[1]);
        expect(Math.max(...ys) - Math.min(...ys), `${prompt} row ${r}: bob`).toBeGreaterThanOrEqual(0.8);
      }
      // the back row: the legs' pixels change between frames (a cape to the ankles hid them: 9 px)
      const up = rows[3]!.map((c) => c.of(/^(leg|foot)_/));
      const changed = up.slice(1).map((s) => {
        let n = 0;
        for (const i of s) if (!up[0]!.has(i)) n++;
        for (const i of up[0]!) if (!s.has(i)) n++;
        return n;
      });
      expect(Math.max(...changed), `${prompt}: up row legs`).toBeGreaterThanOrEqual(15);
    }
  });

  it("a walk's side rows pass the legs cleanly: passing, the swing shin hangs in front of the stance one (never an X), a run's shins stay apart, the far leg is darker", () => {
    for (const prompt of ['a robot', 'a knight', 'a soldier']) {
      const rows = motion(prompt, 'walk', 4);
      for (const r of [1, 2]) {
        // facing left (row 1) forward is -x on the sheet
        const fwd = r === 1 ? -1 : 1;
        for (const f of [1, 3]) {
          const c = rows[r]![f]!;
          const { j } = c.fig;
          const legs = [
            [c.at(j.kneeL), c.at(j.ankleL)],
            [c.at(j.kneeR), c.at(j.ankleR)],
          ] as const;
          // the swing leg's ankle is the higher one on the sheet
          const [swing, stance] = legs[0][1][1] < legs[1][1][1] ? [legs[0], legs[1]] : [legs[1], legs[0]];
          const xAt = ([k, a]: readonly [number[], number[]], y: number) =>
            k[0]! + ((a[0]! - k[0]!) * (y - k[1]!)) / (a[1]! - k[1]! || 1e-6);
          const y0 = Math.max(swing[0][1]!, stance[0][1]!);
          const y1 = Math.min(swing[1][1]!, stance[1][1]!);
          // the swing shin's lead over the stance one (px) at the top, middle and bottom of the rows
          // both shins cross; the swing shin sloped back from a forward knee: 1.5 → -1.5 px (an X), or
          // 0.2–2.7 px, the two shins on one another (a robot's 4-frame walk)
          const leads = [y0, (y0 + y1) / 2, y1].map((y) => (xAt(swing, y) - xAt(stance, y)) * fwd);
          expect(
            Math.min(...leads),
            `${prompt} row ${r} frame ${f}: ${leads.map((v) => v.toFixed(1))}`,
          ).toBeGreaterThanOrEqual(2);
        }
        // the far leg a step darker than the near one (both seen whole at the contacts)
        const far = r === 1 ? 'leg_r' : 'leg_l';
        const near = r === 1 ? 'leg_l' : 'leg_r';
        for (const f of [0, 2]) {
          const c = rows[r]![f]!;
          const tone = (piece: string) => {
            const ps = [...c.of(new RegExp(`^${piece}$`))];
            return ps.reduce((t, i) => t + c.raster.tone[i]!, 0) / ps.length;
          };
          expect(tone(far), `${prompt} row ${r} frame ${f}: far leg`).toBeLessThan(tone(near) - 0.5);
        }
      }
      // a run: in every side-row frame the two shins apart, one wholly forward of the other (its
      // swing foot eased forward like a walk's was ahead by the other foot's contact: the two shins
      // on one line, 0.1 px apart, frames 0 and 3)
      const run = motion(prompt, 'run', 6);
      for (const r of [1, 2])
        for (const [f, c] of run[r]!.entries()) {
          const { j } = c.fig;
          const l = [c.at(j.kneeL), c.at(j.ankleL)] as const;
          const rr = [c.at(j.kneeR), c.at(j.ankleR)] as const;
          const xAt = ([k, a]: readonly [number[], number[]], y: number) =>
            k[0]! + ((a[0]! - k[0]!) * (y - k[1]!)) / (a[1]! - k[1]! || 1e-6);
          const y0 = Math.max(l[0][1]!, rr[0][1]!);
          const y1 = Math.min(l[1][1]!, rr[1][1]!);
          const gaps = [y0, (y0 + y1) / 2, y1].map((y) => xAt(l, y) - xAt(rr, y));
          const label = `${prompt} run row ${r} frame ${f}: ${gaps.map((v) => v.toFixed(1))}`;
          expect(Math.min(...gaps.map(Math.abs)), label).toBeGreaterThanOrEqual(1.5);
          expect(new Set(gaps.map(Math.sign)).size, label).toBe(1);
        }
    }
  });

  it('a sword stays in sight in every frame of every row of a walk and an attack', () => {
    for (const prompt of ['a knight', 'a paladin', 'a warrior'])
      for (const action of ['walk', 'attack'] as const) {
        const rows = motion(prompt, action, action === 'walk' ? 4 : 6);
        // walking left the sword swung behind the hip was hidden whole (0 px) in frame 2, and a
        // wind-up in the far hand behind the head and cape
        for (const [r, row] of rows.entries())
          for (const [f, c] of row.entries())
            expect(c.of(/^weapon$/).size, `${prompt} ${action} row ${r} frame ${f}`).toBeGreaterThanOrEqual(
              8,
            );
      }
  });

  it("a spear's and a staff's shaft is a line of one width in every row, not a bead chain (decision 0119)", () => {
    // drawn as a capsule about a pixel wide, a slanted shaft came out one pixel on some rows and two
    // on the next (widths 1 and 2 along one shaft)
    for (const prompt of ['a soldier', 'a skeleton mage'])
      for (const [r, row] of motion(prompt, 'walk', 2).entries())
        for (const [f, c] of row.entries()) {
          const shaft = [...c.of(/^weapon$/)];
          const ys = shaft.map((i) => Math.floor(i / c.w));
          const y0 = Math.min(...ys);
          const y1 = Math.max(...ys);
          const widths = new Map<number, number>();
          for (const i of shaft) {
            const y = Math.floor(i / c.w);
            // the middle of the shaft: away from its head, its butt and an orb
            if (y > y0 + (y1 - y0) * 0.3 && y < y1 - (y1 - y0) * 0.15)
              widths.set(y, (widths.get(y) ?? 0) + 1);
          }
          expect(
            new Set(widths.values()).size,
            `${prompt} row ${r} frame ${f}: ${[...widths.values()]}`,
          ).toBe(1);
        }
  });

  it('a soldier wears a crested helm and carries its spear off the ground, not leant on like a staff', () => {
    for (const prompt of ['a soldier', 'a town guard']) {
      const [down] = motion(prompt, 'idle', 1);
      const c = down![0]!;
      expect(c.id.outfit.head).toBe('crested-helm');
      const rowsOf = (s: Set<number>) => [...s].map((i) => Math.floor(i / c.w));
      const feet = Math.max(...rowsOf(c.of(/^foot_/)));
      const butt = Math.max(...rowsOf(c.of(/^weapon$/)));
      // the shaft's butt reached the feet's line (a walking staff); carried it ends above the shins
      expect(feet - butt, prompt).toBeGreaterThanOrEqual(5);
    }
  });
});

describe('an action stays on model (issue #39, decision 0109)', () => {
  it("a swing keeps its shield on the off arm, face out, and its weapon's grip in the hand, every frame", () => {
    for (const prompt of ['a knight attacking', 'a paladin attacking']) {
      const rows = motion(prompt, 'attack', 6);
      for (const [r, row] of rows.entries()) {
        const shields = row.map((c) => [...c.of(/^shield$/)]);
        const sizes = shields.map((s) => s.length);
        // flung back with the strike the shield went behind the body (a quarter of its size, or
        // none) and its face turned edge-on with the wind-up's twist
        expect(
          Math.min(...sizes) / Math.max(...sizes),
          `${prompt} row ${r}: ${sizes}`,
        ).toBeGreaterThanOrEqual(0.4);
        // on one side of the body's line in every frame, never jumping across
        const sides = shields.map((s, f) => {
          const cx = row[f]!.at(row[f]!.fig.j.pelvis)[0];
          return Math.sign(s.reduce((a, i) => a + (i % row[f]!.w), 0) / s.length - cx);
        });
        expect(new Set(sides).size, `${prompt} row ${r}: sides ${sides}`).toBe(1);
        // the side rows: the hand is drawn round the weapon's grip (facing left the sword floated before
        // the chest, the hand behind the body: 0 hand pixels in every frame)
        if (r === 1 || r === 2)
          for (const [f, c] of row.entries()) {
            const hand = c.of(/^hand_r$/);
            const weapon = c.of(/^weapon$/);
            const touching = [...hand].filter((i) => [0, 1, -1, c.w, -c.w].some((d) => weapon.has(i + d)));
            expect(touching.length, `${prompt} row ${r} frame ${f}: hand at the grip`).toBeGreaterThanOrEqual(
              1,
            );
          }
      }
    }
  });

  it('a robot walking keeps a boxy head in every frame of every row: its top as wide as its middle', () => {
    for (const [r, row] of motion('a robot', 'walk', 4).entries())
      for (const [f, c] of row.entries()) {
        const rowsOf = new Map<number, number>();
        for (const i of c.of(/^head$/))
          rowsOf.set(Math.floor(i / c.w), (rowsOf.get(Math.floor(i / c.w)) ?? 0) + 1);
        const ys = [...rowsOf.keys()].sort((a, b) => a - b);
        const widest = Math.max(...rowsOf.values());
        // the second row from the top (the first is the outline's corner): a drum with a round top
        // narrowed to under half its width there, a knight's great helm
        expect(rowsOf.get(ys[1]!)! / widest, `row ${r} frame ${f}`).toBeGreaterThanOrEqual(0.75);
      }
  });

  it('a robot marches with its forearms held before it: in the side rows a forearm never lies over a thigh (decision 0147)', () => {
    // its arms hung straight as the legs passed: 24 to 31 px of the near forearm on the near thigh
    const near = (px: number, py: number, a: number[], b: number[]) => {
      const [dx, dy] = [b[0]! - a[0]!, b[1]! - a[1]!];
      const t = Math.max(0, Math.min(1, ((px - a[0]!) * dx + (py - a[1]!) * dy) / (dx * dx + dy * dy || 1)));
      return Math.hypot(px - a[0]! - t * dx, py - a[1]! - t * dy) < 2.5;
    };
    for (const prompt of ['a robot', 'a mech'])
      for (const [r, row] of motion(prompt, 'walk', 4, [270, 90]).entries())
        for (const [f, c] of row.entries())
          for (const s of ['L', 'R'] as const) {
            const j = c.fig.j as unknown as Record<string, V3>;
            const forearm = [c.at(j[`elbow${s}`]!), c.at(j[`hand${s}`]!)] as const;
            const thighs = (['L', 'R'] as const).map(
              (t) => [c.at(j[`hip${t}`]!), c.at(j[`knee${t}`]!)] as const,
            );
            const on = [...c.of(new RegExp(`^(arm|hand)_${s.toLowerCase()}$`))].filter((i) => {
              const [x, y] = [(i % c.w) + 0.5, Math.floor(i / c.w) + 0.5];
              return near(x, y, ...forearm) && thighs.some((t) => near(x, y, ...t));
            });
            expect(on.length, `${prompt} row ${r} frame ${f} arm ${s}`).toBeLessThanOrEqual(8);
          }
  });

  it("a walk facing away shows the stepping leg: a cape's hem rises with the raised knee", () => {
    for (const prompt of ['a soldier', 'a knight']) {
      const up = motion(prompt, 'walk', 4)[3]!.map((c) => c.of(/^(leg|foot)_/));
      const changed = up.map((s) => {
        let n = 0;
        for (const i of s) if (!up[0]!.has(i)) n++;
        for (const i of up[0]!) if (!s.has(i)) n++;
        return n;
      });
      // hanging level over the raised knee the hem hid the stepping leg: 16 (soldier) and 19
      // (knight) pixels changed, a foot that came and went
      expect(Math.max(...changed), `${prompt}: ${changed}`).toBeGreaterThanOrEqual(24);
    }
  });

  it("a swing's smear is joined to the blade, and a cape keeps its colour through the swing", () => {
    for (const prompt of ['a knight attacking', 'a guard swinging an axe']) {
      const id = characterIdentity({ prompt, seed: 1, resolution: 64 })!;
      const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: 64 }));
      const out = drawFigure({
        identity: id,
        action: 'attack',
        directions: ['down', 'left', 'right', 'up'],
        frames: 6,
        width: 64,
        height: 64,
        style,
      });
      expect(out.factor).toBe(1);
      const rows = motion(prompt, 'attack', 6);
      // a side row drawn as the other side's mirror (decision 0119): its pieces' pixels mirrored
      const facings = [0, 270, 90, 180];
      const of = (r: number, f: number, re: RegExp) => {
        const side = sideOf(id, facings[r]!);
        const c = rows[facings.indexOf(side.facing)]![f]!;
        if (!side.mirror) return c.of(re);
        const ox = Math.floor(c.w / 2);
        return new Set([...c.of(re)].map((i) => i - (i % c.w) + 2 * ox - (i % c.w)));
      };
      let smeared = 0;
      for (const [r, row] of rows.entries())
        for (const [f, c] of row.entries()) {
          const smear = new Set(out.smear[r * 6 + f]);
          if (!smear.size) continue;
          smeared++;
          // every smear pixel reaches the drawn weapon through smear pixels: a band left floating
          // where the body covered the sweep's last stretch is not a smear of this blade
          const weapon = of(r, f, /^weapon$/);
          const seen = new Set<number>();
          const stack = [...weapon];
          while (stack.length) {
            const i = stack.pop()!;
            for (const dy of [-1, 0, 1])
              for (const dx of [-1, 0, 1]) {
                const q = i + dy * c.w + dx;
                if (smear.has(q) && !seen.has(q)) {
                  seen.add(q);
                  stack.push(q);
                }
              }
          }
          expect(seen.size, `${prompt} row ${r} frame ${f}: smear joined to the blade`).toBe(smear.size);
        }
      expect(smeared, `${prompt}: frames with a smear`).toBeGreaterThanOrEqual(3);
      if (!id.outfit.back.includes('cape')) continue;
      // the cape's commonest colour is one colour in every frame of the side and back rows, where it
      // shows whole (turned with the wind-up's twist its strips went from their lit tone to their dark
      // one: a cape that changed colour); from the front only its edges show beside the body
      for (const [r, row] of rows.entries()) {
        if (r === 0) continue;
        const main = row.map((_c, f) => {
          const frame = out.frames[r * 6 + f]!;
          const count = new Map<number, number>();
          // not where it hangs edge-on, a sliver a pixel wide (the look's outline colour: a side
          // swing's wind-up, decision 0140)
          const drawn = of(r, f, /./);
          for (const i of of(r, f, /^cape$/)) {
            if (!drawn.has(i - 1) && !drawn.has(i + 1)) continue;
            const k = (frame.data[i * 4]! << 16) | (frame.data[i * 4 + 1]! << 8) | frame.data[i * 4 + 2]!;
            count.set(k, (count.get(k) ?? 0) + 1);
          }
          // a frame where it shows (a dozen pixels); the side wind-up leans back and hides it
          if ([...count.values()].reduce((a, b) => a + b, 0) < 12) return undefined;
          return [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
        });
        expect(
          new Set(main.filter((m) => m !== undefined)).size,
          `${prompt} row ${r}: cape colour ${main.map((m) => m?.toString(16))}`,
        ).toBe(1);
      }
    }
  });
});

describe('one model in every row (issue #39, decision 0119)', () => {
  it.each(['a goblin archer', 'a knight'])(
    "%s's left and right rows are one design: the right row is the left mirrored about the feet",
    async (prompt) => {
      // drawn apart, a goblin archer's right row had a squashed torso and the bow over its face (the
      // blind review after 1130e)
      const r = await renderProcedural(spriteRequest(prompt, { directions: 4, resolution: 32 }));
      const [, left, right] = r.frames;
      const w = left!.width;
      const on = (f: RgbaImage, x: number, y: number) =>
        x >= 0 && x < w ? [...f.data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4)].join() : '0,0,0,0';
      // the anchor's column: the feet's middle in the down row
      const ox = Math.floor(w / 2);
      let differ = 0;
      let opaqueN = 0;
      for (let y = 0; y < left!.height; y++)
        for (let x = 0; x < w; x++) {
          if (!right!.data[(y * w + x) * 4 + 3]) continue;
          opaqueN++;
          if (on(right!, x, y) !== on(left!, 2 * ox - x, y)) differ++;
        }
      expect(differ / opaqueN, prompt).toBeLessThan(0.03);
      expect(r.views?.map((v) => v.view)).toEqual(
        ['source', 'mirror', 'source', 'source'].map((v, i) =>
          prompt.includes('archer') ? (['source', 'source', 'mirror', 'source'][i] as string) : v,
        ),
      );
    },
  );

  it("a paladin attacking shows the eye under its helm's brim in both side rows", async () => {
    // the left row, drawn from its own side, was a grey helm ball over a band of skin with no eye
    // (0 eye pixels; the blind review after 1130e's "featureless helmet balls"): now it mirrors the
    // right row, whose face opening rises under the brim in profile
    const r = await renderProcedural(
      spriteRequest('a paladin attacking', {
        assetType: 'animation',
        directions: 4,
        framesPerDirection: 2,
        resolution: 64,
      }),
    );
    for (const i of [2, 4]) {
      const f = r.frames[i]!;
      const px = (x: number, y: number): Px | null => {
        const k = (y * f.width + x) * 4;
        return f.data[k + 3] ? { x, y, r: f.data[k]!, g: f.data[k + 1]!, b: f.data[k + 2]! } : null;
      };
      const skin = (p: Px | null) => !!p && skinLike(p);
      // an eye: a dark pixel with skin above it and on both sides (inside the face, not its outline)
      const eyes = top(opaque(f), 0.4).filter(
        (p) => lum(p) < 0.2 && skin(px(p.x, p.y - 1)) && skin(px(p.x - 1, p.y)) && skin(px(p.x + 1, p.y)),
      );
      expect(eyes.length, `frame ${i}: an eye under the brim`).toBeGreaterThanOrEqual(1);
    }
  });

  it('a tabard follows the torso through a swing: in profile a strip no wider than the chest', () => {
    // in a right-facing swing the tabard turned into a wide gold slab as the torso twisted, and in
    // profile its back panel hung behind the body like a cape (the blind review after 1130e)
    const widths: number[] = [];
    for (const frame of motion('a paladin', 'attack', 4)[2]!) {
      const tabard = frame.of(/^tabard$/);
      const torso = frame.of(/^(torso|tabard|belt|chest)$/);
      const rowsOf = (set: Set<number>) => {
        const m = new Map<number, number[]>();
        for (const i of set) {
          const y = Math.floor(i / frame.w);
          const x = i % frame.w;
          const r = m.get(y) ?? [x, x];
          m.set(y, [Math.min(r[0]!, x), Math.max(r[1]!, x)]);
        }
        return m;
      };
      const body = rowsOf(torso);
      const chest = Math.max(...[...body.values()].map(([l, r]) => r! - l! + 1));
      const strip = Math.max(0, ...[...rowsOf(tabard).values()].map(([l, r]) => r! - l! + 1));
      widths.push(strip / chest);
    }
    expect(
      Math.max(...widths),
      `tabard / chest width per frame: ${widths.map((w) => w.toFixed(2))}`,
    ).toBeLessThanOrEqual(0.6);
  });

  it('a cape hangs behind the torso through a swing: in profile never a panel over the body (decision 0132)', () => {
    // turned with the shoulders' twist, the cape's whole back showed over the body in a side row's
    // wind-up: 117 cape pixels on a torso of 95 in a paladin's right row at 64 px (the blind review
    // after 1130g: "in frame 2 of both side rows the body becomes a gold smear")
    const shares: string[] = [];
    for (const frame of motion('a paladin', 'attack', 4)[2]!) {
      const cape = frame.of(/^cape$/).size;
      const body = frame.of(/^(torso|tabard|belt|chest)$/).size;
      shares.push((cape / body).toFixed(2));
    }
    expect(Math.max(...shares.map(Number)), `cape / torso pixels per frame: ${shares}`).toBeLessThanOrEqual(
      0.6,
    );
  });

  it("a held shaft keeps its length through a walk: a spear's height within a pixel in every row (decision 0132)", () => {
    // the spear's head, a cone narrower than a pixel at its point, came and went by a row or two as the
    // spear was carried up and down: 32, 30, 31, 30 px in the down row, 36, 33, 34, 33 in the up row
    // (the left row drawn is never shown: the sheet's left row is the right one mirrored, 0119)
    for (const [row, frames] of motion('a guard with a spear', 'walk', 4).entries()) {
      if (row === 1) continue;
      const heights = frames.map((frame) => {
        const ys = [...frame.of(/^weapon$/)].map((i) => Math.floor(i / frame.w));
        return Math.max(...ys) - Math.min(...ys) + 1;
      });
      expect(Math.max(...heights) - Math.min(...heights), `spear heights ${heights}`).toBeLessThanOrEqual(1);
    }
  });

  it("a rigid body keeps its width as it walks: a robot's box head and chest in every row (decision 0132)", () => {
    // the walk's twist turned a robot's box head from edge-on to three-quarter and back: 16, 14, 16, 14
    // px wide in the side row — the body seemed to shrink to a sliver in the passing frames
    for (const frames of motion('a robot', 'walk', 4))
      for (const piece of [/^head$/, /^torso$/]) {
        const widths = frames.map((frame) => {
          const xs = [...frame.of(piece)].map((i) => i % frame.w);
          return Math.max(...xs) - Math.min(...xs) + 1;
        });
        expect(Math.max(...widths) - Math.min(...widths), `${piece} widths ${widths}`).toBeLessThanOrEqual(1);
      }
  });

  it.each([64, 128])(
    "a knight's great helm in profile at %i px has a visor slit at eye height, not a blank ball",
    async (res) => {
      // the slit was a short diagonal on the cheek (1 or 2 dark pixels a row) that read as a closed
      // eye on a grey ball, or nothing (decision 0130)
      const frames = await rows('a knight', res);
      for (const i of [1, 2]) {
        const f = frames[i]!;
        const a = (x: number, y: number) => f.data[(y * f.width + x) * 4 + 3]! > 0;
        const dark = (x: number, y: number) => {
          const k = (y * f.width + x) * 4;
          return a(x, y) && lum({ x, y, r: f.data[k]!, g: f.data[k + 1]!, b: f.data[k + 2]! }) < 0.12;
        };
        // the helm's rows; a slit's pixels have the helm above and below them (not the outline)
        const head = top(opaque(f), 0.3);
        let longest = 0;
        for (const p of head) {
          let n = 0;
          while (dark(p.x + n, p.y) && a(p.x + n, p.y - 1) && a(p.x + n, p.y + 1) && !dark(p.x + n, p.y - 1))
            n++;
          longest = Math.max(longest, n);
        }
        expect(longest, `row ${i}: the visor slit's length`).toBeGreaterThanOrEqual(Math.round(res / 16));
      }
    },
  );

  it.each([64, 128])(
    'a skull from the front at %i px is a dome over a narrower jaw, not one ball',
    async (res) => {
      // the head was one ball with the jaw inside it: its outline narrowed smoothly into the collar
      // (jaw rows 1 at 64 px, 2 at 128 before decision 0130; 3 and 5 after)
      const f = (await rows('a skeleton in a robe', res))[0]!;
      const widths: number[] = [];
      for (let y = 0; y < f.height; y++) {
        let l = -1;
        let r = -1;
        for (let x = 0; x < f.width; x++)
          if (f.data[(y * f.width + x) * 4 + 3]) {
            if (l < 0) l = x;
            r = x;
          }
        if (l >= 0) widths.push(r - l + 1);
      }
      const dome = Math.max(...widths.slice(0, Math.round(res * 0.18)));
      const widest = widths.indexOf(dome);
      // the rows under the dome down to the shoulders (the first row wider than the dome)
      const shoulders = widths.findIndex((w, y) => y > widest && w > dome);
      const jaw = widths.slice(widest, shoulders).filter((w) => w >= dome * 0.55 && w <= dome * 0.8);
      expect(
        jaw.length,
        `rows of jaw under a ${dome} px dome: ${widths.slice(0, shoulders)}`,
      ).toBeGreaterThanOrEqual(3);
    },
  );

  it("a skull in profile at 128 px has a socket wider than a dot, set behind the face's outline", async () => {
    // a side row was a white disc with a socket 2 px wide and a mouth line: one dot eye (the blind
    // review after 1130e)
    const frames = await rows('a skeleton in a robe', 128);
    for (const i of [1, 2]) {
      const f = frames[i]!;
      const a = (x: number, y: number) => f.data[(y * f.width + x) * 4 + 3]! > 0;
      const dark = (x: number, y: number) => {
        const k = (y * f.width + x) * 4;
        return a(x, y) && lum({ x, y, r: f.data[k]!, g: f.data[k + 1]!, b: f.data[k + 2]! }) < 0.12;
      };
      // the skull's upper half (the jaw's dark line lies lower)
      const head = top(opaque(f), 0.18);
      // dark pixels inside the skull (opaque all round): the socket's rows and their widest run
      const inner = head.filter(
        (p) => lum(p) < 0.12 && a(p.x - 1, p.y) && a(p.x + 1, p.y) && a(p.x, p.y - 1),
      );
      let widest = 0;
      for (const p of inner) {
        let n = 0;
        while (dark(p.x + n, p.y) && a(p.x + n + 1, p.y)) n++;
        widest = Math.max(widest, n);
      }
      expect(widest, `row ${i}: the socket's width`).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('side rows of a swing that read (issue #39, decision 0140)', () => {
  it('a swing seen from the side keeps its weapon clear of the body in every key, and a line parts the blade from the body it crosses', () => {
    for (const prompt of [
      'a paladin slashing',
      'a knight swinging a sword',
      'a guard attacking with an axe',
    ]) {
      const id = characterIdentity({ prompt, seed: 1, resolution: 64 })!;
      const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: 64 }));
      // the right row is drawn (the left one its mirror, decision 0119)
      const out = drawFigure({
        identity: id,
        action: 'attack',
        directions: ['right'],
        frames: 4,
        width: 64,
        height: 64,
        style,
      });
      const row = motion(prompt, 'attack', 4, [90])[0]!;
      let contacts = 0;
      let dark = 0;
      for (const [f, c] of row.entries()) {
        const weapon = c.of(/^weapon$/);
        const body = c.of(/^(?!weapon$|hand_r$)/);
        const w = c.w;
        // weapon pixels with no body pixel in the 8 round them: ready (held low under the shield),
        // wind-up (cocked behind the head), strike and follow-through. Before: the ready blade lay
        // over the shield, the wind-up's down the back over the head and cape (0–1 px clear)
        const clear = [...weapon].filter((i) =>
          [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1].every((d) => !body.has(i + d)),
        ).length;
        expect(clear, `${prompt} frame ${f}: weapon pixels clear of the body`).toBeGreaterThanOrEqual(5);
        // the legs planted apart: the near and far shins' centre lines never cross (an A, not an X)
        const { j } = c.fig;
        const shin = (k: V3, a: V3) => [c.at(k), c.at(a)] as const;
        const [l, rr] = [shin(j.kneeL, j.ankleL), shin(j.kneeR, j.ankleR)];
        const xAt = ([k, a]: ReturnType<typeof shin>, y: number) =>
          k[0]! + ((a[0]! - k[0]!) * (y - k[1]!)) / (a[1]! - k[1]! || 1e-6);
        const y0 = Math.max(l[0][1]!, rr[0][1]!);
        const y1 = Math.min(l[1][1]!, rr[1][1]!);
        const gaps = [y0, (y0 + y1) / 2, y1].map((y) => xAt(l, y) - xAt(rr, y));
        expect(new Set(gaps.map(Math.sign)).size, `${prompt} frame ${f}: shins ${gaps}`).toBe(1);
        // where the weapon lies on the body, the body's pixel beside it is a dark line
        const px = out.frames[f]!.data;
        for (const i of body)
          if ([1, -1, w, -w].some((d) => weapon.has(i + d))) {
            contacts++;
            const l = (0.2126 * px[i * 4]! + 0.7152 * px[i * 4 + 1]! + 0.0722 * px[i * 4 + 2]!) / 255;
            if (l < 0.22) dark++;
          }
      }
      expect(dark / contacts, `${prompt}: dark body pixels beside the weapon`).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('a face in profile has a mouth under its nose: a dark pixel low on the face by its front outline (soldier, paladin, villager)', () => {
    for (const prompt of ['a soldier', 'a paladin', 'a villager']) {
      const id = characterIdentity({ prompt, seed: 1, resolution: 64 })!;
      const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: 64 }));
      const out = drawFigure({
        identity: id,
        action: 'walk',
        directions: ['right'],
        frames: 4,
        width: 64,
        height: 64,
        style,
      });
      for (const [f, c] of motion(prompt, 'walk', 4, [90])[0]!.entries()) {
        const head = c.of(/^head$/);
        const cy = c.at(c.fig.j.head)[1]!;
        const px = out.frames[f]!.data;
        // the head's pixels below its centre within 2 px of the front outline of their row (the face
        // looks right, +x): before, skin to the outline — the profile was a disc with one eye pixel
        const front = new Map<number, number>();
        for (const i of head) front.set((i / c.w) | 0, Math.max(front.get((i / c.w) | 0) ?? 0, i % c.w));
        const dark = [...head].filter((i) => {
          const y = (i / c.w) | 0;
          const l = (0.2126 * px[i * 4]! + 0.7152 * px[i * 4 + 1]! + 0.0722 * px[i * 4 + 2]!) / 255;
          return y > cy + 1 && front.get(y)! - (i % c.w) <= 2 && l < 0.2;
        });
        expect(dark.length, `${prompt} frame ${f}: a mouth in profile`).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
