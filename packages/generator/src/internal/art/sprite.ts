import type { Directions, RgbaImage } from '@assetloom/pipeline';
import {
  type Action,
  type Feature,
  glossColorOf,
  glossFeaturesOf,
  type Interpretation,
  isFemale,
  KINDS,
  type KindSpec,
  kindSpec,
} from '@assetloom/pipeline/interpret';
import type { ResolvedStyle } from '@assetloom/pipeline/pixel';
import {
  DIRECTION_NAMES,
  fromOklab,
  gridFor,
  hash53,
  type Material,
  oklab,
  type Painter,
  PixelCanvas,
  parseHex,
  type Ramp,
  type Rgb,
  Rng,
  shadeGrid,
  upscale,
} from '@assetloom/pipeline/pixel';
import { applyLook, lookOf } from '../look/index.js';
import { type Build, FAR, M, type Parts, poseOf } from './bodies/common.js';
import { bird, blob, fish, floating, manyLegged, serpent } from './bodies/creatures.js';
import { quadruped } from './bodies/quadruped.js';
import { designFigure } from './figure/design.js';
import { drawFigure } from './figure/draw.js';
import type { FigureAction } from './figure/motion.js';
import { roleOn } from './figure/role.js';
import { type PropMotion, propFrame, thingVerb } from './library/props.js';
import { objectParts } from './objects/index.js';
import { FACING, projector, renderParts, TILT } from './rig.js';

export interface SpriteJob {
  rng: Rng;
  /** The request's seed (a figure's identity is made from it). */
  seed: number;
  style: ResolvedStyle;
  painter: Painter;
  interpretation: Interpretation;
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
  /** The colour the main body was drawn in (after palette mapping), for the quality check. */
  bodyColor: Rgb;
  /** The prompt's word for what a thing does, when its motion is that verb ("opening", "sparkling"). */
  verb?: string;
  /** The prompt's words a figure's design drew ("viking": the horned helm, the beard, the axe). */
  honoured?: readonly string[];
  /** The prompt's words the coat's colour drew, never a place left out ("polar": white, 0116). */
  coat?: readonly string[];
  /** How each row shows the subject, when not every row is drawn facing its way (a blade's side rows). */
  views?: Array<{ direction: string; view: 'source' | 'mirror' | 'repeat' }>;
  /** A still thing's sprite: every frame of a row is its one picture (nothing asked it to move). */
  still?: boolean;
}

/** The drawing used when the prompt names no known subject: a plain figure (the interpretation says so). */
const FALLBACK_KIND = 'person.person';

function hsvToRgb(h: number, s: number, v: number): Rgb {
  const f = (n: number) => {
    const k = (n + h * 6) % 6;
    return Math.round(255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}
function rgbToHsv([r, g, b]: Rgb): [number, number, number] {
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r / 255) h = ((g - b) / 255 / d + 6) % 6;
    else if (max === g / 255) h = (b - r) / 255 / d + 2;
    else h = (r - g) / 255 / d + 4;
  }
  return [h / 6, max ? d / max : 0, max];
}
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

function buildPlan(b: Build, action: Action, phase: number, fpd: number, facing: number): Parts {
  const th = (facing * Math.PI) / 180;
  const pose = {
    ...poseOf(action, phase, fpd),
    facing,
    // in the noun's own stretch: a forward or sideways step is scaled by aspect[0] or [1], height by [2]
    ground: (Math.cos(th) * Math.tan(TILT) * b.aspect[0]) / b.aspect[2],
    groundS: (Math.sin(th) * Math.tan(TILT) * b.aspect[1]) / b.aspect[2],
  };
  switch (b.spec.plan) {
    case 'biped':
      // people and other two-legged subjects are drawn by the figure rig (drawFigureSprite, decision 0046)
      throw new Error(
        '[assetloom/generator] a biped reached the part-list bodies; it is drawn by the figure rig',
      );
    case 'quadruped':
      return quadruped(b, pose);
    case 'bird':
      return bird(b, pose);
    case 'fish':
      return fish(b, pose);
    case 'serpent':
      return serpent(b, pose);
    case 'many-legged':
      return manyLegged(b, pose);
    case 'blob':
      return blob(b, pose);
    case 'floating':
      return floating(b, pose);
    default:
      return objectParts(b, pose, facing);
  }
}

