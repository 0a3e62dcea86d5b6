/**
 * The body under the outfit, and what covers each part of it: legs and feet, the torso, the arms
 * and hands, the head, the hair. Each table row draws one kind of piece; the outfit names the rows.
 */
import { TILT, type V3 } from '../rig.js';
import { add, type Figure, len, mul, norm, sub } from './build.js';
import type { Feet, Hair, Hands, Legs, Outfit, Slot, Torso } from './identity.js';

const SIDES = [
  [-1, 'l'],
  [1, 'r'],
] as const;

/** Legs: the material of thigh and shin, and their thickness. */
const LEG_LOOK: Readonly<Record<Legs, { thigh: Slot; shin: Slot; k: number } | null>> = {
  trousers: { thigh: 'pants', shin: 'pants', k: 1 },
  overalls: { thigh: 'pants', shin: 'pants', k: 1.05 },
  greaves: { thigh: 'metal', shin: 'metal', k: 1.08 },
  robe: null,
  skirt: { thigh: 'skin', shin: 'skin', k: 0.8 },
  hakama: { thigh: 'pants', shin: 'pants', k: 1.55 },
  bones: { thigh: 'bone', shin: 'bone', k: 0.38 },
  // a robot's shins and forearms in its paint (enamel), its upper limbs bare metal: two materials, where
  // one grey made it a mannequin (decision 0092)
  pistons: { thigh: 'metal', shin: 'enamel', k: 0.85 },
  fur: { thigh: 'skin', shin: 'skin', k: 1.05 },
};

const FEET_LOOK: Readonly<Record<Feet, { slot: Slot; k: number; shaft: number }>> = {
  boots: { slot: 'leather', k: 1, shaft: 0.45 },
  sabatons: { slot: 'metal', k: 1.05, shaft: 0.3 },
  shoes: { slot: 'leather', k: 0.85, shaft: 0 },
  sandals: { slot: 'skin', k: 0.8, shaft: 0 },
  bare: { slot: 'skin', k: 0.78, shaft: 0 },
  bones: { slot: 'bone', k: 0.55, shaft: 0 },
  paws: { slot: 'skin', k: 1.05, shaft: 0 },
};

/** Steel, or the enamel of coloured armour. */
const steel = (fig: Figure): Slot => (fig.o.enamelled ? 'enamel' : 'metal');

