import type { NineSlice, RgbaImage } from '@assetloom/pipeline';
import { PipelineError } from '@assetloom/pipeline';
import {
  textBox,
  UI_STATES,
  UI_TEXT_PAD,
  type UiKind,
  type UiSymbol,
  type UiText,
  uiFrameSize,
  uiKindOf,
  uiSymbolOf,
  uiTextOf,
} from '@assetloom/pipeline/interpret';
import type { ResolvedStyle } from '@assetloom/pipeline/pixel';
import { fromOklab, oklab, PixelCanvas, type Rgb } from '@assetloom/pipeline/pixel';
import { paletteColours } from '../look/index.js';
import { loadDrawings } from './library/sprite.js';
import { cropToPixels } from './scene/paint.js';
import {
  barSignOf,
  drawBarCap,
  drawBarSocket,
  drawCornerPieces,
  drawEmblem,
  drawEntries,
  drawRuled,
  drawSlots,
  drawTitleBand,
  type PanelContents,
  panelContentsOf,
  paperGrain,
} from './ui-contents.js';

/**
 * The built-in UI pieces, as a game's UI artist draws them at native pixel size:
 * - buttons in four states (normal, hover, pressed, disabled) with their words (quoted or named by
 *   the prompt) set in a licensed pixel font, or a symbol (close, plus, minus);
 * - bars empty and full, the fill in the bar's colour (health red, mana blue …);
 * - panels (dialogs, windows) with a border of the named material (wood, stone, gold, metal …), and
 *   item slots when the words name an inventory, a title band when they name a quest log or a
 *   journal, ruled lines only when they ask for lines (ui-contents.ts);
 * - labels: a plate with its words;
 * - icons: the thing named, drawn by the sprite generator from the licensed drawings.
 * Every piece but an icon has 9-slice insets; a colour word colours the piece itself.
 */
export interface UiJob {
  style: ResolvedStyle;
  /** The lower-case text the layout read (prompt, tags and scene-like style values). */
  text: string;
  /** The user's prompt as written (quoted words keep their case). */
  prompt: string;
  resolution: number;
  /** The canvas asked for (`params.width` × `params.height`), else the kind's own size. */
  width?: number;
  height?: number;
  /** A colour the prompt asked for: the piece's face (a bar's fill). */
  color?: Rgb;
  /** Draws an icon's subject (the sprite generator), `size` pixels square, or null when it cannot. */
  drawIcon?: (subject: string, size: number) => Promise<{ image: RgbaImage; as: string } | null>;
}

export interface UiOutput {
  kind: UiKind;
  frames: RgbaImage[];
  frameNames: string[];
  width: number;
  height: number;
  nineSlice?: NineSlice;
  /** The words set on the piece and the font they are set in. */
  text?: { text: string; font: string };
  /** What an icon's subject was drawn from. */
  icon?: string;
  /** Material of the border, when the prompt named one. */
  material?: Material;
  /** What a panel holds (item slots, a title band, ruled lines), when its words named it. */
  contents?: PanelContents;
  /** The sign a button shows instead of words (a close cross, a pause sign …). */
  symbol?: UiSymbol;
}

type Material = 'wood' | 'stone' | 'gold' | 'metal' | 'ice' | 'paper' | 'plain';
const MATERIALS: ReadonlyArray<[RegExp, Material]> = [
  [/\b(wood|wooden|timber|oak)\b|木/, 'wood'],
  [/\b(stone|stony|rock|marble|granite)\b|石/, 'stone'],
  [/\b(gold|golden|gilded|royal|ornate)\b|金色|黄金|金/, 'gold'],
  [/\b(metal|metallic|steel|iron|sci-?fi|futuristic|tech)\b|金属|钢|铁|科幻/, 'metal'],
  [/\b(ice|icy|frozen|crystal)\b|冰/, 'ice'],
  [/\b(paper|parchment|scroll)\b|纸|羊皮/, 'paper'],
];

