import type { Drawing } from '@assetloom/drawings';
import type { RgbaImage } from '@assetloom/pipeline';
import type { ResolvedStyle } from '@assetloom/pipeline/pixel';
import { bayer, hash53, Noise1D, Noise2D, type Painter, PixelCanvas, Rng } from '@assetloom/pipeline/pixel';
import { drawLibrarySprite, loadDrawings } from '../library/sprite.js';
import type { ElementKind, SceneRequest, Setting, WaterMaterial } from './elements.js';
import { keepSourcedLights, type Lighting, lightingFor, paintLights, paintRamp, paintSky } from './light.js';
import { cropToPixels, mixRgb, pack, type RGB, scaleRgb, unpack } from './paint.js';

/** A composed scene: its depth layers back to front, and what each named element became. */
export interface ComposedScene {
  layers: Array<{
    name: 'sky' | 'far' | 'mid' | 'near' | 'props' | 'weather';
    layer: PixelCanvas;
    scroll: number;
  }>;
  /** The lights drawn as glows (each with its source showing at its centre). */
  lights: Lighting['lights'];
  /** Each element and other noun of the prompt: drawn (how), or dropped. */
  report: Array<{ word: string; drawn: boolean; as?: string; thing?: true }>;
}

/**
 * Draws a thing the prompt names that no element is ("a wizard", "a red dragon") about `height`
 * pixels tall, cropped to its pixels; null when it cannot be drawn (it is then dropped, and said so).
 */
/** At most this many things the prompt names are drawn into a scene; the rest are dropped, and said. */
export const SCENE_THINGS = 4;

export type DrawThing = (phrase: string, height: number) => Promise<{ image: RgbaImage; as: string } | null>;

interface Ctx {
  w: number;
  h: number;
  rng: Rng;
  light: Lighting;
  style: ResolvedStyle;
  painter: Painter;
  req: SceneRequest;
  /** The prompt's lower-case text (for the kind of a thing: a Japanese temple, a pirate ship). */
  text: string;
  has: (k: ElementKind) => boolean;
  report: ComposedScene['report'];
  /** The elements drawn, and how. */
  drawn: Map<ElementKind, string>;
  /** Colours that give light (lava, lit windows, neon, flames): no ambient light or dimming changes them. */
  glow: Set<number>;
  /** Where things stand: the top of the near ground, or a room's floor. */
  groundY: number;
  /** The sun's or the moon's disc where the sky has one (the sea's glitter lies under it, nowhere else). */
  disc?: { x: number; y: number; r: number };
  /** The packed colours of water (and lava, mud, a swamp's pools) on the near ground: nothing stands in them. */
  wet: Set<number>;
  /** The near ground's layer while things are stood on it (where the water is). */
  nearLayer?: PixelCanvas;
  /**
   * Where a volcano's flow ends at its foot: a lava river on the ground starts there, or where the
   * flow meets the near ground when the ground hides its foot (`xAt`: the flow's x on a row).
   */
  lavaSource?: { x: number; y: number; xAt?: (y: number) => number | undefined };
  /** Where a room's furniture stands (its feet), when a fitting set one: things named stand there too. */
  floorLine?: number;
  /** The spans [x0, x1] of the things already stood on the near ground (no two stand in one place). */
  stood: Array<[number, number]>;
  lib: Awaited<ReturnType<typeof loadDrawings>>;
  /**
   * A random stream of its own for one part of the picture, salted by the setting, the elements and
   * the time: two settings at one seed never share a skyline, a moon or a row of trees (decision 0093).
   */
  vary: (part: string) => Rng;
  /**
   * A random stream for one part's detail (a ground's texture, a facade's roof, a coral's shape),
   * from the seed and the part's name alone: drawing one takes nothing from `rng` or `vary`, so
   * adding detail moves nothing else in the picture (decision 0125).
   */
  detail: (part: string) => Rng;
}

const P = pack;
/** A colour that gives light: packed, and kept out of the ambient light's reach. */
const G = (ctx: Ctx, c: RGB): number => {
  const v = pack(c);
  ctx.glow.add(v);
  return v;
};
/** Recolours a layer except its light-giving colours. */
const lightLayer = (ctx: Ctx, layer: PixelCanvas, fn: (c: RGB) => RGB) =>
  layer.map((c) => (ctx.glow.has(pack(c)) ? c : fn(c)));
const darker = (c: RGB, k = 0.78): RGB => scaleRgb(c, k);
const lighter = (c: RGB, k = 0.3): RGB => mixRgb(c, [255, 250, 235], k);

/** Ground, hills and far land of each open-air setting, by day. */
const LAND: Record<
  Exclude<
    Setting,
    | 'dungeon'
    | 'cave'
    | 'castle_hall'
    | 'tavern'
    | 'library'
    | 'workshop'
    | 'laboratory'
    | 'courtyard'
    | 'underwater'
    | 'space'
  >,
  { far: RGB; mid: RGB; near: RGB; soil: RGB }
> = {
  grassland: { far: [116, 146, 188], mid: [96, 164, 80], near: [74, 144, 62], soil: [128, 92, 58] },
  forest: { far: [92, 128, 146], mid: [52, 122, 72], near: [42, 100, 56], soil: [96, 66, 44] },
  desert: { far: [214, 164, 128], mid: [232, 188, 122], near: [226, 176, 106], soil: [196, 140, 82] },
  snow: { far: [156, 176, 216], mid: [226, 234, 246], near: [244, 248, 254], soil: [170, 180, 206] },
  beach: { far: [110, 150, 180], mid: [60, 134, 204], near: [238, 214, 152], soil: [214, 186, 124] },
  ocean: { far: [110, 150, 180], mid: [48, 118, 196], near: [40, 100, 178], soil: [30, 80, 150] },
  volcano: { far: [92, 58, 64], mid: [70, 48, 54], near: [52, 38, 44], soil: [40, 30, 36] },
  swamp: { far: [88, 108, 100], mid: [62, 92, 64], near: [52, 74, 50], soil: [68, 74, 46] },
  mountains: { far: [128, 134, 164], mid: [108, 148, 90], near: [84, 132, 70], soil: [110, 86, 60] },
  city: { far: [120, 128, 150], mid: [96, 100, 118], near: [78, 80, 94], soil: [62, 64, 76] },
  village: { far: [116, 146, 188], mid: [104, 166, 84], near: [82, 150, 66], soil: [140, 104, 66] },
};

/** One open-air setting's land colours. */
type Land = (typeof LAND)[keyof typeof LAND];

/** Draws a licensed drawing as a prop `height` pixels tall (cropped to its pixels), or null. */
async function prop(ctx: Ctx, what: string | Drawing, height: number, fill?: RGB): Promise<RgbaImage | null> {
  const d =
    typeof what === 'string'
      ? what.includes('/')
        ? ctx.lib.drawingById(what)
        : ctx.lib.findDrawings({ head: what }).find((m) => !m.drawing.cropped)?.drawing
      : what;
  if (!d) return null;
  const size = Math.max(8, Math.round(height * 1.22));
  const out = await drawLibrarySprite({
    lib: ctx.lib,
    drawing: d,
    style: { ...ctx.style, gridHint: 256 },
    painter: ctx.painter,
    enforced: false,
    asked: null,
    fill: fill ?? [150, 110, 80],
    width: size,
    height: size,
    directions: 1,
    framesPerDirection: 1,
    motion: 'still',
    variation: { lean: 0, sx: 1, sy: 1, tone: 0 },
  });
  return cropToPixels(out.frames[0]!);
}

/** Places a prop with its bottom centre at x, y (its feet on the ground). */
function stand(layer: PixelCanvas, img: RgbaImage, x: number, y: number, map?: (c: RGB) => RGB): void {
  layer.blit(img, x - img.width / 2, y - img.height, map);
}

// ---- sky ---------------------------------------------------------------------------------------

function paintSkyElements(ctx: Ctx, sky: PixelCanvas, horizon: number): void {
  const { w, h, rng, light, req } = ctx;
  const night = light.time === 'night';
  if (night || ctx.has('stars')) {
    const star = P([250, 250, 230]);
    const dim = P([170, 176, 210]);
    const n = Math.round(w * horizon * (ctx.has('stars') ? 0.012 : 0.006));
    for (let i = 0; i < n; i++) sky.set(rng.range(0, w), rng.range(0, horizon * 0.85), i % 4 ? dim : star);
    drew(ctx, 'stars', 'stars');
    for (let i = 0; i < Math.max(2, Math.round(w / 60)); i++) {
      const x = Math.round(rng.range(2, w - 3));
      const y = Math.round(rng.range(2, horizon * 0.6));
      sky.rect(x - 1, y, x + 2, y + 1, star);
      sky.rect(x, y - 1, x + 1, y + 2, star);
    }
  }
  if (ctx.has('aurora') && night) {
    const greens = [P([60, 220, 150]), P([90, 180, 220])];
    for (let x = 0; x < w; x++) {
      const top = horizon * (0.15 + 0.1 * Math.sin(x / (w / 5)) + 0.05 * Math.sin(x / (w / 13)));
      for (let y = Math.floor(top); y < top + horizon * 0.25; y++)
        if (bayer(x, y) < 1 - (y - top) / (horizon * 0.25))
          sky.set(x, y, greens[Math.floor(x / (w / 7)) % 2]!);
    }
    drew(ctx, 'aurora', 'aurora');
  }
  // the sun or the moon: big and low at dusk and dawn, high by day
  const low = light.time === 'dusk' || light.time === 'dawn';
  const wantsDisc = ctx.has('sun') || ctx.has('moon') || ctx.has('full-moon') || low || night;
  if (wantsDisc && req.weather !== 'rain' && req.weather !== 'storm') {
    const full = ctx.has('full-moon');
    // its size, place and (for the moon) phase vary by seed and setting (decision 0093: one moon in
    // one place over every scene)
    const v = ctx.vary('disc');
    const r = Math.max(
      2.5,
      Math.min(w, h) * (full ? v.range(0.09, 0.12) : low ? v.range(0.08, 0.11) : v.range(0.05, 0.08)),
    );
    const side = v.range(0.14, 0.86);
    // a tall thing at the right (a lighthouse) keeps the sun and its halo clear of it
    const cx = w * (ctx.has('lighthouse') ? Math.min(side, 0.6) : side);
    // a low sun stands clear of the far land (half-sunk it hid behind the hills: issue #39)
    const cy = low ? horizon - r * v.range(1.9, 2.6) : Math.max(r * 1.6 + 2, horizon * v.range(0.2, 0.38));
    // the moon's phase: full when asked, else a crescent, a half or a gibbous moon
    const phase = full ? 'full' : v.pick(['crescent', 'crescent', 'half', 'gibbous'] as const);
    const disc = P(light.disc);
    ctx.disc = { x: cx, y: cy, r };
    // halo: two solid rings a step lighter than the sky each (a pixel artist's glow, not a dither)
    sky.disc(cx, cy, r + Math.max(1, r * 0.45), P(mixRgb(light.sky[1]!, light.disc, 0.18)));
    sky.disc(cx, cy, r + Math.max(1, r * 0.2), P(mixRgb(light.sky[1]!, light.disc, 0.38)));
    sky.disc(cx, cy, r, disc);
    if (night) {
      if (full) {
        // craters
        const crater = P(darker(light.disc, 0.82));
        sky.disc(cx - r * 0.3, cy - r * 0.2, r * 0.22, crater);
        sky.disc(cx + r * 0.25, cy + r * 0.3, r * 0.16, crater);
        sky.disc(cx + r * 0.35, cy - r * 0.35, r * 0.1, crater);
      } else {
        // the dark of the moon: a shade of the night sky inside the disc, so the halo stays whole
        const dark = P(mixRgb(light.sky[1]!, light.disc, 0.22));
        const off = phase === 'crescent' ? 0.5 : phase === 'half' ? 1 : 1.45;
        const dir = v.chance(0.5) ? 1 : -1;
        for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++)
          for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++) {
            const inDisc = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r;
            const shadow =
              (x + 0.5 - (cx + dir * r * off)) ** 2 + (y + 0.5 - cy) ** 2 <=
              (r * (phase === 'half' ? 1.4 : 1)) ** 2;
            if (inDisc && (phase === 'half' ? (x + 0.5 - cx) * dir > 0 : shadow)) sky.set(x, y, dark);
          }
        if (phase !== 'crescent')
          sky.disc(cx - dir * r * 0.3, cy + r * 0.2, r * 0.18, P(darker(light.disc, 0.84)));
      }
    } else sky.disc(cx - r * 0.25, cy - r * 0.25, r * 0.45, P(lighter(light.disc, 0.5)));
    drew(
      ctx,
      night ? 'moon' : 'sun',
      night
        ? full
          ? 'full moon'
          : `${phase === 'gibbous' ? 'waxing' : phase} moon`
        : low
          ? 'low sun'
          : 'sun',
    );
    drew(ctx, 'full-moon', 'full moon', night);
    drew(ctx, 'moon', 'moon', night);
  }
  if (ctx.has('rainbow') && !night) {
    const bands: RGB[] = [
      [230, 70, 70],
      [240, 150, 60],
      [240, 220, 80],
      [90, 190, 90],
      [80, 140, 230],
      [140, 90, 200],
    ];
    const cx = w * 0.45;
    const R = Math.min(w, h) * 0.55;
    const band = Math.max(1, R * 0.05);
    for (let y = 0; y < horizon; y++)
      for (let x = 0; x < w; x++) {
        const d = Math.hypot(x - cx, (y - horizon) * 1.1);
        const k = Math.floor((R - d) / band);
        if (k >= 0 && k < bands.length) sky.set(x, y, P(bands[k]!));
      }
    drew(ctx, 'rainbow', 'rainbow');
  }
  // clouds: cumulus, lit on top, shaded below; grey and low in rain
  const rainy = req.weather === 'rain' || req.weather === 'storm';
  const cloudCount = rainy
    ? Math.round(w / 28) + 4
    : ctx.has('clouds')
      ? Math.round(w / 40) + 3
      : night
        ? 1
        : 2;
  const top = P(
    rainy
      ? [128, 134, 148]
      : night
        ? [70, 74, 112]
        : light.time === 'dusk'
          ? [250, 190, 180]
          : [252, 252, 255],
  );
  const under = P(
    rainy ? [92, 98, 112] : night ? [48, 52, 88] : light.time === 'dusk' ? [190, 110, 140] : [206, 218, 238],
  );
  // clouds by the setting and the seed (one seed's clouds stood in one place over every scene)
  const cr = ctx.vary('clouds');
  const puff = new PixelCanvas(w, h);
  for (let i = 0; i < cloudCount; i++) {
    const cw = cr.range(0.12, 0.22) * w * (rainy ? 1.4 : 1);
    const ch = Math.max(2, cw * 0.28);
    // clouds keep clear of a tall thing standing at the right (a lighthouse): never drawn through it
    const span = w * (ctx.has('lighthouse') ? 0.55 : 1);
    const drawnX = cr.range(-0.05, 1.05) * span;
    const drawnY = cr.range(0.08, rainy ? 0.45 : 0.35) * horizon + ch;
    // a fair-weather cloud lies whole in the sky, never cut by the frame's edge (its puffs reach
    // 0.6 of its width from its middle, its top 1.5 of its height above it); an overcast sky's run
    // off the edges
    let cx = rainy ? drawnX : Math.min(Math.max(drawnX, cw * 0.6 + 2), span - cw * 0.6 - 2);
    const cy = rainy ? drawnY : Math.max(drawnY, ch * 1.5 + 2);
    // a cloud never hides the sun or the moon and its halo: it moves to the side with room
    const disc = ctx.disc;
    if (disc && !rainy) {
      const clear = cw * 0.6 + disc.r * 1.6 + 2;
      if (
        Math.abs(cx - disc.x) < clear &&
        cy - ch * 1.5 < disc.y + disc.r * 1.6 &&
        cy + ch * 0.5 > disc.y - disc.r * 1.6
      ) {
        const left = disc.x - clear;
        const right = disc.x + clear;
        cx = (cx < disc.x && left > cw * 0.6 + 2) || right > span - cw * 0.6 - 2 ? left : right;
      }
    }
    // a cumulus: puffs lit on top, a shaded underside, cut flat at its base
    puff.px.fill(0);
    for (let k = 0; k < 4; k++) {
      const bx = cx + (k - 1.5) * cw * 0.24;
      const r = ch * (k === 1 || k === 2 ? 1 : 0.72);
      puff.ellipse(bx, cy - r * 0.5, r * 1.2, r, top);
    }
    puff.ellipse(cx, cy + ch * 0.1, cw * 0.55, ch * 0.45, under);
    const base = Math.round(cy + ch * 0.3);
    for (let y = 0; y < Math.min(h, base); y++)
      for (let x = 0; x < w; x++) {
        const v = puff.px[y * w + x]!;
        if (v) sky.px[y * w + x] = v;
      }
  }
  drew(ctx, 'clouds', rainy ? 'rain clouds' : 'clouds');
}

// ---- far, mid, near: open-air land ---------------------------------------------------------------

/** A ridgeline: jagged (mountains) or smooth (hills, dunes), as heights per column. */
function ridge(
  rng: Rng,
  w: number,
  base: number,
  amp: number,
  period: number,
  jagged: boolean,
): Float64Array {
  const n = new Noise1D(rng, period);
  const out = new Float64Array(w);
  for (let x = 0; x < w; x++) {
    const u = (x / w) * period;
    const v = jagged ? 1 - Math.abs(n.fbm(u, 4) * 2 - 1) : n.fbm(u, 3);
    out[x] = base - amp * v;
  }
  return out;
}

/**
 * Fills under a ridgeline with the light from the upper left: a pixel is on a lit face when the land
 * rises to its right over a span that grows with its depth under the ridge (so the line between the
 * lit and the shaded face runs down from each peak at a slant, not straight down), in shadow when it
 * falls; the lower slopes settle into the base colour. A snow cap follows the ridge where it stands
 * above `snowAt`, shaded the same way.
 */
function fillRidge(
  layer: PixelCanvas,
  heights: Float64Array,
  fill: RGB,
  opts: { snowAt?: number; snow?: RGB; faces?: boolean } = {},
): void {
  const { w, h } = layer;
  const lit = P(lighter(fill, 0.16));
  const dark = P(darker(fill, 0.82));
  const base = P(fill);
  const snowLit = opts.snow ? P(opts.snow) : 0;
  const snowDark = opts.snow ? P(mixRgb(opts.snow, [120, 140, 190], 0.3)) : 0;
  const faces = opts.faces ?? true;
  const at = (x: number) => heights[Math.max(0, Math.min(w - 1, x))]!;
  let peak = Number.POSITIVE_INFINITY;
  for (let x = 0; x < w; x++) peak = Math.min(peak, heights[x]!);
  for (let x = 0; x < w; x++) {
    const top = Math.max(0, Math.floor(heights[x]!));
    const relief = Math.max(1, (opts.snowAt ?? top + h * 0.2) - peak);
    // the cap's depth under this column's ridge: most of the height above the snow line, a little ragged
    const cap =
      opts.snowAt !== undefined && top < opts.snowAt
        ? (opts.snowAt - top) * 0.75 + Math.round(Math.sin(x * 0.7) + Math.sin(x * 0.23))
        : -1;
    for (let y = top; y < h; y++) {
      const depth = y - top;
      let side = 0;
      if (faces && depth < relief * 1.6) {
        const d = Math.max(1, Math.round(depth * 0.7 + 1));
        const rise = at(x - d) - at(x + d);
        side = rise > d * 0.12 ? 1 : rise < -d * 0.12 ? -1 : 0;
      }
      const snowy = snowLit && depth < cap;
      layer.px[y * w + x] = snowy ? (side < 0 ? snowDark : snowLit) : side > 0 ? lit : side < 0 ? dark : base;
    }
  }
}

/** One peak of a range: its summit, the slopes of its two sides and where its ridge runs down. */
interface Peak {
  x: number;
  top: number;
  left: number;
  right: number;
  /** The ridge's slant: its x moves this much per row down from the summit. */
  skew: number;
}

/**
 * A mountain range as peaks (decision 0107: the blind review after 1130 saw "blotchy mountains" — a
 * per-pixel slope test on a four-octave noise line lit and shaded small patches at random): one
 * summit per ridge period, each its own height and slopes, the range's line the lowest of their
 * sides with a pixel or two of broken rock along it.
 */
function peakRange(
  rng: Rng,
  w: number,
  base: number,
  amp: number,
  period: number,
): { peaks: Peak[]; heights: Float64Array } {
  const spacing = w / Math.max(2, period);
  const peaks: Peak[] = [];
  for (let x = -spacing * rng.range(0.1, 0.6); x < w + spacing; x += spacing * rng.range(0.7, 1.25)) {
    const top = base - amp * rng.range(0.5, 1);
    const reach = (base - top) / spacing;
    peaks.push({
      x,
      top,
      left: reach / rng.range(0.55, 0.95),
      right: reach / rng.range(0.55, 0.95),
      skew: rng.range(-0.12, 0.32),
    });
  }
  const rough = new Noise1D(rng.fork('rock'), Math.max(8, Math.round(w / 6)));
  const heights = new Float64Array(w);
  for (let x = 0; x < w; x++) {
    let y = base;
    for (const p of peaks) y = Math.min(y, p.top + Math.abs(x - p.x) * (x < p.x ? p.left : p.right));
    heights[x] = y + (rough.fbm(x / 6, 2) - 0.5) * 3;
  }
  return { peaks, heights };
}

/**
 * Fills a range of peaks lit from the left: each pixel belongs to the nearest peak in front whose
 * sides hold it (a lower peak stands before a taller one), lit left of that peak's ridge line and in
 * shade right of it, the line running down from the summit at the peak's slant; a crease of the
 * middle tone runs down the lit face; the foot settles into the middle tone. A snow cap lies on
 * each peak above `snowAt`, its lower edge broken into fingers down the gullies, lit and shaded as
 * the rock under it.
 */
function fillPeaks(
  layer: PixelCanvas,
  range: { peaks: Peak[]; heights: Float64Array },
  fill: RGB,
  base: number,
  opts: { snowAt?: number; snow?: RGB } = {},
): void {
  const { w, h } = layer;
  const lit = P(lighter(fill, 0.2));
  const mid = P(fill);
  const dark = P(darker(fill, 0.74));
  const snowLit = opts.snow ? P(opts.snow) : 0;
  const snowDark = opts.snow ? P(mixRgb(opts.snow, [120, 140, 190], 0.32)) : 0;
  const { peaks, heights } = range;
  for (let x = 0; x < w; x++) {
    const topY = Math.max(0, Math.floor(heights[x]!));
    for (let y = topY; y < h; y++) {
      let owner: Peak | null = null;
      for (const p of peaks) {
        const side = p.top + Math.abs(x - p.x) * (x < p.x ? p.left : p.right);
        if (side <= y + 1.5 && (!owner || p.top > owner.top)) owner = p;
      }
      if (!owner) {
        layer.px[y * w + x] = mid;
        continue;
      }
      const down = y - owner.top;
      const tall = Math.max(1, base - owner.top);
      const ridgeX = owner.x + down * owner.skew + Math.round(Math.sin(y * 0.9 + owner.x) * 0.6);
      const onLit = x < ridgeX;
      // a crease down the lit face, from a third of the way down
      const crease = owner.x - tall * 0.25 + down * (owner.skew - 0.55);
      const creased = onLit && down > tall * 0.3 && Math.abs(x - crease) < 0.8;
      let c = down > tall * 0.82 ? mid : onLit ? (creased ? mid : lit) : dark;
      if (snowLit && opts.snowAt !== undefined && owner.top < opts.snowAt) {
        const cap = Math.min((opts.snowAt - owner.top) * 0.75, tall * 0.42);
        // the cap's lower edge: fingers of snow down the gullies, each its own width and length
        const g = Math.floor((x - owner.x + 400) / 3);
        const hash = (((g * 2654435761 + Math.round(owner.x) * 40503) >>> 0) % 1000) / 1000;
        const finger = hash < 0.35 ? tall * 0.16 * hash * 2.8 : 0;
        if (down < cap + finger + Math.sin(x * 0.5) * 1.2) c = onLit ? snowLit : snowDark;
      }
      layer.px[y * w + x] = c;
    }
  }
}

/**
 * A line of dunes: each a hump with a long windward rise on its left and a steep slip face on its
 * right, crest to crest a period apart, each its own height; the line is the highest of them.
 */
function duneLine(rng: Rng, w: number, base: number, amp: number, period: number): Float64Array {
  const spacing = w / Math.max(2, period);
  const out = new Float64Array(w).fill(base);
  for (let cx = -spacing * rng.range(0, 0.5); cx < w + spacing; cx += spacing * rng.range(0.6, 1.1)) {
    const a = amp * rng.range(0.55, 1);
    const rise = spacing * rng.range(0.7, 1.1);
    const fall = rise * rng.range(0.35, 0.5);
    for (let x = Math.max(0, Math.floor(cx - rise)); x < Math.min(w, Math.ceil(cx + fall)); x++) {
      const t = x < cx ? (cx - x) / rise : (x - cx) / fall;
      const v = x < cx ? 1 - t * t * (3 - 2 * t) : 1 - t ** 1.4;
      out[x] = Math.min(out[x]!, base - a * Math.max(0, v));
    }
  }
  return out;
}

/**
 * Fills dunes lit from the left (decision 0107: "blotchy dunes"): each crest throws its slip face
 * into shade down and to the right of it, the next dune's windward face is lit up to its own crest,
 * and wind ripples run across the lit faces in thin wavy lines of the middle tone; deep in the
 * valleys the sand is the middle tone.
 */
function fillDunes(layer: PixelCanvas, heights: Float64Array, fill: RGB): void {
  const { w, h } = layer;
  const lit = P(lighter(fill, 0.14));
  const mid = P(fill);
  const dark = P(darker(fill, 0.82));
  const ripple = P(darker(fill, 0.93));
  const at = (x: number) => heights[Math.max(0, Math.min(w - 1, x))]!;
  // each dune's faces reach down to the chord between the troughs either side of its crest
  // (decision 0113: a face's tone reached a fixed depth down every column, so the slip faces were
  // upright-edged rectangles of shade): a lit and a shaded triangle over the valley's middle tone
  const eps = 0.05;
  for (let x = 0; x < w; x++) {
    const top = Math.max(0, Math.floor(heights[x]!));
    // up the line to this column's crest, then down it each way to the troughs either side
    let crest = x;
    while (crest > 0 && at(crest - 1) < at(crest) - eps) crest--;
    while (crest < w - 1 && at(crest + 1) < at(crest) - eps) crest++;
    let left = crest;
    while (left > 0 && at(left - 1) >= at(left)) left--;
    let right = crest;
    while (right < w - 1 && at(right + 1) >= at(right)) right++;
    const span = Math.max(1, right - left);
    const chord = at(left) + ((at(right) - at(left)) * (x - left)) / span;
    const reach = (chord - heights[x]!) * 1.8 + 1.5 + 1.2 * Math.sin(x * 0.21);
    // the slip face's shade: a wedge from the crest between the face and a line twice as steep, so
    // its edge under the crest leans with the face instead of standing upright
    const lee = x > crest && right > crest;
    const slope = lee ? (at(right) - at(crest)) / (right - crest) : 0;
    const shadeTo = at(crest) + (x - crest) * Math.max(1.2, slope * 2.2) + 1;
    for (let y = top; y < h; y++) {
      const depth = y - top;
      let c = depth > reach ? mid : lee ? (y < shadeTo ? dark : mid) : lit;
      if (c === lit && depth > 1 && (y + Math.round(Math.sin(x * 0.16 + y * 0.35) * 1.5)) % 5 === 0)
        c = ripple;
      if (c === mid && (y + Math.round(Math.sin(x * 0.12 + y * 0.2) * 2)) % 7 === 0) c = ripple;
      layer.px[y * w + x] = c;
    }
  }
}

function paintFar(ctx: Ctx, far: PixelCanvas, horizon: number, land: Land): void {
  const { w, h, rng, light, req } = ctx;
  const haze = (c: RGB) => mixRgb(c, light.haze, 0.4);
  const s = req.setting;
  if (s === 'beach' || s === 'ocean' || ctx.has('sea') || ctx.has('harbour')) {
    // a low island or headland far out, then the sea fills the mid layer
    const island = ridge(rng.fork('island'), w, horizon, h * 0.05, 3, false);
    for (let x = 0; x < w; x++) if (x < w * 0.25 || x > w * 0.8) island[x] = horizon;
    fillRidge(far, island, haze(land.far), { faces: false });
    return;
  }
  if (s === 'city') {
    drew(ctx, 'skyline', 'skyline');
    // a skyline: towers of several heights, lit windows at night
    const wall = haze(land.far);
    const win = light.time === 'night' ? G(ctx, [255, 214, 120]) : P(mixRgb(wall, [180, 200, 230], 0.5));
    let x = -rng.range(0, 8);
    const rf = ctx.detail('facades');
    while (x < w) {
      const bw = rng.range(0.05, 0.11) * w + 3;
      const bh = rng.range(0.18, 0.42) * h;
      const top = horizon - bh;
      const body = rng.chance(0.5) ? wall : darker(wall, 0.9);
      far.rect(x, top, x + bw - 1, horizon + 1, P(body));
      const step = Math.max(3, Math.round(h / 45));
      for (let wy = top + step; wy < horizon - step; wy += step * 1.6)
        for (let wx = x + step * 0.6; wx < x + bw - step; wx += step * 1.4)
          if (light.time !== 'night' || rng.chance(0.55))
            far.rect(wx, wy, wx + Math.max(1, step * 0.5), wy + Math.max(1, step * 0.6), win);
      facade(ctx, far, x, top, x + bw - 1, horizon + 1, body, rf);
      x += bw + rng.range(0, 3);
    }
    return;
  }
  const r = ctx.vary('skyline');
  const sky = skylineOf(ctx, r);
  // the far land takes the sky's low colour at dusk, dawn and night (a purple range at sunset, a
  // blue-black one under the moon), more so on the farther ridge
  const tint = light.time === 'day' ? 0 : light.time === 'night' ? 0.22 : 0.32;
  const farC = mixRgb(haze(land.far), light.sky[light.sky.length - 1]!, tint);
  if (sky.back) {
    const back = ridge(
      r.fork('back'),
      w,
      horizon - h * sky.amp * 0.35,
      h * sky.amp * 0.8,
      sky.period + 2,
      sky.kind === 'peaks',
    );
    const backC = mixRgb(farC, light.sky[light.sky.length - 1]!, 0.45);
    // a range of peaks behind has its faces too, hazier (decision 0107)
    if (sky.kind === 'peaks' && !sky.trees)
      fillPeaks(
        far,
        peakRange(r.fork('back'), w, horizon - h * sky.amp * 0.35, h * sky.amp * 0.8, sky.period + 2),
        backC,
        horizon,
      );
    else fillRidge(far, back, backC, { faces: false });
  }
  if (sky.kind === 'peaks' && !sky.trees) {
    // a range of peaks, each lit on its left face and shaded on its right, snow on the tall ones
    const range = peakRange(r.fork('far'), w, horizon, h * sky.amp, sky.period);
    fillPeaks(
      far,
      range,
      farC,
      horizon,
      sky.snow ? { snowAt: horizon - h * sky.amp * 0.62, snow: haze([244, 246, 252]) } : {},
    );
  } else if (sky.kind === 'dunes')
    fillDunes(far, duneLine(r.fork('far'), w, horizon, h * sky.amp, sky.period + 1), farC);
  else
    fillRidge(far, skylineHeights(r, w, h, horizon, sky), sky.trees ? woodedRidge(light, farC, land) : farC, {
      faces: sky.kind === 'mesas',
    });
  drew(ctx, 'mountains', 'mountains', sky.kind === 'peaks');
  drew(ctx, 'dunes', 'dunes', sky.kind === 'dunes');
}

/**
 * A wooded far ridge's colour: by day and night a darker green of the far land; at dusk and dawn a
 * dark silhouette in the zenith's hue against the bright low sky (decision 0098: the sunset's orange
 * mixed into the trees' green gave a muddy olive band that read as translucent).
 */
function woodedRidge(light: Lighting, farC: RGB, land: Land): RGB {
  if (light.time === 'dusk' || light.time === 'dawn')
    return mixRgb(darker(land.mid, 0.5), light.sky[0]!, 0.45);
  return darker(mixRgb(farC, land.mid, 0.35), 0.86);
}

/** The far land's shape: its kind, height (a share of the picture's), ridge period and layers. */
interface Skyline {
  kind: 'peaks' | 'hills' | 'mesas' | 'dunes';
  amp: number;
  period: number;
  /** A second, hazier ridge behind it. */
  back: boolean;
  snow: boolean;
  /** A wooded ridge: its line is a run of treetops. */
  trees: boolean;
}

/**
 * The far land by setting and seed (issue #39: one moon-mountain-meadow template under a forest at
 * sunset, a graveyard and a village): peaks for mountains and snow, a wooded ridge for a forest, low
 * downs for a graveyard, peaks or hills for a village and a meadow, dunes or mesas for a desert; the
 * seed picks the height, the period, a back ridge and (for some) the kind.
 */
function skylineOf(ctx: Ctx, r: Rng): Skyline {
  const s = ctx.req.setting;
  const shape = (
    k: Skyline['kind'],
    amp: [number, number],
    period: [number, number],
    more: Partial<Skyline> = {},
  ): Skyline => ({
    kind: k,
    amp: r.range(amp[0], amp[1]),
    period: r.int(period[0], period[1]),
    back: r.chance(0.6),
    snow: false,
    trees: false,
    ...more,
  });
  if (s === 'desert' || ctx.has('dunes'))
    return !ctx.has('pyramids') && !ctx.has('dunes') && r.chance(0.5)
      ? shape('mesas', [0.1, 0.18], [3, 5])
      : shape('dunes', [0.08, 0.14], [2, 4]);
  // a snowfield without named mountains is sometimes rolling snowy hills with woods on them
  if (s === 'snow' && !ctx.has('mountains') && r.chance(0.35))
    return shape('hills', [0.07, 0.14], [2, 4], { trees: true });
  if (s === 'mountains' || s === 'snow' || ctx.has('mountains'))
    return shape('peaks', [0.22, 0.34], [3, 7], { snow: true, back: r.chance(0.75) });
  if (ctx.has('graves') || ctx.req.haunted)
    return shape('hills', [0.05, 0.11], [2, 4], { trees: r.chance(0.6) });
  if (s === 'forest') return shape('hills', [0.08, 0.17], [2, 5], { trees: true, back: true });
  if (s === 'village' || s === 'grassland') {
    const pick = r.next();
    if (pick < 0.4) return shape('peaks', [0.14, 0.26], [3, 6], { snow: r.chance(0.6) });
    if (pick < 0.7) return shape('hills', [0.07, 0.14], [2, 4], { trees: true });
    return shape('hills', [0.05, 0.12], [2, 4]);
  }
  return shape('hills', [0.1, 0.13], [3, 3], { back: false });
}

