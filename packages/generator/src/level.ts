/**
 * What the built-in generator draws for a level (issue #42): each pair of the level's terrains as a
 * wang16 set over one texture per terrain — so every set draws a terrain's plain edge the same and
 * tiles of different pairs join — and each prop as a sprite of the sprite generator on a cell of
 * 2 × 2 tiles, its foot on the cell's bottom middle. The pipeline grows, tiles and previews the level.
 */
import type { GeneratedAsset, ImageRequest, LevelArt, RgbaImage } from '@assetloom/pipeline';
import { PipelineError } from '@assetloom/pipeline';
import { Painter, PaletteMatcher, type Rgb, Rng, resolveStyle } from '@assetloom/pipeline/pixel';
import {
  fullTileVariant,
  renderTerrainTiles,
  TERRAINS,
  type TerrainName,
  terrainSpecsOf,
  terrainTexture,
  tilesetRules,
} from '@assetloom/pipeline/tileset';
import { cropToPixels } from './internal/art/scene/paint.js';

/** How each prop is asked of the sprite generator, and how tall it stands (in tiles, of its 2 × 2 cell). */
const PROPS: Readonly<Record<string, { prompt: string; tall: number }>> = {
  tree: { prompt: 'a green tree', tall: 2 },
  pine: { prompt: 'a pine tree', tall: 2 },
  palm: { prompt: 'a palm tree', tall: 2 },
  cactus: { prompt: 'a cactus', tall: 1.6 },
  bush: { prompt: 'a green bush', tall: 1 },
  rock: { prompt: 'a grey boulder', tall: 1 },
};

/** A sprite on a transparent 2s × 2s cell, scaled (nearest) to stand `tall` tiles, its foot at the bottom middle; alpha 0 or 255. */
function onCell(sprite: RgbaImage, tileSize: number, tall: number): RgbaImage {
  const cell = 2 * tileSize;
  const out = new Uint8Array(cell * cell * 4);
  const crop = cropToPixels(sprite);
  if (!crop) return { width: cell, height: cell, data: out };
  const k = Math.min((tall * tileSize) / crop.height, cell / crop.width);
  const w = Math.max(1, Math.min(cell, Math.round(crop.width * k)));
  const h = Math.max(1, Math.min(cell, Math.round(crop.height * k)));
  const ox = Math.floor((cell - w) / 2);
  const oy = cell - h;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = Math.min(crop.width - 1, Math.floor((x * crop.width) / w));
      const sy = Math.min(crop.height - 1, Math.floor((y * crop.height) / h));
      const i = (sy * crop.width + sx) * 4;
      if (crop.data[i + 3]! < 128) continue;
      const j = ((oy + y) * cell + ox + x) * 4;
      out[j] = crop.data[i]!;
      out[j + 1] = crop.data[i + 1]!;
      out[j + 2] = crop.data[i + 2]!;
      out[j + 3] = 255;
    }
  return { width: cell, height: cell, data: out };
}

/** A 2s × 2s transparent cell canvas and a pixel setter that ignores what falls outside. */
function cellCanvas(s: number): { image: RgbaImage; set: (x: number, y: number, c: Rgb) => void } {
  const cell = 2 * s;
  const data = new Uint8Array(cell * cell * 4);
  const set = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= cell || y >= cell) return;
    data.set([c[0], c[1], c[2], 255], (y * cell + x) * 4);
  };
  return { image: { width: cell, height: cell, data }, set };
}

/**
 * A bridge prop's planks, drawn so a row of them reads as one deck: boards across the way walked,
 * dark gaps between them, a rail along each side. Walked east–west (`across`): a column one tile
 * wide and two tall (the pipeline centres it on its cell, so it covers the half tiles of bank above
 * and below); walked north–south: a row one tile tall and two wide over the cell and the half tiles
 * either side.
 */
function drawBridge(s: number, across: boolean, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const light = ink([196, 144, 88]);
  const mid = ink([160, 108, 60]);
  const dark = ink([104, 64, 34]);
  const line = ink([52, 32, 20]);
  const rail = Math.max(2, Math.round(s / 6));
  const board = Math.max(3, Math.round(s / 4));
  const wide = 2 * s;
  for (let v = 0; v < wide; v++)
    for (let u = 0; u < s; u++) {
      // u along the way walked (one tile), v across it (two tiles, rails at both ends)
      let c: Rgb;
      if (v === 0 || v === wide - 1) c = line;
      else if (v < rail || v >= wide - rail) c = v === 1 ? light : v === wide - 2 ? line : dark;
      else if (u % board === board - 1) c = line;
      else if (v === rail) c = dark;
      else c = Math.floor(u / board) % 2 === 0 && (u + 3 * v) % 9 !== 0 ? light : mid;
      if (across) set(s / 2 + u, v, c);
      else set(v, s + u, c);
    }
  return image;
}

/** A treasure chest that reads at tile size: outlined lid and body, a seam, metal bands, a lock. */
function drawChest(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([40, 24, 14]);
  const lidTop = ink([206, 124, 62]);
  const lid = ink([168, 88, 40]);
  const body = ink([138, 70, 32]);
  const shade = ink([96, 48, 22]);
  const metal = ink([236, 196, 84]);
  const metalDark = ink([160, 120, 40]);
  const shadow = ink([30, 30, 30]);
  // a tile and a tenth wide, most of a tile tall (issue #39, decision 0143: at 0.9 × 0.78 of a tile
  // the chest read only zoomed in)
  const w = Math.max(8, Math.round(s * 1.1));
  const h = Math.max(7, Math.round(s * 0.92));
  const x0 = Math.round(s - w / 2);
  const y0 = 2 * s - h - Math.max(1, Math.round(s / 16));
  const lidH = Math.max(3, Math.round(h * 0.42));
  const band = Math.max(1, Math.round(s / 16));
  const bands = [
    x0 + Math.max(2, Math.round(w * 0.18)),
    x0 + w - 1 - Math.max(2, Math.round(w * 0.18)) - band + 1,
  ];
  // a shadow on the ground at its foot
  for (let x = x0 + 1; x < x0 + w + 1; x++) set(x, y0 + h, shadow);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const px = x0 + x;
      const py = y0 + y;
      const edge = x === 0 || x === w - 1 || y === 0 || y === h - 1;
      const corner = (x === 0 || x === w - 1) && y === 0;
      if (corner) continue;
      let c: Rgb;
      if (edge) c = line;
      else if (y === lidH) c = line;
      else if (bands.some((b) => x + x0 >= b && x + x0 < b + band)) c = y < lidH ? metal : metalDark;
      else if (y < lidH) c = y === 1 ? lidTop : lid;
      else c = y === h - 2 ? shade : body;
      set(px, py, c);
    }
  // the lock on the seam
  const lw = Math.max(2, Math.round(s / 7));
  const lh = Math.max(3, Math.round(s / 5));
  const lx = Math.round(s - lw / 2);
  const ly = y0 + lidH - Math.floor(lh / 2);
  for (let y = 0; y < lh; y++) for (let x = 0; x < lw; x++) set(lx + x, ly + y, metal);
  set(lx + Math.floor((lw - 1) / 2), ly + Math.floor(lh / 2), line);
  return image;
}