/** A colour's ramp in OKLab: lights lean warm, shadows cool, as a pixel artist shifts hue. */
function ramp(base: Rgb): { hi: Rgb; light: Rgb; base: Rgb; dark: Rgb; deep: Rgb } {
  const [L, a, b] = oklab(base);
  const at = (dl: number, db: number) =>
    fromOklab(Math.max(0.05, Math.min(0.98, L + dl)), a * (dl > 0 ? 0.85 : 1.05), b + db);
  return { hi: at(0.22, 0.02), light: at(0.11, 0.01), base, dark: at(-0.12, -0.015), deep: at(-0.24, -0.03) };
}
const grey = (c: Rgb, t: number): Rgb => {
  const l = c[0] * 0.3 + c[1] * 0.59 + c[2] * 0.11;
  return [c[0] + (l - c[0]) * t, c[1] + (l - c[1]) * t, c[2] + (l - c[2]) * t];
};
const lum = (c: Rgb) => (c[0] * 0.3 + c[1] * 0.59 + c[2] * 0.11) / 255;

/**
 * A rounded, outlined plate: outline, a border band of `border` pixels in the material, a bevel
 * (light top-left, dark bottom-right) and the face. `lip` pixels of darker edge under it make a
 * button stand up; `top` shifts it down (a pressed button sits on its lip).
 */
function plate(
  c: PixelCanvas,
  opts: {
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    outline: Rgb | null;
    border: number;
    rim: ReturnType<typeof ramp>;
    face: ReturnType<typeof ramp>;
    material: Material;
    lip?: number;
  },
): void {
  const { x0, y0, x1, y1, border, rim, face, material } = opts;
  const lip = opts.lip ?? 0;
  const bottom = y1 - lip;
  const corner = 1;
  const inRound = (x: number, y: number, yb: number) => {
    const cx = Math.min(x - x0, x1 - 1 - x);
    const cy = Math.min(y - y0, yb - 1 - y);
    return cx + cy >= corner;
  };
  // the lip: the plate's underside, seen below it
  for (let y = bottom; y < y1; y++)
    for (let x = x0; x < x1; x++) if (inRound(x, y - lip, bottom)) c.paint(x, y, opts.outline ?? rim.deep);
  for (let y = y0; y < bottom; y++)
    for (let x = x0; x < x1; x++) {
      if (!inRound(x, y, bottom)) continue;
      const dl = x - x0;
      const dr = x1 - 1 - x;
      const dt = y - y0;
      const db = bottom - 1 - y;
      const d = Math.min(dl, dr, dt, db);
      const cornerEdge = Math.min(dl, dr) + Math.min(dt, db) === corner;
      if (opts.outline && (d === 0 || cornerEdge)) {
        c.paint(x, y, opts.outline);
        continue;
      }
      const o = opts.outline ? 1 : 0;
      if (d < o + border) {
        // the border band: lit from the top left, with the material's pattern
        const lit = dt - o === 0 || dl - o === 0;
        const shade = db - o === 0 || dr - o === 0;
        let col = lit ? rim.light : shade ? rim.dark : rim.base;
        if (material === 'wood' && border >= 2 && !lit && !shade) {
          // planks: seams across the band every few pixels
          const along = dt < o + border || db < o + border ? x : y;
          if ((along - x0) % 7 === 0) col = rim.dark;
        } else if (material === 'stone' && border >= 2 && !lit && !shade) {
          // bricks: mortar every 4 pixels along, staggered each course
          const horizontal = dt < o + border || db < o + border;
          const along = horizontal ? x : y;
          const across = horizontal ? y : x;
          if ((along + (across % 2 ? 2 : 0)) % 5 === 0) col = rim.dark;
        } else if (
          (material === 'gold' || material === 'metal') &&
          !lit &&
          !shade &&
          d === o + Math.floor(border / 2)
        )
          col = rim.hi;
        c.paint(x, y, col);
        continue;
      }
      // the face: a highlight row under the top border, a shade row over the bottom one
      const fd = d - o - border;
      const col =
        dt - o - border === 0 ? face.light : db - o - border === 0 && fd === 0 ? face.dark : face.base;
      c.paint(x, y, col);
    }
  // rivets or gems in the corners of a metal or gold border
  if ((material === 'metal' || material === 'gold') && border >= 3) {
    const o = opts.outline ? 1 : 0;
    const m = o + Math.floor(border / 2);
    for (const [rx, ry] of [
      [x0 + m, y0 + m],
      [x1 - 1 - m, y0 + m],
      [x0 + m, bottom - 1 - m],
      [x1 - 1 - m, bottom - 1 - m],
    ] as const)
      c.paint(rx, ry, material === 'gold' ? [200, 40, 60] : rim.hi);
  }
}