/** The animation label of a motion cycle, as atlas files name it (`walk_down`, `hop_left`, …). */
function motionLabel(spec: KindSpec, action: Action): string {
  if (spec.plan === 'object') return action === 'idle' ? (spec.object === 'coin' ? 'spin' : 'float') : action;
  if (spec.plan === 'blob' && action === 'jump') return 'hop';
  return action;
}

/** Men and boys: short hair, trousers (the noun says so; an unmarked person varies). */
const MALE =
  /^(man|men|boy|father|dad|daddy|son|husband|brother|uncle|grandfather|grandpa|gentleman|sir|guy|lad|king|prince|emperor|monk)$/;

/** Plain steel (weapons, and armour of no asked colour). */
const STEEL: Rgb = [150, 162, 178];
/** Nouns after a colour word that mean the armour itself ("in blue armour"). */
const ARMOUR_WORDS = new Set(['armor', 'armour', 'plate', 'mail', 'helmet', 'helm']);

/** The figure rig's action for a prompt's action (a figure has no spin or glow: it stands). */
const FIGURE_ACTION: Readonly<Partial<Record<Action, FigureAction>>> = {
  idle: 'idle',
  walk: 'walk',
  run: 'run',
  attack: 'attack',
  jump: 'jump',
  hurt: 'hurt',
  death: 'death',
};

/** People and humanoid creatures: the figure rig, from an identity designed for the prompt and seed. */
function drawFigureSprite(job: SpriteJob): SpriteOutput {
  const it = job.interpretation;
  const identity = designFigure({
    interpretation: it,
    seed: job.seed,
    painter: job.painter,
    enforced: job.style.paletteEnforced,
  });
  const asked = job.animate === 'idle' ? (it.action ?? 'idle') : (it.action ?? 'walk');
  const action = FIGURE_ACTION[asked] ?? 'idle';
  const style = it.time === 'night' ? { ...job.style, mood: 'night' as const } : job.style;
  const out = drawFigure({
    identity,
    action,
    directions: DIRECTION_NAMES[job.directions],
    frames: job.framesPerDirection,
    width: job.width,
    height: job.height,
    style,
  });
  return {
    frames: out.frames,
    subject: it.subject ?? 'figure (no known subject in the prompt)',
    motion: job.animate === 'idle' && action === 'idle' ? 'idle' : action,
    bodyColor: parseHex(identity.palette[identity.outfit.look === 'knight' ? 'enamel' : 'cloth'][3])!,
    honoured: identity.honoured,
    // one side row is the other mirrored, and says so (decision 0119)
    views: out.views,
  };
}