/** A wooden door in a stone frame, filling its map cell: planks, iron bands, a ring. */
function drawDoor(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([30, 22, 18]);
  const stone = ink([150, 150, 160]);
  const stoneDark = ink([96, 96, 110]);
  const wood = ink([150, 92, 46]);
  const woodLight = ink([190, 128, 70]);
  const iron = ink([70, 70, 80]);
  const ring = ink([230, 190, 80]);
  const frame = Math.max(2, Math.round(s / 6));
  const board = Math.max(3, Math.round(s / 4));
  const x0 = s / 2;
  const y0 = s;
  for (let y = 0; y < s; y++)
    for (let x = 0; x < s; x++) {
      const inFrame = x < frame || x >= s - frame || y < frame;
      let c: Rgb;
      if (x === 0 || x === s - 1 || y === 0) c = line;
      else if (inFrame) c = (x + y) % 4 === 0 ? stoneDark : stone;
      else if (x === frame || x === s - frame - 1 || y === frame) c = line;
      else if ((x - frame) % board === 0) c = line;
      else if (y === frame + Math.round(s * 0.3) || y === s - Math.max(2, Math.round(s * 0.2))) c = iron;
      else c = x % board === 1 ? woodLight : wood;
      set(x0 + x, y0 + y, c);
    }
  const rx = x0 + s - frame - Math.max(2, Math.round(s / 5));
  const ry = y0 + Math.round(s * 0.55);
  set(rx, ry, ring);
  set(rx, ry + 1, ring);
  set(rx - 1, ry + 1, line);
  return image;
}

/**
 * Stairs on their map cell, seen from above (issue #39: the start was an unreadable grey triangle,
 * the goal not marked at all): a stairwell an eighth of a tile wider than the cell each side and
 * half a tile taller (the pipeline keeps the cells round it free), outlined dark. Up (a dungeon's
 * start): pale steps rising to the north, each lighter than the one below it, daylight at their top.
 * Down (its goal): steps sinking to the north, each darker, into a black well, in a gold frame so
 * the way on catches the eye.
 */
function drawStairs(s: number, down: boolean, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([20, 16, 16]);
  // a gold frame round the way down, a dark stone one round the way up (either stands off a pale floor)
  const rim = down ? ink([226, 176, 64]) : ink([92, 86, 90]);
  const rimDark = down ? ink([150, 100, 36]) : ink([58, 52, 58]);
  const well = ink([10, 8, 14]);
  const light = ink([255, 240, 176]);
  // from the lowest step to the highest: dark to light
  const ramp: Rgb[] = down
    ? [ink([40, 36, 44]), ink([72, 68, 74]), ink([112, 106, 104]), ink([156, 150, 140])]
    : [ink([96, 92, 92]), ink([144, 138, 130]), ink([196, 190, 174]), ink([240, 232, 208])];
  const side = Math.max(1, Math.round(s / 8));
  const w = s + 2 * side;
  const h = Math.round(s * 1.5);
  const x0 = s / 2 - side;
  const y0 = 2 * s - h;
  const frame = Math.max(2, Math.round(s / 8));
  const steps = 4;
  // the far end: a black well (down) or daylight (up), a quarter of the inside
  const top = frame + Math.round((h - 2 * frame) * (down ? 0.34 : 0.26));
  const stepH = (h - frame - top) / steps;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let c: Rgb;
      if (x === 0 || x === w - 1 || y === 0 || y === h - 1) c = line;
      else if (x < frame || x >= w - frame || y < frame || y >= h - frame)
        c = x === 1 || y === 1 ? rim : x === w - 2 || y === h - 2 ? rimDark : (x + y) % 2 ? rim : rimDark;
      else if (x === frame || x === w - frame - 1) c = line;
      else if (y < top) c = down ? well : y === top - 1 ? line : light;
      else {
        // k: 0 the nearest (southern) step, steps − 1 the farthest
        const from = h - frame - 1 - y;
        const k = Math.min(steps - 1, Math.floor(from / stepH));
        const within = from - k * stepH;
        const base = ramp[down ? steps - 1 - k : k]!;
        // each step's far edge: a shadowed drop (down) or a lit nosing over the riser (up)
        if (within >= stepH - 1) c = down ? line : ramp[steps - 1]!;
        else if (!down && within < 1) c = line;
        else c = base;
      }
      set(x0 + x, y0 + y, c);
    }
  return image;
}

/**
 * A door in a side wall, walked east–west, seen from above: a heavy slab of planks across the
 * corridor from wall to wall, outlined, with iron bands and a ring, the wall's stone over each end.
 * The pipeline centres this sprite on its cell (like an east–west bridge), so the slab's two tiles
 * cover the cell and the half tiles of wall the corridor leaves above and below it.
 */
function drawSideDoor(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([30, 22, 18]);
  const stone = ink([150, 150, 160]);
  const stoneDark = ink([96, 96, 110]);
  const wood = ink([150, 92, 46]);
  const woodLight = ink([190, 128, 70]);
  const woodDark = ink([104, 60, 30]);
  const iron = ink([70, 70, 80]);
  const ring = ink([230, 190, 80]);
  const w = Math.max(5, Math.round(s * 0.42));
  const x0 = s / 2 + Math.round((s - w) / 2);
  const cap = Math.max(2, Math.round(s / 5));
  const board = Math.max(3, Math.round(s / 4));
  const tall = 2 * s;
  const bands = [Math.round(tall * 0.3), Math.round(tall * 0.7)];
  for (let y = 0; y < tall; y++)
    for (let x = -1; x <= w; x++) {
      const px = x0 + x;
      if (y < cap || y >= tall - cap) {
        // the wall's stone over the slab's ends, a pixel wider than it each side
        const edge = y === 0 || y === tall - 1 || y === cap - 1 || y === tall - cap || x === -1 || x === w;
        set(px, y, edge ? line : (x + y) % 3 === 0 ? stoneDark : stone);
        continue;
      }
      if (x === -1 || x === w) continue;
      let c: Rgb;
      if (x === 0 || x === w - 1) c = line;
      else if (bands.includes(y)) c = iron;
      else if ((y - cap) % board === board - 1) c = woodDark;
      else c = x === 1 ? woodLight : x === w - 2 ? woodDark : wood;
      set(px, y, c);
    }
  set(x0 + w - 2, s, ring);
  set(x0 + w - 2, s + 1, line);
  return image;
}