/** The piece's colours: the border's material, the face (the asked colour, or the material's own). */
function colours(kind: UiKind, material: Material, asked: Rgb | null, text: string, sym: UiSymbol | null) {
  const RIMS: Record<Material, Rgb> = {
    wood: [142, 94, 56],
    stone: [132, 132, 140],
    gold: [222, 170, 52],
    metal: [142, 152, 170],
    ice: [150, 206, 236],
    paper: [214, 190, 140],
    plain: [236, 236, 244],
  };
  const FACES: Record<Material, Rgb> = {
    wood: [196, 150, 96],
    stone: [72, 72, 84],
    gold: [60, 34, 92],
    metal: [46, 56, 74],
    ice: [36, 70, 120],
    paper: [244, 226, 184],
    plain: [34, 44, 112],
  };
  if (kind === 'button') {
    // a close button is red, as a window's close cross is in every game (decision 0107: the blind review
    // after 1130 saw "a wide blue bar"); other plain buttons are blue
    const plainFace: Rgb = sym === 'close' ? [204, 62, 56] : [70, 130, 220];
    const face: Rgb = asked ?? (material === 'plain' ? plainFace : RIMS[material]);
    return { rim: ramp(material === 'plain' ? face : RIMS[material]), face: ramp(face) };
  }
  if (kind === 'bar') {
    const fill: Rgb =
      asked ??
      (/\b(mana|mp|magic)\b|蓝/.test(text)
        ? [58, 110, 232]
        : /\b(stamina|energy)\b|体力|能量/.test(text)
          ? [236, 196, 48]
          : /\b(xp|exp|experience)\b|经验/.test(text)
            ? [150, 80, 220]
            : /\b(progress|loading)\b|进度|加载/.test(text)
              ? [70, 190, 90]
              : [214, 48, 56]);
    return { rim: ramp(material === 'plain' ? [120, 124, 140] : RIMS[material]), face: ramp(fill) };
  }
  return { rim: ramp(RIMS[material]), face: ramp(asked ?? FACES[material]) };
}

/**
 * A button's hover and pressed faces (decision 0136: the blind review after 1130g found a pause
 * button's hover "almost the same as normal"): hover is the face 0.17 lighter in OKLab, pressed 0.12
 * darker. Under an enforced palette each is the palette's next colour of the face's family along its
 * ramp (pico8's blue has no lighter blue: the hover keeps the face and its glow ring says it).
 */
function buttonStates(face: ReturnType<typeof ramp>, style: ResolvedStyle) {
  const [L, a, b] = oklab(face.base);
  let hover = fromOklab(Math.min(0.95, L + 0.17), a * 0.9, b + 0.01);
  let pressed = fromOklab(Math.max(0.12, L - 0.12), a, b - 0.015);
  if (style.paletteEnforced) {
    const look = paletteColours(style.palette, style.lineWeight);
    // the normal face as the piece's palette pass maps it
    const normal = look.map(face.base);
    hover = look.step(normal, 1);
    pressed = look.step(normal, -1);
  }
  return { hover: ramp(hover), pressed: ramp(pressed) };
}