export function legs(fig: Figure): void {
  const { j, p, o } = fig;
  const base = LEG_LOOK[o.legs];
  const look = base && o.legs === 'greaves' ? { ...base, thigh: steel(fig), shin: steel(fig) } : base;
  const feet = FEET_LOOK[o.feet];
  for (const [side, n] of SIDES) {
    const hip = side < 0 ? j.hipL : j.hipR;
    const knee = side < 0 ? j.kneeL : j.kneeR;
    const ankle = side < 0 ? j.ankleL : j.ankleR;
    const toe = side < 0 ? j.toeL : j.toeR;
    const r = p.limb;
    if (look) {
      fig.stick(hip, knee, r * 1.05 * look.k, look.thigh, `thigh_${n}`, `leg_${n}`);
      fig.stick(knee, ankle, r * 0.92 * look.k, look.shin, `shin_${n}`, `leg_${n}`);
      if (o.legs === 'bones') fig.ball(knee, r * 0.55, 'bone', `shin_${n}`, `leg_${n}`, undefined, 0.05);
      if (o.legs === 'greaves') fig.ball(knee, r * 0.95, 'metal', `shin_${n}`, `leg_${n}`, undefined, 0.08);
      // a robot's knee a metal joint between its bare thigh and its painted shin: a leg of two parts
      // that reads as a machine's, and where a passing step crosses the shins, two legs, not a knot
      if (o.legs === 'pistons') fig.ball(knee, r * 0.8, 'metal', `shin_${n}`, `leg_${n}`, undefined, 0.08);
    } else {
      // under a robe only the ankles show
      fig.stick(add(ankle, [0, 0, r * 1.2]), ankle, r * 0.85, 'pants', `shin_${n}`, `leg_${n}`);
    }
    // the foot: heel to toe at ankle height, its sole on the ground; a boot's shaft up the shin
    const dir = norm(sub(toe, ankle));
    const heel = sub(ankle, mul(dir, p.foot * 0.2));
    const fr = r * 0.78 * feet.k;
    fig.stick(heel, add(ankle, mul(dir, p.foot * 0.55)), fr, feet.slot, `foot_${n}`, `foot_${n}`);
    if (feet.shaft > 0 && look)
      fig.stick(
        ankle,
        add(ankle, mul(norm(sub(knee, ankle)), len(sub(knee, ankle)) * feet.shaft)),
        r * 1.02 * look.k,
        feet.slot,
        `shin_${n}`,
        `foot_${n}`,
        0.02,
      );
    if (o.feet === 'sandals')
      fig.stick(
        add(heel, [0, 0, fr * 0.4]),
        add(ankle, mul(dir, p.foot * 0.3)),
        fr * 0.45,
        'leather',
        `foot_${n}`,
        `foot_${n}`,
        0.02,
      );
    if (o.feet === 'paws')
      for (const t of [-0.5, 0, 0.5])
        fig.cone(
          add(ankle, add(mul(dir, p.foot * 0.55), mul(fig.right, t * fr))),
          add(ankle, add(mul(dir, p.foot * 0.85), mul(fig.right, t * fr))),
          fr * 0.3,
          'white',
          `foot_${n}`,
          `foot_${n}`,
          0.03,
        );
  }
  if (o.legs !== 'robe' && o.legs !== 'bones' && o.legs !== 'pistons')
    fig.ball(
      add(j.pelvis, [0, 0, -p.limb * 0.1]),
      p.hipW + p.limb * 0.7,
      look?.thigh === 'skin' ? 'pants' : (look?.thigh ?? 'pants'),
      'pelvis',
      'pelvis',
      p.hipW * 0.9 + p.limb * 0.5,
    );
  if (o.legs === 'bones' || o.legs === 'pistons') {
    // a pelvis bowl
    fig.ball(
      j.pelvis,
      p.hipW + p.limb * 0.35,
      o.legs === 'bones' ? 'bone' : 'metal',
      'pelvis',
      'pelvis',
      p.limb * 0.5,
    );
  }
}

/** The torso: two capsules side by side, so it is wider than deep. */
function trunk(fig: Figure, slot: Slot, k = 1, piece = 'torso'): void {
  const { p } = fig;
  const d = p.chestD * k;
  for (const s of [-1, 1]) {
    const w0 = Math.max(0, p.waistW * k - d * 0.95);
    const w1 = Math.max(0, p.chestW * k - d);
    fig.stick(fig.onTorso(0.12, 0, s * w0), fig.onTorso(1, 0, s * w1 * 0.9), d, slot, 'torso', piece);
  }
  fig.stick(fig.onTorso(0.12, 0, 0), fig.onTorso(0.92, 0, 0), d, slot, 'torso', piece);
  // a chest in front and a back behind: in profile the torso is half as deep again as the three
  // round capsules alone, so a side row is a body, not a stick under the head (issue #39, decision
  // 0102). They sort with the middle capsule, so what is worn over the chest (a coat's panels, a
  // plate, ribs) still covers them from the front, and what hangs on the back (a quiver, a pack) from
  // behind; the back stays inside those (1.15 of the depth).
  const th = (fig.facing * Math.PI) / 180;
  for (const [ahead, r] of [
    [d * 0.9, d * 0.9],
    [-d * 0.35, d * 0.8],
  ] as const)
    fig.stick(
      fig.onTorso(0.22, ahead, 0),
      fig.onTorso(0.84, ahead, 0),
      r,
      slot,
      'torso',
      piece,
      -ahead * Math.cos(th) * Math.cos(TILT),
    );
}

