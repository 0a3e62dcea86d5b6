/**
 * Characters of the built-in rig: a character's identity made once from its prompt, seed, style and
 * size, and its frames drawn from that identity for any action and direction. The identity is plain
 * JSON (a character resource stores it); two tasks that draw one identity draw the same character —
 * same body type, proportions, pieces and palette.
 */
import type { AssetMetadata, ImageRequest, RgbaImage } from '@assetloom/pipeline';
import { anchorIn, resolvePlayback, sheetFiles } from '@assetloom/pipeline/formats';
import { kindSpec } from '@assetloom/pipeline/interpret';
import { DIRECTION_NAMES } from '@assetloom/pipeline/pixel';
import { drawingSetup } from './drawing-setup.js';
import { designFigure } from './internal/art/figure/design.js';
import { drawFigure } from './internal/art/figure/draw.js';
import { exportRig } from './internal/art/figure/export.js';
import type { FigureIdentity } from './internal/art/figure/identity.js';
import { FIGURE_ACTIONS, type FigureAction } from './internal/art/figure/motion.js';
import { roleOn, takeBeingBeforeRole } from './internal/art/figure/role.js';

/** A character's identity on the built-in rig (see {@link characterIdentity}). */
export type CharacterIdentity = FigureIdentity;
export type CharacterAction = FigureAction;
/** The actions the rig animates: idle, walk, run, jump, attack, cast, hurt, death. */
export const CHARACTER_ACTIONS: readonly CharacterAction[] = FIGURE_ACTIONS;

/** What a character is made from: its prompt, seed, style and size. */
export interface CharacterRequest {
  prompt: string;
  seed: number;
  /** Frame side in pixels (32, 64, 128 …). */
  resolution: number;
  /** The merged style (project style overridden by the character's). */
  style?: ImageRequest['style'];
}

function requestOf(req: CharacterRequest): ImageRequest {
  return {
    assetType: 'animation',
    prompt: req.prompt,
    userPrompt: req.prompt,
    tags: [],
    style: req.style ?? {},
    resolution: req.resolution,
    directions: 1,
    framesPerDirection: 1,
    seed: req.seed,
    attempt: 0,
  };
}

/**
 * The identity of the character a prompt describes, on the built-in rig: its body type (chibi,
 * normal, tall) and proportions, its pieces (headwear, hair, face, torso, legs, feet, hands, back,
 * extras, weapon, off-hand) and its palette (every material's ramp, fitted to the style's palette),
 * as plain JSON. Deterministic in (prompt, seed, style); `null` when the prompt's subject is not a
 * person or a humanoid the rig draws (an animal, an object: those are drawn, not rigged).
 */
export function characterIdentity(req: CharacterRequest): CharacterIdentity | null {
  const { interpretation, style, painter } = drawingSetup(requestOf(req));
  // a prompt whose subject is read as no kind at all ("a zorblax") is not a person to rig
  const spec = interpretation.kind ? kindSpec(interpretation.kind) : undefined;
  const being = { ...interpretation };
  takeBeingBeforeRole(being);
  if (spec?.plan !== 'biped' && !roleOn(being)?.anthro) return null;
  return designFigure({ interpretation, seed: req.seed, painter, enforced: style.paletteEnforced });
}

/** What one action of a character is drawn as. */
export interface CharacterFrames {
  /** Direction-major frames, `framesPerDirection` per direction. */
  frames: RgbaImage[];
  /** The direction names, in the frames' order. */
  directions: string[];
  /** The feet's point in every frame and direction (pixels, y down): the engine files' anchor. */
  anchor: { x: number; y: number };
}

/**
 * Draws an action of a character from its stored identity, in 1, 4 or 8 directions (the pipeline's
 * direction order), each with `framesPerDirection` frames. Deterministic: the same identity, style
 * and size draw the same pixels.
 */
export function drawCharacter(
  req: CharacterRequest,
  identity: CharacterIdentity,
  action: CharacterAction,
  directions: 1 | 4 | 8,
  framesPerDirection: number,
): CharacterFrames {
  if (identity?.rig !== 'figure' || identity.version !== 1)
    throw new Error(
      '@assetloom/generator: not a character identity of the built-in rig (make one with characterIdentity)',
    );
  if (!CHARACTER_ACTIONS.includes(action))
    throw new Error(
      `@assetloom/generator: unknown action "${action}"; use one of ${CHARACTER_ACTIONS.join(', ')}`,
    );
  const { style } = drawingSetup(requestOf(req));
  const names = [...DIRECTION_NAMES[directions]];
  const out = drawFigure({
    identity,
    action,
    directions: names,
    frames: framesPerDirection,
    width: req.resolution,
    height: req.resolution,
    style,
    // its rig draws each direction from its own camera: the sheet matches it (decision 0119)
    sides: 'drawn',
  });
  return { frames: out.frames, directions: names, anchor: out.anchor };
}

