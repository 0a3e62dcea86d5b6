/**
 * What a figure wears over its body: headwear, pieces on its back (cape, quiver, pack, wings, tail)
 * and extras (belt, sash, pauldrons, tabard, collars, apron, ears, horns, halo …). One row each.
 */
import type { V3 } from '../rig.js';
import { add, type Figure, mul, norm, sub } from './build.js';
import type { Back, Beard, Extra, Headwear, Slot } from './identity.js';

/**
 * What shows in a headwear's face opening: the skin of a face, the bone of a skull (a skeleton in a
 * warrior's helm keeps its skull, never a man's face), the metal of a robot's.
 */
function faceSlot(fig: Figure): Slot {
  return fig.o.face === 'sockets' ? 'bone' : fig.o.face === 'lenses' ? 'metal' : 'skin';
}

const PROFILE_BIAS = 0.5;

/** Headwear; `covers` hides the hair (and the ears). */
export const HEADWEAR: Readonly<Record<Headwear, { covers: boolean; draw: (fig: Figure) => void }>> = {
  none: { covers: false, draw: () => {} },
  helm: {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      // a great helm: steel over the whole head, a ridge, a plume in the enamel colour
      fig.ball(fig.onHead(-0.02, 0, 0.02), h * 1.1, 'metal', 'head', 'hat', h * 1.08, 0.05);
      fig.stick(fig.onHead(0.55, 0, 1.0), fig.onHead(0.98, 0, -0.55), h * 0.14, 'metal', 'head', 'hat', 0.25);
      fig.stick(
        fig.onHead(0.1, 0, 1.05),
        fig.onHead(-0.55, 0, 1.45),
        h * 0.3,
        'enamel',
        'head',
        'plume',
        0.1,
      );
      fig.stick(
        fig.onHead(-0.55, 0, 1.45),
        fig.onHead(-1.25, 0, 0.6),
        h * 0.26,
        'enamel',
        'head',
        'plume',
        0.1,
      );
    },
  },
  'open-helm': {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(-0.05, 0, 0.3), h * 1.06, 'metal', 'head', 'hat', h * 0.82, -0.02);
      fig.ball(fig.onHead(0, 0, 0.18), h * 1.14, 'metal', 'head', 'hat', h * 0.22, 0.06);
      // the face under the brim, as a hood's opening: seen from the front it is painted over the brim's
      // near half (which the tilted camera sees as a disc over the whole face), so the eyes show
      // in profile the brim's disc is nearer than the face below it and hid the eyes: a blank ball
      // (decision 0092), so the face's opening is painted over the brim from the side too
      const side = Math.abs(Math.sin((fig.facing * Math.PI) / 180));
      // In profile the opening rises to just under the brim: under a dome that came down to the nose
      // the eye sat on the face's outline under a grey band, a blindfold (0119)
      if (fig.facesViewer)
        fig.ball(
          fig.onHead(0.42 - 0.04 * side, 0, -0.24 + 0.1 * side),
          h * (0.76 + 0.04 * side),
          faceSlot(fig),
          'head',
          'head',
          h * (0.46 + 0.06 * side),
          0.4 + PROFILE_BIAS * side,
        );
      // the nose guard; a skull shows its nasal hole instead
      if (fig.o.face !== 'sockets')
        fig.stick(
          fig.onHead(0.98, 0, 0.25),
          fig.onHead(1.02, 0, -0.2),
          h * 0.12,
          'metal',
          'head',
          'hat',
          0.5,
        );
    },
  },
  'crested-helm': {
    covers: true,
    draw: (fig) => {
      // a soldier's helm: the open helm with a crest in the army's colour over its crown, front to
      // back — the grey dome alone read as grey hair, "an old man with a staff" (decision 0097)
      HEADWEAR['open-helm'].draw(fig);
      const h = fig.p.head;
      fig.stick(
        fig.onHead(0.55, 0, 1.02),
        fig.onHead(-0.1, 0, 1.32),
        h * 0.22,
        'cloth',
        'head',
        'plume',
        0.12,
      );
      fig.stick(
        fig.onHead(-0.1, 0, 1.32),
        fig.onHead(-0.85, 0, 0.95),
        h * 0.2,
        'cloth',
        'head',
        'plume',
        0.12,
      );
    },
  },
  'horned-helm': {
    covers: true,
    draw: (fig) => {
      HEADWEAR['open-helm'].draw(fig);
      const h = fig.p.head;
      for (const s of [-1, 1])
        fig.cone(
          fig.onHead(0, s * 0.8, 0.5),
          fig.onHead(0.2, s * 1.55, 1.35),
          h * 0.24,
          'white',
          'head',
          'hat',
          0.04,
        );
    },
  },
  hood: {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(-0.24, 0, 0.1), h * 1.12, 'hat', 'head', 'hat', undefined, -0.12);
      // the peak rises up and back over the crown, and the cloth drapes from the back of the head down
      // to the shoulders: in profile the peak lay level behind the head and the hood was a cap of
      // slick hair with a visor (decision 0133)
      // (in profile only: seen end-on the tilt drew a peak behind the head above it, the figure grew
      // taller and its frame's scale shrank)
      const side = Math.abs(Math.sin((fig.facing * Math.PI) / 180));
      fig.cone(
        fig.onHead(-0.5, 0, 0.45),
        fig.onHead(-1.5 + 0.1 * side, 0, 0.1 + 1.1 * side),
        h * (0.55 + 0.05 * side),
        'hat',
        'head',
        'hat',
        -0.2,
      );
      fig.ball(fig.onHead(-0.55, 0, -0.7), h * 0.85, 'hat', 'head', 'hat', h * 0.95, -0.16);
      // the opening: the face shows in front, the hood's rim round it. Seen from the front or the
      // side it is painted over the hood's crown (whose top is nearer the tilted camera), so a walk's
      // turning shoulders never swap the face for a bare hood from one frame to the next
      const open = fig.facesViewer ? 0.4 : 0.05;
      fig.ball(fig.onHead(0.36, 0, -0.05), h * 0.82, faceSlot(fig), 'head', 'head', h * 0.78, open);
      // the rim over the brow: in profile it juts a little past the forehead, not a visor over the eye
      fig.ball(
        fig.onHead(0.5 - 0.15 * side, 0, 0.72 + 0.08 * side),
        h * (0.88 - 0.1 * side),
        'hat',
        'head',
        'hat',
        h * 0.3,
        0.12,
      );
      fig.stick(
        fig.onTorso(0.98, 0, -fig.p.chestW * 0.75),
        fig.onTorso(0.98, 0, fig.p.chestW * 0.75),
        fig.p.limb * 0.9,
        'hat',
        'torso',
        'hat',
        0.3,
      );
    },
  },
  wizard: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0.1, 0, 0.44), h * 1.45, 'hat', 'head', 'hat', h * 0.3, 0.15);
      fig.cone(fig.onHead(-0.05, 0, 0.47), fig.onHead(-0.42, 0, 2.2), h * 0.95, 'hat', 'head', 'hat', 0.16);
      fig.ball(fig.onHead(-0.05, 0, 0.6), h * 0.95, 'gold', 'head', 'hatband', h * 0.2, 0.17);
    },
  },
  witch: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      // a wide brim and a tall cone whose tip bends back: the silhouette that says "witch" at 32 px
      fig.ball(fig.onHead(0.1, 0, 0.44), h * 1.75, 'hat', 'head', 'hat', h * 0.22, 0.15);
      fig.cone(fig.onHead(-0.05, 0, 0.47), fig.onHead(-0.42, 0, 2.3), h * 0.98, 'hat', 'head', 'hat', 0.16);
      fig.cone(
        fig.onHead(-0.42, 0, 2.22),
        fig.onHead(-1.25, 0.15, 2.6),
        h * 0.36,
        'hat',
        'head',
        'hat',
        0.17,
      );
      fig.ball(fig.onHead(-0.05, 0, 0.57), h * 0.92, 'cloth2', 'head', 'hatband', h * 0.18, 0.17);
    },
  },
  crown: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0, 0, 0.72), h * 0.82, 'gold', 'head', 'crown', h * 0.26, 0.18);
      for (const s of [-0.62, 0, 0.62])
        fig.cone(
          fig.onHead(Math.cos(s) * 0.6, Math.sin(s) * 0.75, 0.8),
          fig.onHead(Math.cos(s) * 0.62, Math.sin(s) * 0.8, 1.35),
          h * 0.2,
          'gold',
          'head',
          'crown',
          0.2,
        );
      fig.ball(fig.onHead(0.78, 0, 0.75), h * 0.12, 'enamel', 'head', 'crown', undefined, 0.25);
    },
  },
  circlet: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0, 0, 0.6), h * 1.0, 'gold', 'head', 'crown', h * 0.1, 0.18);
      fig.ball(fig.onHead(0.95, 0, 0.62), h * 0.12, 'enamel', 'head', 'crown', undefined, 0.22);
    },
  },
  straw: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0, 0, 0.4), h * 1.55, 'hat', 'head', 'hat', h * 0.24, 0.15);
      fig.ball(fig.onHead(-0.05, 0, 0.67), h * 0.9, 'hat', 'head', 'hat', h * 0.55, 0.16);
      fig.ball(fig.onHead(-0.05, 0, 0.53), h * 0.92, 'enamel', 'head', 'hatband', h * 0.15, 0.17);
    },
  },
  tricorn: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0, 0, 0.45), h * 1.5, 'hat', 'head', 'hat', h * 0.4, 0.15);
      fig.ball(fig.onHead(-0.05, 0, 0.75), h * 0.95, 'hat', 'head', 'hat', h * 0.5, 0.16);
      for (const s of [-1, 1])
        fig.cone(
          fig.onHead(-0.1, s * 0.9, 0.5),
          fig.onHead(0.2, s * 1.55, 1.1),
          h * 0.38,
          'hat',
          'head',
          'hat',
          0.16,
        );
      fig.ball(fig.onHead(1.0, 0, 0.65), h * 0.18, 'white', 'head', 'hat', undefined, 0.2);
    },
  },
  cowboy: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0, 0, 0.43), h * 1.5, 'hat', 'head', 'hat', h * 0.3, 0.15);
      fig.ball(fig.onHead(-0.05, 0, 0.8), h * 0.82, 'hat', 'head', 'hat', h * 0.62, 0.16);
      fig.ball(fig.onHead(-0.05, 0, 0.57), h * 0.84, 'leather', 'head', 'hatband', h * 0.14, 0.17);
    },
  },
  chef: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.stick(fig.onHead(-0.1, 0, 0.6), fig.onHead(-0.1, 0, 1.5), h * 0.78, 'white', 'head', 'hat', 0.15);
      fig.ball(fig.onHead(-0.1, 0, 1.75), h * 0.98, 'white', 'head', 'hat', h * 0.7, 0.16);
    },
  },
  space: {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(0, 0, 0.05), h * 1.32, 'white', 'head', 'hat', undefined, 0.05);
      fig.ball(fig.onHead(0.55, 0, 0.05), h * 0.92, 'eye', 'head', 'visor', h * 0.72, 0.2);
    },
  },
  power: {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      // a power-armour helm: a steel dome, a jaw guard, a lit visor band across the front (no plume)
      fig.ball(fig.onHead(-0.02, 0, 0.05), h * 1.12, 'metal', 'head', 'hat', h * 1.06, 0.05);
      fig.ball(fig.onHead(0.35, 0, -0.55), h * 0.85, 'metal', 'head', 'hat', h * 0.55, 0.08);
      fig.ball(fig.onHead(0.62, 0, 0.12), h * 0.78, 'glow', 'head', 'visor', h * 0.22, 0.2);
    },
  },
  kabuto: {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(-0.05, 0, 0.35), h * 1.08, 'enamel', 'head', 'hat', h * 0.86, 0.05);
      fig.ball(fig.onHead(-0.25, 0, -0.1), h * 1.5, 'enamel', 'head', 'hat', h * 0.3, -0.05);
      for (const s of [-1, 1])
        fig.cone(
          fig.onHead(0.7, s * 0.15, 0.9),
          fig.onHead(0.85, s * 1.05, 1.8),
          h * 0.16,
          'gold',
          'head',
          'crest',
          0.3,
        );
    },
  },
  wrap: {
    covers: true,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(-0.04, 0, 0.04), h * 1.05, 'cloth', 'head', 'hat', undefined, 0.03);
      // the band of skin the eyes look out of
      fig.ball(fig.onHead(0.55, 0, 0.08), h * 0.74, faceSlot(fig), 'head', 'head', h * 0.24, 0.1);
      fig.stick(
        fig.onHead(-0.9, 0, 0.35),
        fig.onHead(-1.6, 0.25, -0.2),
        h * 0.16,
        'cloth2',
        'head',
        'knot',
        -0.1,
      );
      fig.stick(
        fig.onHead(-0.9, 0, 0.35),
        fig.onHead(-1.5, -0.3, -0.45),
        h * 0.16,
        'cloth2',
        'head',
        'knot',
        -0.1,
      );
    },
  },
  bandana: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(-0.1, 0, 0.45), h * 1.07, 'hat', 'head', 'hat', h * 0.62, 0.06);
      fig.stick(fig.onHead(-1, 0, 0.3), fig.onHead(-1.4, 0.2, -0.3), h * 0.15, 'hat', 'head', 'knot', -0.1);
    },
  },
  cap: {
    covers: false,
    draw: (fig) => {
      const h = fig.p.head;
      fig.ball(fig.onHead(-0.05, 0, 0.4), h * 1.06, 'hat', 'head', 'hat', h * 0.62, 0.12);
      fig.ball(fig.onHead(0.75, 0, 0.32), h * 0.62, 'hat', 'head', 'hat', h * 0.12, 0.16);
    },
  },
  dome: { covers: true, draw: () => {} },
};