/** A skirt from the waist down to `to` (a fraction of the leg length above the ground), flaring by `flare`. */
function skirt(fig: Figure, slot: Slot, to: number, flare: number, piece = 'skirt'): void {
  const { j, p, s } = fig;
  const ground = s.pose.rise * p.legs;
  const top = add(j.pelvis, [0, 0, p.limb * 0.8]);
  // the hem follows the knees: wider when the legs are apart
  const spread = Math.max(Math.abs(j.kneeL[0] - j.kneeR[0]), Math.abs(j.ankleL[0] - j.ankleR[0]) * 0.6);
  const ra = p.waistW + flare + spread * 0.4;
  // a knee-length hem is lifted by a knee raised in a step: hanging level over it, it hid the
  // stepping leg whole, so a coat's walk facing the viewer or away was one leg that vanished (a
  // soldier "barely walks" in its front and back rows: the blind review after 1130b)
  // (how far a knee has come up towards its hip, past a dead band: a walk's lowered pelvis bends both)
  const thigh = (p.legs - p.limb * 1.22) * 0.505;
  const raised = (hip: V3, knee: V3) => thigh - (hip[2] - knee[2]);
  const kneeUp =
    to >= 0.3 && s.pose.swing > 0.5
      ? Math.max(0, Math.max(raised(j.hipL, j.kneeL), raised(j.hipR, j.kneeR)) - p.legs * 0.05)
      : 0;
  // the hem's ellipse stays above the ground line, so a long skirt never reaches below the feet
  const hem: V3 = [
    (j.kneeL[0] + j.kneeR[0]) / 2,
    0,
    ground + Math.max(p.legs * to + p.limb * 0.3 + kneeUp, ra * Math.tan(TILT) + p.limb * 0.5),
  ];
  fig.frustum(hem, top, ra, p.waistW * 0.95, slot, 'pelvis', piece, 0.05);
}

/** A band of trim round a skirt's hem. */
function hemBand(fig: Figure, to: number, flare: number): void {
  const { j, p, s } = fig;
  const spread = Math.max(Math.abs(j.kneeL[0] - j.kneeR[0]), Math.abs(j.ankleL[0] - j.ankleR[0]) * 0.6);
  const r = p.waistW + flare + spread * 0.4;
  const u = Math.max(p.legs * to + p.limb * 0.3, r * Math.tan(TILT) + p.limb * 0.5);
  fig.ball(
    [(j.kneeL[0] + j.kneeR[0]) / 2, 0, s.pose.rise * p.legs + u + p.limb * 0.25],
    r * 1.0,
    'cloth2',
    'pelvis',
    'trim',
    r * 0.42,
    0.06,
  );
}