/** Pixels within a map cell (the bottom middle tile of the canvas), at fractions of the tile. */
function cellDots(s: number, set: (x: number, y: number, c: Rgb) => void) {
  return (u: number, v: number, c: Rgb) => set(Math.floor(s / 2 + u * s), Math.floor(s + v * s), c);
}

/** A few flowers on short stems, scattered over the cell: ground cover a walker crosses. */
function drawFlowers(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const dot = cellDots(s, set);
  const stem = ink([52, 110, 48]);
  const petals = [ink([246, 240, 226]), ink([250, 214, 72]), ink([232, 120, 160]), ink([246, 240, 226])];
  const heart = ink([240, 170, 40]);
  const at: Array<[number, number]> = [
    [0.18, 0.3],
    [0.62, 0.18],
    [0.4, 0.62],
    [0.8, 0.7],
  ];
  const px = 1 / s;
  at.forEach(([u, v], i) => {
    const c = petals[i % petals.length]!;
    dot(u, v + 2 * px, stem);
    if (s >= 16) {
      dot(u, v - px, c);
      dot(u - px, v, c);
      dot(u + px, v, c);
      dot(u, v + px, c);
      dot(u, v, heart);
    } else dot(u, v, c);
  });
  return image;
}

/** A tuft of grass blades, darker at the root and light at the tips. */
function drawTuft(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const dot = cellDots(s, set);
  const dark = ink([40, 96, 44]);
  const light = ink([130, 196, 80]);
  const px = 1 / s;
  const h = Math.max(3, Math.round(s * 0.3));
  for (const [u, lean] of [
    [0.38, -1],
    [0.5, 0],
    [0.62, 1],
  ] as const)
    for (let k = 0; k < h; k++) {
      const v = 0.8 - k * px;
      const du = lean * Math.floor((k * 2) / h) * px;
      dot(u + du, v, k < h / 2 ? dark : light);
    }
  return image;
}

/** Reeds: tall stems with brown cattail heads, rising from the cell's foot (at a water's edge). */
function drawReeds(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  // lit yellow-green stems and dark-outlined cattail heads (decision 0128: dark green stems with
  // small heads were lost on a swamp's dark mud — "no reeds seen")
  const { image, set } = cellCanvas(s);
  const stem = ink([150, 178, 76]);
  const stemDark = ink([70, 104, 44]);
  const head = ink([128, 74, 36]);
  const line = ink([40, 26, 18]);
  const h = Math.max(6, Math.round(s * 1.1));
  const wide = s >= 16 ? 2 : 1;
  for (const [u, tall] of [
    [0.22, 0.75],
    [0.42, 1],
    [0.62, 0.85],
    [0.8, 0.6],
  ] as const) {
    const x = Math.floor(s / 2 + u * s);
    const top = 2 * s - 1 - Math.round(h * tall);
    const headH = Math.max(2, Math.round(s / 6));
    for (let y = top; y < 2 * s - 1; y++) {
      if (y < top + headH) {
        for (let k = 0; k < wide; k++) set(x + k, y, y === top ? line : head);
        set(x - 1, y, line);
        set(x + wide, y, line);
      } else {
        set(x, y, stem);
        if (wide > 1) set(x + 1, y, stemDark);
      }
    }
    set(x, top - 1, stem);
  }
  return image;
}

/**
 * A field's crops on one cell (issue #39: a farm had no fields): two rows of ripe wheat across the
 * cell's tile, each a band of stalks with a darker foot and golden ears, the soil showing in the
 * furrow between — cells side by side join into long rows.
 */
function drawCrops(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const foot = ink([112, 128, 44]);
  const stalk = ink([196, 168, 64]);
  const ear = ink([236, 206, 104]);
  const rowsOf = 2;
  const band = Math.max(2, Math.floor(s / (rowsOf * 2)) + 1);
  for (let r = 0; r < rowsOf; r++) {
    const top = s + Math.floor((r * s) / rowsOf) + 1;
    for (let x = 0; x < s; x++) {
      const gx = Math.floor(s / 2) + x;
      // stalks of uneven height: the ears' tips leave a ragged top edge
      const tall = (x * 7 + r * 3) % 3 === 0 ? 0 : 1;
      for (let k = tall; k < band; k++) {
        const y = top + k;
        set(gx, y, k === tall ? ear : k === band - 1 ? foot : x % 2 === 0 ? stalk : ear);
      }
    }
  }
  return image;
}

/** Props drawn here at the map's tile size, so they read on the map (not sprites scaled down). */
/**
 * A house that fills its 2 × 2-tile cell (issue #39: a sprite of "a small house" scaled into the cell
 * stood about 1.3 tiles, a hut beside the trees): a shingled roof over the top half with a chimney, a
 * plaster front with a door on the cell's bottom middle (where the village's lane meets it) and two
 * lit windows, outlined, a shadow at its foot.
 */
function drawHouse(s: number, ink: (c: Rgb) => Rgb, thatch = false): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([44, 28, 26]);
  // a thatched cottage's roof is straw (decision 0143: every house was one red-roofed stamp)
  const roof = ink(thatch ? [200, 160, 80] : [178, 74, 52]);
  const roofLit = ink(thatch ? [232, 200, 120] : [214, 110, 76]);
  const roofDark = ink(thatch ? [150, 110, 50] : [128, 48, 38]);
  const wall = ink([236, 220, 186]);
  const wallShade = ink([196, 172, 136]);
  const wood = ink([120, 74, 40]);
  const glass = ink([255, 214, 110]);
  const brick = ink([150, 84, 64]);
  const shadow = ink([30, 30, 30]);
  const eave = Math.round(cell * 0.52);
  const foot = cell - 2;
  const x0 = 1;
  const x1 = cell - 2;
  // the roof: a trapezoid, narrower at the ridge, shingle rows, lit at the ridge and shaded at the eave
  const ridge = Math.max(1, Math.round(cell * 0.08));
  for (let y = ridge; y <= eave; y++) {
    const t = (y - ridge) / Math.max(1, eave - ridge);
    const inset = Math.round((1 - t) * cell * 0.18);
    for (let x = x0 + inset - 1; x <= x1 - inset + 1; x++) {
      const edge = y === ridge || y === eave || x === x0 + inset - 1 || x === x1 - inset + 1;
      const row = (y - ridge) % Math.max(3, Math.round(s / 5));
      set(
        x,
        y,
        edge ? line : y === ridge + 1 ? roofLit : row === 0 ? roofDark : y > eave - 2 ? roofDark : roof,
      );
    }
  }
  // a brick chimney through the roof's right side
  const cw = Math.max(2, Math.round(s / 5));
  const cx = Math.round(x1 - cell * 0.28);
  for (let y = ridge - 1; y < ridge + Math.round(cell * 0.2); y++)
    for (let x = cx; x < cx + cw; x++)
      set(x, y, x === cx || x === cx + cw - 1 || y === ridge - 1 ? line : brick);
  // the front wall
  for (let y = eave + 1; y <= foot; y++)
    for (let x = x0 + 1; x <= x1 - 1; x++)
      set(x, y, x === x0 + 1 || x === x1 - 1 || y === foot ? line : y === eave + 1 ? wallShade : wall);
  // the door on the bottom middle, and a window either side
  const dw = Math.max(3, Math.round(s * 0.38));
  const dh = Math.max(4, Math.round((foot - eave) * 0.62));
  const dx = Math.round(s - dw / 2);
  for (let y = foot - dh; y < foot; y++)
    for (let x = dx; x < dx + dw; x++)
      set(x, y, x === dx || x === dx + dw - 1 || y === foot - dh ? line : wood);
  const ww = Math.max(2, Math.round(s * 0.28));
  const wy = eave + Math.max(2, Math.round((foot - eave) * 0.28));
  for (const wx of [Math.round(x0 + cell * 0.14), Math.round(x1 - cell * 0.14 - ww)])
    for (let y = wy; y < wy + ww; y++)
      for (let x = wx; x < wx + ww; x++)
        set(x, y, x === wx || x === wx + ww - 1 || y === wy || y === wy + ww - 1 ? line : glass);
  for (let x = x0 + 2; x <= x1; x++) set(x, foot + 1, shadow);
  return image;
}

