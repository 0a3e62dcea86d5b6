import { M } from '../bodies/common.js';
import type { ObjectKit, ObjectTable } from './kit.js';

/** A car, a cart or a train: a body on four turning wheels, then each one's own top. */
function wheeled({ p, at, box, sh, t, kind }: ObjectKit): void {
  const len = kind === 'train' ? 9 : 7;
  const roll = t;
  for (const f of [-len + 2.5, len - 2.5])
    for (const s of [-3.6, 3.6]) {
      p.ball(at(f, s, 1.9), 1.9, M.DARK, undefined, 0);
      p.stick(
        at(f, s * 1.05, 1.9),
        at(f + Math.cos(roll) * 1.2, s * 1.05, 1.9 + Math.sin(roll) * 1.2),
        0.35,
        M.METAL,
        0.01,
      );
    }
  box(at(0, 0, 4), [len, 3.4, 1.8], M.BODY, kind === 'cart' ? M.WOOD : M.TOP, 0.1);
  if (kind === 'car') {
    // where the cabin sits and how long it is: a car's, a van's, a truck's
    const cab = 2.2 + (sh[2]! + 1) * 1.6;
    box(
      at(len - cab - 0.5 + sh[3]! * 2.5 * (sh[2]! < 0 ? 1 : 0) - (sh[2]! < 0 ? 3 : 0), 0, 7.2),
      [cab, 3, 1.8],
      M.LIGHT,
      M.BODY,
      0.15,
    );
  }
  if (kind === 'train') {
    box(at(-4, 0, 8), [3, 3.2, 2.4], M.BODY, M.TOP, 0.15);
    p.stick(at(5, 0, 5.5), at(5, 0, 10), 1.2, M.DARK, 0.2);
  }
  if (kind === 'cart') p.stick(at(len, 0, 4), at(len + 5, 0, 3), 0.5, M.WOOD, 0.1);
}

/** Vehicles: wheels turn with the cycle. */
export const VEHICLES: ObjectTable = {
  car: wheeled,
  cart: wheeled,
  train: wheeled,
  bike: ({ p, at }) => {
    for (const f of [-4, 4]) {
      p.ball(at(f, 0, 3.2), 3.2, M.DARK, undefined, 0);
      p.ball(at(f, 0, 3.2), 2.2, M.LIGHT, undefined, 0.01);
    }
    p.stick(at(-4, 0, 3.2), at(0, 0, 7), 0.5, M.BODY, 0.1);
    p.stick(at(0, 0, 7), at(4, 0, 3.2), 0.5, M.BODY, 0.1);
    p.stick(at(3, 0, 8.5), at(3, 0, 6), 0.5, M.BODY, 0.1);
    p.stick(at(3, -2, 8.5), at(3, 2, 8.5), 0.5, M.DARK, 0.1);
  },
  boat: ({ p, at, sh, F, t }) => {
    p.poly([at(-7, -3.5, 4), at(7, -3.5, 4), at(9, 0, 4.5), at(5, 0, 0), at(-6, 0, 0.5)], M.BODY, 0.1);
    p.poly([at(-7, 3.5, 4), at(7, 3.5, 4), at(9, 0, 4.5), at(5, 0, 0), at(-6, 0, 0.5)], M.BODY, 0.1);
    p.poly([at(-7, -3.5, 4), at(7, -3.5, 4), at(9, 0, 4.5), at(7, 3.5, 4), at(-7, 3.5, 4)], M.TOP, 0.11);
    if (F.has('small')) {
      // a rowboat: oars, no mast
      for (const side of [-1, 1])
        p.stick(at(0, side * 2, 5), at(1 + Math.sin(t), side * 7, 1), 0.4, M.WOOD, 0.2);
    } else
      for (const mast of sh[0]! > 0 ? [-3, 3] : [0]) {
        p.stick(at(mast, 0, 4), at(mast, 0, 17), 0.5, M.WOOD, 0.2);
        p.poly(
          [at(mast + 0.3, 0, 16.5), at(mast + 0.3, 0, 6.5), at(mast - 5 + Math.sin(t) * 0.5, 0, 7.5)],
          M.LIGHT,
          0.25,
        );
      }
  },
  plane: ({ p, at, box }) => {
    p.stick(at(-7, 0, 6), at(7, 0, 6), 2.2, M.BODY);
    box(at(0.5, 0, 6), [1.6, 8.5, 0.4], M.BODY, M.TOP, 0.1);
    p.poly([at(-7, 0, 6.5), at(-8, 0, 11), at(-5.5, 0, 7)], M.ACCENT, 0.05);
    p.ball(at(4, 0, 7.6), 1.4, M.LIGHT, 1, 0.2);
  },
  rocket: ({ p, at, t }) => {
    p.stick(at(0, 0, 3), at(0, 0, 15), 2.8, M.BODY);
    for (let i = 0; i < 3; i++) p.ball(at(0, 0, 16.5 + i * 1.5), 2.6 - i * 0.8, M.ACCENT, undefined, 0.1);
    for (const s of [-1, 1]) p.poly([at(0, s * 2.5, 6), at(0, s * 5, 1), at(0, s * 2.5, 2)], M.ACCENT, 0.05);
    p.ball(at(2.4, 0, 11), 1.2, M.LIGHT, undefined, 0.2);
    p.ball(at(0, 0, 1), 1.6, M.GLOW, 2 + Math.sin(t), 0.2);
  },
};
