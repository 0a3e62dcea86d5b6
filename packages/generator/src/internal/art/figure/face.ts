/**
 * Faces are drawn last, as a pixel artist places them: a few exact pixels on the shaded head, sized
 * by the head's size in pixels (one dark pixel at 32 px; a dark column with a light catch-light at
 * 64 px), placed where the eyes are on the turned head and only where the head shows (a hat's brim
 * or an arm in front hides them). A face style is a row: eyes, a visor's slit, a skull's sockets, a
 * robot's lenses, a zombie's hollow stare, a beast's glowing eyes.
 */
import type { Rgb } from '@assetloom/pipeline/pixel';
import { type Camera, projector, type V3 } from '../rig.js';
import { add, type Figure, mul, norm, sub } from './build.js';
import type { Face } from './identity.js';
import { SLOT, type Slot } from './identity.js';
import type { FigureRamp, Raster } from './raster.js';

interface Spot {
  x: number;
  y: number;
  /** How squarely the spot faces the viewer (1 straight on, 0 edge-on). */
  facing: number;
}

interface FaceContext {
  fig: Figure;
  spot: (f: number, s: number, u: number) => Spot | null;
  /** Head radius in pixels. */
  R: number;
  put: (x: number, y: number, colour: Rgb, on?: string[]) => void;
  colour: (slot: Slot, tone?: keyof FigureRamp) => Rgb;
  /**
   * In profile (the face's forward edge-on to the viewer), the pixel just past the head's outline in
   * front of the face at height `u`, with the way it points on the screen; null otherwise.
   */
  profile: (u: number) => { x: number; y: number; dir: number } | null;
  /** Paints a pixel where nothing is drawn yet (a nose past the head's outline). */
  putOut: (x: number, y: number, colour: Rgb) => void;
  /** Whether the pixel shows the head itself (not a hat's brim over it). */
  onHead: (x: number, y: number) => boolean;
  /** The head's centre on the screen. */
  centre: { x: number; y: number };
  /** In profile, the way the face points on the screen (−1 left, 1 right); 0 otherwise. */
  side: number;
  /** Whether the pixel shows one of the named pieces (a helm's 'hat'). */
  shows: (x: number, y: number, pieces: string[]) => boolean;
}

/** A nose in profile: one skin pixel past the face's outline (decision 0096: a profile's ball head). */
function nose(c: FaceContext): void {
  if (c.R < 4) return;
  const p = c.profile(-0.12);
  if (p) c.putOut(p.x, p.y, c.colour('skin'));
}

const EYE_ANGLE = 0.42;

function eyePair(c: FaceContext, u: number, draw: (spot: Spot, side: number) => void): void {
  // the pupil looks towards the nose on the screen: the viewer's left eye is the figure's right
  for (const side of [-1, 1]) {
    const a = EYE_ANGLE;
    const s = c.spot(Math.cos(a), side * Math.sin(a), u);
    if (s) draw(s, side);
  }
}

/**
 * An eye of the size the head allows: one dark pixel on a small head; a dark column with a
 * catch-light on a mid-sized one; on a large head a white eye with a dark pupil, which reads on any
 * skin. `side` (−1 left, 1 right of the face) puts the pupil towards the nose.
 */
function eye(c: FaceContext, s: Spot, dark: Rgb, light: Rgb | null, on?: string[], side = 0): void {
  const R = c.R;
  const front = s.facing > 0.75;
  const w = R >= 9 && front ? 2 : 1;
  const h = R >= 9 ? 3 : R >= 5 ? 2 : 1;
  const x0 = Math.round(s.x - w / 2);
  const y0 = Math.round(s.y - h / 2);
  if (light && R >= 9) {
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) c.put(x0 + x, y0 + y, light, on);
    const px = w > 1 ? (side < 0 ? x0 + 1 : x0) : x0;
    for (let y = 1; y < h; y++) c.put(px, y0 + y, dark, on);
    return;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) c.put(x0 + x, y0 + y, dark, on);
  if (light && R >= 7) c.put(x0, y0, light, on);
}