/**
 * A shelf against a dungeon room's north wall (decision 0137: every room showed the same barrel,
 * table and bones): a dark wooden case about 1¼ tiles wide and 1½ tall, three shelves of books in a
 * few muted colours and a jar, outlined, standing on its cell's foot.
 */
function drawShelf(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([36, 22, 16]);
  const wood = ink([112, 68, 38]);
  const lit = ink([150, 98, 56]);
  const back = ink([58, 36, 24]);
  const books = [ink([150, 48, 40]), ink([56, 86, 130]), ink([70, 110, 60]), ink([180, 150, 80])];
  const shadow = ink([24, 20, 24]);
  const w = Math.max(8, Math.round(s * 1.25));
  const h = Math.max(10, Math.round(s * 1.5));
  const x0 = Math.round(s - w / 2);
  const foot = cell - 2;
  const top = foot - h;
  const shelves = 3;
  for (let y = top; y <= foot; y++)
    for (let x = x0; x < x0 + w; x++) {
      const edge = x === x0 || x === x0 + w - 1 || y === top || y === foot;
      const side = x === x0 + 1 || x === x0 + w - 2 || y === top + 1;
      set(x, y, edge ? line : side ? (x === x0 + 1 || y === top + 1 ? lit : wood) : back);
    }
  const inner = h - 3;
  for (let k = 0; k < shelves; k++) {
    const board = top + 2 + Math.round(((k + 1) * inner) / shelves) - 1;
    for (let x = x0 + 1; x < x0 + w - 1; x++) set(x, board, k === shelves - 1 ? wood : lit);
    // books standing on the board, a gap now and then, a jar on the middle shelf
    const rowTop = top + 2 + Math.round((k * inner) / shelves);
    for (let x = x0 + 2; x < x0 + w - 2; x++) {
      const pick = (x * 7 + k * 13) % 9;
      if (pick === 0) continue;
      const tall = board - rowTop - (pick % 3 === 0 ? 1 : 0);
      const c = k === 1 && x > x0 + w - 5 ? ink([200, 196, 180]) : books[(x + k * 3) % books.length]!;
      for (let y = board - tall; y < board; y++) set(x, y, c);
    }
  }
  for (let x = x0 + 1; x < x0 + w + 1; x++) set(x, foot + 1, shadow);
  return image;
}

/** A clay urn (decision 0137): a round-bellied pot with a narrow neck and a lip, lit from the left. */
function drawUrn(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([46, 24, 16]);
  const clay = ink([168, 92, 56]);
  const lit = ink([210, 136, 88]);
  const dark = ink([112, 58, 36]);
  const band = ink([70, 40, 30]);
  const shadow = ink([24, 20, 24]);
  const foot = cell - 2;
  const h = Math.max(7, Math.round(s * 1.05));
  const r = Math.max(3, s * 0.42);
  const top = foot - h;
  const cx = s - 0.5;
  for (let y = top; y <= foot; y++) {
    const t = (y - top) / h;
    // neck, shoulder, belly, foot
    const half =
      t < 0.18
        ? r * 0.55
        : t < 0.28
          ? r * 0.4
          : r * Math.sin(Math.min(1, (t - 0.2) / 0.8) * Math.PI) * 0.95 + r * 0.25;
    const l = Math.round(cx - half);
    const rr = Math.round(cx + half);
    for (let x = l; x <= rr; x++) {
      const u = (x - l) / Math.max(1, rr - l);
      const edge = x === l || x === rr || y === top || y === foot;
      set(x, y, edge ? line : Math.abs(t - 0.55) < 0.05 ? band : u < 0.3 ? lit : u > 0.72 ? dark : clay);
    }
  }
  for (let x = Math.round(cx - r * 0.8); x <= Math.round(cx + r * 0.8) + 1; x++) set(x, foot + 1, shadow);
  return image;
}

/**
 * A long hall of a village (issue #39, decision 0137: every house was one 2 × 2-tile cottage, a
 * village a row of them): one building four tiles wide drawn as two props side by side, `hall-w` and
 * `hall-e`, each its half of the picture — a slate roof with two gables' hips at the outer ends only,
 * a timbered front, a wide double door at the join (the middle of the building) and three windows.
 */
