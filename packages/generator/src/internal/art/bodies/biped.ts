import type { Feature } from '@assetloom/pipeline/interpret';
import { type Build, eyes, FAR, farSide, M, Parts, type Pose, type V3, wing } from './common.js';

/** Which weapon a biped holds: the prompt's held item first, then the kind's own. */
function weaponOf(b: Build): string | null {
  const held = b.held;
  if (held) {
    if (/bow/.test(held)) return 'bow';
    if (/axe|ax$|hatchet/.test(held)) return 'axe';
    if (/hammer|mace|club/.test(held)) return 'club';
    if (/pitchfork|fork/.test(held)) return 'pitchfork';
    if (/spear|lance|pike|trident/.test(held)) return 'spear';
    if (/staff|wand|rod|scepter/.test(held)) return 'staff';
    if (/dagger|knife/.test(held)) return 'dagger';
    if (/shield/.test(held)) return 'shield';
    if (/gun|rifle|pistol/.test(held)) return 'gun';
    if (/cutlass|sabre|saber|scimitar/.test(held)) return 'cutlass';
    if (/katana|wakizashi|tachi/.test(held)) return 'katana';
    return 'sword';
  }
  for (const f of b.features) if (f.startsWith('weapon:')) return f.slice(7);
  return null;
}

/** The class a person or humanoid reads as: what they wear, from their kind and features. */
type Look =
  | 'plain'
  | 'knight'
  | 'mage'
  | 'priest'
  | 'archer'
  | 'rogue'
  | 'king'
  | 'pirate'
  | 'ninja'
  | 'samurai'
  | 'farmer'
  | 'chef'
  | 'astronaut'
  | 'skeleton'
  | 'zombie'
  | 'robot'
  | 'vampire'
  | 'creature';

function lookOf(b: Build): Look {
  const k = b.kind;
  const F = b.features;
  if (
    k === 'creature.robot' ||
    (F.has('armor') && b.spec.shiny && !F.has('hat:helmet') && !/^person/.test(k))
  )
    return 'robot';
  if (k === 'creature.skeleton') return 'skeleton';
  if (k === 'creature.zombie') return 'zombie';
  if (k === 'creature.vampire') return 'vampire';
  const byKind: Record<string, Look> = {
    'person.knight': 'knight',
    'person.mage': 'mage',
    'person.priest': 'priest',
    'person.archer': 'archer',
    'person.rogue': 'rogue',
    'person.king': 'king',
    'person.pirate': 'pirate',
    'person.ninja': 'ninja',
    'person.samurai': 'samurai',
    'person.farmer': 'farmer',
    'person.chef': 'chef',
    'person.astronaut': 'astronaut',
  };
  if (byKind[k]) return byKind[k]!;
  if (/^creature\.|^animal\./.test(k)) return 'creature';
  return 'plain';
}

/** The materials (M slots) a biped's outfit is drawn in. */
interface Outfit {
  shirt: number;
  sleeve: number;
  pants: number;
  boots: number;
  /** The hands: bare skin unless the class wears gloves, gauntlets or bones. */
  hands?: number;
  belt: number;
}

const PLAIN_OUTFIT: Outfit = { shirt: M.BODY, sleeve: M.BODY, pants: M.DARK, boots: M.WOOD, belt: M.WOOD };

/** Each class's outfit, over the plain one. */
const OUTFITS: Readonly<Record<Look, Partial<Outfit>>> = {
  plain: {},
  knight: { pants: M.BODY, boots: M.BODY, hands: M.BODY, belt: M.DARK },
  mage: { belt: M.GOLD },
  priest: { belt: M.GOLD },
  archer: { pants: M.WOOD, boots: M.DARK, belt: M.WOOD },
  rogue: { pants: M.BODY, boots: M.DARK, hands: M.DARK, belt: M.WOOD },
  king: { belt: M.GOLD },
  pirate: { shirt: M.LIGHT, sleeve: M.LIGHT, belt: M.BODY, boots: M.DARK },
  // one dark cloth from head to toe, wrapped shins, a red sash
  ninja: { pants: M.BODY, boots: M.DARK, hands: M.DARK, belt: M.ACCENT },
  // lacquered armour over dark hakama
  samurai: { pants: M.DARK, boots: M.DARK, hands: M.DARK, belt: M.GOLD },
  farmer: { shirt: M.ACCENT, sleeve: M.ACCENT, pants: M.BODY, belt: M.BODY },
  chef: { pants: M.DARK, boots: M.DARK, belt: M.LIGHT },
  astronaut: { pants: M.BODY, boots: M.BODY2, hands: M.BODY2, belt: M.ACCENT },
  skeleton: { shirt: M.BODY, sleeve: M.BODY, pants: M.BODY, boots: M.BODY, hands: M.BODY, belt: M.DARK },
  robot: { shirt: M.BODY, sleeve: M.BODY, pants: M.BODY, boots: M.DARK, hands: M.BODY, belt: M.DARK },
  // a pale face over dark clothes
  vampire: { hands: M.LIGHT, pants: M.BODY, boots: M.DARK, belt: M.DARK },
  zombie: { shirt: M.ACCENT, sleeve: M.BODY, pants: M.DARK, boots: M.DARK, hands: M.BODY },
  creature: { shirt: M.BODY, sleeve: M.BODY, pants: M.BODY, boots: M.BODY2, hands: M.BODY, belt: M.WOOD },
};

/** Classes whose armour or travelling clothes a woman wears instead of a dress. */
const NO_DRESS: readonly Look[] = [
  'knight',
  'rogue',
  'archer',
  'ninja',
  'samurai',
  'pirate',
  'astronaut',
  'creature',
];

/** What every piece of a biped is drawn from: the build, the pose, its proportions and its outfit. */
interface Body {
  p: Parts;
  b: Build;
  pose: Pose;
  F: Build['features'];
  look: Look;
  robot: boolean;
  bones: boolean;
  /** The side away from the viewer, and a material on a side (a shade darker on the far one). */
  far: number;
  shade: (side: number, m: number) => number;
  legL: number;
  torsoH: number;
  torsoR: number;
  headR: number;
  /** A thief's crouch, units. */
  crouch: number;
  hipU: number;
  shoulderU: number;
  lean: number;
  headC: V3;
  creatureSkin: boolean;
  skin: number;
  outfit: Required<Outfit>;
  /** A stable per-noun choice of an outfit piece for people whose kind states none (cape, robe, pack). */
  own: number;
  robe: boolean;
  cape: boolean;
  limbR: number;
}