/** Where the cape hangs: from the shoulders down the back to the calves, flaring as the figure moves. */
function cape(fig: Figure): void {
  const { j, p, s } = fig;
  const back = (k: number) => mul(fig.fwd, -k);
  // the hem at the calves, swinging up as it flares behind (it hung to the ankles and, flared
  // towards the viewer, hid both legs of a walk or a run facing away: decision 0097)
  // and lifted by a knee raised in a step, as a coat's hem is (pieces-body.ts, skirt): facing away,
  // the stepping leg showed only as a foot that came and went (decision 0109)
  const thigh = (p.legs - p.limb * 1.22) * 0.505;
  const raised = (hip: V3, knee: V3) => thigh - (hip[2] - knee[2]);
  const kneeUp =
    s.pose.swing > 0.5
      ? Math.max(0, Math.max(raised(j.hipL, j.kneeL), raised(j.hipR, j.kneeR)) - p.legs * 0.05)
      : 0;
  const ground = s.pose.rise * p.legs + p.legs * (0.4 + 0.25 * s.pose.cape);
  const flare = p.chestD * 1.1 + s.pose.cape * p.legs * 0.3;
  const spread = p.chestW * 1.2;
  const top = (t: number): V3 =>
    add(add(add(j.shoulderL, mul(sub(j.shoulderR, j.shoulderL), t)), back(p.chestD * 0.75)), [
      0,
      0,
      p.limb * 0.5,
    ]);
  // four strips, the middle ones further back: the cape curves round the back, so it shades in folds
  const hem = (t: number, lift = kneeUp): V3 => {
    const a = (t * 2 - 1) * spread;
    const curve = 1 - (t * 2 - 1) ** 2;
    return add(add(add(j.pelvis, back(flare + curve * p.chestD * 0.5)), mul(fig.right, a)), [
      0,
      0,
      ground + lift - j.pelvis[2],
    ]);
  };
  // each strip shaded as it hangs with the shoulders square and the hem not lifted: turned with an
  // attack's twist a strip went from its lit tone to its dark one between two frames, a cape that
  // changed colour (the blind review after 1130b)
  const tw = -s.pose.twist;
  const square = (q: V3): V3 => {
    const d = sub(q, j.pelvis);
    return add(j.pelvis, [
      d[0] * Math.cos(tw) - d[1] * Math.sin(tw),
      d[0] * Math.sin(tw) + d[1] * Math.cos(tw),
      d[2],
    ]);
  };
  // and it hangs square too: a cape is cloth on the shoulders, not part of the chest, so it does not
  // turn with an attack's twist (turned with it, a side row's wind-up showed the cape's whole back
  // over the body: 117 cape pixels on a torso of 95 in a paladin's right row at 64 px, "a gold
  // smear", decision 0132); only its collar sits on the turned shoulders
  const cuts = [0, 0.3, 0.5, 0.7, 1];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const strip = [top(cuts[i]!), top(cuts[i + 1]!), hem(cuts[i + 1]!), hem(cuts[i]!)];
    const hung = [top(cuts[i]!), top(cuts[i + 1]!), hem(cuts[i + 1]!, 0), hem(cuts[i]!, 0)];
    fig.poly(strip.map(square), 'cape', 'cape', 'cape', -0.35, hung.map(square));
  }
  // the collar over the shoulders
  fig.stick(top(0), top(1), p.limb * 0.7, 'cape', 'torso', 'cape', -0.1);
}

