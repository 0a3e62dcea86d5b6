import type {
  DrawingProvenance,
  GeneratedAsset,
  ImageProvider,
  ImageRequest,
  PreflightResult,
  RgbaImage,
} from '@assetloom/pipeline';
import { PipelineError } from '@assetloom/pipeline';
import {
  glossColorOf,
  type Interpretation,
  interpret,
  kindSpec,
  nounLemma,
  subjectText,
  tokenize,
  wordClass,
} from '@assetloom/pipeline/interpret';
import {
  DIRECTION_NAMES,
  mix,
  type Painter,
  parseHex,
  type ResolvedStyle,
  type Rgb,
  Rng,
} from '@assetloom/pipeline/pixel';
import { TERRAIN_NAMES, tilesetParams, undrawnMaterial } from '@assetloom/pipeline/tileset';
import { CHARACTER_ACTIONS, type CharacterIdentity, characterActionRig, drawCharacter } from './character.js';
import { drawingSetup } from './drawing-setup.js';
import { drawTextureBackground, isTexturePrompt } from './internal/art/background.js';
import { drawIngots, ingotsOf } from './internal/art/ingots.js';
import { detonate, detonateWord } from './internal/art/library/detonate.js';
import type { LibraryMotion } from './internal/art/library/motion.js';
import {
  batEyes,
  FLY_WORDS,
  facelessBat,
  motionName,
  partMotion,
  spreadWingDrawing,
} from './internal/art/library/parts.js';
import { objectVerb } from './internal/art/library/props.js';
import { lieDown, sleepMarks, sleepWord } from './internal/art/library/sleep.js';
import { drawLibrarySprite, loadDrawings } from './internal/art/library/sprite.js';
import { sway, swayWord } from './internal/art/library/sway.js';
import { headSides, swim, swimWord } from './internal/art/library/swim.js';
import { symmetryOf } from './internal/art/library/symmetry.js';
import { SCENE_THINGS } from './internal/art/scene/compose.js';
import { INDOOR, readScene, type SceneRequest } from './internal/art/scene/elements.js';
import { drawScene } from './internal/art/scene/index.js';
import { cropToPixels } from './internal/art/scene/paint.js';
import { drawSpriteFrames } from './internal/art/sprite.js';
import {
  chooseSource,
  figureShowsPerson,
  type Source,
  sceneCompound,
  sceneNouns,
} from './internal/art/subject.js';
import { drawUi } from './internal/art/ui.js';
import { drawLevelArt } from './level.js';
import { renderTileset } from './tileset.js';

// a fire hydrant, a fire truck or a fire extinguisher holds no flame: their red flickered like fire,
// and a hydrant's cap tore in every other frame (issue #39)
const FIRE =
  /\b(fire(?![\s-]*(hydrant|truck|engine|station|extinguisher|fighter|man|men|alarm|escape|hose)s?\b)|flame|campfire|bonfire|torch|candle|fireplace|brazier|lantern|explosion|blast|fireball)\b/;
const SPINNERS = /\b(coin|gem|stone|diamond|star|ring|medal|token|crystal|orb|disc|wheel)\b/;
const FLOATERS = /\b(ghost|balloon|cloud|bubble|spirit|wisp|fairy|orb)\b/;
const SKY = /\b(cloud|sun|moon|star|comet|rainbow|lightning|droplet|snowflake|tornado|cyclone|fog|planet)\b/;

/**
 * The motion of a drawing: the verb's ("spinning", "burning"), else what the thing does by nature; a
 * still thing asked to move without a verb settles (a 1-pixel idle with held frames, issue #39).
 */
function libraryMotion(it: Interpretation, animation: boolean, label: string, group: string): LibraryMotion {
  const action = it.action;
  if (action && action !== 'idle') return action;
  const words = `${label} ${it.lemma ?? ''}`;
  // (a jack-o'-lantern is a pumpkin lit inside, no flame: its orange body was shaped like fire, and a
  // frame lost its stem and its outline: issue #39, decision 0095)
  if (FIRE.test(words) && !/\b(jack-o-lantern|pumpkin)\b/.test(words)) return 'flicker';
  if (FLOATERS.test(words) || (group === 'sky-weather' && SKY.test(words))) return 'float';
  if (SPINNERS.test(words) && (animation || /coin/.test(words))) return 'spin';
  const living = /^(animal|person)/.test(group) || group === 'face-costume';
  if (animation) return living ? 'walk' : 'settle';
  // a still thing's sprite: its one picture in every frame, never re-drawn at another scale (a bob of
  // 1.5 % re-rasterised the drawing every frame, and a hydrant's cap or a crown's rim boiled), nor
  // settled by a pixel (a sheet played as an idle wobbled: issue #39, decision 0115)
  return living ? 'breathe' : 'still';
}

const SILHOUETTE_MATERIALS: ReadonlyArray<[RegExp, Rgb]> = [
  // cooked, sweet and space things by their look (issue #39, decision 0083): a roast is golden brown,
  // a pizza slice cheese-yellow, a candy cane red (its stripes the carved white), an astronaut's helmet
  // white, a spell book a purple binding
  [/\b(roast|roasted)\b/, [190, 112, 48]],
  [/\bpizza\b/, [228, 168, 64]],
  // a pumpkin is orange (its gloss gave a grey brown: decision 0095)
  [/\bpumpkin\b/, [224, 120, 36]],
  [/\bcandy\b/, [212, 50, 58]],
  [/\bastronaut\b/, [226, 228, 236]],
  [/\bspell\b/, [112, 62, 128]],
  [/\b(mechanical|robot)\b/, [158, 168, 184]],
  [
    /\b(armou?r|breastplate|helmet|helm|sword|blade|axe|dagger|spear|shield|gauntlet|anvil|chain|iron|steel|metal|knife|hammer|warhammer|cannon|gun|pistol|key|lock|gear|cog|wrench|spanner)\b/,
    [158, 168, 184],
  ],
  [
    /\b(sign|signpost|fence|gate|door|barrel|chest|crate|wooden|wood|log|ladder|cart|wagon|boat|raft|galleon|drakkar|caravel|bow|staff|club|table|chair|bench)\b/,
    [150, 102, 62],
  ],
  [
    /\b(tower|wall|bridge|castle|stone|rock|statue|tomb|gravestone|pillar|column|well|cross|mill|windmill|ruin)\b/,
    [150, 150, 158],
  ],
  // fire, and what bursts into it: an explosion's silhouette is fire, never a brown splat
  [
    /\b(fire|flame|torch|lava|explosion|explosive|blast|burst|boom|fireball|detonation|eruption|spark|sparks)\b/,
    [236, 120, 40],
  ],
  [/\b(leaf|tree|bush|grass|vine|plant|cactus)\b/, [80, 150, 70]],
  // hats and papers of a kind (issue #39): a chef's toque is white, a witch's pointed hat purple, a
  // pirate's hat black, a cowboy's brown leather, a treasure map parchment
  [/\b(toque|chef)\b/, [238, 236, 228]],
  [/\bpointy\b/, [96, 72, 150]],
  [/\bparty\b/, [225, 85, 120]],
  [/\bpirate hat\b/, [60, 48, 56]],
  [/\bwestern\b/, [140, 95, 55]],
  [/\b(map|scroll|parchment)\b/, [226, 204, 156]],
  [/\b(gold|crown|coin|trophy|medal|ring)\b/, [232, 190, 60]],
];
function silhouetteMaterial(words: string): Rgb | null {
  for (const [re, c] of SILHOUETTE_MATERIALS) if (re.test(words)) return c;
  return null;
}