/** The proportions of a biped in this pose, its class and its outfit. */
function bodyOf(b: Build, pose: Pose): Body {
  const F = b.features;
  const look = lookOf(b);
  const bones = look === 'skeleton';
  const heavy = F.has('heavy');
  const small = F.has('small');
  const sh = b.shape;
  const far = farSide(pose.facing);
  const legL = 5.6 + b.vary[0] * 0.3 + sh[0]! * 1.4 - (small ? 1 : 0) + (heavy ? 0.4 : 0);
  const torsoH = 5.6 + b.vary[1] * 0.3 + sh[1]! * 1.1 + (heavy ? 0.6 : 0);
  const torsoR = (heavy ? 3.6 : 2.9) + b.vary[2] * 0.15 + sh[2]! * 0.75;
  const headR =
    (bones ? 3.4 : small ? 4.3 : 4) + b.vary[3] * 0.15 + (bones ? 0 : sh[3]! * 0.6) - (heavy ? 0.2 : 0);
  // a thief stands in a crouch, feet apart, daggers out: a silhouette of its own
  const crouch = look === 'rogue' ? 1.2 : 0;
  const hipU = legL + pose.rise + pose.bob * 0.5 - crouch;
  const shoulderU = hipU + torsoH + pose.bob * 0.5;
  const lean = pose.lean * 4;
  const creatureSkin = look === 'creature' || look === 'zombie';
  const robot = look === 'robot';
  const skin = robot || bones ? M.BODY : creatureSkin ? M.BODY : look === 'vampire' ? M.LIGHT : M.SKIN;
  const outfit = { ...PLAIN_OUTFIT, hands: skin, ...OUTFITS[look] };
  // people and creatures whose kind states no outfit wear one of their own (stable per noun, so a
  // merchant is not a villager): a cape, a robe or a pack
  const own =
    (look === 'plain' || look === 'creature') && !F.has('robe') && !F.has('cape') && !F.has('male')
      ? sh[4]!
      : 0;
  // a woman's or a girl's dress, unless her class wears armour or travelling clothes
  const dress = F.has('female') && !NO_DRESS.includes(look);
  // a knight reads by helm, plume and shield, a thief by hood and mask: their capes only blurred them
  // into one caped shape with the vampire
  const cape = (F.has('cape') && look !== 'knight' && look !== 'rogue') || look === 'king' || own > 0.45;
  return {
    p: new Parts(b.u * b.scale, b.aspect),
    b,
    pose,
    F,
    look,
    robot,
    bones,
    far,
    shade: (side, m) => (side === far ? m + FAR : m),
    legL,
    torsoH,
    torsoR,
    headR,
    crouch,
    hipU,
    shoulderU,
    lean,
    headC: [lean, 0, shoulderU + headR * 0.72],
    creatureSkin,
    skin,
    outfit,
    own,
    robe: F.has('robe') || look === 'mage' || look === 'priest' || own < -0.55 || dress,
    cape,
    limbR: bones ? 0.42 : heavy ? 1.45 : 1.2,
  };
}

/**
 * People, humanoid creatures and robots, chibi-proportioned (about 2.5 heads): boots, legs that bend
 * at the knee, a torso, arms with hands, a big head; then the class's own outfit (helmet and plume,
 * pointed hat and beard, hood and quiver, crown and cape, …) and weapon. Limbs on the far side are a
 * shade darker so the two legs of a walk read apart.
 */
export function biped(b: Build, pose: Pose): Parts {
  const d = bodyOf(b, pose);
  if (d.own > 0.1 && d.own <= 0.45)
    // a traveller's pack
    d.p.box(
      [-d.torsoR - 0.9, 0, d.hipU + d.torsoH * 0.55],
      [1.2, 2.2, 2.4],
      M.WOOD,
      M.WOOD,
      pose.facing,
      -0.2,
    );
  legs(d);
  behind(d);
  if (d.bones) ribcage(d);
  else if (d.robot) robotTorso(d);
  else if (d.robe) robeTorso(d);
  else clothTorso(d);
  if (d.F.has('coat') || d.look === 'pirate') coat(d);
  OVER_TORSO[d.look]?.(d);
  arms(d);
  head(d);
  return d.p;
}

/** Legs: hip → knee → foot; a lifted foot bends its knee forward. Boots with a toe and a heel. */
function legs(d: Body): void {
  const { p, pose, far, crouch, hipU, limbR, bones } = d;
  const rise = pose.rise;
  for (const [side, sign, lift] of [
    [-1, 1, pose.liftL],
    [1, -1, pose.liftR],
  ] as const) {
    const hip: V3 = [0, side * 1.5, hipU];
    const fwd = sign * pose.stride;
    const footS = side * (1.7 + crouch * 0.9);
    const footU = rise + lift + 1 + fwd * pose.ground + footS * pose.groundS;
    const foot: V3 = [fwd, footS, footU];
    const knee: V3 = [fwd * 0.5 + lift * 0.9 + 0.2, side * 1.6, (hipU + footU) / 2 + lift * 0.3];
    const leg = d.shade(side, d.outfit.pants);
    if (!d.robe || pose.action === 'death') {
      // the shin ends above the sole: the boot's flat bottom is the lowest thing, so a planted foot
      // covers the same pixel row whatever its x (a round end would flicker by a row)
      p.stick(hip, knee, limbR + 0.1, leg, side === far ? -0.2 : 0);
      p.stick(knee, [foot[0], foot[1], foot[2] + limbR * 0.6], limbR, leg, side === far ? -0.2 : 0);
      if (bones) p.ball(knee, 0.9, leg, undefined, 0.01);
    }
    // boots: a toe pointing forward and a heel
    p.stick(
      [foot[0] - 0.4, foot[1], foot[2] - 0.05],
      [foot[0] + (bones ? 1.2 : 1.5), foot[1], foot[2] - 0.05],
      bones ? 0.7 : 1.05,
      d.shade(side, d.outfit.boots),
      side === far ? -0.19 : 0.01,
    );
  }
}