/** Draws every frame (direction-major) for the sprite and animation asset types. */
export function drawSpriteFrames(job: SpriteJob): SpriteOutput {
  const { interpretation: it, rng } = job;
  const spec = (it.kind ? kindSpec(it.kind) : undefined) ?? KINDS[FALLBACK_KIND];
  // an animal in a role stands as the figure ("a cat chef", "a lizard warrior": issue #39)
  if (spec.plan === 'biped' || roleOn(it)?.anthro) return drawFigureSprite(job);
  const kind = it.kind && kindSpec(it.kind) ? it.kind : FALLBACK_KIND;
  const features = subjectFeatures(it, spec);
  // the noun's own proportions: stable per noun, so a wolf is not a fox whatever the seed
  const id = new Rng(hash53(`shape:${it.lemma ?? kind}`));
  const shape = Array.from({ length: 8 }, () => id.range(-1, 1));
  const aspect = aspectOf(spec, shape, features);
  if (it.size !== undefined && it.size < 1) features.add('small');
  // a slime bouncing hops (its hop leaves the ground: decision 0120); the word is then honoured
  const bounced =
    spec.plan === 'blob' &&
    !features.has('shell') &&
    !features.has('tentacles') &&
    !it.action &&
    job.animate === 'motion'
      ? it.ignored.find((w) => BOUNCE.test(w))
      : undefined;
  const action: Action =
    job.animate === 'idle'
      ? (it.action ?? 'idle')
      : (it.action ?? (spec.plan === 'object' ? 'idle' : spec.plan === 'blob' ? 'jump' : 'walk'));
  const colours = subjectColours(job, spec);
  const materials = spriteMaterials(job, spec, colours);
  // proportions from the seed
  const vary: Build['vary'] = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
  const sizeK = (it.size ?? 1) * (features.has('big') && spec.plan !== 'quadruped' ? 1.12 : 1);
  const build = (u: number): Build => ({
    u,
    rng,
    spec,
    kind,
    ...(it.lemma ? { lemma: it.lemma } : {}),
    features,
    scale: sizeK,
    vary,
    shape,
    aspect,
    ...(it.held ? { held: it.held } : {}),
    ...(colours.shieldAsked ? { coloured: true } : {}),
  });
  // a thing doing its verb, or a still thing asked to move (issue #39): one still frame a direction,
  // and the motion drawn on its pixels (library/props.ts): a glint on a shiny thing, else a settle;
  // a still thing's sprite holds its one picture (decision 0115)
  const fpd = job.framesPerDirection;
  const of = `${it.lemma ?? ''} ${spec.object ?? ''}`;
  const verb =
    spec.plan === 'object' && job.animate === 'motion' && fpd > 1
      ? thingVerb([...it.understood, ...it.ignored], of)
      : null;
  // (a still sprite's frames too: a bob re-drawn every frame changed a sword's outline and dropped its
  // guard's pixels, decision 0095)
  const prop: PropMotion | null =
    verb?.motion ??
    (spec.plan === 'object' && action === 'idle' && fpd > 1 && spec.object !== 'coin'
      ? job.animate !== 'motion'
        ? 'still'
        : spec.shiny
          ? 'sparkle'
          : 'settle'
      : null);
  const plan: PlanOf = prop
    ? { spec, features, build, action: 'idle', fpd: 1 }
    : { spec, features, build, action, fpd: job.framesPerDirection };
  const frame = frameLayout(job, plan);
  // nothing is cut by the frame's edge (issue #39): the boxes above are the parts' centres and radii,
  // and the look's outline is a pixel outside them, so a sheet whose frames still reach the top or a
  // side (a slime's jump, a ship's bob) is drawn a little smaller
  let unit = frame.unit;
  let done = drawFramesAt(job, plan, frame, materials, unit);
  for (let tries = 0; tries < 3 && done.frames.some(touchesTopOrSides); tries++) {
    unit *= 0.92;
    done = drawFramesAt(job, plan, frame, materials, unit);
  }
  const ctx = { colours: done.colours, enforced: job.style.paletteEnforced, of };
  // a still blade, axe or staff seen from its side is its edge (a guard one pixel wide, gone): its side
  // rows are its front view and that view mirrored, and say so (decision 0095)
  const flat = prop !== null && FLAT_HELD.has(spec.object ?? '') && job.directions > 1;
  const views = flat ? flatHeldViews(frame.names) : undefined;
  // (a mirrored row is its source row's finished frames mirrored, glints and all: a glint placed on the
  // mirrored picture's upper left sat on the guard and took its pixels)
  const finished = prop
    ? frame.names.flatMap((_, d) => {
        const [still, mirrored] = views ? flatHeldRow(done.frames, frame.names, d) : [done.frames[d]!, false];
        return Array.from({ length: fpd }, (_, k) => {
          const f = propFrame(still, prop, k, fpd, ctx);
          return mirrored ? mirrorImage(f) : f;
        });
      })
    : done.frames;
  const frames = finished.map((f) =>
    upscale(f.data, frame.gw, frame.gh, frame.factor, job.width, job.height),
  );
  return {
    frames,
    subject: it.subject ?? 'figure (no known subject in the prompt)',
    motion: prop
      ? prop === 'settle' || prop === 'still'
        ? 'idle'
        : prop
      : job.animate === 'idle' && action === 'idle'
        ? 'idle'
        : motionLabel(spec, action),
    bodyColor: done.colours.map(materials[0]!.ramp.base),
    ...(verb ? { verb: verb.word } : bounced ? { verb: bounced } : {}),
    ...(views ? { views } : {}),
    ...(prop === 'still' ? { still: true } : {}),
    ...(polarWords(it).length ? { coat: polarWords(it) } : {}),
  };
}