/** The far ridge's heights: jagged peaks, flat-topped mesas, smooth hills or dunes, or treetops on a hill. */
function skylineHeights(r: Rng, w: number, h: number, horizon: number, sky: Skyline): Float64Array {
  const heights = ridge(r.fork('far'), w, horizon, h * sky.amp, sky.period, sky.kind === 'peaks');
  if (sky.kind === 'mesas')
    for (let x = 0; x < w; x++) {
      const v = (horizon - heights[x]!) / (h * sky.amp);
      heights[x] = horizon - h * sky.amp * Math.min(1, Math.max(0, (v - 0.3) * 3));
    }
  if (sky.trees) {
    // treetops: little cones (or domes) of irregular height and width along the ridge
    const cones = r.chance(0.5);
    let x = -r.range(0, 4);
    while (x < w) {
      const half = r.range(1.5, Math.max(2, h * 0.02));
      const tall = r.range(1.5, Math.max(2.5, h * 0.035));
      for (let dx = Math.floor(-half); dx <= Math.ceil(half); dx++) {
        const xx = Math.round(x + dx);
        if (xx < 0 || xx >= w) continue;
        const t = Math.abs(dx) / half;
        if (t > 1) continue;
        const lift = tall * (cones ? 1 - t : Math.sqrt(1 - t * t));
        heights[xx] = Math.min(heights[xx]!, heights[Math.max(0, Math.min(w - 1, Math.round(x)))]! - lift);
      }
      x += half * r.range(1.1, 1.9);
    }
  }
  return heights;
}

/** A tree: a conifer, a round leafy crown, a pink blossom crown, a bare dead tree, or a palm. */
/** One tree of its kind standing at x, y (exported for its test). */
export function tree(
  layer: PixelCanvas,
  kind: TreeKind,
  x: number,
  y: number,
  size: number,
  leaf: RGB,
  /** Each tree's own shape (decision 0135); without it, the plain one. */
  shape?: Rng,
): void {
  const trunk = P([96, 64, 42]);
  const l = P(leaf);
  const lit = P(lighter(leaf, 0.22));
  const dark = P(darker(leaf, 0.8));
  if (kind === 'pine' && shape) {
    pine(layer, x, y, size, leaf, shape);
    return;
  }
  if (kind === 'dead' && shape) {
    deadTree(layer, x, y, size, shape);
    return;
  }
  if (kind === 'pine') {
    layer.rect(x - size * 0.05, y - size * 0.2, x + size * 0.05 + 1, y, trunk);
    for (let t = 0; t < 3; t++) {
      const top = y - size * (0.35 + t * 0.26) - size * 0.3;
      const bottom = y - size * (0.18 + t * 0.24);
      const half = size * (0.34 - t * 0.08);
      layer.polygon(
        [
          [x, top],
          [x + half, bottom],
          [x - half, bottom],
        ],
        l,
      );
      layer.polygon(
        [
          [x, top],
          [x - half, bottom],
          [x - half * 0.35, bottom],
        ],
        lit,
      );
    }
    return;
  }
  if (kind === 'bamboo') {
    // a clump of three tall culms, ringed at their nodes, with sprays of narrow leaves
    const stem = P([120, 168, 72]);
    const node = P([82, 120, 50]);
    const seg = Math.max(3, Math.round(size * 0.16));
    for (const [dx, k] of [
      [-0.12, 1.25],
      [0, 1.5],
      [0.13, 1.1],
    ] as const) {
      const sx = x + dx * size;
      const top = y - size * k;
      layer.rect(sx, top, sx + Math.max(1, size * 0.05), y, stem);
      for (let ny = y - seg; ny > top; ny -= seg)
        layer.rect(sx - 0.5, ny, sx + Math.max(1, size * 0.05) + 0.5, ny + 1, node);
      for (let ly = top + seg * 0.5; ly < y - size * 0.4; ly += seg * 1.3) {
        const side = Math.round(ly) % 2 ? 1 : -1;
        layer.line(sx, ly, sx + side * size * 0.22, ly - size * 0.06, l, 1);
        layer.line(sx, ly + 1, sx + side * size * 0.18, ly + size * 0.03, dark, 1);
      }
    }
    return;
  }
  if (kind === 'dead') {
    layer.rect(x - size * 0.05, y - size * 0.75, x + size * 0.05 + 1, y, trunk);
    for (const [dx, dy, len] of [
      [-1, 0.5, 0.3],
      [1, 0.62, 0.26],
      [-1, 0.72, 0.18],
    ] as const)
      layer.line(
        x,
        y - size * dy,
        x + dx * size * len,
        y - size * (dy + len * 0.6),
        trunk,
        Math.max(1, size * 0.04),
      );
    return;
  }
  layer.rect(x - size * 0.06, y - size * 0.45, x + size * 0.06 + 1, y, trunk);
  const cy = y - size * 0.62;
  const r = size * 0.3;
  layer.disc(x, cy, r, dark);
  layer.disc(x - r * 0.6, cy + r * 0.2, r * 0.75, l);
  layer.disc(x + r * 0.6, cy + r * 0.25, r * 0.7, l);
  layer.disc(x - r * 0.15, cy - r * 0.35, r * 0.8, l);
  layer.disc(x - r * 0.35, cy - r * 0.45, r * 0.4, lit);
  if (kind === 'blossom')
    for (let k = 0; k < 5; k++)
      layer.set(x + (k - 2) * r * 0.35, cy + ((k * 7) % 5) * r * 0.15 - r * 0.3, P([255, 240, 250]));
}

export type TreeKind = 'pine' | 'round' | 'blossom' | 'dead' | 'bamboo';

/**
 * A bare tree drawn for itself (decision 0135: a graveyard's bare trees were one stamp of a post
 * with three sticks): a trunk that leans and tapers, 2–4 limbs off it at their own heights and
 * angles, each forking once or twice into twigs, the trunk lit on its left.
 */
function deadTree(layer: PixelCanvas, x: number, y: number, size: number, r: Rng): void {
  const bark = P([96, 64, 42]);
  const barkLit = P([124, 90, 64]);
  const tall = size * r.range(0.65, 0.9);
  const lean = r.range(-0.18, 0.18) * size;
  const base = Math.max(1, size * r.range(0.05, 0.08));
  const steps = Math.max(4, Math.round(tall));
  for (let k = 0; k < steps; k++) {
    const t = k / steps;
    const cx = x + lean * t * t;
    const half = base * (1 - t * 0.65) + (t < 0.08 ? base * 0.6 * (1 - t / 0.08) : 0);
    const yy = y - k;
    layer.rect(cx - half, yy - 1, cx + half + 1, yy, bark);
    layer.set(Math.round(cx - half), yy - 1, barkLit);
  }
  const twig = (bx: number, by: number, ang: number, len: number, wd: number, depth: number): void => {
    const ex = bx + Math.sin(ang) * len;
    const ey = by - Math.cos(ang) * len;
    layer.line(bx, by, ex, ey, bark, Math.max(1, wd));
    if (depth <= 0) return;
    const n = r.chance(0.5) ? 2 : 1;
    for (let f = 0; f < n; f++)
      twig(
        ex,
        ey,
        ang + r.range(0.25, 0.7) * (f ? -1 : 1) * (r.chance(0.5) ? 1 : -1),
        len * r.range(0.45, 0.7),
        wd * 0.6,
        depth - 1,
      );
  };
  const limbs = r.int(2, 4);
  for (let k = 0; k < limbs; k++) {
    const t = r.range(0.45, 0.95);
    const bx = x + lean * t * t;
    const by = y - tall * t;
    const side = k % 2 ? 1 : -1;
    twig(
      bx,
      by,
      side * r.range(0.5, 1.2),
      size * r.range(0.18, 0.34) * (1.1 - t * 0.4),
      base * 0.9,
      r.int(1, 2),
    );
  }
  twig(x + lean, y - tall, r.range(-0.3, 0.3), size * r.range(0.12, 0.22), base * 0.6, 1);
}

/**
 * A pine drawn for itself (decision 0135: a forest of one three-triangle pine scaled was a stamp):
 * 3–6 tiers, its own slenderness and lean, each tier's skirt of branch tips ragged (a tip every 2–3
 * pixels hanging a pixel or two), lit on the left, a shaded right flank, a snag or a gap here and
 * there.
 */
function pine(layer: PixelCanvas, x: number, y: number, size: number, leaf: RGB, r: Rng): void {
  const trunk = P([96, 64, 42]);
  const l = P(leaf);
  const lit = P(lighter(leaf, r.range(0.16, 0.28)));
  const dark = P(darker(leaf, 0.74));
  const tiers = size < 14 ? r.int(2, 4) : r.int(3, 6);
  const slim = r.range(0.72, 1.25);
  const lean = r.range(-0.07, 0.07) * size;
  const trunkH = size * r.range(0.1, 0.22);
  layer.rect(x - size * 0.045, y - trunkH - 1, x + size * 0.045 + 1, y, trunk);
  const crownTop = y - size * r.range(0.95, 1.12);
  const crownBottom = y - trunkH;
  const span = crownBottom - crownTop;
  for (let t = 0; t < tiers; t++) {
    // tiers from the bottom up, each overlapping the one under it
    const f0 = t / tiers;
    const bottom = crownBottom - span * f0 * 0.92;
    const top = t === tiers - 1 ? crownTop : crownBottom - span * ((t + 1.8) / tiers);
    const half = size * slim * (0.36 - 0.26 * f0) * r.range(0.85, 1.12);
    const ax = x + lean * (1 - (top - crownTop) / span);
    const bx = x + lean * (1 - (bottom - crownTop) / span) * 0.6;
    for (let yy = Math.floor(top); yy < bottom; yy++) {
      const f = (yy - top) / Math.max(1, bottom - top);
      const cxr = ax + (bx - ax) * f;
      const hw = half * f;
      const a = Math.round(cxr - hw);
      const b = Math.round(cxr + hw);
      layer.rect(a, yy, b + 1, yy + 1, l);
      layer.rect(a, yy, Math.round(cxr - hw * 0.35) + 1, yy + 1, lit);
      if (b - a >= 4) layer.rect(Math.round(cxr + hw * 0.55), yy, b + 1, yy + 1, dark);
    }
    // the skirt: branch tips hanging under the tier's edge, ragged
    const by = Math.round(bottom);
    for (let xx = Math.round(bx - half); xx <= Math.round(bx + half); xx++) {
      const tip = r.chance(0.4) ? r.int(1, 2) : 0;
      if (!tip) continue;
      layer.rect(xx, by, xx + 1, by + tip, xx > bx + half * 0.5 ? dark : xx < bx - half * 0.4 ? lit : l);
    }
  }
}

/** The sea from the horizon to the shore: bands of blue, wave dashes, the sun's or moon's glitter. Returns the shore. */
function paintSea(ctx: Ctx, mid: PixelCanvas, horizon: number, land: Land): number {
  const { w, h, rng, light, req } = ctx;
  const s = req.setting;
  const m = materialOf(ctx, 'sea');
  const sea =
    m !== 'water' ? WATER_COLOURS[m].body : s === 'beach' || s === 'ocean' ? land.mid : LAND.beach.mid;
  const deep = waterPack(ctx, m, darker(sea, 0.86));
  const mid2 = waterPack(ctx, m, sea);
  const foam = waterPack(ctx, m, m === 'water' ? lighter(sea, 0.55) : WATER_COLOURS[m].hi);
  const shore = s === 'ocean' ? h : horizon + h * (s === 'beach' ? 0.2 : 0.18);
  drew(ctx, 'sea', waterName(m, 'sea'));
  // the sea as a ramp (decision 0125: two flat bands read as stripes): paler and hazier at the
  // horizon (it mirrors the sky), deep further in, its own colour nearer, the shallows lighter at a
  // beach; each edge a short tapered dither
  const far = waterPack(ctx, m, mixRgb(darker(sea, 0.9), light.haze, 0.32));
  const steps = [
    far,
    deep,
    mid2,
    ...(s === 'ocean' ? [] : [waterPack(ctx, m, mixRgb(sea, [120, 210, 210], 0.22))]),
  ];
  const span = Math.max(1, shore - horizon);
  const edges = [0.12, 0.4, 0.8].slice(0, steps.length - 1).map((k) => Math.round(horizon + span * k));
  paintRamp(mid, Math.floor(horizon), shore, steps, edges, { phase: ctx.detail('sea').range(0, 6.28) });
  const dash = Math.max(2, Math.round(w / 40));
  for (let y = Math.floor(horizon) + 2; y < shore; y += Math.max(2, Math.round(h / 36)))
    for (let x = rng.int(0, dash * 3); x < w; x += dash * rng.int(3, 6))
      mid.rect(x, y, x + dash, y + 1, foam);
  // the glitter: a column of light on the water under the sun or the moon, as wide as its disc near
  // the horizon and wider towards the shore (no sun, no glitter: a glint under nothing is a mistake)
  const sun = ctx.disc;
  if (sun) {
    const glitter = P(mixRgb(light.disc, [255, 255, 255], 0.3));
    const half = Math.max(1.5, sun.r * 0.7);
    for (let y = Math.floor(horizon) + 1; y < shore; y += 2)
      if (bayer(y, y) > 0.3)
        mid.rect(sun.x - (y - horizon) * 0.2 - half, y, sun.x + (y - horizon) * 0.2 + half, y + 1, glitter);
  }
  return shore;
}

/**
 * A harbour: a pier of planks on posts into the water, boats moored beside it; boats alone sail out on
 * the water. A pirate ship is a galleon in dark wood.
 */
async function paintHarbour(ctx: Ctx, mid: PixelCanvas, horizon: number, shore: number): Promise<void> {
  const { w, h } = ctx;
  const py = shore - (shore - horizon) * 0.35;
  if (ctx.has('harbour')) {
    const plank = P([140, 96, 58]);
    const post = P([96, 62, 40]);
    const px0 = w * 0.08;
    const px1 = w * 0.45;
    mid.rect(px0, py, px1, py + Math.max(2, h * 0.02), plank);
    for (let x = px0; x < px1; x += Math.max(4, w / 24))
      mid.rect(x, py, x + Math.max(1, w / 160), py + h * 0.05, post);
  }
  const pirate = /pirate|海盗/.test(ctx.text);
  const fleet: Array<[string, RGB | undefined]> = pirate
    ? [['g/galleon', [110, 72, 46]]]
    : [
        ['f/sailboat', undefined],
        ['f/ship', undefined],
        ['f/motor-boat', undefined],
      ];
  for (const [i, [id, fill]] of fleet.entries()) {
    if (i > 0 && w < 120) break;
    const boat = await prop(ctx, id, h * ((pirate ? 0.26 : 0.12) - i * 0.02), fill);
    const x = ctx.has('harbour') ? w * (0.55 + i * 0.16) : w * (0.3 + i * 0.22);
    const y = ctx.has('harbour') ? py + h * 0.04 + i * h * 0.02 : horizon + (shore - horizon) * 0.6;
    if (boat) stand(mid, boat, x, y);
  }
  drew(ctx, 'harbour', 'pier and boats');
  drew(ctx, 'boats', pirate ? 'pirate galleon (game-icons)' : 'boats (Fluent Emoji)');
}

/**
 * A rocky headland from one edge into the water, a steep seaward cliff and a rolling top `rise` of the
 * canvas above the horizon (0: a low spit); returns its top. Lighthouses stand on it; "a cliff over the
 * sea" is one (issue #39: it was dropped in a sea scene).
 */
function paintHeadland(
  ctx: Ctx,
  mid: PixelCanvas,
  horizon: number,
  shore: number,
  side: 'left' | 'right',
  rise: number,
): number {
  const { w, h } = ctx;
  const top = horizon + Math.max(2, (shore - horizon) * 0.18) - h * rise;
  const rock: RGB = [112, 104, 100];
  const grass = ctx.req.snowCover ? LAND.snow.near : LAND.grassland.near;
  const reach = w * 0.34;
  const rv = ctx.detail(`headland-${side}`);
  const facets = new Noise2D(rv.fork('facets'), 8);
  const cracks = new Noise2D(rv.fork('cracks'), 16);
  const crack = P(darker(rock, 0.55));
  for (let k = 0; k < reach; k++) {
    const t = k / reach;
    const x = side === 'right' ? w - 1 - k : k;
    // a steep seaward cliff at the far end, then a gently rolling top
    const u = 1 - t;
    const y = top + (1 - Math.min(1, u * 3.2)) * (shore - top) * 0.7 + Math.sin(x * 0.7) * 0.6;
    // the rock in facets lit from the upper left (decision 0125: one flat grey shelf): a blocky noise
    // picks a lit, a mid or a shaded face per pixel, the seaward cliff a step darker, and cracks
    // run down it here and there
    const face = u < 0.12 ? darker(rock, 0.8) : rock;
    const tones = [P(darker(face, 0.78)), P(face), P(lighter(face, 0.2))];
    for (let yy = Math.floor(y); yy < shore; yy++) {
      const v = facets.at(Math.floor(x / 5 + (yy - y) * 0.35), Math.floor(yy / 4));
      mid.set(x, yy, tones[v < 0.38 ? 0 : v > 0.64 ? 2 : 1]!);
    }
    if (cracks.at(x / 3, 0.5) > 0.8)
      for (let yy = Math.floor(y + 2); yy < shore - 1; yy++)
        if (bayer(x, yy) < 0.7) mid.set(x + ((yy >> 2) & 1), yy, crack);
    // ledges across the face of a tall one
    if (rise > 0)
      for (let ly = y + h * 0.05; ly < shore; ly += h * 0.06)
        mid.set(x, Math.round(ly + (x % 3)), P(darker(rock, 0.75)));
    mid.rect(
      x,
      y,
      x + 1,
      y + Math.max(1, h * (rise > 0 ? 0.02 : 0.012)),
      P(rise > 0 ? grass : lighter(rock, 0.25)),
    );
  }
  return top;
}

/**
 * A striped lighthouse on a rocky headland at the right, its lamp lit: it stands on land in front of
 * the horizon, never on the horizon line over open water, and its lamp stays inside the canvas
 * (issue #39: its top was cut off by the canvas edge).
 */
function paintLighthouse(ctx: Ctx, mid: PixelCanvas, horizon: number, shore: number): void {
  const { w, h, light } = ctx;
  const lx = w * 0.84;
  const top = paintHeadland(ctx, mid, horizon, shore, 'right', 0);
  const base = top + (shore - top) * 0.08;
  const lw = Math.max(3, w * 0.035);
  // tall, but the lamp and its roof keep a clear margin from the top edge (a tenth of the height:
  // at 4 % its roof read as touching the frame, decision 0093)
  const lh = Math.max(
    6,
    Math.min(h * ctx.vary('lighthouse').range(0.28, 0.36), base - lw * 2.6 - Math.max(3, h * 0.1)),
  );
  // the tower: tapering, in red and white bands, lit on its left and shaded on its right, a pixel of
  // outline each side (decision 0113: the lantern was a plain yellow block on a striped post)
  const bands = Math.max(3, Math.min(5, Math.round(lh / 9)));
  const red: RGB = [214, 58, 56];
  const white: RGB = [244, 240, 232];
  const outline = P([52, 40, 48]);
  const halfAt = (y: number) => lw * (0.62 + 0.38 * (y / lh));
  for (let y = 0; y < lh; y++) {
    const half = halfAt(y);
    const c = Math.floor((y / lh) * bands) % 2 ? red : white;
    const yy = base - lh + y;
    mid.rect(lx - half, yy, lx + half, yy + 1, P(c));
    mid.rect(lx + half * 0.35, yy, lx + half, yy + 1, P(darker(c, 0.8)));
    mid.rect(lx - half * 0.7, yy, lx - half * 0.45, yy + 1, P(lighter(c, 0.35)));
    mid.set(Math.floor(lx - half) - 1, yy, outline);
    mid.set(Math.ceil(lx + half), yy, outline);
  }
  // a door at its foot and a small window in the upper band
  const dw = Math.max(1, Math.round(lw * 0.3));
  const dh = Math.max(2, Math.round(lw * 0.8));
  mid.rect(lx - dw, base - dh, lx + dw, base, outline);
  if (lh > 24) mid.rect(lx - 1, base - lh * 0.62, lx + 1, base - lh * 0.62 + 2, outline);
  // the gallery: a dark walkway wider than the tower's top, a railing of posts over it
  const crown = base - lh;
  const gHalf = lw * 0.95;
  const iron = P([46, 40, 50]);
  mid.rect(lx - gHalf, crown - 1, lx + gHalf + 1, crown + 1, iron);
  mid.rect(lx - gHalf, crown - 3, lx + gHalf + 1, crown - 2, iron);
  for (let x = Math.round(lx - gHalf); x <= lx + gHalf; x += 2) mid.set(x, crown - 2, iron);
  // the lantern room: an iron frame round glazing, its bars upright, the lamp bright in the middle
  const rHalf = Math.max(2, Math.round(lw * 0.62));
  const rh = Math.max(4, Math.round(lw * 1.3));
  const r0 = crown - 3 - rh;
  const glass = G(ctx, light.time === 'day' ? [250, 226, 150] : [255, 226, 120]);
  const lamp = G(ctx, [255, 252, 226]);
  mid.rect(lx - rHalf - 1, r0, lx + rHalf + 2, crown - 3, iron);
  mid.rect(lx - rHalf, r0 + 1, lx + rHalf + 1, crown - 3, glass);
  for (let x = Math.round(lx - rHalf) + 2; x < lx + rHalf; x += 3)
    mid.rect(x, r0 + 1, x + 1, crown - 3, iron);
  const lr = Math.max(1, Math.round(rh * 0.22));
  const lampY = Math.round(r0 + 1 + (rh - 1) / 2);
  mid.rect(Math.round(lx) - lr, lampY - lr, Math.round(lx) + lr + 1, lampY + lr + 1, lamp);
  // the roof: a red cap narrowing to a finial ball
  const roofH = Math.max(3, Math.round(rh * 0.7));
  for (let y = 0; y < roofH; y++) {
    const half = (rHalf + 1.5) * (1 - y / roofH);
    mid.rect(lx - half, r0 - 1 - y, lx + half + 1, r0 - y, P(y === 0 ? darker(red, 0.7) : darker(red, 0.85)));
  }
  mid.rect(lx, r0 - roofH - 2, lx + 1, r0 - roofH, iron);
  // its beam after dark: two long wedges of pale light out of the lantern, brightest near it
  if (light.time !== 'day') {
    const beamOuter = P(mixRgb(light.sky[1]!, [255, 240, 190], 0.32));
    const beamInner = P(mixRgb(light.sky[1]!, [255, 240, 190], 0.55));
    const slope = -0.04;
    // the far end of each wedge fades in a checker of the beam and the sky, then stops
    // (short in a dusk or dawn sky, and never across the sun's disc)
    const reach = w * (light.time === 'night' ? 0.5 : 0.2);
    const disc = ctx.disc;
    for (const [dir, len] of [
      [-1, reach],
      [1, Math.min(reach, w - lx)],
    ] as const)
      for (let d = rHalf + 2; d < len; d++) {
        const x = Math.round(lx + dir * d);
        const cy = lampY + slope * d;
        const half = 0.7 + d * 0.04;
        const far = d / reach;
        for (let y = Math.floor(cy - half); y <= cy + half; y++) {
          if (x < 0 || x >= w || y < 0 || y >= h || mid.px[y * w + x]) continue;
          if (far > 0.6 && (x + y) & 1) continue;
          if (disc && Math.hypot(x - disc.x, y - disc.y) < disc.r * 1.8) continue;
          mid.set(x, y, Math.abs(y + 0.5 - cy) < half * 0.5 && far < 0.45 ? beamInner : beamOuter);
        }
      }
    light.lights.push({ x: lx + 0.5, y: lampY + 0.5, r: Math.min(w, h) * 0.14, color: [255, 236, 150] });
  }
  drew(ctx, 'lighthouse', 'lighthouse on a headland');
}

/** Hills or dunes before the far land; mountains close by, jagged and snow-capped, over them. */
function paintHills(ctx: Ctx, mid: PixelCanvas, horizon: number, land: Land): void {
  const { w, h, req } = ctx;
  const s = req.setting;
  const dunes = s === 'desert';
  const peaks = s === 'mountains' || (ctx.has('mountains') && !dunes);
  if (peaks) {
    const r = ctx.vary('range');
    const foot = horizon + h * 0.1;
    const range = peakRange(r, w, foot, h * r.range(0.26, 0.4), r.int(2, 4));
    const rock: RGB = req.snowCover || s === 'snow' ? [118, 124, 146] : [122, 112, 104];
    fillPeaks(mid, range, rock, foot, { snowAt: horizon - h * 0.06, snow: [246, 248, 252] });
  }
  const r = ctx.vary('hills');
  const hills = ridge(
    r,
    w,
    horizon + h * (peaks ? 0.12 : 0.08),
    h * (dunes ? 0.07 : r.range(0.05, 0.12)),
    r.int(2, 5),
    false,
  );
  if (dunes) fillDunes(mid, duneLine(r.fork('dunes'), w, horizon + h * 0.08, h * 0.1, r.int(2, 4)), land.mid);
  else fillRidge(mid, hills, req.snowCover ? LAND.snow.mid : land.mid, { faces: false });
  drew(ctx, 'hills', dunes ? 'dunes' : 'hills');
}

/** Open-air settings with a row of trees along their mid hills. */
const TREE_SETTINGS = new Set<Setting>(['forest', 'grassland', 'snow', 'swamp', 'mountains', 'village']);

/** The trees of the mid hills (none where palms stand): the kind the prompt or the setting gives. */
function midTreeKind(ctx: Ctx): TreeKind | null {
  const s = ctx.req.setting;
  const treeKind = ctx.has('palms')
    ? null
    : ctx.has('bamboo')
      ? 'bamboo'
      : ctx.has('pines') || s === 'snow' || s === 'mountains' || (ctx.has('graves') && !ctx.req.haunted)
        ? 'pine'
        : ctx.has('blossom-trees')
          ? 'blossom'
          : ctx.has('dead-trees') || s === 'swamp' || ctx.req.haunted
            ? 'dead'
            : 'round';
  const wantsTrees =
    TREE_SETTINGS.has(s) ||
    ctx.has('trees') ||
    ctx.has('pines') ||
    ctx.has('blossom-trees') ||
    ctx.has('bamboo') ||
    ctx.has('dead-trees');
  return wantsTrees ? treeKind : null;
}

/**
 * Rows of trees along the mid hills, never evenly spaced (decision 0093: "a row of identical lollipop
 * trees", "evenly spaced pines"): each tree a step of its own width on from the last, in clumps and
 * gaps, its size varied; a forest's depth adds a back row, smaller and hazier, overlapping the front;
 * where the words name no kind, a forest mixes pines with leafy trees (the seed says how many).
 */
function paintTreeRows(ctx: Ctx, mid: PixelCanvas, horizon: number, land: Land, treeKind: TreeKind): void {
  const { w, h, light, req } = ctx;
  const s = req.setting;
  const r = ctx.vary('trees');
  // a second kind where the words leave it open: pines among a forest's or a meadow's leafy trees
  const named =
    ctx.has('pines') ||
    ctx.has('blossom-trees') ||
    ctx.has('dead-trees') ||
    ctx.has('bamboo') ||
    ctx.has('palms');
  const mixWith: TreeKind | null =
    ctx.has('graves') && !named && !req.haunted
      ? 'dead'
      : named || req.haunted || s === 'swamp'
        ? null
        : treeKind === 'round'
          ? 'pine'
          : treeKind === 'pine' && s === 'forest'
            ? 'round'
            : null;
  const mixShare = mixWith ? r.range(0.2, 0.45) : 0;
  const kindAt = () => (mixWith && r.chance(mixShare) ? mixWith : treeKind);
  // each tree's own shape, from a stream of its own (moves nothing else)
  const shapes = ctx.detail('tree-shapes');
  /** Trees from left to right: clumps (close steps) and gaps (long ones), never a regular beat. */
  const row = (mean: number, size: () => number, y: () => number, leaf: (k: TreeKind) => RGB) => {
    let x = r.range(-mean * 0.5, mean * 0.6);
    while (x < w + mean * 0.3) {
      const sz = size();
      const k = kindAt();
      tree(mid, k, x, y(), sz, leaf(k), shapes);
      const gap = r.chance(0.22) ? r.range(1.6, 2.6) : r.range(0.45, 1.1);
      x += mean * gap;
    }
  };
  const snowy = s === 'snow' || req.snowCover;
  if (s === 'forest' || ctx.has('trees') || ctx.has('pines')) {
    // the back row: hazed by day and night; at dusk and dawn a step towards the zenith's hue, the
    // sky's low orange kept off it (mixed into green it read as a muddy see-through band)
    const low = light.time === 'dusk' || light.time === 'dawn';
    const backLeaf = low
      ? mixRgb(darker(snowy ? [46, 96, 78] : land.mid, 0.62), light.sky[0]!, 0.28)
      : mixRgb(darker(snowy ? [46, 96, 78] : land.mid, 0.7), light.haze, 0.25);
    const count = Math.max(5, Math.round((w / h) * r.range(9, 14)));
    row(
      w / count,
      () => h * r.range(0.1, 0.19),
      () => horizon + h * r.range(0.04, 0.08),
      (k) => (k === 'blossom' ? mixRgb([244, 160, 200], light.haze, 0.3) : backLeaf),
    );
  }
  const count = Math.max(3, Math.round((w / h) * (s === 'forest' ? r.range(7, 11) : r.range(3, 5.5))));
  const leafOf = (k: TreeKind): RGB =>
    k === 'blossom'
      ? [244, 160, 200]
      : snowy
        ? k === 'pine'
          ? [46, 96, 78]
          : [70, 104, 84]
        : k === 'pine'
          ? darker(land.mid, 0.7)
          : darker(land.mid, 0.86);
  row(
    w / count,
    () => h * r.range(0.14, 0.28) * (s === 'forest' ? 1.15 : 1),
    () => horizon + h * 0.1 + r.range(-2, 3),
    leafOf,
  );
  for (const k of ['trees', 'pines', 'blossom-trees', 'dead-trees'] as const)
    drew(ctx, k, `${treeKind} trees`);
  drew(ctx, 'bamboo', 'bamboo groves', treeKind === 'bamboo');
}

/** A village's cottages along the mid hills, their windows lit at night. */
function paintCottages(ctx: Ctx, mid: PixelCanvas, baseAt: number): void {
  const { w, h, light } = ctx;
  // each cottage its own size, roof (tile red, slate, thatch), wall and footing, in clumps and gaps
  // (decision 0093: one cottage stamped at an even beat)
  const r = ctx.vary('cottages');
  const night = light.time === 'night';
  let x = w * r.range(0.03, 0.15);
  const roofs: RGB[] = [
    [178, 62, 50],
    [96, 100, 124],
    [150, 112, 64],
    [160, 74, 56],
  ];
  const walls: RGB[] = [
    [224, 204, 170],
    [210, 200, 188],
    [196, 168, 132],
  ];
  const win = night ? G(ctx, [255, 214, 120]) : P([96, 76, 56]);
  while (x < w * 0.9) {
    const hw = h * r.range(0.09, 0.15);
    const hh = hw * r.range(0.7, 0.95);
    const base = baseAt + h * 0.11 + r.range(-1.5, 2);
    const roofC = r.pick(roofs);
    const wallC = r.pick(walls);
    const roof = P(roofC);
    const wall = P(wallC);
    const pitch = r.range(0.45, 0.7);
    mid.rect(x, base - hh, x + hw, base, wall);
    // lit from the upper left (decision 0125: flat slabs): the wall's right end in shade, the roof's
    // right slope a step darker, its eaves casting a line of shadow on the wall
    mid.rect(x + hw * 0.78, base - hh, x + hw, base, P(darker(wallC, 0.82)));
    mid.polygon(
      [
        [x - hw * 0.12, base - hh],
        [x + hw / 2, base - hh - hw * pitch],
        [x + hw * 1.12, base - hh],
      ],
      roof,
    );
    mid.polygon(
      [
        [x + hw / 2, base - hh - hw * pitch],
        [x + hw * 1.12, base - hh],
        [x + hw / 2, base - hh],
      ],
      P(darker(roofC, 0.78)),
    );
    mid.rect(x, base - hh, x + hw, base - hh + 1, P(darker(wallC, 0.66)));
    mid.rect(x + hw * 0.2, base - hh * 0.7, x + hw * 0.38, base - hh * 0.45, win);
    mid.rect(x + hw * 0.55, base - hh * 0.55, x + hw * 0.75, base, P([110, 76, 48]));
    if (night)
      light.lights.push({ x: x + hw * 0.29, y: base - hh * 0.58, r: hw * 0.6, color: [255, 200, 110] });
    x += hw * (r.chance(0.25) ? r.range(2.6, 3.6) : r.range(1.25, 1.9));
  }
  drew(ctx, 'houses', 'cottages');
}

/**
 * A building's facade worked from one light at the upper left (decision 0125: a skyline of flat slabs
 * read as cardboard): a lit edge down its left side, its right side in shade, a cornice lit on top
 * with a shadow under it, floor lines on a tall one, and its own roof (a stepped crown, an antenna, a
 * water tank or a flat parapet) by the seed.
 */