/** The message of a refusal: the word, why, and what it can draw instead. */
export function refusalMessage(word: string | null, suggestions: readonly string[]): string {
  if (word === null)
    return 'the built-in generator found no subject in the prompt: name the thing to draw (for example "a red dragon", "a wooden chest", "一只熊猫")';
  const near = suggestions.length ? ` Close subjects it can draw: ${suggestions.join(', ')}.` : '';
  return `the built-in generator cannot draw "${word}": no licensed drawing and no figure of its rig shows it, and it never draws something else in its place.${near} Or set params.placeholder to get a marked placeholder instead.`;
}

/** The message of a tileset refused for a ground material no terrain draws ("a marble floor"). */
function materialRefusal(word: string): string {
  return `the built-in generator cannot draw "${word}" tiles: its tilesets draw ${TERRAIN_NAMES.join(', ')}, and it never draws another material in its place. Name one of those, or use a model provider.`;
}

/** The message of a background refused for a compound its scene word begins ("space station"). */
function sceneRefusal(compound: string, scene: string): string {
  return `the built-in generator cannot draw "${compound}": it has a scene of "${scene}", not of "${compound}", and it never draws something else in its place. Ask for "${scene}" alone, or set params.placeholder to get the scene it has.`;
}

/**
 * The text a scene is read from: the prompt's words, then each tag and scene-like style value as a
 * phrase of its own, so that a style word ("heroic") is never read as the head of the prompt's last
 * phrase ("a snowy mountain landscape heroic").
 */
function sceneText(request: {
  userPrompt: string;
  tags: readonly string[];
  style: ImageRequest['style'];
}): string {
  const prompt = subjectText({ userPrompt: request.userPrompt, tags: [], style: {} });
  const rest = subjectText({ userPrompt: '', tags: [], style: request.style });
  return [prompt, ...request.tags.map((t) => subjectText({ userPrompt: '', tags: [t], style: {} })), rest]
    .map((p) => p.trim())
    .filter(Boolean)
    .join(', ');
}

/**
 * Why a read scene would be another picture than the one asked for (issue #39), or null: a thing it
 * cannot draw whose phrase names a place or an element ("a temple roof", "a city subway station":
 * the temple, the city would be drawn without it); a room word in a place drawn only outdoors ("a
 * village bakery interior"); or, no place read, a thing it cannot draw or a room (the meadow, decision
 * 0049's addendum). `undrawn` says which of the scene's things were not drawn.
 */
function sceneWithout(
  req: SceneRequest,
  undrawn: (k: number) => boolean,
  ignored: readonly string[],
  undrawnElement: (k: number) => boolean = () => false,
  prompt = '',
): string | null {
  const quote = (ws: readonly string[]) => [...new Set(ws)].map((w) => `"${w}"`).join(', ');
  const dropped = req.others.flatMap((o, k) => (undrawn(k) ? [o] : []));
  if (req.defaulted && (dropped.length > 0 || req.rooms.length > 0))
    return `the built-in generator has no scene of ${quote([...ignored, ...dropped.map((o) => o.word), ...req.rooms])} and never draws a meadow in its place. Name a place it draws (a forest, a beach, a castle hall, a city street, a cave, a dungeon …), use a model provider, or set params.placeholder to get the plain meadow.`;
  const lost = dropped.find((o) => o.within.length > 0);
  if (lost) {
    return `the built-in generator cannot draw "${lost.phrase}" in "${lost.written}": it would draw ${quote(lost.within)} without it, and it never draws something else in its place. Ask for ${quote(lost.within)} alone, use a model provider, or set params.placeholder to get that scene.`;
  }
  // an element its place does not draw ("an underwater palace": no castle under the sea)
  const placed = req.elements.find((e, k) => e.within && undrawnElement(k));
  if (placed)
    return `the built-in generator cannot draw "${placed.word}" in ${quote(placed.within ?? [])}: its scene of that place has no ${placed.word}, and it never draws the place without it. Ask for the place alone, or the ${placed.word} in a place that has one, use a model provider, or set params.placeholder to get the scene it has.`;
  if (req.rooms.length > 0 && !INDOOR.has(req.setting) && !req.corridor)
    return `the built-in generator cannot draw ${quote([...ignored, ...req.rooms])}: it has no inside of that place, and it never draws the outside in its place. Ask for a place outdoors, or an inside it draws (a castle hall, a tavern, a library, a dungeon, a cave), use a model provider, or set params.placeholder to get the outdoor scene.`;
  // every noun of a background is drawn, sets the place or the viewpoint, or the task is refused
  // (issue #39: "a balcony overlooking the sea" was the sea, "a fortress wall" a meadow, silently):
  // a thing the sprite generator cannot draw, or one beyond the scene's SCENE_THINGS, is no longer dropped
  // (the prompt's own things: a style word or a tag read as a phrase of its own is not refused)
  const written = (o: SceneRequest['others'][number]) =>
    prompt.toLowerCase().includes(o.written.toLowerCase());
  const beyond = req.others
    .slice(SCENE_THINGS)
    .filter(written)
    .map((o) => o.word);
  if (beyond.length)
    return `the built-in generator draws at most ${SCENE_THINGS} things into a scene, and the prompt names ${req.others.length}: it cannot draw ${quote(beyond)} too, and it never draws the scene without them. Name at most ${SCENE_THINGS}, use a model provider, or set params.placeholder to get the scene with the first ${SCENE_THINGS}.`;
  const named = dropped.filter(written);
  if (named.length)
    return `the built-in generator cannot draw ${quote(named.map((o) => o.phrase))} into its scene of ${placeName(req.setting)}: no licensed drawing and no figure of its rig shows ${named.length > 1 ? 'them' : 'it'}, and it never draws the scene without ${named.length > 1 ? 'them' : 'it'}. Leave ${named.length > 1 ? 'them' : 'it'} out, use a model provider, or set params.placeholder to get the scene without ${named.length > 1 ? 'them' : 'it'}.`;
  const missed = [
    ...req.unread,
    ...req.elements.flatMap((e, k) => (undrawnElement(k) ? [e.word] : [])),
    ...(req.viewpoint && undrawnElement(req.elements.length) ? [req.viewpoint.word] : []),
  ];
  if (missed.length)
    return `the built-in generator cannot draw ${quote(missed)} in its scene of ${placeName(req.setting)}: it has no drawing of ${missed.length > 1 ? 'them' : 'it'} there, and it never draws the scene without ${missed.length > 1 ? 'them' : 'it'}. Leave ${missed.length > 1 ? 'them' : 'it'} out, name a place where it draws ${missed.length > 1 ? 'them' : 'it'}, use a model provider, or set params.placeholder to get the scene it has.`;
  return null;
}