/** Behind the back: a tail, a cape flaring to the ground, wings, and packs (quiver, life support). */
function behind(d: Body): void {
  const { p, pose, F, look, torsoR, torsoH, hipU, shoulderU } = d;
  const rise = pose.rise;
  if (F.has('tail')) {
    const sway = Math.sin(pose.phase * Math.PI * 2) * 1;
    p.stick([-torsoR * 0.7, 0, hipU + 0.5], [-torsoR - 3, sway, hipU + 2.6], 0.8, M.BODY, -0.3);
  }
  if (d.cape) {
    const flow = pose.action === 'run' || pose.action === 'walk' ? 1.4 : 0.5;
    // the hem's corners are raised like planted feet, so the cape never hangs below the baseline
    const hem = (side: number): V3 => [
      -torsoR - flow,
      side * torsoR * 1.45,
      rise + 1.6 + Math.max(0, (-torsoR - flow) * pose.ground + side * torsoR * 1.45 * pose.groundS),
    ];
    p.poly(
      [
        [-torsoR * 0.6, -torsoR * 0.95, shoulderU + 0.2],
        [-torsoR * 0.6, torsoR * 0.95, shoulderU + 0.2],
        hem(1),
        hem(-1),
      ],
      look === 'rogue' ? M.DARK : M.ACCENT,
      -0.6,
    );
  }
  if (F.has('wings')) {
    wing(p, [-torsoR * 0.8, -1, shoulderU - 1], -1, 9, pose.flap, M.BODY2);
    wing(p, [-torsoR * 0.8, 1, shoulderU - 1], 1, 9, pose.flap, M.BODY2);
  }
  // packs on the back: a quiver of arrows, an astronaut's life support, a robot's battery
  if (look === 'archer') {
    p.stick([-torsoR - 0.6, -1.2, hipU + 1.5], [-torsoR - 0.9, 1.4, shoulderU + 2.2], 1.15, M.WOOD, -0.4);
    for (const k of [-0.5, 0.5])
      p.stick(
        [-torsoR - 0.9, 1.3 + k, shoulderU + 2],
        [-torsoR - 1, 1.6 + k, shoulderU + 3.4],
        0.5,
        M.LIGHT,
        -0.39,
      );
  }
  if (look === 'astronaut')
    p.box([-torsoR - 0.8, 0, hipU + torsoH * 0.6], [1.3, 2.6, 2.8], M.BODY2, M.BODY2, pose.facing, -0.2);
  if (look === 'robot')
    p.box([-torsoR - 0.4, 0, hipU + torsoH * 0.6], [0.8, 1.8, 1.8], M.DARK, M.DARK, pose.facing, -0.2);
}

/**
 * A skeleton's torso: a spine, three pairs of curved ribs with clear gaps between them (wider than
 * two outlines), a pelvis, a collar bone: bones, not a body.
 */
function ribcage({ p, torsoH, torsoR, hipU, shoulderU, lean }: Body): void {
  const k = Math.max(1, torsoH / 5.6);
  const x = lean * 0.6;
  p.stick([x, 0, shoulderU - 0.2], [0, 0, hipU + 0.3], 0.4, M.BODY, 0.1);
  for (let r = 0; r < 3; r++) {
    const u = shoulderU - 1.3 - r * 1.7 * k;
    const w = torsoR * (1.05 - r * 0.14);
    for (const side of [-1, 1]) {
      p.stick([x + 1.5, side * 0.2, u], [x + 0.9, side * w * 0.85, u + 0.15], 0.34, M.BODY, 0.12);
      p.stick([x + 0.9, side * w * 0.85, u + 0.15], [x, side * w, u - 0.35], 0.34, M.BODY, 0.12);
    }
  }
  // the pelvis: a bowl with a dark hollow
  p.ball([0.3, 0, hipU + 0.4], 1.7, M.BODY, 0.9, 0.11);
  p.ball([0.9, 0, hipU + 0.5], 0.7, M.EYE, 0.45, 0.115);
  p.stick([x, -torsoR, shoulderU - 0.2], [x, torsoR, shoulderU - 0.2], 0.38, M.BODY, 0.11);
}

/** A robot's torso: a box with a glowing core and a dark hip joint. */
function robotTorso({ p, pose, torsoH, torsoR, hipU, lean }: Body): void {
  p.box(
    [lean * 0.5, 0, hipU + torsoH / 2],
    [torsoR * 0.85, torsoR * 1.05, torsoH / 2 + 0.3],
    M.BODY,
    M.TOP,
    pose.facing,
    0.1,
  );
  p.ball([lean * 0.5 + torsoR * 0.85, 0, hipU + torsoH * 0.6], 1, M.GLOW, undefined, 0.25);
  p.stick([0, -1.6, hipU - 0.2], [0, 1.6, hipU - 0.2], 1, M.DARK, 0.05);
}

/** A robe or a dress: from the shoulders to the ground, flaring, belted. */
function robeTorso({ p, pose, torsoR, hipU, shoulderU, lean, outfit }: Body): void {
  const rise = pose.rise;
  p.stick([lean * 0.5, 0, shoulderU - torsoR * 0.5], [0, 0, rise + 3], torsoR, outfit.shirt, 0.1);
  p.cone([0, 0, rise + 1], [lean * 0.5, 0, shoulderU + 1.5], torsoR + 1.5, outfit.shirt, 0.09);
  p.ball([0, 0, rise + 1.2], torsoR + 1.5, outfit.shirt, 1.3, 0.095);
  p.stick(
    [lean * 0.5, -torsoR * 0.9, hipU + 1],
    [lean * 0.5, torsoR * 0.9, hipU + 1],
    0.6,
    outfit.belt,
    0.13,
  );
}

/** A shirt and a belt, then what the class wears on its chest. */
function clothTorso(d: Body): void {
  const { p, torsoR, hipU, shoulderU, lean, outfit } = d;
  p.stick(
    [lean * 0.6, 0, shoulderU - torsoR * 0.55],
    [0, 0, hipU + torsoR * 0.35],
    torsoR,
    outfit.shirt,
    0.1,
  );
  // a belt round the waist (a flat disc reads as a band from every side; biased over the torso,
  // whose depth is taken at its middle, higher up)
  p.ball([0, 0, hipU + 0.6], torsoR * 1.04, outfit.belt, 0.62, 1);
  ON_CHEST[d.look]?.(d);
}

