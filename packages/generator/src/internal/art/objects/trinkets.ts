import { M } from '../bodies/common.js';
import type { ObjectTable } from './kit.js';

/** Gems and trinkets. Wearables. */
export const TRINKETS: ObjectTable = {
  // ---- gems and trinkets
  gem: ({ p, at }) => {
    // two crossed facets, so the stone has body from every side
    for (const [a, b] of [
      [0, 1],
      [1, 0],
    ] as const) {
      p.poly([at(-5 * a, -5 * b, 7), at(5 * a, 5 * b, 7), at(0, 0, -1)], M.BODY, 0.1);
      p.poly(
        [at(-5 * a, -5 * b, 7), at(-3 * a, -3 * b, 10), at(3 * a, 3 * b, 10), at(5 * a, 5 * b, 7)],
        M.TOP,
        0.12,
      );
    }
    p.ball(at(0, 0, 6), 2.6, M.BODY, 3.2, 0.11);
    p.ball(at(1.5, -1.5, 7), 0.8, M.LIGHT, undefined, 0.3);
  },
  coin: ({ p, at, t, pose }) => {
    // a flat disc facing forward: round from the front, a thin edge from the side; it spins when animated
    const spin = pose.action === 'idle' ? 1 : Math.max(0.3, Math.abs(Math.cos(t / 2)));
    const disc = (r: number, m: number, bias: number) =>
      p.poly(
        Array.from({ length: 16 }, (_, i) => {
          const a = (i / 16) * Math.PI * 2;
          // tilted a little off the picture plane, so a side view still shows a narrow face
          return at(Math.cos(a) * r * 0.35, Math.cos(a) * r * spin, 5 + Math.sin(a) * r);
        }),
        m,
        bias,
      );
    disc(5, M.GOLD, 0);
    disc(3.6, M.BODY, 0.05);
    p.stick(at(-0.3, 0, 0.4), at(-0.3, 0, 9.6), 1, M.GOLD, -0.1);
    p.stick(at(0.2, 0, 3), at(0.2, 0, 7), 0.6, M.GOLD, 0.2);
  },
  ring: ({ p, at }) => {
    for (let i = 0; i < 10; i++) {
      const a = (i / 10) * Math.PI * 2;
      p.ball(at(0, Math.cos(a) * 4, 5 + Math.sin(a) * 4), 1, M.BODY, undefined, 0);
    }
    p.ball(at(0.5, 0, 9.5), 1.8, M.ACCENT, undefined, 0.2);
  },
  crown: ({ p, at }) => {
    p.stick(at(0, -4.5, 2), at(0, 4.5, 2), 2, M.BODY);
    for (const s of [-4, 0, 4])
      p.poly([at(0.3, s - 1.4, 3.5), at(0.3, s + 1.4, 3.5), at(0.3, s, 7.5)], M.BODY, 0.1);
    p.ball(at(1.6, 0, 2.2), 1, M.ACCENT, undefined, 0.3);
  },
  book: ({ at, box }) => {
    box(at(0, 0, 1.5), [4.5, 3.5, 1.5], M.LIGHT, M.BODY);
    box(at(0, 0, 3.2), [4.6, 3.6, 0.3], M.BODY, M.BODY, 0.1);
    box(at(0, -3.6, 1.6), [4.6, 0.3, 1.8], M.BODY, M.BODY, 0.1);
  },
  scroll: ({ p, at }) => {
    p.stick(at(0, -4.5, 4), at(0, 4.5, 4), 2.6, M.BODY);
    p.stick(at(0, -5.5, 4), at(0, 5.5, 4), 0.8, M.WOOD, -0.1);
    p.stick(at(0.2, -2, 4.6), at(0.2, 2, 4.6), 0.3, M.ACCENT, 0.2);
  },
  lamp: ({ p, at, box }) => {
    box(at(0, 0, 1), [2.6, 2.6, 0.8], M.BODY, M.BODY);
    p.ball(at(0, 0, 5), 2.4, M.GLOW, 3, 0.1);
    for (const s of [-2, 2]) p.stick(at(2, s, 1.5), at(2, s, 8.5), 0.4, M.BODY, 0.2);
    box(at(0, 0, 9), [2.8, 2.8, 0.7], M.BODY, M.BODY, 0.2);
    p.stick(at(0, 0, 9.7), at(0, 0, 11.5), 0.5, M.BODY, 0.2);
  },
  candle: ({ p, at, box, t }) => {
    p.stick(at(0, 0, 1), at(0, 0, 8), 1.8, M.BODY);
    p.ball(at(0, 0, 10), 1.1, M.GLOW, 1.8 + Math.sin(t) * 0.3, 0.2);
    box(at(0, 0, 0.5), [3, 3, 0.5], M.GOLD, M.GOLD, -0.1);
  },
  // ---- wearables
  hat: ({ p, at }) => {
    p.ball(at(0, 0, 2), 6, M.BODY, 1.6, 0);
    p.ball(at(0, 0, 4.5), 3.8, M.BODY, 3.4, 0.1);
    p.ball(at(0, 0, 3.4), 3.9, M.ACCENT, 0.9, 0.05);
  },
  garment: ({ p, at }) => {
    p.stick(at(0, 0, 3), at(0, 0, 10), 3.6, M.BODY);
    for (const side of [-1, 1]) p.stick(at(0, side * 3.6, 10), at(0, side * 7, 5.5), 1.4, M.BODY, -0.05);
    p.ball(at(2.8, 0, 10.5), 1.4, M.DARK, undefined, 0.2);
  },
  boot: ({ p, at }) => {
    p.stick(at(0, 0, 2), at(0, 0, 9), 2.2, M.BODY);
    p.stick(at(0, 0, 1.6), at(4, 0, 1.6), 1.8, M.BODY, 0.1);
    p.ball(at(0, 0, 9.3), 2.4, M.DARK, 0.9, 0.2);
  },
};