export const BACK: Readonly<Record<Back, (fig: Figure) => void>> = {
  cape,
  quiver: (fig) => {
    const { p } = fig;
    const a = fig.onTorso(0.25, -p.chestD * 1.15, -p.chestW * 0.55);
    const b = fig.onTorso(1.12, -p.chestD * 1.1, p.chestW * 0.65);
    fig.stick(a, b, p.limb * 0.75, 'leather', 'torso', 'quiver', -0.2);
    // a dark band round its mouth, then three arrows standing out of it over the shoulder: wooden
    // shafts and white fletchings, fanned (two white sticks on a brown tunic did not read as a
    // quiver from behind: decision 0111)
    const along = norm(sub(b, a));
    fig.stick(
      add(b, mul(along, -p.limb * 0.35)),
      add(b, mul(along, p.limb * 0.05)),
      p.limb * 0.85,
      'wood',
      'torso',
      'quiver',
      -0.19,
    );
    for (const d of [-0.7, 0, 0.7]) {
      // out over the right shoulder, clear of a big head seen from behind
      const fan = add(mul(along, p.limb * 2.8), mul(fig.right, (0.9 + d) * p.limb));
      const tip = add(b, fan);
      const nock = add(b, mul(fan, 0.4));
      fig.stick(b, nock, p.limb * 0.22, 'wood', 'torso', 'arrows', -0.18);
      fig.stick(nock, tip, p.limb * 0.42, 'white', 'torso', 'arrows', 0.1);
    }
  },
  pack: (fig) => {
    const { p } = fig;
    fig.stick(
      fig.onTorso(0.35, -p.chestD * 1.25, 0),
      fig.onTorso(0.85, -p.chestD * 1.25, 0),
      p.chestD * 0.95,
      'leather',
      'torso',
      'pack',
      -0.15,
    );
  },
  sheath: (fig) => {
    const { p } = fig;
    const a = fig.onTorso(0.1, -p.chestD * 1.1, p.chestW * 0.7);
    const b = fig.onTorso(1.15, -p.chestD * 1.05, -p.chestW * 0.75);
    fig.stick(a, b, p.limb * 0.32, 'leather', 'torso', 'sheath', -0.2);
    fig.stick(
      b,
      add(b, mul(norm(sub(b, a)), p.limb * 1.6)),
      p.limb * 0.34,
      'cloth2',
      'torso',
      'sheath',
      -0.2,
    );
  },
  tank: (fig) => {
    const { p } = fig;
    for (const s of [-1, 1])
      fig.stick(
        fig.onTorso(0.35, -p.chestD * 1.3, s * p.chestW * 0.42),
        fig.onTorso(0.95, -p.chestD * 1.3, s * p.chestW * 0.42),
        p.chestD * 0.6,
        'white',
        'torso',
        'tank',
        -0.2,
      );
  },
  wings: (fig) => {
    const { p, s } = fig;
    const flap = s.pose.flap;
    for (const side of [-1, 1]) {
      const root = fig.onTorso(0.8, -p.chestD * 1.05, side * p.chestW * 0.3);
      const span = p.arm * 1.2;
      const lift = flap * span * 0.3;
      const at = (out: number, up: number, back: number): V3 =>
        add(add(add(root, mul(fig.right, side * out)), [0, 0, up]), mul(fig.fwd, -back));
      fig.poly(
        [
          root,
          at(span * 0.55, span * 0.5 + lift, 1),
          at(span, span * 0.25 + lift * 1.3, 2),
          at(span * 0.6, -span * 0.3 + lift * 0.5, 1.6),
          at(0.4, -span * 0.25, 0.5),
        ],
        'cape',
        'cape',
        `wing_${side < 0 ? 'l' : 'r'}`,
        -0.5,
      );
    }
  },
  tail: (fig) => {
    const { p, s } = fig;
    const sway = Math.sin(s.pose.flap * 1.2) * p.limb;
    const a = fig.onTorso(0.05, -p.chestD * 0.9, 0);
    fig.stick(
      a,
      add(add(a, mul(fig.fwd, -p.legs * 0.45)), [0, sway, p.legs * 0.3]),
      p.limb * 0.6,
      'skin',
      'pelvis',
      'tail',
      -0.3,
    );
  },
};

