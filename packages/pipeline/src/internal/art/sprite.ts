import type { Rgb } from '../../palette.js';
import type { ResolvedStyle } from '../../style.js';
import type { Directions, RgbaImage } from '../../types.js';
import type { Rng } from '../random.js';
import { Grid, gridFor, type Material, type Painter, type Ramp, shadeGrid, upscale } from './canvas.js';

export const DIRECTION_NAMES: Readonly<Record<Directions, readonly string[]>> = {
  1: ['down'],
  4: ['down', 'left', 'right', 'up'],
  8: ['down', 'down_left', 'left', 'up_left', 'up', 'up_right', 'right', 'down_right'],
};

export interface SpriteJob {
  rng: Rng;
  style: ResolvedStyle;
  painter: Painter;
  /** Lower-cased raw prompt and tags, for subject keywords. */
  text: string;
  width: number;
  height: number;
  directions: Directions;
  framesPerDirection: number;
  /** idle for the sprite asset type, a motion cycle for animation. */
  animate: 'idle' | 'motion';
}

export interface SpriteOutput {
  frames: RgbaImage[];
  subject: string;
  motion: string;
}

interface View {
  /** facing: -1 left … 1 right (after mirroring we only draw left-facing sides) */
  fx: number;
  /** 1 towards the viewer, -1 away, 0 side */
  fy: number;
  mirror: boolean;
}

function viewOf(direction: string): View {
  switch (direction) {
    case 'left':
      return { fx: -1, fy: 0, mirror: false };
    case 'right':
      return { fx: -1, fy: 0, mirror: true };
    case 'up':
      return { fx: 0, fy: -1, mirror: false };
    case 'down_left':
      return { fx: -0.5, fy: 1, mirror: false };
    case 'down_right':
      return { fx: -0.5, fy: 1, mirror: true };
    case 'up_left':
      return { fx: -0.5, fy: -1, mirror: false };
    case 'up_right':
      return { fx: -0.5, fy: -1, mirror: true };
    default:
      return { fx: 0, fy: 1, mirror: false };
  }
}

const KNIGHT = [
  'knight',
  'warrior',
  'soldier',
  'paladin',
  'guard',
  'armor',
  'armour',
  '骑士',
  '战士',
  '士兵',
];
const MAGE = ['mage', 'wizard', 'witch', 'sorcer', 'magician', 'priest', 'cleric', '法师', '巫', '魔法'];
const ROBOT = ['robot', 'android', 'mech', 'cyborg', 'droid', '机器人', '机甲'];
const ROGUE = [
  'archer',
  'ranger',
  'rogue',
  'thief',
  'hunter',
  'ninja',
  'assassin',
  '弓',
  '盗贼',
  '忍者',
  '刺客',
];
const HERO = [
  'hero',
  'villager',
  'adventurer',
  'player',
  'character',
  'npc',
  'girl',
  'boy',
  'man',
  'woman',
  '勇者',
  '角色',
  '村民',
  '人',
];
const SLIME = ['slime', 'blob', 'jelly', 'ooze', '史莱姆', '果冻'];
const GHOST = ['ghost', 'spirit', 'phantom', 'specter', 'spectre', '幽灵', '鬼'];
const MONSTER = [
  'monster',
  'beast',
  'dragon',
  'bat',
  'bug',
  'alien',
  'demon',
  'creature',
  'crab',
  'spider',
  'enemy',
  '怪',
  '龙',
  '兽',
  '虫',
];
const POTION = ['potion', 'bottle', 'flask', 'elixir', '药水', '药瓶'];
const SWORD = ['sword', 'blade', 'dagger', 'katana', '剑', '刀'];
const GEM = ['gem', 'crystal', 'jewel', 'diamond', 'ruby', 'emerald', '宝石', '水晶'];
const COIN = ['coin', 'gold', 'money', '金币', '硬币'];
const SHIELD = ['shield', '盾'];

type Subject =
  | 'knight'
  | 'mage'
  | 'robot'
  | 'rogue'
  | 'hero'
  | 'slime'
  | 'ghost'
  | 'monster'
  | 'potion'
  | 'sword'
  | 'gem'
  | 'coin'
  | 'shield';