function drawHall(s: number, east: boolean, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set: put } = cellCanvas(s);
  const cell = 2 * s;
  const off = east ? cell : 0;
  const set = (x: number, y: number, c: Rgb) => {
    if (x - off >= 0 && x - off < cell) put(x - off, y, c);
  };
  const width = 2 * cell;
  const line = ink([40, 30, 30]);
  const roof = ink([92, 98, 118]);
  const roofLit = ink([132, 140, 160]);
  const roofDark = ink([62, 66, 84]);
  const wall = ink([226, 206, 164]);
  const wallShade = ink([184, 158, 118]);
  const beam = ink([96, 60, 36]);
  const wood = ink([120, 74, 40]);
  const glass = ink([255, 214, 110]);
  const shadow = ink([30, 30, 30]);
  const eave = Math.round(cell * 0.5);
  const foot = cell - 2;
  const x0 = 1;
  const x1 = width - 2;
  const ridge = Math.max(1, Math.round(cell * 0.1));
  for (let y = ridge; y <= eave; y++) {
    const t = (y - ridge) / Math.max(1, eave - ridge);
    const inset = Math.round((1 - t) * cell * 0.2);
    for (let x = x0 + inset - 1; x <= x1 - inset + 1; x++) {
      const edge = y === ridge || y === eave || x === x0 + inset - 1 || x === x1 - inset + 1;
      const row = (y - ridge) % Math.max(3, Math.round(s / 5));
      set(x, y, edge ? line : y === ridge + 1 ? roofLit : row === 0 || y > eave - 2 ? roofDark : roof);
    }
  }
  // the timbered front: posts at the ends, the quarters and beside the door, a beam under the eave
  for (let y = eave + 1; y <= foot; y++)
    for (let x = x0 + 1; x <= x1 - 1; x++) {
      const post =
        x === x0 + 1 || x === x1 - 1 || x === Math.round(width * 0.25) || x === Math.round(width * 0.75);
      set(x, y, y === foot ? line : post ? beam : y === eave + 1 ? wallShade : y === eave + 2 ? beam : wall);
    }
  const dw = Math.max(4, Math.round(s * 0.7));
  const dh = Math.max(4, Math.round((foot - eave) * 0.66));
  const dx = Math.round(width / 2 - dw / 2);
  for (let y = foot - dh; y < foot; y++)
    for (let x = dx; x < dx + dw; x++)
      set(
        x,
        y,
        x === dx || x === dx + dw - 1 || x === dx + Math.floor(dw / 2) || y === foot - dh ? line : wood,
      );
  const ww = Math.max(2, Math.round(s * 0.3));
  const wy = eave + Math.max(3, Math.round((foot - eave) * 0.3));
  for (const wx of [
    Math.round(width * 0.12),
    Math.round(width * 0.32),
    Math.round(width * 0.62),
    Math.round(width * 0.82),
  ])
    for (let y = wy; y < wy + ww; y++)
      for (let x = wx; x < wx + ww; x++)
        set(x, y, x === wx || x === wx + ww - 1 || y === wy || y === wy + ww - 1 ? line : glass);
  for (let x = x0 + 2; x <= x1; x++) set(x, foot + 1, shadow);
  return image;
}

/**
 * A cave's mouth (issue #39: the sprite generator's "cave entrance" was a tan arch with the ground
 * showing through it, and a player could not find it): a face of grey rock filling the cell, its top
 * a rough crest, strata and cracks in it, and a black opening at its foot about two thirds of the cell
 * wide and half its height, shaded deep inside and rimmed by lit lintel stones — the rock outcrop the
 * level grows behind it continues the face.
 */
function drawCaveMouth(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([34, 30, 30]);
  const dark = ink([70, 66, 64]);
  const mid = ink([108, 102, 96]);
  const lit = ink([150, 144, 134]);
  const black = ink([8, 6, 8]);
  const deep = ink([28, 22, 26]);
  const u = (t: number) => Math.round(t * cell);
  // the face: a hump whose crest is rough (a few steps), full width at its foot
  const crest = (x: number) => {
    const t = (x + 0.5) / cell - 0.5;
    const bump = [0, 1, 0, 2, 1, 0, 1, 0][Math.floor((x / cell) * 8) % 8]!;
    return Math.round(cell * (0.12 + 0.55 * t * t * 2) + bump * Math.max(1, s / 16));
  };
  for (let x = 0; x < cell; x++) {
    const top = crest(x);
    for (let y = top; y < cell; y++) {
      const edge = y === top || x === 0 || x === cell - 1;
      // lit from the top left: the upper left of the face light, the right and foot darker
      const shade =
        y < top + Math.max(2, s / 6) && x < cell * 0.6 ? lit : x > cell * 0.72 || y > cell - 3 ? dark : mid;
      set(x, y, edge ? line : shade);
    }
  }
  // strata: two broken dark lines across the face, a crack down from the crest
  for (const [h, from, to] of [
    [0.38, 0.1, 0.45],
    [0.5, 0.6, 0.92],
    [0.3, 0.62, 0.8],
  ] as const)
    for (let x = u(from); x < u(to); x++) if (crest(x) < u(h)) set(x, u(h) + ((x >> 2) & 1), dark);
  // the opening: an arch, round at the top, black, with a deep shade band inside its rim
  const mx0 = u(0.16);
  const mx1 = u(0.84);
  const half = (mx1 - mx0) / 2;
  const cx = (mx0 + mx1) / 2;
  const sill = cell - 1;
  const spring = u(0.62);
  const inside = (x: number, y: number) => {
    if (y > sill || x < mx0 || x >= mx1) return false;
    if (y >= spring) return true;
    const dx = (x + 0.5 - cx) / half;
    const dy = (spring - y) / (spring - u(0.4));
    return dx * dx + dy * dy <= 1;
  };
  for (let y = 0; y < cell; y++)
    for (let x = 0; x < cell; x++) {
      if (!inside(x, y)) continue;
      const rim = !inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1);
      const near = !inside(x - 2, y) || !inside(x + 2, y) || !inside(x, y - 2);
      set(x, y, rim ? line : near && y < cell - 2 ? deep : black);
    }
  // lit lintel stones over the arch, a shadow under its sill
  for (let x = mx0; x < mx1; x++)
    for (let y = 1; y < cell; y++)
      if (inside(x, y) && !inside(x, y - 1)) {
        set(x, y - 2, (x >> 1) % 3 === 0 ? line : lit);
        break;
      }
  return image;
}

/**
 * A dungeon room's barrel (issue #39: the rooms were empty): a wooden barrel a tile wide standing on
 * the cell's foot, bulging staves lit on the left, two iron hoops, its lid an ellipse, a shadow.
 */
function drawBarrel(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([40, 24, 18]);
  const wood = ink([150, 92, 48]);
  const lit = ink([196, 136, 76]);
  const dark = ink([100, 58, 32]);
  const hoop = ink([70, 70, 78]);
  const shadow = ink([24, 20, 24]);
  const w = Math.max(6, Math.round(s * 0.95));
  const h = Math.max(7, Math.round(s * 1.15));
  const x0 = Math.round(s - w / 2);
  const foot = cell - 2;
  const top = foot - h;
  const lid = Math.max(2, Math.round(h * 0.18));
  for (let y = top; y <= foot; y++) {
    const t = (y - top) / h;
    const bulge = Math.round(Math.sin(t * Math.PI) * Math.max(1, w * 0.08));
    const l = x0 - bulge;
    const r = x0 + w - 1 + bulge;
    for (let x = l; x <= r; x++) {
      const u = (x - l) / Math.max(1, r - l);
      const edge = x === l || x === r || y === foot;
      const band = Math.abs(t - 0.3) < 0.05 || Math.abs(t - 0.75) < 0.05;
      const stave = Math.round(u * 5) !== Math.round(((x + 1 - l) / Math.max(1, r - l)) * 5);
      set(x, y, edge ? line : band ? hoop : stave ? dark : u < 0.35 ? lit : u > 0.75 ? dark : wood);
    }
  }
  // the lid: an ellipse, darker wood with a rim
  for (let y = top - lid; y <= top + lid; y++)
    for (let x = x0; x < x0 + w; x++) {
      const dx = (x + 0.5 - (x0 + w / 2)) / (w / 2);
      const dy = (y - top) / lid;
      const d = dx * dx + dy * dy;
      if (d <= 1) set(x, y, d > 0.6 ? line : dark);
    }
  for (let x = x0; x < x0 + w + 1; x++) set(x, foot + 1, shadow);
  return image;
}