/** What a class wears on its shirt's chest. */
const ON_CHEST: Readonly<Partial<Record<Look, (d: Body) => void>>> = {
  knight: ({ p, torsoR, hipU, shoulderU, lean }) => {
    // a breastplate over the chest and a buckle
    p.ball([lean * 0.6 + torsoR * 0.3, 0, shoulderU - 2.2], torsoR * 0.8, M.ARMOR, torsoR * 0.7, 0.11);
    p.ball([torsoR * 0.85, 0, hipU + 0.5], 0.55, M.GOLD, undefined, 0.13);
  },
  chef: ({ p, torsoR, hipU, shoulderU, lean }) =>
    // an apron from the chest to the knees
    p.poly(
      [
        [lean * 0.6 + torsoR * 0.98, -torsoR * 0.6, shoulderU - 1.2],
        [lean * 0.6 + torsoR * 0.98, torsoR * 0.6, shoulderU - 1.2],
        [torsoR * 0.98, torsoR * 0.8, hipU - 2.4],
        [torsoR * 0.98, -torsoR * 0.8, hipU - 2.4],
      ],
      M.LIGHT,
      0.14,
    ),
  farmer: ({ p, torsoR, hipU, shoulderU, lean }) => {
    // overall straps and a bib
    for (const side of [-1, 1])
      p.stick(
        [lean * 0.6 + torsoR * 0.9, side * torsoR * 0.5, shoulderU - 0.8],
        [torsoR * 0.9, side * torsoR * 0.5, hipU + 1],
        0.55,
        M.BODY,
        0.13,
      );
  },
  zombie: ({ p, torsoR, hipU, shoulderU, lean }) => {
    // a torn hem: ragged teeth below the shirt, skin showing through a tear
    for (const s of [-0.7, 0, 0.7])
      p.poly(
        [
          [torsoR * 0.8, s * torsoR - 0.8, hipU + 0.2],
          [torsoR * 0.8, s * torsoR + 0.8, hipU + 0.2],
          [torsoR * 0.85, s * torsoR + 0.2, hipU - 1.5],
        ],
        M.ACCENT,
        0.13,
      );
    p.ball([lean * 0.6 + torsoR * 0.8, torsoR * 0.3, shoulderU - 2.6], 1, M.BODY, 1.4, 0.14);
  },
  pirate: ({ p, torsoR, hipU, shoulderU, lean }) =>
    // a sash across the chest
    p.stick(
      [lean * 0.6 + torsoR * 0.9, -torsoR * 0.8, shoulderU - 0.8],
      [torsoR * 0.9, torsoR * 0.8, hipU + 1],
      0.7,
      M.BODY,
      0.13,
    ),
};

/** A long coat: skirts from the waist to the knees, open at the front over the shirt, lapels. */
function coat({ p, far, legL, torsoR, hipU, shoulderU, lean }: Body): void {
  const hem = hipU - legL * 0.62;
  for (const side of [-1, 1])
    p.poly(
      [
        [torsoR * 0.55, side * torsoR * 0.35, hipU + 1.2],
        [-torsoR * 0.7, side * torsoR * 1.05, hipU + 1.2],
        [-torsoR * 0.95, side * (torsoR * 1.35), hem],
        [torsoR * 0.7, side * torsoR * 0.75, hem],
      ],
      M.BODY,
      side === far ? -0.05 : 0.12,
    );
  p.poly(
    [
      [-torsoR * 0.7, -torsoR * 1.05, hipU + 1.2],
      [-torsoR * 0.7, torsoR * 1.05, hipU + 1.2],
      [-torsoR * 0.95, torsoR * 1.3, hem],
      [-torsoR * 0.95, -torsoR * 1.3, hem],
    ],
    M.BODY,
    -0.05,
  );
  // lapels over the shoulders
  for (const side of [-1, 1])
    p.stick(
      [lean * 0.6 + torsoR * 0.7, side * torsoR * 0.75, shoulderU - 0.4],
      [torsoR * 0.75, side * torsoR * 0.45, hipU + 1],
      0.75,
      M.BODY,
      0.14,
    );
}

/** A collar over the shoulders: fur for a king, cloth for a mage. */
const collar =
  (m: number) =>
  ({ p, torsoR, shoulderU, lean }: Body): void =>
    p.stick(
      [lean * 0.6, -torsoR * 0.9, shoulderU + 0.1],
      [lean * 0.6, torsoR * 0.9, shoulderU + 0.1],
      1.1,
      m,
      0.2,
    );

/** What a class wears over its torso (and coat): armour plates, a sword on the back, a collar. */
const OVER_TORSO: Readonly<Partial<Record<Look, (d: Body) => void>>> = {
  samurai: ({ p, pose, torsoR, hipU, shoulderU, lean }) => {
    // lamellar plates: a cuirass with gold lacing, a skirt of plates, big square shoulder guards
    p.ball([lean * 0.6 + torsoR * 0.3, 0, shoulderU - 2.2], torsoR * 0.85, M.BODY, torsoR * 0.8, 0.11);
    for (let r = 0; r < 2; r++)
      p.stick(
        [lean * 0.6 + torsoR * 0.95, -torsoR * 0.7, shoulderU - 1.6 - r * 1.5],
        [lean * 0.6 + torsoR * 0.95, torsoR * 0.7, shoulderU - 1.6 - r * 1.5],
        0.28,
        M.GOLD,
        0.125,
      );
    for (const side of [-1, 0, 1])
      p.box(
        [side === 0 ? torsoR * 0.4 : 0, side * torsoR * 0.75, hipU - 1.2],
        [torsoR * 0.45, torsoR * 0.42, 1.5],
        M.BODY,
        M.BODY,
        pose.facing,
        0.12,
      );
  },
  ninja: ({ p, torsoR, hipU, shoulderU }) => {
    // a katana across the back, its hilt over the shoulder
    const top: V3 = [-torsoR - 0.2, -torsoR * 0.9, shoulderU + 2.8];
    p.stick([-torsoR - 0.4, torsoR * 0.8, hipU + 0.5], top, 0.42, M.DARK, -0.45);
    p.stick(top, [-torsoR - 0.1, -torsoR * 1.1, shoulderU + 4.2], 0.45, M.ACCENT, -0.44);
  },
  vampire: ({ p, torsoR, shoulderU, lean }) => {
    // a vampire's high stand-up collar, flaring behind the head
    for (const side of [-1, 1])
      p.cone(
        [lean * 0.6 - 0.8, side * torsoR * 0.7, shoulderU - 0.5],
        [lean * 0.6 - 1.6, side * (torsoR + 2.6), shoulderU + 4.2],
        1.6,
        M.ACCENT,
        0.05,
      );
  },
  king: collar(M.LIGHT),
  mage: collar(M.BODY2),
};