/** A bounce's words: a slime bouncing hops (decision 0120). */
const BOUNCE = /^(bounce|bounces|bouncing|bouncy|bounced|弹跳|蹦|弹)$/i;

/** Held things whose head or guard is flat across them: edge-on from the side. */
const FLAT_HELD = new Set(['blade', 'axe', 'hammer', 'spear', 'staff', 'torch', 'key', 'bow']);

/**
 * A flat held thing's rows: the left row repeats the front view, the right row mirrors it, and the
 * back (a flat thing seen from behind is its front mirrored) mirrors it; the diagonals stay drawn.
 */
function flatHeldViews(names: readonly string[]): NonNullable<SpriteOutput['views']> {
  return names.map((direction) => ({
    direction,
    view: direction === 'left' ? 'repeat' : direction === 'right' || direction === 'up' ? 'mirror' : 'source',
  }));
}

/**
 * A flat held thing's still frame for row d (one still frame a row) and whether the row shows it
 * mirrored: the left, right and back rows show the front view's pixels.
 */
function flatHeldRow(
  frames: readonly RgbaImage[],
  names: readonly string[],
  d: number,
): [RgbaImage, boolean] {
  const front = frames[names.indexOf('down')];
  const name = names[d]!;
  if (!front || !['left', 'right', 'up'].includes(name)) return [frames[d]!, false];
  return [front, name !== 'left'];
}

function mirrorImage(f: RgbaImage): RgbaImage {
  const { width: w, height: h, data } = f;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      out.set(data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), (y * w + (w - 1 - x)) * 4);
  return { width: w, height: h, data: out };
}

/** The subject's features: its kind's, what its noun's gloss states, and whether it is a woman or a man. */
function subjectFeatures(it: Interpretation, spec: KindSpec): Set<Feature> {
  const features = new Set<Feature>(spec.features);
  // what the noun's WordNet gloss says about its shape ("a mane", "short-legged", "large")
  const stated = it.lemma ? glossFeaturesOf(it.lemma) : [];
  for (const f of stated) features.add(f as Feature);
  // a woman or a girl (the noun, or "a female knight"): no beard, long hair
  if (
    (it.lemma && isFemale(it.lemma)) ||
    (it.modifiers ?? []).some((m) => /^(female|woman|girl|lady)$/.test(m))
  ) {
    features.add('female');
    features.add('long-hair');
  } else if (it.lemma && MALE.test(it.lemma)) features.add('male');
  // an owl standing on a sheet that turns is the rig's upright bird, wings folded at its sides (its
  // drawings are front views turned by sliding the face: decision 0133); flying, it keeps its wings
  if (it.lemma === 'owl' && (it.action ?? 'idle') !== 'fly') features.add('upright' as Feature);
  if (features.has('flightless' as Feature) || features.has('upright' as Feature)) features.delete('wings');
  return features;
}

/** The noun's own stretch along forward, side and up, from its shape and the features that name one. */
function aspectOf(spec: KindSpec, shape: readonly number[], features: ReadonlySet<Feature>): Build['aspect'] {
  const stretch = (k: number, more: string, less: string) =>
    1 +
    // people and beasts vary more: filling the frame, their outlines would otherwise converge
    shape[k]! * (spec.plan === 'biped' ? 0.3 : spec.plan === 'quadruped' ? 0.24 : 0.16) +
    (features.has(more as Feature) ? 0.22 : 0) -
    (features.has(less as Feature) ? 0.22 : 0);
  return [stretch(5, 'long', 'short'), stretch(6, 'heavy', 'slender'), stretch(7, 'tall', 'flat')];
}