/**
 * A torch in a bracket on a dungeon room's north wall (the wall tile above its cell): a wooden haft
 * in an iron bracket, a flame of three colours and a warm glow dithered round it on the wall.
 */
function drawTorch(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([34, 22, 20]);
  const haft = ink([120, 74, 40]);
  const iron = ink([76, 76, 84]);
  const glow = ink([214, 130, 60]);
  const flame = ink([238, 120, 40]);
  const core = ink([255, 214, 100]);
  const cx = s;
  const base = Math.round(s * 1.0);
  const hh = Math.max(3, Math.round(s * 0.35));
  // the glow: a dithered ring on the wall round the flame
  const fy = base - hh - Math.round(s * 0.2);
  const gr = Math.max(3, Math.round(s * 0.45));
  for (let y = fy - gr; y <= fy + gr; y++)
    for (let x = cx - gr; x <= cx + gr; x++) {
      const d = Math.hypot(x - cx, y - fy) / gr;
      if (d <= 1 && d > 0.55 && (x + y) % 2 === 0) set(x, y, glow);
    }
  // the haft and its bracket
  for (let y = base - hh; y <= base; y++) {
    set(cx - 1, y, line);
    set(cx, y, haft);
    set(cx + 1, y, line);
  }
  for (let x = cx - 2; x <= cx + 2; x++) set(x, base - Math.round(hh / 2), iron);
  // the flame: a teardrop, a bright core
  const fh = Math.max(4, Math.round(s * 0.4));
  for (let k = 0; k < fh; k++) {
    const y = base - hh - 1 - k;
    const half = Math.max(0, Math.round((1 - k / fh) * Math.max(1.5, s * 0.12) + (k < fh / 3 ? 0.5 : 0)));
    for (let x = cx - half; x <= cx + half; x++)
      set(
        x,
        y,
        Math.abs(x - cx) < half || half === 0
          ? k < fh / 2 && Math.abs(x - cx) <= half / 2
            ? core
            : flame
          : flame,
      );
  }
  return image;
}

/**
 * A dungeon store's crate (decision 0114): a wooden box a tile wide on the cell's foot, seen a little
 * from above — a lit lid, a front of planks with dark seams, a diagonal brace, a dark outline, a shadow.
 */
function drawCrate(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([44, 28, 18]);
  const lid = ink([204, 152, 92]);
  const wood = ink([164, 110, 60]);
  const seam = ink([110, 70, 38]);
  const shadow = ink([24, 20, 24]);
  const w = Math.max(7, Math.round(s * 0.9));
  const x0 = Math.round(s - w / 2);
  const foot = cell - 2;
  const front = Math.max(5, Math.round(s * 0.72));
  const top = Math.max(2, Math.round(s * 0.25));
  const y0 = foot - front - top;
  for (let y = y0; y <= foot; y++)
    for (let x = x0; x < x0 + w; x++) {
      const edge = x === x0 || x === x0 + w - 1 || y === y0 || y === foot || y === y0 + top;
      const fy = y - y0 - top;
      const plank = fy > 0 && fy % Math.max(2, Math.round(front / 3)) === 0;
      // the brace: a diagonal from the front's bottom left to its top right
      const brace = fy > 0 && Math.abs((x - x0) / (w - 1) - (1 - fy / front)) < 1.2 / w;
      set(x, y, edge ? line : y < y0 + top ? lid : brace ? seam : plank ? seam : wood);
    }
  for (let x = x0 + 1; x <= x0 + w; x++) set(x, foot + 1, shadow);
  return image;
}

/**
 * A hall's table (decision 0114): a plank top wider than a tile seen from above and in front, its
 * edge lit, two legs under it, a candle on it and a shadow on the floor.
 */
function drawTable(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const cell = 2 * s;
  const line = ink([40, 26, 16]);
  const top = ink([176, 120, 66]);
  const grain = ink([146, 96, 52]);
  const edge = ink([110, 68, 36]);
  const shadow = ink([24, 20, 24]);
  const wax = ink([236, 226, 196]);
  const flame = ink([250, 196, 80]);
  const w = Math.max(10, Math.round(s * 1.5));
  const x0 = Math.round(s - w / 2);
  const foot = cell - 2;
  const legH = Math.max(3, Math.round(s * 0.35));
  const topH = Math.max(4, Math.round(s * 0.5));
  const y0 = foot - legH - topH;
  for (let x = x0 + 1; x < x0 + w - 1; x++) set(x, foot + 1, shadow);
  for (const lx of [x0 + 1, x0 + w - 3])
    for (let y = foot - legH; y <= foot; y++) {
      set(lx, y, line);
      set(lx + 1, y, edge);
    }
  for (let y = y0; y < y0 + topH; y++)
    for (let x = x0; x < x0 + w; x++) {
      const border = x === x0 || x === x0 + w - 1 || y === y0 || y === y0 + topH - 1;
      set(
        x,
        y,
        border ? line : y === y0 + topH - 2 ? edge : (y - y0) % 2 === 0 && (x * 7) % 5 === 0 ? grain : top,
      );
    }
  // a candle on it
  const cx = x0 + Math.round(w * 0.65);
  for (let y = y0 - 3; y < y0 + 1; y++) set(cx, y, wax);
  set(cx, y0 - 4, flame);
  return image;
}

/**
 * Bones on a crypt's floor (decision 0114), walked over: a small skull, a long bone across the cell
 * and a short one, bone white with a grey shade and a dark outline, low on the cell.
 */