/** Arms: the left swings against the legs, the right carries the weapon and strikes; a shield on the left. */
function arms(d: Body): void {
  const { p, b, pose, look, robot, bones, far, torsoR, crouch, hipU, shoulderU, lean, limbR, outfit } = d;
  const shoulderW = torsoR + (bones ? 0.4 : 0.9);
  const weapon = weaponOf(b);
  const strike = pose.strike;
  const handU = hipU + 0.8;
  // a zombie reaches forward at chest height, below its chin
  const reach = look === 'zombie' ? 4.5 : 0;
  const handL: V3 = [
    pose.swing * (reach ? 0.3 : 1) + lean + reach + crouch,
    -shoulderW - 0.3 - crouch * 1.2,
    handU + (reach ? 2.2 : 0) + crouch,
  ];
  let handR: V3 = [
    -pose.swing * (weapon ? 0.5 : reach ? 0.3 : 1) + lean + (weapon ? 1.4 : 0) + reach,
    shoulderW + 0.3 + crouch * 1.2,
    handU + 0.4 + (reach ? 1.8 : 0) + crouch,
  ];
  if (strike > 0) handR = [lean - 1.5 * strike, shoulderW + 0.4, shoulderU - 3 + 6 * strike];
  else if (strike < 0) handR = [lean + 5 * -strike, shoulderW + 0.2, shoulderU - 2];
  if (pose.action === 'hurt') handR = [lean - 1, shoulderW + 1.2, shoulderU + 1];
  for (const [side, hand] of [
    [-1, handL],
    [1, handR],
  ] as const) {
    const shoulder: V3 = [lean, side * shoulderW, shoulderU - 0.7];
    const elbow: V3 = [
      (shoulder[0] + hand[0]) / 2 - 0.4,
      side * (shoulderW + 0.5),
      (shoulder[2] + hand[2]) / 2,
    ];
    const bias = side === far ? -0.3 : 0.2;
    if (side !== far && !bones) {
      // a darker rim round the near arm, so it reads over a torso of the same cloth
      p.stick(shoulder, elbow, limbR + 0.55, outfit.sleeve + FAR, bias - 0.01);
      p.stick(elbow, hand, limbR + 0.5, outfit.sleeve + FAR, bias - 0.01);
    }
    p.stick(shoulder, elbow, limbR + 0.05, d.shade(side, outfit.sleeve), bias);
    p.stick(elbow, hand, limbR, d.shade(side, outfit.sleeve), bias);
    p.ball(hand, bones ? 0.8 : 1.15, d.shade(side, outfit.hands), undefined, bias + 1);
    if (look === 'knight' || robot)
      p.ball(
        shoulder,
        torsoR * 0.55,
        d.shade(side, look === 'knight' ? M.ARMOR : M.BODY),
        undefined,
        bias + 0.02,
      );
  }
  const heraldry = b.coloured ? M.BODY : M.ACCENT;
  if (weapon) held(p, weapon, handR, strike, far === 1 ? -0.4 : 0.5, heraldry);
  if (look === 'knight' || d.F.has('shield' as never)) shield(p, handL, far === -1 ? -0.35 : 0.55, heraldry);
}

/** The head: a robot's box or a skull, else a face with ears, horns, hair, eyes, a beard and a hat. */
function head(d: Body): void {
  if (d.robot) {
    robotHead(d);
    return;
  }
  const { p, F, headR, headC } = d;
  const hat = [...F].find((f) => f.startsWith('hat:'));
  // a hood replaces the head: its face opening is drawn over it
  if (hat !== 'hat:hood') p.ball(headC, headR, hat === 'hat:ninja' ? M.BODY : d.skin, undefined, 0.3);
  if (d.bones) {
    skull(d);
    return;
  }
  for (const piece of HEAD_PIECES) if (F.has(piece.feature)) piece.draw(d);
  hair(d, hat);
  face(d, hat);
  if (hat) hatOn(p, hat, headC, headR, d.look);
  if (F.has('halo')) p.ball([headC[0], 0, headC[2] + headR + 1.8], 2.6, M.GLOW, 0.7, 0.5);
}

function robotHead({ p, pose, headR: r, headC: c }: Body): void {
  p.box([c[0], 0, c[2]], [r * 0.8, r * 0.95, r * 0.8], M.BODY, M.TOP, pose.facing, 0.3);
  p.stick([c[0], 0, c[2] + r * 0.7], [c[0], 0, c[2] + r + 1.6], 0.4, M.DARK, 0.31);
  p.ball([c[0], 0, c[2] + r + 2], 0.9, M.GLOW, undefined, 0.32);
  for (const side of [-1, 1]) p.ball([c[0] + r * 0.82, side * r * 0.4, c[2] + 0.3], 0.9, M.GLOW, 0.8, 0.4);
  p.stick([c[0] + r * 0.82, -1.2, c[2] - 1.7], [c[0] + r * 0.82, 1.2, c[2] - 1.7], 0.35, M.DARK, 0.4);
}

/** A skull: big dark sockets, a nose hole, teeth. */
function skull({ p, headR: r, headC: c }: Body): void {
  for (const side of [-1, 1]) p.ball([c[0] + r * 0.8, side * r * 0.38, c[2] + 0.2], 1.15, M.EYE, 1.25, 0.4);
  p.ball([c[0] + r * 0.9, 0, c[2] - 1.3], 0.5, M.EYE, undefined, 0.4);
  p.stick([c[0] + r * 0.75, -1.2, c[2] - 2.6], [c[0] + r * 0.75, 1.2, c[2] - 2.6], 0.3, M.EYE, 0.4);
}

/** Snout, ears and horns, in drawing order, each with the feature that asks for it. */
const HEAD_PIECES: ReadonlyArray<{ feature: Feature; draw: (d: Body) => void }> = [
  {
    feature: 'snout',
    draw: ({ p, headR: r, headC: c }) => p.ball([c[0] + r * 0.9, 0, c[2] - 1], 1.8, M.BODY2, undefined, 0.36),
  },
  {
    feature: 'ears',
    draw: ({ p, creatureSkin, headR: r, headC: c }) => {
      for (const side of [-1, 1])
        p.cone(
          [c[0] - 0.4, side * r * 0.85, c[2] + 0.6],
          [c[0] - 0.8, side * (r + 2.4), c[2] + 2.2],
          1,
          creatureSkin ? M.BODY : M.SKIN,
          0.25,
        );
    },
  },
  {
    // a goblin's long pointed ears, out to the sides and a little up
    feature: 'long-ears',
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1])
        p.poly(
          [
            [c[0] - 0.4, side * r * 0.8, c[2] + 1.9],
            [c[0] - 1.2, side * (r + 4.6), c[2] + 2.4],
            [c[0] - 0.4, side * r * 0.8, c[2] - 0.9],
          ],
          M.BODY,
          0.25,
        );
    },
  },
  {
    feature: 'round-ears',
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1])
        p.ball([c[0] - 0.3, side * r * 0.95, c[2] + r * 0.6], 1.4, M.BODY, undefined, 0.25);
    },
  },
  {
    feature: 'horns',
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1])
        p.cone(
          [c[0], side * r * 0.5, c[2] + r * 0.7],
          [c[0] - 0.8, side * (r * 0.85), c[2] + r + 3],
          0.9,
          M.HORN,
          0.33,
        );
    },
  },
];