/** A setting as a refusal names it. */
const SCENE_PLACES: Partial<Record<SceneRequest['setting'], string>> = {
  grassland: 'a meadow',
  castle_hall: 'a castle hall',
  city: 'a city street',
  snow: 'a snowfield',
};

/** "a meadow", "an ocean", "a castle hall": the setting as a refusal names it. */
const placeName = (s: SceneRequest['setting']): string =>
  SCENE_PLACES[s] ?? `${/^[aeiou]/.test(s) ? 'an' : 'a'} ${s}`;

/** Nearest-neighbour resize of a whole picture: a tileable texture stays tileable at any canvas. */
function resizeNearest(img: RgbaImage, w: number, h: number): RgbaImage {
  if (img.width === w && img.height === h) return img;
  const src = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
  const out = new Uint32Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.floor((y * img.height) / h);
    for (let x = 0; x < w; x++) out[y * w + x] = src[sy * img.width + Math.floor((x * img.width) / w)]!;
  }
  return { width: w, height: h, data: new Uint8Array(out.buffer) };
}

/** Words that name a UI piece's material (they colour its border, not its face). */
const UI_MATERIAL_WORDS =
  /^(wood|wooden|timber|oak|stone|stony|rock|marble|granite|gold|golden|gilded|royal|ornate|metal|metallic|steel|iron|ice|icy|frozen|crystal|paper|parchment|scroll|木|木头|石|石头|金|金色|黄金|金属|钢|铁|冰|纸)$/;
/** Words that name the piece, its kind or what it shows. */
const UI_PIECE_WORDS =
  /^(icons?|buttons?|btn|bars?|panels?|labels?|dialog|window|frame|box|menu|health|mana|hp|mp|stamina|xp|exp|progress|loading|close|plus|minus|pause|暂停|says?|saying|reads|写|写着|写有|印着|印有|标着|标有|显示|显示着|文字|按钮|按|钮|图标|血条|面板|窗口|对话框|标签|关闭)$/;

/**
 * The four looks a drawing takes by seed (issue #39): as drawn; squat, a ramp darker and leaning one
 * way; tall, a ramp lighter and leaning the other; its colour family turned round the hue circle
 * (things only: a living subject keeps its colours and stands upright).
 */
/** Cloth on a pole or a crossbar, dyed when no colour is asked (decision 0093). */
const CLOTH_THINGS = /\b(flag|flags|banner|banners|pennant|standard|ensign|gonfalon)\b/;
const CLOTH_DYES: readonly Rgb[] = [
  [192, 48, 44],
  [46, 84, 176],
];

/**
 * Drawings a seed does not pick while a better one of the subject is among the matches (decision
 * 0095): Fluent's jack-o'-lantern has its face cut dark, unlit (Noto's is lit from inside).
 */
const WEAKER = new Set(['f/jack-o-lantern']);

/** Colour words that name a metal: they colour a drawing's metal part (decision 0122). */
const METAL_WORD = /^(iron|steel|metal|metallic|silver|bronze|copper|铁|钢|银|铜|金属)$/;

/** Subjects whose colour is what they are: a seed's look does not turn their hue (a pink pumpkin). */
const OWN_COLOUR =
  /\b(jack-o-lantern|pumpkin|hydrant|crown|coin|heart|carrot|banana|lemon|tomato|strawberry)\b/;

const SEED_LOOKS: ReadonlyArray<{ sx: number; sy: number; tone: number; lean: number; hue: number }> = [
  { sx: 1, sy: 1, tone: 0, lean: 0, hue: 0 },
  { sx: 1.12, sy: 0.9, tone: -1, lean: -4, hue: 0 },
  { sx: 0.88, sy: 1.06, tone: 1, lean: 4, hue: 0 },
  { sx: 1.03, sy: 0.97, tone: 0, lean: 0, hue: -35 },
];

/**
 * The frames' grid and colours, for what is drawn over or made of a still sheet (a blast, Zs, a lean,
 * a swim, a sleeper lying down).
 */
function overOf(request: ImageRequest, style: ResolvedStyle, painter: Painter) {
  return {
    width: request.resolution,
    height: request.resolution,
    gridHint: style.gridHint,
    framesPerDirection: request.framesPerDirection,
    painter,
    enforced: style.paletteEnforced,
  };
}