function mouth(c: FaceContext, open: boolean): void {
  if (c.side && c.R >= 5) {
    // in profile the mouth is a short dark line back from the face's front outline under the nose
    // (decision 0140: a profile face was a skin disc with one eye pixel and a nose bump)
    const p = c.profile(-0.5);
    if (!p) return;
    const col = c.colour('eye');
    for (let i = 1; i <= (c.R >= 10 ? 3 : 2); i++) c.put(p.x - i * p.dir, p.y, col);
    return;
  }
  if (c.R < 6) return;
  const s = c.spot(Math.cos(0), 0, -0.45);
  if (!s || s.facing < 0.5) return;
  const col = c.colour('skin', 'shadow');
  const w = open ? 2 : c.R >= 10 ? 2 : 1;
  const x0 = Math.round(s.x - w / 2);
  for (let x = 0; x < w; x++) c.put(x0 + x, Math.round(s.y), col);
  if (open) for (let x = 0; x < w; x++) c.put(x0 + x, Math.round(s.y) + 1, c.colour('eye'));
}

const FACES: Readonly<Record<Face, (c: FaceContext) => void>> = {
  eyes: (c) => {
    eyePair(c, -0.02, (s, side) => eye(c, s, c.colour('eye'), c.colour('white'), undefined, side));
    mouth(c, false);
    nose(c);
    if (c.fig.o.extras.includes('fangs') && c.R >= 6) {
      const s = c.spot(1, 0, -0.55);
      if (s && s.facing > 0.5) c.put(Math.round(s.x), Math.round(s.y), c.colour('white'));
    }
    if (c.fig.o.extras.includes('glasses')) glasses(c);
  },
  glare: (c) => {
    // eyes that shine in the glow colour (a vampire's red stare)
    eyePair(c, -0.02, (s) => eye(c, s, c.colour('glow'), null));
    mouth(c, false);
    if (c.R >= 6) {
      const s = c.spot(1, 0, -0.55);
      if (s && s.facing > 0.5) c.put(Math.round(s.x), Math.round(s.y), c.colour('white'));
    }
  },
  mask: (c) => eyePair(c, 0.02, (s) => eye(c, s, c.colour('eye'), c.colour('white'))),
  slit: (c) => eyePair(c, 0.08, (s) => eye(c, s, c.colour('eye'), c.colour('white'))),
  eyepatch: (c) => {
    eyePair(c, -0.02, (s, side) => {
      if (side > 0) {
        const w = c.R >= 7 ? 2 : 1;
        for (let y = 0; y < w; y++)
          for (let x = 0; x < w; x++)
            c.put(Math.round(s.x - w / 2) + x, Math.round(s.y - w / 2) + y, c.colour('eye'));
      } else eye(c, s, c.colour('eye'), c.colour('white'));
    });
    mouth(c, false);
  },
  visor: (c) => {
    // the slit across a great helm, from cheek to cheek
    const h = c.R >= 10 ? 2 : 1;
    if (c.side !== 0) {
      // in profile (decision 0130): a straight dark slit at eye height cut back from the helm's front
      // outline, a third of the way and more across (a short diagonal on the cheek read as a closed
      // eye on a grey ball), and from 128 px the breaths, two rows of holes lower on the face plate
      const cheek = [1, -1]
        .map((k) => c.spot(Math.cos(1.0), k * Math.sin(1.0), 0.08))
        .filter((x): x is Spot => x !== null)
        .sort((a, b) => b.facing - a.facing)[0];
      if (!cheek) return;
      const front = (y: number): number | null => {
        let x = Math.round(c.centre.x);
        if (!c.shows(x, y, ['hat'])) return null;
        while (c.shows(x + c.side, y, ['hat'])) x += c.side;
        return x;
      };
      const y0 = Math.round(cheek.y);
      const x0 = front(y0);
      if (x0 === null) return;
      const len = Math.max(2, Math.round(c.R * 0.6));
      for (let y = 0; y < h; y++)
        for (let k = 0; k < len; k++) c.put(x0 - c.side * k, y0 + y, c.colour('eye'), ['hat']);
      // the breaths: holes one wide and two tall (a single dark pixel on the shaded plate is an orphan
      // to the look's clean-up, and at 64 px it read as noise), only where the head is large
      if (c.R >= 10)
        for (const dy of [0.32, 0.55]) {
          const y = y0 + Math.round(c.R * dy);
          const x1 = front(y);
          if (x1 === null) continue;
          for (let i = 0; i < 3; i++)
            for (const yy of [y, y + 1]) c.put(x1 - c.side * (2 + 2 * i), yy, c.colour('eye'), ['hat']);
        }
      return;
    }
    for (let a = -1.05; a <= 1.05; a += 0.05) {
      const s = c.spot(Math.cos(a), Math.sin(a), -0.02);
      if (!s || s.facing < 0.2) continue;
      for (let y = 0; y < h; y++) c.put(Math.round(s.x), Math.round(s.y) + y, c.colour('eye'), ['hat']);
    }
  },
  glass: (c) => {
    const s = c.spot(Math.cos(-0.45), Math.sin(-0.45), 0.4);
    if (s && s.facing > 0.3) {
      c.put(Math.round(s.x), Math.round(s.y), c.colour('white'), ['visor']);
      if (c.R >= 8) c.put(Math.round(s.x) + 1, Math.round(s.y), c.colour('white'), ['visor']);
    }
  },
  sockets: (c) => {
    eyePair(c, 0.05, (spot) => {
      // big dark sockets: what makes a white ball a skull
      // a third of the skull wide at any size: at 128 px a 3 px socket was a man's eye on a bald head
      const w = c.R >= 7 ? Math.max(3, Math.round(c.R * 0.32)) : c.R >= 4 ? 2 : 1;
      // (in profile three tall from 64 px: a 2×2 socket read as a speck on the white, decision 0111)
      let h = c.R >= 7 ? Math.max(3, Math.round(c.R * 0.36)) : spot.facing <= 0.6 && c.R >= 5.5 ? 3 : w;
      // in profile the socket lay on the skull's front outline, and under a hat's brim on the brim:
      // a blank white ball (a skeleton mage's side rows, decision 0102). It is set in from the
      // outline (0.45 of the head's radius from its centre, not 0.73) and moves down the face, a
      // third of the head at most, to where the skull shows
      let s = spot;
      if (spot.facing <= 0.6) {
        s = { ...spot, x: c.centre.x + (spot.x - c.centre.x) * 0.62 };
        const x = Math.round(s.x - w / 2);
        // bone above the socket too: under the brim's edge it read as the brim's shadow
        const clear = (y: number) => c.onHead(x, y) && c.onHead(x + 1, y) && c.onHead(x, y - 1);
        for (let dy = 0; dy <= c.R * 0.35 && !clear(Math.round(s.y - h / 2)); dy++) s = { ...s, y: s.y + 1 };
        // (moved down under a brim it keeps a row of bone above the jaw's line)
        if (s.y !== spot.y && c.R < 7) h = w;
      }
      if (spot.facing <= 0.6 && c.side) {
        profileSkull(c, s, c.side, h);
        return;
      }
      for (let y = 0; y < h; y++)
        // in profile two pixels wide from 64 px: one pixel was lost on the skull (decision 0096)
        for (let x = 0; x < (s.facing > 0.6 ? w : Math.min(w, 2)); x++)
          c.put(Math.round(s.x - w / 2) + x, Math.round(s.y - h / 2) + y, c.colour('eye'));
    });
    if (!c.side && !c.spot(1, 0, 0)) backOfSkull(c);
    const nose = c.spot(1, 0, -0.3);
    if (nose && nose.facing > 0.5 && c.R >= 6) {
      const n = c.R >= 12 ? 2 : 1;
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++)
          c.put(Math.round(nose.x) - (n - 1) + x, Math.round(nose.y) + y, c.colour('eye'));
    }
    if (c.R >= 6)
      for (let a = -0.35; a <= 0.35; a += 0.35) {
        const t = c.spot(Math.cos(a) * 0.9, Math.sin(a) * 0.9, -0.72);
        if (t && t.facing > 0.4) c.put(Math.round(t.x), Math.round(t.y), c.colour('eye'));
      }
    // in profile the jaw juts past the cranium's outline, its teeth a dark pixel above it (0102),
    // and the mouth's line runs back from it across the skull: a jaw line, where the side rows were a
    // white ball with one small socket (decision 0111)
    if (c.R >= 4) {
      const p = c.profile(-0.62);
      if (p) {
        c.putOut(p.x, p.y, c.colour('bone'));
        if (c.R >= 6) c.putOut(p.x, p.y + 1, c.colour('bone', 'dark'));
        const n = c.R >= 6 ? Math.max(3, Math.round(c.R * 0.45)) : 2;
        for (let k = 1; k < 1 + n; k++) c.put(p.x - p.dir * k, p.y + 1, c.colour('eye'));
      }
    }
  },
  lenses: (c) => {
    // a dark visor band across the face plate, the lenses glowing in it: a face, where two yellow
    // dots on grey read as rivets on a capsule (issue #39)
    const spots: Spot[] = [];
    // in profile set in from the head's outline, as a skull's socket: on it the band merged with the
    // outline and one side row had no face at all (decision 0102)
    const inset = (s: Spot): Spot =>
      s.facing <= 0.6 ? { ...s, x: c.centre.x + (s.x - c.centre.x) * 0.55 } : s;
    eyePair(c, 0.05, (s) => spots.push(inset(s)));
    if (spots.length > 0 && c.R >= 3) {
      const pad = c.R >= 7 ? 2 : 1;
      const x0 = Math.round(Math.min(...spots.map((s) => s.x))) - pad;
      const x1 = Math.round(Math.max(...spots.map((s) => s.x))) + pad;
      const yc = Math.round(spots.reduce((a, s) => a + s.y, 0) / spots.length);
      const h = c.R >= 9 ? 3 : 2;
      for (let y = yc - (h > 2 ? 1 : 0); y < yc - (h > 2 ? 1 : 0) + h; y++)
        for (let x = x0; x <= x1; x++) c.put(x, y, c.colour('eye'));
    }
    eyePair(c, 0.05, (spot) => {
      const s = inset(spot);
      const w = c.R >= 7 && s.facing > 0.6 ? 2 : 1;
      for (let x = 0; x < w; x++) c.put(Math.round(s.x - w / 2) + x, Math.round(s.y), c.colour('glow'));
      if (c.R >= 9)
        for (let x = 0; x < w; x++) c.put(Math.round(s.x - w / 2) + x, Math.round(s.y) + 1, c.colour('glow'));
    });
  },
  hollow: (c) => {
    eyePair(c, 0.02, (s) => eye(c, s, c.colour('eye'), null));
    mouth(c, true);
  },
  beast: (c) =>
    eyePair(c, 0.12, (s) => {
      eye(c, s, c.colour('glow'), null);
      if (c.R >= 7) c.put(Math.round(s.x), Math.round(s.y), c.colour('eye'));
    }),
};