/** Hats and hoods that cover the hair. */
const COVERING = new Set(['hat:helmet', 'hat:hood', 'hat:space', 'hat:ninja', 'hat:kabuto']);

/** Hair behind the face and on top (long, a top knot or spikes, by the noun), unless a hat covers it. */
function hair({ p, b, F, look, creatureSkin, headR: r, headC: c }: Body, hat: string | undefined): void {
  if (look === 'zombie')
    // a few lank tufts
    for (const s of [-0.5, 0.1, 0.6])
      p.cone(
        [c[0] - 0.8, s * r, c[2] + r * 0.7],
        [c[0] - 1.8, s * r * 1.3, c[2] + r + 1.2],
        1.1,
        M.DARK,
        0.28,
      );
  if (creatureSkin || (hat !== undefined && COVERING.has(hat))) return;
  // biased behind the face: in a side view the face stays in front, from behind the hair covers it
  p.ball([c[0] - 2, 0, c[2] + 0.7], r * 0.97, M.DARK, r * 1.02, -0.1);
  const style = b.shape[6]!;
  if ((F.has('long-hair') || style > 0.3) && !F.has('male'))
    // long hair falls behind the shoulders on both sides of the face: from the front it frames the
    // face, never hangs under the chin (where it read as a beard)
    for (const side of [-1, 1])
      p.stick(
        [c[0] - 1.6, side * r * 0.62, c[2]],
        [c[0] - 2, side * r * 0.72, c[2] - r - 1.2],
        r * 0.42,
        M.DARK,
        0.05,
      );
  else if (style < -0.2 && style > -0.5 && !hat)
    // a top knot
    p.ball([c[0] - 1.2, 0, c[2] + r + 0.5], r * 0.42, M.DARK, undefined, 0.28);
  else if (style <= -0.5 && !hat)
    for (const s of [-0.6, 0, 0.6])
      p.cone(
        [c[0] - 0.5, s * r * 0.8, c[2] + r * 0.6],
        [c[0] - 1.2, s * r * 1.2, c[2] + r + 1.8],
        1,
        M.DARK,
        0.28,
      );
  // a fringe over the forehead, so the face reads as a face under the hair
  p.ball([c[0] + r * 0.4, 0, c[2] + r * 0.78], r * 0.72, M.DARK, r * 0.26, 0.35);
}

/** The face: a goblin's nose and grin or a lighter muzzle, eyes, an eyepatch, a beard. */
function face(d: Body, hat: string | undefined): void {
  const { p, b, F, look, torsoR, torsoH, hipU, shoulderU, lean, headR: r, headC: c } = d;
  if (look === 'creature' && b.kind === 'creature.goblin') {
    // a goblin: a long pointed nose, a wide grin, yellow eyes under a heavy brow
    p.cone([c[0] + r * 0.8, 0, c[2] - 0.6], [c[0] + r + 2.2, 0, c[2] - 1.6], 0.8, M.BODY, 0.42);
    p.stick(
      [c[0] + r * 0.85, -r * 0.45, c[2] - r * 0.5],
      [c[0] + r * 0.85, r * 0.45, c[2] - r * 0.5],
      0.3,
      M.EYE,
      0.41,
    );
  } else if (look === 'creature' && !F.has('snout')) {
    // a lighter face and belly (a monkey's, a goblin's) so the head is not one lump of fur
    p.ball([c[0] + r * 0.5, 0, c[2] - r * 0.2], r * 0.72, M.BODY2, r * 0.62, 0.33);
    p.ball([lean * 0.6 + torsoR * 0.55, 0, hipU + torsoH * 0.45], torsoR * 0.7, M.BODY2, torsoH * 0.42, 0.15);
  }
  if (look === 'zombie') {
    // sunken eyes, a gaping mouth
    for (const side of [-1, 1]) p.ball([c[0] + r * 0.82, side * r * 0.38, c[2] + 0.2], 1, M.EYE, 0.9, 0.4);
    p.ball([c[0] + r * 0.9, 0, c[2] - 1.7], 0.8, M.EYE, 0.5, 0.4);
  } else if (hat !== 'hat:helmet' && hat !== 'hat:space' && hat !== 'hat:ninja') {
    eyes(p, [c[0] - r * 0.1, 0, c[2] - 0.2], r, 0.8, 0.38);
  }
  if (look === 'pirate')
    // an eyepatch and its strap
    p.ball([c[0] + r * 0.86, -r * 0.38, c[2] - 0.1], 1.1, M.EYE, 1, 0.42);
  if ((look === 'mage' || look === 'king') && !F.has('female')) {
    // a long beard (white for a wizard)
    p.ball([c[0] + r * 0.7, 0, c[2] - r * 0.55], r * 0.6, look === 'mage' ? M.LIGHT : M.DARK, r * 0.55, 0.41);
    if (look === 'mage')
      p.cone(
        [c[0] + r * 0.75, 0, c[2] - r * 0.5],
        [c[0] + r * 0.9, 0, shoulderU - 3.5],
        r * 0.55,
        M.LIGHT,
        0.41,
      );
  }
}