export const TORSOS: Readonly<Record<Torso, (fig: Figure) => void>> = {
  tunic: (fig) => {
    trunk(fig, 'cloth');
    skirt(fig, 'cloth', 0.62, 0.5, 'tunic_hem');
  },
  shirt: (fig) => trunk(fig, 'cloth'),
  vest: (fig) => {
    trunk(fig, 'cloth2');
    // an open vest over the shirt: two front panels and the back
    for (const s of [-1, 1])
      fig.stick(
        fig.onTorso(0.15, fig.p.chestD * 0.35, s * fig.p.waistW * 0.62),
        fig.onTorso(0.95, fig.p.chestD * 0.3, s * fig.p.chestW * 0.62),
        fig.p.chestD * 0.78,
        'cloth',
        'torso',
        'vest',
        0.04,
      );
    fig.stick(
      fig.onTorso(0.15, -fig.p.chestD * 0.4, 0),
      fig.onTorso(0.95, -fig.p.chestD * 0.4, 0),
      fig.p.chestD * 0.85,
      'cloth',
      'torso',
      'vest',
    );
  },
  plate: (fig) => {
    trunk(fig, steel(fig), 1.06);
    skirt(fig, steel(fig), 0.66, 0.4, 'plate_skirt');
  },
  robe: (fig) => {
    trunk(fig, 'cloth');
    skirt(fig, 'cloth', 0.02, 1.1, 'robe');
    hemBand(fig, 0.02, 1.1);
    // a skeleton's robe hangs open at the chest: a dark gap with its ribs across it
    if (fig.o.face === 'sockets') {
      const { p } = fig;
      fig.ball(
        fig.onTorso(0.74, p.chestD * 0.92, 0),
        p.chestW * 0.42,
        'eye',
        'torso',
        'ribs',
        p.chestW * 0.3,
        0.1,
      );
      for (const t of [0.62, 0.76, 0.9])
        fig.stick(
          fig.onTorso(t, p.chestD * 1.02, -p.chestW * 0.34),
          fig.onTorso(t, p.chestD * 1.02, p.chestW * 0.34),
          p.limb * 0.2,
          'bone',
          'torso',
          'ribs',
          0.12,
        );
    }
  },
  dress: (fig) => {
    trunk(fig, 'cloth', 0.92);
    skirt(fig, 'cloth', fig.o.legs === 'skirt' ? 0.2 : 0.02, 1.3, 'dress');
  },
  coat: (fig) => {
    trunk(fig, 'cloth2');
    for (const s of [-1, 1])
      fig.stick(
        fig.onTorso(0.1, fig.p.chestD * 0.3, s * fig.p.waistW * 0.65),
        fig.onTorso(0.95, fig.p.chestD * 0.25, s * fig.p.chestW * 0.6),
        fig.p.chestD * 0.82,
        'cloth',
        'torso',
        'coat',
        0.04,
      );
    fig.stick(
      fig.onTorso(0.1, -fig.p.chestD * 0.35, 0),
      fig.onTorso(0.95, -fig.p.chestD * 0.35, 0),
      fig.p.chestD * 0.9,
      'cloth',
      'torso',
      'coat',
    );
    skirt(fig, 'cloth', 0.4, 0.7, 'coat_tails');
  },
  gi: (fig) => {
    trunk(fig, 'cloth');
    // the cross of the wrap's collar
    fig.stick(
      fig.onTorso(0.95, fig.p.chestD * 0.92, -fig.p.chestW * 0.55),
      fig.onTorso(0.45, fig.p.chestD * 0.95, fig.p.chestW * 0.3),
      fig.p.limb * 0.28,
      'cloth2',
      'torso',
      'collar',
      0.1,
    );
  },
  lamellar: (fig) => {
    trunk(fig, 'enamel', 1.06);
    for (const t of [0.4, 0.62, 0.84])
      fig.ball(fig.onTorso(t, 0, 0), fig.p.chestW * 1.02, 'gold', 'torso', 'lacing', fig.p.limb * 0.22, 0.02);
    skirt(fig, 'enamel', 0.6, 0.6, 'plates');
  },
  suit: (fig) => {
    trunk(fig, 'cloth', 1.1);
    fig.ball(
      fig.onTorso(0.65, fig.p.chestD * 0.95, 0),
      fig.p.chestW * 0.45,
      'cloth2',
      'torso',
      'panel',
      fig.p.chestW * 0.35,
      0.1,
    );
  },
  ribs: (fig) => {
    const { p } = fig;
    fig.stick(
      fig.onTorso(0, -p.chestD * 0.3, 0),
      fig.onTorso(1, -p.chestD * 0.3, 0),
      p.limb * 0.32,
      'bone',
      'torso',
      'spine',
    );
    for (const [i, t] of [0.5, 0.68, 0.86].entries()) {
      const w = p.chestW * (0.82 - i * 0.1 + 0.2);
      fig.ball(fig.onTorso(t, 0, 0), w, 'bone', 'torso', `rib${i}`, p.limb * 0.26, 0.02);
    }
    fig.stick(
      fig.onTorso(1, 0, -p.shoulder * 0.9),
      fig.onTorso(1, 0, p.shoulder * 0.9),
      p.limb * 0.3,
      'bone',
      'torso',
      'collarbone',
    );
  },
  chassis: (fig) => {
    trunk(fig, 'metal', 1.12);
    // a chest plate in the second metal and a dark seam at the waist: panels, not one smooth capsule
    fig.ball(
      fig.onTorso(0.68, fig.p.chestD * 0.9, 0),
      fig.p.chestW * 0.62,
      'cloth2',
      'torso',
      'panel',
      fig.p.chestW * 0.42,
      0.1,
    );
    fig.ball(fig.onTorso(0.3, 0, 0), fig.p.chestW * 1.16, 'eye', 'torso', 'seam', fig.p.limb * 0.16, 0.03);
    fig.ball(
      fig.onTorso(0.6, fig.p.chestD * 1.05, 0),
      fig.p.limb * 0.75,
      'glow',
      'torso',
      'core',
      undefined,
      0.2,
    );
  },
  rags: (fig) => {
    trunk(fig, 'cloth');
    for (const s of [-0.6, 0.1, 0.7])
      fig.cone(
        fig.onTorso(0.05, fig.p.chestD * 0.9, s * fig.p.waistW - 0.3),
        fig.onTorso(-0.2, fig.p.chestD * 0.95, s * fig.p.waistW),
        fig.p.limb * 0.55,
        'cloth',
        'torso',
        'tatters',
        0.02,
      );
    fig.ball(
      fig.onTorso(0.7, fig.p.chestD * 0.95, fig.p.chestW * 0.35),
      fig.p.limb * 0.6,
      'skin',
      'torso',
      'tear',
      undefined,
      0.08,
    );
  },
  fur: (fig) => {
    trunk(fig, 'skin', 1.05);
    fig.ball(
      fig.onTorso(0.5, fig.p.chestD * 0.5, 0),
      fig.p.chestW * 0.7,
      'cloth2',
      'torso',
      'belly',
      fig.p.torso * 0.32,
      0.1,
    );
  },
};