interface SubjectColours {
  /** The colour the prompt asked for, if any. */
  asked: Rgb | null;
  /** The asked colour enamels the armour ("a blue knight", "in blue armour"). */
  armourAsked: boolean;
  /** The asked colour paints the shield ("a blue knight", "with a blue shield"). */
  shieldAsked: boolean;
  main: Rgb;
  second: Rgb;
  accentHue: number;
}

/** Colours: the asked colour (or material) colours the main body; else the gloss's or the kind's. */
function subjectColours(job: SpriteJob, spec: KindSpec): SubjectColours {
  const { interpretation: it, rng } = job;
  const asked = it.colors[0] ? parseHex(it.colors[0].hex) : null;
  // what else the asked colour names: "a blue knight" and "a knight in blue armour" enamel the armour,
  // "a knight with a blue shield" the shield; "a knight with a red cape" neither
  const of = it.colors[0]?.of;
  const armourAsked = asked !== null && (of === undefined || ARMOUR_WORDS.has(of));
  const shieldAsked = asked !== null && (of === undefined || of === 'shield');
  const gloss = !asked && it.lemma ? glossColorOf(it.lemma) : null;
  // a fox's coat is its own orange, and a "red" fox is that orange too (a red fox is the species: the
  // palette's red drew it crimson, decision 0111)
  // (a polar bear's is white, a toad's a warty olive brown: decision 0116)
  const coat = polarWords(it).length ? POLAR_COAT : it.lemma ? COATS[it.lemma] : undefined;
  const redAsked = asked !== null && isRed(asked);
  let main: Rgb =
    coat && (!asked || redAsked) ? coat : (asked ?? (gloss ? parseHex(gloss) : null) ?? spec.color);
  // "red" of a red fox names the species' orange: the quality check holds the picture to that colour
  // (it held it to the palette's red, and "red fox" failed prompt_adherence after every retry)
  if (coat && asked && redAsked && it.colors[0])
    it.colors[0] = { ...it.colors[0], hex: `#${coat.map((v) => v.toString(16).padStart(2, '0')).join('')}` };
  if (!asked) {
    // an unasked colour varies a little with the seed
    const [h, s, v] = rgbToHsv(main);
    main = hsvToRgb((h + rng.range(-0.03, 0.03) + 1) % 1, Math.min(1, s * rng.range(0.85, 1.1)), v);
  }
  // black is the darkest neutral: a near-black with a tint (WordNet's penguin #23232e, bluish; the
  // seed's hue turn) took a navy or a plum for its rim light and ramp (issue #39, decision 0127)
  const [mL, ma, mb] = oklab(main);
  if (mL < 0.32 && Math.hypot(ma, mb) < 0.05) main = fromOklab(mL, 0, 0);
  const second: Rgb = it.colors[1] ? parseHex(it.colors[1].hex)! : mix(main, [250, 245, 230], 0.45);
  const [h0] = rgbToHsv(main);
  const accentHue = (h0 + 0.5 + rng.range(-0.12, 0.12)) % 1;
  return { asked, armourAsked, shieldAsked, main, second, accentHue };
}

/** Animals whose coat has its own colour, which "red" names too (a red fox is orange). */
const COATS: Readonly<Record<string, Rgb>> = {
  fox: [214, 110, 38],
  vixen: [214, 110, 38],
  toad: [146, 122, 72],
};
const POLAR_COAT: Rgb = [236, 234, 222];
/** The words that make the rig's bear a polar bear, white ("a polar bear", "an ice bear"). */
const polarWords = (it: Interpretation): string[] =>
  it.kind === 'animal.bear' ? (it.modifiers ?? []).filter((m) => /^(polar|ice|arctic)$/.test(m)) : [];
/** A red: hue within 20° of red, saturated. */
function isRed(c: Rgb): boolean {
  const [h, s] = rgbToHsv(c);
  return s > 0.4 && (h < 20 / 360 || h > 340 / 360);
}

