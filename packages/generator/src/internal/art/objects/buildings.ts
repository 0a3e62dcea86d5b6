import { M } from '../bodies/common.js';
import type { ObjectKit, ObjectTable } from './kit.js';

/** A house or a temple: walls, a pitched roof, a door and lit windows; a temple is wider. */
function walledBuilding({ p, at, box, facing, kind }: ObjectKit): void {
  const w = kind === 'temple' ? 7 : 5.5;
  box(at(0, 0, 4.5), [w - 1, w, 4.5], M.BODY, M.BODY);
  const roof = kind === 'temple' ? M.TOP : M.ACCENT;
  p.poly([at(-w, -w - 0.8, 9), at(-w, w + 0.8, 9), at(0, w + 0.8, 14), at(0, -w - 0.8, 14)], roof, 0.1);
  p.poly([at(w, -w - 0.8, 9), at(w, w + 0.8, 9), at(0, w + 0.8, 14), at(0, -w - 0.8, 14)], roof, 0.12);
  p.box(at(w - 0.9, 0, 2.2), [0.3, 1.3, 2.2], M.DARK, M.DARK, facing, 0.2);
  p.box(at(w - 0.9, -3.2, 5.5), [0.3, 1, 1], M.GLOW, M.GLOW, facing, 0.2);
  p.box(at(0, w - 0.1, 5.5), [1, 0.3, 1], M.GLOW, M.GLOW, facing, 0.2);
}

/** Furniture. Buildings. */
export const BUILDINGS: ObjectTable = {
  // ---- furniture
  chair: ({ p, at, box }) => {
    for (const [f, s] of [
      [-2, -2],
      [2, -2],
      [-2, 2],
      [2, 2],
    ] as const)
      p.stick(at(f, s, 0), at(f, s, 5), 0.6, M.BODY);
    box(at(0, 0, 5.5), [2.8, 2.8, 0.6], M.BODY, M.TOP, 0.1);
    box(at(-2.4, 0, 10), [0.5, 2.8, 4], M.BODY, M.TOP, 0.05);
  },
  table: ({ p, at, box }) => {
    for (const [f, s] of [
      [-3, -5],
      [3, -5],
      [-3, 5],
      [3, 5],
    ] as const)
      p.stick(at(f, s, 0), at(f, s, 6), 0.7, M.BODY);
    box(at(0, 0, 6.6), [4, 6.5, 0.7], M.BODY, M.TOP, 0.1);
  },
  bed: ({ at, box }) => {
    box(at(0, 0, 2.5), [6, 4, 1.5], M.WOOD, M.WOOD);
    box(at(0.5, 0, 4.3), [5.5, 3.8, 0.6], M.BODY, M.BODY, 0.1);
    box(at(-4.2, 0, 4.6), [1.2, 2.8, 0.6], M.LIGHT, M.LIGHT, 0.15);
    box(at(-6, 0, 5.5), [0.6, 4, 3.5], M.WOOD, M.WOOD, 0.05);
  },
  // ---- buildings
  hut: ({ p, at, facing }) => {
    p.stick(at(0, 0, 0), at(0, 0, 6), 5.5, M.BODY);
    for (let i = 0; i < 5; i++) p.ball(at(0, 0, 7 + i * 1.7), 8.5 - i * 1.9, M.STRAW, 1.8, 0.1 + i * 0.01);
    p.box(at(5, 0, 2.3), [0.3, 1.3, 2.3], M.DARK, M.DARK, facing, 0.2);
  },
  house: walledBuilding,
  temple: walledBuilding,
  tower: ({ p, at, sh, facing }) => {
    p.stick(at(0, 0, 0), at(0, 0, 16), 4, M.BODY);
    p.ball(at(0, 0, 17), 5, M.TOP, 1.4, 0.1);
    if (sh[1]! > -0.3)
      for (let i = 0; i < 4; i++) p.ball(at(0, 0, 20 + i * 1.6), 4 - i, M.ACCENT, undefined, 0.2 + i * 0.01);
    else
      for (let i = 0; i < 4; i++)
        p.box(at(0, (i - 1.5) * 2.6, 18.8), [0.8, 0.8, 1.2], M.BODY, M.TOP, facing, 0.2);
    p.ball(at(3.6, 0, 11), 0.9, M.EYE, 1.4, 0.3);
  },
  castle: ({ p, at, box, facing }) => {
    box(at(0, 0, 4.5), [4, 7, 4.5], M.BODY, M.TOP);
    for (const s of [-7, 7]) {
      p.stick(at(0, s, 0), at(0, s, 12), 2.6, M.BODY, 0.1);
      p.ball(at(0, s, 13.5), 2.4, M.ACCENT, 3, 0.15);
    }
    for (const s of [-4, -1.5, 1, 3.5]) p.box(at(3, s, 9.7), [0.8, 0.7, 0.7], M.BODY, M.TOP, facing, 0.05);
    p.ball(at(4.2, 0, 2.5), 2.2, M.DARK, 2.6, 0.2);
  },
  tent: ({ p, at }) => {
    p.poly([at(-5, -6, 0), at(-5, 6, 0), at(0, 6, 9), at(0, -6, 9)], M.BODY, 0.1);
    p.poly([at(5, -6, 0), at(5, 6, 0), at(0, 6, 9), at(0, -6, 9)], M.BODY, 0.12);
    p.poly([at(4.8, -1.5, 0), at(4.8, 1.5, 0), at(1, 0, 7)], M.DARK, 0.2);
  },
};