const SLEEVES: Readonly<Record<Torso, { upper: Slot; lower: Slot; k: number }>> = {
  tunic: { upper: 'cloth', lower: 'cloth', k: 1 },
  shirt: { upper: 'cloth', lower: 'cloth', k: 1 },
  vest: { upper: 'cloth2', lower: 'cloth2', k: 1 },
  plate: { upper: 'metal', lower: 'metal', k: 1.08 },
  robe: { upper: 'cloth', lower: 'cloth', k: 1.2 },
  dress: { upper: 'cloth', lower: 'skin', k: 0.9 },
  coat: { upper: 'cloth', lower: 'cloth', k: 1.05 },
  gi: { upper: 'cloth', lower: 'cloth', k: 1.05 },
  lamellar: { upper: 'enamel', lower: 'cloth2', k: 1.05 },
  suit: { upper: 'cloth', lower: 'cloth', k: 1.15 },
  ribs: { upper: 'bone', lower: 'bone', k: 0.35 },
  chassis: { upper: 'metal', lower: 'enamel', k: 0.8 },
  rags: { upper: 'cloth', lower: 'skin', k: 1 },
  fur: { upper: 'skin', lower: 'skin', k: 1.05 },
};

/** The material of each kind of hand (a staff's grip is drawn over its shaft in it: pieces-held.ts). */
export const HAND_SLOT: Readonly<Record<Hands, Slot>> = {
  bare: 'skin',
  gloves: 'leather',
  gauntlets: 'metal',
  bones: 'bone',
  claws: 'skin',
};

export function arms(fig: Figure): void {
  const { j, p, o } = fig;
  const sleeve =
    o.torso === 'plate' ? { ...SLEEVES.plate, upper: steel(fig), lower: steel(fig) } : SLEEVES[o.torso];
  for (const [side, n] of SIDES) {
    const sh = side < 0 ? j.shoulderL : j.shoulderR;
    const el = side < 0 ? j.elbowL : j.elbowR;
    const ha = side < 0 ? j.handL : j.handR;
    // arms lie a little in front of the torso, so a hanging arm is not swallowed by it
    const bias = 0.55;
    const r = p.limb * sleeve.k;
    fig.ball(sh, r * 1.02, sleeve.upper, `upper_arm_${n}`, `arm_${n}`, undefined, bias - 0.05);
    fig.stick(sh, el, r, sleeve.upper, `upper_arm_${n}`, `arm_${n}`, bias);
    const lower = o.torso === 'robe' ? r * 1.15 : p.limb * (sleeve.lower === 'skin' ? 0.85 : 0.92 * sleeve.k);
    fig.stick(el, ha, lower, sleeve.lower, `forearm_${n}`, `arm_${n}`, bias);
    const hand = HAND_SLOT[o.hands];
    fig.ball(
      ha,
      p.limb * (o.hands === 'bones' ? 0.5 : o.hands === 'gauntlets' ? 0.95 : 0.82),
      hand,
      `hand_${n}`,
      `hand_${n}`,
      undefined,
      bias + 0.1,
    );
    if (o.hands === 'claws')
      fig.cone(
        ha,
        add(ha, mul(side < 0 ? fig.s.forearmL : fig.s.forearmR, p.limb * 1.1)),
        p.limb * 0.35,
        'white',
        `hand_${n}`,
        `hand_${n}`,
        bias + 0.12,
      );
  }
}