/** Sets text on a canvas in the bitmap font, centred in the box, with a one-pixel drop shadow. */
async function letter(
  c: PixelCanvas,
  text: string,
  box: { x0: number; y0: number; x1: number; y1: number },
  colour: Rgb,
  shadow: Rgb | null,
): Promise<string> {
  const { font: fontName, width, height } = textBox(text);
  const lib = await loadDrawings();
  const font = await lib.loadFont(fontName);
  if (!font.covers(text)) {
    const missing = [...text].filter((ch) => !font.covers(ch));
    throw new PipelineError(
      'invalid_request',
      `the UI font has no glyph for ${missing.map((m) => `"${m}"`).join(', ')}`,
      {
        expose: true,
      },
    );
  }
  const x = Math.floor((box.x0 + box.x1 - width) / 2);
  // Press Start 2P's capitals stand on row 7 of 8: centre the capitals, not the cell; a CJK glyph
  // fills its 16-px cell: centre the cell and its drop shadow (decision 0122: it sat a pixel low,
  // its shadow on the face's bottom bevel line)
  const inkHeight = fontName === 'assetloom-8' ? 7 : height + (shadow ? 1 : 0);
  const y = Math.floor((box.y0 + box.y1 - inkHeight) / 2);
  if (shadow) font.draw(text, x + 1, y + 1, (px, py) => c.paint(px, py, shadow));
  font.draw(text, x, y, (px, py) => c.paint(px, py, colour));
  return fontName;
}

/** A symbol on a button: a close cross, a plus, a minus, two pixels thick. */
function symbol(
  c: PixelCanvas,
  which: UiSymbol,
  box: { x0: number; y0: number; x1: number; y1: number },
  colour: Rgb,
  shadow: Rgb | null,
): void {
  const size = Math.max(3, Math.min(box.x1 - box.x0, box.y1 - box.y0) - 4);
  const cx = Math.floor((box.x0 + box.x1 - size) / 2);
  const cy = Math.floor((box.y0 + box.y1 - size) / 2);
  const t = size >= 8 ? 2 : 1;
  const plot = (dx: number, dy: number, col: Rgb) => {
    if (which === 'pause') {
      // two upright bars, each a quarter of the sign wide, a bar's width apart
      const bar = Math.max(t, Math.round(size / 4));
      const left = cx + Math.floor((size - 3 * bar) / 2);
      for (let k = 0; k < size; k++)
        for (let j = 0; j < bar; j++) {
          c.paint(left + j + dx, cy + k + dy, col);
          c.paint(left + 2 * bar + j + dx, cy + k + dy, col);
        }
      return;
    }
    for (let k = 0; k < size; k++) {
      if (which === 'close') {
        for (let j = 0; j < t; j++) {
          c.paint(cx + k + dx + j, cy + k + dy, col);
          c.paint(cx + size - 1 - k + dx - j, cy + k + dy, col);
        }
      } else {
        const mid = Math.floor((size - t) / 2);
        for (let j = 0; j < t; j++) {
          c.paint(cx + k + dx, cy + mid + j + dy, col);
          if (which === 'plus') c.paint(cx + mid + j + dx, cy + k + dy, col);
        }
      }
    }
  };
  if (shadow) plot(1, 1, shadow);
  plot(0, 0, colour);
}

/** A page's body text: its ink a third of the way back to the face (the title keeps the full ink). */
const softInk = (ink: Rgb, face: Rgb): Rgb => [
  Math.round(ink[0] + (face[0] - ink[0]) * 0.3),
  Math.round(ink[1] + (face[1] - ink[1]) * 0.3),
  Math.round(ink[2] + (face[2] - ink[2]) * 0.3),
];

/** The ink for words on a face: light on a dark face, dark on a light one. */
const inkFor = (face: Rgb): { ink: Rgb; shadow: Rgb } =>
  lum(face) < 0.58
    ? { ink: [250, 248, 240], shadow: ramp(face).deep }
    : { ink: [36, 30, 44], shadow: ramp(face).light };

/**
 * An icon's picture with its drawn pixels centred on the canvas (issue #39: a sprite stands on its
 * feet at the bottom of its frame, so an icon drawn as one sat low, its top empty and its bottom
 * touching the edge).
 */