function drawBones(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const bone = ink([232, 226, 206]);
  const shade = ink([168, 160, 142]);
  const line = ink([52, 46, 44]);
  const foot = 2 * s - 2;
  const bar = (x0: number, y0: number, x1: number, y1: number) => {
    const n = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
    for (let k = 0; k <= n; k++) {
      const x = Math.round(x0 + ((x1 - x0) * k) / n);
      const y = Math.round(y0 + ((y1 - y0) * k) / n);
      set(x, y + 1, line);
      set(x, y, bone);
    }
    for (const [x, y] of [
      [x0, y0],
      [x1, y1],
    ] as const) {
      set(x - 1, y, bone);
      set(x + 1, y, shade);
      set(x, y - 1, bone);
    }
  };
  const l = Math.round(s * 0.6);
  const r = Math.round(s * 1.45);
  bar(l, foot - Math.round(s * 0.15), r, foot - Math.round(s * 0.45));
  bar(Math.round(s * 0.9), foot - 1, Math.round(s * 1.3), foot - 2);
  // the skull: a round crown, two dark eyes
  const kx = Math.round(s * 0.75);
  const ky = foot - Math.round(s * 0.55);
  const kr = Math.max(2, Math.round(s * 0.2));
  for (let y = ky - kr - 1; y <= ky + kr + 1; y++)
    for (let x = kx - kr - 1; x <= kx + kr + 1; x++) {
      const d = Math.hypot(x - kx, (y - ky) * 1.1);
      if (d <= kr + 0.9) set(x, y, d > kr ? line : x > kx ? shade : bone);
    }
  set(kx - 1, ky, line);
  set(kx + 1, ky, line);
  return image;
}

/**
 * Rubble on a ruined room's floor (decision 0114), walked over: four to five broken stones of
 * differing size, lit on top, dark below, on the cell's lower half.
 */
function drawRubble(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  // warmer and lighter than a crypt's grey floor, so the broken stones stand off it
  const lit = ink([206, 192, 170]);
  const stone = ink([160, 146, 126]);
  const dark = ink([104, 92, 80]);
  const line = ink([36, 30, 30]);
  const foot = 2 * s - 2;
  const stones: Array<[number, number, number]> = [
    [0.7, 0.2, 0.22],
    [1.15, 0.15, 0.28],
    [1.4, 0.4, 0.14],
    [0.95, 0.5, 0.16],
    [0.55, 0.55, 0.1],
  ];
  for (const [u, v, r0] of stones) {
    const cx = Math.round(s * u);
    const cy = foot - Math.round(s * v);
    const r = Math.max(1.2, s * r0);
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++)
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        // a broken stone: flat below, chipped on its top right
        const d = Math.hypot(x - cx, (y - cy) * 1.3);
        if (d > r + 0.7 || x - cx + (cy - y) > r * 1.1) continue;
        set(x, y, d > r - 0.3 ? line : y < cy - r * 0.3 ? lit : y > cy + r * 0.3 ? dark : stone);
      }
  }
  return image;
}

/**
 * A village well (decision 0143): a round stone curb a tile and a fifth across with dark water in it,
 * two posts and a little shingled roof over it rising most of a tile above its cell, a bucket on the
 * curb, outlined, a shadow at its foot.
 */
function drawWell(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([36, 30, 30]);
  const stone = ink([168, 160, 150]);
  const lit = ink([214, 206, 192]);
  const dark = ink([112, 104, 98]);
  const water = ink([34, 58, 96]);
  const wood = ink([120, 74, 40]);
  const roof = ink([150, 62, 44]);
  const roofLit = ink([200, 100, 70]);
  const shadow = ink([30, 30, 30]);
  const foot = 2 * s - 2;
  const rx = Math.max(4, s * 0.6);
  const ry = Math.max(2.5, s * 0.3);
  const cx = s - 0.5;
  const cy = foot - ry - Math.max(1, s * 0.12);
  // the curb: an ellipse ring, its front face a band of stone below it
  const face = Math.max(2, Math.round(s * 0.22));
  for (let y = Math.floor(cy - ry - 1); y <= Math.ceil(cy + ry + face + 1); y++)
    for (let x = Math.floor(cx - rx - 1); x <= Math.ceil(cx + rx + 1); x++) {
      const top = Math.hypot((x - cx) / rx, (y - cy) / ry);
      const below = Math.hypot((x - cx) / rx, (y - cy - face) / ry);
      const inside = top <= 1 || (y >= cy && below <= 1 && Math.abs(x - cx) <= rx);
      if (!inside) continue;
      const edge = top > 1 ? below > 1 - 1.2 / ry || Math.abs(x - cx) > rx - 1 : top > 1 - 1.2 / ry;
      const inner = top <= 0.62;
      let c = top <= 1 ? (inner ? (top > 0.5 ? line : water) : y < cy ? lit : stone) : dark;
      if (edge) c = line;
      // stone joints on the face
      if (top > 1 && !edge && (x + Math.round(y / face) * 2) % Math.max(3, Math.round(s / 4)) === 0) c = line;
      set(x, y, c);
    }
  // two posts and the roof over them
  const postTop = Math.round(cy - s * 0.85);
  for (const px of [Math.round(cx - rx * 0.78), Math.round(cx + rx * 0.78)])
    for (let y = postTop; y <= Math.round(cy); y++) {
      set(px, y, wood);
      set(px + 1, y, line);
    }
  const roofH = Math.max(3, Math.round(s * 0.3));
  for (let y = 0; y < roofH; y++) {
    const half = rx * 0.55 + (y / Math.max(1, roofH - 1)) * rx * 0.55;
    for (let x = Math.floor(cx - half); x <= Math.ceil(cx + half); x++) {
      const edge = y === 0 || y === roofH - 1 || x === Math.floor(cx - half) || x === Math.ceil(cx + half);
      set(x, postTop - roofH + y + 1, edge ? line : y === 1 ? roofLit : roof);
    }
  }
  // the rope and a bucket hanging under the beam
  const bx = Math.round(cx);
  for (let y = postTop + 1; y < Math.round(cy - ry * 0.4); y++) set(bx, y, dark);
  const bw = Math.max(2, Math.round(s / 6));
  for (let y = Math.round(cy - ry * 0.4); y < Math.round(cy - ry * 0.4) + bw; y++)
    for (let x = bx - 1; x < bx - 1 + bw + 1; x++)
      set(x, y, x === bx - 1 || y === Math.round(cy - ry * 0.4) + bw - 1 ? line : wood);
  for (let x = Math.round(cx - rx * 0.8); x <= Math.round(cx + rx * 0.8) + 1; x++) set(x, foot + 1, shadow);
  return image;
}

/**
 * A cottage garden (decision 0143): a bed of dark soil a tile and a half wide, rows of green cabbages and
 * a row of red-flowered beans, inside a white picket fence round the cell's edge, a shadow under the
 * front rail.
 */