const SKIN_TONES: Rgb[] = [
  [215, 170, 150],
  [205, 160, 135],
  [165, 105, 80],
  [125, 78, 62],
];

/** Every material slot (M) in the painter's ramps, then each a shade darker (slot + FAR). */
function spriteMaterials(job: SpriteJob, spec: KindSpec, c: SubjectColours): Material[] {
  const { painter, rng } = job;
  const shiny =
    spec.shiny ||
    /gold|silver|iron|steel|metal|bronze|copper|crystal|glass|ice/.test(job.interpretation.material ?? '');
  const flat = (c: Rgb): Material => ({ ramp: flatRamp(c), flat: true });
  const materials = materialSet(painter, [
    [c.main, shiny ? { shiny: true } : undefined],
    [c.second],
    [hsvToRgb(rng.pick([0.07, 0.09, 0.6, 0.02]), rng.range(0.35, 0.6), rng.range(0.22, 0.4))],
    [painter.darkest],
    [rng.pick(SKIN_TONES)],
    [STEEL, { shiny: true }],
    [[130, 85, 50]],
    [hsvToRgb(c.accentHue, 0.65, 0.7)],
    [[240, 240, 232]],
    [[255, 225, 90]],
    [mix(c.main, [255, 255, 255], 0.3)],
    [[235, 225, 200]],
    [[240, 200, 60], { shiny: true }],
    [[225, 195, 110]],
    // a knight's armour: steel, enamelled in the asked colour ("a blue knight" is blue, not grey);
    // under an enforced palette mostly the colour itself, or the mix would snap to the palette's grey
    [
      c.armourAsked && c.asked ? mix(STEEL, c.asked, job.style.paletteEnforced ? 0.8 : 0.55) : STEEL,
      { shiny: true },
    ],
  ]);
  materials[M.EYE - 1] = flat(painter.darkest);
  const body = materials[0]!.ramp;
  if (oklab(body.base)[0] < 0.32) {
    // a black body: a brighter rim light so its shape reads against its own outline, and eyes that
    // shine (a black cat's yellow eyes) instead of vanishing into it
    materials[0] = { ...materials[0]!, ramp: { ...body, light: painter.shade(body.base, 1, 0.8) } };
    materials[M.EYE - 1] = flat(painter.chooseLab([250, 220, 90]));
  }
  materials[M.GLOW - 1] = flat(materials[M.GLOW - 1]!.ramp.base);
  // slot + FAR: the same material a shade darker, for limbs on the far side
  while (materials.length < FAR) materials.push(materials[0]!);
  for (let i = 0; i < FAR; i++) {
    const { ramp, flat: isFlat, shiny: isShiny } = materials[i]!;
    materials.push(
      isFlat
        ? materials[i]!
        : {
            ramp: {
              shadow: ramp.shadow,
              dark: ramp.shadow,
              base: ramp.dark,
              light: ramp.base,
              outline: ramp.outline,
            },
            ...(isShiny ? { shiny: true } : {}),
          },
    );
  }
  return materials;
}

/** What a subject's frames are drawn from: its build at a unit, the action and the cycle's length. */
interface PlanOf {
  spec: KindSpec;
  features: ReadonlySet<Feature>;
  build: (u: number) => Build;
  action: Action;
  fpd: number;
}

/**
 * The phase of frame f of the cycle. Walk and run cycles start on a contact pose, so frames 0 and
 * fpd/2 are the two contacts. A two-frame cycle is drawn an eighth later: its two contacts differ
 * only in depth, which a front or back view cannot show (a light body's far-side shade can map to
 * its own colour), so both frames would be one picture; an eighth on, one foot is lifted and the legs
 * are still apart.
 */
function phaseOf({ action, fpd }: PlanOf, f: number): number {
  const cyclic = action === 'walk' || action === 'run';
  return fpd > 1
    ? cyclic
      ? f / fpd + (fpd === 2 ? 0.125 : 0)
      : (f + 0.25) / fpd
    : action === 'idle' || cyclic
      ? 0
      : 0.3;
}