export function subjectOf(text: string, rng: Rng): Subject {
  const table: Array<[Subject, readonly string[]]> = [
    ['knight', KNIGHT],
    ['mage', MAGE],
    ['robot', ROBOT],
    ['rogue', ROGUE],
    ['slime', SLIME],
    ['ghost', GHOST],
    ['monster', MONSTER],
    ['potion', POTION],
    ['sword', SWORD],
    ['gem', GEM],
    ['coin', COIN],
    ['shield', SHIELD],
    ['hero', HERO],
  ];
  let best: Subject | null = null;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const [subject, words] of table) {
    for (const w of words) {
      const at = text.indexOf(w);
      if (at >= 0 && at < bestAt) {
        bestAt = at;
        best = subject;
      }
    }
  }
  if (best) return best;
  return rng.pick<Subject>([
    'hero',
    'knight',
    'mage',
    'rogue',
    'robot',
    'slime',
    'monster',
    'ghost',
    'potion',
    'gem',
  ]);
}

function hsv(h: number, s: number, v: number): Rgb {
  const f = (n: number) => {
    const k = (n + h * 6) % 6;
    return Math.round(255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

/** Draws every frame (direction-major) for the sprite and animation asset types. */
export function drawSpriteFrames(job: SpriteJob): SpriteOutput {
  const subject = subjectOf(job.text, job.rng);
  const { gw, gh, factor } = gridFor(job.width, job.height, job.style.gridHint);
  const names = DIRECTION_NAMES[job.directions];
  const kind = ['potion', 'sword', 'gem', 'coin', 'shield'].includes(subject)
    ? 'item'
    : ['slime', 'ghost', 'monster'].includes(subject)
      ? 'creature'
      : 'character';
  const motion =
    job.animate === 'idle'
      ? 'idle'
      : kind === 'character'
        ? 'walk'
        : subject === 'slime'
          ? 'hop'
          : subject === 'coin'
            ? 'spin'
            : kind === 'item'
              ? 'float'
              : 'move';
  const draw = makeDrawer(subject, job, gw, gh);
  const frames: RgbaImage[] = [];
  const fpd = job.framesPerDirection;
  for (const name of names) {
    const view = viewOf(name);
    for (let f = 0; f < fpd; f++) {
      // a quarter-step offset keeps two-frame cycles from landing on the two identical zero crossings
      const phase = fpd > 1 ? (f + 0.25) / fpd : 0;
      const grid = new Grid(gw, gh);
      draw.paint(grid, view, phase, job.animate === 'idle', f, fpd);
      if (view.mirror) flipGrid(grid);
      const rgba = shadeGrid(grid, draw.materials, job.style);
      frames.push(upscale(rgba, gw, gh, factor, job.width, job.height));
    }
  }
  return { frames, subject, motion };
}

function flipGrid(grid: Grid): void {
  for (let y = 0; y < grid.h; y++) {
    const row = grid.mat.subarray(y * grid.w, (y + 1) * grid.w);
    row.reverse();
  }
}

interface Drawer {
  materials: Material[];
  paint(grid: Grid, view: View, phase: number, idle: boolean, frame: number, fpd: number): void;
}

function makeDrawer(subject: Subject, job: SpriteJob, gw: number, gh: number): Drawer {
  switch (subject) {
    case 'slime':
    case 'ghost':
      return blobDrawer(subject, job, gw, gh);
    case 'monster':
      return monsterDrawer(job, gw, gh);
    case 'potion':
    case 'sword':
    case 'gem':
    case 'coin':
    case 'shield':
      return itemDrawer(subject, job, gw, gh);
    default:
      return humanoidDrawer(subject, job, gw, gh);
  }
}

function materialSet(painter: Painter, targets: ReadonlyArray<[Rgb, Partial<Material>?]>): Material[] {
  const used: Rgb[] = [];
  return targets.map(([t, extra]) => {
    const ramp: Ramp = painter.ramp(t, used);
    used.push(ramp.base);
    return { ramp, ...extra };
  });
}

const flatRamp = (c: Rgb): Ramp => ({ shadow: c, dark: c, base: c, light: c, outline: c });

// material slots for humanoids
const SKIN = 1;
const HAIR = 2;
const TUNIC = 3;
const PANTS = 4;
const BOOTS = 5;
const EYE = 6;
const ACCENT = 7;
const METAL = 8;
const HAT = 9;
const WOOD = 10;
const GLOW = 11;

function humanoidDrawer(subject: Subject, job: SpriteJob, gw: number, gh: number): Drawer {
  const { rng, painter } = job;
  const hue = rng.next();
  const skinTones: Rgb[] = [
    [240, 190, 150],
    [222, 160, 120],
    [180, 120, 85],
    [130, 85, 60],
  ];
  const robot = subject === 'robot';
  const tunic = hsv(
    subject === 'mage' ? 0.62 + rng.range(-0.12, 0.2) : hue,
    rng.range(0.5, 0.8),
    rng.range(0.55, 0.8),
  );
  const materials = materialSet(painter, [
    [robot ? [160, 170, 185] : rng.pick(skinTones)],
    [hsv(rng.pick([0.08, 0.1, 0.05, 0.12, 0.95, 0.6]), rng.range(0.4, 0.8), rng.range(0.25, 0.8))],
    [robot ? [95, 110, 140] : subject === 'knight' ? [150, 160, 175] : tunic],
    [robot ? [70, 80, 100] : hsv((hue + 0.5) % 1, 0.35, 0.4)],
    [[90, 60, 45]],
    [painter.darkest],
    [hsv((hue + 0.15) % 1, 0.7, 0.85)],
    [[175, 185, 200], { shiny: true }],
    [subject === 'mage' ? tunic : subject === 'rogue' ? hsv(0.3, 0.45, 0.4) : [150, 160, 175]],
    [[130, 90, 55]],
    [hsv(rng.next(), 0.8, 1), { flat: true }],
  ]);
  materials[EYE - 1] = { ramp: flatRamp(painter.darkest), flat: true };
  if (robot) materials[EYE - 1] = { ramp: flatRamp(materials[GLOW - 1]!.ramp.base), flat: true };
  const u = Math.min(gw, gh) / 36;
  const headR = rng.range(5.6, 6.6) * u;
  const torsoW = rng.range(8.5, 10.5) * u;
  const torsoH = rng.range(6.5, 8) * u;
  const legL = rng.range(5.5, 7) * u;
  const hairStyle = rng.pick(['short', 'long', 'spiky', 'bob']);
  const hasCape = subject === 'knight' ? rng.chance(0.6) : subject === 'rogue';
  const weapon =
    subject === 'knight' ? 'sword' : subject === 'mage' ? 'staff' : subject === 'rogue' ? 'dagger' : 'none';
  return {
    materials,
    paint(g, view, phase, idle, frame, fpd) {
      const cx = gw / 2;
      const ground = gh - 1.5 * u;
      const s = Math.sin(phase * Math.PI * 2);
      const bob = idle && fpd > 1 && phase >= 0.5 ? Math.max(1, Math.round(u)) : 0;
      const walkBob = idle ? 0 : Math.round(Math.abs(Math.cos(phase * Math.PI * 2)) * u) * -1;
      const dy = bob + walkBob;
      const hipY = ground - legL + dy * 0.3;
      const torsoTop = hipY - torsoH + dy;
      const headCy = torsoTop - headR * 0.72 + dy * 0.2;
      const side = view.fy === 0;
      const back = view.fy < 0;
      const bodyW = side ? torsoW * 0.68 : torsoW;
      const legR = 1.5 * u;
      const armR = 1.35 * u;
      // cape behind everything when seen from the front, over the body from the back
      const cape = () =>
        g.polygon(
          [
            [cx - bodyW * 0.45, torsoTop + u],
            [cx + bodyW * 0.45, torsoTop + u],
            [cx + bodyW * 0.62 + s * u, ground - 2 * u],
            [cx - bodyW * 0.62 + s * u, ground - 2 * u],
          ],
          ACCENT,
        );
      if (hasCape && !back) cape();
      // legs
      if (side) {
        const swing = idle ? 0 : s * 3 * u;
        g.capsule(cx - swing, hipY, cx - swing * 1.2, ground - legR, legR, PANTS);
        g.capsule(cx + swing, hipY, cx + swing * 1.2, ground - legR, legR, PANTS);
        g.rect(
          cx - swing * 1.2 - 2.2 * u,
          ground - 1.6 * u,
          cx - swing * 1.2 + 1.2 * u,
          ground + 0.4 * u,
          BOOTS,
        );
        g.rect(
          cx + swing * 1.2 - 2.2 * u,
          ground - 1.6 * u,
          cx + swing * 1.2 + 1.2 * u,
          ground + 0.4 * u,
          BOOTS,
        );
      } else {
        const lift = idle ? 0 : Math.max(0, s) * 2 * u;
        const lift2 = idle ? 0 : Math.max(0, -s) * 2 * u;
        const lx = cx - bodyW * 0.24;
        const rx = cx + bodyW * 0.24;
        g.capsule(lx, hipY, lx, ground - legR - lift, legR, PANTS);
        g.capsule(rx, hipY, rx, ground - legR - lift2, legR, PANTS);
        g.rect(lx - 1.6 * u, ground - 1.8 * u - lift, lx + 1.6 * u, ground + 0.2 * u - lift, BOOTS);
        g.rect(rx - 1.6 * u, ground - 1.8 * u - lift2, rx + 1.6 * u, ground + 0.2 * u - lift2, BOOTS);
      }
      // arms (back arm first on the side view)
      const armSwing = idle ? 0 : s * 2.2 * u;
      const shoulderY = torsoTop + 1.4 * u;
      const handY = hipY + 0.5 * u;
      if (side)
        g.capsule(cx + 0.5 * u, shoulderY, cx + armSwing + 0.5 * u, handY, armR, robot ? METAL : TUNIC);
      // torso (robe reaches the ground for mages)
      const robe = subject === 'mage';
      const bottom = robe ? ground - 0.6 * u : hipY + u;
      g.polygon(
        [
          [cx - bodyW / 2 + u * 0.3, torsoTop],
          [cx + bodyW / 2 - u * 0.3, torsoTop],
          [cx + bodyW / 2 + (robe ? 1.4 * u : 0), bottom],
          [cx - bodyW / 2 - (robe ? 1.4 * u : 0), bottom],
        ],
        TUNIC,
      );
      if (!robe) g.rect(cx - bodyW / 2, hipY - 0.6 * u, cx + bodyW / 2, hipY + 0.6 * u, ACCENT);
      if (subject === 'knight' && !back) {
        g.rect(cx - bodyW * 0.18, torsoTop + 1.5 * u, cx + bodyW * 0.18, hipY - 1.2 * u, ACCENT);
      }
      if (hasCape && back) cape();
      // front arms
      if (side) {
        g.capsule(cx - 0.5 * u, shoulderY, cx - armSwing - 0.5 * u, handY, armR, robot ? METAL : TUNIC);
        g.ellipse(cx - armSwing - 0.5 * u, handY + 0.4 * u, armR, armR, SKIN);
      } else {
        g.capsule(
          cx - bodyW / 2 - 0.2 * u,
          shoulderY,
          cx - bodyW / 2 - u + armSwing * 0.3,
          handY,
          armR,
          robot ? METAL : TUNIC,
        );
        g.capsule(
          cx + bodyW / 2 + 0.2 * u,
          shoulderY,
          cx + bodyW / 2 + u - armSwing * 0.3,
          handY,
          armR,
          robot ? METAL : TUNIC,
        );
        g.ellipse(cx - bodyW / 2 - u + armSwing * 0.3, handY + 0.4 * u, armR, armR, SKIN);
        g.ellipse(cx + bodyW / 2 + u - armSwing * 0.3, handY + 0.4 * u, armR, armR, SKIN);
      }
      // weapon held in the hand on the viewer's right (front) or forward (side)
      if (weapon !== 'none' && !back) {
        const hx = side ? cx - armSwing - bodyW * 0.45 : cx + bodyW / 2 + u - armSwing * 0.3;
        const hy = handY + 0.4 * u;
        if (weapon === 'staff') {
          g.capsule(hx, hy + 4 * u, hx, hy - 10 * u, 0.7 * u, WOOD);
          g.ellipse(hx, hy - 11 * u, 1.6 * u, 1.6 * u, GLOW);
        } else {
          const len = weapon === 'sword' ? 9 * u : 5 * u;
          g.capsule(hx, hy - u, hx, hy - len, 0.8 * u, METAL);
          g.rect(hx - 1.8 * u, hy - 1.2 * u, hx + 1.8 * u, hy - 0.2 * u, WOOD);
        }
      }
      // head
      if (robot) {
        g.rect(cx - headR, headCy - headR * 0.85, cx + headR, headR * 0.85 + headCy, METAL);
        g.capsule(cx, headCy - headR * 0.85, cx, headCy - headR * 1.35, 0.5 * u, METAL);
        g.ellipse(cx, headCy - headR * 1.45, 1.1 * u, 1.1 * u, GLOW);
      } else {
        g.ellipse(cx, headCy, headR, headR * 0.95, SKIN);
      }
      // hair or headgear
      if (!robot) {
        if (subject === 'knight') {
          g.ellipse(cx, headCy - headR * 0.15, headR * 1.08, headR * 1.02, METAL);
          if (!back)
            g.rect(cx - headR * 0.75, headCy - headR * 0.05, cx + headR * 0.75, headCy + headR * 0.55, SKIN);
          g.rect(cx - 0.6 * u, headCy - headR * 1.4, cx + 0.6 * u, headCy - headR * 0.8, ACCENT);
        } else if (subject === 'rogue') {
          g.ellipse(cx, headCy - headR * 0.1, headR * 1.12, headR * 1.08, HAT);
          if (!back)
            g.ellipse(cx + view.fx * headR * 0.2, headCy + headR * 0.2, headR * 0.72, headR * 0.62, SKIN);
        } else {
          const top = headCy - headR * 0.35;
          g.ellipse(cx, top, headR * 1.05, headR * 0.72, HAIR);
          if (back) g.ellipse(cx, headCy + headR * 0.1, headR * 1.02, headR * 0.9, HAIR);
          if (hairStyle === 'long' || back)
            g.rect(cx - headR * 1.02, top, cx + headR * 1.02, headCy + headR * 0.9, HAIR);
          if (hairStyle === 'spiky' && subject !== 'mage') {
            for (let k = -2; k <= 2; k++) {
              g.polygon(
                [
                  [cx + k * headR * 0.38 - headR * 0.25, top - headR * 0.3],
                  [cx + k * headR * 0.38 + headR * 0.25, top - headR * 0.3],
                  [cx + k * headR * 0.45, top - headR * 0.95],
                ],
                HAIR,
              );
            }
          }
          if (hairStyle === 'bob')
            g.rect(cx - headR * 1.08, top, cx + headR * 1.08, headCy + headR * 0.35, HAIR);
          if (!back) {
            // face window
            g.ellipse(
              cx + view.fx * headR * 0.25,
              headCy + headR * 0.22,
              headR * (side ? 0.6 : 0.8),
              headR * 0.6,
              SKIN,
            );
          }
          if (side) g.ellipse(cx + headR * 0.45, headCy, headR * 0.6, headR * 0.85, HAIR);
        }
        if (subject === 'mage') {
          g.polygon(
            [
              [cx - headR * 1.45, headCy - headR * 0.45],
              [cx + headR * 1.45, headCy - headR * 0.45],
              [cx + headR * 0.4 + view.fx * u, headCy - headR * 1.9],
            ],
            HAT,
          );
          g.rect(cx - headR * 1.5, headCy - headR * 0.62, cx + headR * 1.5, headCy - headR * 0.3, ACCENT);
        }
      }
      // eyes
      if (!back) {
        const blink = idle && fpd >= 3 && frame === fpd - 1;
        const ey = headCy + headR * 0.18;
        const eh = blink ? 0.5 * u : 1.8 * u;
        const ew = Math.max(1, Math.round(u));
        const shift = view.fx * headR * 0.42;
        if (side) {
          g.rect(cx + shift - ew / 2 - 0.8 * u, ey - eh / 2, cx + shift + ew / 2 - 0.8 * u, ey + eh / 2, EYE);
        } else {
          for (const sx of [-1, 1]) {
            const ex = cx + shift + sx * headR * 0.38;
            g.rect(ex - ew / 2, ey - eh / 2, ex + ew / 2, ey + eh / 2, EYE);
          }
        }
      }
    },
  };
}

function blobDrawer(subject: 'slime' | 'ghost', job: SpriteJob, gw: number, gh: number): Drawer {
  const { rng, painter } = job;
  const body =
    subject === 'ghost'
      ? hsv(0.55 + rng.range(-0.05, 0.1), 0.12, 0.95)
      : hsv(rng.next(), rng.range(0.55, 0.8), 0.8);
  const materials = materialSet(painter, [[body, { shiny: true }], [painter.darkest], [painter.lightest]]);
  materials[1] = { ramp: flatRamp(painter.darkest), flat: true };
  materials[2] = { ramp: flatRamp(painter.lightest), flat: true };
  const u = Math.min(gw, gh) / 32;
  const rx0 = rng.range(10, 12) * u;
  const ry0 = rng.range(8, 10) * u;
  return {
    materials,
    paint(g, view, phase, idle) {
      const s = Math.sin(phase * Math.PI * 2);
      const cx = gw / 2;
      const ground = gh - 2 * u;
      let rx = rx0;
      let ry = ry0;
      let lift = 0;
      if (subject === 'slime') {
        const k = idle ? s * 0.06 : s * 0.16;
        rx = rx0 * (1 + k);
        ry = ry0 * (1 - k);
        lift = idle ? 0 : Math.max(0, -s) * 4 * u;
        const cy = ground - ry - lift;
        g.ellipse(cx, cy + ry * 0.25, rx, ry * 0.85, 1);
        g.ellipse(cx, cy, rx * 0.82, ry, 1);
        g.rect(cx - rx, cy + ry * 0.25, cx + rx, ground - lift, 1);
        if (view.fy >= 0) eyes(g, cx + view.fx * rx * 0.35, cy + ry * 0.05, rx * 0.32, u, 2, 3);
      } else {
        lift = (idle ? 1 : 2) * (s + 1) * u;
        const cy = gh * 0.45 - lift;
        g.ellipse(cx, cy, rx * 0.85, ry * 1.05, 1);
        g.rect(cx - rx * 0.85, cy, cx + rx * 0.85, cy + ry * 1.25, 1);
        const n = 4;
        for (let k = 0; k < n; k++) {
          const x0 = cx - rx * 0.85 + ((k + 0.5) * (rx * 1.7)) / n;
          const wob = Math.sin(phase * Math.PI * 2 + k) * u;
          g.ellipse(x0 + wob, cy + ry * 1.25, (rx * 1.7) / n / 2, 2 * u, 1);
        }
        if (view.fy >= 0) eyes(g, cx + view.fx * rx * 0.3, cy - ry * 0.05, rx * 0.3, u, 2, 3);
      }
    },
  };
}

function eyes(g: Grid, cx: number, cy: number, spread: number, u: number, dark: number, shine: number): void {
  for (const sx of [-1, 1]) {
    const ex = cx + sx * spread;
    g.rect(ex - u, cy - 1.6 * u, ex + u, cy + 1.6 * u, dark);
    g.rect(ex - u, cy - 1.6 * u, ex, cy - 0.6 * u, shine);
  }
}

const MONSTER_TEMPLATE = [
  '00000000',
  '00000112',
  '00001122',
  '00011222',
  '00112222',
  '01112222',
  '11122222',
  '01112222',
  '00112222',
  '00111222',
  '00110012',
  '00110001',
];

function monsterDrawer(job: SpriteJob, gw: number, gh: number): Drawer {
  const { rng, painter } = job;
  const rows = MONSTER_TEMPLATE.length;
  const half = 8;
  const mask: number[][] = MONSTER_TEMPLATE.map((row) =>
    [...row].map((c) => (c === '2' ? 1 : c === '1' ? (rng.chance(0.55) ? 1 : 0) : 0)),
  );
  // keep it in one piece: a cell survives only when it touches the body towards the centre
  for (let y = 0; y < rows; y++) {
    for (let x = half - 2; x >= 0; x--) {
      const r = mask[y]!;
      if (r[x] && !r[x + 1] && !(mask[y - 1]?.[x] ?? 0) && !(mask[y + 1]?.[x] ?? 0)) r[x] = 0;
    }
  }
  const body = hsv(rng.next(), rng.range(0.5, 0.75), rng.range(0.55, 0.8));
  const belly = hsv((rng.next() * 0.2 + 0.08) % 1, 0.35, 0.9);
  const materials = materialSet(painter, [
    [body],
    [belly],
    [painter.darkest],
    [painter.lightest],
    [[230, 230, 210]],
  ]);
  materials[2] = { ramp: flatRamp(painter.darkest), flat: true };
  materials[3] = { ramp: flatRamp(painter.lightest), flat: true };
  const u = Math.min(gw, gh) / 32;
  const cell = Math.max(1, Math.floor(Math.min(gw / (half * 2 + 2), gh / (rows + 3))));
  const eyeRow = rng.int(3, 5);
  const hornRow = rng.chance(0.5);
  return {
    materials,
    paint(g, view, phase, idle) {
      const s = Math.sin(phase * Math.PI * 2);
      const lift = Math.round((idle ? (s > 0 ? 1 : 0) : (s + 1) * 1.5) * u);
      const ox = Math.floor((gw - half * 2 * cell) / 2);
      const oy = gh - (rows + 1) * cell - lift;
      for (let y = 0; y < rows; y++) {
        for (let x = 0; x < half; x++) {
          if (!mask[y]![x]) continue;
          // legs (bottom two rows) step alternately
          const legShift = y >= rows - 2 && !idle ? Math.round(s * cell * 0.5) : 0;
          const m = y >= rows * 0.5 && x >= half - 3 && y < rows - 2 && view.fy >= 0 ? 2 : 1;
          g.rect(
            ox + x * cell,
            oy + y * cell + legShift,
            ox + (x + 1) * cell,
            oy + (y + 1) * cell + legShift,
            m,
          );
          const mx = half * 2 - 1 - x;
          g.rect(
            ox + mx * cell,
            oy + y * cell - legShift,
            ox + (mx + 1) * cell,
            oy + (y + 1) * cell - legShift,
            m,
          );
        }
      }
      if (hornRow) {
        for (const sx of [-1, 1]) {
          const hx = gw / 2 + sx * 3 * cell;
          g.polygon(
            [
              [hx - cell * 0.6, oy + 2 * cell],
              [hx + cell * 0.6, oy + 2 * cell],
              [hx + sx * cell, oy - cell * 0.5],
            ],
            5,
          );
        }
      }
      if (view.fy >= 0) {
        const ey = oy + eyeRow * cell + cell / 2;
        const shift = Math.round(view.fx * cell);
        eyes(g, gw / 2 + shift, ey, cell * 1.6, Math.max(1, cell / 2), 3, 4);
      }
    },
  };
}

function itemDrawer(
  subject: 'potion' | 'sword' | 'gem' | 'coin' | 'shield',
  job: SpriteJob,
  gw: number,
  gh: number,
): Drawer {
  const { rng, painter } = job;
  const hue = rng.next();
  const main: Rgb =
    subject === 'coin'
      ? [240, 200, 60]
      : subject === 'sword'
        ? [190, 200, 215]
        : subject === 'shield'
          ? hsv(hue, 0.6, 0.65)
          : hsv(hue, 0.75, 0.85);
  const materials = materialSet(painter, [
    [main, { shiny: true }],
    [[200, 225, 235], { shiny: true }],
    [[125, 85, 55]],
    [[235, 195, 70], { shiny: true }],
    [painter.lightest],
  ]);
  materials[4] = { ramp: flatRamp(painter.lightest), flat: true };
  const u = Math.min(gw, gh) / 32;
  return {
    materials,
    paint(g, view, phase, idle) {
      const s = Math.sin(phase * Math.PI * 2);
      const cx = gw / 2;
      // idle: a bob of at least one grid pixel, so an item's idle cycle moves at every resolution
      const lift = idle ? (s > 0 ? Math.max(1, Math.round(0.75 * u)) : 0) : Math.round(s * 1.5 * u);
      const cy = gh / 2 - lift;
      const facing = view.fy < 0 ? -1 : 1;
      switch (subject) {
        case 'potion':
          g.ellipse(cx, cy + 3 * u, 8 * u, 8 * u, 2);
          g.ellipse(cx, cy + 4.5 * u, 6.6 * u, 6.2 * u, 1);
          g.rect(cx - 2.5 * u, cy - 8 * u, cx + 2.5 * u, cy - 3 * u, 2);
          g.rect(cx - 3 * u, cy - 11 * u, cx + 3 * u, cy - 7.5 * u, 3);
          break;
        case 'sword': {
          g.polygon(
            [
              [cx - 9 * u, cy + 9 * u],
              [cx - 7 * u, cy + 11 * u],
              [cx + 11 * u, cy - 7 * u],
              [cx + 12 * u, cy - 12 * u],
              [cx + 7 * u, cy - 11 * u],
            ],
            2,
          );
          g.capsule(cx - 10 * u, cy + 4 * u, cx - 4 * u, cy + 10 * u, 1.3 * u, 4);
          g.capsule(cx - 8 * u, cy + 8 * u, cx - 12 * u, cy + 12 * u, 1.2 * u, 3);
          g.ellipse(cx - 12.5 * u, cy + 12.5 * u, 1.6 * u, 1.6 * u, 4);
          break;
        }
        case 'gem':
          g.polygon(
            [
              [cx - 9 * u, cy - 3 * u],
              [cx - 5 * u, cy - 9 * u],
              [cx + 5 * u, cy - 9 * u],
              [cx + 9 * u, cy - 3 * u],
              [cx, cy + 11 * u],
            ],
            1,
          );
          g.polygon(
            [
              [cx - 5 * u, cy - 3 * u],
              [cx + 5 * u, cy - 3 * u],
              [cx, cy + 8 * u],
            ],
            2,
          );
          break;
        case 'coin': {
          const squeeze = idle ? 1 : Math.max(0.45, Math.abs(Math.cos(phase * Math.PI)));
          g.ellipse(cx, cy, 10 * u * squeeze, 10 * u, 4);
          g.ellipse(cx, cy, 7 * u * squeeze, 7 * u, 1);
          if (squeeze > 0.5) g.rect(cx - u * squeeze, cy - 4 * u, cx + u * squeeze, cy + 4 * u, 4);
          break;
        }
        case 'shield':
          g.polygon(
            [
              [cx - 10 * u, cy - 10 * u],
              [cx + 10 * u, cy - 10 * u],
              [cx + 10 * u, cy],
              [cx, cy + 12 * u],
              [cx - 10 * u, cy],
            ],
            4,
          );
          g.polygon(
            [
              [cx - 8 * u, cy - 8 * u],
              [cx + 8 * u, cy - 8 * u],
              [cx + 8 * u, cy - 0.5 * u],
              [cx, cy + 9.5 * u],
              [cx - 8 * u, cy - 0.5 * u],
            ],
            facing > 0 ? 1 : 3,
          );
          if (facing > 0) g.rect(cx - 1.2 * u, cy - 8 * u, cx + 1.2 * u, cy + 8 * u, 4);
          break;
      }
      // travelling glint
      if (!idle || phase === 0) {
        const gx = cx + (phase - 0.5) * 12 * u;
        const gy = cy - 4 * u;
        if (g.get(Math.floor(gx), Math.floor(gy))) {
          g.set(gx, gy, 5);
          g.set(gx + 1, gy, 5);
          g.set(gx, gy - 1, 5);
        }
      }
    },
  };
}