function facade(
  ctx: Ctx,
  layer: PixelCanvas,
  x0: number,
  top: number,
  x1: number,
  bottom: number,
  wall: RGB,
  r: Rng,
): void {
  // after dark the walls are silhouettes against the sky, their lit windows carry them: a lit edge
  // and cornice there read as wires hung in the sky (seen on a neon street at night)
  if (ctx.light.time === 'night') return;
  const bw = x1 - x0;
  const lit = P(lighter(wall, 0.22));
  const shade = P(darker(wall, 0.78));
  const dark = P(darker(wall, 0.6));
  const edge = Math.max(1, Math.round(bw * 0.08));
  layer.rect(x0, top, x0 + edge, bottom, lit);
  layer.rect(x1 - edge * 1.5, top, x1, bottom, shade);
  // the cornice: a lit ledge a pixel proud of the wall, its shadow under it
  layer.rect(x0 - 1, top, x1 + 1, top + 1, lit);
  layer.rect(x0, top + 1, x1, top + 2, dark);
  // floor lines on a tall building, every few storeys
  const storey = Math.max(6, Math.round(ctx.h * r.range(0.06, 0.1)));
  if (bottom - top > storey * 3)
    for (let y = Math.round(top) + storey * r.int(2, 3); y < bottom - storey; y += storey * r.int(2, 4))
      for (let x = Math.ceil(x0 + edge); x < x1 - edge * 1.5; x++)
        if (layer.px[y * layer.w + x] === P(wall)) layer.set(x, y, shade);
  // the roof
  const kind = r.pick(['crown', 'antenna', 'tank', 'flat', 'flat'] as const);
  const cx = x0 + bw * r.range(0.3, 0.7);
  if (kind === 'crown') {
    const cw = bw * r.range(0.4, 0.6);
    const ch = Math.max(2, ctx.h * r.range(0.015, 0.03));
    layer.rect(cx - cw / 2, top - ch, cx + cw / 2, top, P(wall));
    layer.rect(cx - cw / 2, top - ch, cx - cw / 2 + 1, top, lit);
    layer.rect(cx + cw / 2 - 1, top - ch, cx + cw / 2, top, shade);
    layer.rect(cx - cw / 2 - 0.5, top - ch, cx + cw / 2 + 0.5, top - ch + 1, lit);
  } else if (kind === 'antenna') {
    const ah = Math.max(3, ctx.h * r.range(0.03, 0.07));
    layer.rect(cx, top - ah - 1, cx + 1, top, dark);
  } else if (kind === 'tank') {
    const tw = Math.max(2, bw * 0.22);
    const th = Math.max(2, tw * 0.9);
    layer.rect(cx - tw / 2, top - th, cx + tw / 2, top - 1, shade);
    layer.rect(cx - tw / 2, top - th, cx - tw / 2 + 1, top - 1, lit);
    layer.rect(cx - tw / 2 - 0.5, top - th - 1, cx + tw / 2 + 0.5, top - th, dark);
  } else layer.rect(x0, top - 1, x1, top, shade);
}

const NEON_COLOURS: RGB[] = [
  [255, 60, 200],
  [60, 240, 255],
  [255, 230, 80],
  [120, 255, 120],
];

/** A neon sign on a city building, lit, with its own light. */
function paintNeonSign(
  ctx: Ctx,
  mid: PixelCanvas,
  x: number,
  top: number,
  bw: number,
  bh: number,
  i: number,
): void {
  const { h, rng, light } = ctx;
  const c = NEON_COLOURS[i % NEON_COLOURS.length]!;
  const sw = bw * rng.range(0.4, 0.7);
  const sh = Math.max(3, h * 0.05);
  const sx = x + (bw - sw) / 2;
  const sy = top + bh * rng.range(0.2, 0.5);
  mid.rect(sx - 1, sy - 1, sx + sw + 1, sy + sh + 1, P(darker(c, 0.45)));
  mid.rect(sx, sy, sx + sw, sy + sh, G(ctx, c));
  for (let bx = sx + 2; bx < sx + sw - 2; bx += Math.max(3, sh))
    mid.rect(bx, sy + sh * 0.3, bx + Math.max(1, sh * 0.5), sy + sh * 0.7, G(ctx, lighter(c, 0.7)));
  light.lights.push({ x: sx + sw / 2, y: sy + sh / 2, r: Math.max(sw, sh) * 0.75, color: c });
}

/** A city street's buildings, nearer and taller than the skyline; neon signs on them. */
function paintStreet(ctx: Ctx, mid: PixelCanvas, horizon: number): void {
  const { w, h, rng, light, req } = ctx;
  const night = light.time === 'night';
  let x = -rng.range(0, 6);
  const walls = [P(night ? [44, 40, 70] : [132, 128, 146]), P(night ? [34, 32, 58] : [112, 110, 128])];
  const win = night ? G(ctx, [255, 216, 128]) : P([170, 196, 226]);
  const rs = ctx.detail('street-facades');
  // seen from a rooftop the street's buildings stand beyond the roof's edge: their feet (doors, shop
  // windows) are hidden behind it, their storeys run down to it (decision 0146: the blind review after
  // 1130i saw front doors standing on the roof's ledge)
  const fromRoof = req.viewpoint?.kind === 'rooftop';
  const warm = 3;
  // after dark each building has its own share of lit rooms and its own glow: a warm lamp, a paler
  // one, a television's blue; the dark rooms are glass that shows (decision 0146: "a regular grid of
  // identical lit windows")
  const glows: RGB[] = [
    [255, 216, 128],
    [255, 236, 170],
    [250, 190, 110],
    [170, 200, 255],
  ];
  const darkPane = P([22, 24, 44]);
  // at dusk the first rooms are lit: a few windows of each building glow among the sky-lit glass (its
  // own stream: the rest of a dusk picture stays)
  const dusk = light.time === 'dusk' ? ctx.detail('dusk-windows') : null;
  const skyGlint = P([70, 80, 120]);
  let i = 0;
  while (x < w) {
    const bw = rng.range(0.14, 0.24) * w + 4;
    const bh = rng.range(0.34, 0.6) * h;
    const street = fromRoof ? Math.round(h * 0.74) : horizon + h * 0.12;
    const top = horizon + h * 0.12 - bh;
    mid.rect(x, top, x + bw - 1, street, walls[i % 2]!);
    const wallC = unpack(walls[i % 2]!);
    const step = Math.max(4, Math.round(h / 30));
    // (a day's detail stream draws as before: these only after dark)
    const litShare = night ? rs.range(0.2, 0.65) : 1;
    const pitch = night ? step * rs.range(1.3, 1.8) : step * 1.5;
    const duskShare = dusk ? dusk.range(0.08, 0.35) : 0;
    // the ground floor: a door (and a shop window) under a lintel, standing on the pavement
    // (decision 0135: the street's buildings were blank slabs with window dots)
    const groundTop = fromRoof ? street + step : street - step * 2.6;
    const storey = step * 1.7;
    const frame = P(night ? darker(wallC, 0.7) : lighter(wallC, 0.28));
    const recess = P(darker(wallC, 0.55));
    const band = P(darker(wallC, 0.8));
    // a building's own glow, now and then a second one on a floor
    const glow = night ? glows[rs.int(0, warm - 1)]! : null;
    for (let wy = top + step; wy < groundTop - step; wy += storey) {
      // a storey band under each row of windows
      if (!night) mid.rect(x + 1, wy + storey - step * 0.35, x + bw - 2, wy + storey - step * 0.35 + 1, band);
      // at night a whole floor is sometimes dark, sometimes lit end to end (an office working late)
      const floorShare = night ? (rs.chance(0.2) ? 0 : rs.chance(0.15) ? 0.9 : litShare) : 1;
      for (let wx = x + step * 0.7; wx < x + bw - step; wx += pitch) {
        // the scene's stream draws as it did (one draw a window after dark): the rest of the picture stays
        if (night) rng.chance(0.5);
        const ww = Math.max(2, Math.round(step * 0.6));
        const wh = Math.max(3, Math.round(step * 0.8));
        const x0 = Math.round(wx);
        const y0 = Math.round(wy);
        const lit = !night || rs.chance(floorShare);
        const early = dusk?.chance(duskShare) ?? false;
        const pane = early
          ? G(ctx, glows[dusk!.int(0, warm - 1)]!)
          : !night
            ? win
            : lit
              ? G(ctx, glow && rs.chance(0.8) ? glow : rs.pick(glows))
              : darkPane;
        // a frame round the pane, its top and left in the recess's shadow, a sill under it
        mid.rect(x0 - 1, y0 - 1, x0 + ww + 1, y0 + wh + 1, frame);
        mid.rect(x0, y0, x0 + ww, y0 + wh, pane);
        // a dark room's glass catches the sky in its upper corner
        if (night && !lit) mid.set(x0 + ww - 1, y0, skyGlint);
        if (!night) {
          mid.rect(x0, y0, x0 + ww, y0 + 1, recess);
          mid.rect(x0, y0, x0 + 1, y0 + wh, recess);
          if (ww >= 3 && !early) mid.set(x0 + ww - 1, y0 + 1, P([226, 236, 248]));
          if (wh >= 5) mid.rect(x0 + 1, y0 + (wh >> 1), x0 + ww, y0 + (wh >> 1) + 1, frame);
        }
        mid.rect(x0 - 1, y0 + wh + 1, x0 + ww + 1, y0 + wh + 2, P(darker(wallC, 0.7)));
      }
    }
    // the ground floor's lintel, a door with its step, a shop window beside it (hidden from a roof)
    if (!fromRoof) {
      mid.rect(
        x + 1,
        groundTop - 1,
        x + bw - 2,
        groundTop + 1,
        P(night ? darker(wallC, 0.8) : lighter(wallC, 0.18)),
      );
      const dw = Math.max(3, Math.round(step * 0.9));
      const dh = Math.round((street - groundTop) * 0.78);
      const dx = Math.round(x + bw * rs.range(0.2, 0.7));
      mid.rect(dx - 1, street - dh - 1, dx + dw + 1, street, recess);
      mid.rect(dx, street - dh, dx + dw, street, P(night ? [60, 44, 40] : [110, 70, 50]));
      mid.set(dx + dw - 2, Math.round(street - dh * 0.45), P([220, 190, 90]));
      mid.rect(dx - 2, street - 1, dx + dw + 2, street, P(lighter(wallC, 0.1)));
      const sw = Math.round(bw * 0.3);
      const sx = dx + dw + 3 + sw < x + bw - 2 ? dx + dw + 3 : dx - 3 - sw;
      if (sx > x + 1 && sw >= 4) {
        const sy = Math.round(street - dh * 0.85);
        mid.rect(sx - 1, sy - 1, sx + sw + 1, street - step * 0.5 + 1, frame);
        mid.rect(sx, sy, sx + sw, street - step * 0.5, win);
        if (!night) mid.rect(sx, sy, sx + sw, sy + 1, recess);
      }
    }
    facade(ctx, mid, x, top, x + bw - 1, street, unpack(walls[i % 2]!), rs);
    if (req.neon || ctx.has('neon')) paintNeonSign(ctx, mid, x, top, bw, bh, i);
    x += bw + rng.range(0, 2);
    i++;
  }
  drew(ctx, 'neon', 'neon signs');
}

/**
 * The mid ground: the sea (with a harbour, boats, a lighthouse) or hills, then the tree row, a village's
 * cottages, a city's street and the landmarks of open land. Returns where the near ground starts.
 */
async function paintMid(ctx: Ctx, mid: PixelCanvas, horizon: number, land: Land): Promise<number> {
  const { h, req } = ctx;
  const s = req.setting;
  const water = s === 'beach' || s === 'ocean' || ctx.has('sea') || ctx.has('harbour');
  let ground = horizon + h * (water ? 0.16 : 0.1);
  if (water) {
    ground = paintSea(ctx, mid, horizon, land);
    if (ctx.has('harbour') || ctx.has('boats')) await paintHarbour(ctx, mid, horizon, ground);
    if (ctx.has('lighthouse')) paintLighthouse(ctx, mid, horizon, ground);
    // cliffs or mountains named by the sea: a tall headland (the lighthouse has the right side)
    if (ctx.has('mountains')) {
      paintHeadland(ctx, mid, horizon, ground, ctx.has('lighthouse') ? 'left' : 'right', 0.22);
      drew(ctx, 'mountains', 'sea cliffs');
    }
  } else paintHills(ctx, mid, horizon, land);
  const treeKind = midTreeKind(ctx);
  if (treeKind && !water) paintTreeRows(ctx, mid, horizon, land, treeKind);
  // by the sea a town's houses stand along the shore, never in the water
  if (s === 'village' || ctx.has('houses')) paintCottages(ctx, mid, water ? ground + 2 - h * 0.11 : horizon);
  if (s === 'city') paintStreet(ctx, mid, horizon);
  if (!water) await paintLandmarks(ctx, mid, horizon, ground);
  return ground;
}

/** Pyramids: a lit face and a shaded face, the largest nearest. */
function paintPyramids(ctx: Ctx, mid: PixelCanvas, horizon: number): void {
  const { w, h } = ctx;
  const stone = [220, 180, 110] as RGB;
  const spots: ReadonlyArray<readonly [number, number]> = [
    [0.32, 0.32],
    [0.62, 0.22],
    [0.8, 0.14],
  ];
  for (const [k, [fx, fs]] of spots.entries()) {
    if (k > 0 && w < 48) break;
    const base = horizon + h * 0.1 - k * h * 0.02;
    const half = h * fs * (w > h ? 1 : 0.8);
    const top = base - half * 0.95;
    const cx = w * fx;
    mid.polygon(
      [
        [cx, top],
        [cx + half, base],
        [cx - half, base],
      ],
      P(darker(stone, 0.72)),
    );
    mid.polygon(
      [
        [cx, top],
        [cx + half * 0.15, base],
        [cx - half, base],
      ],
      P(stone),
    );
    // courses of stone
    for (let y = top + 3; y < base; y += Math.max(2, Math.round(h / 48))) {
      const t = (y - top) / (base - top);
      mid.rect(cx - half * t, y, cx + half * 0.15 * t, y + 1, P(darker(stone, 0.88)));
    }
  }
  drew(ctx, 'pyramids', 'pyramids');
}

/**
 * A volcano: a cone of dark rock, lit on its left flank, a glowing crater, lava running down in
 * rivulets, a plume of smoke leaning with the wind.
 */
function paintVolcano(ctx: Ctx, mid: PixelCanvas, horizon: number): void {
  const { w, h, light } = ctx;
  const cx = w * 0.5;
  const top = horizon - h * 0.34;
  const base = horizon + h * 0.1;
  const rock: RGB = [110, 74, 70];
  const crater = w * 0.05;
  mid.polygon(
    [
      [cx - crater, top],
      [cx + crater, top],
      [cx + w * 0.4, base],
      [cx - w * 0.4, base],
    ],
    P(darker(rock, 0.8)),
  );
  mid.polygon(
    [
      [cx - crater, top],
      [cx - crater * 0.2, top],
      [cx - w * 0.12, base],
      [cx - w * 0.4, base],
    ],
    P(rock),
  );
  const lava = G(ctx, [255, 112, 28]);
  const hot = G(ctx, [255, 214, 90]);
  const crust = P([70, 40, 40]);
  mid.rect(cx - crater, top - 1, cx + crater, top + Math.max(2, h * 0.015), hot);
  const flows = w >= 96 ? 3 : 2;
  const crustLit = P([104, 60, 50]);
  const rf = ctx.detail('lava-flows');
  // every stream's crust first, then every stream's lava: where two streams run close below the
  // crater one's crust never cuts the other's lava short
  const spans: Array<[number, number, number, number]> = [];
  const threads: Array<[number, number]> = [];
  const plates: Array<[number, number, number]> = [];
  for (let k = 0; k < flows; k++) {
    const dir = k === 0 ? -0.55 : k === 1 ? 0.45 : 0.1;
    const x0 = cx + (k - 1) * crater * 0.6;
    // every stream runs from the crater to the cone's foot (decision 0113: streams that stopped
    // mid-slope read as painted on), widening as it goes, a crust along both banks; at the foot it
    // spreads in a fan whose edge is lobed and crusted (decision 0135: a string of even width ending
    // in a round saucer read as a drawn line, not lava)
    const thin = Math.max(0.5, w / 320);
    const wide = Math.max(1.5, w * rf.range(0.008, 0.013));
    const wob = rf.range(0, 6.28);
    let x = x0;
    let y = top;
    const path = new Map<number, number>();
    const fanH = Math.max(3, Math.round((base - top) * rf.range(0.16, 0.22)));
    const fanTop = base - fanH;
    const fanHalf = Math.max(3, w * rf.range(0.04, 0.06));
    let fanX = x0;
    for (; y < base; y++) {
      const t = (y - top) / (base - top);
      x = x0 + dir * t * w * 0.32 + Math.sin(y / Math.max(2, h * 0.03) + k + wob) * Math.max(1, w * 0.006);
      if (y < fanTop) fanX = x;
      // half its width: a trickle at the crater, wider down the slope, then the fan
      let half = thin + (wide - thin) * t * t;
      let cxr = x;
      if (y >= fanTop) {
        const f = (y - fanTop) / fanH;
        half = half + (fanHalf - half) * Math.sqrt(f);
        cxr = fanX + (x - fanX) * 0.5;
      }
      // its banks wander a little (cooled lumps)
      const l = Math.round(cxr - half - (Math.sin(y * 0.9 + k * 3) > 0.6 ? 1 : 0));
      const r = Math.round(cxr + half + (Math.sin(y * 0.7 + k * 5) > 0.6 ? 1 : 0));
      mid.rect(l - 1, y, r + 2, y + 1, crust);
      if (r - l >= 3) mid.set(l - 1, y, crustLit);
      spans.push([l, y, r, t]);
      // the hottest thread down its middle, and in the fan the lava's veins spread apart
      if (t >= 0.35 && r - l >= 2) {
        if (y < fanTop) threads.push([Math.round(cxr), y]);
        else {
          const f = (y - fanTop) / fanH;
          for (const v of [-0.55, 0, 0.55]) threads.push([Math.round(cxr + v * f * (r - l) * 0.5), y]);
        }
      }
      path.set(Math.floor(y), cxr);
      x = cxr;
    }
    // the fan's front: a lobed crust edge a row or two under the foot, lava to it
    const fanL = Math.round(x - fanHalf);
    const fanR = Math.round(x + fanHalf);
    for (let xx = fanL; xx <= fanR; xx++) {
      const lobe = Math.sin((xx - fanL) * 0.8 + k * 2) > 0.2 ? 1 : 0;
      mid.rect(xx, base, xx + 1, base + lobe, lava);
      mid.set(xx, base + lobe, crust);
    }
    // crusted plates floating on the fan (cooled lava), dark with a lit edge
    for (let p = 0; p < Math.max(1, Math.round(fanHalf / 4)); p++) {
      const px = Math.round(x + rf.range(-0.35, 0.35) * fanHalf);
      const py = Math.round(base - rf.range(0.15, 0.6) * fanH);
      const pw = Math.max(1, Math.round(rf.range(1, 2.5)));
      plates.push([px, py, pw]);
    }
    // a lava river on the ground runs on from the flow on the near side (its source)
    if (k === 1) ctx.lavaSource = { x, y, xAt: (row) => path.get(Math.floor(row)) };
  }
  for (const [l, y, r, t] of spans) mid.rect(l, y, r + 1, y + 1, t < 0.35 ? hot : lava);
  for (const [x, y] of threads) mid.set(x, y, hot);
  for (const [px, py, pw] of plates) {
    mid.rect(px, py, px + pw, py + 1, crust);
    mid.set(px, py - 1, crustLit);
  }
  light.lights.push({ x: cx, y: top, r: Math.min(w, h) * 0.16, color: [255, 130, 50] });
  const smoke = P(light.time === 'night' ? [70, 62, 72] : [120, 112, 116]);
  const smokeLit = P(light.time === 'night' ? [120, 70, 60] : [150, 142, 144]);
  for (let k = 0; k < 6; k++) {
    const r = Math.max(2, Math.min(w, h) * (0.035 + k * 0.012));
    const px = cx + k * k * w * 0.006;
    const py = top - h * 0.03 - k * h * 0.055;
    mid.disc(px, py, r, smoke);
    if (k < 2) mid.disc(px - r * 0.25, py + r * 0.3, r * 0.6, smokeLit);
  }
  drew(ctx, 'volcano', 'erupting volcano');
}

/** A cliff on the left in ledges of rock, grass on top, water falling from it into a pool with foam. */
function paintWaterfall(ctx: Ctx, mid: PixelCanvas, horizon: number, ground: number): void {
  const { w, h, rng } = ctx;
  const rockC: RGB = [118, 108, 112];
  const rock = P(rockC);
  const ledge = P(darker(rockC, 0.72));
  const litEdge = P(lighter(rockC, 0.25));
  const grass = P(LAND.forest.mid);
  const cliff = w * 0.3;
  const top = horizon - h * 0.25;
  const rows = Math.max(3, Math.round(h / 22));
  for (let x = 0; x < cliff; x++) {
    const t = Math.round(top + Math.sin(x / (w * 0.05)) * h * 0.015);
    mid.rect(x, t, x + 1, ground + h * 0.05, rock);
    mid.rect(x, t, x + 1, t + Math.max(2, h * 0.02), grass);
  }
  for (let r = 1; r < rows; r++) {
    const y = top + ((ground - top) * r) / rows;
    for (let x = 0; x < cliff; x += Math.max(6, w * 0.06)) {
      const len = Math.max(4, w * rng.range(0.03, 0.07));
      mid.rect(x, y + ((x * 3) % 3), Math.min(cliff, x + len), y + ((x * 3) % 3) + 1, ledge);
      mid.rect(x, y + ((x * 3) % 3) - 1, Math.min(cliff, x + len), y + ((x * 3) % 3), litEdge);
    }
  }
  mid.rect(cliff - 1, top, cliff, ground + h * 0.05, ledge);
  const fall0 = cliff * 0.55;
  const fall1 = cliff * 0.92;
  const m = materialOf(ctx, 'waterfall');
  const c =
    m === 'water' ? { body: [150, 200, 240], hi: [210, 236, 252], deep: [110, 170, 225] } : WATER_COLOURS[m];
  const waterC = [
    waterPack(ctx, m, c.body as RGB),
    waterPack(ctx, m, c.hi as RGB),
    waterPack(ctx, m, c.deep as RGB),
  ];
  for (let y = Math.floor(top); y < ground + h * 0.04; y++)
    for (let x = Math.floor(fall0); x < fall1; x++)
      mid.px[y * w + x] = waterC[(Math.floor(x / 2) + Math.floor(y / 5)) % 3]!;
  mid.ellipse(
    (fall0 + fall1) / 2,
    ground + h * 0.05,
    (fall1 - fall0) * 0.9,
    h * 0.03,
    m === 'water' ? P([240, 250, 255]) : waterPack(ctx, m, WATER_COLOURS[m].hi),
  );
  if (m === 'lava' && ctx.light.time !== 'day')
    ctx.light.lights.push({
      x: (fall0 + fall1) / 2,
      y: ground,
      r: Math.min(w, h) * 0.3,
      color: [255, 140, 60],
    });
  drew(ctx, 'waterfall', waterName(m, 'waterfall'));
}

/** A temple of the kind the prompt names: a Shinto shrine or pagoda, a Hindu temple, else classical (or ruins). */
async function paintTemple(ctx: Ctx, mid: PixelCanvas, horizon: number): Promise<void> {
  const { w, h } = ctx;
  const asian = /japan|chinese|asian|shinto|pagoda|shrine|神社|寺|塔/.test(ctx.text);
  const templeId = ctx.has('ruins')
    ? 'f/classical-building'
    : asian
      ? 'f/shinto-shrine'
      : /hindu/.test(ctx.text)
        ? 'f/hindu-temple'
        : 'f/classical-building';
  const t = await prop(ctx, templeId, h * 0.22);
  if (t)
    stand(
      mid,
      t,
      w * 0.62,
      horizon + h * 0.1,
      ctx.has('ruins') ? (c) => mixRgb(c, [140, 136, 120], 0.35) : undefined,
    );
  drew(ctx, 'ruins', 'ruined classical building (Fluent Emoji)', t !== null);
  drew(ctx, 'temple', `${templeId} (Fluent Emoji)`, t !== null);
}

/** A landmark drawn from the licensed drawings: its drawing, height, fill, place and how it is reported. */
async function paintDrawnLandmark(
  ctx: Ctx,
  mid: PixelCanvas,
  horizon: number,
  kind: ElementKind,
  [id, height, fill, fx, fy, as]: readonly [string, number, RGB | undefined, number, number, string],
): Promise<void> {
  const img = await prop(ctx, id, ctx.h * height, fill);
  let foot = horizon + ctx.h * fy;
  if (img && kind === 'castle' && /\b(hill|hills|hilltop|hillside|mound)\b|山丘|山上/.test(ctx.text)) {
    // "a castle on a hill": a rounded hill rises under it, in the hills' own green, lit on its left
    // (decision 0093: the castle stood on the flat meadow)
    const { w, h } = ctx;
    const cx = w * fx;
    const rise = h * 0.1;
    const half = Math.max(img.width * 1.1, h * 0.32);
    const green = unpack(
      mid.px[Math.min(h - 1, Math.round(horizon + h * 0.14)) * w + Math.round(cx)] || P([96, 164, 80]),
    );
    const body = P(darker(green, 0.92));
    const lit = P(lighter(green, 0.12));
    for (let x = Math.floor(cx - half); x <= Math.ceil(cx + half); x++) {
      const t = (x + 0.5 - cx) / half;
      if (Math.abs(t) > 1) continue;
      const top = Math.round(foot - rise * Math.cos((t * Math.PI) / 2) ** 1.5);
      mid.rect(x, top, x + 1, foot + h * 0.04, t < -0.2 ? lit : body);
    }
    foot -= rise * 0.95;
  }
  if (img) stand(mid, img, ctx.w * fx, foot);
  drew(ctx, kind, as, img !== null);
}

/** The landmarks of open land that are one drawing each. */
const DRAWN_LANDMARKS = {
  castle: ['f/castle', 0.3, undefined, 0.72, 0.09, 'castle (Fluent Emoji)'],
  windmill: ['g/windmill', 0.3, [200, 196, 188], 0.25, 0.1, 'windmill (game-icons)'],
  // a stone arch bridge across the middle ground
  bridge: ['g/arch-bridge', 0.16, [150, 140, 132], 0.5, 0.1, 'arch bridge (game-icons)'],
} as const satisfies Partial<
  Record<ElementKind, readonly [string, number, RGB | undefined, number, number, string]>
>;

/** The named landmarks of open land, in front of the tree row, in the order they are drawn. */
const LANDMARKS: ReadonlyArray<{
  when: (ctx: Ctx) => boolean;
  paint: (ctx: Ctx, mid: PixelCanvas, horizon: number, ground: number) => void | Promise<void>;
}> = [
  { when: (ctx) => ctx.has('pyramids'), paint: paintPyramids },
  { when: (ctx) => ctx.has('volcano') || ctx.req.setting === 'volcano', paint: paintVolcano },
  { when: (ctx) => ctx.has('waterfall'), paint: paintWaterfall },
  ...(['castle', 'windmill', 'bridge'] as const).map((kind) => ({
    when: (ctx: Ctx) => ctx.has(kind),
    paint: (ctx: Ctx, mid: PixelCanvas, horizon: number) =>
      paintDrawnLandmark(ctx, mid, horizon, kind, DRAWN_LANDMARKS[kind]),
  })),
  { when: (ctx) => ctx.has('temple') || ctx.has('ruins'), paint: paintTemple },
  { when: (ctx) => ctx.has('wall'), paint: paintWall },
];

/**
 * A fortified wall across the land (issue #39: "a fortress wall", "a rampart" were a meadow with a
 * brick block): coursed stone with crenels and two towers; a ruined one has broken merlons and a
 * breach with rubble; a palisade or stockade is a row of pointed logs.
 */
function paintWall(ctx: Ctx, mid: PixelCanvas, _horizon: number, ground: number): void {
  const { w, h, rng, req } = ctx;
  const word = req.elements.find((e) => e.kind === 'wall')?.word ?? 'wall';
  const ruined = /ruin|broken|crumbl|destroyed|荒废|破败|废/.test(ctx.text);
  const base = Math.round(ground + h * 0.05);
  const wh = Math.round(h * 0.2);
  const top = base - wh;
  const x0 = Math.round(w * 0.04);
  const x1 = Math.round(w * 0.96);
  if (/palisade|stockade/.test(word)) {
    const log = Math.max(2, Math.round(w / 64));
    for (let x = x0; x < x1; x += log) {
      const tall = top + ((x * 7) % 3);
      mid.rect(x, tall, x + log, base, P(x % (log * 2) ? [128, 86, 52] : [108, 72, 44]));
      mid.polygon(
        [
          [x, tall],
          [x + log, tall],
          [x + log / 2, tall - log * 1.4],
        ],
        P([150, 104, 64]),
      );
    }
    mid.rect(x0, top + wh * 0.3, x1, top + wh * 0.3 + Math.max(1, h * 0.012), P([84, 56, 36]));
    drew(ctx, 'wall', 'wooden palisade');
    return;
  }
  const old = ctx.req.oldCity === true;
  const stoneC: RGB = old ? [156, 142, 122] : [150, 146, 140];
  const stone = P(stoneC);
  const mortar = P(darker(stoneC, 0.72));
  const lit = P(lighter(stoneC, 0.2));
  const shade = P(darker(stoneC, 0.86));
  const bw = Math.max(4, Math.round(w / 36));
  const bh = Math.max(2, Math.round(bw / 2));
  /** A stretch of coursed stone, crenellated on top. */
  const block = (a: number, b: number, t: number, broken: boolean) => {
    mid.rect(a, t, b, base, stone);
    for (let y = t + bh; y < base; y += bh) {
      mid.rect(a, y, b, y + 1, mortar);
      const off = ((y - t) / bh) % 2 ? bw / 2 : 0;
      for (let x = a + off; x < b; x += bw) mid.rect(x, y - bh + 1, x + 1, y, mortar);
    }
    mid.rect(a, t, b, t + 1, lit);
    mid.rect(b - 1, t, b, base, shade);
    // merlons: a ruined wall has lost some
    for (let x = a; x + bw * 0.6 <= b; x += bw * 1.5)
      if (!broken || rng.next() > 0.4) {
        mid.rect(x, t - bh * 1.4, x + bw * 0.75, t, stone);
        mid.rect(x, t - bh * 1.4, x + bw * 0.75, t - bh * 1.4 + 1, lit);
      }
  };
  block(x0, x1, top, ruined);
  if (ruined) {
    // a breach: a notch down into the wall, its rubble in a heap at its foot
    const bx = w * rng.range(0.42, 0.58);
    const bwid = w * 0.1;
    mid.polygon(
      [
        [bx - bwid, top - bh * 2],
        [bx + bwid, top - bh * 2],
        [bx + bwid * 0.3, top + wh * 0.55],
        [bx - bwid * 0.4, top + wh * 0.6],
      ],
      0,
    );
    for (let k = 0; k < 9; k++)
      mid.rect(
        bx + rng.range(-bwid, bwid) - bw / 2,
        base - rng.range(1, wh * 0.25),
        bx + rng.range(-bwid, bwid) + bw / 2,
        base,
        k % 2 ? stone : shade,
      );
  }
  // two towers, taller than the wall, an arrow slit each
  for (const tx of [0.2, 0.78]) {
    const a = Math.round(w * tx - w * 0.045);
    const b = Math.round(w * tx + w * 0.045);
    const t = Math.round(top - wh * 0.45);
    block(a, b, t, ruined && tx > 0.5);
    mid.rect((a + b) / 2 - 1, t + wh * 0.25, (a + b) / 2 + 1, t + wh * 0.25 + bh * 3, P([40, 36, 44]));
  }
  if (old) {
    // the old town stands behind the wall: seen over it, and through a breach
    const town = new PixelCanvas(w, h);
    paintOldTown(ctx, town, x0, x1, top, wh);
    for (let i = 0; i < mid.px.length; i++) if (!mid.px[i] && town.px[i]) mid.px[i] = town.px[i]!;
    // weathered stone: stains and moss down the courses, and the city's gate in the middle
    const r = ctx.vary('weather-stains');
    for (let k = 0; k < Math.round(w / 10); k++) {
      const sx = Math.round(r.range(x0, x1));
      const sy = Math.round(r.range(top + 2, base - 4));
      const len = Math.round(r.range(2, wh * 0.4));
      const c = P(k % 3 === 0 ? [112, 124, 80] : darker(stoneC, 0.8));
      for (let y = sy; y < Math.min(base, sy + len); y++) mid.set(sx + (y % 3 === 0 ? 1 : 0), y, c);
    }
    const gx = Math.round(w * 0.5);
    const gw = Math.max(6, Math.round(wh * 0.5));
    const gt = base - Math.round(wh * 0.62);
    for (let y = gt; y < base; y++) {
      const dy = y - gt;
      const half = dy < gw / 2 ? Math.sqrt((gw / 2) ** 2 - (gw / 2 - dy) ** 2) : gw / 2;
      mid.rect(gx - half - 1, y, gx + half + 1, y + 1, P(darker(stoneC, 0.62)));
      mid.rect(gx - half, y, gx + half, y + 1, P([46, 36, 34]));
    }
    for (let x = gx - gw / 2 + 2; x < gx + gw / 2 - 1; x += 3)
      mid.rect(x, gt + 2, x + 1, base - wh * 0.2, P([70, 64, 60]));
  }
  // after dark, torches in iron brackets along the wall light it (decision 0113: a wall at night had
  // glows on its stone with no lamp drawn — its houses' windows' light, the houses hidden behind it)
  if (ctx.light.time === 'night' && !ruined)
    for (const fx of [0.1, 0.34, 0.66, 0.9])
      wallTorch(ctx, mid, Math.round(w * fx), Math.round(top + wh * 0.3), wh);
  drew(ctx, 'wall', ruined ? 'ruined fortified wall with towers' : 'fortified wall with towers');
}

/** A torch in an iron bracket on a wall at (x, y) (its flame's foot), sized to a wall `wh` tall: it gives light. */
function wallTorch(ctx: Ctx, layer: PixelCanvas, x: number, y: number, wh: number): void {
  const s = Math.max(3, Math.round(wh * 0.16));
  const iron = P([38, 34, 40]);
  // the bracket: a plate on the wall, an arm, a cup holding the torch's stick
  layer.rect(x - 1, y + s, x + 2, y + s + 2, iron);
  layer.rect(x, y + 1, x + 1, y + s + 1, P([96, 64, 40]));
  layer.rect(x - 1, y + 1, x + 2, y + 2, iron);
  // the flame: orange round a yellow core, a tip above
  const flame = G(ctx, [255, 140, 50]);
  const core = G(ctx, [255, 232, 130]);
  const fh = Math.max(2, Math.round(s * 0.7));
  layer.rect(x - 1, y - fh + 1, x + 2, y + 1, flame);
  layer.rect(x, y - fh, x + 1, y - fh + 1, flame);
  layer.rect(x, y - fh + 2, x + 1, y + 1, core);
  ctx.light.lights.push({
    x: x + 0.5,
    y: y - fh / 2 + 1,
    r: Math.min(ctx.w, ctx.h) * 0.1,
    color: [255, 170, 70],
  });
}

/**
 * The old town behind its wall (decision 0107: 古城, "an ancient city"): a row of old houses whose
 * upper storeys and gabled roofs of tile and slate rise over the wall's top, each its own width and
 * height, with small windows; a round keep with a conical roof and a domed hall among them.
 */