export const EXTRAS: Readonly<Record<Extra, (fig: Figure) => void>> = {
  belt: (fig) => {
    const { p } = fig;
    fig.ball(
      fig.onTorso(0.14, 0, 0),
      p.waistW + p.limb * 0.15,
      'leather',
      'pelvis',
      'belt',
      p.limb * 0.3,
      0.3,
    );
    fig.ball(
      fig.onTorso(0.14, p.chestD * 1.02, 0),
      p.limb * 0.42,
      'gold',
      'pelvis',
      'buckle',
      undefined,
      0.5,
    );
  },
  sash: (fig) => {
    const { p } = fig;
    fig.ball(
      fig.onTorso(0.16, 0, 0),
      p.waistW + p.limb * 0.2,
      'cloth2',
      'pelvis',
      'sash',
      p.limb * 0.42,
      0.3,
    );
    fig.stick(
      fig.onTorso(0.12, p.chestD * 0.9, p.waistW * 0.45),
      fig.onTorso(-0.22, p.chestD * 1.0, p.waistW * 0.55),
      p.limb * 0.32,
      'cloth2',
      'pelvis',
      'sash',
      0.35,
    );
  },
  pauldrons: (fig) => {
    for (const [sh, n] of [
      [fig.j.shoulderL, 'l'],
      [fig.j.shoulderR, 'r'],
    ] as const)
      fig.ball(
        add(sh, [0, 0, fig.p.limb * 0.3]),
        fig.p.limb * 1.55,
        fig.o.torso === 'lamellar' || fig.o.enamelled ? 'enamel' : 'metal',
        `upper_arm_${n}`,
        `pauldron_${n}`,
        fig.p.limb * 1.2,
        0.72,
      );
  },
  tabard: (fig) => {
    const { p } = fig;
    for (const side of fig.facesViewer ? [1] : [1, -1]) {
      const f = side * p.chestD * 1.12;
      fig.poly(
        [
          fig.onTorso(0.98, f, -p.chestW * 0.55),
          fig.onTorso(0.98, f, p.chestW * 0.55),
          fig.onTorso(-0.28, f * 1.05, p.waistW * 0.6),
          fig.onTorso(-0.28, f * 1.05, -p.waistW * 0.6),
        ],
        'enamel',
        'torso',
        'tabard',
        side > 0 ? 0.25 : -0.05,
      );
    }
  },
  cross: (fig) => {
    // a cross on the surcoat's chest, front and back (drawn over the tabard, in the cape's colour)
    const { p } = fig;
    for (const side of fig.facesViewer ? [1] : [1, -1]) {
      const f = side * p.chestD * 1.16;
      const bias = side > 0 ? 0.3 : -0.02;
      const bar = p.chestW * 0.13;
      fig.poly(
        [
          fig.onTorso(0.88, f, -bar),
          fig.onTorso(0.88, f, bar),
          fig.onTorso(0.02, f * 1.03, bar),
          fig.onTorso(0.02, f * 1.03, -bar),
        ],
        'cape',
        'torso',
        'cross',
        bias,
      );
      fig.poly(
        [
          fig.onTorso(0.66, f, -p.chestW * 0.4),
          fig.onTorso(0.66, f, p.chestW * 0.4),
          fig.onTorso(0.52, f * 1.01, p.chestW * 0.4),
          fig.onTorso(0.52, f * 1.01, -p.chestW * 0.4),
        ],
        'cape',
        'torso',
        'cross',
        bias,
      );
    }
  },
  collar: (fig) => {
    fig.stick(
      fig.onTorso(1.0, 0, -fig.p.chestW * 0.85),
      fig.onTorso(1.0, 0, fig.p.chestW * 0.85),
      fig.p.limb * 1.05,
      'white',
      'torso',
      'collar',
      0.4,
    );
  },
  'high-collar': (fig) => {
    for (const s of [-1, 1])
      fig.cone(
        fig.onTorso(0.95, -fig.p.chestD * 0.4, s * fig.p.chestW * 0.6),
        fig.onTorso(1.45, -fig.p.chestD * 0.9, s * fig.p.chestW * 1.15),
        fig.p.limb * 1.1,
        'cape',
        'torso',
        'collar',
        -0.05,
      );
  },
  apron: (fig) => {
    const { p } = fig;
    const f = p.chestD * 1.1;
    fig.poly(
      [
        fig.onTorso(0.85, f, -p.chestW * 0.5),
        fig.onTorso(0.85, f, p.chestW * 0.5),
        fig.onTorso(-0.45, f * 1.15, p.waistW * 0.75),
        fig.onTorso(-0.45, f * 1.15, -p.waistW * 0.75),
      ],
      'white',
      'torso',
      'apron',
      0.28,
    );
  },
  straps: (fig) => {
    const { p } = fig;
    fig.stick(
      fig.onTorso(0.98, p.chestD * 0.95, -p.chestW * 0.65),
      fig.onTorso(0.2, p.chestD * 0.95, p.chestW * 0.7),
      p.limb * 0.26,
      'leather',
      'torso',
      'straps',
      0.2,
    );
  },
  stole: (fig) => {
    const { p } = fig;
    for (const s of [-1, 1])
      fig.stick(
        fig.onTorso(0.98, p.chestD * 0.9, s * p.chestW * 0.35),
        fig.onTorso(-0.4, p.chestD * 1.05, s * p.chestW * 0.35),
        p.limb * 0.32,
        'gold',
        'torso',
        'stole',
        0.22,
      );
  },
  bracers: (fig) => {
    // leather cuffs on a skeleton's thin forearm bones read as big brown hands: its wrists stay bare
    if (fig.o.hands === 'bones') return;
    for (const [el, ha, n] of [
      [fig.j.elbowL, fig.j.handL, 'l'],
      [fig.j.elbowR, fig.j.handR, 'r'],
    ] as const)
      fig.stick(
        add(el, mul(sub(ha, el), 0.45)),
        add(el, mul(sub(ha, el), 0.85)),
        fig.p.limb * 1.0,
        'leather',
        `forearm_${n}`,
        `arm_${n}`,
        0.58,
      );
  },
  scarf: (fig) => {
    fig.ball(
      fig.onTorso(1.02, 0, 0),
      fig.p.chestW * 0.72,
      'cloth2',
      'torso',
      'scarf',
      fig.p.limb * 0.55,
      0.42,
    );
  },
  halo: (fig) => {
    fig.ball(fig.onHead(-0.1, 0, 1.55), fig.p.head * 0.82, 'glow', 'head', 'halo', fig.p.head * 0.2, 0.3);
  },
  horns: (fig) => {
    for (const s of [-1, 1])
      fig.cone(
        fig.onHead(0.2, s * 0.55, 0.7),
        fig.onHead(-0.2, s * 0.9, 1.6),
        fig.p.head * 0.22,
        'bone',
        'head',
        'horns',
        0.2,
      );
  },
  ears: (fig) => {
    // under a hat an animal's ears stand out at its sides ("a cat chef": issue #39)
    const hat = fig.o.head !== 'none';
    for (const s of [-1, 1])
      fig.cone(
        fig.onHead(-0.1, s * (hat ? 0.8 : 0.7), hat ? 0.15 : 0.5),
        fig.onHead(-0.25, s * (hat ? 1.5 : 0.95), hat ? 0.85 : 1.35),
        fig.p.head * 0.3,
        'skin',
        'head',
        'ears',
        0.1,
      );
  },
  'long-ears': (fig) => {
    // swept out, back and up: the tip stands out of the head's outline from the front and back (out)
    // and in profile (back and up), so a goblin or an elf keeps its ears in every row; pointing
    // straight out they lay along the line of sight in the side rows and vanished (issue #39). Rooted
    // behind the head's middle: rooted at it, the near ear lay across the face in profile (0102)
    for (const s of [-1, 1])
      fig.poly(
        [fig.onHead(-0.45, s * 0.8, 0.3), fig.onHead(-1.6, s * 1.5, 0.8), fig.onHead(-0.45, s * 0.8, -0.3)],
        'skin',
        'head',
        'ears',
        0.05,
      );
  },
  'round-ears': (fig) => {
    for (const s of [-1, 1])
      fig.ball(fig.onHead(-0.1, s * 0.95, 0.55), fig.p.head * 0.35, 'skin', 'head', 'ears', undefined, 0.05);
  },
  snout: (fig) => {
    fig.ball(
      fig.onHead(0.85, 0, -0.35),
      fig.p.head * 0.48,
      'cloth2',
      'head',
      'snout',
      fig.p.head * 0.38,
      0.2,
    );
    fig.ball(fig.onHead(1.25, 0, -0.22), fig.p.head * 0.16, 'eye', 'head', 'snout', undefined, 0.3);
  },
  muzzle: (fig) => {
    // an animal's light muzzle and dark nose under its eyes (a cat's, a rat's, a bear's)
    fig.ball(fig.onHead(0.8, 0, -0.4), fig.p.head * 0.36, 'white', 'head', 'muzzle', fig.p.head * 0.28, 0.2);
    fig.ball(fig.onHead(1.08, 0, -0.22), fig.p.head * 0.13, 'eye', 'head', 'muzzle', undefined, 0.3);
  },
  tusks: (fig) => {
    for (const s of [-1, 1])
      fig.cone(
        fig.onHead(0.85, s * 0.35, -0.55),
        fig.onHead(0.95, s * 0.42, -0.15),
        fig.p.head * 0.1,
        'white',
        'head',
        'tusks',
        0.3,
      );
  },
  fangs: () => {},
  glasses: () => {},
};