type Box = [number, number, number, number];

/** The box of every frame of a direction, at unit 1 with the feet at the origin. */
function boxOf(plan: PlanOf, facing: number, act: Action, frames: number): Box {
  const bb: Box = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (let f = 0; f < frames; f++) {
    const phase = act === plan.action ? phaseOf(plan, f) : 0;
    const pose = poseOf(act, phase, plan.fpd);
    const P = projector({ ox: 0, oy: 0, facing, fall: pose.fall });
    for (const part of buildPlan(plan.build(1), act, phase, plan.fpd, facing).list) {
      const pts =
        part.t === 'ball' ? [part.c] : part.t === 'stick' || part.t === 'cone' ? [part.a, part.b] : part.p;
      // the drawn extent: a ball's own vertical radius, a cone's flat base
      const r = part.t === 'poly' ? 0 : part.r;
      const ry =
        part.t === 'ball'
          ? (part.ry ?? part.r) * Math.cos(TILT) + part.r * Math.sin(TILT) * 0.2
          : part.t === 'cone'
            ? part.r * Math.sin(TILT)
            : r;
      pts.forEach((q, k) => {
        const [x, y] = P(q);
        const rx = part.t === 'cone' && k === 1 ? 0 : r;
        const rY = part.t === 'cone' && k === 1 ? 0 : ry;
        bb[0] = Math.min(bb[0], x - rx);
        bb[1] = Math.min(bb[1], y - rY);
        bb[2] = Math.max(bb[2], x + rx);
        bb[3] = Math.max(bb[3], y + rY);
      });
    }
  }
  return bb;
}

/** Where a subject sits in its frames: the grid, each direction's resting box and centre, the unit. */
interface FrameLayout {
  gw: number;
  gh: number;
  factor: number;
  names: readonly string[];
  /** Each direction's box standing idle (it centres the subject and puts its feet on the baseline). */
  rest: Box[];
  baseline: number;
  /** The x of each direction's centre, at unit 1. */
  centres: number[];
  unit: number;
}

/**
 * Game sprites fill their frame: the subject standing idle sets one scale for every action, so a
 * character's walk, jump and attack sheets match; a standing figure is ~80 % of the frame's height
 * with its feet on a baseline a few cells above the bottom, centred. Things lying or flying keep
 * to the frame's width; objects are a little smaller, still reading at a glance.
 */
function frameLayout(job: SpriteJob, plan: PlanOf): FrameLayout {
  const { gw, gh, factor } = gridFor(job.width, job.height, job.style.gridHint);
  const names = DIRECTION_NAMES[job.directions];
  const { spec, action } = plan;
  const facings = names.map((name) => FACING[name] ?? 0);
  const rest = facings.map((fc) => boxOf(plan, fc, 'idle', 1));
  const boxes = facings.map((fc) => boxOf(plan, fc, action, plan.fpd));
  const margin = 1 + Math.max(1, job.style.lineWeight);
  const baseline = gh - Math.max(margin, Math.round(gh * 0.07));
  let restW = 1;
  let restH = 1;
  for (const [x0, y0, x1, y1] of rest) {
    restW = Math.max(restW, x1 - x0);
    restH = Math.max(restH, y1 - y0);
  }
  const upright =
    spec.plan === 'bird' &&
    (plan.features.has('flightless' as Feature) || plan.features.has('upright' as Feature));
  const fill = spec.plan === 'object' ? 0.74 : upright ? 0.8 : 0.86;
  let unit = upright
    ? Math.min((gh * fill) / restH, (gw * 0.94) / restW)
    : Math.min((gh * fill) / restH, (gw * fill) / restW);
  // every frame of the action must stay inside the frame (a jump's top, a fall's length)
  const falls = action === 'death' || action === 'hurt';
  const centres = names.map((_, d) => {
    const [x0, , x1] = falls ? boxes[d]! : rest[d]!;
    return (x0 + x1) / 2;
  });
  boxes.forEach(([x0, y0, x1], d) => {
    const cx = centres[d]!;
    unit = Math.min(
      unit,
      (gw / 2 - margin + 1) / Math.max(1e-6, cx - x0, x1 - cx),
      (baseline - margin + 1) / Math.max(1e-6, -y0),
    );
  });
  return { gw, gh, factor, names, rest, baseline, centres, unit };
}