function paintOldTown(ctx: Ctx, mid: PixelCanvas, x0: number, x1: number, top: number, wh: number): void {
  const { w, h } = ctx;
  const r = ctx.vary('old-town');
  const night = ctx.light.time === 'night';
  const plasters: RGB[] = [
    [214, 198, 164],
    [196, 176, 142],
    [186, 168, 150],
  ];
  const roofs: RGB[] = [
    [160, 70, 52],
    [112, 100, 110],
    [176, 96, 56],
  ];
  let x = x0 + r.range(0, w * 0.03);
  while (x < x1 - w * 0.04) {
    const bw = w * r.range(0.05, 0.09);
    const up = wh * r.range(0.25, 0.8);
    const wallC = plasters[r.int(0, plasters.length - 1)]!;
    const roofC = roofs[r.int(0, roofs.length - 1)]!;
    const wt = top - up;
    mid.rect(x, wt, x + bw, top + 2, P(darker(wallC, 0.55)));
    mid.rect(x + 1, wt, x + bw - 1, top + 2, P(wallC));
    mid.rect(x + bw - 2, wt, x + bw - 1, top + 2, P(darker(wallC, 0.86)));
    const pitch = bw * r.range(0.35, 0.55);
    mid.polygon(
      [
        [x - 1, wt + 1],
        [x + bw + 1, wt + 1],
        [x + bw / 2, wt - pitch],
      ],
      P(roofC),
    );
    // the roof's lit left slope
    for (let k = 0; k < pitch; k++) {
      const y = Math.round(wt - pitch + k + 1);
      const half = (k / pitch) * (bw / 2 + 1);
      mid.rect(
        x + bw / 2 - half,
        y,
        x + bw / 2 - half + Math.max(1, half * 0.5),
        y + 1,
        P(lighter(roofC, 0.15)),
      );
    }
    for (let wy = wt + 3; wy < top - 2; wy += Math.max(4, h * 0.03))
      for (let wx = x + 3; wx < x + bw - 3; wx += Math.max(4, bw / 3))
        mid.rect(wx, wy, wx + 1, wy + 2, night && r.chance(0.6) ? G(ctx, [255, 210, 120]) : P([62, 52, 56]));
    x += bw + r.range(-1, w * 0.015);
  }
  // a round keep with a conical roof, and a domed hall
  const kx = w * r.range(0.3, 0.42);
  const kw = w * 0.05;
  const kt = top - wh * 1.3;
  mid.rect(kx - kw / 2 - 1, kt, kx + kw / 2 + 1, top + 2, P([110, 100, 90]));
  mid.rect(kx - kw / 2, kt, kx + kw / 2, top + 2, P([172, 160, 140]));
  mid.rect(kx + kw / 4, kt, kx + kw / 2, top + 2, P([146, 134, 116]));
  mid.polygon(
    [
      [kx - kw / 2 - 2, kt + 1],
      [kx + kw / 2 + 2, kt + 1],
      [kx, kt - kw * 1.3],
    ],
    P([96, 90, 120]),
  );
  mid.rect(kx - 1, kt + wh * 0.2, kx + 1, kt + wh * 0.2 + 3, P([50, 42, 46]));
  const dx = w * r.range(0.58, 0.7);
  const dr = w * 0.045;
  const dt = top - wh * 0.7;
  mid.rect(dx - dr, dt, dx + dr, top + 2, P([206, 192, 160]));
  for (let y = Math.round(dt - dr); y <= dt; y++) {
    const half = Math.sqrt(Math.max(0, dr * dr - (dt - y) ** 2));
    mid.rect(dx - half, y, dx + half, y + 1, P([120, 150, 140]));
    mid.rect(dx - half, y, dx - half * 0.4, y + 1, P([150, 180, 166]));
  }
  mid.rect(dx, dt - dr - 3, dx + 1, dt - dr, P([200, 170, 80]));
}

/** The named landmarks of open land, in front of the tree row: pyramids, a volcano, a waterfall, a castle … */
async function paintLandmarks(ctx: Ctx, mid: PixelCanvas, horizon: number, ground: number): Promise<void> {
  for (const landmark of LANDMARKS) if (landmark.when(ctx)) await landmark.paint(ctx, mid, horizon, ground);
}

/**
 * The ground strip: a lip (grass, sand, snow, pavement), then a body as a ramp from a hazier far edge
 * to a darker near one, its edges short tapered dithers (decision 0125: a flat band with one hard
 * edge read as a grey strip), worked with its material's texture in pixel features that grow nearer
 * the viewer: grass tufts lit on top, sand ripples with a lit crest, snow drifts with a blue shade,
 * rock cracks with a lit lip, pebbles elsewhere.
 */
function paintGroundStrip(ctx: Ctx, near: PixelCanvas, groundY: number, land: Land): void {
  const { w, h, rng, req, light } = ctx;
  const s = req.setting;
  const n = new Noise1D(rng.fork('ground'), 6);
  // the old speckle's stream, still taken so what is drawn after it stands where it stood
  rng.fork('spots');
  const lip = P(s === 'city' ? [96, 98, 112] : lighter(land.near, 0.12));
  // snow shades towards blue, never grey (a grey foreground read as dirty snow)
  const shadeOf = (k: number): RGB =>
    groundMaterial(ctx) === 'snow' ? mixRgb(land.near, [160, 180, 228], (1 - k) * 1.4) : darker(land.near, k);
  const steps = [P(mixRgb(land.near, light.haze, 0.14)), P(land.near), P(shadeOf(0.9)), P(shadeOf(0.8))];
  const top = groundY;
  ctx.groundY = groundY;
  const lipRows = Math.max(1, Math.round(h * 0.012));
  const tops = new Int32Array(w);
  // the ground's edge is never one ruled line: a pixel of tufts, drifts or stones stands up along it
  // here and there; a kerb has joints between its stones
  const bumps = new Noise1D(ctx.detail('ground-edge'), Math.max(8, Math.round(w / 3)));
  const joint = P(darker(s === 'city' ? [96, 98, 112] : land.near, 0.7));
  const jointEvery = Math.max(8, Math.round(w / 24));
  for (let x = 0; x < w; x++) {
    const lift = s !== 'city' && bumps.at(x / 3) > 0.66 ? 1 : 0;
    const t = Math.floor(top + (n.fbm((x / w) * 6, 2) - 0.5) * h * (s === 'city' ? 0 : 0.03)) - lift;
    tops[x] = t;
    const kerbJoint = s === 'city' && x % jointEvery === 0;
    for (let y = Math.max(0, t); y < Math.min(h, t + lipRows); y++)
      near.px[y * w + x] = kerbJoint ? joint : lip;
  }
  const depth = h - top;
  const edges = [0.18, 0.45, 0.72].map((k) => Math.round(top + depth * k));
  paintRamp(near, Math.max(0, Math.floor(top - h * 0.02)), h, steps, edges, {
    phase: ctx.detail('ground').range(0, 6.28),
    keep: (i) => Math.floor(i / w) >= tops[i % w]! + lipRows,
  });
  paintGroundTexture(ctx, near, tops, lipRows, land);
}

/** The ground's material, for its texture. */
function groundMaterial(ctx: Ctx): 'grass' | 'sand' | 'snow' | 'rock' | 'paving' | 'soil' {
  const s = ctx.req.setting;
  if (ctx.req.snowCover || s === 'snow') return 'snow';
  if (s === 'beach' || s === 'desert') return 'sand';
  if (s === 'volcano') return 'rock';
  if (s === 'city') return 'paving';
  if (s === 'grassland' || s === 'village' || s === 'forest' || s === 'mountains') return 'grass';
  return 'soil';
}

/** The ground strip's texture: features a pixel or two big far off, up to twice that at the bottom edge. */
function paintGroundTexture(
  ctx: Ctx,
  near: PixelCanvas,
  tops: Int32Array,
  lipRows: number,
  land: Land,
): void {
  const { w, h } = ctx;
  const r = ctx.detail('ground-texture');
  const kind = groundMaterial(ctx);
  const lit = P(lighter(land.near, kind === 'snow' ? 0.5 : 0.22));
  const shade = P(
    kind === 'snow'
      ? mixRgb(land.near, [120, 150, 210], 0.32)
      : darker(land.near, kind === 'sand' ? 0.82 : 0.68),
  );
  const deep = P(darker(land.near, 0.55));
  const top = Math.min(...tops);
  const depth = h - top;
  // a small picture's ground stays flat: its features would be most of its pixels
  if (depth < 4 || kind === 'paving' || h < 96) return;
  const count = Math.round(
    (w * depth) / (kind === 'grass' ? 70 : kind === 'sand' || kind === 'snow' ? 140 : 90),
  );
  const free = (x: number, y: number) => x >= 0 && x < w && y < h && y >= tops[x]! + lipRows + 1;
  const set = (x: number, y: number, c: number) => {
    if (free(x, y)) near.px[y * w + x] = c;
  };
  for (let k = 0; k < count; k++) {
    const x = Math.round(r.range(0, w));
    const y = Math.round(r.range(top + lipRows + 2, h));
    if (!free(x, y)) continue;
    // nearer the viewer (lower), the bigger the feature
    const z = (y - top) / depth;
    const size = 1 + Math.round(z * r.range(1, 2.2));
    if (kind === 'grass') {
      // a tuft: lit blades fanning up from a dark root
      set(x, y, shade);
      for (let b = 1; b <= size; b++) {
        set(x - b, y - b, lit);
        set(x + b, y - b, lit);
        set(x, y - b - (b === size ? 1 : 0), lit);
      }
    } else if (kind === 'sand' || kind === 'snow') {
      // a ripple or a drift: a curved line of shade, a lit crest above it
      const len = Math.round(r.range(4, 9) * (1 + z * 1.5));
      const bow = r.chance(0.5) ? 1 : -1;
      for (let d = 0; d < len; d++) {
        const yy = y + (d > len * 0.3 && d < len * 0.7 ? 0 : bow > 0 ? 1 : 0);
        set(x + d, yy, shade);
        if (d > 0 && d < len - 1) set(x + d, yy - 1, lit);
      }
    } else if (kind === 'rock') {
      // a crack: a jagged dark line, its upper lip lit
      let cx = x;
      let cy = y;
      for (let d = 0; d < 3 + size * 2; d++) {
        set(cx, cy, deep);
        set(cx, cy - 1, lit);
        cx += 1;
        if (r.chance(0.4)) cy += r.chance(0.5) ? 1 : -1;
      }
    } else {
      // soil: a pebble, lit on top, shaded under
      set(x, y, lit);
      set(x + 1, y, lit);
      set(x, y + 1, shade);
      set(x + 1, y + 1, shade);
      if (size > 1) set(x + 2, y + 1, shade);
    }
  }
}

/** A wet street: lane dashes and the lights' reflections. */
function paintStreetLanes(ctx: Ctx, near: PixelCanvas, top: number): void {
  const { w, h } = ctx;
  const dash = P([200, 196, 150]);
  const mid = top + (h - top) * 0.55;
  for (let x = 0; x < w; x += Math.max(8, w / 10)) near.rect(x, mid, x + Math.max(3, w / 24), mid + 1, dash);
}

/** A path into the distance. */
function paintRoad(ctx: Ctx, near: PixelCanvas, top: number): void {
  const { w, h } = ctx;
  const road = P([150, 120, 86]);
  near.polygon(
    [
      [w * 0.45, top],
      [w * 0.55, top],
      [w * 0.75, h],
      [w * 0.25, h],
    ],
    road,
  );
  drew(ctx, 'road', 'path');
}

/** Each material's body, glint and deep colours; lava gives light (no ambient light dims it). */
const WATER_COLOURS: Record<WaterMaterial, { body: RGB; hi: RGB; deep: RGB; glow?: true; name: string }> = {
  water: { body: [70, 140, 210], hi: [150, 200, 240], deep: [52, 112, 184], name: '' },
  ice: { body: [196, 226, 244], hi: [250, 252, 255], deep: [160, 200, 228], name: 'ice' },
  lava: { body: [236, 96, 30], hi: [255, 214, 80], deep: [176, 44, 24], glow: true, name: 'lava' },
  mud: { body: [110, 84, 54], hi: [150, 120, 80], deep: [84, 62, 40], name: 'mud' },
  poison: { body: [104, 176, 52], hi: [196, 240, 110], deep: [70, 130, 40], name: 'poison' },
};

/**
 * What the prompt makes a body of water of (issue #39: "a river of lava" was blue water): its
 * phrase's material, else ice when the text says frozen (as before), else water.
 */
function materialOf(ctx: Ctx, ...kinds: ElementKind[]): WaterMaterial {
  for (const k of kinds) {
    const m = ctx.req.elements.find((e) => e.kind === k)?.material;
    if (m) return m;
  }
  if (kinds.some((k) => k === 'river' || k === 'lake') && /frozen|icy|\bice\b|冰/.test(ctx.text))
    return 'ice';
  return 'water';
}

/** A water colour packed, and kept out of the ambient light when the material gives light. */
const waterPack = (ctx: Ctx, m: WaterMaterial, c: RGB): number => {
  const v = WATER_COLOURS[m].glow ? G(ctx, c) : P(c);
  ctx.wet.add(v);
  return v;
};

/** "lava river", "river": how a water element was drawn. */
const waterName = (m: WaterMaterial, kind: string): string =>
  WATER_COLOURS[m].name ? `${WATER_COLOURS[m].name} ${kind}` : kind;

/** A river or a lake of its material: water, ice (pale, white cracks), lava (glowing), mud or poison. */
function paintWaterCourse(ctx: Ctx, near: PixelCanvas, top: number): void {
  const { w, h } = ctx;
  const m = materialOf(ctx, 'river', 'lake');
  const water = waterPack(ctx, m, WATER_COLOURS[m].body);
  const hi = waterPack(ctx, m, WATER_COLOURS[m].hi);
  if (m === 'lava' && ctx.light.time !== 'day' && ctx.has('lake')) {
    ctx.light.lights.push({
      x: w * 0.6,
      y: top + (h - top) * 0.5,
      r: Math.min(w, h) * 0.3,
      color: [255, 140, 60],
    });
  }
  if (ctx.has('lake')) {
    paintLake(ctx, near, top, m);
  } else paintRiver(ctx, near, top, m, water, hi);
  for (const k of ['river', 'lake'] as const) drew(ctx, k, waterName(m, k));
}

/**
 * A river from the far land to the picture's bottom edge, one unbroken course widening as it nears
 * (decision 0098: its glints were whole rows every fourth line, a ladder of stripes): a bank a pixel
 * wide each side (a darker shore; for lava a crust of cooled rock), its body, a band of its deep (or,
 * for lava, its hottest) colour down the middle, and short glints scattered along the current.
 */
function paintRiver(
  ctx: Ctx,
  near: PixelCanvas,
  top: number,
  m: WaterMaterial,
  water: number,
  hi: number,
): void {
  const { w, h } = ctx;
  const r = ctx.vary('river');
  const c = WATER_COLOURS[m];
  const lava = m === 'lava';
  const middle = lava ? hi : waterPack(ctx, m, c.deep);
  const ground = unpack(near.px[Math.min(h - 1, Math.round(top + 2)) * w] || P([120, 120, 120]));
  const bank = lava ? P([62, 36, 34]) : P(darker(ground, 0.72));
  const phase = r.range(0, Math.PI * 2);
  // lava runs from the volcano's flow (its source) when the scene has one; else from the far land
  let src = lava ? ctx.lavaSource : undefined;
  // the ground hides the flow's foot: the river leaves the flow where it meets the ground
  const met = src && top < src.y ? src.xAt?.(Math.ceil(top)) : undefined;
  if (src && met !== undefined) src = { x: met, y: Math.ceil(top) };
  const y0 = src ? Math.min(src.y, top) : top;
  const courseAt = (y: number) => {
    const t = (y - y0) / (h - y0);
    const cx = w * (0.5 + 0.15 * Math.sin(t * 3 + phase * 0.3));
    if (!src) return { cx, half: w * (0.02 + 0.1 * t), t };
    // from the flow's foot, bending into its course over the first third
    const k = Math.min(1, t / 0.35);
    const ease = k * k * (3 - 2 * k);
    return { cx: src.x + (cx - src.x) * ease, half: Math.max(1, w * (0.006 + 0.11 * t)), t };
  };
  if (lava && ctx.light.time !== 'day')
    // its light follows it: small glows along the course, not one disc on the ground
    for (let t = 0.08; t < 1; t += 0.1) {
      const y = y0 + (h - y0) * t;
      const { cx, half } = courseAt(y);
      ctx.light.lights.push({ x: cx, y, r: Math.max(5, half * 1.7), color: [255, 140, 60] });
    }
  for (let y = Math.floor(y0); y < h; y++) {
    const { cx, half } = courseAt(y);
    near.rect(cx - half - 1, y, cx + half + 1, y + 1, bank);
    near.rect(cx - half, y, cx + half, y + 1, water);
    near.rect(cx - half * 0.3, y, cx + half * 0.3, y + 1, middle);
  }
  // glints: short dashes along the current, more where the river is wide
  const count = Math.round((h - y0) * 0.6);
  for (let k = 0; k < count; k++) {
    const y = Math.floor(r.range(y0 + 1, h));
    const { cx, half } = courseAt(y);
    const len = Math.max(1, Math.round(half * r.range(0.15, 0.35)));
    const x = Math.round(cx + r.range(-0.8, 0.8) * half - len / 2);
    if (x >= cx - half && x + len <= cx + half) near.rect(x, y, x + len, y + 1, lava ? P(c.deep) : hi);
  }
}

/**
 * A lake on the near ground (decision 0093: "a frozen lake is a flat ellipse"): an irregular shore
 * (the ellipse's radius wanders with the seed), a shore line a step darker than the ground round it
 * and a lit rim inside along the far edge; water has ripple dashes; ice has white cracks that branch,
 * patches of snow lying on it and a darker deep middle.
 */
function paintLake(ctx: Ctx, near: PixelCanvas, top: number, m: WaterMaterial): void {
  const { w, h } = ctx;
  const r = ctx.vary('lake');
  const cx = w * r.range(0.42, 0.62);
  const cy = top + (h - top) * r.range(0.42, 0.52);
  const rx = w * r.range(0.22, 0.32);
  const ry = (h - top) * r.range(0.24, 0.32);
  const wob = new Noise1D(r.fork('shore'), 6);
  const inside = (x: number, y: number, grow = 0) => {
    const a = Math.atan2((y - cy) / ry, (x - cx) / rx);
    const k = 0.82 + 0.3 * wob.fbm(((a + Math.PI) / (2 * Math.PI)) * 6, 3);
    return ((x - cx) / (rx * k + grow)) ** 2 + ((y - cy) / (ry * k + grow * 0.5)) ** 2 <= 1;
  };
  const c = WATER_COLOURS[m];
  const body = waterPack(ctx, m, c.body);
  const hi = waterPack(ctx, m, c.hi);
  const deep = waterPack(ctx, m, c.deep);
  const ground = unpack(near.px[Math.min(h - 1, Math.round(cy)) * w + 0] || P([120, 120, 120]));
  const shore = P(darker(ground, 0.8));
  const y0 = Math.max(0, Math.floor(cy - ry * 1.3));
  const y1 = Math.min(h - 1, Math.ceil(cy + ry * 1.3));
  const x0 = Math.max(0, Math.floor(cx - rx * 1.3));
  const x1 = Math.min(w - 1, Math.ceil(cx + rx * 1.3));
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      if (inside(x + 0.5, y + 0.5)) {
        // the deep middle, the body, and the rim: a pixel of light along the far (upper) shore
        const rim = !inside(x + 0.5, y - 0.5);
        const mid = ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 < 0.28;
        near.set(x, y, rim ? hi : mid ? deep : body);
      } else if (inside(x + 0.5, y + 0.5, 1.6)) near.set(x, y, shore);
    }
  if (m === 'ice') {
    // cracks: a few jagged lines that branch once, white; then patches of snow on the ice
    const crack = P(c.hi);
    for (let k = 0; k < 3 + Math.round(w / 160); k++) {
      let x = cx + rx * r.range(-0.6, 0.6);
      let y = cy + ry * r.range(-0.4, 0.4);
      let dir = r.range(0, Math.PI * 2);
      const len = Math.max(4, rx * r.range(0.25, 0.5));
      for (let t = 0; t < len; t++) {
        if (!inside(x, y)) break;
        near.set(Math.floor(x), Math.floor(y), crack);
        dir += r.range(-0.6, 0.6);
        x += Math.cos(dir);
        y += Math.sin(dir) * 0.5;
        if (t === Math.floor(len / 2)) {
          let bx = x;
          let by = y;
          const bd = dir + (r.chance(0.5) ? 0.9 : -0.9);
          for (let u = 0; u < len / 3 && inside(bx, by); u++) {
            near.set(Math.floor(bx), Math.floor(by), crack);
            bx += Math.cos(bd);
            by += Math.sin(bd) * 0.5;
          }
        }
      }
    }
    const snow = P([244, 248, 254]);
    const snowShade = P([214, 226, 240]);
    for (let k = 0; k < 2 + Math.round(w / 200); k++) {
      const sx = cx + rx * r.range(-0.7, 0.7);
      const sy = cy + ry * r.range(-0.5, 0.5);
      const sw = Math.max(2, rx * r.range(0.08, 0.18));
      const sh = Math.max(1, sw * 0.3);
      for (let y = Math.floor(sy - sh); y <= sy + sh; y++)
        for (let x = Math.floor(sx - sw); x <= sx + sw; x++)
          if (((x - sx) / sw) ** 2 + ((y - sy) / sh) ** 2 <= 1 && inside(x + 0.5, y + 0.5))
            near.set(x, y, y > sy + sh * 0.3 ? snowShade : snow);
    }
  } else
    for (let k = 0; k < 5 + Math.round(w / 80); k++) {
      const x = cx + rx * r.range(-0.6, 0.5);
      const y = Math.round(cy + ry * r.range(-0.5, 0.6));
      const len = Math.max(2, rx * r.range(0.06, 0.14));
      if (inside(x, y + 0.5) && inside(x + len, y + 0.5)) near.rect(x, y, x + len, y + 1, hi);
    }
}

/** Pools of still, dark water with the sky's glint, reeds and cattails at their edges. */
function paintSwampPools(ctx: Ctx, near: PixelCanvas, props: PixelCanvas, top: number): void {
  const { w, h, rng, light } = ctx;
  const pool = P([44, 70, 62]);
  const glint = P(mixRgb(light.sky[2]!, [44, 70, 62], 0.5));
  ctx.wet.add(pool).add(glint);
  const reed = P([70, 110, 56]);
  const cattail = P([110, 72, 44]);
  const pools = Math.max(2, Math.round(w / 90));
  for (let k = 0; k < pools; k++) {
    const cx = w * ((k + rng.range(0.3, 0.7)) / pools);
    const cy = top + (h - top) * rng.range(0.35, 0.65);
    const rx = w * rng.range(0.12, 0.2);
    const ry = Math.max(2, (h - top) * 0.16);
    near.ellipse(cx, cy, rx, ry, pool);
    for (let j = 0; j < 3; j++)
      near.rect(
        cx - rx * 0.5 + j * rx * 0.3,
        cy - ry * 0.3 + j,
        cx - rx * 0.35 + j * rx * 0.3,
        cy - ry * 0.3 + j + 1,
        glint,
      );
    for (let j = 0; j < 5; j++) {
      const rx0 = cx + (j % 2 ? 1 : -1) * rx * rng.range(0.7, 1);
      const len = Math.max(4, (h - top) * rng.range(0.25, 0.45));
      props.rect(rx0, cy - len, rx0 + 1, cy, reed);
      if (j % 2 === 0) props.rect(rx0 - 0.5, cy - len, rx0 + 1.5, cy - len + Math.max(2, len * 0.3), cattail);
    }
  }
}

/** Grassy settings, where flowers and grass tufts grow unasked. */
const FLOWER_SETTINGS = new Set<Setting>(['grassland', 'village', 'forest']);

/** Flowers and grass tufts on grassy land. */
function paintFlowers(ctx: Ctx, near: PixelCanvas, top: number): void {
  const { w, h, rng } = ctx;
  const colours = [P([240, 90, 110]), P([250, 220, 90]), P([240, 240, 250]), P([170, 120, 230])];
  const count = Math.round((w * (h - top)) / (ctx.has('flowers') ? 90 : 400));
  for (let i = 0; i < count; i++) {
    const x = rng.range(0, w);
    const y = rng.range(top + 2, h - 1);
    near.rect(x, y, x + 2, y + 2, colours[i % colours.length]!);
  }
  drew(ctx, 'flowers', 'flowers');
}

/** A named thing that stands on the ground, from the licensed drawings (`lamp` is drawn here). */
interface GroundProp {
  kind: ElementKind;
  id: string;
  scale: number;
  xs: number[];
  fill?: RGB;
}

const spread = (n: number, lo: number, hi: number) =>
  Array.from({ length: n }, (_, i) => lo + ((i + 0.5) / n) * (hi - lo));

/** The things that stand on the near ground, when the prompt (or the setting) asks for them, in drawing order. */
const GROUND_PROPS: ReadonlyArray<{
  when: (ctx: Ctx) => boolean;
  place: (w: number, h: number) => GroundProp;
}> = [
  {
    when: (ctx) => ctx.has('palms'),
    place: (w, h) => ({
      kind: 'palms',
      id: 'palm',
      scale: 0.5,
      xs: w > h * 1.3 ? [0.12, 0.3, 0.86] : [0.18, 0.82],
    }),
  },
  {
    // a desert's own cacti, unless its pyramids or an oasis's palms stand there (a cactus beside a
    // palm reads as one muddled plant)
    when: (ctx) =>
      ctx.has('cacti') ||
      // nor on a volcano's waste (decision 0135: "a volcanic wasteland" grew cacti)
      (ctx.req.setting === 'desert' && !ctx.has('pyramids') && !ctx.has('palms') && !ctx.has('volcano')),
    place: () => ({ kind: 'cacti', id: 'f/cactus', scale: 0.26, xs: [0.2, 0.78] }),
  },
  {
    when: (ctx) => ctx.has('rocks'),
    place: () => ({ kind: 'rocks', id: 'f/rock', scale: 0.14, xs: [0.15, 0.7] }),
  },
  {
    when: (ctx) => ctx.has('mushrooms'),
    place: () => ({ kind: 'mushrooms', id: 'f/mushroom', scale: 0.12, xs: [0.25, 0.6, 0.8] }),
  },
  {
    when: (ctx) => ctx.has('tents'),
    place: () => ({ kind: 'tents', id: 'f/tent', scale: 0.22, xs: [0.65] }),
  },
  {
    when: (ctx) => ctx.has('campfire'),
    place: () => ({ kind: 'campfire', id: 'x/campfire', scale: 0.16, xs: [0.45] }),
  },
  {
    when: (ctx) => ctx.has('snowman'),
    place: () => ({ kind: 'snowman', id: 'f/snowman', scale: 0.24, xs: [0.7] }),
  },
  {
    when: (ctx) => ctx.has('graves'),
    place: (w, h) => ({
      kind: 'graves',
      id: 'tombstone',
      scale: 0.13,
      xs: w > h ? [0.14, 0.3, 0.47, 0.63, 0.8, 0.93] : [0.2, 0.5, 0.8],
    }),
  },
  {
    when: (ctx) => ctx.has('fence'),
    place: (w) => ({
      kind: 'fence',
      id: 'g/wooden-fence',
      scale: 0.12,
      xs: spread(Math.max(3, Math.round(w / 40)), 0.05, 0.95),
      fill: [150, 102, 62],
    }),
  },
  {
    // a city's own street lamps at night, unless it is seen from a roof or a balcony (their heads
    // showed over the roof's edge as floating lights)
    when: (ctx) =>
      ctx.has('street-lamps') ||
      (ctx.req.setting === 'city' && ctx.light.time === 'night' && !ctx.req.viewpoint),
    place: () => ({ kind: 'street-lamps', id: 'lamp', scale: 0.3, xs: [0.2, 0.8] }),
  },
  {
    when: (ctx) => ctx.has('torches'),
    place: () => ({ kind: 'torches', id: 'x/torch', scale: 0.22, xs: [0.3, 0.7] }),
  },
  {
    when: (ctx) => ctx.has('lanterns'),
    place: () => ({
      kind: 'lanterns',
      id: 'lantern',
      scale: 0.12,
      xs: [0.35, 0.65],
    }),
  },
];

/** Stands one ground prop at each of its places; fires, torches and lanterns give light, street lamps too. */
async function placeGroundProp(
  ctx: Ctx,
  props: PixelCanvas,
  top: number,
  p: GroundProp,
  /** The row every one stands on (a ledge), else rows staggered on the ground. */
  atY?: number,
): Promise<void> {
  const { w, h, light } = ctx;
  const size = h * p.scale;
  let img: RgbaImage | null = null;
  if (p.id !== 'lamp' && p.id !== 'palm' && p.id !== 'tombstone' && p.kind !== 'lanterns')
    img = await prop(ctx, p.id, size, p.fill);
  const graves = ctx.vary('graves');
  for (const [k, fx] of p.xs.entries()) {
    // where it stands: its place, or the nearest free one (a cactus in front of a palm's trunk, a
    // fish on a fish, reads as one muddled thing)
    const half = p.id === 'palm' ? size * 0.12 : p.id === 'lamp' ? size * 0.25 : (img?.width ?? 0) / 2;
    const y = atY ?? top + (h - top) * (0.2 + 0.15 * (k % 2));
    const x = freeSpot(ctx, fx * w, half, y);
    if (p.id === 'palm') {
      // each palm its own height and lean (a row of one palm copied is a stamp)
      const lean = (fx < 0.5 ? 1 : -1) * ctx.rng.range(0.08, 0.24);
      palm(props, x, y, size * ctx.rng.range(0.8, 1.12), lean, light.ambient);
      continue;
    }
    if (p.id === 'tombstone') {
      // each its own shape, size and place a little off the line (a stamped row reads as a pattern),
      // and (decision 0135) its own lean, chips, cracks and moss; the back row smaller and hazier
      const gx = x + graves.range(-0.03, 0.03) * w;
      const gy = y + graves.range(-1, 2);
      const back = k % 2 === 0;
      const sz = size * graves.range(0.75, 1.15) * (back ? 0.82 : 1.08);
      const lightOf = back ? (c: RGB) => mixRgb(light.ambient(c), light.haze, 0.18) : light.ambient;
      const stoneLayer = new PixelCanvas(w, h);
      tombstone(stoneLayer, gx, gy, sz, graves, lightOf);
      weatherStone(stoneLayer, props, gx, gy, sz, ctx.detail(`tombstone-${k}`), lightOf);
      continue;
    }
    if (p.kind === 'lanterns') {
      standingLantern(ctx, props, x, y, size);
      continue;
    }
    if (p.id === 'lamp') {
      // a street lamp: a post and a lit head
      const post = P([40, 40, 52]);
      props.rect(x - 1, y - size, x + 1, y, post);
      props.rect(x - 1, y - size, x + size * 0.2, y - size + 2, post);
      props.rect(x + size * 0.12, y - size + 2, x + size * 0.24, y - size + 4, P([255, 236, 160]));
      light.lights.push({ x: x + size * 0.18, y: y - size + 3, r: size * 0.7, color: [255, 230, 150] });
      continue;
    }
    if (!img) continue;
    const fire = p.kind === 'campfire' || p.kind === 'torches';
    if (fire) keepFlames(ctx, img);
    stand(props, img, x, y, fire ? undefined : light.ambient);
    if (fire)
      light.lights.push({
        x,
        y: y - img.height * 0.75,
        r: Math.max(img.height * 1.8, 6),
        color: [255, 170, 70],
      });
  }
  drew(
    ctx,
    p.kind,
    p.id === 'lamp'
      ? 'street lamps'
      : p.id === 'lantern'
        ? 'lanterns'
        : p.id === 'palm'
          ? 'palm trees'
          : p.id === 'tombstone'
            ? 'tombstones'
            : p.id,
    p.id === 'lamp' || p.id === 'palm' || p.id === 'tombstone' || p.kind === 'lanterns' || img !== null,
  );
}

/**
 * A lantern standing at x, y, `size` tall (decision 0098: the drawn old lantern was a dull brown pot
 * at a scene's size, its dark panes reading as a face inside its glow): a dark iron cap and ring, a
 * lit glass body with a bright flame down its middle and the frame's bars, a foot; it gives light.
 */
function standingLantern(ctx: Ctx, props: PixelCanvas, x: number, y: number, size: number): void {
  const iron = P([44, 38, 40]);
  const ironHi = P([92, 84, 80]);
  const glass = G(ctx, [255, 196, 96]);
  const flame = G(ctx, [255, 244, 190]);
  const bw = Math.max(3, Math.round(size * 0.42)) | 1;
  const bh = Math.max(4, Math.round(size * 0.5));
  const x0 = Math.round(x - bw / 2);
  const foot = Math.round(y);
  const bodyTop = foot - 1 - bh;
  // foot, glass body in its frame, cap, ring
  props.rect(x0 - 1, foot - 1, x0 + bw + 1, foot, iron);
  props.rect(x0, bodyTop, x0 + bw, foot - 1, iron);
  props.rect(x0 + 1, bodyTop + 1, x0 + bw - 1, foot - 2, glass);
  const mid = x0 + (bw >> 1);
  props.rect(mid, bodyTop + Math.round(bh * 0.35), mid + 1, foot - 2, flame);
  props.rect(x0 - 1, bodyTop - 1, x0 + bw + 1, bodyTop, iron);
  props.rect(x0 + 1, bodyTop - 2, x0 + bw - 1, bodyTop - 1, iron);
  props.rect(x0 + 1, bodyTop - 1, x0 + bw - 1, bodyTop, ironHi);
  const ring = Math.max(1, Math.round(bw * 0.25));
  props.rect(mid - ring, bodyTop - 3 - ring, mid + ring + 1, bodyTop - 2, iron);
  props.rect(mid - ring + 1, bodyTop - 2 - ring, mid + ring, bodyTop - 2, 0);
  ctx.light.lights.push({
    x: mid + 0.5,
    y: bodyTop + bh * 0.55,
    r: Math.max(8, size * 1.6),
    color: [255, 190, 100],
  });
}

/**
 * A tombstone `size` tall standing at x, y: a round-topped slab, a stone cross or a pointed one, grey
 * stone lit from the left with a shaded right edge and a darker base; its marking is a cross or
 * engraved lines, never dots (decision 0093: the drawn headstone's marks read as a face).
 */
