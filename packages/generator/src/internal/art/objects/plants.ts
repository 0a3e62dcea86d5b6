import { M } from '../bodies/common.js';
import type { ObjectTable } from './kit.js';

/** Plants and rocks: they stand on the ground. */
export const PLANTS: ObjectTable = {
  tree: ({ p, at, v }) => {
    p.stick(at(0, 0, 0), at(0, 0, 10), 1.6 + v[0] * 0.2, M.WOOD);
    p.ball(at(0, 0, 14), 7 + v[1] * 0.6, M.BODY, 6, 0.1);
    p.ball(at(0.5, -3, 12), 4.5, M.BODY, undefined, 0.12);
    p.ball(at(0.5, 3, 12.5), 4.5, M.BODY, undefined, 0.12);
    p.ball(at(0.5, -1, 17.5), 3.6, M.BODY, undefined, 0.14);
  },
  bush: ({ p, at, v }) => {
    for (const [s, u, r] of [
      [-3.5, 3, 3.6],
      [3.5, 3, 3.6],
      [0, 5, 4.6],
    ] as const)
      p.ball(at(0, s, u), r + v[0] * 0.3, M.BODY, undefined, u * 0.01);
  },
  flower: ({ p, at }) => {
    p.stick(at(0, 0, 0), at(0, 0, 9), 0.5, M.ACCENT);
    p.poly([at(0, 0, 3), at(0, 3, 5.5), at(0, 0.6, 5)], M.ACCENT, 0.05);
    for (let i = 0; i < 6; i++) {
      const a = (i / 6) * Math.PI * 2;
      p.ball(at(0.2, Math.cos(a) * 2.4, 11 + Math.sin(a) * 2.4), 1.7, M.BODY, undefined, 0.1);
    }
    p.ball(at(0.6, 0, 11), 1.4, M.GOLD, undefined, 0.2);
  },
  mushroom: ({ p, at, v }) => {
    p.stick(at(0, 0, 0), at(0, 0, 6), 1.8, M.LIGHT);
    p.ball(at(0, 0, 7.5), 6 + v[0] * 0.4, M.BODY, 3.6, 0.1);
    for (const [s, u] of [
      [-2.5, 9],
      [2, 9.8],
      [0, 10.4],
    ] as const)
      p.ball(at(2, s, u), 0.9, M.LIGHT, undefined, 0.2);
  },
  cactus: ({ p, at }) => {
    p.stick(at(0, 0, 0), at(0, 0, 14), 2.4, M.BODY);
    p.stick(at(0, -2, 6), at(0, -5, 7), 1.3, M.BODY, -0.05);
    p.stick(at(0, -5, 7), at(0, -5, 11), 1.3, M.BODY, -0.05);
    p.stick(at(0, 2, 8), at(0, 4.5, 9), 1.2, M.BODY, -0.05);
    p.stick(at(0, 4.5, 9), at(0, 4.5, 12), 1.2, M.BODY, -0.05);
  },
  rock: ({ p, at, v }) => {
    p.ball(at(0, -1, 3.5), 5.5 + v[0] * 0.5, M.BODY, 3.8, 0);
    p.ball(at(0.6, 2.4, 2.6), 3.6, M.BODY, 2.8, 0.05);
    p.ball(at(0.4, -0.5, 6), 3, M.TOP, 2.2, 0.1);
  },
};