/** The neck under headwear that closes round it. */
const NECKS: Partial<Record<Outfit['head'], Slot>> = {
  helm: 'metal',
  space: 'white',
  power: 'metal',
  wrap: 'cloth',
  hood: 'hat',
  kabuto: 'enamel',
};

/** Head, neck, ears and nose; the face's eyes are drawn after shading (face.ts). */
export function head(fig: Figure): void {
  const { j, p, o } = fig;
  const skin: Slot = o.face === 'sockets' ? 'bone' : o.head === 'dome' ? 'metal' : 'skin';
  const neck: Slot = NECKS[o.head] ?? skin;
  fig.stick(j.neck, fig.onTorso(0.95, 0, 0), p.limb * 0.75, neck, 'head', 'neck', -0.1);
  if (o.head === 'dome') {
    // a robot's head: a box, its flat faces lit apart (front, side, top), bolts at its sides and an
    // antenna with a lamp: a drum with a round top read as a knight's great helm with a crest, the
    // more so in motion (the blind review after 1130b: "the walking robot reads as a knight")
    const c = (f: number, s: number, u: number) => fig.onHead(f * 0.82, s * 0.95, u < 0 ? -0.8 : 0.72);
    for (const face of [
      [c(1, -1, -1), c(1, 1, -1), c(1, 1, 1), c(1, -1, 1)],
      [c(-1, -1, -1), c(-1, 1, -1), c(-1, 1, 1), c(-1, -1, 1)],
      [c(-1, 1, -1), c(1, 1, -1), c(1, 1, 1), c(-1, 1, 1)],
      [c(-1, -1, -1), c(1, -1, -1), c(1, -1, 1), c(-1, -1, 1)],
      [c(-1, -1, 1), c(1, -1, 1), c(1, 1, 1), c(-1, 1, 1)],
    ])
      fig.poly(face, 'metal', 'head', 'head');
    for (const side of [-1, 1])
      fig.stick(
        fig.onHead(0, side * 0.95, -0.05),
        fig.onHead(0, side * 1.22, -0.05),
        p.limb * 0.42,
        'enamel',
        'head',
        'bolt',
        0.02,
      );
    fig.stick(
      fig.onHead(-0.1, 0, 0.72),
      fig.onHead(-0.1, 0, 1.45),
      p.limb * 0.18,
      'metal',
      'head',
      'antenna',
    );
    fig.ball(fig.onHead(-0.1, 0, 1.5), p.limb * 0.42, 'glow', 'head', 'antenna');
    return;
  }
  // a closed helm or a wrap is the head's surface itself: nothing of the skin shows through
  if (['helm', 'space', 'power', 'wrap'].includes(o.head)) return;
  if (o.face === 'sockets') {
    // a skull: a dome over a narrower jaw (decision 0130). The cranium sits a little high and is a
    // little flat below, so the jaw hangs under it, forward of the neck; the cheekbones step in from
    // the dome's width to the jaw's. One ball with a jaw inside it read as a white disc at 128 px.
    fig.ball(fig.onHead(-0.04, 0, 0.2), p.head, skin, 'head', 'head', p.head * 0.82);
    fig.ball(fig.onHead(0.4, 0, -0.5), p.head * 0.7, 'bone', 'head', 'head', p.head * 0.32, 0.01);
    fig.ball(fig.onHead(0.3, 0, -0.8), p.head * 0.52, 'bone', 'head', 'head', p.head * 0.3, 0.02);
    return;
  }
  fig.ball(j.head, p.head, skin, 'head', 'head', p.head * 0.98);
  if (o.face !== 'beast')
    fig.ball(fig.onHead(0.96, 0, -0.15), p.head * 0.15, skin, 'head', 'head', undefined, 0.02);
  const covered = ['hood', 'kabuto', 'open-helm', 'horned-helm', 'crested-helm'].includes(o.head);
  if (!covered && !o.extras.includes('long-ears') && !o.extras.includes('ears'))
    // small and a little back: in profile a big skin ear mid-head reads as a face turned away
    for (const s of [-1, 1])
      fig.ball(fig.onHead(-0.12, s * 0.95, -0.1), p.head * 0.14, skin, 'head', 'head', p.head * 0.2);
}