function tombstone(
  layer: PixelCanvas,
  x: number,
  y: number,
  size: number,
  r: Rng,
  lightOf: (c: RGB) => RGB,
): void {
  const stoneC: RGB = r.pick([
    [150, 150, 158],
    [132, 136, 140],
    [160, 154, 146],
  ] as RGB[]);
  const stone = P(lightOf(stoneC));
  const lit = P(lightOf(lighter(stoneC, 0.22)));
  const shade = P(lightOf(darker(stoneC, 0.72)));
  const carve = P(lightOf(darker(stoneC, 0.58)));
  const ground = P(lightOf([70, 72, 62]));
  const hw = Math.max(2, Math.round(size * r.range(0.26, 0.36)));
  const tall = Math.max(4, Math.round(size * r.range(0.75, 1)));
  const shape = r.pick(['round', 'round', 'cross', 'point'] as const);
  const x0 = Math.round(x - hw);
  const x1 = Math.round(x + hw);
  const top = Math.round(y - tall);
  if (shape === 'cross') {
    const arm = Math.max(1, Math.round(hw * 0.45));
    const barY = top + Math.max(2, Math.round(tall * 0.28));
    layer.rect(x - arm, top, x + arm, y, stone);
    layer.rect(x0, barY, x1, barY + Math.max(2, arm * 1.4), stone);
    layer.rect(x - arm, top, x - arm + 1, y, lit);
    layer.rect(x + arm - 1, top, x + arm, y, shade);
    layer.rect(x1 - 1, barY, x1, barY + Math.max(2, arm * 1.4), shade);
  } else {
    // the slab, its top rounded or pointed
    for (let yy = top; yy < y; yy++) {
      const d = yy - top;
      const inset =
        shape === 'round'
          ? d < hw
            ? Math.round(hw - Math.sqrt(Math.max(0, hw * hw - (hw - d - 0.5) ** 2)))
            : 0
          : d < hw
            ? hw - d
            : 0;
      const a = x0 + inset;
      const b = x1 - inset;
      if (b <= a) continue;
      layer.rect(a, yy, b, yy + 1, stone);
      layer.set(a, yy, lit);
      layer.set(b - 1, yy, shade);
    }
    // the marking: a carved cross, or two engraved lines (an epitaph), centred in the upper half
    const my = top + Math.max(hw * 0.7, tall * 0.3);
    if (r.chance(0.5) && tall >= 7) {
      const cy = Math.round(my);
      const arm = Math.max(1, Math.round(hw * 0.4));
      layer.rect(Math.round(x) - 1, cy - arm, Math.round(x), cy + arm * 1.8, carve);
      layer.rect(Math.round(x) - arm, cy, Math.round(x) + arm - 1, cy + 1, carve);
    } else {
      const lw = Math.max(1, Math.round(hw * 0.55));
      for (let k = 0; k < (tall >= 9 ? 2 : 1); k++) {
        const ly = Math.round(my + k * Math.max(2, tall * 0.18));
        layer.rect(Math.round(x) - lw, ly, Math.round(x) + lw - (k ? 1 : 0), ly + 1, carve);
      }
    }
  }
  // its foot in the grass: a dark band
  layer.rect(x0 - 1, y - 1, x1 + 1, y + 1, ground);
}

/**
 * A tombstone's weathering, copied onto `layer` (decision 0135: a graveyard's stones read as one
 * stamp): it leans a little one way or the other (its rows shear about its foot), a corner chipped
 * off, a crack down its face, moss at its foot.
 */
function weatherStone(
  stone: PixelCanvas,
  layer: PixelCanvas,
  x: number,
  y: number,
  size: number,
  d: Rng,
  lightOf: (c: RGB) => RGB,
): void {
  const { w, h } = stone;
  const x0 = Math.max(0, Math.floor(x - size));
  const x1 = Math.min(w, Math.ceil(x + size));
  const y0 = Math.max(0, Math.floor(y - size * 1.3));
  const y1 = Math.min(h, Math.ceil(y + 2));
  let top = y1;
  for (let yy = y0; yy < y1 && top === y1; yy++)
    for (let xx = x0; xx < x1; xx++) if (stone.px[yy * w + xx]) top = yy;
  if (top >= y1) return;
  const crack = P(lightOf([70, 70, 76]));
  const moss = P(
    lightOf(
      d.pick([
        [84, 110, 60],
        [100, 120, 70],
      ] as RGB[]),
    ),
  );
  // a crack from near the top down and across, three to five pixels
  if (d.chance(0.55) && y - top >= 8) {
    let cx = Math.round(x + d.range(-0.2, 0.2) * size);
    const dir = d.chance(0.5) ? 1 : -1;
    for (let k = 0, cy = top + 2; k < d.int(3, 5); k++, cy++) {
      if (stone.px[cy * w + cx] && stone.px[cy * w + cx + 1] && stone.px[cy * w + cx - 1])
        stone.px[cy * w + cx] = crack;
      if (d.chance(0.5)) cx += dir;
    }
  }
  // a chipped top corner
  if (d.chance(0.5))
    for (let xx = x0; xx < x1; xx++) {
      const side = d.chance(0.5);
      const at = side ? x1 - 1 - (xx - x0) : xx;
      if (stone.px[top * w + at]) {
        stone.px[top * w + at] = 0;
        break;
      }
    }
  // moss on its foot
  for (let k = 0; k < d.int(1, 4); k++) {
    const mx = Math.round(x + d.range(-0.3, 0.3) * size);
    const my = Math.round(y - 2 - d.int(0, 1));
    if (my >= 0 && my < h && stone.px[my * w + mx]) stone.px[my * w + mx] = moss;
  }
  // the lean: each row shifted by its height over the foot
  const lean = d.range(-0.16, 0.16);
  for (let yy = y0; yy < y1; yy++)
    for (let xx = x0; xx < x1; xx++) {
      const v = stone.px[yy * w + xx];
      if (!v) continue;
      layer.set(xx + Math.round(lean * Math.max(0, y - 1 - yy)), yy, v);
    }
}

/**
 * The nearest x to `x` where a thing `half` wide each side stands clear of what already stands (a
 * pixel or two apart), inside the picture and — when its feet's row `y` is given — on dry ground
 * (decision 0098: a cactus stood in the oasis's pool), searched outwards in steps of a fortieth of
 * the width; the span is then reserved. Where nothing is free it stands at `x`.
 */
function freeSpot(ctx: Ctx, x: number, half: number, y?: number): number {
  const { w } = ctx;
  const gap = Math.max(2, w * 0.01);
  const near = ctx.nearLayer;
  // its feet: the rows at its base, a pixel or two beyond each side, on no water
  const dry = (at: number) => {
    if (y === undefined || !near || ctx.wet.size === 0) return true;
    for (let fy = Math.floor(y) - 1; fy <= Math.floor(y) + 2; fy++)
      for (let fx = Math.floor(at - half) - 1; fx <= Math.ceil(at + half) + 1; fx++) {
        if (fx < 0 || fy < 0 || fx >= w || fy >= near.h) continue;
        if (ctx.wet.has(near.px[fy * w + fx]!)) return false;
      }
    return true;
  };
  const clear = (at: number) =>
    at - half >= 1 &&
    at + half <= w - 1 &&
    ctx.stood.every(([a, b]) => at + half + gap <= a || at - half - gap >= b) &&
    dry(at);
  const step = Math.max(1, w / 40);
  let at = x;
  for (let k = 0; k <= 24; k++) {
    const tries = k === 0 ? [x] : [x + k * step, x - k * step];
    const hit = tries.find(clear);
    if (hit !== undefined) {
      at = hit;
      break;
    }
  }
  ctx.stood.push([at - half, at + half]);
  return at;
}

/**
 * A palm tree: a slim ringed trunk that curves up to one crown point (`lean` of its height sideways),
 * fronds springing from that point and drooping in arcs, each with leaflets hanging from its
 * underside (lit above, darker below), and coconuts under the crown — not a round leafy dome.
 */
function palm(
  layer: PixelCanvas,
  x: number,
  y: number,
  size: number,
  lean: number,
  light: (c: RGB) => RGB,
): void {
  const c = (rgb: RGB) => P(light(rgb));
  const bark = c([150, 112, 74]);
  const barkDark = c([104, 76, 52]);
  const barkLit = c([190, 150, 104]);
  const leaf = c([58, 150, 64]);
  const leafLit = c([120, 196, 84]);
  const leafDark = c([30, 96, 50]);
  const nut = c([96, 64, 36]);
  const tx = x + lean * size;
  const ty = y - size;
  // the trunk: a curve bending towards its lean near the top, thinner as it rises, ringed
  const steps = Math.max(4, Math.ceil(size));
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const px = x + (tx - x) * t * t;
    const py = y + (ty - y) * t;
    const half = Math.max(0.6, size * (0.055 - 0.025 * t));
    const ring = Math.floor(py) % 3 === 0;
    layer.rect(px - half, py, px + half + 0.01, py + 1, ring ? barkDark : bark);
    if (!ring && half >= 1) layer.set(px - half + 0.5, py, barkLit);
  }
  // the fronds: angles from the crown (0 is to the right), each an arc that droops at its end
  const fronds: Array<[number, number]> = [
    [-178, 0.5],
    [-150, 0.46],
    [-118, 0.34],
    [-62, 0.34],
    [-30, 0.46],
    [-2, 0.5],
    [-92, 0.26],
  ];
  const stroke = Math.max(1, size * 0.035);
  for (const [deg, len] of fronds) {
    const a = (deg * Math.PI) / 180;
    const L = len * size;
    const n = Math.max(4, Math.ceil(L));
    let [qx, qy] = [tx, ty];
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      const nx = tx + Math.cos(a) * L * t;
      // the frond rises from the crown, then droops under its own weight
      const ny = ty + Math.sin(a) * L * t + 0.75 * L * t * t;
      const w = t < 0.6 ? stroke : 1;
      layer.line(qx, qy, nx, ny, leaf, w);
      // leaflets hang from it, shorter towards the tip; the top edge lit
      if (i % 2 === 0 && t > 0.15) {
        const hang = Math.max(1, size * 0.09 * (1 - t * 0.6));
        layer.line(nx, ny + 1, nx + Math.cos(a) * hang * 0.35, ny + hang, leafDark, 1);
      }
      layer.set(qx, qy - 1 + (w > 1 ? 0 : 1), leafLit);
      [qx, qy] = [nx, ny];
    }
  }
  // coconuts under the crown
  const r = Math.max(0.8, size * 0.035);
  layer.disc(tx - r * 1.2, ty + r * 1.3, r, nut);
  layer.disc(tx + r * 1.1, ty + r * 1.5, r, nut);
}

function paintFireflies(ctx: Ctx, props: PixelCanvas, top: number): void {
  const { w, h, rng } = ctx;
  const fly = P([220, 255, 120]);
  const count = Math.max(6, Math.round((w * h) / 1400));
  for (let i = 0; i < count; i++) {
    const x = rng.range(0, w);
    const y = rng.range(top - h * 0.25, h - 2);
    props.rect(x, y, x + Math.max(1, w / 200), y + Math.max(1, w / 200), fly);
  }
  drew(ctx, 'fireflies', 'fireflies');
}

/** The near ground and what stands on it; an open ocean has none. */
async function paintNear(
  ctx: Ctx,
  near: PixelCanvas,
  props: PixelCanvas,
  groundY: number,
  land: Land,
): Promise<void> {
  const s = ctx.req.setting;
  if (s === 'ocean') return;
  ctx.nearLayer = near;
  paintGroundStrip(ctx, near, groundY, land);
  const top = groundY;
  if (s === 'city') paintStreetLanes(ctx, near, top);
  if (ctx.has('road')) paintRoad(ctx, near, top);
  if (ctx.has('river') || ctx.has('lake')) paintWaterCourse(ctx, near, top);
  if (s === 'swamp') paintSwampPools(ctx, near, props, top);
  if (ctx.has('wheat')) paintWheat(ctx, near, top);
  // a graveyard's grass has no meadow flowers unless the words ask for them
  else if ((FLOWER_SETTINGS.has(s) && !ctx.has('graves')) || ctx.has('flowers')) paintFlowers(ctx, near, top);
  for (const g of GROUND_PROPS)
    if (g.when(ctx) && !(ctx.req.viewpoint && ON_THE_LEDGE.has(g.place(ctx.w, ctx.h).kind)))
      await placeGroundProp(ctx, props, top, g.place(ctx.w, ctx.h));
  if (ctx.has('fireflies')) paintFireflies(ctx, props, top);
}

/**
 * Lights the prompt names that stand on the ledge a scene is seen from — a roof's edge, a balcony's
 * rail — not on the street below it (decision 0098: "city rooftops with lanterns" hid the lanterns
 * behind the roof's edge, their tops and glows peeping over it like faces).
 */
const ON_THE_LEDGE = new Set<ElementKind>(['lanterns', 'torches']);

/** Stands the lights of ON_THE_LEDGE on the viewpoint's ledge (ctx.groundY once it is drawn). */
async function paintLedgeLights(ctx: Ctx, props: PixelCanvas): Promise<void> {
  if (!ctx.req.viewpoint) return;
  for (const g of GROUND_PROPS) {
    const p = g.place(ctx.w, ctx.h);
    if (g.when(ctx) && ON_THE_LEDGE.has(p.kind))
      await placeGroundProp(ctx, props, ctx.groundY, p, ctx.groundY);
  }
}

/**
 * Where the picture is seen from (issue #39): a balcony's balustrade on its stone floor, or a roof's
 * edge with a chimney, across the foreground in front of everything else, lit by the scene's light.
 */
function paintViewpoint(ctx: Ctx, props: PixelCanvas): string | null {
  const { w, h, light, req } = ctx;
  const view = req.viewpoint;
  if (!view) return null;
  const lit = (c: RGB) => P(light.ambient(c));
  if (view.kind === 'balcony') {
    const stoneC: RGB = [218, 208, 190];
    const stone = lit(stoneC);
    const shade = lit(darker(stoneC, 0.78));
    const edge = lit(lighter(stoneC, 0.3));
    const railTop = Math.round(h * 0.7);
    const rail = Math.max(2, Math.round(h * 0.035));
    const foot = Math.round(h * 0.9);
    props.rect(0, railTop, w, railTop + rail, stone);
    props.rect(0, railTop, w, railTop + 1, edge);
    props.rect(0, railTop + rail - 1, w, railTop + rail, shade);
    const step = Math.max(5, Math.round(w / 22));
    const bw = Math.max(2, Math.round(step * 0.45));
    for (let x = Math.round(step / 3); x < w; x += step) {
      // a baluster: a vase shape, a lit left side and a shaded right one
      props.rect(x, railTop + rail, x + bw, foot, stone);
      // the vase's belly only where a baluster is wide enough to show it
      if (step >= 8)
        props.rect(x - 1, railTop + rail + (foot - railTop - rail) * 0.45, x + bw + 1, foot - 2, stone);
      props.rect(x + bw - 1, railTop + rail, x + bw, foot, shade);
      props.rect(x, railTop + rail, x + 1, foot, edge);
    }
    props.rect(0, foot, w, foot + Math.max(2, h * 0.02), stone);
    props.rect(0, foot + Math.max(2, h * 0.02), w, h, lit([150, 122, 104]));
    ctx.groundY = foot;
    return 'seen from a balcony (balustrade)';
  }
  const slateC: RGB = req.setting === 'city' ? [128, 130, 148] : [168, 88, 64];
  const ledge = Math.round(h * 0.72);
  props.rect(0, ledge, w, h, lit(slateC));
  // the roof's courses of tiles (decision 0146: "a flat empty roof strip"): each course's lower edge in
  // shade with a lit row under it (the next course's top), its joints staggered course to course,
  // the courses deeper towards the viewer
  let course = 0;
  for (let y = ledge + 3; y < h; course++) {
    const depth = Math.max(3, Math.round((h / 40) * (1 + (0.8 * (y - ledge)) / Math.max(1, h - ledge))));
    props.rect(0, y, w, y + 1, lit(darker(slateC, 0.72)));
    if (y + 1 < h) props.rect(0, y + 1, w, y + 2, lit(lighter(slateC, 0.1)));
    const joint = Math.max(6, Math.round(w / 30));
    const off = course % 2 ? Math.round(joint / 2) : 0;
    for (let x = off; x < w; x += joint) props.rect(x, y - depth + 2, x + 1, y, lit(darker(slateC, 0.82)));
    y += depth;
  }
  const capC: RGB = [214, 208, 196];
  const capH = Math.max(2, h * 0.02);
  props.rect(0, ledge - capH, w, ledge + 1, lit(capC));
  props.rect(0, ledge - capH, w, ledge - capH + 1, lit(lighter(capC, 0.3)));
  // the cap's joints and its shadow on the tiles under it
  for (let x = Math.round(w * 0.07); x < w; x += Math.max(8, Math.round(w / 9)))
    props.rect(x, ledge - capH + 1, x + 1, ledge + 1, lit(darker(capC, 0.8)));
  props.rect(0, ledge + 1, w, ledge + 2, lit(darker(slateC, 0.6)));
  if (req.setting === 'city' && w >= 64) paintRoofFurniture(ctx, props, ledge);
  else {
    // a chimney on the roof, brick, with a cap
    const cx = w * 0.12;
    const cw = Math.max(4, w * 0.05);
    props.rect(cx, ledge - h * 0.16, cx + cw, ledge, lit([150, 80, 60]));
    props.rect(cx + cw - 1, ledge - h * 0.16, cx + cw, ledge, lit([110, 56, 44]));
    props.rect(cx - 1, ledge - h * 0.17, cx + cw + 1, ledge - h * 0.15, lit([90, 86, 90]));
  }
  ctx.groundY = ledge - Math.max(2, h * 0.02);
  return 'seen from a rooftop (roof edge)';
}

/**
 * A city roof's furniture, standing on the tiles in front of the roof's edge, placed by the seed
 * (decision 0146: a city roof at night was "a flat empty roof strip with one chimney"): a brick
 * chimney with its cap, a water tower (a stave tank banded in iron on a trestle of legs, under a
 * conical hat), an antenna mast with its crossbars and a red light at its tip, and a vent (a box with
 * louvres, a pipe with a cowl). Each is lit from the upper left by the scene's light.
 */
function paintRoofFurniture(ctx: Ctx, props: PixelCanvas, ledge: number): void {
  const { w, h, light } = ctx;
  const lit = (c: RGB) => P(light.ambient(c));
  const r = ctx.detail('roof-furniture');
  const foot = ledge + Math.max(2, Math.round(h * 0.04));
  const iron: RGB = [70, 72, 84];
  // the four in an order of the seed, each in its own fifth of the width
  const slots = [0.1, 0.3, 0.52, 0.76].map((f) => f + r.range(-0.04, 0.04));
  const kinds: Array<'chimney' | 'tower' | 'antenna' | 'vent'> = ['chimney', 'tower', 'antenna', 'vent'];
  for (let k = kinds.length - 1; k > 0; k--) {
    const j = r.int(0, k);
    [kinds[k], kinds[j]] = [kinds[j]!, kinds[k]!];
  }
  kinds.forEach((kind, k) => {
    const cx = Math.round(w * slots[k]!);
    if (kind === 'chimney') {
      const cw = Math.max(4, Math.round(w * 0.05));
      const ch = Math.round(h * r.range(0.13, 0.18));
      const brick: RGB = [150, 80, 60];
      props.rect(cx, foot - ch, cx + cw, foot, lit(brick));
      props.rect(cx, foot - ch, cx + 1, foot, lit(lighter(brick, 0.2)));
      props.rect(cx + cw - 1, foot - ch, cx + cw, foot, lit(darker(brick, 0.72)));
      for (let y = foot - ch + 3; y < foot; y += 3)
        props.rect(cx + 1, y, cx + cw - 1, y + 1, lit(darker(brick, 0.82)));
      props.rect(cx - 1, foot - ch - 2, cx + cw + 1, foot - ch, lit([90, 86, 90]));
    } else if (kind === 'tower') {
      const tw = Math.max(6, Math.round(w * 0.09));
      const legs = Math.round(h * 0.08);
      const th = Math.round(tw * 1.1);
      const x0 = cx - Math.round(tw / 2);
      const tankBottom = foot - legs;
      // the trestle: two legs splayed, a cross brace
      props.line(x0 + 1, tankBottom, x0 - 1, foot, lit(iron));
      props.line(x0 + tw - 2, tankBottom, x0 + tw, foot, lit(iron));
      props.line(x0, tankBottom + legs * 0.3, x0 + tw - 1, foot - 2, lit(darker(iron, 0.8)));
      props.line(x0 + tw - 1, tankBottom + legs * 0.3, x0, foot - 2, lit(darker(iron, 0.8)));
      // the tank: staves lit on the left, shaded on the right, iron hoops across it
      const wood: RGB = [120, 82, 56];
      props.rect(x0, tankBottom - th, x0 + tw, tankBottom, lit(wood));
      props.rect(
        x0,
        tankBottom - th,
        x0 + Math.max(1, Math.round(tw * 0.25)),
        tankBottom,
        lit(lighter(wood, 0.18)),
      );
      props.rect(
        x0 + tw - Math.max(1, Math.round(tw * 0.3)),
        tankBottom - th,
        x0 + tw,
        tankBottom,
        lit(darker(wood, 0.72)),
      );
      for (let x = x0 + 2; x < x0 + tw - 1; x += 2)
        props.rect(x, tankBottom - th, x + 1, tankBottom, lit(darker(wood, 0.86)));
      for (const f of [0.25, 0.7]) {
        const y = Math.round(tankBottom - th * f);
        props.rect(x0, y, x0 + tw, y + 1, lit(iron));
      }
      // the conical hat, a finial
      const hat = Math.max(3, Math.round(tw * 0.45));
      for (let k = 0; k < hat; k++) {
        const half = (tw / 2 + 1) * (1 - k / hat);
        const y = tankBottom - th - 1 - k;
        props.rect(cx - half, y, cx + half, y + 1, lit(darker(wood, 0.62)));
        props.rect(cx - half, y, cx - half + 1, y + 1, lit(darker(wood, 0.9)));
      }
      props.rect(cx, tankBottom - th - hat - 2, cx + 1, tankBottom - th - hat, lit(iron));
    } else if (kind === 'antenna') {
      const ah = Math.round(h * r.range(0.22, 0.3));
      props.rect(cx, foot - ah, cx + 1, foot, lit([150, 152, 164]));
      props.rect(cx - 2, foot - 2, cx + 3, foot, lit(iron));
      for (const [f, half] of [
        [0.25, 4],
        [0.45, 3],
        [0.62, 2],
      ] as const) {
        const y = Math.round(foot - ah + ah * f);
        props.rect(cx - half, y, cx + half + 1, y + 1, lit([130, 132, 146]));
      }
      // the warning light at its tip: lit at night
      props.set(
        cx,
        Math.round(foot - ah) - 1,
        light.time === 'night' ? G(ctx, [255, 60, 50]) : lit([200, 50, 40]),
      );
      if (light.time === 'night')
        light.lights.push({ x: cx, y: foot - ah - 1, r: Math.max(3, w * 0.02), color: [255, 60, 50] });
    } else {
      // a vent box with louvres, and a pipe with a cowl beside it
      const vw = Math.max(6, Math.round(w * 0.08));
      const vh = Math.max(4, Math.round(vw * 0.6));
      const metal: RGB = [150, 154, 166];
      props.rect(cx, foot - vh, cx + vw, foot, lit(metal));
      props.rect(cx, foot - vh, cx + vw, foot - vh + 1, lit(lighter(metal, 0.2)));
      props.rect(cx + vw - 1, foot - vh, cx + vw, foot, lit(darker(metal, 0.7)));
      for (let y = foot - vh + 2; y < foot - 1; y += 2)
        props.rect(cx + 1, y, cx + vw - 2, y + 1, lit(darker(metal, 0.6)));
      const px = cx + vw + 2;
      const ph = vh + Math.max(2, Math.round(h * 0.03));
      props.rect(px, foot - ph, px + 2, foot, lit(metal));
      props.rect(px + 1, foot - ph, px + 2, foot, lit(darker(metal, 0.72)));
      props.rect(px - 1, foot - ph - 2, px + 3, foot - ph, lit(darker(metal, 0.8)));
    }
  });
}

/**
 * A field of wheat over the near ground (issue #39: "wheat" was dropped): golden rows of stalks running
 * towards the horizon, each row a lit band and a shaded one, ears dotted along the lit band.
 */
function paintWheat(ctx: Ctx, near: PixelCanvas, top: number): void {
  const { w, h } = ctx;
  const gold: RGB = [224, 184, 84];
  const body = P(gold);
  const lit = P(lighter(gold, 0.3));
  const shade = P(darker(gold, 0.78));
  const ear = P([246, 214, 120]);
  for (let y = Math.floor(top) + 1; y < h; y++) {
    const t = (y - top) / Math.max(1, h - top);
    // rows get taller towards the viewer
    const row = Math.max(2, Math.round(2 + t * 5));
    const band = Math.floor((y - top) / row) % 2;
    near.rect(0, y, w, y + 1, band ? shade : body);
    if (!band && (y - top) % row === 0) {
      near.rect(0, y, w, y + 1, lit);
      for (let x = (y * 3) % 5; x < w; x += Math.max(3, Math.round(4 - t * 2))) near.set(x, y - 1, ear);
    }
  }
  drew(ctx, 'wheat', 'wheat field');
}

/** Records how an element of the prompt was drawn (a painter that draws it unasked records nothing). */
function drew(ctx: Ctx, kind: ElementKind, as: string, ok = true): void {
  if (ok && ctx.has(kind) && !ctx.drawn.has(kind)) ctx.drawn.set(kind, as);
}

// ---- weather --------------------------------------------------------------------------------------

function paintWeather(ctx: Ctx, layer: PixelCanvas): void {
  const { w, h, rng, req, light } = ctx;
  if (req.weather === 'rain' || req.weather === 'storm') {
    const drop = P(light.time === 'night' ? [120, 140, 190] : [190, 206, 230]);
    const len = Math.max(2, Math.round(h / 28));
    // sparse slanted streaks: rain reads from its direction, not from covering the picture
    for (let i = 0; i < (w * h) / (req.weather === 'storm' ? 150 : 220); i++) {
      const x = rng.range(0, w);
      const y = rng.range(0, h);
      layer.line(x, y, x + len * 0.35, y + len, drop);
    }
    if (req.weather === 'storm') {
      let x = w * rng.range(0.3, 0.7);
      let y = 0;
      const bolt = P([255, 250, 210]);
      while (y < h * 0.55) {
        const nx = x + rng.range(-w * 0.04, w * 0.04);
        const ny = y + h * 0.06;
        layer.line(x, y, nx, ny, bolt, Math.max(1, w / 200));
        x = nx;
        y = ny;
      }
      drew(ctx, 'lightning', 'lightning bolt');
    }
  } else if (req.weather === 'snow') {
    const flake = P([252, 252, 255]);
    for (let i = 0; i < (w * h) / 160; i++) {
      const x = rng.range(0, w);
      const y = rng.range(0, h);
      if (i % 5) layer.set(x, y, flake);
      else {
        layer.rect(x - 1, y, x + 2, y + 1, flake);
        layer.rect(x, y - 1, x + 1, y + 2, flake);
      }
    }
  }
}

// ---- rooms: dungeon, cave, castle hall, tavern, library ----------------------------------------------

type RoomSetting =
  | 'dungeon'
  | 'cave'
  | 'castle_hall'
  | 'tavern'
  | 'library'
  | 'workshop'
  | 'laboratory'
  | 'courtyard';
const ROOMS: ReadonlySet<Setting> = new Set<RoomSetting>([
  'workshop',
  'dungeon',
  'cave',
  'castle_hall',
  'tavern',
  'library',
  'laboratory',
  'courtyard',
]);
const isRoom = (s: Setting): s is RoomSetting => ROOMS.has(s);

/** A room's measures, shared by the painters of its wall, floor and fittings. */
interface Room {
  stone: RGB;
  /** Where the back wall meets the floor. */
  floorY: number;
  /** Where fittings hang on the back wall. */
  wallY: number;
  /** A wall block's width and height, in pixels (a larger room shows more of them). */
  bw: number;
  bh: number;
  mortar: number;
  /** The wall's stone: plain, shaded, lit. */
  shades: number[];
  /** The layer behind the furniture (a door in the back wall). */
  mid: PixelCanvas;
  /** The floor's layer (a rug lies on it). */
  near: PixelCanvas;
}

/** The stone (or wood) of each room's walls; a dungeon's is the default. */
const ROOM_STONE: Partial<Record<RoomSetting, RGB>> = {
  cave: [92, 80, 84],
  tavern: [120, 84, 56],
  library: [120, 84, 56],
  workshop: [128, 100, 72],
  castle_hall: [128, 124, 134],
  laboratory: [150, 162, 176],
  courtyard: [150, 144, 138],
};

/** The floor of each room; others have flagstones a shade darker than their walls. */
const ROOM_FLOOR: Partial<Record<RoomSetting, RGB>> = {
  tavern: [140, 96, 60],
  library: [140, 96, 60],
  workshop: [136, 104, 70],
  cave: [80, 70, 72],
  laboratory: [92, 100, 114],
  courtyard: [132, 124, 114],
};

/** A cave's rock: mottled, with stalactites from the roof and stalagmites from the floor. */
function paintCaveWall(ctx: Ctx, back: PixelCanvas, room: Room): void {
  const { w, h, rng } = ctx;
  const { floorY, shades } = room;
  const n = new Noise2D(rng.fork('cave'), 6);
  for (let y = 0; y < floorY; y++)
    for (let x = 0; x < w; x++) {
      const v = n.fbm((x / w) * 6, (y / h) * 6, 3);
      back.px[y * w + x] = v > 0.6 ? shades[2]! : v > 0.42 ? shades[0]! : shades[1]!;
    }
  const spike = P(darker(room.stone, 0.7));
  for (let k = 0; k < Math.max(4, Math.round(w / 30)); k++) {
    const x = rng.range(0, w);
    const len = h * rng.range(0.08, 0.22);
    const half = Math.max(1.5, len * 0.18);
    back.polygon(
      [
        [x - half, 0],
        [x + half, 0],
        [x, len],
      ],
      spike,
    );
    if (k % 2)
      back.polygon(
        [
          [x - half, floorY],
          [x + half, floorY],
          [x + half * 0.2, floorY - len * 0.6],
        ],
        spike,
      );
  }
}

/** Upright planks (a tavern, a library). */
function paintPlankWall(ctx: Ctx, back: PixelCanvas, room: Room): void {
  const { w } = ctx;
  const plank = Math.max(4, Math.round(w / 24));
  for (let x = 0; x < w; x++)
    for (let y = 0; y < room.floorY; y++)
      back.px[y * w + x] = x % plank === 0 ? room.mortar : room.shades[Math.floor(x / plank) % 2]!;
  // a skirting board along the wall's foot, lit on its top edge (decision 0135: where the wall meets
  // the floor is a line the eye reads the room by)
  const sk = Math.max(2, Math.round(room.floorY * 0.05));
  const f = Math.floor(room.floorY);
  back.rect(0, f - sk, w, f, P(darker(room.stone, 0.62)));
  back.rect(0, f - sk, w, f - sk + 1, P(lighter(room.stone, 0.12)));
}

/** Blocks of stone in running bond, mortar lines between them. */
function paintBlockWall(ctx: Ctx, back: PixelCanvas, room: Room): void {
  const { w, rng } = ctx;
  const { floorY, bw, bh, mortar, shades } = room;
  for (let row = 0; row * bh < floorY; row++)
    for (let col = -1; col * bw < w + bw; col++) {
      const x0 = col * bw + (row % 2 ? bw / 2 : 0);
      back.rect(x0, row * bh, x0 + bw, Math.min(floorY, (row + 1) * bh), shades[rng.int(0, 2)]!);
      back.rect(x0, row * bh, x0 + bw, row * bh + 1, mortar);
      back.rect(x0, row * bh, x0 + 1, Math.min(floorY, (row + 1) * bh), mortar);
    }
}

/** Each room's back wall; others are stone blocks. */
const ROOM_WALL: Partial<Record<RoomSetting, (ctx: Ctx, back: PixelCanvas, room: Room) => void>> = {
  laboratory: paintPanelWall,
  courtyard: paintCourtyardWalls,
  cave: paintCaveWall,
  tavern: paintPlankWall,
  library: paintPlankWall,
  workshop: paintPlankWall,
};

/** Metal wall panels with seams, rivets and a ventilation strip (a laboratory). */
function paintPanelWall(ctx: Ctx, back: PixelCanvas, room: Room): void {
  const { w } = ctx;
  const { floorY, stone } = room;
  const pw = Math.max(8, Math.round(w / 10));
  const ph = Math.max(6, Math.round(floorY / 3));
  const seam = P(darker(stone, 0.6));
  const hi = P(lighter(stone, 0.25));
  for (let y = 0; y < floorY; y++)
    for (let x = 0; x < w; x++) {
      const px = x % pw;
      const py = y % ph;
      back.px[y * w + x] =
        px === 0 || py === 0
          ? seam
          : px === 1 || py === 1
            ? hi
            : room.shades[(Math.floor(x / pw) + Math.floor(y / ph)) % 2]!;
    }
  // rivets at the panels' corners, a dark vent strip along the ceiling
  for (let y = 3; y < floorY; y += ph) for (let x = 3; x < w; x += pw) back.set(x, y, seam);
  back.rect(0, 0, w, Math.max(2, floorY * 0.06), P(darker(stone, 0.45)));
  // a skirting stripe of warning colour where the wall meets the floor
  const band = Math.max(2, Math.round(floorY * 0.04));
  for (let x = 0; x < w; x++)
    for (let y = floorY - band; y < floorY; y++)
      back.px[Math.floor(y) * w + x] = Math.floor((x + y) / 3) % 2 ? P([222, 180, 50]) : P([40, 40, 46]);
}

/**
 * A castle's courtyard walls: the sky above a curtain wall with merlons, a tower at each side, and a
 * gatehouse with a dark arch and a raised portcullis in the middle.
 */
