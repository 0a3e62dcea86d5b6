import { M } from '../bodies/common.js';
import type { ObjectTable } from './kit.js';

/** Weapons and tools: a shaft and a head, shown upright and leaning like an inventory icon. */
export const HELD: ObjectTable = {
  blade: ({ p, at, v }) => {
    p.stick(at(0, 0, 0), at(0, 0, 2.6), 0.8, M.WOOD);
    p.stick(at(0, -2.6, 3), at(0, 2.6, 3), 0.7, M.GOLD, 0.1);
    p.stick(at(0, 0, 3.6), at(0, 0, 15 + v[0]), 1.1 + v[1] * 0.15, M.BODY, 0.05);
    p.ball(at(0, 0, -0.4), 0.9, M.GOLD, undefined, 0.1);
  },
  axe: ({ p, at, v }) => {
    p.stick(at(0, 0, 0), at(0, 0, 14), 0.7, M.WOOD);
    p.poly(
      [at(0, 0.5, 13), at(0, 5 + v[0] * 0.5, 15.5), at(0, 5 + v[0] * 0.5, 8.5), at(0, 0.5, 10.5)],
      M.BODY,
      0.1,
    );
  },
  hammer: ({ p, at, box, v }) => {
    p.stick(at(0, 0, 0), at(0, 0, 12), 0.7, M.WOOD);
    box(at(0, 0, 12.5), [2, 3.6 + v[0] * 0.4, 2], M.BODY);
  },
  spear: ({ p, at }) => {
    p.stick(at(0, 0, -2), at(0, 0, 14), 0.55, M.WOOD);
    p.poly([at(0, -1.4, 14), at(0, 1.4, 14), at(0, 0, 19)], M.BODY, 0.1);
  },
  staff: ({ p, at, v }) => {
    p.stick(at(0, 0, -2), at(0, 0, 13), 0.7, M.BODY);
    p.stick(at(0, 0, 13), at(0, -1.6, 15), 0.6, M.BODY);
    p.ball(at(0, 0, 15.5), 2 + v[0] * 0.2, M.GLOW, undefined, 0.1);
  },
  bow: ({ p, at }) => {
    p.stick(at(0, 0, 0), at(1.8, 0, 6), 0.7, M.BODY);
    p.stick(at(1.8, 0, 6), at(0, 0, 12), 0.7, M.BODY);
    p.stick(at(-0.2, 0, 0), at(-0.2, 0, 12), 0.3, M.LIGHT, -0.05);
    p.stick(at(-2, 0, 6), at(4.5, 0, 6), 0.35, M.WOOD, 0.1);
  },
  gun: ({ at, box }) => {
    box(at(0, 0, 6), [4.5, 0.9, 1.1], M.BODY);
    box(at(-3, 0, 4), [1, 0.8, 2.2], M.WOOD);
  },
  shield: ({ p, at }) => {
    p.ball(at(0.5, 0, 6), 6, M.BODY, 7, 0.05);
    p.ball(at(1.2, 0, 6), 4.4, M.ACCENT, 5.2, 0.1);
    p.stick(at(1.6, 0, 2), at(1.6, 0, 10), 0.8, M.GOLD, 0.2);
  },
  torch: ({ p, at }) => {
    p.stick(at(0, 0, 0), at(0, 0, 9), 0.8, M.BODY);
    p.ball(at(0, 0, 10.5), 2, M.GOLD, 2.6, 0.1);
    p.ball(at(0, 0, 11.5), 1.2, M.GLOW, 1.8, 0.2);
  },
  key: ({ p, at }) => {
    p.ball(at(0, 0, 10), 2.6, M.BODY, undefined, 0);
    p.ball(at(0.3, 0, 10), 1.1, M.EYE, undefined, 0.1);
    p.stick(at(0, 0, 7.6), at(0, 0, 0), 0.8, M.BODY);
    p.stick(at(0, 0, 1), at(0, 2, 1), 0.6, M.BODY);
    p.stick(at(0, 0, 3), at(0, 1.6, 3), 0.6, M.BODY);
  },
};