/** A sprite's subject from a licensed drawing: choice by seed, variation, motion, colour. */
async function drawFromLibrary(
  request: ImageRequest,
  it: Interpretation,
  source: Extract<Source, { kind: 'drawing' }>,
  style: ResolvedStyle,
  painter: Painter,
  asked: Rgb | null,
  rng: Rng,
): Promise<GeneratedAsset> {
  const lib = await loadDrawings();
  // variations are other drawings of the same subject (close in score, whole, in frame) and four
  // looks of each (issue #39: four seeds were four near copies): consecutive seeds walk the drawings
  // first, then the looks, so any four seeds in a row differ in drawing or look
  const top = source.matches[0]!.score;
  const close = source.matches.filter(
    (m) => m.score >= top - 2.5 && !m.drawing.cropped && !m.drawing.knockout,
  );
  // (a weaker drawing of a subject another drawing shows better stays out while that one is in)
  const strong = close.some((m) => !WEAKER.has(m.drawing.id))
    ? close.filter((m) => !WEAKER.has(m.drawing.id))
    : close;
  // (a variation never drops a word another drawing honours: seed 2 of "a rickety chair" was the
  // plain chair, "rickety" unsaid beside the old chair that shows it)
  const phraseWords = [...(it.modifiers ?? []), ...it.ignored];
  const honours = (m: (typeof close)[number]) => {
    const named = new Set([
      ...m.drawing.heads,
      ...m.drawing.words,
      ...m.drawing.label.split(' '),
      ...m.drawing.zh,
    ]);
    return phraseWords.filter((w) => named.has(w)).length;
  };
  const most = Math.max(0, ...strong.map(honours));
  const pool = strong.filter((m) => honours(m) === most).slice(0, 3);
  // variation 1 (the default: a request without a seed) is the best drawing as drawn; a quality
  // retry takes the next variation. Through the pipeline `seed` is a hash of the whole request, and
  // a variation read from it was a random drawing and look of the pool for every request (the
  // weaker drawing of a chest, opened as pink-brown noise, where the tests saw the best one)
  const turn =
    request.variation !== undefined
      ? Math.abs(Math.trunc(request.variation) - 1) + request.attempt
      : Math.abs(Math.trunc(request.seed) - 1);
  const pick = pool.length ? pool[turn % pool.length]! : source.matches[0]!;
  const look = SEED_LOOKS[Math.floor(turn / Math.max(1, pool.length)) % SEED_LOOKS.length]!;
  const animation = request.assetType === 'animation';
  // a thing's own verb first (a chest opening, a flag waving, a potion bubbling, a gem sparkling:
  // issue #39), read from the prompt's words (the interpreter's actions are the rig's and a few)
  const verb = animation ? objectVerb([...it.understood, ...it.ignored], pick.drawing) : null;
  const askedMotion = verb?.motion ?? libraryMotion(it, animation, pick.drawing.label, pick.drawing.group);
  // motion of parts (issue #39): a flying subject is drawn from a drawing with its wings spread, and
  // a drawing's parts decide how it moves (sails turn, a wheel rolls, an explosion bursts)
  const winged =
    askedMotion === 'fly'
      ? spreadWingDrawing(lib, pick.drawing, source.matches, [
          it.lemma ?? '',
          source.drawnAs ?? '',
          it.subject ?? '',
        ])
      : null;
  const drawing = winged ?? pick.drawing;
  // a thing that explodes ("a bomb exploding"): drawn still, then a fireball where it stood (detonate.ts)
  const living0 = drawing.person || /^(animal|person|face)/.test(drawing.group);
  const blowsUp =
    animation && !living0
      ? detonateWord([...it.understood, ...it.ignored], `${drawing.label} ${drawing.heads.join(' ')}`)
      : null;
  // a plant in the wind ("a tree swaying"): its one picture leaned row by row (sway.ts)
  const swaysIn =
    animation && !blowsUp
      ? swayWord([...it.understood, ...it.ignored], `${drawing.label} ${drawing.heads.join(' ')}`)
      : null;
  // a fish swimming ("a fish swimming"): a wave runs down its body to the beating tail (swim.ts)
  const swimsIn =
    animation && !blowsUp && !swaysIn
      ? swimWord([...it.understood, ...it.ignored], `${drawing.label} ${drawing.heads.join(' ')}`)
      : null;
  // a creature asleep ("a cat sleeping"): it breathes at rest under rising Zs (sleep.ts)
  const sleeps =
    animation && living0 && !drawing.person ? sleepWord([...it.understood, ...it.ignored]) : null;
  const motion =
    blowsUp || swaysIn || swimsIn
      ? 'settle'
      : sleeps
        ? 'breathe'
        : partMotion(askedMotion, drawing, animation);
  const lemma = source.drawnAs ?? it.lemma ?? '';
  const kindColour = it.kind ? kindSpec(it.kind)?.color : undefined;
  const gloss = lemma ? glossColorOf(lemma) : null;
  // a silhouette's colour: what it is made of when its words say (a breastplate is steel, a fence
  // wood), else the noun's own colour (WordNet's gloss, the rig kind's), else a neutral brown
  const made = silhouetteMaterial(`${drawing.label} ${lemma}`);
  // a flag's or a banner's cloth is dyed: a red or a blue (by the seed); its pole is drawn in steel
  // beside it (decision 0093: cloth and pole one brown read as a rag on a stick). A pirate flag's
  // drawing is its skull-and-swords emblem alone, no cloth: it keeps its colour (said in 0093)
  const cloth =
    CLOTH_THINGS.test(`${drawing.label} ${lemma}`) && !/\b(pirate|jolly)\b/.test(`${drawing.label} ${lemma}`)
      ? CLOTH_DYES[turn % CLOTH_DYES.length]!
      : null;
  const fill: Rgb = cloth ??
    made ??
    (gloss ? parseHex(gloss) : null) ??
    (kindColour as Rgb | undefined) ?? [150, 120, 95];
  const askedForSubject = asked && !it.colors[0]?.of ? asked : null;
  const living = drawing.person || /^(animal|person|face)/.test(drawing.group);
  const out = await drawLibrarySprite({
    lib,
    drawing,
    style,
    painter,
    enforced: style.paletteEnforced,
    asked: askedForSubject,
    metal: askedForSubject !== null && METAL_WORD.test(it.colors[0]?.word ?? ''),
    fill,
    width: request.resolution,
    height: request.resolution,
    directions: request.directions,
    framesPerDirection: request.framesPerDirection,
    motion,
    // an animal or a costume face (a ghost, an alien) turns its face for rows it has no view for; a
    // person's drawn face is too detailed to move mark by mark (a person is the rig's in any case)
    turnsFace: !drawing.person && /^(animal|face-costume)/.test(drawing.group),
    // a thing, not a creature: a silhouette of it may show two materials (a flag on its pole)
    thing: !living && [undefined, 'object'].includes(it.kind ? kindSpec(it.kind)?.plan : undefined),
    variation: {
      // living things stand upright and keep their colours (a fox is orange, a black cat black); an
      // upright look stays exactly upright (a degree's tilt made a heart's or a crown's two halves
      // lopsided at 32 px: the blind review after 1130b), a leaning one leans a degree more or less
      // (a heart or a gear is drawn exactly symmetric: it never leans, decision 0122)
      lean: living || symmetryOf(drawing.id) ? 0 : look.lean ? look.lean + Math.round(rng.range(-1, 1)) : 0,
      // (a gear is round: it is never stretched either)
      sx: symmetryOf(drawing.id) === 'square' ? 1 : look.sx * rng.range(0.98, 1.02),
      sy: symmetryOf(drawing.id) === 'square' ? 1 : look.sy * rng.range(0.98, 1.02),
      tone: look.tone,
      hue:
        living || askedForSubject || drawing.silhouette || OWN_COLOUR.test(`${drawing.label} ${lemma}`)
          ? 0
          : look.hue,
    },
  });
  // the frames' grid and colours, for what is drawn over or made of the still sheet: a blast where it
  // stood, Zs over a sleeper, a plant's lean (detonate.ts, sleep.ts, sway.ts)
  const over = overOf(request, style, painter);
  // an explosion's own animation is the fireball too (the 💥 drawing tinted was a star changing colour)
  if (blowsUp || (animation && motion === 'burst' && request.framesPerDirection >= 3))
    out.frames = detonate(out.frames, { ...over, held: blowsUp ? undefined : 0, seed: request.seed });
  // (it lies down with its eyes shut first: Zs over an animal standing awake were no sleep)
  if (sleeps) out.frames = sleepMarks(lieDown(out.frames, over).frames, over);
  // a bat's spread-wing silhouette is given its eyes (it had no face)
  if (facelessBat(drawing)) out.frames = batEyes(out.frames, over);
  if (swaysIn) out.frames = sway(out.frames, over);
  if (swimsIn) out.frames = swim(out.frames, headSides(out.views, drawing.facing), over);
  const interpretation: Interpretation = {
    ...it,
    source: 'drawing',
    drawing: { id: drawing.id, label: drawing.label, set: drawing.set, via: source.via },
    ...(source.drawnAs ? { drawnAs: source.drawnAs } : {}),
  };
  // the words of the phrase the drawing honours ("pine" in "a pine tree") are understood
  const named = new Set([...drawing.heads, ...drawing.words, ...drawing.label.split(' '), ...drawing.zh]);
  // and a word the reader took for a material or a colour that is the drawing's own label ("fire" of
  // "a fire hydrant", decision 0083)
  const label = new Set(drawing.label.split(/[\s-]+/));
  for (const m of [...(it.modifiers ?? []), ...it.ignored.filter((w) => label.has(w))])
    if (named.has(m)) {
      interpretation.ignored = interpretation.ignored.filter((w) => w !== m);
      if (!interpretation.understood.includes(m)) interpretation.understood.push(m);
    }
  if (!interpretation.understood.includes(it.subject!)) interpretation.understood.push(it.subject!);
  if (verb && motion === verb.motion) {
    interpretation.ignored = interpretation.ignored.filter((w) => w !== verb.word);
    if (!interpretation.understood.includes(verb.word)) interpretation.understood.push(verb.word);
  }
  if (sleeps) {
    interpretation.ignored = interpretation.ignored.filter((w) => w !== sleeps);
    if (!interpretation.understood.includes(sleeps)) interpretation.understood.push(sleeps);
  }
  if (swimsIn) {
    interpretation.ignored = interpretation.ignored.filter((w) => w !== swimsIn);
    if (!interpretation.understood.includes(swimsIn)) interpretation.understood.push(swimsIn);
  }
  if (blowsUp || swaysIn) {
    const said = new Set(
      blowsUp
        ? [blowsUp, ...(/^blow/.test(blowsUp) ? ['up'] : [])]
        : [swaysIn!, ...(/^wind/.test(swaysIn!) ? [] : ['wind'])],
    );
    const shown = [blowsUp ?? swaysIn!, ...interpretation.ignored.filter((w) => said.has(w.toLowerCase()))];
    interpretation.ignored = interpretation.ignored.filter((w) => !said.has(w.toLowerCase()));
    for (const w of shown) if (!interpretation.understood.includes(w)) interpretation.understood.push(w);
  }
  interpretation.ignored = interpretation.ignored.filter((w) => w !== it.subject);
  // a still picture shows no burning: "a burning book" is the book, and says "burning" is not in it
  // (issue #39), unless the drawing is of a fire or its flame ("a lit torch", "a campfire burning")
  if (
    request.assetType === 'sprite' &&
    it.action === 'flicker' &&
    !/fire|flame|torch|candle|lamp|lantern|burn|match/.test(`${drawing.label} ${drawing.words.join(' ')}`)
  ) {
    const words = interpretation.understood.filter(
      (w) => tokenize(w)[0] && wordClass(tokenize(w)[0]!) === 'action',
    );
    interpretation.understood = interpretation.understood.filter((w) => !words.includes(w));
    interpretation.ignored.push(...words);
  }
  if (askedMotion === 'fly' && motion !== 'fly') {
    // no drawing of it has its wings spread: it hovers, and says its wings do not beat
    const words = interpretation.understood.filter((w) => FLY_WORDS.test(w.toLowerCase()));
    interpretation.understood = interpretation.understood.filter((w) => !words.includes(w));
    interpretation.ignored.push(...(words.length ? words : ['fly']));
  }
  return {
    frames: out.frames,
    animation: blowsUp
      ? 'burst'
      : swaysIn
        ? 'sway'
        : swimsIn
          ? 'swim'
          : sleeps
            ? 'sleep'
            : motionName(motion),
    ...(motion === 'still' ? { still: true } : {}),
    subject: it.subject!,
    interpretation,
    views: out.views,
    drawing: out.provenance as DrawingProvenance,
  };
}