/**
 * A skull in profile (decision 0119): the eye socket set back from a bone rim under a brow, the nasal
 * notch cut in the front outline below it, a cheekbone's shadow running back under the socket, and
 * from 64 px the teeth as dark ticks along the jaw's line. A side row was a white disc with one dark
 * dot and a mouth line: the skeleton read was lost (the blind review after 1130e). `s` is the
 * socket's spot (already moved down under a brim), `dir` the way the face points on the screen.
 */
function profileSkull(c: FaceContext, s: Spot, dir: number, h0: number): void {
  const R = c.R;
  const dark = c.colour('eye');
  const shade = c.colour('bone', 'shadow');
  // the socket: round, as tall as it was and two thirds of it wide (one pixel of bone in front)
  const sw = R >= 9 ? Math.max(3, Math.round(R * 0.3)) : R >= 4 ? 2 : 1;
  const sh = R >= 9 ? Math.max(h0, Math.round(R * 0.38)) : h0;
  const front = (y: number) => {
    let x = Math.round(c.centre.x);
    while (c.onHead(x + dir, y) && Math.abs(x - c.centre.x) < R * 1.6) x += dir;
    return x;
  };
  const y0 = Math.round(s.y - sh / 2);
  const rim = Math.min(...Array.from({ length: sh }, (_, k) => front(y0 + k) * dir)) * dir;
  // the socket's front edge a pixel (two from 128 px) inside the outline
  const xf = rim - dir * (R >= 12 ? 2 : 1);
  for (let y = 0; y < sh; y++)
    for (let k = 0; k < sw; k++) {
      // a round socket: its corners cut from 3 × 4
      if (sw >= 3 && sh >= 4 && (y === 0 || y === sh - 1) && (k === 0 || k === sw - 1)) continue;
      c.put(xf - dir * k, y0 + y, dark);
    }
  if (R < 4) return;
  // under the cranium's dome, behind the jaw, the skull is in shadow: a dome over a narrower jaw, not
  // a ball
  if (R >= 6)
    for (let y = Math.round(c.centre.y + R * 0.35); y <= Math.round(c.centre.y + R * 1.1); y++)
      for (let x = Math.round(c.centre.x - R * 1.2); x <= Math.round(c.centre.x + R * 1.2); x++) {
        const t = (x - c.centre.x) * dir;
        if (t < -R * 0.05 + (y - c.centre.y - R * 0.35) * 0.5 && c.onHead(x, y))
          c.put(x, y, c.colour('bone', 'dark'));
      }
  // the brow: the bone juts a pixel past the outline over the socket
  if (R >= 6) c.putOut(front(y0 - 1) + dir, y0 - 1, c.colour('bone'));
  // the nasal notch: cut into the front below the socket, two pixels deep (the outline takes the
  // first), two rows tall from 128 px
  const yn = y0 + sh + (R >= 9 ? 1 : 0);
  for (let k = 0; k < (R >= 12 ? 2 : 1); k++)
    for (let d = 0; d < (R >= 6 ? 2 : 1); d++) c.put(front(yn + k) - dir * d, yn + k, dark);
  // the cheekbone: its shadow under the socket, running back
  if (R >= 6) {
    const yc = y0 + sh + (R >= 9 ? 1 : 0);
    const n = Math.max(2, Math.round(R * 0.3));
    for (let k = 0; k < n; k++) c.put(xf - dir * (sw - 1 + k), yc + (k > n / 2 ? 1 : 0), shade);
  }
  // the teeth: ticks above the jaw's line (drawn by the jaw, one row below `yt`)
  if (R >= 9) {
    const p = c.profile(-0.62);
    if (p) {
      const n = Math.max(3, Math.round(R * 0.45));
      for (let k = 2; k < n; k += 2) c.put(p.x - p.dir * k, p.y, shade);
      // the jaw's hinge: its line turns up at the back
      c.put(p.x - p.dir * n, p.y, dark);
      c.put(p.x - p.dir * (n + 1), p.y - 1, shade);
    }
  }
}

