import { M, type V3 } from '../bodies/common.js';
import type { ObjectTable } from './kit.js';

/** Containers and vessels. Food. */
export const VESSELS: ObjectTable = {
  // ---- containers and vessels
  chest: ({ p, at, box, v }) => {
    // a treasure chest: a wooden box, a rounded lid (a half-barrel along its width), iron bands over
    // box and lid, metal corners, a lock plate with a keyhole under the lid's lip
    const hf = 4 + v[0] * 0.3;
    const hs = 6 + v[1] * 0.4;
    box(at(0, 0, 3), [hf, hs, 3], M.BODY, M.BODY);
    // the lid: a pill whose round ends stop at the box's sides, so it reads as a domed lid
    p.stick(at(0, -(hs - hf * 0.9), 6), at(0, hs - hf * 0.9, 6), hf, M.BODY, 0.1);
    for (const s of [-hs * 0.55, hs * 0.55]) {
      box(at(0, s, 3), [hf + 0.15, 0.6, 3.05], M.METAL, M.METAL, 0.2);
      // an iron band over the lid's curve
      const arc = [0, 0.5, 1, 1.5, 2, 2.5, 3].map((k): V3 => {
        const a = (k / 3) * Math.PI;
        return at(Math.cos(a) * (hf + 0.1), s, 6 + Math.sin(a) * (hf + 0.1));
      });
      for (let k = 0; k + 1 < arc.length; k++) p.stick(arc[k]!, arc[k + 1]!, 0.55, M.METAL, 0.6);
    }
    for (const s of [-hs, hs])
      for (const f of [-hf, hf]) {
        p.ball(at(f, s, 0.9), 0.9, M.METAL, undefined, 0.3);
        p.ball(at(f, s, 5.2), 0.9, M.METAL, undefined, 0.3);
      }
    // the seam under the lid's lip, all round
    p.stick(at(hf + 0.1, -hs + 0.3, 6), at(hf + 0.1, hs - 0.3, 6), 0.4, M.DARK, 0.35);
    p.stick(at(-hf - 0.1, -hs + 0.3, 6), at(-hf - 0.1, hs - 0.3, 6), 0.4, M.DARK, 0.35);
    box(at(hf, 0, 5), [0.3, 1.4, 1.6], M.GOLD, M.GOLD, 0.4);
    p.ball(at(hf + 0.5, 0, 4.7), 0.5, M.EYE, 0.8, 0.6);
  },
  cabinet: ({ p, at, box }) => {
    box(at(0, 0, 8), [3, 5, 8], M.BODY, M.TOP);
    p.stick(at(3.2, 0, 2), at(3.2, 0, 14.5), 0.3, M.DARK, 0.2);
    p.ball(at(3.4, -1, 8), 0.5, M.GOLD, undefined, 0.3);
    p.ball(at(3.4, 1, 8), 0.5, M.GOLD, undefined, 0.3);
  },
  barrel: ({ p, at, v }) => {
    // squat and bellied: wider in the middle than at the ends
    p.stick(at(0, 0, 3), at(0, 0, 9.5), 4.3 + v[0] * 0.2, M.BODY);
    p.ball(at(0, 0, 6.2), 5.2, M.BODY, 4.2, 0.01);
    p.ball(at(0, 0, 13.2), 4, M.TOP, 1.2, 0.2);
    for (const h of [2.6, 10]) p.ball(at(0, 0, h), 4.6, M.DARK, 0.9, -0.05);
  },
  bag: ({ p, at, v }) => {
    p.ball(at(0, 0, 4.5), 5 + v[0] * 0.4, M.BODY, 4.8, 0);
    p.stick(at(0, 0, 8.5), at(0, 0, 11), 1.4, M.BODY, 0.1);
    p.stick(at(0, -1.8, 9.2), at(0, 1.8, 9.2), 0.6, M.DARK, 0.2);
  },
  bottle: ({ p, at }) => {
    p.stick(at(0, 0, 1.5), at(0, 0, 9), 3.2, M.LIGHT, -10);
    p.stick(at(0, 0, 1.8), at(0, 0, 7), 2.8, M.BODY, -9);
    p.stick(at(0, 0, 9), at(0, 0, 13), 1.2, M.LIGHT, -8);
    p.stick(at(0, 0, 13), at(0, 0, 14.5), 1.4, M.WOOD, -7);
  },
  potion: ({ p, at, v }) => {
    p.ball(at(0, 0, 4.6), 4.5 + v[0] * 0.3, M.LIGHT, undefined, -10);
    p.ball(at(0, 0, 4.5), 4.2 + v[0] * 0.3, M.BODY, 4.3, -9);
    p.stick(at(0, 0, 8.5), at(0, 0, 11.5), 1.6, M.LIGHT, -8);
    p.stick(at(0, 0, 11.5), at(0, 0, 13), 1.8, M.WOOD, -7);
    p.ball(at(0, -1.6, 6.4), 0.9, M.LIGHT, undefined, -6);
  },
  cup: ({ p, at }) => {
    p.stick(at(0, 0, 1.5), at(0, 0, 8), 3.4, M.BODY);
    p.ball(at(0, 0, 9.4), 3.3, M.DARK, 1, 0.1);
    p.stick(at(0, 3.6, 3.2), at(0, 5, 6.5), 0.8, M.BODY, -0.1);
  },
  // ---- food
  fruit: ({ p, at, v }) => {
    p.ball(at(0, 0, 4.5), 4.6 + v[0] * 0.4, M.BODY, 4.2, 0);
    p.stick(at(0, 0, 8.2), at(-0.6, 0, 10.2), 0.5, M.WOOD, 0.1);
    p.poly([at(-0.4, 0, 9.5), at(0.6, 2.8, 10.8), at(0.2, 0.6, 9)], M.ACCENT, 0.2);
    p.ball(at(2, -1.8, 6.5), 0.9, M.LIGHT, undefined, 0.3);
  },
  bread: ({ p, at, v }) => {
    p.stick(at(0, -4, 3), at(0, 4, 3), 3.2 + v[0] * 0.2, M.BODY);
    for (const s of [-2.4, 0, 2.4]) p.stick(at(0.6, s - 0.6, 5.6), at(1.6, s + 0.6, 5.4), 0.4, M.TOP, 0.2);
  },
  cake: ({ p, at }) => {
    p.stick(at(0, 0, 1.5), at(0, 0, 5), 5.5, M.BODY2);
    p.stick(at(0, 0, 5), at(0, 0, 7), 5.6, M.BODY, 0.1);
    p.ball(at(0, 0, 9.6), 1.3, M.ACCENT, undefined, 0.2);
  },
  meat: ({ p, at }) => {
    p.ball(at(0, 1.5, 5), 4.2, M.BODY, 3.6, 0);
    p.stick(at(0, -1.5, 4), at(0, -6, 2), 0.9, M.LIGHT, -0.1);
    p.ball(at(0, -6.4, 2.6), 1.1, M.LIGHT, undefined, -0.1);
    p.ball(at(0, -6.6, 1.4), 1.1, M.LIGHT, undefined, -0.1);
  },
  cheese: ({ p, at }) => {
    p.poly([at(-3, -5, 1), at(3, -5, 1), at(3, 5, 1), at(-3, 5, 1)], M.BODY2);
    p.poly([at(3, -5, 1), at(3, 5, 1), at(0, 5, 6), at(0, -5, 6)], M.BODY, 0.1);
    p.poly([at(-3, -5, 1), at(0, -5, 6), at(0, 5, 6), at(-3, 5, 1)], M.BODY, 0.05);
    p.ball(at(2, -1.5, 3), 0.9, M.BODY2, undefined, 0.3);
    p.ball(at(2, 2, 2.2), 0.7, M.BODY2, undefined, 0.3);
  },
  bowl: ({ p, at }) => {
    p.ball(at(0, 0, 3.5), 6, M.BODY2, 3.4, 0);
    p.ball(at(0, 0, 6), 5, M.BODY, 1.8, 0.1);
  },
};