/** Hair styles, drawn unless headwear covers the head. */
export const HAIRS: Readonly<Record<Hair, (fig: Figure) => void>> = {
  short: (fig) => {
    cap(fig);
    fringe(fig);
  },
  long: (fig) => {
    cap(fig);
    fringe(fig);
    const { p } = fig;
    for (const s of [-1, 1])
      fig.stick(
        fig.onHead(-0.35, s * 0.62, 0.1),
        fig.onHead(-0.45, s * 0.72, -1.55),
        p.head * 0.42,
        'hair',
        'head',
        'hair',
        -0.05,
      );
    fig.stick(
      fig.onHead(-0.6, 0, 0.1),
      fig.onHead(-0.7, 0, -1.5),
      p.head * 0.55,
      'hair',
      'head',
      'hair',
      -0.06,
    );
  },
  ponytail: (fig) => {
    cap(fig);
    fringe(fig);
    fig.stick(
      fig.onHead(-0.95, 0, 0.3),
      fig.onHead(-1.3, 0, -1),
      fig.p.head * 0.3,
      'hair',
      'head',
      'hair',
      -0.02,
    );
  },
  bun: (fig) => {
    cap(fig);
    fringe(fig);
    fig.ball(fig.onHead(-0.45, 0, 0.95), fig.p.head * 0.42, 'hair', 'head', 'hair');
  },
  spiky: (fig) => {
    cap(fig);
    for (const [f, s] of [
      [0.5, 0],
      [0.1, -0.55],
      [0.1, 0.55],
      [-0.35, 0],
      [-0.6, -0.4],
      [-0.6, 0.4],
    ] as const)
      fig.cone(
        fig.onHead(f * 0.8, s * 0.8, 0.55),
        fig.onHead(f * 1.15, s * 1.3, 1.35),
        fig.p.head * 0.32,
        'hair',
        'head',
        'hair',
        0.02,
      );
    fringe(fig);
  },
  slick: (fig) => {
    fig.ball(fig.onHead(-0.12, 0, 0.14), fig.p.head * 1.03, 'hair', 'head', 'hair', undefined, -0.08);
    // a widow's peak
    fig.cone(
      fig.onHead(0.62, 0, 0.72),
      fig.onHead(0.82, 0, 0.28),
      fig.p.head * 0.35,
      'hair',
      'head',
      'hair',
      0.12,
    );
  },
  bald: () => {},
  tufts: (fig) => {
    for (const s of [-0.5, 0.1, 0.6])
      fig.cone(
        fig.onHead(-0.3, s, 0.7),
        fig.onHead(-0.55, s * 1.3, 1.3),
        fig.p.head * 0.25,
        'hair',
        'head',
        'hair',
        0.02,
      );
  },
};

/**
 * Hair on the head: a shell over the back half (in profile it covers the back of the head, from the
 * front it hides behind the face) and a cap over the top, down to the forehead.
 */
function cap(fig: Figure): void {
  const h = fig.p.head;
  fig.ball(fig.onHead(-0.45, 0, 0.14), h * 0.88, 'hair', 'head', 'hair', h * 0.9, 0.1);
  fig.ball(fig.onHead(-0.04, 0, 0.6), h * 1.03, 'hair', 'head', 'hair', h * 0.52, 0.05);
}

function fringe(fig: Figure): void {
  fig.ball(fig.onHead(0.55, 0, 0.62), fig.p.head * 0.55, 'hair', 'head', 'hair', fig.p.head * 0.22, 0.14);
}