function paintCourtyardWalls(ctx: Ctx, back: PixelCanvas, room: Room): void {
  const { w, h, light } = ctx;
  const { floorY, stone, bw, bh, mortar } = room;
  const top = Math.round(floorY * 0.38);
  paintSky(back, light, top + Math.round(h * 0.05));
  const wall = new PixelCanvas(w, h);
  paintBlockWall(ctx, wall, room);
  for (let y = top; y < floorY; y++) for (let x = 0; x < w; x++) back.px[y * w + x] = wall.px[y * w + x]!;
  // merlons along the wall's top
  const mw = Math.max(3, Math.round(bw * 0.6));
  for (let x = 0; x < w; x += mw * 2) back.rect(x, top - mw, x + mw, top, room.shades[0]!);
  back.rect(0, top, w, top + 1, mortar);
  // towers at the sides, taller, with arrow slits
  const tw = Math.max(10, Math.round(w * 0.14));
  const ttop = Math.round(floorY * 0.12);
  for (const tx of [0, w - tw]) {
    for (let y = ttop; y < floorY; y++)
      for (let x = tx; x < tx + tw; x++)
        back.px[y * w + x] =
          (y - ttop) % bh === 0 || (x - tx + (Math.floor((y - ttop) / bh) % 2 ? bw / 2 : 0)) % bw === 0
            ? mortar
            : P(darker(stone, 0.92));
    for (let x = tx; x < tx + tw; x += mw * 2) back.rect(x, ttop - mw, x + mw, ttop, P(darker(stone, 0.92)));
    back.rect(tx + tw / 2 - 1, ttop + bh * 2, tx + tw / 2 + 1, ttop + bh * 4, P([28, 24, 30]));
  }
  // a yard named without its gate (decision 0135: "a castle yard" is the yard, the keep behind it)
  if (!gateNamed(ctx)) {
    paintKeep(ctx, back, room, top);
    return;
  }
  // the gatehouse: a taller block round an arch, the portcullis raised in its top
  const gx = w / 2;
  const gw = Math.max(12, Math.round(Math.min(w, h) * 0.3));
  const aw = gw * 0.56;
  const ah = (floorY - top) * 0.7;
  paintGatehouse(ctx, back, room, { gx, gw, top: top - bh * 2, aw, ah, mw });
  paintGateway(ctx, back, gx, aw, ah, floorY);
}

/** The prompt names a castle's gate (its gatehouse is drawn): else its yard, with the keep behind. */
const gateNamed = (ctx: Ctx): boolean => /\bgates?\b|gatehouse|portcullis|城门|大门/.test(ctx.text);

/**
 * A castle's keep behind its yard (decision 0135: a courtyard was a gate in a wall): a tall coursed
 * tower in the middle of the back wall, lit on its left and shaded on its right, merlons on top with a
 * flag on a pole, two rows of arched windows, a door up three steps at its foot.
 */
/**
 * Stone courses from `top` down to `floorY` between x0 and x1: blocks bw × bh, every other course half a
 * block over, each block one of `shades` (picked by `r`), its top row and left column a joint.
 */
function stoneCourses(
  back: PixelCanvas,
  at: { x0: number; x1: number; top: number; floorY: number; bw: number; bh: number },
  shades: readonly number[],
  joint: number,
  r: { int(a: number, b: number): number },
): void {
  const { x0, x1, top, floorY, bw, bh } = at;
  for (let row = 0; top + row * bh < floorY; row++) {
    const ry = top + row * bh;
    for (let col = -1; x0 + col * bw < x1; col++) {
      const bx = x0 + col * bw + (row % 2 ? Math.round(bw / 2) : 0);
      const c = shades[r.int(0, 2)]!;
      for (let y = ry; y < Math.min(floorY, ry + bh); y++)
        for (let x = Math.max(x0, bx); x < Math.min(x1, bx + bw); x++)
          back.set(x, y, y === ry || x === bx ? joint : c);
    }
  }
}

function paintKeep(ctx: Ctx, back: PixelCanvas, room: Room, wallTop: number): void {
  const { w, h, light } = ctx;
  const { floorY, stone, bw, bh } = room;
  const kw = Math.max(14, Math.round(w * 0.26));
  const x0 = Math.round(w / 2 - kw / 2);
  const x1 = x0 + kw;
  const top = Math.max(Math.round(h * 0.2), Math.round(wallTop - (floorY - wallTop) * 0.9));
  const face = lighter(stone, 0.1);
  const shades = [P(face), P(darker(face, 0.93)), P(lighter(face, 0.06))];
  const joint = P(darker(face, 0.66));
  stoneCourses(back, { x0, x1, top, floorY, bw, bh }, shades, joint, ctx.detail('keep'));
  const edge = Math.max(1, Math.round(kw * 0.05));
  back.rect(x0, top, x0 + edge, floorY, P(lighter(face, 0.28)));
  back.rect(x1 - edge * 2, top, x1, floorY, P(darker(face, 0.72)));
  // merlons and the flag
  const mw = Math.max(2, Math.round(bw * 0.55));
  for (let x = x0; x < x1; x += mw * 2) back.rect(x, top - mw, Math.min(x1, x + mw), top, shades[0]!);
  back.rect(x0, top, x1, top + 1, P(lighter(face, 0.25)));
  const pole = Math.round(x0 + kw * 0.5);
  const ph = Math.max(5, Math.round(h * 0.1));
  back.rect(pole, top - mw - ph, pole + 1, top - mw, P([60, 50, 44]));
  const fw = Math.max(4, Math.round(ph * 0.7));
  const flag = P(light.ambient([176, 40, 48]));
  for (let k = 0; k < fw; k++) {
    const dy = Math.round(Math.sin(k * 0.7) * 0.8);
    const fh = Math.max(2, Math.round(ph * 0.4 * (1 - (k / fw) * 0.3)));
    back.rect(pole + 1 + k, top - mw - ph + dy, pole + 2 + k, top - mw - ph + dy + fh, flag);
  }
  // windows: arched slits in two rows, dark with a lit sill
  const dark = P([30, 26, 34]);
  const sill = P(lighter(face, 0.3));
  const winW = Math.max(2, Math.round(kw * 0.08));
  const winH = Math.max(4, Math.round(winW * 2.2));
  for (const fy of [0.12, 0.36])
    for (const fx of [0.5]) {
      const wx = Math.round(x0 + kw * fx - winW / 2);
      const wy = Math.round(top + (floorY - top) * fy);
      back.rect(wx, wy + 1, wx + winW, wy + winH, dark);
      back.rect(wx + 1, wy, wx + winW - 1, wy + 1, dark);
      back.rect(wx - 1, wy + winH, wx + winW + 1, wy + winH + 1, sill);
    }
  // the door up three steps
  const dw = Math.max(4, Math.round(kw * 0.24));
  const dh = Math.max(6, Math.round((floorY - top) * 0.24));
  const dx = Math.round(w / 2 - dw / 2);
  const step = Math.max(1, Math.round(dh * 0.08));
  for (let k = 0; k < 3; k++)
    back.rect(
      dx - (3 - k) * 2,
      floorY - (k + 1) * step,
      dx + dw + (3 - k) * 2,
      floorY - k * step,
      k % 2 ? shades[2]! : P(lighter(face, 0.2)),
    );
  const dy = floorY - 3 * step;
  back.rect(dx - 1, dy - dh - 1, dx + dw + 1, dy, P(darker(face, 0.55)));
  back.rect(dx, dy - dh, dx + dw, dy, P([96, 62, 38]));
  back.ellipse(dx + dw / 2, dy - dh, dw / 2, Math.max(1, dw * 0.35), P([96, 62, 38]));
  for (let x = dx + 2; x < dx + dw - 1; x += 3) back.rect(x, dy - dh, x + 1, dy, P([70, 46, 30]));
}

/**
 * A gatehouse's stonework (decision 0113: it was one flat block beside the coursed walls): courses of
 * blocks a step lighter than the wall's, each offset half a block from the last, lit on the left
 * edge and shaded on the right, merlons on top; round the arch a ring of wedge-shaped voussoirs with
 * mortar joints pointing at the arch's centre and a pale keystone at its crown; quoins up the jambs.
 */
function paintGatehouse(
  ctx: Ctx,
  back: PixelCanvas,
  room: Room,
  g: { gx: number; gw: number; top: number; aw: number; ah: number; mw: number },
): void {
  const { floorY, stone, bw, bh, mortar } = room;
  const { gx, gw, top, aw, ah, mw } = g;
  const x0 = Math.round(gx - gw / 2);
  const x1 = Math.round(gx + gw / 2);
  const face = lighter(stone, 0.08);
  const shades = [P(face), P(darker(face, 0.92)), P(lighter(face, 0.08))];
  const joint = P(darker(face, 0.62));
  const y0 = Math.round(top);
  stoneCourses(back, { x0, x1, top: y0, floorY, bw, bh }, shades, joint, ctx.vary('gatehouse'));
  // the block's edges: lit down its left side, shaded down its right
  back.rect(x0, y0, x0 + 1, floorY, P(lighter(face, 0.3)));
  back.rect(x1 - 1, y0, x1, floorY, P(darker(face, 0.7)));
  for (let x = x0; x < x1; x += mw * 2) back.rect(x, y0 - mw, Math.min(x1, x + mw), y0, shades[0]!);
  back.rect(x0, y0, x1, y0 + 1, mortar);
  // the voussoirs: a ring round the arch's curve, wedges split along rays from its centre
  const cy = floorY - ah;
  const rx = aw / 2;
  const ry = aw * 0.35;
  const ring = Math.max(2, Math.round(bh * 0.9));
  const wedges = Math.max(5, Math.round((Math.PI * (rx + ry)) / 2 / Math.max(2, bw * 0.45))) | 1;
  const key = P(lighter(face, 0.35));
  // dressed stone round the opening: paler than the coursed blocks, in two tones
  const dressed = P(lighter(face, 0.18));
  const dressedDark = P(darker(lighter(face, 0.18), 0.88));
  for (let y = Math.floor(cy - ry - ring - 1); y <= cy; y++)
    for (let x = Math.floor(gx - rx - ring - 1); x <= gx + rx + ring + 1; x++) {
      const dx = x + 0.5 - gx;
      const dy = y + 0.5 - cy;
      const inner = (dx / rx) ** 2 + (dy / ry) ** 2;
      const outer = (dx / (rx + ring)) ** 2 + (dy / (ry + ring)) ** 2;
      if (inner <= 1 || outer > 1) continue;
      // the angle along the arch from its left foot (0) to its right foot (1)
      const a = Math.atan2(-dy / (ry + ring / 2), dx / (rx + ring / 2));
      const t = 1 - a / Math.PI;
      const k = t * wedges;
      // a joint a pixel wide between wedges (the half ellipse's length over the wedges), and round
      // the ring's outside
      const edge = k - Math.floor(k) < wedges / ((Math.PI * (rx + ry + ring)) / 2) || outer > 0.84;
      const kth = Math.floor(k);
      back.set(x, y, edge ? joint : kth === (wedges - 1) / 2 ? key : kth % 2 ? dressedDark : dressed);
    }
  // the jambs' quoins: blocks up each side of the opening, long and short in turn
  for (let y = Math.round(cy), k = 0; y < floorY; y += bh, k++)
    for (const side of [-1, 1]) {
      const inX = gx + side * rx;
      const len = k % 2 ? ring : ring + Math.max(1, Math.round(ring * 0.6));
      const a = side < 0 ? inX - len : inX;
      const b = side < 0 ? inX : inX + len;
      back.rect(a, y, b, Math.min(floorY, y + bh), k % 2 ? dressedDark : dressed);
      back.rect(a, y, b, y + 1, joint);
      back.rect(side < 0 ? a : b - 1, y, side < 0 ? a + 1 : b, Math.min(floorY, y + bh), joint);
    }
}

/**
 * A gate's opening (decision 0098: it was a dark arch with a flat green rectangle in it): the land
 * outside seen through the arch — the sky, a far ridge, the grass and the road running out to the
 * horizon — under the raised portcullis, an iron grid with spiked bars hanging in the arch's top,
 * the arch's stone lit along its inner edge.
 */
function paintGateway(ctx: Ctx, back: PixelCanvas, gx: number, aw: number, ah: number, floorY: number): void {
  const { light } = ctx;
  const x0 = Math.round(gx - aw / 2);
  const x1 = Math.round(gx + aw / 2);
  const archTop = floorY - ah - aw * 0.35;
  const inside = (x: number, y: number) =>
    x >= x0 &&
    x < x1 &&
    y < floorY &&
    (y >= floorY - ah ||
      ((x + 0.5 - gx) / (aw / 2)) ** 2 + ((y + 0.5 - (floorY - ah)) / (aw * 0.35)) ** 2 <= 1);
  // the outside: sky down to a horizon at a third of the opening, a far ridge, grass, the road
  const horizon = floorY - ah * 0.42;
  const amb = light.ambient;
  const skyTop = P(light.sky[1]!);
  const skyLow = P(light.sky[2]!);
  const ridge = P(amb(mixRgb([104, 128, 150], light.sky[2]!, 0.4)));
  const grass = P(amb([88, 146, 70]));
  const grassFar = P(amb([104, 156, 84]));
  const road = P(amb([176, 150, 110]));
  const roadEdge = P(amb([146, 120, 86]));
  const iron = P([58, 54, 62]);
  const ironHi = P([104, 100, 110]);
  const jamb = P([26, 22, 30]);
  for (let y = Math.floor(archTop); y < floorY; y++)
    for (let x = x0; x < x1; x++) {
      if (!inside(x, y)) continue;
      let v: number;
      const ridgeY = horizon - 1 - Math.round(1.5 + 1.5 * Math.sin(x * 0.45));
      if (y < horizon) v = y >= ridgeY ? ridge : y < archTop + (horizon - archTop) * 0.5 ? skyTop : skyLow;
      else {
        // the road: narrow at the horizon, the width of the opening's middle third at the sill
        const t = (y - horizon) / Math.max(1, floorY - horizon);
        const half = 0.5 + aw * (0.06 + 0.2 * t);
        const d = Math.abs(x + 0.5 - gx);
        v = d < half - 0.6 ? road : d < half + 0.6 ? roadEdge : t < 0.35 ? grassFar : grass;
      }
      back.set(x, y, v);
    }
  // the opening's dark jambs (the wall's thickness), a pixel each side and under the arch
  for (let y = Math.floor(archTop); y < floorY; y++)
    for (let x = x0; x < x1; x++)
      if (inside(x, y) && (!inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1))) back.set(x, y, jamb);
  // the raised portcullis: bars and cross bars in the arch's top, spikes hanging under the last one
  const grid = Math.max(3, Math.round(aw / 6));
  const bottom = Math.round(floorY - ah * 0.62);
  for (let x = x0 + 2; x < x1 - 1; x += grid)
    for (let y = Math.floor(archTop); y <= bottom + 1; y++)
      if (inside(x, y)) back.set(x, y, y === bottom + 1 ? ironHi : iron);
  for (let y = bottom; y > archTop; y -= grid)
    for (let x = x0 + 1; x < x1 - 1; x++) if (inside(x, y)) back.set(x, y, iron);
}

/** A laboratory: consoles with glowing screens, tubes of bright liquid, a work bench and ceiling lights. */
function paintLab(ctx: Ctx, props: PixelCanvas, { floorY }: Room): void {
  const { w, h, light } = ctx;
  const u = Math.min(w, h);
  const body = P([70, 78, 92]);
  const edge = P([120, 132, 150]);
  // consoles along the back wall, each with a screen and a row of buttons
  const cw = u * 0.22;
  for (const fx of [0.16, 0.5]) {
    const x0 = w * fx - cw / 2;
    const top = floorY - u * 0.2;
    props.rect(x0, top, x0 + cw, floorY + 1, body);
    props.rect(x0, top, x0 + cw, top + 1, edge);
    // the screen on a stand above the desk
    const sw = cw * 0.8;
    const sh = u * 0.14;
    const sx = x0 + (cw - sw) / 2;
    const sy = top - sh - u * 0.03;
    props.rect(x0 + cw / 2 - 1, sy + sh, x0 + cw / 2 + 1, top, body);
    props.rect(sx - 1, sy - 1, sx + sw + 1, sy + sh + 1, P([40, 44, 54]));
    props.rect(sx, sy, sx + sw, sy + sh, G(ctx, [40, 150, 170]));
    for (let k = 1; k < 4; k++)
      props.rect(
        sx + 2,
        sy + (k * sh) / 4,
        sx + 2 + ((sw - 4) * ((k * 37) % 10)) / 10,
        sy + (k * sh) / 4 + 1,
        G(ctx, [150, 240, 230]),
      );
    light.lights.push({ x: sx + sw / 2, y: sy + sh / 2, r: u * 0.22, color: [90, 210, 220] });
    const colours: RGB[] = [
      [230, 70, 70],
      [90, 220, 110],
      [240, 200, 70],
    ];
    for (let k = 0; k < 5; k++)
      props.rect(
        x0 + 3 + (k * (cw - 6)) / 5,
        top + 3,
        x0 + 4 + (k * (cw - 6)) / 5,
        top + 4,
        G(ctx, colours[k % 3]!),
      );
  }
  // tubes on the right: glass cylinders of glowing liquid, capped top and bottom
  const tubeW = Math.max(5, u * 0.09);
  const tubeH = u * 0.38;
  const liquids: RGB[] = [
    [90, 230, 120],
    [110, 180, 250],
  ];
  [0.76, 0.9].forEach((fx, k) => {
    const x = w * fx;
    const y1 = floorY + u * 0.02;
    const y0 = y1 - tubeH;
    props.rect(x - tubeW / 2, y0 + tubeH * 0.25, x + tubeW / 2, y1 - u * 0.04, G(ctx, liquids[k]!));
    props.rect(x - tubeW / 2, y0 + u * 0.03, x + tubeW / 2, y0 + tubeH * 0.25, P([170, 200, 214]));
    props.rect(x - tubeW / 2, y0 + u * 0.03, x - tubeW / 2 + 1, y1 - u * 0.04, P([220, 240, 248]));
    props.set(x, y0 + tubeH * 0.5, G(ctx, [230, 255, 235]));
    props.set(x + 1, y0 + tubeH * 0.62, G(ctx, [230, 255, 235]));
    props.rect(x - tubeW / 2 - 2, y0, x + tubeW / 2 + 2, y0 + u * 0.03, body);
    props.rect(x - tubeW / 2 - 2, y1 - u * 0.04, x + tubeW / 2 + 2, y1, body);
    props.rect(x - tubeW / 2 - 2, y0, x + tubeW / 2 + 2, y0 + 1, edge);
    light.lights.push({ x, y: y0 + tubeH * 0.6, r: u * 0.2, color: liquids[k]! });
  });
  // a bench in front with flasks on it
  const bx = w * 0.33;
  const by = floorY + u * 0.1;
  props.rect(bx - u * 0.16, by - 2, bx + u * 0.16, by, edge);
  props.rect(bx - u * 0.16, by, bx + u * 0.16, by + u * 0.02, body);
  for (const lx of [bx - u * 0.15, bx + u * 0.13]) props.rect(lx, by, lx + 2, by + u * 0.12, body);
  const flasks: Array<[number, RGB]> = [
    [-0.08, [240, 90, 200]],
    [0.0, [90, 230, 120]],
    [0.07, [250, 200, 70]],
  ];
  for (const [dx, c] of flasks) {
    const fx = bx + dx * u;
    props.rect(fx - 1, by - u * 0.07, fx + 1, by - u * 0.045, P([200, 224, 234]));
    props.ellipse(fx, by - u * 0.025, u * 0.025, u * 0.025, G(ctx, c));
  }
  // strip lights on the ceiling
  for (const fx of [0.25, 0.75]) {
    props.rect(w * fx - u * 0.12, h * 0.05, w * fx + u * 0.12, h * 0.05 + 2, G(ctx, [230, 250, 255]));
    light.lights.push({ x: w * fx, y: h * 0.06, r: u * 0.2, color: [210, 235, 255] });
  }
}

/**
 * An alchemist's workshop (decision 0098: it was a meadow with a person in it, and a lab of consoles
 * is another place): a furnace with its fire, a shelf of jars and bottles on the wall, a wooden bench
 * on the floor line with flasks of glowing brews and a still, a cauldron on the floor.
 */
async function paintAlchemy(ctx: Ctx, props: PixelCanvas, room: Room): Promise<void> {
  const { w, light } = ctx;
  const { floorY } = room;
  const u = Math.min(w, ctx.h);
  await paintHearth(ctx, props, room, u);
  const wood = P([120, 78, 48]);
  const woodHi = P([156, 104, 64]);
  const woodDark = P([78, 50, 32]);
  const glass = P([200, 224, 234]);
  // a shelf of jars and bottles on the wall, right of the middle
  const sx0 = w * 0.56;
  const sx1 = w * 0.9;
  const brews: RGB[] = [
    [240, 90, 200],
    [90, 230, 120],
    [250, 200, 70],
    [110, 180, 250],
    [230, 80, 70],
  ];
  for (const [row, sy] of [floorY - u * 0.46, floorY - u * 0.28].entries()) {
    props.rect(sx0, sy, sx1, sy + Math.max(2, u * 0.02), wood);
    props.rect(sx0, sy, sx1, sy + 1, woodHi);
    for (let k = 0, x = sx0 + 3; x < sx1 - 6; k++) {
      const bw = Math.max(3, Math.round(u * (k % 3 === 0 ? 0.045 : 0.03)));
      const bh = Math.max(4, Math.round(u * (k % 2 ? 0.09 : 0.065)));
      props.rect(x, sy - bh, x + bw, sy, P(darker(brews[(k + row * 2) % brews.length]!, 0.75)));
      props.rect(x, sy - bh, x + bw, sy - bh + 1, glass);
      props.rect(x + 1, sy - bh - 2, x + bw - 1, sy - bh, woodDark);
      x += bw + Math.max(2, Math.round(u * 0.02));
    }
  }
  // the bench: a thick top on four legs standing on the floor line, flasks and a still on it
  const bx = w * 0.5;
  const half = u * 0.3;
  const top = Math.round(floorY + u * 0.02);
  const foot = Math.round(floorY + u * 0.16);
  props.rect(bx - half, top, bx + half, top + Math.max(2, u * 0.025), wood);
  props.rect(bx - half, top, bx + half, top + 1, woodHi);
  for (const lx of [bx - half + 2, bx + half - 5])
    props.rect(lx, top + 2, lx + Math.max(2, u * 0.02), foot, woodDark);
  const flasks: Array<[number, RGB]> = [
    [-0.22, [240, 90, 200]],
    [-0.1, [90, 230, 120]],
    [0.16, [250, 200, 70]],
  ];
  for (const [dx, c] of flasks) {
    const fx = bx + dx * u;
    const r = Math.max(2, u * 0.03);
    props.rect(fx - 1, top - r * 2 - u * 0.04, fx + 1, top - r * 1.6, glass);
    props.ellipse(fx, top - r, r, r, G(ctx, c));
    props.set(Math.round(fx - r * 0.4), Math.round(top - r * 1.3), G(ctx, [250, 250, 240]));
    light.lights.push({ x: fx, y: top - r, r: u * 0.12, color: c });
  }
  // a still: a round copper pot with a coiled pipe
  const cx = bx + u * 0.02;
  const cr = Math.max(3, u * 0.045);
  const copper = P([190, 110, 60]);
  props.ellipse(cx, top - cr, cr, cr, copper);
  props.rect(cx - cr * 0.5, top - cr * 1.4, cx + cr * 0.5, top - cr * 1.1, P([230, 150, 90]));
  props.rect(cx, top - cr * 2.6, cx + 1, top - cr * 1.8, copper);
  props.rect(cx, top - cr * 2.6, cx + u * 0.06, top - cr * 2.6 + 1, copper);
  // a cauldron on the floor, right of the bench, a green brew glowing at its rim
  const kx = w * 0.84;
  const kr = Math.max(4, u * 0.07);
  const ky = Math.round(floorY + u * 0.16);
  const iron = P([44, 40, 46]);
  props.ellipse(kx, ky - kr, kr, kr * 0.85, iron);
  props.rect(kx - kr * 0.7, ky - 2, kx - kr * 0.5, ky, iron);
  props.rect(kx + kr * 0.5, ky - 2, kx + kr * 0.7, ky, iron);
  props.rect(kx - kr * 1.05, ky - kr * 1.75, kx + kr * 1.05, ky - kr * 1.55, P([70, 64, 72]));
  props.rect(kx - kr * 0.9, ky - kr * 1.9, kx + kr * 0.9, ky - kr * 1.7, G(ctx, [120, 240, 110]));
  light.lights.push({ x: kx, y: ky - kr * 1.8, r: u * 0.18, color: [120, 240, 110] });
  ctx.floorLine = foot;
  ctx.stood.push([bx - half, bx + half], [kx - kr * 1.1, kx + kr * 1.1]);
}

/**
 * A courtyard's yard: crates and barrels on the flagstones, banners either side of the gate. A yard
 * named without its gate (decision 0135) is closed in: the side walls run back to the keep in
 * perspective, and a well and a cart stand on the paving, each with its shadow.
 */
async function paintCourtyard(ctx: Ctx, props: PixelCanvas, room: Room): Promise<void> {
  const { w, h } = ctx;
  const u = Math.min(w, h);
  const { floorY, near } = room;
  const yard = !gateNamed(ctx);
  if (yard) paintSideWalls(ctx, near, room);
  const crate = await prop(ctx, 'g/wooden-crate', u * 0.12, [150, 102, 62]);
  const cy = floorY + u * 0.1;
  if (crate)
    for (const fx of yard ? [0.22, 0.27] : [0.18, 0.25]) {
      contactShadow(ctx, near, w * fx, crate.width * 0.6, cy);
      stand(props, crate, w * fx, cy);
    }
  const barrel = await prop(ctx, 'g/barrel', u * 0.12, [150, 102, 62]);
  if (barrel)
    for (const fx of yard ? [0.72, 0.77] : [0.74, 0.8]) {
      contactShadow(ctx, near, w * fx, barrel.width * 0.6, cy);
      stand(props, barrel, w * fx, cy);
    }
  if (yard) {
    // (a well the prompt names is drawn as that thing: never two)
    if (!ctx.req.others.some((o) => /\bwells?\b|井/.test(o.phrase)))
      paintWell(ctx, props, near, w * 0.36, Math.round(floorY + (h - floorY) * 0.62), u * 0.2);
    paintCart(ctx, props, near, w * 0.64, Math.round(floorY + (h - floorY) * 0.7), u * 0.22);
  }
  // two banners either side of the gate (or hung from the keep)
  for (const fx of yard ? [0.43, 0.57] : [0.36, 0.64]) {
    const x = w * fx;
    const bwid = Math.max(3, u * 0.05);
    const y0 = floorY * (yard ? 0.36 : 0.42);
    props.rect(x - bwid / 2, y0, x + bwid / 2, y0 + u * 0.16, P([168, 36, 48]));
    props.rect(x - bwid / 2, y0, x + bwid / 2, y0 + 1, P([230, 190, 70]));
    // a swallow-tailed foot
    props.rect(x - 0.5, y0 + u * 0.16 - Math.max(1, u * 0.02), x + 0.5, y0 + u * 0.16, 0);
  }
}

/**
 * The yard's side walls (decision 0135): coursed stone running from the picture's edges back to the
 * back wall's corners, their courses converging, their tops crenellated; the left one lit, the right
 * one in shade.
 */
function paintSideWalls(ctx: Ctx, near: PixelCanvas, room: Room): void {
  const { w, h } = ctx;
  const { floorY, stone } = room;
  const inner = w * 0.15;
  const backTop = floorY * 0.38;
  const frontTop = h * 0.02;
  for (const side of [0, 1]) {
    const face = side ? darker(stone, 0.72) : lighter(stone, 0.06);
    const c = [P(face), P(darker(face, 0.92))];
    const joint = P(darker(face, 0.68));
    const lip = P(side ? darker(face, 0.85) : lighter(face, 0.25));
    for (let x = 0; x < inner; x++) {
      const t = x / inner; // 0 at the picture's edge, 1 at the back corner
      const yTop = frontTop + (backTop - frontTop) * t;
      const yBot = h + (floorY - h) * t;
      const px = side ? w - 1 - x : x;
      const courses = 9;
      // the joints across: at depth-spaced columns (closer together towards the back)
      const z = 1 / (1 - t * 0.6);
      const col = Math.floor(z * 5);
      const colPrev = Math.floor((1 / (1 - (Math.max(0, x - 1) / inner) * 0.6)) * 5);
      for (let y = Math.max(0, Math.floor(yTop)); y < Math.min(h, yBot); y++) {
        const v = (y - yTop) / (yBot - yTop);
        const row = Math.floor(v * courses);
        const rowPrev = Math.floor(((y - 1 - yTop) / (yBot - yTop)) * courses);
        const edge = row !== rowPrev || ((col !== colPrev || x === 0) && (row + col) % 2 === 0);
        near.px[y * w + px] = y === Math.floor(yTop) ? lip : edge ? joint : c[(row + col) % 2]!;
      }
      // merlons along the top
      const mh = Math.max(2, Math.round((yBot - yTop) * 0.05));
      if (col % 2 === 0)
        for (let y = Math.max(0, Math.floor(yTop - mh)); y < yTop; y++) near.px[y * w + px] = c[0]!;
    }
  }
}

/** A well on the paving: a round stone curb, dark water inside, two posts, a roof, a bucket on a rope. */
function paintWell(
  ctx: Ctx,
  props: PixelCanvas,
  near: PixelCanvas,
  x: number,
  y: number,
  size: number,
): void {
  const rx = size * 0.42;
  const ry = rx * 0.35;
  const curbH = size * 0.3;
  const stone: RGB = [150, 144, 136];
  contactShadow(ctx, near, x, rx * 1.2, y);
  // the curb's body: a short cylinder of coursed stone, its front bottom curving down, lit on the left
  const course = Math.max(2, Math.round(curbH / 3));
  const block = Math.max(3, Math.round(rx * 0.5));
  for (let xx = Math.floor(x - rx); xx <= Math.ceil(x + rx); xx++) {
    const dx = (xx + 0.5 - x) / rx;
    if (Math.abs(dx) > 1) continue;
    const round = Math.sqrt(1 - dx * dx);
    const bottom = Math.round(y - ry + ry * round);
    for (let yy = Math.round(y - curbH - ry); yy < bottom; yy++) {
      const row = Math.floor((bottom - yy) / course);
      const bx = Math.floor((xx - x + (row % 2) * block * 0.5) / block);
      const bxPrev = Math.floor((xx - 1 - x + (row % 2) * block * 0.5) / block);
      const joint = bx !== bxPrev || (bottom - yy) % course === 0;
      const c = dx < -0.45 ? lighter(stone, 0.15) : dx > 0.5 ? darker(stone, 0.72) : stone;
      props.set(xx, yy, P(joint ? darker(stone, 0.62) : c));
    }
  }
  // its top: a rim round dark water
  const top = Math.round(y - curbH - ry);
  props.ellipse(x, top, rx, ry, P(lighter(stone, 0.2)));
  props.ellipse(x, top, rx * 0.78, ry * 0.65, P([24, 30, 40]));
  // posts, a roof, a rope and a bucket
  const postH = size * 0.75;
  const wood = P([110, 72, 44]);
  for (const px of [x - rx * 0.9, x + rx * 0.9 - 1])
    props.rect(px, top - postH, px + Math.max(1, size * 0.05), top + 1, wood);
  const roofY = top - postH;
  props.polygon(
    [
      [x - rx * 1.25, roofY + 1],
      [x, roofY - size * 0.25],
      [x + rx * 1.25, roofY + 1],
    ],
    P([120, 64, 48]),
  );
  props.polygon(
    [
      [x, roofY - size * 0.25],
      [x + rx * 1.25, roofY + 1],
      [x + rx * 0.2, roofY + 1],
    ],
    P([92, 48, 38]),
  );
  props.rect(x - rx * 0.9, roofY + 1, x + rx * 0.9, roofY + 2, wood);
  props.rect(x, roofY + 2, x + 1, top - ry * 0.2 - size * 0.1, P([200, 180, 140]));
  props.rect(x - 1, top - ry * 0.2 - size * 0.1, x + 2, top - ry * 0.2, P([90, 80, 76]));
  ctx.stood.push([x - rx * 1.25, x + rx * 1.25]);
}

/** A two-wheeled cart on the paving: a plank bed with sides, a spoked wheel, its shafts down on the stones. */
function paintCart(
  ctx: Ctx,
  props: PixelCanvas,
  near: PixelCanvas,
  x: number,
  y: number,
  size: number,
): void {
  const wood: RGB = [140, 94, 56];
  const wr = Math.max(3, Math.round(size * 0.3));
  const bedW = size * 0.9;
  const bedY = y - wr * 1.35;
  contactShadow(ctx, near, x, bedW * 0.6, y);
  // the shafts from the bed's front down to the ground
  props.line(x - bedW / 2, bedY + 1, x - bedW * 0.95, y - 1, P(darker(wood, 0.7)), 1);
  // the bed and its sides, lit on top, a load of sacks
  props.rect(x - bedW / 2, bedY - size * 0.22, x + bedW / 2, bedY + 2, P(darker(wood, 0.55)));
  props.rect(x - bedW / 2 + 1, bedY - size * 0.22 + 1, x + bedW / 2 - 1, bedY + 1, P(wood));
  for (let k = 1; k < 3; k++) {
    const yy = Math.round(bedY - size * 0.22 + (k * size * 0.22) / 3);
    props.rect(x - bedW / 2 + 1, yy, x + bedW / 2 - 1, yy + 1, P(darker(wood, 0.75)));
  }
  props.rect(
    x - bedW / 2 + 1,
    bedY - size * 0.22 + 1,
    x + bedW / 2 - 1,
    bedY - size * 0.22 + 2,
    P(lighter(wood, 0.2)),
  );
  for (const [dx, c] of [
    [-0.2, [196, 176, 130]],
    [0.1, [180, 160, 118]],
  ] as const)
    props.ellipse(x + dx * bedW, bedY - size * 0.26, bedW * 0.16, size * 0.1, P(c as unknown as RGB));
  // the wheel: a dark rim, spokes, a hub
  const wx = x + bedW * 0.1;
  const wy = y - wr;
  const iron = P([52, 46, 44]);
  for (let a = 0; a < 40; a++) {
    const t = (a / 40) * Math.PI * 2;
    for (const rr of [wr, wr - 1])
      props.set(
        Math.round(wx + Math.cos(t) * rr),
        Math.round(wy + Math.sin(t) * rr),
        a < 20 ? iron : P([84, 72, 64]),
      );
  }
  for (let a = 0; a < 4; a++) {
    const t = (a / 4) * Math.PI;
    props.line(
      wx - Math.cos(t) * (wr - 1),
      wy - Math.sin(t) * (wr - 1),
      wx + Math.cos(t) * (wr - 1),
      wy + Math.sin(t) * (wr - 1),
      P(darker(wood, 0.8)),
      1,
    );
  }
  props.rect(wx - 1, wy - 1, wx + 1, wy + 1, iron);
  ctx.stood.push([x - bedW, x + bedW / 2]);
}