/** Whether the built-in generator can draw the request's subject (a refusal names the word). */
export async function preflightProcedural(request: {
  assetType: ImageRequest['assetType'];
  userPrompt: string;
  tags: readonly string[];
  style: ImageRequest['style'];
  directions?: number;
  placeholder?: boolean;
}): Promise<PreflightResult> {
  if (request.placeholder) return { ok: true };
  if (request.assetType === 'tileset') {
    const word = undrawnMaterial(request);
    return word
      ? { ok: false, word, suggestions: [...TERRAIN_NAMES], message: materialRefusal(word) }
      : { ok: true };
  }
  if (request.assetType === 'background') {
    const it = interpret({ ...request, tags: [...request.tags] });
    const text = subjectText(request);
    const compound = await sceneCompound(it, text);
    if (compound)
      return {
        ok: false,
        word: compound,
        suggestions: [it.subject!],
        message: sceneRefusal(compound, it.subject!),
      };
    if (isTexturePrompt(text)) return { ok: true };
    // the scene's own reading, its things tried as the drawing will try them (before any work)
    const scene = readScene(sceneText(request), it);
    const refused = await Promise.all(
      scene.others.map(async (o, k) => {
        if (k >= SCENE_THINGS) return true;
        const thing = interpret({
          assetType: 'sprite',
          userPrompt: o.phrase,
          tags: [],
          style: request.style,
        });
        const source = await chooseSource(thing, {
          assetType: 'sprite',
          directions: 1,
          userPrompt: o.phrase,
        });
        return source.kind === 'refused';
      }),
    );
    scene.unread = await sceneNouns(scene.unread, it);
    const message = sceneWithout(scene, (k) => refused[k]!, it.ignored, undefined, request.userPrompt);
    return message ? { ok: false, word: null, suggestions: [], message } : { ok: true };
  }
  if (request.assetType !== 'sprite' && request.assetType !== 'animation') return { ok: true };
  const it = interpret({ ...request, tags: [...request.tags] });
  if (ingotsOf(it, request.userPrompt)) return { ok: true };
  const source = await chooseSource(it, {
    assetType: request.assetType,
    directions: request.directions ?? 4,
    userPrompt: request.userPrompt,
  });
  if (source.kind !== 'refused') return { ok: true };
  return {
    ok: false,
    word: source.word,
    suggestions: source.suggestions,
    message: refusalMessage(source.word, source.suggestions),
  };
}