function hatOn(p: Parts, hat: string, c: V3, r: number, look: Look): void {
  const top = c[2] + r;
  switch (hat) {
    case 'hat:helmet':
      // a great helm: steel over the whole head, a dark visor slit, a plume
      p.ball([c[0] - 0.1, 0, c[2] + 0.1], r * 1.06, M.BODY, undefined, 0.33);
      p.ball([c[0] - 0.1, 0, c[2] + r * 0.45], r * 0.95, M.ARMOR, r * 0.6, 0.335);
      p.stick(
        [c[0] + r * 0.96, -r * 0.55, c[2] - 0.1],
        [c[0] + r * 0.96, r * 0.55, c[2] - 0.1],
        0.5,
        M.EYE,
        0.45,
      );
      p.stick([c[0] + r * 0.98, 0, c[2] - 0.4], [c[0] + r * 0.9, 0, c[2] - r * 0.8], 0.35, M.DARK, 0.44);
      p.stick([c[0] - 0.2, 0, top + 0.3], [c[0] - 1.6, 0, top + 1.8], 1, M.ACCENT, 0.36);
      p.stick([c[0] - 1.6, 0, top + 1.8], [c[0] - 3.6, 0, top - 0.6], 0.9, M.ACCENT, 0.36);
      break;
    case 'hat:hood':
      // a hood framing the face, its point falling behind
      p.ball([c[0] - 0.6, 0, c[2] + 0.5], r * 1.12, M.BODY, undefined, -0.15);
      p.cone([c[0] - 1.2, 0, c[2] + r * 0.3], [c[0] - r - 1.8, 0, c[2] + r * 0.7], r * 0.6, M.BODY, -0.2);
      // a thief's mask leaves only a slit for the eyes
      if (look === 'rogue') p.ball([c[0] + r * 0.55, 0, c[2] - 0.2], r * 0.72, M.SKIN, r * 0.3, 0.335);
      else p.ball([c[0] + r * 0.45, 0, c[2] - 0.3], r * 0.78, M.SKIN, r * 0.72, 0.335);
      for (const side of [-1, 1])
        p.ball([c[0] + r * 0.8, side * r * 0.3, c[2] - 0.2], 0.65, M.EYE, 0.8, 0.45);
      break;
    case 'hat:wizard':
      // a wide brim and a tall pointed cone, its tip bent back, a band
      p.ball([c[0] + 0.2, 0, top - 1.4], r * 1.55, M.BODY, 0.9, 0.4);
      p.cone([c[0] - 0.2, 0, top - 1.3], [c[0] - 2.2, 0, top + 5.5], r * 0.9, M.BODY, 0.41);
      p.ball([c[0] - 0.2, 0, top - 0.7], r * 0.9, M.GOLD, 0.55, 0.415);
      break;
    case 'hat:crown':
      p.stick([c[0], -r * 0.72, top - 0.1], [c[0], r * 0.72, top - 0.1], 1.1, M.GOLD, 0.4);
      for (const s of [-0.7, 0, 0.7])
        p.cone([c[0] + 0.3, s * r * 0.9, top + 0.3], [c[0] + 0.3, s * r * 0.9, top + 2.6], 0.8, M.GOLD, 0.41);
      p.ball([c[0] + r * 0.75, 0, top - 0.1], 0.6, M.ACCENT, undefined, 0.42);
      break;
    case 'hat:straw':
      p.ball([c[0], 0, top - 1.1], r * 1.8, M.STRAW, 0.9, 0.4);
      p.ball([c[0] - 0.3, 0, top - 0.2], r * 0.85, M.STRAW, 0.8, 0.41);
      p.ball([c[0] - 0.3, 0, top - 0.9], r * 0.88, M.ACCENT, 0.4, 0.415);
      break;
    case 'hat:tricorn':
      p.ball([c[0], 0, top - 0.9], r * 1.5, M.DARK, 1.1, 0.4);
      p.ball([c[0] - 0.3, 0, top + 0.2], r * 0.95, M.DARK, 1.1, 0.41);
      for (const side of [-1, 1])
        p.cone([c[0], side * r * 0.9, top - 1], [c[0] + 0.3, side * r * 1.45, top + 1], 1.1, M.DARK, 0.41);
      p.ball([c[0] + r * 0.6, 0, top - 0.2], 0.7, M.LIGHT, undefined, 0.42);
      break;
    case 'hat:ninja':
      // a wrap over the whole head: only a band of skin with the eyes shows; the knot's tails behind
      p.ball([c[0] - 0.2, 0, c[2] + 0.2], r * 1.04, M.BODY, undefined, 0.33);
      p.ball([c[0] + r * 0.55, 0, c[2] + 0.15], r * 0.72, M.SKIN, r * 0.22, 0.335);
      for (const side of [-1, 1])
        p.ball([c[0] + r * 0.86, side * r * 0.33, c[2] + 0.15], 0.6, M.EYE, 0.55, 0.45);
      p.stick(
        [c[0] - r * 0.2, -r * 0.98, c[2] + r * 0.45],
        [c[0] - r * 0.2, r * 0.98, c[2] + r * 0.45],
        0.45,
        M.ACCENT,
        0.34,
      );
      p.stick([c[0] - r * 0.9, 0, c[2] + r * 0.4], [c[0] - r - 2.6, 0.8, c[2] - 0.4], 0.5, M.ACCENT, -0.2);
      p.stick([c[0] - r * 0.9, 0, c[2] + r * 0.4], [c[0] - r - 2.2, -0.9, c[2] - 1.4], 0.5, M.ACCENT, -0.21);
      break;
    case 'hat:kabuto':
      // a samurai helmet: a bowl, a flared neck guard, a gold crescent crest, a dark face mask
      p.ball([c[0] - 0.2, 0, c[2] + r * 0.35], r * 1.05, M.BODY, r * 0.8, 0.33);
      p.ball([c[0] - 0.6, 0, c[2] - r * 0.15], r * 1.45, M.BODY, 0.9, 0.32);
      p.ball([c[0] + r * 0.5, 0, c[2] - r * 0.35], r * 0.62, M.DARK, r * 0.4, 0.336);
      for (const side of [-1, 1])
        p.cone(
          [c[0] + r * 0.5, side * 0.4, top - 0.6],
          [c[0] + r * 0.7, side * r * 1.2, top + 3.2],
          0.55,
          M.GOLD,
          0.4,
        );
      p.ball([c[0] + r * 0.75, 0, top - 0.9], 0.8, M.GOLD, undefined, 0.41);
      break;
    case 'hat:chef':
      p.stick([c[0] - 0.3, 0, top - 1.2], [c[0] - 0.3, 0, top + 2.4], r * 0.7, M.LIGHT, 0.4);
      p.ball([c[0] - 0.3, 0, top + 3.2], r * 0.95, M.LIGHT, r * 0.75, 0.41);
      break;
    case 'hat:space':
      // a glass dome over the head, a dark visor with a glint
      p.ball([c[0], 0, c[2]], r * 1.25, M.BODY, undefined, 0.33);
      p.ball([c[0] + r * 0.5, 0, c[2] + 0.2], r * 0.85, M.ACCENT, r * 0.7, 0.34);
      p.ball([c[0] + r * 0.95, r * 0.3, c[2] + 1.2], 0.6, M.LIGHT, undefined, 0.45);
      break;
  }
}