function centred(image: RgbaImage, width: number, height: number): RgbaImage {
  const out = new Uint8Array(width * height * 4);
  const drawn = cropToPixels(image);
  if (!drawn) return { width, height, data: out };
  const dx = Math.floor((width - drawn.width) / 2);
  const dy = Math.floor((height - drawn.height) / 2);
  for (let y = Math.max(0, -dy); y < Math.min(drawn.height, height - dy); y++)
    for (let x = Math.max(0, -dx); x < Math.min(drawn.width, width - dx); x++) {
      const i = (y * drawn.width + x) * 4;
      out.set(drawn.data.subarray(i, i + 4), ((y + dy) * width + x + dx) * 4);
    }
  return { width, height, data: out };
}

/** Draws a UI piece; fails (a clear, exposed error) when its words do not fit the canvas asked for. */
export async function drawUi(job: UiJob): Promise<UiOutput> {
  const kind = uiKindOf(job.text);
  const words: UiText | null = uiTextOf(job.prompt, kind);
  const { width, height } =
    job.width !== undefined && job.height !== undefined
      ? { width: job.width, height: job.height }
      : uiFrameSize(kind, job.resolution, words?.text, kind === 'button' ? uiSymbolOf(job.text) : null);
  const material: Material = MATERIALS.find(([re]) => re.test(job.text))?.[1] ?? 'plain';
  const names = [...UI_STATES[kind]];
  const style = job.style;
  const outline: Rgb | null = style.lineWeight > 0 ? [24, 20, 32] : null;
  const sym = kind === 'button' ? uiSymbolOf(job.text) : null;
  const { rim, face } = colours(kind, material, job.color ?? null, job.text, words ? null : sym);
  const contents = kind === 'panel' ? panelContentsOf(job.text) : null;

  if (kind === 'icon') {
    const subject = job.text
      .replace(/\b(icons?|emblems?|badges?|symbols?|pictograms?|ui|gui|hud)\b|图标|徽章|标志/g, ' ')
      .trim();
    const drawn = job.drawIcon ? await job.drawIcon(subject || job.text, Math.min(width, height)) : null;
    if (!drawn)
      throw new PipelineError(
        'subject_not_drawable',
        `the built-in generator cannot draw an icon of "${subject}"`,
        {
          expose: true,
        },
      );
    const frame = centred(drawn.image, width, height);
    return { kind, frames: [frame], frameNames: names, width, height, icon: drawn.as };
  }

  // the art grid: native pixels up to 160 on the long edge, whole-pixel scaling above
  const factor = style.artStyle === 'pixel' ? Math.max(1, Math.ceil(Math.max(width, height) / 160)) : 1;
  const gw = Math.floor(width / factor);
  const gh = Math.floor(height / factor);
  const border =
    kind === 'panel'
      ? Math.max(2, Math.min(5, Math.round(Math.min(gw, gh) / 12)))
      : kind === 'bar'
        ? Math.max(1, Math.min(3, Math.round(gh / 8)))
        : Math.max(1, Math.min(3, Math.round(gh / 12)));
  const lip = kind === 'button' ? Math.max(1, Math.min(4, Math.round(gh / 10))) : 0;
  const o = outline ? 1 : 0;
  // a bar's socket with its sign at the left end (as tall as the bar) and its cap at the right, when
  // the bar is long enough to hold them (three times its height) and tall enough to show a sign
  const socket = kind === 'bar' && gh >= 10 && gw >= 3 * gh ? gh : 0;
  const cap = kind === 'bar' && gh >= 8 && gw >= 3 * gh ? Math.max(2, Math.round(gh / 5)) : 0;
  let fontUsed: string | undefined;
  // a symbol button is square: on a wider canvas asked for, it stands in the middle (never a wide bar)
  const squareAt = kind === 'button' && sym && !words && gw > gh ? Math.floor((gw - gh) / 2) : 0;
  const px0 = squareAt;
  const px1 = squareAt ? squareAt + gh : gw;
  if (words) {
    const box = textBox(words.text);
    const room = gw - 2 * (o + border) - 2;
    const tall = gh - 2 * (o + border) - lip;
    if (box.width > room || box.height > tall)
      throw new PipelineError(
        'invalid_request',
        `the words "${words.text}" need ${box.width + 2 * UI_TEXT_PAD} × ${box.height + 2 * (o + border) + lip + 2} px; the canvas is ${gw} × ${gh} (ask for a larger params.width/height, or none: the piece is sized to its words)`,
        { expose: true },
      );
  }
  const states = kind === 'button' ? buttonStates(face, style) : { hover: face, pressed: face };
  const frames: RgbaImage[] = [];
  for (const state of names) {
    const c = new PixelCanvas(gw, gh);
    if (kind === 'button') {
      const pressed = state === 'pressed';
      const hover = state === 'hover';
      const disabled = state === 'disabled';
      const f = disabled ? ramp(grey(face.base, 1)) : hover ? states.hover : pressed ? states.pressed : face;
      const r = disabled ? ramp(grey(rim.base, 1)) : rim;
      plate(c, {
        x0: px0,
        y0: pressed ? lip : 0,
        x1: px1,
        y1: gh,
        outline,
        border,
        rim: r,
        face: f,
        material,
        lip: pressed ? 0 : lip,
      });
      const top = (pressed ? lip : 0) + o + border;
      const box = {
        x0: px0 + o + border,
        y0: top,
        x1: px1 - o - border,
        y1: (pressed ? gh : gh - lip) - o - border,
      };
      // hover glows: a ring of the face's highest light inside the border; pressed is sunk: the
      // face's deep tone along its top and left, as a shadow cast into it (decision 0136)
      if (hover || pressed)
        for (let y = box.y0; y < box.y1; y++)
          for (let x = box.x0; x < box.x1; x++) {
            const edge = y === box.y0 || x === box.x0 || (hover && (y === box.y1 - 1 || x === box.x1 - 1));
            if (edge) c.paint(x, y, hover ? f.hi : f.deep);
          }
      // the ink of the normal face in every state: a sign or word does not change colour on hover
      const { ink } = inkFor(face.base);
      const shadow = lum(ink) > 0.5 ? ramp(f.base).deep : ramp(f.base).light;
      const inkCol: Rgb = disabled ? grey(ink, 1) : ink;
      const shadowCol = disabled ? null : shadow;
      if (words)
        fontUsed = await letter(
          c,
          words.text,
          box,
          disabled
            ? [lum(f.base) < 0.58 ? 170 : 96, lum(f.base) < 0.58 ? 170 : 96, lum(f.base) < 0.58 ? 176 : 104]
            : inkCol,
          shadowCol,
        );
      else if (sym) symbol(c, sym, box, inkCol, shadowCol);
      else if (hover) {
        // no words: a hover shine across the top of the face
        for (let x = box.x0 + 1; x < box.x0 + Math.max(2, Math.floor((box.x1 - box.x0) / 3)); x++)
          c.paint(x, box.y0, f.hi);
      }
    } else if (kind === 'bar') {
      const trackC: Rgb = [28, 24, 36];
      plate(c, {
        x0: socket ? Math.floor(gh / 2) : 0,
        y0: 0,
        x1: gw,
        y1: gh,
        outline,
        border,
        rim,
        face: ramp(trackC),
        material,
      });
      // the track ends in a cap at the right and starts from the socket at the left (decision 0136)
      if (cap) drawBarCap(c, gw - o - border, o + border, gh - o - border, cap, rim);
      const x0 = socket ? socket + 1 : o + border;
      const x1 = gw - o - border - cap;
      const y0 = o + border;
      const y1 = gh - o - border;
      if (state === 'full') {
        for (let y = y0; y < y1; y++)
          for (let x = x0; x < x1; x++)
            c.paint(x, y, y === y0 ? face.hi : y === y1 - 1 && y1 - y0 > 2 ? face.dark : face.base);
        // a glint near the left end
        if (y1 - y0 > 2) for (let x = x0 + 1; x < Math.min(x1, x0 + 3); x++) c.paint(x, y0 + 1, face.hi);
      } else for (let x = x0; x < x1; x++) c.paint(x, y1 - 1, ramp(trackC).light);
      if (socket) drawBarSocket(c, 0, 0, socket, barSignOf(job.text), rim, outline);
    } else {
      // panels and labels: the material border round the face (a label's face its plate)
      plate(c, {
        x0: 0,
        y0: 0,
        x1: gw,
        y1: gh,
        outline,
        border: kind === 'label' ? Math.max(1, border - 1) : border,
        rim,
        face,
        material,
      });
      const b = kind === 'label' ? Math.max(1, border - 1) : border;
      const { ink, shadow } = inkFor(face.base);
      const titleBottom = words && kind === 'panel' ? o + b + 1 + textBox(words.text).height + 2 : o + b;
      if (kind === 'panel') {
        const inner = { x0: o + b + 1, y0: o + b + 1, x1: gw - o - b - 1, y1: gh - o - b - 1 };
        if (material === 'paper') paperGrain(c, inner, face);
        const below = { ...inner, y0: Math.max(inner.y0, titleBottom), x0: inner.x0 + 1, x1: inner.x1 - 1 };
        if (contents?.kind === 'slots') {
          drawSlots(c, { ...below, y0: below.y0 + 1, y1: below.y1 - 1 }, face);
          drawCornerPieces(c, gw, gh, o + b + 3, rim, outline);
        } else if (contents?.kind === 'ruled') drawRuled(c, below, face, contents.checklist, ink);
        else if (contents?.kind === 'titled') {
          const rule = drawTitleBand(c, inner, face, words ? titleBottom : undefined);
          // a quest's or a journal's marks (decision 0113): its emblem in the band (when no words
          // fill it) and empty entry rows under the rule
          if (contents.page) {
            const band = rule - inner.y0 - 1;
            if (!words && band >= 5)
              drawEmblem(
                c,
                inner.x0 + Math.max(2, Math.round((inner.x1 - inner.x0) / 12)),
                inner.y0 + 2,
                band - 1,
                contents.page,
                face,
              );
            drawEntries(c, { ...inner, y0: rule + 2 }, face, contents.page, softInk(ink, face.base));
            // the title band after the emblem stays clean: the game sets its own title there
          }
        }
      }
      if (words) {
        const box =
          kind === 'label'
            ? { x0: o + b, y0: o + b, x1: gw - o - b, y1: gh - o - b }
            : { x0: o + b, y0: o + b + 1, x1: gw - o - b, y1: titleBottom };
        fontUsed = await letter(c, words.text, box, ink, shadow);
      }
    }
    frames.push(c.image(factor, width, height));
  }
  if (style.paletteEnforced) {
    // each colour the nearest of its family in the palette (as a sprite's look maps it, decision
    // 0136): under pico8 a blue button's shadow tones were its green
    const look = paletteColours(style.palette, style.lineWeight);
    for (const f of frames)
      for (let i = 0; i < f.data.length; i += 4) {
        if (!f.data[i + 3]) continue;
        const src: Rgb = [f.data[i]!, f.data[i + 1]!, f.data[i + 2]!];
        let m = look.map(src);
        // a shadow or an inset stays darker than the face it falls on: a tone the family maps much
        // lighter takes the family's next darker colour, else its outline
        if (oklab(m)[0] - oklab(src)[0] > 0.15) {
          const darker = look.step(m, -1);
          m = darker === m ? look.outline(m) : darker;
        }
        f.data.set(m, i);
      }
  }
  const ox = Math.floor((width - gw * factor) / 2);
  const oy = Math.floor((height - gh * factor) / 2);
  const inset = (o + border + 1) * factor;
  return {
    kind,
    frames,
    frameNames: names,
    width,
    height,
    nineSlice: {
      left: ox + px0 * factor + (socket ? (socket + 1) * factor : inset),
      right: width - ox - px1 * factor + inset + cap * factor,
      top: oy + inset,
      bottom: height - oy - gh * factor + inset + lip * factor,
    },
    ...(words && fontUsed ? { text: { text: words.text, font: fontUsed } } : {}),
    ...(material !== 'plain' ? { material } : {}),
    ...(contents ? { contents } : {}),
    ...(sym && !words ? { symbol: sym } : {}),
  };
}