/** What every drawing of one request starts from. */
interface Drawing {
  request: ImageRequest;
  /** The subject text (prompt, tags and style words). */
  text: string;
  interpretation: Interpretation;
  style: ResolvedStyle;
  rng: Rng;
  /** The colour the prompt names first, or null. */
  asked: Rgb | null;
  painter: Painter;
}

/** A background: a tileable texture, or a scene of layers with the things it names drawn in. */
async function drawBackground({
  request,
  text,
  interpretation,
  style,
  rng,
  painter,
}: Drawing): Promise<GeneratedAsset> {
  const width = request.width ?? request.resolution;
  const height = request.height ?? request.resolution;
  const compound = request.placeholder ? null : await sceneCompound(interpretation, text);
  if (compound)
    throw new PipelineError('subject_not_drawable', sceneRefusal(compound, interpretation.subject!), {
      expose: true,
    });
  // a texture (a floor, a tile, a top-down ground): the terrain texture, tileable both ways
  if (isTexturePrompt(text)) {
    const side = Math.max(width, height);
    const out = drawTextureBackground({ rng, style, painter, text, interpretation, size: side });
    return {
      frames: [resizeNearest(out.image, width, height)],
      animation: 'background',
      subject: out.subject,
      tileable: out.tileable,
      interpretation,
    };
  }
  const drawThing = async (phrase: string, tall: number) => {
    try {
      const thing = await renderProcedural({
        ...request,
        assetType: 'sprite',
        userPrompt: phrase,
        tags: [],
        resolution: Math.max(12, Math.round(tall * 1.25)),
        width: undefined,
        height: undefined,
        directions: 1,
        framesPerDirection: 1,
        placeholder: false,
      });
      const it = thing.interpretation;
      const image = cropToPixels(thing.frames[0]!);
      if (!image) return null;
      return {
        image,
        as: it?.drawing
          ? it.drawing.id
          : `${/^(person|creature|animal)/.test(it?.kind ?? '') ? 'figure' : 'rig'} (${it?.kind ?? 'rig'})`,
      };
    } catch (e) {
      if (e instanceof PipelineError) return null;
      throw e;
    }
  };
  const out = await drawScene({
    rng,
    style,
    painter,
    text: sceneText(request),
    interpretation,
    width,
    height,
    drawThing,
    seed: request.seed,
  });
  out.request.unread = await sceneNouns(out.request.unread, interpretation);
  // never a meadow in place of the place asked for (issue #39: "a sci-fi laboratory" was a meadow
  // with trees, its words listed as not honoured): no place read, and a thing it could not draw or a
  // room no setting draws named, the scene is refused, naming them
  // the things' report comes first, in the order of the request's others (compose.ts)
  const things = out.report.filter((r) => r.thing);
  const elements = out.report.filter((r) => !r.thing);
  const without = request.placeholder
    ? null
    : sceneWithout(
        out.request,
        (k) => things[k]?.drawn !== true,
        interpretation.ignored,
        (k) => elements[k]?.drawn === false,
        request.userPrompt,
      );
  if (without) throw new PipelineError('subject_not_drawable', without, { expose: true });
  const one = (w: string) =>
    w
      .replace(/ies$/, 'y')
      .replace(/ves$/, 'f')
      .replace(/(ch|sh|x|ss)es$/, '$1')
      .replace(/(?<=[^s])s$/, '');
  const drawn = [...out.report.filter((r) => r.drawn).map((r) => r.word), ...out.request.honoured];
  const dropped = out.report.filter((r) => !r.drawn).map((r) => r.word);
  // a Chinese word the scene joined back (阳台, 城墙) covers the characters the interpreter split it into
  const done = new Set(
    [...drawn, ...dropped].flatMap((w) => [
      w,
      one(w),
      nounLemma(w) ?? w,
      ...(/^\p{Script=Han}{2,}$/u.test(w) ? [...w] : []),
    ]),
  );
  return {
    frames: [out.image],
    animation: 'background',
    subject: out.subject,
    tileable: style.tileable,
    layers: out.layers,
    interpretation: {
      ...interpretation,
      understood: [...new Set([...interpretation.understood.filter((w) => !dropped.includes(w)), ...drawn])],
      ignored: [
        ...new Set([...interpretation.ignored.filter((w) => !done.has(w) && !done.has(one(w))), ...dropped]),
      ],
      elements: out.report,
    },
  };
}