/** A corridor's side walls running to a dark far doorway, or a dungeon's doorway in its back wall. */
function paintDoorway(ctx: Ctx, mid: PixelCanvas, room: Room): void {
  const { w, h, req } = ctx;
  const { floorY, stone, mortar } = room;
  const dx = w * 0.5;
  const dw = Math.min(w, h) * (req.corridor ? 0.16 : 0.2);
  const dh = floorY * (req.corridor ? 0.38 : 0.5);
  const dy = floorY - (req.corridor ? floorY * 0.18 : 0);
  if (req.corridor) {
    const side = P(darker(stone, 0.7));
    mid.polygon(
      [
        [0, 0],
        [dx - dw, dy - dh],
        [dx - dw, dy],
        [0, h],
      ],
      side,
    );
    mid.polygon(
      [
        [w, 0],
        [dx + dw, dy - dh],
        [dx + dw, dy],
        [w, h],
      ],
      P(darker(stone, 0.8)),
    );
    for (let k = 1; k < 6; k++) {
      const t = k / 6;
      mid.line(
        dx - dw - (dx - dw) * (1 - t),
        dy - dh * t - (1 - t) * 0,
        dx - dw - (dx - dw) * (1 - t),
        dy + (h - dy) * (1 - t),
        mortar,
      );
    }
  }
  // the doorway: an arch, dark inside
  mid.rect(dx - dw * 0.6, dy - dh * 0.8, dx + dw * 0.6, dy, P([12, 10, 18]));
  mid.ellipse(dx, dy - dh * 0.8, dw * 0.6, dh * 0.25, P([12, 10, 18]));
}

/**
 * The floor in one perspective (decision 0135: a tavern's furniture floated on a floor of parallel
 * slanted lines): the joints between boards or flagstones run to one vanishing point at eye level
 * over the middle of the back wall, the joints across them close up towards the back (each course
 * a step further off), and the wall's foot throws a dark line of shadow on the first row or two.
 * Planks (a tavern, a library, a workshop) are long boards whose ends fall here and there; stone
 * courses are offset half a stone from the last.
 */
function paintRoomFloor(ctx: Ctx, near: PixelCanvas, room: Room, floorC: RGB): void {
  const { w, h, req } = ctx;
  const { floorY, bw, bh } = room;
  const planks = req.setting === 'tavern' || req.setting === 'library' || req.setting === 'workshop';
  const y0 = Math.floor(floorY);
  const depth = h - y0;
  // eye level over the floor: the back wall's foot is (depth × 1.2) under it
  const vx = w / 2;
  const vy = y0 - depth * 1.2;
  const zTop = (h - vy) / (y0 - vy);
  const courses = Math.max(2, depth / Math.max(3, bh * (planks ? 2.4 : 1.5)));
  const rowScale = courses / (zTop - 1);
  const step = Math.max(4, Math.round(bw * (planks ? 0.9 : 1.3)));
  const base = P(floorC);
  const seam = P(darker(floorC, 0.74));
  const foot = P(darker(floorC, 0.6));
  const alt = P(darker(floorC, 0.92));
  for (let y = y0; y < h; y++) {
    const z = (h - vy) / (y + 0.5 - vy);
    const row = Math.floor((zTop - z) * rowScale);
    const rowAbove = y > y0 ? Math.floor((zTop - (h - vy) / (y - 0.5 - vy)) * rowScale) : row;
    const joint = row !== rowAbove;
    let last = Math.floor(((0 - vx) * z) / step + (planks ? 0 : (row % 2) * 0.5));
    for (let x = 0; x < w; x++) {
      const sx = ((x + 0.5 - vx) * z) / step + (planks ? 0 : (row % 2) * 0.5);
      const board = Math.floor(sx);
      const edge = board !== last;
      last = board;
      let c = (board + (planks ? 0 : row)) % 2 ? alt : base;
      if (edge) c = seam;
      else if (joint && (!planks || (board * 7 + row * 3) % 5 === 0)) c = seam;
      if (y - y0 < Math.max(1, Math.round(depth * 0.03))) c = foot;
      near.px[y * w + x] = c;
    }
  }
}

/**
 * A shadow on the floor under a thing standing on it (decision 0135: furniture with no shadow reads
 * as floating): a flattened oval `half` wide each side of x, its top on the thing's foot row, the
 * floor under it a step darker.
 */
function contactShadow(ctx: Ctx, near: PixelCanvas, x: number, half: number, y: number): void {
  const { w, h } = ctx;
  // flat on the floor: a few rows deep however wide, its middle just behind the foot
  const ry = Math.max(1.5, Math.min(half * 0.14, h * 0.025));
  const cy = y - ry * 0.3;
  for (let yy = Math.floor(cy - ry); yy <= Math.ceil(cy + ry); yy++) {
    if (yy < 0 || yy >= h) continue;
    const t = (yy - cy) / ry;
    const span = half * Math.sqrt(Math.max(0, 1 - t * t));
    for (let xx = Math.round(x - span); xx < Math.round(x + span); xx++) {
      if (xx < 0 || xx >= w) continue;
      const v = near.px[yy * w + xx]!;
      if (v) near.px[yy * w + xx] = P(darker(unpack(v), 0.68));
    }
  }
}

function paintBanners(ctx: Ctx, props: PixelCanvas, { floorY, wallY }: Room): void {
  const { w, h } = ctx;
  for (const fx of [0.2, 0.8]) {
    const x = w * fx;
    const bwid = Math.min(w, h) * 0.09;
    props.rect(x - bwid / 2, wallY - floorY * 0.3, x + bwid / 2, wallY + floorY * 0.15, P([168, 36, 48]));
    props.polygon(
      [
        [x - bwid / 2, wallY + floorY * 0.15],
        [x + bwid / 2, wallY + floorY * 0.15],
        [x, wallY + floorY * 0.22],
      ],
      P([168, 36, 48]),
    );
    props.rect(x - bwid / 2, wallY - floorY * 0.3, x + bwid / 2, wallY - floorY * 0.28, P([230, 190, 70]));
    props.rect(
      x - bwid * 0.15,
      wallY - floorY * 0.15,
      x + bwid * 0.15,
      wallY - floorY * 0.05,
      P([230, 190, 70]),
    );
  }
  drew(ctx, 'banners', 'banners');
}

function paintThrone(ctx: Ctx, props: PixelCanvas, { floorY }: Room): void {
  const { w, h } = ctx;
  const x = w * 0.5;
  const tw = Math.min(w, h) * 0.16;
  props.rect(x - tw / 2, floorY - tw * 1.5, x + tw / 2, floorY, P([176, 40, 52]));
  props.rect(x - tw / 2 - 2, floorY - tw * 1.6, x + tw / 2 + 2, floorY - tw * 1.45, P([232, 190, 70]));
  props.rect(x - tw / 2 - 2, floorY - tw * 0.6, x + tw / 2 + 2, floorY - tw * 0.5, P([232, 190, 70]));
  drew(ctx, 'throne', 'throne');
}

function paintBookshelves(ctx: Ctx, props: PixelCanvas, { floorY }: Room): void {
  const { w, h } = ctx;
  const shelfW = Math.min(w, h) * 0.3;
  for (const fx of [0.18, 0.82]) {
    const x0 = w * fx - shelfW / 2;
    props.rect(x0, floorY - h * 0.5, x0 + shelfW, floorY, P([96, 62, 40]));
    const books: RGB[] = [
      [170, 50, 50],
      [60, 100, 170],
      [70, 140, 80],
      [220, 180, 80],
    ];
    for (let row = 0; row < 4; row++) {
      const y = floorY - h * 0.48 + row * h * 0.12;
      for (let bx = x0 + 2; bx < x0 + shelfW - 3; bx += 3)
        props.rect(bx, y + 2, bx + 2, y + h * 0.1, P(books[(Math.floor(bx) + row) % 4]!));
    }
  }
  drew(ctx, 'bookshelves', 'bookshelves');
}

async function paintBarrels(ctx: Ctx, props: PixelCanvas, { floorY, near }: Room): Promise<void> {
  const { w, h } = ctx;
  const s = ctx.req.setting;
  const img = await prop(ctx, 'g/barrel', h * 0.16, [150, 102, 62]);
  if (img)
    for (const fx of s === 'tavern' ? [0.27] : [0.12, 0.22]) {
      contactShadow(ctx, near, w * fx, img.width * 0.62, floorY + h * 0.08);
      stand(props, img, w * fx, floorY + h * 0.08);
    }
  drew(ctx, 'barrels', 'barrels', img !== null);
}

function paintCrystals(ctx: Ctx, props: PixelCanvas, { floorY }: Room): void {
  const { w, h, rng, light } = ctx;
  // a cave of lava grows fire crystals: cyan ones lit by the lava read as blue water beside it
  const lava =
    (ctx.has('waterfall') || ctx.has('river') || ctx.has('lake')) &&
    materialOf(ctx, 'waterfall', 'river', 'lake') === 'lava';
  const colours: RGB[] = lava
    ? [
        [255, 176, 72],
        [236, 96, 64],
      ]
    : [
        [120, 220, 240],
        [190, 130, 240],
      ];
  for (let k = 0; k < Math.max(3, Math.round(w / 50)); k++) {
    const x = rng.range(0.05, 0.95) * w;
    const y = floorY + rng.range(0, h * 0.15);
    const c = colours[k % 2]!;
    const ch = h * rng.range(0.08, 0.16);
    props.polygon(
      [
        [x - ch * 0.2, y],
        [x, y - ch],
        [x + ch * 0.2, y],
      ],
      P(c),
    );
    props.polygon(
      [
        [x - ch * 0.2, y],
        [x, y - ch],
        [x - ch * 0.02, y],
      ],
      P(lighter(c, 0.4)),
    );
    light.lights.push({ x, y: y - ch / 2, r: ch * 1.3, color: c });
  }
  drew(ctx, 'crystals', 'crystals');
}

function paintChandelier(ctx: Ctx, props: PixelCanvas): void {
  const { w, h, light } = ctx;
  const x = w * 0.5;
  const y = h * 0.18;
  const cw = Math.min(w, h) * 0.2;
  props.rect(x, 0, x + 1, y, P([70, 64, 60]));
  props.rect(x - cw / 2, y, x + cw / 2, y + 2, P([200, 170, 70]));
  for (let k = 0; k < 5; k++) {
    const cx = x - cw / 2 + (k / 4) * cw;
    props.rect(cx - 0.5, y - 3, cx + 1, y, P([250, 240, 220]));
    props.set(cx, y - 4, P([255, 210, 100]));
    light.lights.push({ x: cx, y: y - 4, r: cw * 0.5, color: [255, 200, 110] });
  }
  drew(ctx, 'chandelier', 'chandelier');
}

/**
 * A drawn fire's flame colours (hot: red and yellow well over blue) give light: no dark room or
 * night dims them (decision 0113: a small torch's flame was dimmed to brown, its glow round nothing).
 */
function keepFlames(ctx: Ctx, img: RgbaImage): void {
  const d = img.data;
  for (let i = 0; i < d.length; i += 4)
    if (d[i + 3] && d[i]! >= 200 && d[i + 1]! >= 90 && d[i]! > d[i + 2]! + 100)
      ctx.glow.add(pack([d[i]!, d[i + 1]!, d[i + 2]!]));
}

/** Torches on the wall, each with a warm glow. */
async function paintWallTorches(ctx: Ctx, props: PixelCanvas, { wallY }: Room): Promise<void> {
  const { w, h, req, light } = ctx;
  const img = await prop(ctx, 'x/torch', Math.max(8, h * 0.2));
  const xs = req.corridor ? [0.3, 0.7] : w > h * 1.3 ? [0.12, 0.38, 0.62, 0.88] : [0.25, 0.75];
  if (img) keepFlames(ctx, img);
  if (img)
    for (const fx of xs) {
      const x = w * fx;
      stand(props, img, x, wallY + img.height * 0.6);
      light.lights.push({
        x,
        y: wallY - img.height * 0.25,
        r: Math.min(w, h) * 0.18,
        color: [255, 168, 70],
      });
    }
  drew(ctx, 'torches', 'torches (Assetloom composite of Fluent Emoji)', img !== null);
}

/** A stone hearth with a fire on the left. */
async function paintHearth(ctx: Ctx, props: PixelCanvas, { floorY }: Room, u: number): Promise<void> {
  const { w, light } = ctx;
  const hx = w * 0.14;
  const hw = u * 0.32;
  const hh = u * 0.34;
  const stoneC: RGB = [128, 118, 112];
  props.rect(hx - hw / 2, floorY - hh, hx + hw / 2, floorY + 1, P(stoneC));
  for (let y = floorY - hh + 3; y < floorY; y += Math.max(3, u * 0.05))
    for (let x = hx - hw / 2 + ((y / 3) % 2 ? 0 : 3); x < hx + hw / 2; x += Math.max(5, u * 0.08))
      props.rect(x, y, x + 1, y + Math.max(2, u * 0.04), P(darker(stoneC, 0.75)));
  props.rect(hx - hw * 0.3, floorY - hh * 0.55, hx + hw * 0.3, floorY + 1, P([26, 18, 20]));
  props.rect(hx - hw * 0.62, floorY - hh - u * 0.03, hx + hw * 0.62, floorY - hh, P([96, 62, 40]));
  const fire = await prop(ctx, 'x/campfire', hh * 0.45);
  if (fire) {
    stand(props, fire, hx, floorY);
    for (let i = 0; i < fire.data.length; i += 4)
      if (fire.data[i + 3]) ctx.glow.add(pack([fire.data[i]!, fire.data[i + 1]!, fire.data[i + 2]!]));
  }
  light.lights.push({ x: hx, y: floorY - hh * 0.2, r: u * 0.3, color: [255, 150, 60] });
}

/**
 * A room's one measure (decision 0107: the blind review after 1130 saw "scale errors: tavern mugs" —
 * a mug half as tall as the table): the height of its door, 0.44 of the picture. Furniture and the
 * things on it are sized against it as a door is against them: a table's top at a third of it, a
 * stool's seat at a quarter, a mug a tenth, a workbench 0.4, an anvil 0.28.
 */
const doorHeight = (ctx: Ctx): number => Math.round(ctx.h * 0.44);

/**
 * A plank door in the back wall, standing on the wall's foot: a dark frame, upright planks (lit on
 * the left of each), two iron strap hinges and a ring handle. It is drawn on the mid layer, behind
 * the furniture, and shows the room's scale.
 */
function paintWoodDoor(ctx: Ctx, mid: PixelCanvas, cx: number, floorY: number): void {
  const dh = doorHeight(ctx);
  const dw = Math.max(8, Math.round(dh * 0.46));
  const x0 = Math.round(cx - dw / 2);
  const x1 = x0 + dw;
  const y0 = Math.round(floorY) - dh;
  const y1 = Math.round(floorY);
  const frame = P([70, 46, 30]);
  const plank: RGB = [150, 100, 58];
  const fw = Math.max(1, Math.round(dw / 12));
  mid.rect(x0 - fw, y0 - fw, x1 + fw, y1, frame);
  const pw = Math.max(3, Math.round(dw / 5));
  for (let x = x0; x < x1; x++) {
    const k = Math.floor((x - x0) / pw);
    const edge = (x - x0) % pw;
    const c: RGB =
      edge === 0
        ? darker(plank, 0.62)
        : edge === 1
          ? lighter(plank, 0.1)
          : k % 2
            ? darker(plank, 0.92)
            : plank;
    mid.rect(x, y0, x + 1, y1, P(c));
  }
  const iron = P([44, 40, 44]);
  const strap = Math.max(1, Math.round(dh / 40));
  for (const hy of [y0 + dh * 0.18, y1 - dh * 0.22]) mid.rect(x0, hy, x0 + dw * 0.62, hy + strap, iron);
  const ry = Math.round(y0 + dh * 0.52);
  const rx = x1 - Math.max(3, Math.round(dw * 0.2));
  mid.rect(rx - 1, ry - 1, rx + 2, ry + 2, iron);
  mid.set(rx, ry, P(darker(plank, 0.62)));
  mid.rect(x0 - fw, y1 - 1, x1 + fw, y1, P([60, 40, 28]));
}

/** The bar on the right: a counter, a shelf of bottles behind it. */
function paintBar(ctx: Ctx, props: PixelCanvas, { floorY, near }: Room, u: number): void {
  const { w } = ctx;
  const bx0 = w * 0.7;
  const bx1 = w;
  contactShadow(ctx, near, (bx0 + bx1) / 2, (bx1 - bx0) / 2 + u * 0.1, floorY + u * 0.08);
  props.rect(bx0, floorY - u * 0.42, bx1, floorY - u * 0.4, P([96, 62, 40]));
  const bottles: RGB[] = [
    [60, 130, 80],
    [150, 60, 50],
    [90, 100, 160],
    [200, 170, 80],
  ];
  for (let x = bx0 + 3, k = 0; x < bx1 - 3; x += Math.max(4, u * 0.05), k++) {
    const bh = u * (k % 2 ? 0.09 : 0.07);
    props.rect(x, floorY - u * 0.42 - bh, x + Math.max(2, u * 0.025), floorY - u * 0.42, P(bottles[k % 4]!));
    props.rect(
      x + 0.5,
      floorY - u * 0.42 - bh - 2,
      x + Math.max(1.5, u * 0.015),
      floorY - u * 0.42 - bh,
      P(bottles[k % 4]!),
    );
  }
  props.rect(bx0 - u * 0.05, floorY - u * 0.2, bx1, floorY + u * 0.08, P([120, 78, 48]));
  props.rect(bx0 - u * 0.07, floorY - u * 0.22, bx1, floorY - u * 0.19, P([150, 100, 62]));
  for (let x = bx0; x < bx1; x += Math.max(6, u * 0.1))
    props.rect(x, floorY - u * 0.18, x + 1, floorY + u * 0.08, P([90, 58, 36]));
}

/**
 * A table in the middle, its mugs and a stool either side, all standing on one floor line (decision
 * 0098: the stools were a board at the table's height with two sticks under it, no seat to read, and
 * a named stool was stood at the table top's height, floating). The stools' seats are round-edged
 * boards, lit on top and shaded under, on splayed legs; the table and the stools keep their places
 * clear of the things the prompt names, and those stand on the same floor line.
 */
async function paintTavernTable(ctx: Ctx, props: PixelCanvas, room: Room, u: number): Promise<void> {
  const { floorY, near } = room;
  const tx = ctx.w * 0.45;
  const tw = u * 0.5;
  const dh = doorHeight(ctx);
  const foot = Math.round(floorY + u * 0.2);
  // the top board's top a third of a door above the floor (its underside 0.03 u lower)
  const ty = foot - Math.round(dh * 0.34) + Math.round(u * 0.03);
  const wood = P([140, 92, 56]);
  const woodHi = P([172, 118, 72]);
  const woodDark = P([96, 62, 38]);
  const shade = P([70, 44, 28]);
  const seat = P([176, 122, 74]);
  const seatHi = P([206, 154, 98]);
  // its top seen from above, as the floor is (decision 0135: a slab seen edge-on at eye level read
  // as floating): a board surface narrowing a pixel or two each side to its back edge, its planks'
  // joints running back, over the front edge in shade and the dark underside
  const edgeTop = Math.round(ty - u * 0.03);
  const td = Math.max(3, Math.round(u * 0.05));
  const woodTop = P([164, 110, 66]);
  for (let k = 0; k < td; k++) {
    const yy = edgeTop - td + k;
    const inset = Math.round(((td - k) / td) * Math.max(1, tw * 0.03));
    props.rect(tx - tw / 2 + inset, yy, tx + tw / 2 - inset, yy + 1, k === 0 ? woodDark : woodTop);
    for (let j = 1; j < 4; j++) {
      const f = j / 4;
      const jx = Math.round(tx - tw / 2 + inset + (tw - inset * 2) * f);
      if (k > 0) props.set(jx, yy, wood);
    }
  }
  props.rect(tx - tw / 2, edgeTop, tx + tw / 2, ty, wood);
  props.rect(tx - tw / 2, edgeTop, tx + tw / 2, edgeTop + 1, woodHi);
  props.rect(tx - tw / 2, ty, tx + tw / 2, ty + Math.max(1, u * 0.015), woodDark);
  for (const lx of [tx - tw / 2 + 2, tx + tw / 2 - 4])
    props.rect(lx, ty, lx + Math.max(2, u * 0.025), foot, woodDark);
  // the table's shadow on the floor between its legs (decision 0135)
  contactShadow(ctx, near, tx, tw * 0.58, foot);
  const seatW = Math.max(5, Math.round(u * 0.11));
  const seatH = Math.max(2, Math.round(u * 0.025));
  // a stool's seat a quarter of a door high
  const legH = Math.max(4, Math.round(dh * 0.25) - seatH);
  for (const sx of [tx - tw * 0.78, tx + tw * 0.78]) {
    const x0 = Math.round(sx - seatW / 2);
    const seatTop = foot - legH - seatH;
    contactShadow(ctx, near, sx, seatW * 0.75, foot);
    // splayed legs, from under the seat's ends out to the floor, and a rung between them
    const legW = u >= 120 ? 2 : 1;
    for (let y = 0; y < legH; y++) {
      const out = Math.floor((y / legH) * 2);
      props.rect(x0 + 1 - out, seatTop + seatH + y, x0 + 1 - out + legW, seatTop + seatH + y + 1, woodDark);
      props.rect(
        x0 + seatW - 1 - legW + out,
        seatTop + seatH + y,
        x0 + seatW - 1 + out,
        seatTop + seatH + y + 1,
        woodDark,
      );
    }
    const rung = foot - Math.round(legH * 0.45);
    props.rect(x0 + 1, rung, x0 + seatW - 1, rung + 1, shade);
    // the seat: a board of paler wood than the floor, outlined, its top lit and its underside in shade
    props.rect(x0 + 1, seatTop - 1, x0 + seatW - 1, seatTop, shade);
    props.rect(x0, seatTop, x0 + seatW, seatTop + seatH, shade);
    props.rect(x0 + 1, seatTop, x0 + seatW - 1, seatTop + 1, seatHi);
    props.rect(x0 + 1, seatTop + 1, x0 + seatW - 1, seatTop + seatH - 1, seat);
    ctx.stood.push([x0 - 2, x0 + seatW + 2]);
  }
  ctx.stood.push([tx - tw / 2, tx + tw / 2]);
  ctx.floorLine = foot;
  // a mug a tenth of a door
  const mug = await prop(ctx, 'f/beer-mug', dh * 0.13);
  if (mug)
    for (const mx of [tx - tw * 0.25, tx + tw * 0.2]) stand(props, mug, mx, edgeTop - Math.round(td * 0.4));
}

/** A lantern on a chain from the ceiling beam. */
function paintLantern(ctx: Ctx, props: PixelCanvas, u: number, at?: number): void {
  const lx = at ?? ctx.w * 0.42;
  const ly = u * 0.12;
  const lw = Math.max(3, Math.round(u * 0.05));
  const lh = Math.max(4, Math.round(u * 0.07));
  const iron = P([52, 44, 44]);
  props.rect(lx, 0, lx + 1, ly, iron);
  props.rect(lx - lw / 2 - 1, ly, lx + lw / 2 + 2, ly + 1, iron);
  props.rect(lx - lw / 2, ly + 1, lx + lw / 2 + 1, ly + lh, iron);
  props.rect(lx - lw / 2 + 1, ly + 2, lx + lw / 2, ly + lh - 1, G(ctx, [255, 214, 110]));
  props.rect(lx - lw / 2 - 1, ly + lh, lx + lw / 2 + 2, ly + lh + 1, iron);
  ctx.light.lights.push({ x: lx, y: ly + lh / 2, r: u * 0.2, color: [255, 190, 100] });
}

/** An outlined box: a fill, a lit top row, a shaded bottom row (furniture and tools of a workshop). */
function box(layer: PixelCanvas, x0: number, y0: number, x1: number, y1: number, c: RGB): void {
  const [a, b, e, f] = [Math.round(x0), Math.round(y0), Math.round(x1), Math.round(y1)];
  layer.rect(a - 1, b - 1, e + 1, f + 1, P(darker(c, 0.45)));
  layer.rect(a, b, e, f, P(c));
  if (f - b >= 3) {
    layer.rect(a, b, e, b + 1, P(lighter(c, 0.18)));
    layer.rect(a, f - 1, e, f, P(darker(c, 0.78)));
  }
}

/**
 * A workshop (decision 0107: "a carpenter's workshop" was a person standing in a meadow), its things
 * sized against its door: a woodworker's has a window, planks leaning on the wall, a board of tools
 * (a saw, a hammer, a square, chisels) and a workbench (0.4 of the door) with a vise, a plank and a
 * plane on it; a smith's has a forge (a stone hearth with glowing coals under a hood and chimney), an
 * anvil on a stump (0.28 of the door), a quench tub and tongs and hammers on the wall.
 */
async function paintWorkshop(ctx: Ctx, props: PixelCanvas, room: Room): Promise<void> {
  const { w, h, light } = ctx;
  const { floorY } = room;
  const dh = doorHeight(ctx);
  const u = Math.min(w, h);
  const foot = Math.round(floorY + u * 0.2);
  const smith = ctx.req.trade === 'smith';
  paintWoodDoor(ctx, room.mid, w * 0.88, floorY);
  const wood: RGB = [150, 104, 62];
  const iron: RGB = [78, 78, 88];
  const steel: RGB = [168, 176, 190];
  const handle: RGB = [120, 76, 44];
  // a board of tools on the wall
  const bx0 = w * (smith ? 0.4 : 0.42);
  const bx1 = w * (smith ? 0.66 : 0.72);
  const by0 = floorY - dh * 0.95;
  const by1 = floorY - dh * 0.5;
  box(room.mid, bx0, by0, bx1, by1, [176, 140, 96]);
  const hook = (x: number) => room.mid.rect(x, by0 + 2, x + 1, by0 + 4, P(darker(iron, 0.6)));
  const bw = bx1 - bx0;
  const th = by1 - by0;
  if (!smith) {
    // a hand saw: a steel blade narrowing to its tip, teeth below, a wooden grip
    const sx = bx0 + bw * 0.06;
    const sy = by0 + th * 0.25;
    const len = bw * 0.36;
    hook(Math.round(sx + 2));
    props.polygon(
      [
        [sx + len * 0.22, sy],
        [sx + len, sy + th * 0.16],
        [sx + len, sy + th * 0.26],
        [sx + len * 0.22, sy + th * 0.38],
      ],
      P(steel),
    );
    for (let x = sx + len * 0.25; x < sx + len; x += 2)
      props.set(x, sy + th * 0.38 - ((x - sx) / len) * th * 0.12, P(darker(steel, 0.6)));
    box(props, sx, sy, sx + len * 0.22, sy + th * 0.36, handle);
    // a hammer: a handle and a steel head
    const hx = bx0 + bw * 0.5;
    hook(Math.round(hx));
    box(props, hx - 1, by0 + th * 0.3, hx + 1, by0 + th * 0.86, handle);
    box(props, hx - bw * 0.06, by0 + th * 0.2, hx + bw * 0.06, by0 + th * 0.32, iron);
    // a square: an L of steel
    const qx = bx0 + bw * 0.62;
    props.rect(qx, by0 + th * 0.2, qx + 2, by0 + th * 0.8, P(steel));
    props.rect(qx, by0 + th * 0.78, qx + bw * 0.14, by0 + th * 0.8 + 2, P(steel));
    // chisels: steel blades under wooden grips
    for (let k = 0; k < 3; k++) {
      const cx = bx0 + bw * (0.82 + k * 0.06);
      props.rect(cx, by0 + th * 0.22, cx + 2, by0 + th * 0.45, P(handle));
      props.rect(cx, by0 + th * 0.45, cx + 1, by0 + th * (0.65 + k * 0.05), P(steel));
    }
    // a window with daylight, on the left
    const wx0 = w * 0.2;
    const wx1 = w * 0.32;
    const wy0 = floorY - dh * 0.98;
    const wy1 = floorY - dh * 0.58;
    box(room.mid, wx0, wy0, wx1, wy1, [196, 222, 236]);
    room.mid.rect(wx0, wy0, wx1, wy0 + (wy1 - wy0) * 0.35, P([220, 236, 244]));
    room.mid.rect((wx0 + wx1) / 2, wy0, (wx0 + wx1) / 2 + 1, wy1, P([92, 64, 40]));
    room.mid.rect(wx0, (wy0 + wy1) / 2, wx1, (wy0 + wy1) / 2 + 1, P([92, 64, 40]));
    room.mid.rect(wx0 - 2, wy1 + 1, wx1 + 2, wy1 + 3, P([110, 76, 48]));
    light.lights.push({ x: (wx0 + wx1) / 2, y: (wy0 + wy1) / 2, r: u * 0.24, color: [255, 236, 190] });
    // planks leaning on the wall, left
    for (let k = 0; k < 4; k++) {
      const x = w * 0.05 + k * Math.max(3, u * 0.025);
      const top = foot - dh * (0.95 - k * 0.07);
      const pw = Math.max(2, Math.round(u * 0.02));
      const lean = dh * 0.12;
      for (let y = Math.round(top); y < foot; y++) {
        const t = (y - top) / (foot - top);
        const xx = x + lean * t;
        props.rect(xx, y, xx + pw, y + 1, P(k % 2 ? darker(wood, 0.9) : lighter(wood, 0.08)));
        props.set(xx + pw, y, P(darker(wood, 0.55)));
      }
    }
    ctx.stood.push([w * 0.04, w * 0.2]);
    // the workbench: a thick top 0.4 of a door high, legs, a stretcher and a shelf, a vise at its end
    const wb0 = w * 0.38;
    const wb1 = w * 0.76;
    const topY = foot - Math.round(dh * 0.4);
    const tt = Math.max(3, Math.round(dh * 0.05));
    box(props, wb0, topY, wb1, topY + tt, wood);
    for (const lx of [wb0 + 2, wb1 - 2 - Math.max(2, u * 0.025)])
      box(props, lx, topY + tt, lx + Math.max(2, u * 0.025), foot, darker(wood, 0.82));
    box(props, wb0 + 4, foot - dh * 0.12, wb1 - 4, foot - dh * 0.12 + 2, darker(wood, 0.75));
    box(props, wb0 - 1, topY - tt, wb0 + dh * 0.07, topY, iron);
    // on it: a plank, a plane, curls of shavings
    box(props, wb0 + (wb1 - wb0) * 0.2, topY - 2, wb0 + (wb1 - wb0) * 0.62, topY, lighter(wood, 0.2));
    const px = wb0 + (wb1 - wb0) * 0.42;
    box(props, px, topY - 2 - dh * 0.05, px + dh * 0.1, topY - 2, handle);
    props.rect(px + dh * 0.07, topY - 2 - dh * 0.08, px + dh * 0.07 + 2, topY - 2 - dh * 0.05, P(handle));
    for (let k = 0; k < 5; k++)
      props.set(wb0 + (wb1 - wb0) * (0.7 + k * 0.05), topY - 1 - (k % 2), P([226, 196, 140]));
    ctx.stood.push([wb0 - 2, wb1 + 2]);
    ctx.floorLine = foot;
    if (ctx.req.cozy) paintCozyRug(room.near, (wb0 + wb1) / 2, foot + u * 0.05, (wb1 - wb0) * 0.55);
    return;
  }
  // tongs and hammers on the wall
  for (let k = 0; k < 4; k++) {
    const x = bx0 + bw * (0.15 + k * 0.22);
    hook(Math.round(x));
    props.rect(x, by0 + th * 0.2, x + 1, by0 + th * 0.85, P(iron));
    if (k % 2) props.rect(x + 2, by0 + th * 0.2, x + 3, by0 + th * 0.85, P(iron));
    else box(props, x - bw * 0.04, by0 + th * 0.15, x + bw * 0.05, by0 + th * 0.26, iron);
  }
  // the forge: a stone hearth with coals, a hood and a chimney to the top
  const fx0 = w * 0.06;
  const fx1 = w * 0.34;
  const fTop = foot - dh * 0.42;
  const stone: RGB = [124, 112, 106];
  box(props, fx0, fTop, fx1, foot, stone);
  for (let y = fTop + 4; y < foot - 2; y += Math.max(3, Math.round(dh * 0.07)))
    props.rect(fx0 + 1, y, fx1 - 1, y + 1, P(darker(stone, 0.75)));
  const coal = fTop - Math.max(2, dh * 0.04);
  props.rect(fx0 + 3, coal, fx1 - 3, fTop, P([60, 30, 26]));
  for (let x = fx0 + 4; x < fx1 - 4; x += 2)
    props.set(x, coal + (x % 4 < 2 ? 0 : 1), G(ctx, x % 6 < 2 ? [255, 220, 120] : [250, 120, 40]));
  const hood0 = fx0 + (fx1 - fx0) * 0.1;
  const hood1 = fx1 - (fx1 - fx0) * 0.1;
  const hoodY = fTop - dh * 0.52;
  // the hood: a trapezoid of darker stone over the fire, narrowing up into the chimney
  const hoodH = dh * 0.2;
  const chim0 = hood0 + (hood1 - hood0) * 0.3;
  const chim1 = hood1 - (hood1 - hood0) * 0.3;
  box(props, chim0, 0, chim1, hoodY, darker(stone, 0.9));
  for (let y = Math.round(hoodY); y < hoodY + hoodH; y++) {
    const t = (y - hoodY) / hoodH;
    const a = chim0 + (hood0 - chim0) * t;
    const b = chim1 + (hood1 - chim1) * t;
    props.rect(a - 1, y, b + 1, y + 1, P(darker(stone, 0.45)));
    props.rect(a, y, b, y + 1, P(darker(stone, 0.8)));
  }
  props.rect(hood0 - 1, hoodY + hoodH, hood1 + 1, hoodY + hoodH + 2, P(darker(stone, 0.45)));
  const fire = await prop(ctx, 'x/campfire', dh * 0.3);
  if (fire) {
    stand(props, fire, (fx0 + fx1) / 2, fTop);
    for (let i = 0; i < fire.data.length; i += 4)
      if (fire.data[i + 3]) ctx.glow.add(pack([fire.data[i]!, fire.data[i + 1]!, fire.data[i + 2]!]));
  }
  light.lights.push({ x: (fx0 + fx1) / 2, y: coal, r: u * 0.3, color: [255, 140, 50] });
  // the anvil on its stump, 0.28 of a door
  const ax = w * 0.5;
  const stumpH = Math.round(dh * 0.15);
  const aw = dh * 0.26;
  box(props, ax - aw * 0.28, foot - stumpH, ax + aw * 0.28, foot, [120, 82, 50]);
  const aTop = foot - Math.round(dh * 0.28);
  box(props, ax - aw * 0.18, aTop + dh * 0.05, ax + aw * 0.18, foot - stumpH, [64, 64, 74]);
  box(props, ax - aw * 0.5, aTop, ax + aw * 0.42, aTop + dh * 0.05, [86, 86, 98]);
  props.polygon(
    [
      [ax - aw * 0.5, aTop],
      [ax - aw * 0.82, aTop + 1],
      [ax - aw * 0.5, aTop + dh * 0.04],
    ],
    P([86, 86, 98]),
  );
  props.rect(ax - aw * 0.45, aTop, ax + aw * 0.4, aTop + 1, P([150, 152, 168]));
  // a quench tub
  const qx = w * 0.64;
  const qh = dh * 0.22;
  box(props, qx - dh * 0.1, foot - qh, qx + dh * 0.1, foot, [116, 80, 50]);
  props.rect(qx - dh * 0.1, foot - qh, qx + dh * 0.1, foot - qh + 1, P([70, 100, 120]));
  for (const yy of [foot - qh * 0.7, foot - qh * 0.25])
    props.rect(qx - dh * 0.1, yy, qx + dh * 0.1, yy + 1, P(iron));
  ctx.stood.push([fx0, fx1], [ax - aw, ax + aw], [qx - dh * 0.12, qx + dh * 0.12]);
  ctx.floorLine = foot;
}

