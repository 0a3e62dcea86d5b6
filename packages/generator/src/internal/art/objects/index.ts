import { type Build, M, Parts, type Pose, type V3 } from '../bodies/common.js';
import { BUILDINGS } from './buildings.js';
import { HELD } from './held.js';
import type { ObjectKit, ObjectTable } from './kit.js';
import { PLANTS } from './plants.js';
import { TRINKETS } from './trinkets.js';
import { VEHICLES } from './vehicles.js';
import { VESSELS } from './vessels.js';

/**
 * Objects by class: held weapons and tools, containers and vessels, food, gems and trinkets, plants
 * and rocks, furniture, buildings and vehicles. Each is built from the same 3D parts as the bodies,
 * so it turns with the facing. Small items float and bob; big things stand on the ground. Each family's
 * builders live in their own file (held.ts, vessels.ts, trinkets.ts, plants.ts, buildings.ts, vehicles.ts);
 * a kind none of them names is a plain ball.
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
  const kit: ObjectKit = {
    p,
    at,
    box,
    v: b.vary,
    sh: b.shape,
    F: b.features,
    t,
    pose,
    facing,
    kind,
  };
  const build = Object.hasOwn(OBJECTS, kind) ? OBJECTS[kind] : undefined;
  if (build) build(kit);
  else p.ball(at(0, 0, 5), 5, M.BODY);
  return p;
}

/** Every object kind with its own parts, by family. */
const OBJECTS: ObjectTable = { ...HELD, ...VESSELS, ...TRINKETS, ...PLANTS, ...BUILDINGS, ...VEHICLES };

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