/** A UI piece: its kind, states, words and material; an icon's subject drawn as a sprite of it. */
async function drawUiPiece({ request, text, interpretation, style }: Drawing): Promise<GeneratedAsset> {
  // an icon's subject is drawn by the sprite generator, as a sprite of it would be
  const drawIcon = async (subject: string, size: number) => {
    try {
      const icon = await renderProcedural({
        ...request,
        assetType: 'sprite',
        userPrompt: subject,
        tags: [],
        resolution: size,
        width: undefined,
        height: undefined,
        directions: 1,
        framesPerDirection: 1,
        placeholder: false,
      });
      const it = icon.interpretation;
      return {
        image: icon.frames[0]!,
        as: it?.drawing ? it.drawing.id : `figure (${it?.kind ?? 'rig'})`,
        it,
      };
    } catch (e) {
      if (e instanceof PipelineError && e.code === 'subject_not_drawable') return null;
      throw e;
    }
  };
  let iconReading: Interpretation | undefined;
  const colourWord = interpretation.colors.find((c) => !UI_MATERIAL_WORDS.test(c.word));
  const uiColour = colourWord ? mix(parseHex(colourWord.hex)!, [128, 128, 128], 0.12) : null;
  const out = await drawUi({
    style,
    text,
    prompt: request.userPrompt,
    resolution: request.resolution,
    ...(request.width !== undefined && request.height !== undefined
      ? { width: request.width, height: request.height }
      : {}),
    // a material word ("wooden", "golden") names the border, not the face's colour
    ...(uiColour ? { color: uiColour } : {}),
    drawIcon: async (subject, size) => {
      const got = await drawIcon(subject, size);
      iconReading = got?.it;
      return got;
    },
  });
  // what the piece honoured: its kind and material words, its words, its colour; an icon's subject
  const understood = new Set(interpretation.understood);
  const ignored = new Set(interpretation.ignored);
  const honour = (w: string) => {
    understood.add(w);
    ignored.delete(w);
  };
  const onPiece = new Set((out.text?.text.toLowerCase() ?? '').split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  for (const t of tokenize(text)) {
    const w = t.text;
    if (onPiece.has(w) || (t.zh && out.text?.text.includes(w))) honour(w);
    if (out.material && UI_MATERIAL_WORDS.test(w)) honour(w);
    if (UI_PIECE_WORDS.test(w)) honour(w);
  }
  for (const w of [...ignored]) if (UI_PIECE_WORDS.test(w) || onPiece.has(w)) honour(w);
  if (iconReading) for (const w of iconReading.understood) honour(w);
  // an inventory's slots, a quest log's lines: the words that named them are drawn
  for (const w of out.contents?.words ?? []) honour(w);
  // a close cross is what an exit, quit or dismiss button shows, and what "a cross" / "an X" names
  if (out.symbol === 'close')
    for (const t of tokenize(text)) if (/^(cross|x|exit|quit|dismiss|叉)$/.test(t.text)) honour(t.text);
  return {
    frames: out.frames,
    animation: out.kind,
    frameNames: out.frameNames,
    subject: out.kind === 'icon' ? `${iconReading?.subject ?? 'icon'} icon` : `${out.kind} ui piece`,
    ...(out.nineSlice ? { nineSlice: out.nineSlice } : {}),
    uiKind: out.kind,
    interpretation: {
      ...interpretation,
      understood: [...understood],
      ignored: [...ignored].filter((w) => !understood.has(w)),
      ...(out.text ? { text: out.text } : {}),
      ...(out.icon ? { source: 'drawing' as const, drawnAs: out.icon } : {}),
    },
  };
}

/** A tileset: the terrains the prompt names on the set's tiles. */
async function drawTilesetAsset({ request }: Drawing): Promise<GeneratedAsset> {
  const params = tilesetParams(request.tileset);
  const undrawn = request.placeholder ? null : undrawnMaterial(request);
  if (undrawn) throw new PipelineError('subject_not_drawable', materialRefusal(undrawn), { expose: true });
  const out = renderTileset({
    ...params,
    userPrompt: request.userPrompt,
    tags: request.tags,
    style: request.style,
    seed: request.seed,
  });
  return {
    frames: out.tiles,
    animation: 'tileset',
    subject: out.interpretation.subject ?? 'tileset',
    interpretation: out.interpretation,
    tileset: { kind: params.kind, terrains: out.terrains.map((t) => t.name), colors: out.colors },
  };
}

/** A sprite or animation: a licensed drawing, the rig, or a refusal naming the word (a placeholder when asked). */
async function drawSubject({
  request,
  interpretation,
  style,
  rng,
  asked,
  painter,
}: Drawing): Promise<GeneratedAsset> {
  // metal bars and ingots: drawn as bricks in a pyramid, not a catalogue drawing (issue #39)
  const ingots = ingotsOf(interpretation, request.userPrompt);
  if (ingots) {
    const names = DIRECTION_NAMES[request.directions];
    const animated = request.assetType === 'animation';
    return {
      frames: drawIngots(ingots, painter, request.resolution, request.directions, request.framesPerDirection),
      animation: animated ? 'sparkle' : 'idle',
      subject: interpretation.subject!,
      // the same bricks from every side: said, not faked as a turn
      views: names.map((direction, i) => ({ direction, view: i === 0 ? 'source' : 'repeat' })),
      interpretation: {
        ...interpretation,
        source: 'rig',
        understood: [...new Set([...interpretation.understood, ...ingots.words])],
        ignored: interpretation.ignored.filter((w) => !ingots.words.includes(w.toLowerCase())),
      },
    };
  }
  let source = await chooseSource(interpretation, request);
  let substitute: Interpretation['substitute'];
  if (source.kind === 'refused') {
    if (!request.placeholder)
      throw new PipelineError('subject_not_drawable', refusalMessage(source.word, source.suggestions), {
        expose: true,
      });
    // the request asked for a placeholder: a question mark that says what it is
    const lib = await loadDrawings();
    const question = lib.drawingById('f/red-question-mark')!;
    const mark = [{ drawing: question, score: 20, via: 'label' as const }];
    substitute = { for: source.word ?? '(no subject)', drawn: 'placeholder (question mark)' };
    source = { kind: 'drawing', matches: mark, via: 'label' };
    interpretation.subject ??= source.matches[0]?.drawing.label ?? 'question mark';
  }
  if (source.kind === 'drawing') {
    const out = await drawFromLibrary(request, interpretation, source, style, painter, asked, rng);
    if (substitute && out.interpretation) out.interpretation.substitute = substitute;
    if (out.interpretation) {
      const d = source.matches[0]!.drawing;
      const named = new Set([
        ...d.heads,
        ...d.words,
        ...d.label.split(' '),
        ...d.zh,
        ...(source.named ?? []),
      ]);
      out.interpretation = placesNotShown(out.interpretation, named);
    }
    return out;
  }
  // a four-legged animal of the rig asleep ("a fox sleeping" walked, the word not honoured): it stands
  // at rest, then lies down with its eyes shut under its Zs, as a drawing does (decision 0103)
  const rigSleeps =
    request.assetType === 'animation' &&
    interpretation.kind &&
    kindSpec(interpretation.kind)?.plan === 'quadruped'
      ? sleepWord([...interpretation.understood, ...interpretation.ignored])
      : null;
  const out = drawSpriteFrames({
    rng,
    seed: request.seed,
    style,
    painter,
    interpretation,
    width: request.resolution,
    height: request.resolution,
    directions: request.directions,
    framesPerDirection: request.framesPerDirection,
    animate: request.assetType === 'animation' && !rigSleeps ? 'motion' : 'idle',
  });
  if (rigSleeps) {
    const over = overOf(request, style, painter);
    out.frames = sleepMarks(lieDown(out.frames, over).frames, over);
    out.motion = 'sleep';
    out.verb = rigSleeps;
  }
  // the verb the thing does, and the words a figure's design drew ("a viking warrior": the viking's
  // horned helm, beard and axe were drawn and the word was still listed as not honoured)
  const drew = new Set(
    [...(out.verb ? [out.verb] : []), ...(out.honoured ?? []), ...(out.coat ?? [])].map((w) =>
      w.toLowerCase(),
    ),
  );
  const moved = interpretation.ignored.filter((w) => drew.has(w.toLowerCase()));
  const honoured =
    out.verb || moved.length
      ? {
          understood: [...new Set([...interpretation.understood, ...(out.verb ? [out.verb] : []), ...moved])],
          ignored: interpretation.ignored.filter((w) => !drew.has(w.toLowerCase())),
        }
      : {};
  // a person noun no outfit dresses ("a postman") is the plain figure: the noun is said not drawn
  if (interpretation.subject && !figureShowsPerson(interpretation)) {
    const word = interpretation.subject;
    const base = { ...interpretation, ...honoured };
    Object.assign(honoured, {
      understood: base.understood.filter((w) => w !== word),
      ignored: base.ignored.includes(word) ? base.ignored : [...base.ignored, word],
    });
  }
  return {
    frames: out.frames,
    animation: out.motion,
    ...(out.still ? { still: true } : {}),
    subject: out.subject,
    // the rig draws every row facing its way (a manifest without views left a reader guessing: #39)
    views: out.views ?? rigViews(request.directions),
    // (a word the rig drew is no place it left out: "polar" is the polar bear's white coat, 0116)
    interpretation: placesNotShown(
      { ...interpretation, ...honoured, source: 'rig' },
      new Set(out.coat ?? []),
    ),
  };
}

/** The rig's rows: each drawn facing its direction (`source`). */
const rigViews = (directions: ImageRequest['directions']): NonNullable<GeneratedAsset['views']> =>
  DIRECTION_NAMES[directions].map((direction) => ({ direction, view: 'source' as const }));

/**
 * A sprite shows no place and no weather: such a word is named not honoured unless the drawing names
 * it (issue #39: the "snow" of "a snow globe", read as a place, was dropped without a word).
 */
function placesNotShown(it: Interpretation, named: ReadonlySet<string>): Interpretation {
  const moved = it.understood.filter((w) => {
    if (w === it.subject || named.has(w)) return false;
    const t = tokenize(w)[0];
    const cls = t ? wordClass(t) : 'unknown';
    return cls === 'place' || cls === 'weather';
  });
  if (!moved.length) return it;
  return {
    ...it,
    understood: it.understood.filter((w) => !moved.includes(w)),
    ignored: [...it.ignored, ...moved],
  };
}

/** A level: its terrain pairs' tiles and its props, each prop a sprite of the sprite generator. */
async function drawLevel({ request }: Drawing): Promise<GeneratedAsset> {
  return drawLevelArt(request, async (prompt, resolution) => {
    try {
      const thing = await renderProcedural({
        ...request,
        assetType: 'sprite',
        userPrompt: prompt,
        tags: [],
        resolution,
        width: undefined,
        height: undefined,
        directions: 1,
        framesPerDirection: 1,
        placeholder: false,
        level: undefined,
      });
      const it = thing.interpretation;
      return { image: thing.frames[0]!, as: it?.drawing ? it.drawing.id : `rig (${it?.kind ?? 'rig'})` };
    } catch (e) {
      if (e instanceof PipelineError) return null;
      throw e;
    }
  });
}

/** How the built-in generator draws each asset type. */
const DRAWINGS: Readonly<Record<ImageRequest['assetType'], (drawing: Drawing) => Promise<GeneratedAsset>>> = {
  sprite: drawSubject,
  animation: drawSubject,
  background: drawBackground,
  ui: drawUiPiece,
  tileset: drawTilesetAsset,
  level: drawLevel,
};

const RIG_ROLES = ['spine', 'spineAtlas', 'spineImage', 'dragonBones', 'dragonBonesAtlas'] as const;

/**
 * A kept character's task (issue #40): the named action drawn from its stored rig identity in the
 * asked directions — never by reading the prompt again — with the anchor at its feet, and for an
 * animation the rig of that action beside the frames.
 */
function drawKeptCharacter(request: ImageRequest): GeneratedAsset {
  const kept = request.character!;
  const identity = kept.identity as unknown as CharacterIdentity;
  if (identity?.rig !== 'figure' || identity.version !== 1)
    throw new PipelineError(
      'invalid_request',
      '@assetloom/generator: params.character.identity is not a rig identity of the built-in generator; make the character again',
      { expose: true },
    );
  const action = kept.action as (typeof CHARACTER_ACTIONS)[number];
  if (!CHARACTER_ACTIONS.includes(action))
    throw new PipelineError(
      'invalid_request',
      `@assetloom/generator: a kept character cannot "${kept.action}"; use one of ${CHARACTER_ACTIONS.join(', ')}`,
      { expose: true },
    );
  const req = {
    prompt: request.userPrompt,
    seed: request.seed,
    resolution: request.resolution,
    style: request.style,
  };
  const drawn = drawCharacter(req, identity, action, request.directions, request.framesPerDirection);
  const rig = kept.rig
    ? characterActionRig(req, identity, action, {
        directions: request.directions,
        framesPerDirection: request.framesPerDirection,
        fps: kept.fps,
        name: kept.stem,
      }).files.map((file, i) => ({ ...file, role: RIG_ROLES[i]! }))
    : undefined;
  return {
    frames: drawn.frames,
    animation: action,
    subject: request.userPrompt,
    views: rigViews(request.directions),
    anchor: drawn.anchor,
    ...(rig ? { rig } : {}),
  };
}

/** Renders one asset; deterministic in (seed, request). */
export async function renderProcedural(request: ImageRequest): Promise<GeneratedAsset> {
  if (request.character && (request.assetType === 'sprite' || request.assetType === 'animation'))
    return drawKeptCharacter(request);
  const text = subjectText(request);
  const { interpretation, style, asked, painter } = drawingSetup(request);
  const rng = new Rng(request.seed);
  return DRAWINGS[request.assetType]({ request, text, interpretation, style, rng, asked, painter });
}

/**
 * The built-in provider: procedural, deterministic pixel art (characters, creatures and items;
 * layered landscapes and tileable textures; 9-slice UI pieces; motion cycles). Browser-safe.
 */
export function createProceduralProvider(): ImageProvider {
  return {
    name: 'procedural',
    async generate(request, { signal }) {
      signal?.throwIfAborted();
      return renderProcedural(request);
    },
    preflight: preflightProcedural,
  };
}