/** A beard on the chin: short, or long down the chest. */
export const BEARDS: Readonly<Record<Beard, (fig: Figure) => void>> = {
  none: () => {},
  short: (fig) => {
    fig.ball(fig.onHead(0.7, 0, -0.68), fig.p.head * 0.42, 'hair', 'head', 'beard', fig.p.head * 0.3, 0.12);
  },
  long: (fig) => {
    const h = fig.p.head;
    fig.ball(fig.onHead(0.6, 0, -0.55), h * 0.62, 'hair', 'head', 'beard', h * 0.45, 0.12);
    fig.cone(
      fig.onHead(0.72, 0, -0.5),
      add(fig.onTorso(0.62, fig.p.chestD * 1.05, 0), [0, 0, 0]),
      h * 0.55,
      'hair',
      'head',
      'beard',
      0.35,
    );
  },
};

/** What covers part of the face: a cloth mask over mouth and nose, an eyepatch's strap. */
export function facewear(fig: Figure): void {
  const h = fig.p.head;
  // a mask over the lower face, painted over a hood's or an open helm's face opening (which lies at
  // 0.4 over the headwear) so it shows standing, not only when a fall tilts the head; in the hat's
  // own colour only on a ninja's wrap (where it is one cloth with it), else dark, so a hooded or
  // capped thief's mask is not the colour of the hood round it
  if (fig.o.face === 'mask')
    fig.ball(
      fig.onHead(0.45, 0, -0.42),
      h * 0.8,
      fig.o.head === 'wrap' && fig.o.look !== 'samurai' ? 'hat' : 'eye',
      'head',
      'mask',
      h * 0.45,
      0.45,
    );
  if (fig.o.face === 'eyepatch')
    fig.stick(
      fig.onHead(0.7, 0.5, 0.35),
      fig.onHead(-0.3, -0.9, 0.35),
      h * 0.08,
      'eye',
      'head',
      'strap',
      0.12,
    );
}