function drawGarden(s: number, ink: (c: Rgb) => Rgb): RgbaImage {
  const { image, set } = cellCanvas(s);
  const line = ink([40, 30, 24]);
  const soil = ink([104, 70, 44]);
  const soilDark = ink([76, 50, 32]);
  const leaf = ink([92, 168, 64]);
  const leafLit = ink([150, 210, 96]);
  const bloom = ink([214, 70, 60]);
  const picket = ink([236, 228, 206]);
  const shadow = ink([30, 30, 30]);
  // a tile and a half wide, a tile and a fifth deep: over the half cells either side of its cell
  const x0 = Math.round(s * 0.25);
  const x1 = Math.round(s * 1.75) - 1;
  const y0 = Math.round(s * 0.8);
  const y1 = 2 * s - 2;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) set(x, y, (y - y0) % 3 === 2 ? soilDark : soil);
  // rows of plants: cabbages, then beans in flower
  // each plant an eighth of a tile across (two pixels at 16 px, four at 32), lit on its top left
  const step = Math.max(3, Math.round(s / 4));
  const leafW = Math.max(2, Math.round(s / 8));
  let row = 0;
  for (let y = y0 + 2; y <= y1 - leafW; y += step, row++)
    for (let x = x0 + 2 + (row % 2); x <= x1 - leafW; x += step)
      for (let dy = 0; dy < leafW; dy++)
        for (let dx = 0; dx < leafW; dx++) {
          const flower = row % 2 === 1 && s >= 16 && dx === leafW - 1 && dy === leafW - 1;
          set(x + dx, y + dy, flower ? bloom : dx + dy < leafW / 2 ? leafLit : leaf);
        }
  // the picket fence: posts every other pixel along the top and bottom, rails down the sides
  for (let x = x0; x <= x1; x++) {
    set(x, y0, x % 2 ? picket : line);
    set(x, y1, x % 2 ? picket : line);
    set(x, y1 - 1, picket);
    set(x, y1 + 1, shadow);
  }
  for (let y = y0; y <= y1; y++) {
    set(x0, y, y % 2 ? picket : line);
    set(x1, y, y % 2 ? picket : line);
  }
  return image;
}

const DRAWN_HERE: Readonly<Record<string, (s: number, ink: (c: Rgb) => Rgb) => RgbaImage>> = {
  house: (s, ink) => drawHouse(s, ink),
  cottage: (s, ink) => drawHouse(s, ink, true),
  'hall-w': (s, ink) => drawHall(s, false, ink),
  'hall-e': (s, ink) => drawHall(s, true, ink),
  bridge: (s, ink) => drawBridge(s, true, ink),
  'bridge-ns': (s, ink) => drawBridge(s, false, ink),
  chest: drawChest,
  door: drawDoor,
  'door-ew': drawSideDoor,
  stairs: (s, ink) => drawStairs(s, false, ink),
  'stairs-down': (s, ink) => drawStairs(s, true, ink),
  flowers: drawFlowers,
  tuft: drawTuft,
  reeds: drawReeds,
  crops: drawCrops,
  cave: drawCaveMouth,
  barrel: drawBarrel,
  torch: drawTorch,
  crate: drawCrate,
  table: drawTable,
  bones: drawBones,
  rubble: drawRubble,
  shelf: drawShelf,
  urn: drawUrn,
  well: drawWell,
  garden: drawGarden,
};

/** How many drawings of each full tile a level's tileset holds (the plain one and its variants). */
const FULL_VARIANTS = 4;

/** Draws a level's tiles (the terrain pairs asked) and props. */
export async function drawLevelArt(
  request: ImageRequest,
  drawSprite: (prompt: string, resolution: number) => Promise<{ image: RgbaImage; as: string } | null>,
): Promise<GeneratedAsset> {
  const ask = request.level;
  if (!ask)
    throw new PipelineError(
      'invalid_request',
      'a level request names no terrains or props to draw (ImageRequest.level)',
    );
  const s = ask.tileSize;
  const style = resolveStyle(request.style, `${request.userPrompt} ${request.tags.join(' ')}`);
  const painter = new Painter(style.palette, new PaletteMatcher(style.palette));
  const rng = new Rng(request.seed);
  // a swamp's water (beside mud) murky green-brown, not a clear blue pond (decision 0128)
  const specs = terrainSpecsOf(
    ask.terrains.map((name) => (name in TERRAINS ? (name as TerrainName) : 'grass')),
  );
  // one texture per terrain, each avoiding the base colours before it
  const textures: ReturnType<typeof terrainTexture>[] = [];
  // each terrain's pieces (bricks, planks, stones) are laid once: its other drawings keep them
  const layouts = specs.map((spec) => Math.floor(rng.fork(`layout-${spec.name}`).next() * 4294967296));
  for (const [t, spec] of specs.entries()) {
    textures.push(
      terrainTexture(spec, s, rng.fork(`terrain-${spec.name}`), painter, [], { layoutSeed: layouts[t]! }),
    );
  }
  const wang = tilesetRules('wang16');
  const pairs: LevelArt['pairs'] = ask.pairs.map(([a, b]) => {
    // each edge tile drawn FULL_VARIANTS times, so a straight shore does not repeat one (decision 0149)
    const drawings: RgbaImage[][] = [];
    const tiles = renderTerrainTiles({
      // the rule tiles: a level draws its full tiles' variants itself
      tiles: wang.tiles.filter((t) => t.variantOf === undefined),
      size: s,
      layers: [
        { spec: specs[a]!, texture: textures[a]! },
        { spec: specs[b]!, texture: textures[b]! },
      ],
      rng: rng.fork(`pair-${a}-${b}`),
      drawings: { count: FULL_VARIANTS - 1, out: drawings },
    });
    return { a, b, tiles, drawings };
  });
  // each terrain's full tile in FULL_VARIANTS drawings: its texture's edges, another drawing of it inside
  const variants = textures.map((texture, t) =>
    Array.from({ length: FULL_VARIANTS - 1 }, (_, k) =>
      fullTileVariant(
        texture,
        terrainTexture(specs[t]!, s, rng.fork(`variant-${specs[t]!.name}-${k + 1}`), painter, [], {
          layoutSeed: layouts[t]!,
        }),
        s,
      ),
    ),
  );
  const props: LevelArt['props'] = [];
  const ink = (c: Rgb) => painter.choose(c);
  for (const kind of ask.props) {
    const here = DRAWN_HERE[kind];
    if (here) {
      props.push({ kind, image: here(s, ink), as: `drawn at ${s} px (${kind})` });
      continue;
    }
    const row = PROPS[kind];
    if (!row) continue;
    const drawn = await drawSprite(row.prompt, Math.max(16, Math.round(2 * s)));
    if (drawn) props.push({ kind, image: onCell(drawn.image, s, row.tall), as: drawn.as });
  }
  // each terrain's plain tile is its texture (what every pair set draws where a tile is all of it)
  const plains = textures.map((t) => {
    const data = new Uint8Array(s * s * 4);
    for (let y = 0; y < s; y++)
      for (let x = 0; x < s; x++) {
        const c = t.at(x, y);
        data.set([c[0], c[1], c[2], 255], (y * s + x) * 4);
      }
    return { width: s, height: s, data };
  });
  return {
    frames: [],
    animation: 'level',
    subject: 'level',
    levelArt: { pairs, plains, variants, colors: textures.map((t) => t.ramp.base as Rgb), props },
  };
}