/**
 * A cozy room (decision 0107: "cozy" was not honoured): a rug on the floor before the hearth, a red
 * field with an ochre border and a row of lozenges, lying flat in the floor's perspective (drawn on
 * the floor layer, under the furniture).
 */
function paintCozyRug(near: PixelCanvas, cx: number, y: number, half: number): void {
  const field: RGB = [156, 52, 46];
  const border: RGB = [206, 150, 72];
  const deep = darker(field, 0.7);
  const rows = Math.max(5, Math.round(half * 0.22));
  for (let k = 0; k < rows; k++) {
    // a flattened oval: narrower at its far and near edges
    const t = (k + 0.5) / rows;
    const span = half * Math.sqrt(1 - (2 * t - 1) ** 2 * 0.85);
    const yy = Math.round(y - rows / 2 + k);
    for (let x = Math.round(cx - span); x <= Math.round(cx + span); x++) {
      const edge = Math.min(x - (cx - span), cx + span - x);
      const c =
        k === 0 || k === rows - 1 || edge < 1.5
          ? deep
          : edge < 3.5 || k === 1 || k === rows - 2
            ? border
            : field;
      near.set(x, yy, P(c));
    }
  }
  // lozenges along the middle row
  const my = Math.round(y);
  for (let x = Math.round(cx - half * 0.6); x < cx + half * 0.6; x += 6) {
    near.set(x, my, P(border));
    near.set(x - 1, my, P(lighter(border, 0.1)));
    near.set(x + 1, my, P(lighter(border, 0.1)));
  }
}

/** Two lit candles on a table top at y, either side of x: a light each. */
function paintCandles(ctx: Ctx, props: PixelCanvas, xs: number[], y: number): void {
  const tall = Math.max(3, Math.round(doorHeight(ctx) * 0.07));
  for (const x of xs) {
    props.rect(x - 1, y - 1, x + 2, y, P([120, 110, 100]));
    props.rect(x, y - tall, x + 1, y - 1, P([240, 232, 210]));
    props.set(x, y - tall - 1, G(ctx, [255, 220, 120]));
    props.set(x, y - tall - 2, G(ctx, [255, 170, 70]));
    ctx.light.lights.push({ x, y: y - tall - 1, r: Math.min(ctx.w, ctx.h) * 0.1, color: [255, 200, 110] });
  }
}

/** A tavern's hearth, bar, table and lantern. */
async function paintTavern(ctx: Ctx, props: PixelCanvas, room: Room): Promise<void> {
  const u = Math.min(ctx.w, ctx.h);
  // a door in the back wall behind the table: the room's measure (decision 0107)
  paintWoodDoor(ctx, room.mid, ctx.w * 0.56, room.floorY);
  if (ctx.req.cozy) paintCozyRug(room.near, ctx.w * 0.4, room.floorY + u * 0.21, u * 0.42);
  await paintHearth(ctx, props, room, u);
  paintBar(ctx, props, room, u);
  await paintTavernTable(ctx, props, room, u);
  paintLantern(ctx, props, u);
  if (ctx.req.cozy) {
    // a second lantern over the bar, candles on the table's top either side of the mugs
    paintLantern(ctx, props, u, ctx.w * 0.8);
    // on the table's top, between its back and front edges
    const top =
      Math.round(room.floorY + u * 0.2) -
      Math.round(doorHeight(ctx) * 0.34) -
      Math.round(Math.max(3, Math.round(u * 0.05)) * 0.4);
    paintCandles(ctx, props, [Math.round(ctx.w * 0.45 - u * 0.2), Math.round(ctx.w * 0.45 + u * 0.05)], top);
  }
}

/**
 * Furniture and fittings a room's setting or the prompt names, in the order they are drawn (later
 * ones stand in front). A dungeon always has a few torches.
 */
const ROOM_FITTINGS: Array<{
  when: (ctx: Ctx, s: Setting) => boolean;
  paint: (ctx: Ctx, props: PixelCanvas, room: Room) => void | Promise<void>;
}> = [
  { when: (ctx, s) => s === 'castle_hall' || ctx.has('banners'), paint: paintBanners },
  { when: (ctx, s) => ctx.has('throne') || s === 'castle_hall', paint: paintThrone },
  { when: (ctx, s) => ctx.has('bookshelves') || s === 'library', paint: paintBookshelves },
  { when: (ctx, s) => ctx.has('barrels') || s === 'tavern', paint: paintBarrels },
  { when: (ctx, s) => ctx.has('crystals') || s === 'cave', paint: paintCrystals },
  { when: (ctx) => ctx.has('chandelier'), paint: paintChandelier },
  {
    when: (ctx, s) => ctx.has('torches') || s === 'dungeon' || s === 'castle_hall',
    paint: paintWallTorches,
  },
  { when: (_, s) => s === 'tavern', paint: paintTavern },
  { when: (_, s) => s === 'workshop', paint: paintWorkshop },
  { when: (ctx, s) => s === 'laboratory' && !ctx.req.alchemy, paint: paintLab },
  { when: (ctx) => ctx.req.alchemy === true, paint: paintAlchemy },
  { when: (_, s) => s === 'courtyard', paint: paintCourtyard },
  {
    when: (ctx, s) =>
      (s === 'cave' || s === 'dungeon') && (ctx.has('waterfall') || ctx.has('river') || ctx.has('lake')),
    paint: paintRoomWater,
  },
];

/** A room: its back wall (by ROOM_WALL), a doorway, the floor, then the fittings of ROOM_FITTINGS. */
async function paintRoom(
  ctx: Ctx,
  back: PixelCanvas,
  mid: PixelCanvas,
  near: PixelCanvas,
  props: PixelCanvas,
): Promise<void> {
  const { w, h, req } = ctx;
  const s = req.setting as RoomSetting;
  const smithy = s === 'workshop' && req.trade === 'smith';
  const stone: RGB = req.alchemy || smithy ? [112, 100, 96] : (ROOM_STONE[s] ?? [86, 84, 96]);
  const floorY = h * 0.72;
  ctx.groundY = floorY;
  const bw = Math.max(6, Math.round(Math.min(w, h) / 10));
  const room: Room = {
    stone,
    floorY,
    wallY: floorY * 0.45,
    bw,
    bh: Math.max(3, Math.round(bw / 2)),
    mortar: P(darker(stone, 0.62)),
    shades: [P(stone), P(darker(stone, 0.9)), P(lighter(stone, 0.08))],
    mid,
    near,
  };
  (req.alchemy || smithy ? paintBlockWall : (ROOM_WALL[s] ?? paintBlockWall))(ctx, back, room);
  if (req.corridor || s === 'dungeon') paintDoorway(ctx, mid, room);
  paintRoomFloor(ctx, near, room, smithy ? [92, 80, 70] : (ROOM_FLOOR[s] ?? darker(stone, 0.85)));
  for (const fitting of ROOM_FITTINGS) if (fitting.when(ctx, s)) await fitting.paint(ctx, props, room);
  // a wall named inside is the room's own
  if (ctx.has('wall')) drew(ctx, 'wall', "the room's walls");
}

/**
 * One coral `size` tall standing at x, y, of its kind, lit from the upper left (decision 0135):
 * branching (forking limbs that thin to rounded tips), a sea fan (ribs from one stem in an arc, laced
 * across), a brain coral (a dome with winding grooves) or tubes (a clump of upright tubes, dark
 * mouths with lit rims). `c` packs a colour in the scene's light.
 */
function coral(
  layer: PixelCanvas,
  kind: 'branch' | 'fan' | 'brain' | 'tube',
  x: number,
  y: number,
  size: number,
  tint: RGB,
  r: Rng,
  c: (v: RGB) => number,
): void {
  const body = c(tint);
  const lit = c(lighter(tint, 0.3));
  const shade = c(darker(tint, 0.68));
  const deep = c(darker(tint, 0.45));
  if (kind === 'branch') {
    const limb = (bx: number, by: number, ang: number, len: number, wd: number, depth: number): void => {
      const steps = Math.max(2, Math.round(len));
      let px = bx;
      let py = by;
      for (let s = 0; s < steps; s++) {
        px += Math.sin(ang);
        py -= Math.cos(ang);
        const half = Math.max(0.5, wd / 2);
        layer.rect(px - half, py, px + half + 1, py + 1, body);
        layer.set(Math.round(px - half), Math.round(py), lit);
        if (wd >= 2) layer.set(Math.round(px + half), Math.round(py), shade);
        ang += r.range(-0.08, 0.08);
      }
      if (depth <= 0 || len < 3) {
        layer.rect(px - 1, py - 1, px + 1, py + 1, lit);
        return;
      }
      const forks = r.chance(0.35) ? 3 : 2;
      for (let f = 0; f < forks; f++) {
        const spread = r.range(0.3, 0.75) * (f === 0 ? -1 : f === 1 ? 1 : r.range(-0.3, 0.3));
        limb(px, py, ang + spread, len * r.range(0.6, 0.85), Math.max(1.5, wd * 0.72), depth - 1);
      }
    };
    const lean = r.range(-0.35, 0.35);
    limb(x, y, lean, size * r.range(0.3, 0.42), Math.max(2, size * r.range(0.13, 0.18)), r.int(2, 3));
    return;
  }
  if (kind === 'fan') {
    const stem = size * r.range(0.12, 0.2);
    const fx = x + r.range(-0.1, 0.1) * size;
    const fy = y - stem;
    layer.line(x, y, fx, fy, shade, Math.max(1, Math.round(size * 0.05)));
    const ribs = r.int(5, 8);
    const reach = size - stem;
    const wide = r.range(0.8, 1.25);
    const a0 = -0.95 * wide;
    const a1 = 0.95 * wide;
    // the fan's body: a mesh filling the sector between the outer ribs, its rim wavy
    const wav = r.range(0, 6.28);
    for (let yy = Math.floor(fy - reach); yy < fy; yy++)
      for (let xx = Math.floor(fx - reach); xx <= Math.ceil(fx + reach); xx++) {
        const dx = xx - fx;
        const dy = (fy - yy) / 0.9;
        const a = Math.atan2(dx, dy);
        if (a < a0 || a > a1) continue;
        const rim = reach * (0.82 + 0.12 * Math.sin(a * 5 + wav));
        const d = Math.hypot(dx, dy);
        if (d > rim) continue;
        const mesh = (xx + yy) % 3 === 0 || (xx - yy) % 3 === 0;
        layer.set(xx, yy, d > rim - 1 ? shade : mesh ? shade : dx < 0 ? body : c(darker(tint, 0.85)));
      }
    for (let k = 0; k < ribs; k++) {
      const a = a0 + ((a1 - a0) * k) / (ribs - 1) + r.range(-0.08, 0.08);
      const len = reach * r.range(0.6, 0.85);
      const tx = fx + Math.sin(a) * len;
      const ty = fy - Math.cos(a) * len * 0.9;
      layer.line(fx, fy, tx, ty, k < ribs / 2 ? lit : body, 1);
    }
    return;
  }
  if (kind === 'brain') {
    const rx = size * r.range(0.42, 0.6);
    const ry = size * r.range(0.32, 0.45);
    const ph = r.range(0, 6.28);
    const fq = r.range(0.5, 0.8);
    for (let yy = Math.floor(y - ry); yy < y; yy++)
      for (let xx = Math.floor(x - rx); xx <= Math.ceil(x + rx); xx++) {
        const dx = (xx - x) / rx;
        const dy = (yy - y) / ry;
        const d = dx * dx + dy * dy;
        if (d > 1) continue;
        // winding grooves over the dome, the upper left lit, the lower right in shade
        const groove = Math.sin(xx * fq + Math.sin(yy * 0.55 + ph) * 2.4 + yy * 0.3) > 0.62;
        const side = dx * 0.7 - dy * 0.7;
        const v =
          d > 0.82
            ? shade
            : groove
              ? side < -0.2
                ? lit
                : deep
              : side < -0.35
                ? lit
                : side > 0.45
                  ? shade
                  : body;
        layer.set(xx, yy, v);
      }
    return;
  }
  // tubes: a clump of three to six, each its own height and width
  const tubes = r.int(3, 6);
  let tx = x - size * 0.3;
  for (let k = 0; k < tubes; k++) {
    const tw = Math.max(2, Math.round(size * r.range(0.1, 0.18)));
    const th = Math.round(size * r.range(0.4, 1));
    const top = Math.round(y - th);
    const x0 = Math.round(tx);
    layer.rect(x0, top, x0 + tw, y, body);
    layer.rect(x0, top, x0 + 1, y, lit);
    layer.rect(x0 + tw - 1, top, x0 + tw, y, shade);
    layer.rect(x0, top, x0 + tw, top + 1, lit);
    if (tw >= 3) layer.rect(x0 + 1, top, x0 + tw - 1, top + 1, deep);
    tx += tw * r.range(0.7, 1.1);
  }
}

/**
 * Water inside a cave or a dungeon, of its material (issue #39: "a waterfall of lava in a cave"): a fall
 * from a cleft in the back wall into a pool, or a stream across the floor.
 */
function paintRoomWater(ctx: Ctx, props: PixelCanvas, { floorY, wallY }: Room): void {
  const { w, h } = ctx;
  const m = materialOf(ctx, 'waterfall', 'river', 'lake');
  const c = WATER_COLOURS[m];
  const body = waterPack(ctx, m, c.body);
  const hi = waterPack(ctx, m, c.hi);
  const deep = waterPack(ctx, m, c.deep);
  const x = w * 0.62;
  const fw = Math.max(3, w * 0.07);
  if (ctx.has('waterfall')) {
    const top = wallY * 0.5;
    props.rect(x - fw * 0.7, top - 2, x + fw * 0.7, top + 1, P([30, 26, 34]));
    for (let y = Math.floor(top); y < floorY + h * 0.04; y++)
      for (let xx = Math.floor(x - fw / 2); xx < x + fw / 2; xx++)
        props.px[y * w + xx] = [body, hi, deep][(Math.floor(xx / 2) + Math.floor(y / 4)) % 3]!;
    drew(ctx, 'waterfall', waterName(m, 'waterfall'));
  }
  // the pool or stream on the floor
  props.ellipse(x, floorY + (h - floorY) * 0.35, w * 0.2, (h - floorY) * 0.22, body);
  props.ellipse(x, floorY + (h - floorY) * 0.35, w * 0.12, (h - floorY) * 0.1, deep);
  for (let k = 0; k < 4; k++)
    props.rect(
      x - w * 0.12 + k * w * 0.06,
      floorY + (h - floorY) * (0.28 + (k % 2) * 0.1),
      x - w * 0.1 + k * w * 0.06,
      floorY + (h - floorY) * (0.28 + (k % 2) * 0.1) + 1,
      hi,
    );
  if (m === 'lava') ctx.light.lights.push({ x, y: floorY, r: Math.min(w, h) * 0.35, color: [255, 140, 60] });
  for (const k of ['river', 'lake'] as const) drew(ctx, k, waterName(m, k === 'lake' ? 'pool' : 'stream'));
}

// ---- underwater and space --------------------------------------------------------------------------

async function paintUnderwater(
  ctx: Ctx,
  back: PixelCanvas,
  mid: PixelCanvas,
  near: PixelCanvas,
  props: PixelCanvas,
): Promise<void> {
  const { w, h, rng, light } = ctx;
  const night = light.time === 'night';
  const stops: RGB[] = [
    night ? [14, 34, 70] : [70, 160, 206],
    night ? [10, 24, 54] : [36, 108, 172],
    night ? [6, 14, 34] : [20, 60, 112],
  ];
  // the water from the lit surface down to the deep: six steps along the stops, each edge a short
  // tapered dither that wanders across the width (decision 0125: flat bands with a hard edge at a
  // third of the height read as stripes; a checkered band read worse, issue #39)
  const count = 6;
  const steps = Array.from({ length: count }, (_, i) => {
    const t = (i / (count - 1)) * 2;
    const k = Math.min(1, Math.floor(t));
    return P(mixRgb(stops[k]!, stops[k + 1]!, t - k));
  });
  const edges = Array.from({ length: count - 1 }, (_, i) =>
    Math.round(h * (0.1 + 0.17 * i) * (1 - i * 0.02)),
  );
  paintRamp(back, 0, h, steps, edges, { phase: ctx.detail('water').range(0, 6.28) });
  // rays of light from the surface
  const ray = P(night ? [30, 60, 100] : [120, 200, 232]);
  for (let k = 0; k < Math.max(3, Math.round(w / 60)); k++) {
    const x0 = rng.range(0, w);
    for (let y = 0; y < h * 0.7; y++)
      if (bayer(Math.floor(x0 + y * 0.3), y) > y / (h * 0.7) + 0.2)
        back.rect(x0 + y * 0.3, y, x0 + y * 0.3 + Math.max(2, w * 0.03), y + 1, ray);
  }
  // far rocks, mid seaweed, the sand floor
  const rocks = ridge(rng.fork('rocks'), w, h * 0.74, h * 0.2, 4, true);
  fillRidge(mid, rocks, night ? [20, 40, 70] : [46, 92, 130]);
  const floor = ridge(rng.fork('floor'), w, h * 0.86, h * 0.05, 5, false);
  ctx.groundY = h * 0.86;
  fillRidge(near, floor, [196, 176, 120]);
  // seaweed and kelp: each strand its own length, width, sway and phase, lit on the side towards the
  // surface light; the far ones hazed into the water, the near ones darker (decision 0125: strands
  // of one width and one wave read as a stamp)
  const rw = ctx.detail('weed');
  const kelp = /kelp|海带/.test(ctx.text);
  const strands = Math.max(5, Math.round((w / 20) * (kelp ? 1.6 : 1)));
  for (let k = 0; k < strands; k++) {
    const farOff = k < strands * 0.4;
    const base: RGB = farOff
      ? mixRgb([36, 130, 84], unpack(steps[2]!), 0.45)
      : rw.pick<RGB>([
          [40, 150, 80],
          [30, 118, 64],
          [70, 140, 56],
          [96, 120, 44],
        ]);
    const body = P(base);
    const litC = P(lighter(base, 0.25));
    const shadeC = P(darker(base, 0.72));
    const x0 = rw.range(0, w);
    const len = h * rw.range(kelp ? 0.3 : 0.15, kelp ? 0.7 : 0.35) * (farOff ? 0.8 : 1);
    const width = Math.max(1, Math.round((w / 100) * rw.range(0.7, kelp ? 2 : 1.4)));
    const sway = w * rw.range(0.006, 0.02);
    const period = h * rw.range(0.03, 0.06);
    const phase = rw.range(0, 6.28);
    const foot = h * 0.86 + (farOff ? -h * 0.04 : 0);
    for (let y = 0; y < len; y++) {
      const x = x0 + Math.sin(y / period + phase) * sway;
      const tip = y > len * 0.85 ? Math.max(1, Math.round(width * 0.5)) : width;
      mid.rect(x, foot - y, x + tip, foot - y + 1, body);
      mid.set(Math.floor(x), Math.round(foot - y), litC);
      if (tip > 2) mid.set(Math.floor(x) + tip - 1, Math.round(foot - y), shadeC);
      // kelp's blades: a leaf off alternate sides every few rows
      if (kelp && y % Math.max(4, Math.round(period * 0.8)) === 0 && y > len * 0.15) {
        const side = (y / Math.max(4, Math.round(period * 0.8))) % 2 ? 1 : -1;
        const lx = side > 0 ? x + tip : x - 1;
        mid.line(lx, foot - y, lx + side * width * 1.6, foot - y - width * 1.2, side > 0 ? shadeC : litC, 1);
      }
    }
  }
  // corals drawn each for itself (decision 0135: the Fluent coral reshaped and tinted still read as
  // one stamp): branching, fan, brain and tube corals, each its own size, colour, spread and lean;
  // a back row smaller and hazed into the water, a front row larger on the sea floor's edge
  const tints: RGB[] = [
    [255, 120, 140],
    [255, 170, 80],
    [190, 110, 230],
    [255, 96, 120],
    [250, 210, 120],
    [236, 110, 90],
  ];
  const hasCoral = ctx.has('coral') || ctx.req.setting === 'underwater';
  const rc = ctx.detail('coral');
  const n = Math.max(3, Math.round(w / 45));
  const kinds = ['branch', 'fan', 'brain', 'tube'] as const;
  const first = rc.int(0, 3);
  if (hasCoral)
    for (const row of [0, 1]) {
      const count = row === 0 ? Math.max(2, Math.round(n * 0.7)) : n;
      for (let k = 0; k < count; k++) {
        const far = row === 0;
        const size = h * (far ? rc.range(0.09, 0.15) : rc.range(0.14, 0.27));
        const x = ((k + rc.range(0.15, 0.85)) / count) * w;
        const y = far ? h * rc.range(0.83, 0.86) : h * 0.9 + rc.range(0, h * 0.05);
        const tint = rc.pick(tints);
        const haze = far ? 0.4 : 0;
        const kind = kinds[(first + k + row * 2) % kinds.length]!;
        const c = (v: RGB) => P(light.ambient(mixRgb(v, [40, 110, 150], haze)));
        coral(far ? mid : props, kind, x, y, size, tint, rc, c);
      }
    }
  drew(ctx, 'coral', 'coral (branching, fan, brain and tube)', hasCoral);
  const fishIds = ['f/tropical-fish', 'f/fish', 'f/blowfish'];
  // each fish in open water of its own: never one fish pasted over another
  const swum: Array<[number, number, number, number]> = [];
  for (let k = 0; k < Math.max(2, Math.round(w / 80)); k++) {
    const fish = await prop(ctx, fishIds[k % fishIds.length]!, h * rng.range(0.07, 0.11));
    if (!fish) continue;
    for (let t = 0; t < 12; t++) {
      const x = rng.range(0.1, 0.9) * w;
      const y = rng.range(0.25, 0.6) * h;
      const box: [number, number, number, number] = [
        x - fish.width / 2,
        y - fish.height,
        x + fish.width / 2,
        y,
      ];
      const gap = 2;
      if (
        swum.some(
          (b) => box[0] < b[2] + gap && box[2] > b[0] - gap && box[1] < b[3] + gap && box[3] > b[1] - gap,
        )
      )
        continue;
      swum.push(box);
      stand(props, fish, x, y, light.ambient);
      break;
    }
  }
  drew(ctx, 'fish', 'fish (Fluent Emoji)');
  const bubble = P([200, 236, 250]);
  for (let k = 0; k < Math.max(8, Math.round(w / 16)); k++) {
    const r = Math.max(1, Math.min(w, h) * rng.range(0.006, 0.016));
    const x = rng.range(0, w);
    const y = rng.range(0.1, 0.8) * h;
    props.disc(x, y, r, bubble);
    if (r > 1.5) props.disc(x, y, r - 1, 0);
  }
  drew(ctx, 'bubbles', 'bubbles');
  drew(ctx, 'seaweed', 'seaweed');
}

async function paintSpace(ctx: Ctx, back: PixelCanvas, mid: PixelCanvas, props: PixelCanvas): Promise<void> {
  const { w, h, rng } = ctx;
  back.px.fill(P([8, 8, 24]));
  // a nebula: clouds in three solid tones, denser towards their cores, a dithered rim only at the edge
  const neb = new Noise2D(rng.fork('nebula'), 4);
  const nebC = [P([40, 22, 70]), P([84, 34, 104]), P([150, 62, 140])];
  const scale = 4 * Math.max(1, Math.min(w, h) / 90);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = neb.fbm((x / Math.min(w, h)) * scale * 0.5, (y / Math.min(w, h)) * scale * 0.5, 4);
      if (v > 0.74) back.px[y * w + x] = nebC[2]!;
      else if (v > 0.64) back.px[y * w + x] = nebC[1]!;
      else if (v > 0.56 || (v > 0.53 && bayer(x, y) < 0.5)) back.px[y * w + x] = nebC[0]!;
    }
  const star = P([250, 250, 236]);
  const dim = P([140, 140, 176]);
  for (let i = 0; i < w * h * 0.004; i++) back.set(rng.range(0, w), rng.range(0, h), i % 3 ? dim : star);
  const planet = await prop(ctx, 'f/ringed-planet', Math.min(w, h) * 0.4);
  if (planet) mid.blit(planet, w * 0.62, h * 0.18);
  const moon = await prop(ctx, 'f/full-moon', Math.min(w, h) * 0.14);
  if (moon) mid.blit(moon, w * 0.15, h * 0.15);
  drew(ctx, 'planets', 'ringed planet (Fluent Emoji)', planet !== null);
  if (ctx.has('asteroids')) {
    const rock = await prop(ctx, 'f/rock', Math.min(w, h) * 0.1, [120, 110, 110]);
    if (rock)
      for (let k = 0; k < 4; k++)
        props.blit(rock, rng.range(0, w - rock.width), rng.range(0.5, 0.9) * h, (c) => scaleRgb(c, 0.7));
    drew(ctx, 'asteroids', 'asteroids', rock !== null);
  }
  drew(ctx, 'nebula', 'nebula');
}

// ---- the whole scene ----------------------------------------------------------------------------------

/**
 * Composes a background from what the prompt names, over a layered depth: sky (gradient, sun or
 * moon, stars, clouds), far land (mountains, dunes, a skyline, the sea's horizon), the middle (hills,
 * the sea, trees, a town, pyramids, a volcano, a waterfall, a harbour), the near ground (textured strip
 * with the named props from the licensed drawings), the light of the scene's own lights, and the weather.
 * Time of day, weather and neon change the ramps; dithering only joins the sky's bands and draws glows.
 */
export async function composeScene(job: {
  width: number;
  height: number;
  req: SceneRequest;
  rng: Rng;
  style: ResolvedStyle;
  painter: Painter;
  drawThing?: DrawThing;
  text?: string;
  /** The request's seed (the detail streams'). */
  seed?: number;
}): Promise<ComposedScene> {
  const { width: w, height: h, req } = job;
  const lib = await loadDrawings();
  const light = lightingFor(req.time, req.weather, req.neon);
  const kinds = new Set(req.elements.map((e) => e.kind));
  // made on first use, so a room, the sea floor and space (which vary nothing) keep their pictures
  let varyRoot: Rng | null = null;
  const salt = `${req.setting}|${[...kinds].sort().join(',')}|${req.time}|${req.haunted ? 'haunted' : ''}`;
  const ctx: Ctx = {
    detail: (part) => new Rng(hash53(`${part}|${salt}`, job.seed ?? 0)),
    vary: (part) => {
      varyRoot ??= job.rng.fork('vary');
      return varyRoot.fork(`${part}|${salt}`);
    },
    w,
    h,
    rng: job.rng,
    light,
    style: job.style,
    painter: job.painter,
    req,
    text: job.text ?? '',
    has: (k) => kinds.has(k),
    report: [],
    drawn: new Map(),
    glow: new Set(),
    lib,
    groundY: h * 0.8,
    stood: [],
    wet: new Set(),
  };
  const sky = new PixelCanvas(w, h);
  const far = new PixelCanvas(w, h);
  const mid = new PixelCanvas(w, h);
  const near = new PixelCanvas(w, h);
  const props = new PixelCanvas(w, h);
  const weather = new PixelCanvas(w, h);
  const s = req.setting;
  const room = isRoom(s);
  let viewedAs: string | null = null;
  if (isRoom(s)) {
    await paintRoom(ctx, sky, mid, near, props);
    // rooms are dim: only their own lights brighten them (a courtyard is open to the sky)
    if (s !== 'courtyard')
      for (const layer of [sky, mid, near, props])
        lightLayer(ctx, layer, (c) =>
          scaleRgb(
            mixRgb(c, [40, 36, 60], 0.2),
            s === 'tavern' || s === 'library' || s === 'laboratory' || s === 'workshop' ? 0.85 : 0.62,
          ),
        );
    // a courtyard at night is in the night's light, its sky kept (decision 0135: "a castle courtyard
    // at night" was walls by day under a night sky, refused by the pipeline's brightness check)
    if (s === 'courtyard' && light.time === 'night') {
      const skyC = new Set(light.sky.map((c) => pack(c)));
      for (const layer of [sky, mid, near, props])
        layer.map((c) =>
          ctx.glow.has(pack(c)) || (layer === sky && skyC.has(pack(c))) ? c : light.ambient(c),
        );
    }
  } else if (s === 'underwater') await paintUnderwater(ctx, sky, mid, near, props);
  else if (s === 'space') await paintSpace(ctx, sky, mid, props);
  else {
    // snow lying on the land: white ground and hills, whatever the place
    const land =
      req.snowCover && s !== 'snow'
        ? { ...LAND[s], mid: LAND.snow.mid, near: LAND.snow.near, soil: LAND.snow.soil }
        : LAND[s];
    const horizon = Math.round(h * (s === 'ocean' ? 0.5 : s === 'beach' ? 0.48 : 0.56));
    paintSky(sky, light, horizon, job.rng.fork('sky').next());
    paintSkyElements(ctx, sky, horizon);
    paintFar(ctx, far, horizon, land);
    if (req.weather === 'fog') {
      // banks of fog lying in the distance, solid with a dithered rim (the haze is on the land's layers)
      const fog = P(light.time === 'night' ? [96, 104, 124] : [222, 226, 232]);
      for (let k = 0; k < 2; k++)
        for (let x = -w * 0.1; x < w * 1.1; x += w * 0.3)
          far.ellipse(
            x + job.rng.range(0, w * 0.15),
            horizon - h * (0.02 + k * 0.06),
            w * job.rng.range(0.18, 0.26),
            Math.max(2, h * 0.025),
            fog,
            0.3,
          );
    }
    const ground = await paintMid(ctx, mid, horizon, land);
    await paintNear(ctx, near, props, Math.max(ground, horizon + h * 0.14), land);
    viewedAs = paintViewpoint(ctx, props);
    await paintLedgeLights(ctx, props);
    // what the sky lights takes the time's light (the sky and the lights themselves stay as drawn)
    for (const layer of [far, mid, near]) lightLayer(ctx, layer, light.ambient);
  }
  if (req.haunted) {
    // a haunted place: a cold, sickly light over the land, and will-o'-wisps drifting low
    for (const layer of [sky, far, mid, near])
      lightLayer(ctx, layer, (c) => mixRgb(scaleRgb(c, 0.85), [70, 110, 96], 0.22));
    const wisp = G(ctx, [170, 255, 200]);
    const core = G(ctx, [240, 255, 244]);
    for (let k = 0; k < Math.max(3, Math.round(w / 70)); k++) {
      const x = w * (0.12 + 0.76 * job.rng.next());
      const y = ctx.groundY - h * job.rng.range(0.04, 0.16);
      props.disc(x, y, Math.max(1.5, h * 0.012), wisp);
      props.set(Math.round(x), Math.round(y), core);
      light.lights.push({ x, y, r: Math.min(w, h) * 0.06, color: [150, 255, 190] });
    }
  }
  if (req.dark)
    for (const layer of [sky, far, mid, near, props])
      lightLayer(ctx, layer, (c) => mixRgb(scaleRgb(c, 0.62), [20, 24, 48], 0.12));
  if (req.weather === 'fog') {
    // fog: the further a layer, the more of it the fog hides
    const fogC: RGB = light.time === 'night' ? [96, 104, 124] : [214, 218, 224];
    for (const [layer, k] of [
      [far, 0.6],
      [mid, 0.4],
      [near, 0.18],
    ] as const)
      layer.map((c) => mixRgb(c, fogC, k));
  }
  // a glow is drawn only where its lamp, flame or window shows (decision 0113)
  keepSourcedLights([sky, far, mid, near, props], light);
  paintLights([sky, far, mid, near, props], light);
  paintWeather(ctx, weather);
  // the things the prompt names that no element is: drawn by the sprite generator, stood on the
  // ground in front, spread across the width; or dropped, and said so
  const things = req.others.slice(0, SCENE_THINGS);
  for (const [k, other] of things.entries()) {
    const got = job.drawThing ? await job.drawThing(other.phrase, Math.round(h * (room ? 0.3 : 0.26))) : null;
    if (!got) {
      ctx.report.push({ word: other.word, drawn: false, thing: true });
      continue;
    }
    const y = ctx.floorLine ?? ctx.groundY + Math.min(h - ctx.groundY, h * 0.06);
    const x = freeSpot(ctx, w * ((k + 0.5) / things.length) * 0.7 + w * 0.15, got.image.width / 2, y);
    if (room) contactShadow(ctx, near, x, got.image.width * 0.5, y);
    stand(props, got.image, x, y, room ? undefined : light.ambient);
    ctx.report.push({ word: other.word, drawn: true, as: got.as, thing: true });
  }
  for (const other of req.others.slice(SCENE_THINGS))
    ctx.report.push({ word: other.word, drawn: false, thing: true });
  // every element: drawn (and how), or dropped when this scene had no place for it
  for (const e of req.elements) {
    const as = ctx.drawn.get(e.kind);
    ctx.report.push(as ? { word: e.word, drawn: true, as } : { word: e.word, drawn: false });
  }
  // the viewpoint last, after the elements (the report's elements follow the request's order)
  if (req.viewpoint)
    ctx.report.push(
      viewedAs
        ? { word: req.viewpoint.word, drawn: true, as: viewedAs }
        : { word: req.viewpoint.word, drawn: false },
    );
  return {
    layers: [
      { name: 'sky', layer: sky, scroll: 0.05 },
      { name: 'far', layer: far, scroll: 0.25 },
      { name: 'mid', layer: mid, scroll: 0.5 },
      { name: 'near', layer: near, scroll: 1 },
      { name: 'props', layer: props, scroll: 1 },
      { name: 'weather', layer: weather, scroll: 1 },
    ],
    lights: light.lights,
    report: ctx.report,
  };
}