/** Every frame drawn at `unit`, shaded in the materials' ramps, then given the look every sprite shares. */
function drawFramesAt(job: SpriteJob, plan: PlanOf, frame: FrameLayout, materials: Material[], unit: number) {
  const { gw, gh } = frame;
  const { action, fpd } = plan;
  const it = job.interpretation;
  const style = it.time === 'night' ? { ...job.style, mood: 'night' as const } : job.style;
  const shaded: RgbaImage[] = [];
  frame.names.forEach((name, d) => {
    const facing = FACING[name] ?? 0;
    // centred on the resting figure (a fall may reach further to one side), feet on the baseline
    const ry1 = frame.rest[d]![3];
    const ox = Math.round(gw / 2 - frame.centres[d]! * unit);
    const oy = Math.round(frame.baseline - Math.max(0, ry1) * unit);
    for (let f = 0; f < fpd; f++) {
      const phase = phaseOf(plan, f);
      const pose = poseOf(action, phase, fpd);
      const grid = new PixelCanvas(gw, gh);
      const parts = buildPlan(plan.build(unit), action, phase, fpd, facing);
      const glint = plan.spec.plan === 'object' && action === 'idle' && fpd > 1;
      // (the thing without its glint: the glint shows only on it, never as a bubble beside a thin
      // thing such as a spear: decision 0085)
      const bare = glint ? new PixelCanvas(gw, gh) : null;
      if (bare) renderParts(bare, parts.list, { ox, oy, facing, fall: pose.fall });
      if (glint) {
        // a glint travels over still objects, so an idle cycle is never a still picture
        const a = phase * Math.PI * 2;
        parts.ball([Math.cos(a) * 2, Math.sin(a) * 3, 6 + Math.sin(a) * 2], 0.7, M.LIGHT, undefined, 5);
      }
      renderParts(grid, parts.list, { ox, oy, facing, fall: pose.fall });
      // shaded in the materials' ramps; the outline is the look's, as every sprite's
      const data = shadeGrid(grid, materials, { ...style, lineWeight: 0 });
      if (bare) {
        const under = shadeGrid(bare, materials, { ...style, lineWeight: 0 });
        for (let i = 3; i < data.length; i += 4) if (!under[i]) data[i] = 0;
      }
      shaded.push({ width: gw, height: gh, data });
    }
  });
  // the look every sprite shares (look/index.ts): one palette, one outline rule, clean edges
  return applyLook(shaded, lookOf(job.style, gw, gh), { relight: 0 });
}

/** Whether a frame has an opaque pixel on its top row or its side columns. */
function touchesTopOrSides(frame: RgbaImage): boolean {
  const { width: w, height: h, data } = frame;
  for (let x = 0; x < w; x++) if (data[x * 4 + 3]) return true;
  for (let y = 0; y < h; y++) if (data[y * w * 4 + 3] || data[(y * w + w - 1) * 4 + 3]) return true;
  return false;
}

function materialSet(painter: Painter, targets: ReadonlyArray<[Rgb, Partial<Material>?]>): Material[] {
  const used: Rgb[] = [];
  return targets.map(([t, extra], i) => {
    // the main body colour is matched exactly (no avoidance), so "red" stays the palette's red;
    // steel may equal it (a knight's armour is the main body)
    const ramp: Ramp = painter.spriteRamp(
      t,
      i === 0 || i === M.METAL - 1 || i === M.ARMOR - 1 ? [] : used.slice(0, 1),
      i === 0,
    );
    used.push(ramp.base);
    return { ramp, ...(extra ?? {}) };
  });
}

const flatRamp = (c: Rgb): Ramp => ({ shadow: c, dark: c, base: c, light: c, outline: c });
