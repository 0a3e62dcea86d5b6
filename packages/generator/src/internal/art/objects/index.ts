import { type Build, M, Parts, type Pose, type V3 } from '../bodies/common.js';

/**
 * Objects by class: held weapons and tools, containers and vessels, food, gems and trinkets, plants
 * and rocks, furniture, buildings and vehicles. Each is built from the same 3D parts as the bodies,
 * so it turns with the facing. Small items float and bob; big things stand on the ground.
 */
export function objectParts(b: Build, pose: Pose, facing: number): Parts {
  const p = new Parts(b.u * b.scale, b.aspect);
  const t = pose.phase * Math.PI * 2;
  const kind = b.spec.object ?? 'gem';
  const bob = GROUNDED.has(kind)
    ? 0
    : 6 + (pose.action === 'idle' ? (pose.phase >= 0.5 ? 1 : 0) : Math.sin(t) * 1.5);
  const u0 = bob + pose.rise;
  // long held things lean like an inventory icon: the shaft tilts to the side about its middle
  const lean = LEANING.has(kind) ? 0.75 : 0;
  const at = (f: number, s: number, u: number): V3 => [
    f + (u - 7) * lean * 0.7,
    s + (u - 7) * lean * 0.7,
    u0 + (u - 7) * (lean ? 0.8 : 1) + 7,
  ];
  const box = (c: V3, half: V3, m: number, top: number = M.TOP, bias = 0) =>
    p.box(c, half, m, top, facing, bias);
  const v = b.vary;
  const sh = b.shape;
  const F = b.features;
  switch (kind) {
    // ---- weapons and tools: a shaft and a head, shown upright and leaning
    case 'blade':
      p.stick(at(0, 0, 0), at(0, 0, 2.6), 0.8, M.WOOD);
      p.stick(at(0, -2.6, 3), at(0, 2.6, 3), 0.7, M.GOLD, 0.1);
      p.stick(at(0, 0, 3.6), at(0, 0, 15 + v[0]), 1.1 + v[1] * 0.15, M.BODY, 0.05);
      p.ball(at(0, 0, -0.4), 0.9, M.GOLD, undefined, 0.1);
      break;
    case 'axe':
      p.stick(at(0, 0, 0), at(0, 0, 14), 0.7, M.WOOD);
      p.poly(
        [at(0, 0.5, 13), at(0, 5 + v[0] * 0.5, 15.5), at(0, 5 + v[0] * 0.5, 8.5), at(0, 0.5, 10.5)],
        M.BODY,
        0.1,
      );
      break;
    case 'hammer':
      p.stick(at(0, 0, 0), at(0, 0, 12), 0.7, M.WOOD);
      box(at(0, 0, 12.5), [2, 3.6 + v[0] * 0.4, 2], M.BODY);
      break;
    case 'spear':
      p.stick(at(0, 0, -2), at(0, 0, 14), 0.55, M.WOOD);
      p.poly([at(0, -1.4, 14), at(0, 1.4, 14), at(0, 0, 19)], M.BODY, 0.1);
      break;
    case 'staff':
      p.stick(at(0, 0, -2), at(0, 0, 13), 0.7, M.BODY);
      p.stick(at(0, 0, 13), at(0, -1.6, 15), 0.6, M.BODY);
      p.ball(at(0, 0, 15.5), 2 + v[0] * 0.2, M.GLOW, undefined, 0.1);
      break;
    case 'bow':
      p.stick(at(0, 0, 0), at(1.8, 0, 6), 0.7, M.BODY);
      p.stick(at(1.8, 0, 6), at(0, 0, 12), 0.7, M.BODY);
      p.stick(at(-0.2, 0, 0), at(-0.2, 0, 12), 0.3, M.LIGHT, -0.05);
      p.stick(at(-2, 0, 6), at(4.5, 0, 6), 0.35, M.WOOD, 0.1);
      break;
    case 'gun':
      box(at(0, 0, 6), [4.5, 0.9, 1.1], M.BODY);
      box(at(-3, 0, 4), [1, 0.8, 2.2], M.WOOD);
      break;
    case 'shield':
      p.ball(at(0.5, 0, 6), 6, M.BODY, 7, 0.05);
      p.ball(at(1.2, 0, 6), 4.4, M.ACCENT, 5.2, 0.1);
      p.stick(at(1.6, 0, 2), at(1.6, 0, 10), 0.8, M.GOLD, 0.2);
      break;
    case 'torch':
      p.stick(at(0, 0, 0), at(0, 0, 9), 0.8, M.BODY);
      p.ball(at(0, 0, 10.5), 2, M.GOLD, 2.6, 0.1);
      p.ball(at(0, 0, 11.5), 1.2, M.GLOW, 1.8, 0.2);
      break;
    case 'key':
      p.ball(at(0, 0, 10), 2.6, M.BODY, undefined, 0);
      p.ball(at(0.3, 0, 10), 1.1, M.EYE, undefined, 0.1);
      p.stick(at(0, 0, 7.6), at(0, 0, 0), 0.8, M.BODY);
      p.stick(at(0, 0, 1), at(0, 2, 1), 0.6, M.BODY);
      p.stick(at(0, 0, 3), at(0, 1.6, 3), 0.6, M.BODY);
      break;
    // ---- containers and vessels
    case 'chest': {
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
      break;
    }
    case 'cabinet':
      box(at(0, 0, 8), [3, 5, 8], M.BODY, M.TOP);
      p.stick(at(3.2, 0, 2), at(3.2, 0, 14.5), 0.3, M.DARK, 0.2);
      p.ball(at(3.4, -1, 8), 0.5, M.GOLD, undefined, 0.3);
      p.ball(at(3.4, 1, 8), 0.5, M.GOLD, undefined, 0.3);
      break;
    case 'barrel':
      // squat and bellied: wider in the middle than at the ends
      p.stick(at(0, 0, 3), at(0, 0, 9.5), 4.3 + v[0] * 0.2, M.BODY);
      p.ball(at(0, 0, 6.2), 5.2, M.BODY, 4.2, 0.01);
      p.ball(at(0, 0, 13.2), 4, M.TOP, 1.2, 0.2);
      for (const h of [2.6, 10]) p.ball(at(0, 0, h), 4.6, M.DARK, 0.9, -0.05);
      break;
    case 'bag':
      p.ball(at(0, 0, 4.5), 5 + v[0] * 0.4, M.BODY, 4.8, 0);
      p.stick(at(0, 0, 8.5), at(0, 0, 11), 1.4, M.BODY, 0.1);
      p.stick(at(0, -1.8, 9.2), at(0, 1.8, 9.2), 0.6, M.DARK, 0.2);
      break;
    case 'bottle':
      p.stick(at(0, 0, 1.5), at(0, 0, 9), 3.2, M.LIGHT, -10);
      p.stick(at(0, 0, 1.8), at(0, 0, 7), 2.8, M.BODY, -9);
      p.stick(at(0, 0, 9), at(0, 0, 13), 1.2, M.LIGHT, -8);
      p.stick(at(0, 0, 13), at(0, 0, 14.5), 1.4, M.WOOD, -7);
      break;
    case 'potion':
      p.ball(at(0, 0, 4.6), 4.5 + v[0] * 0.3, M.LIGHT, undefined, -10);
      p.ball(at(0, 0, 4.5), 4.2 + v[0] * 0.3, M.BODY, 4.3, -9);
      p.stick(at(0, 0, 8.5), at(0, 0, 11.5), 1.6, M.LIGHT, -8);
      p.stick(at(0, 0, 11.5), at(0, 0, 13), 1.8, M.WOOD, -7);
      p.ball(at(0, -1.6, 6.4), 0.9, M.LIGHT, undefined, -6);
      break;
    case 'cup':
      p.stick(at(0, 0, 1.5), at(0, 0, 8), 3.4, M.BODY);
      p.ball(at(0, 0, 9.4), 3.3, M.DARK, 1, 0.1);
      p.stick(at(0, 3.6, 3.2), at(0, 5, 6.5), 0.8, M.BODY, -0.1);
      break;
    // ---- food
    case 'fruit':
      p.ball(at(0, 0, 4.5), 4.6 + v[0] * 0.4, M.BODY, 4.2, 0);
      p.stick(at(0, 0, 8.2), at(-0.6, 0, 10.2), 0.5, M.WOOD, 0.1);
      p.poly([at(-0.4, 0, 9.5), at(0.6, 2.8, 10.8), at(0.2, 0.6, 9)], M.ACCENT, 0.2);
      p.ball(at(2, -1.8, 6.5), 0.9, M.LIGHT, undefined, 0.3);
      break;
    case 'bread':
      p.stick(at(0, -4, 3), at(0, 4, 3), 3.2 + v[0] * 0.2, M.BODY);
      for (const s of [-2.4, 0, 2.4]) p.stick(at(0.6, s - 0.6, 5.6), at(1.6, s + 0.6, 5.4), 0.4, M.TOP, 0.2);
      break;
    case 'cake':
      p.stick(at(0, 0, 1.5), at(0, 0, 5), 5.5, M.BODY2);
      p.stick(at(0, 0, 5), at(0, 0, 7), 5.6, M.BODY, 0.1);
      p.ball(at(0, 0, 9.6), 1.3, M.ACCENT, undefined, 0.2);
      break;
    case 'meat':
      p.ball(at(0, 1.5, 5), 4.2, M.BODY, 3.6, 0);
      p.stick(at(0, -1.5, 4), at(0, -6, 2), 0.9, M.LIGHT, -0.1);
      p.ball(at(0, -6.4, 2.6), 1.1, M.LIGHT, undefined, -0.1);
      p.ball(at(0, -6.6, 1.4), 1.1, M.LIGHT, undefined, -0.1);
      break;
    case 'cheese':
      p.poly([at(-3, -5, 1), at(3, -5, 1), at(3, 5, 1), at(-3, 5, 1)], M.BODY2);
      p.poly([at(3, -5, 1), at(3, 5, 1), at(0, 5, 6), at(0, -5, 6)], M.BODY, 0.1);
      p.poly([at(-3, -5, 1), at(0, -5, 6), at(0, 5, 6), at(-3, 5, 1)], M.BODY, 0.05);
      p.ball(at(2, -1.5, 3), 0.9, M.BODY2, undefined, 0.3);
      p.ball(at(2, 2, 2.2), 0.7, M.BODY2, undefined, 0.3);
      break;
    case 'bowl':
      p.ball(at(0, 0, 3.5), 6, M.BODY2, 3.4, 0);
      p.ball(at(0, 0, 6), 5, M.BODY, 1.8, 0.1);
      break;
    // ---- gems and trinkets
    case 'gem':
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
      break;
    case 'coin': {
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
      break;
    }
    case 'ring':
      for (let i = 0; i < 10; i++) {
        const a = (i / 10) * Math.PI * 2;
        p.ball(at(0, Math.cos(a) * 4, 5 + Math.sin(a) * 4), 1, M.BODY, undefined, 0);
      }
      p.ball(at(0.5, 0, 9.5), 1.8, M.ACCENT, undefined, 0.2);
      break;
    case 'crown':
      p.stick(at(0, -4.5, 2), at(0, 4.5, 2), 2, M.BODY);
      for (const s of [-4, 0, 4])
        p.poly([at(0.3, s - 1.4, 3.5), at(0.3, s + 1.4, 3.5), at(0.3, s, 7.5)], M.BODY, 0.1);
      p.ball(at(1.6, 0, 2.2), 1, M.ACCENT, undefined, 0.3);
      break;
    case 'book':
      box(at(0, 0, 1.5), [4.5, 3.5, 1.5], M.LIGHT, M.BODY);
      box(at(0, 0, 3.2), [4.6, 3.6, 0.3], M.BODY, M.BODY, 0.1);
      box(at(0, -3.6, 1.6), [4.6, 0.3, 1.8], M.BODY, M.BODY, 0.1);
      break;
    case 'scroll':
      p.stick(at(0, -4.5, 4), at(0, 4.5, 4), 2.6, M.BODY);
      p.stick(at(0, -5.5, 4), at(0, 5.5, 4), 0.8, M.WOOD, -0.1);
      p.stick(at(0.2, -2, 4.6), at(0.2, 2, 4.6), 0.3, M.ACCENT, 0.2);
      break;
    case 'lamp':
      box(at(0, 0, 1), [2.6, 2.6, 0.8], M.BODY, M.BODY);
      p.ball(at(0, 0, 5), 2.4, M.GLOW, 3, 0.1);
      for (const s of [-2, 2]) p.stick(at(2, s, 1.5), at(2, s, 8.5), 0.4, M.BODY, 0.2);
      box(at(0, 0, 9), [2.8, 2.8, 0.7], M.BODY, M.BODY, 0.2);
      p.stick(at(0, 0, 9.7), at(0, 0, 11.5), 0.5, M.BODY, 0.2);
      break;
    case 'candle':
      p.stick(at(0, 0, 1), at(0, 0, 8), 1.8, M.BODY);
      p.ball(at(0, 0, 10), 1.1, M.GLOW, 1.8 + Math.sin(t) * 0.3, 0.2);
      box(at(0, 0, 0.5), [3, 3, 0.5], M.GOLD, M.GOLD, -0.1);
      break;
    // ---- wearables
    case 'hat':
      p.ball(at(0, 0, 2), 6, M.BODY, 1.6, 0);
      p.ball(at(0, 0, 4.5), 3.8, M.BODY, 3.4, 0.1);
      p.ball(at(0, 0, 3.4), 3.9, M.ACCENT, 0.9, 0.05);
      break;
    case 'garment':
      p.stick(at(0, 0, 3), at(0, 0, 10), 3.6, M.BODY);
      for (const side of [-1, 1]) p.stick(at(0, side * 3.6, 10), at(0, side * 7, 5.5), 1.4, M.BODY, -0.05);
      p.ball(at(2.8, 0, 10.5), 1.4, M.DARK, undefined, 0.2);
      break;
    case 'boot':
      p.stick(at(0, 0, 2), at(0, 0, 9), 2.2, M.BODY);
      p.stick(at(0, 0, 1.6), at(4, 0, 1.6), 1.8, M.BODY, 0.1);
      p.ball(at(0, 0, 9.3), 2.4, M.DARK, 0.9, 0.2);
      break;
    // ---- plants and rocks
    case 'tree':
      p.stick(at(0, 0, 0), at(0, 0, 10), 1.6 + v[0] * 0.2, M.WOOD);
      p.ball(at(0, 0, 14), 7 + v[1] * 0.6, M.BODY, 6, 0.1);
      p.ball(at(0.5, -3, 12), 4.5, M.BODY, undefined, 0.12);
      p.ball(at(0.5, 3, 12.5), 4.5, M.BODY, undefined, 0.12);
      p.ball(at(0.5, -1, 17.5), 3.6, M.BODY, undefined, 0.14);
      break;
    case 'bush':
      for (const [s, u, r] of [
        [-3.5, 3, 3.6],
        [3.5, 3, 3.6],
        [0, 5, 4.6],
      ] as const)
        p.ball(at(0, s, u), r + v[0] * 0.3, M.BODY, undefined, u * 0.01);
      break;
    case 'flower':
      p.stick(at(0, 0, 0), at(0, 0, 9), 0.5, M.ACCENT);
      p.poly([at(0, 0, 3), at(0, 3, 5.5), at(0, 0.6, 5)], M.ACCENT, 0.05);
      for (let i = 0; i < 6; i++) {
        const a = (i / 6) * Math.PI * 2;
        p.ball(at(0.2, Math.cos(a) * 2.4, 11 + Math.sin(a) * 2.4), 1.7, M.BODY, undefined, 0.1);
      }
      p.ball(at(0.6, 0, 11), 1.4, M.GOLD, undefined, 0.2);
      break;
    case 'mushroom':
      p.stick(at(0, 0, 0), at(0, 0, 6), 1.8, M.LIGHT);
      p.ball(at(0, 0, 7.5), 6 + v[0] * 0.4, M.BODY, 3.6, 0.1);
      for (const [s, u] of [
        [-2.5, 9],
        [2, 9.8],
        [0, 10.4],
      ] as const)
        p.ball(at(2, s, u), 0.9, M.LIGHT, undefined, 0.2);
      break;
    case 'cactus':
      p.stick(at(0, 0, 0), at(0, 0, 14), 2.4, M.BODY);
      p.stick(at(0, -2, 6), at(0, -5, 7), 1.3, M.BODY, -0.05);
      p.stick(at(0, -5, 7), at(0, -5, 11), 1.3, M.BODY, -0.05);
      p.stick(at(0, 2, 8), at(0, 4.5, 9), 1.2, M.BODY, -0.05);
      p.stick(at(0, 4.5, 9), at(0, 4.5, 12), 1.2, M.BODY, -0.05);
      break;
    case 'rock':
      p.ball(at(0, -1, 3.5), 5.5 + v[0] * 0.5, M.BODY, 3.8, 0);
      p.ball(at(0.6, 2.4, 2.6), 3.6, M.BODY, 2.8, 0.05);
      p.ball(at(0.4, -0.5, 6), 3, M.TOP, 2.2, 0.1);
      break;
    // ---- furniture
    case 'chair':
      for (const [f, s] of [
        [-2, -2],
        [2, -2],
        [-2, 2],
        [2, 2],
      ] as const)
        p.stick(at(f, s, 0), at(f, s, 5), 0.6, M.BODY);
      box(at(0, 0, 5.5), [2.8, 2.8, 0.6], M.BODY, M.TOP, 0.1);
      box(at(-2.4, 0, 10), [0.5, 2.8, 4], M.BODY, M.TOP, 0.05);
      break;
    case 'table':
      for (const [f, s] of [
        [-3, -5],
        [3, -5],
        [-3, 5],
        [3, 5],
      ] as const)
        p.stick(at(f, s, 0), at(f, s, 6), 0.7, M.BODY);
      box(at(0, 0, 6.6), [4, 6.5, 0.7], M.BODY, M.TOP, 0.1);
      break;
    case 'bed':
      box(at(0, 0, 2.5), [6, 4, 1.5], M.WOOD, M.WOOD);
      box(at(0.5, 0, 4.3), [5.5, 3.8, 0.6], M.BODY, M.BODY, 0.1);
      box(at(-4.2, 0, 4.6), [1.2, 2.8, 0.6], M.LIGHT, M.LIGHT, 0.15);
      box(at(-6, 0, 5.5), [0.6, 4, 3.5], M.WOOD, M.WOOD, 0.05);
      break;
    // ---- buildings
    case 'hut':
      p.stick(at(0, 0, 0), at(0, 0, 6), 5.5, M.BODY);
      for (let i = 0; i < 5; i++) p.ball(at(0, 0, 7 + i * 1.7), 8.5 - i * 1.9, M.STRAW, 1.8, 0.1 + i * 0.01);
      p.box(at(5, 0, 2.3), [0.3, 1.3, 2.3], M.DARK, M.DARK, facing, 0.2);
      break;
    case 'house':
    case 'temple': {
      const w = kind === 'temple' ? 7 : 5.5;
      box(at(0, 0, 4.5), [w - 1, w, 4.5], M.BODY, M.BODY);
      const roof = kind === 'temple' ? M.TOP : M.ACCENT;
      p.poly([at(-w, -w - 0.8, 9), at(-w, w + 0.8, 9), at(0, w + 0.8, 14), at(0, -w - 0.8, 14)], roof, 0.1);
      p.poly([at(w, -w - 0.8, 9), at(w, w + 0.8, 9), at(0, w + 0.8, 14), at(0, -w - 0.8, 14)], roof, 0.12);
      p.box(at(w - 0.9, 0, 2.2), [0.3, 1.3, 2.2], M.DARK, M.DARK, facing, 0.2);
      p.box(at(w - 0.9, -3.2, 5.5), [0.3, 1, 1], M.GLOW, M.GLOW, facing, 0.2);
      p.box(at(0, w - 0.1, 5.5), [1, 0.3, 1], M.GLOW, M.GLOW, facing, 0.2);
      break;
    }
    case 'tower':
      p.stick(at(0, 0, 0), at(0, 0, 16), 4, M.BODY);
      p.ball(at(0, 0, 17), 5, M.TOP, 1.4, 0.1);
      if (sh[1]! > -0.3)
        for (let i = 0; i < 4; i++)
          p.ball(at(0, 0, 20 + i * 1.6), 4 - i, M.ACCENT, undefined, 0.2 + i * 0.01);
      else
        for (let i = 0; i < 4; i++)
          p.box(at(0, (i - 1.5) * 2.6, 18.8), [0.8, 0.8, 1.2], M.BODY, M.TOP, facing, 0.2);
      p.ball(at(3.6, 0, 11), 0.9, M.EYE, 1.4, 0.3);
      break;
    case 'castle':
      box(at(0, 0, 4.5), [4, 7, 4.5], M.BODY, M.TOP);
      for (const s of [-7, 7]) {
        p.stick(at(0, s, 0), at(0, s, 12), 2.6, M.BODY, 0.1);
        p.ball(at(0, s, 13.5), 2.4, M.ACCENT, 3, 0.15);
      }
      for (const s of [-4, -1.5, 1, 3.5]) p.box(at(3, s, 9.7), [0.8, 0.7, 0.7], M.BODY, M.TOP, facing, 0.05);
      p.ball(at(4.2, 0, 2.5), 2.2, M.DARK, 2.6, 0.2);
      break;
    case 'tent':
      p.poly([at(-5, -6, 0), at(-5, 6, 0), at(0, 6, 9), at(0, -6, 9)], M.BODY, 0.1);
      p.poly([at(5, -6, 0), at(5, 6, 0), at(0, 6, 9), at(0, -6, 9)], M.BODY, 0.12);
      p.poly([at(4.8, -1.5, 0), at(4.8, 1.5, 0), at(1, 0, 7)], M.DARK, 0.2);
      break;
    // ---- vehicles
    case 'car':
    case 'cart':
    case 'train': {
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
      break;
    }
    case 'bike':
      for (const f of [-4, 4]) {
        p.ball(at(f, 0, 3.2), 3.2, M.DARK, undefined, 0);
        p.ball(at(f, 0, 3.2), 2.2, M.LIGHT, undefined, 0.01);
      }
      p.stick(at(-4, 0, 3.2), at(0, 0, 7), 0.5, M.BODY, 0.1);
      p.stick(at(0, 0, 7), at(4, 0, 3.2), 0.5, M.BODY, 0.1);
      p.stick(at(3, 0, 8.5), at(3, 0, 6), 0.5, M.BODY, 0.1);
      p.stick(at(3, -2, 8.5), at(3, 2, 8.5), 0.5, M.DARK, 0.1);
      break;
    case 'boat':
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
      break;
    case 'plane':
      p.stick(at(-7, 0, 6), at(7, 0, 6), 2.2, M.BODY);
      box(at(0.5, 0, 6), [1.6, 8.5, 0.4], M.BODY, M.TOP, 0.1);
      p.poly([at(-7, 0, 6.5), at(-8, 0, 11), at(-5.5, 0, 7)], M.ACCENT, 0.05);
      p.ball(at(4, 0, 7.6), 1.4, M.LIGHT, 1, 0.2);
      break;
    case 'rocket':
      p.stick(at(0, 0, 3), at(0, 0, 15), 2.8, M.BODY);
      for (let i = 0; i < 3; i++) p.ball(at(0, 0, 16.5 + i * 1.5), 2.6 - i * 0.8, M.ACCENT, undefined, 0.1);
      for (const s of [-1, 1])
        p.poly([at(0, s * 2.5, 6), at(0, s * 5, 1), at(0, s * 2.5, 2)], M.ACCENT, 0.05);
      p.ball(at(2.4, 0, 11), 1.2, M.LIGHT, undefined, 0.2);
      p.ball(at(0, 0, 1), 1.6, M.GLOW, 2 + Math.sin(t), 0.2);
      break;
    default:
      p.ball(at(0, 0, 5), 5, M.BODY);
  }
  return p;
}

const LEANING = new Set(['blade', 'axe', 'hammer', 'spear', 'staff', 'torch', 'key', 'bow']);

/** Objects that stand on the ground rather than float as a pickup. */
const GROUNDED = new Set([
  'tree',
  'bush',
  'flower',
  'mushroom',
  'cactus',
  'rock',
  'chair',
  'table',
  'bed',
  'cabinet',
  'house',
  'hut',
  'temple',
  'tower',
  'castle',
  'tent',
  'car',
  'cart',
  'train',
  'bike',
  'boat',
  'barrel',
  'chest',
  'lamp',
  'candle',
]);