/** A skull from behind: the dome plain, the neck's vertebrae a dark tick every other row. */
function backOfSkull(c: FaceContext): void {
  const col = c.colour('bone', 'shadow');
  for (let y = Math.round(c.centre.y); y < Math.round(c.centre.y + c.R * 2.2); y++)
    if (y % 2 === 0)
      for (let x = Math.round(c.centre.x - 2); x <= Math.round(c.centre.x + 2); x++)
        c.put(x, y, col, ['neck']);
}

function glasses(c: FaceContext): void {
  if (c.R < 7) return;
  eyePair(c, -0.02, (s) => {
    const x = Math.round(s.x);
    const y = Math.round(s.y);
    for (const [dx, dy] of [
      [-1, -2],
      [0, -2],
      [1, -2],
      [-2, -1],
      [2, -1],
      [-2, 0],
      [2, 0],
      [-1, 1],
      [0, 1],
      [1, 1],
    ] as const)
      c.put(x + dx, y + dy, c.colour('leather', 'shadow'));
  });
}

/**
 * Draws the face of `fig` onto `rgba` (the shaded raster): where each feature lies on the turned
 * head, if that side of the head faces the viewer and the pixel shows the head.
 */
export function drawFace(
  rgba: Uint8Array,
  r: Raster,
  fig: Figure,
  cam: Camera,
  unit: number,
  ramps: readonly FigureRamp[],
): void {
  const P0 = projector(cam);
  const P = (p: V3) => P0([p[0] * unit, p[1] * unit, p[2] * unit]);
  const head = fig.j.head;
  const [, , d0] = P(head);
  const R = fig.p.head * unit;
  const allowed = (names: string[]) =>
    new Set(names.map((n) => r.pieces.indexOf(n) + 1).filter((i) => i > 0));
  const onHead = allowed(['head']);
  const spot = (f: number, s: number, u: number): Spot | null => {
    const dir = norm(add(add(mul(fig.fwd, f), mul(fig.right, s)), [0, 0, u]));
    const [, , d] = P(add(head, mul(dir, fig.p.head)));
    const facing = (d - d0) / Math.max(1e-6, R);
    if (facing < 0.15) return null;
    // features sit a little inside the outline: set into the face, never on its edge in profile
    const [x, y] = P(add(head, mul(dir, fig.p.head * 0.8)));
    return { x, y, facing };
  };
  const put = (x: number, y: number, colour: Rgb, on?: string[]) => {
    if (x < 0 || y < 0 || x >= r.w || y >= r.h) return;
    const k = y * r.w + x;
    const allow = on ? allowed(on) : onHead;
    if (!allow.has(r.piece[k]!)) return;
    rgba[k * 4] = colour[0];
    rgba[k * 4 + 1] = colour[1];
    rgba[k * 4 + 2] = colour[2];
    rgba[k * 4 + 3] = 255;
  };
  const colour = (slot: Slot, tone: keyof FigureRamp = 'base'): Rgb => {
    const ramp = ramps[SLOT[slot] - 1]!;
    return ramp[tone] as Rgb;
  };
  const profile = (u: number) => {
    const [hx] = P(head);
    const ahead = norm(add(fig.fwd, [0, 0, u]));
    const [fx, fy, fd] = P(add(head, mul(ahead, fig.p.head)));
    // the forward direction's depth: near zero in profile
    if (Math.abs(fd - d0) > 0.35 * R || Math.abs(fx - hx) < 0.7 * R) return null;
    const dir = Math.sign(fx - hx);
    // the first empty pixel past the head along the row
    let x = Math.round(fx);
    const y = Math.round(fy);
    if (y < 0 || y >= r.h) return null;
    for (let i = 0; i < 3 && x >= 0 && x < r.w && rgba[(y * r.w + x) * 4 + 3]! > 0; i++) x += dir;
    if (x < 0 || x >= r.w || rgba[(y * r.w + x) * 4 + 3]! > 0) return null;
    // only against the head itself (not a hood's or a helm's rim)
    if (!onHead.has(r.piece[y * r.w + x - dir]!)) return null;
    return { x, y, dir };
  };
  const putOut = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= r.w || y >= r.h) return;
    const k = y * r.w + x;
    if (rgba[k * 4 + 3]! > 0) return;
    rgba.set([c[0], c[1], c[2], 255], k * 4);
    const h = r.pieces.indexOf('head') + 1;
    if (h > 0) r.piece[k] = h;
  };
  const isHead = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < r.w && y < r.h && onHead.has(r.piece[y * r.w + x]!);
  const [hx, hy] = P(head);
  const [fx] = P(add(head, mul(norm([fig.fwd[0], fig.fwd[1], 0]), fig.p.head)));
  const side = Math.abs(fx - hx) > 0.7 * R ? Math.sign(fx - hx) : 0;
  FACES[fig.o.face]({
    fig,
    spot,
    R,
    put,
    colour,
    profile,
    putOut,
    onHead: isHead,
    centre: { x: hx, y: hy },
    side,
    shows: (x, y, names) =>
      x >= 0 && y >= 0 && x < r.w && y < r.h && allowed(names).has(r.piece[y * r.w + x]!),
  });
  void sub;
}