/** One file of a character's rig download. */
export interface RigFile {
  name: string;
  bytes: Uint8Array;
  contentType: string;
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * A character's rig and sheet for game engines, every action in every direction:
 *
 * - `<name>-rig.json` + `<name>-rig.atlas` + `<name>-rig.png`: a Spine 4.2 skeleton (bones, a slot
 *   per bone, each bone's part image per direction, an animation per action and direction);
 * - `<name>-rig_ske.json` + `<name>-rig_tex.json`: the same skeleton for DragonBones 5.5 (its
 *   texture atlas over the same PNG);
 * - `<name>.png` with `<name>.json` (TexturePacker), `<name>.aseprite.json` (a tag per action and
 *   direction), `<name>.tres` (a Godot 4 SpriteFrames, one animation per action and direction),
 *   `<name>.phaser.json`, `<name>.phaser-anims.json` and `<name>.png.meta` (Unity).
 *
 * The rig's root and every sheet frame share one anchor, the point between the feet: `anchor` in a
 * frame's pixels (y down), the rig's origin, and in the sheet's engine files (see {@link anchorIn}).
 */
export function characterRig(
  req: CharacterRequest,
  identity: CharacterIdentity,
  options: {
    actions?: readonly CharacterAction[];
    directions?: 4 | 8;
    framesPerDirection?: number;
    fps?: number;
    name?: string;
  } = {},
): { files: RigFile[]; anchor: { x: number; y: number }; animations: string[] } {
  const actions = options.actions ?? CHARACTER_ACTIONS;
  const directions = options.directions ?? 8;
  const fpd = options.framesPerDirection ?? 8;
  const name = options.name ?? 'character';
  const playback = resolvePlayback(options.fps ? { fps: options.fps } : null, fpd);
  const { style } = drawingSetup(requestOf(req));
  const names = [...DIRECTION_NAMES[directions]];
  const rig = exportRig({
    identity,
    actions,
    directions: names,
    framesPerDirection: fpd,
    fps: playback.fps,
    width: req.resolution,
    height: req.resolution,
    style,
    name: `${name}-rig`,
  });
  const frames: RgbaImage[] = [];
  const frameNames: Array<{ name: string; animation: string }> = [];
  let anchor = { x: 0, y: 0 };
  for (const action of actions) {
    const drawn = drawCharacter(req, identity, action, directions, fpd);
    anchor = drawn.anchor;
    frames.push(...drawn.frames);
    for (const dir of names)
      for (let f = 0; f < fpd; f++)
        frameNames.push({ name: `${action}_${dir}_${f}`, animation: `${action}_${dir}` });
  }
  const sheet = sheetFiles({
    frames,
    names: frameNames,
    frameWidth: req.resolution,
    frameHeight: req.resolution,
    directions: actions.length * names.length,
    framesPerDirection: fpd,
    stem: name,
    keyPrefix: '',
    playback,
    // only the files are kept: the assets sheetFiles describes (and their provenance) are the task's
    metadata: {
      frameWidth: req.resolution,
      frameHeight: req.resolution,
      frameCount: frames.length,
      directions,
      framesPerDirection: fpd,
      layout: 'spritesheet',
      animations: rig.animations,
    } as AssetMetadata,
    text: { Software: 'Assetloom' },
  });
  const encoder = new TextEncoder();
  const anchored = anchorIn(sheet.writes, anchor, req.resolution, req.resolution);
  const files: RigFile[] = [
    { name: `${name}-rig.json`, bytes: encoder.encode(rig.spineJson), contentType: JSON_TYPE },
    { name: `${name}-rig.atlas`, bytes: encoder.encode(rig.spineAtlas), contentType: TEXT_TYPE },
    { name: `${name}-rig.png`, bytes: rig.png, contentType: 'image/png' },
    { name: `${name}-rig_ske.json`, bytes: encoder.encode(rig.dragonBonesJson), contentType: JSON_TYPE },
    { name: `${name}-rig_tex.json`, bytes: encoder.encode(rig.dragonBonesAtlas), contentType: JSON_TYPE },
    ...anchored.map(([key, bytes, contentType]) => ({ name: key, bytes, contentType })),
  ];
  return { files, anchor, animations: rig.animations };
}

/**
 * The rig of one action of a character, for a task's outputs: the Spine 4.2 skeleton, atlas and
 * part images and the DragonBones 5.5 skeleton and texture atlas (over the same PNG), one animation
 * per direction, named `<name>-rig.json`, `<name>-rig.atlas`, `<name>-rig.png`, `<name>-rig_ske.json`
 * and `<name>-rig_tex.json` (the atlases name the PNG by that name).
 */
export function characterActionRig(
  req: CharacterRequest,
  identity: CharacterIdentity,
  action: CharacterAction,
  options: { directions: 1 | 4 | 8; framesPerDirection: number; fps: number; name: string },
): { files: RigFile[]; animations: string[] } {
  const { style } = drawingSetup(requestOf(req));
  const stem = `${options.name}-rig`;
  const rig = exportRig({
    identity,
    actions: [action],
    directions: [...DIRECTION_NAMES[options.directions]],
    framesPerDirection: options.framesPerDirection,
    fps: options.fps,
    width: req.resolution,
    height: req.resolution,
    style,
    name: stem,
  });
  const encoder = new TextEncoder();
  return {
    animations: rig.animations,
    files: [
      { name: `${stem}.json`, bytes: encoder.encode(rig.spineJson), contentType: JSON_TYPE },
      { name: `${stem}.atlas`, bytes: encoder.encode(rig.spineAtlas), contentType: TEXT_TYPE },
      { name: `${stem}.png`, bytes: rig.png, contentType: 'image/png' },
      { name: `${stem}_ske.json`, bytes: encoder.encode(rig.dragonBonesJson), contentType: JSON_TYPE },
      { name: `${stem}_tex.json`, bytes: encoder.encode(rig.dragonBonesAtlas), contentType: JSON_TYPE },
    ],
  };
}