/** A kite shield on the left arm, facing forward and out. */
function shield(p: Parts, hand: V3, bias: number, face: number = M.ACCENT): void {
  const c: V3 = [hand[0] + 1.3, hand[1] - 0.6, hand[2] + 2];
  const e: V3 = [0.55, 0.83, 0]; // across the shield
  const n: V3 = [0.83, -0.55, 0]; // its face points forward and to the left
  const at = (a: number, u: number, out = 0): V3 => [
    c[0] + e[0] * a + n[0] * out,
    c[1] + e[1] * a + n[1] * out,
    c[2] + u,
  ];
  p.poly([at(-2.6, 2.6), at(2.6, 2.6), at(2.5, -0.8), at(0, -3.6), at(-2.5, -0.8)], face, bias);
  p.poly([at(-0.5, 2.2, 0.1), at(0.5, 2.2, 0.1), at(0.5, -3, 0.1), at(-0.5, -3, 0.1)], M.GOLD, bias + 0.01);
  p.poly([at(-2, 1.1, 0.1), at(2, 1.1, 0.1), at(2, 0.2, 0.1), at(-2, 0.2, 0.1)], M.GOLD, bias + 0.01);
}

/** A weapon in the hand; its blade points up and forward, and swings down on a strike. */
function held(p: Parts, weapon: string, hand: V3, strike: number, bias: number, heraldry: number): void {
  // direction of the weapon: up-forward at rest, back over the shoulder winding up, forward striking
  const ang = strike > 0 ? -0.7 * strike : strike < 0 ? 1.45 : 0.3;
  const dir: V3 = [Math.sin(ang), 0, Math.cos(ang)];
  const at = (k: number): V3 => [hand[0] + dir[0] * k, hand[1], hand[2] + dir[2] * k];
  const cross = (k: number, w: number, m: number, r = 0.45) =>
    p.stick(
      [hand[0] + dir[0] * k - dir[2] * w, hand[1], hand[2] + dir[2] * k + dir[0] * w],
      [hand[0] + dir[0] * k + dir[2] * w, hand[1], hand[2] + dir[2] * k - dir[0] * w],
      r,
      m,
      bias + 0.01,
    );
  switch (weapon) {
    case 'bow': {
      const u = hand[2] + 1.2;
      const f = hand[0] + 0.6;
      p.stick([f - 0.2, hand[1], u + 4.8], [f + 1.4, hand[1], u + 2.2], 0.55, M.WOOD, bias);
      p.stick([f + 1.4, hand[1], u + 2.2], [f + 1.4, hand[1], u - 2.2], 0.55, M.WOOD, bias);
      p.stick([f + 1.4, hand[1], u - 2.2], [f - 0.2, hand[1], u - 4.8], 0.55, M.WOOD, bias);
      p.stick([f - 0.3, hand[1], u + 4.8], [f - 0.3, hand[1], u - 4.8], 0.25, M.LIGHT, bias - 0.01);
      break;
    }
    case 'staff':
      p.stick([hand[0], hand[1], hand[2] - 3.8], [hand[0], hand[1], hand[2] + 7.5], 0.55, M.WOOD, bias);
      p.stick([hand[0], hand[1], hand[2] + 7.5], [hand[0] - 0.8, hand[1], hand[2] + 9], 0.55, M.WOOD, bias);
      p.ball([hand[0] + 0.2, hand[1], hand[2] + 9.4], 1.4, M.GLOW, undefined, bias + 0.01);
      break;
    case 'spear':
      p.stick(at(-3.5), at(11), 0.45, M.WOOD, bias);
      p.cone(at(11), at(14), 0.9, M.METAL, bias + 0.01);
      break;
    case 'pitchfork':
      p.stick(at(-3.5), at(10), 0.45, M.WOOD, bias);
      cross(10, 1.3, M.METAL, 0.35);
      for (const w of [-1.3, 0, 1.3])
        p.stick(
          [hand[0] + dir[0] * 10 + dir[2] * w, hand[1], hand[2] + dir[2] * 10 - dir[0] * w],
          [hand[0] + dir[0] * 12.5 + dir[2] * w, hand[1], hand[2] + dir[2] * 12.5 - dir[0] * w],
          0.3,
          M.METAL,
          bias + 0.01,
        );
      break;
    case 'axe':
      p.stick(at(-1), at(8.5), 0.55, M.WOOD, bias);
      p.ball(at(7.5), 2.1, M.METAL, 1.6, bias + 0.01);
      break;
    case 'club':
      p.stick(at(-1), at(6.5), 0.8, M.WOOD, bias);
      p.ball(at(7), 2, M.WOOD, undefined, bias + 0.01);
      break;
    case 'shield':
      shield(p, hand, bias, heraldry);
      break;
    case 'gun':
      p.stick(hand, [hand[0] + 4, hand[1], hand[2] + 0.5], 0.8, M.METAL, bias);
      break;
    case 'dagger':
      p.stick(at(0.8), at(4.2), 0.5, M.METAL, bias);
      cross(0.6, 0.9, M.WOOD, 0.4);
      break;
    case 'katana':
      // a long, slightly curved blade, a round guard, a wrapped grip
      p.stick(at(-1.6), at(0.4), 0.45, M.DARK, bias);
      p.ball(at(0.6), 0.75, M.GOLD, 0.45, bias + 0.01);
      p.stick(at(0.8), at(6.5), 0.38, M.METAL, bias);
      p.stick(at(6.5), [hand[0] + dir[0] * 9 - 0.6, hand[1], hand[2] + dir[2] * 9], 0.35, M.METAL, bias);
      break;
    case 'cutlass':
      p.stick(at(1), at(6), 0.55, M.METAL, bias);
      p.stick(at(6), [hand[0] + dir[0] * 8 + 1, hand[1], hand[2] + dir[2] * 8], 0.55, M.METAL, bias);
      cross(0.8, 1.1, M.GOLD);
      break;
    default:
      // a sword: blade, cross-guard, pommel
      p.stick(at(1.2), at(9.5), 0.6, M.METAL, bias);
      cross(1, 1.6, M.GOLD);
      p.ball(at(-0.9), 0.55, M.GOLD, undefined, bias + 0.01);
  }
}
