import {
  createMemoryStorage,
  type ImageRequest,
  type PipelineRequest,
  parsePalette,
  type RgbaImage,
} from '@assetloom/pipeline';
import { oklab, oklabOf, type Rgb } from '@assetloom/pipeline/pixel';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { iou, silhouette } from '../bench/subjects.js';
import { renderProcedural, runPipeline } from '../src/index.js';
import { colourBudget, paletteColours } from '../src/internal/look/index.js';
import { craftFaults } from '../src/internal/look/passes.js';
import { chromaCap, rampsOf } from '../src/internal/look/ramps.js';
import { frameStats, opaqueBox, opaqueGroups, spriteRequest } from './support.js';

/** Issue #39: one look per project — whatever drew a sprite, it leaves through the same look pass. */
const request = (prompt: string, over: Partial<ImageRequest> = {}): ImageRequest =>
  spriteRequest(prompt, { resolution: 64, ...over });

const colourCount = (frames: readonly RgbaImage[]) => {
  const set = new Set<number>();
  for (const f of frames)
    for (let i = 0; i < f.data.length; i += 4)
      if (f.data[i + 3]) set.add((f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!);
  return set.size;
};
const lightnessAt = (img: RgbaImage, x: number, y: number) =>
  oklabOf(
    img.data[(y * img.width + x) * 4]!,
    img.data[(y * img.width + x) * 4 + 1]!,
    img.data[(y * img.width + x) * 4 + 2]!,
  )[0];
const opaque = (img: RgbaImage, x: number, y: number) =>
  x >= 0 && y >= 0 && x < img.width && y < img.height && img.data[(y * img.width + x) * 4 + 3] !== 0;

/** A subject each source draws: a licensed drawing (emoji, silhouette) and the rig. */
const SOURCES = [
  ['a treasure chest', 'drawing'],
  ['a red dragon', 'drawing'],
  ['a windmill', 'drawing'],
  ['a knight', 'rig'],
  ['a slime', 'rig'],
] as const;

describe('the colour budget: ≤ 24 colours at 64 px, fewer at 32, the project palette exactly when enforced', () => {
  it.each(SOURCES.flatMap(([prompt, source]) => [32, 64, 128].map((res) => [prompt, source, res] as const)))(
    '%s (%s) at %i px',
    async (prompt, source, resolution) => {
      const out = await renderProcedural(
        request(prompt, { resolution, directions: 4, framesPerDirection: 4 }),
      );
      expect(out.interpretation?.source).toBe(source);
      const n = colourCount(out.frames);
      expect(n).toBeLessThanOrEqual(colourBudget(resolution));
      expect(n).toBeGreaterThanOrEqual(4);
    },
  );
  it.each(SOURCES.map(([prompt, source]) => [prompt, source, 'pico8'] as const))(
    '%s (%s) under %s: only the palette’s colours',
    async (prompt, _source, palette) => {
      const out = await renderProcedural(request(prompt, { style: { palette } }));
      const allowed = new Set(parsePalette(palette)!.colors.map((c) => (c[0] << 16) | (c[1] << 8) | c[2]));
      for (const f of out.frames)
        for (let i = 0; i < f.data.length; i += 4)
          if (f.data[i + 3])
            expect(allowed.has((f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!)).toBe(true);
    },
  );
});

describe('ramps: hue-shifted shadows and highlights, no raw pure colour', () => {
  /** A gradient of one colour from dark to light, as a histogram. */
  const gradient = (rgb: [number, number, number]) => {
    const counts = new Map<number, number>();
    for (let k = 0.35; k <= 1.15; k += 0.05) {
      const c = rgb.map((v) => Math.max(0, Math.min(255, Math.round(v * k))));
      counts.set((c[0]! << 16) | (c[1]! << 8) | c[2]!, 10);
    }
    return counts;
  };
  const hueOf = (c: readonly number[]) => {
    const [, a, b] = oklabOf(c[0]!, c[1]!, c[2]!);
    return Math.atan2(b, a);
  };
  const turn = (from: number, to: number) => ((to - from + 3 * Math.PI) % (2 * Math.PI)) - Math.PI;
  const COOL = (300 / 180) * Math.PI;
  const WARM = (90 / 180) * Math.PI;
  it.each([
    ['pure red', [255, 0, 0]],
    ['pure blue', [0, 0, 255]],
    ['grass green', [60, 200, 60]],
    ['pure yellow', [255, 255, 0]],
  ] as const)('%s: the deep shadow turns towards purple-blue, the highlight towards yellow', (_n, rgb) => {
    const { ramps } = rampsOf(gradient([...rgb]), 24);
    expect(ramps.length).toBe(1);
    const r = ramps[0]!;
    expect(r.colours.length).toBeGreaterThanOrEqual(4);
    // darkest first, each step lighter
    for (let i = 1; i < r.lightness.length; i++) expect(r.lightness[i]!).toBeGreaterThan(r.lightness[i - 1]!);
    const mid = hueOf(r.colours[Math.floor(r.colours.length / 2)]!);
    const deep = hueOf(r.colours[0]!);
    const top = hueOf(r.colours.at(-1)!);
    // the turn from the middle goes the way of the cool (resp. warm) hue, unless already there
    if (Math.abs(turn(mid, COOL)) > 0.2) expect(Math.sign(turn(mid, deep))).toBe(Math.sign(turn(mid, COOL)));
    if (Math.abs(turn(mid, WARM)) > 0.2) expect(Math.sign(turn(mid, top))).toBe(Math.sign(turn(mid, WARM)));
    // every colour within 80 % of the chroma sRGB can show at its lightness and hue
    for (const c of r.colours) {
      const [L, a, b] = oklabOf(c[0], c[1], c[2]);
      expect(Math.hypot(a, b)).toBeLessThanOrEqual(chromaCap(L, Math.atan2(b, a)) + 0.02);
      expect(c).not.toEqual([...rgb]);
    }
  });
  it.each([
    ['a red apple', [255, 0, 0]],
    ['a blue gem', [0, 0, 255]],
    ['a yellow star', [255, 255, 0]],
  ] as const)('%s: the pure CSS colour never reaches the picture raw', async (prompt, pure) => {
    const out = await renderProcedural(request(prompt));
    const f = out.frames[0]!;
    let raw = 0;
    for (let i = 0; i < f.data.length; i += 4)
      if (f.data[i + 3] && f.data[i] === pure[0] && f.data[i + 1] === pure[1] && f.data[i + 2] === pure[2])
        raw++;
    expect(raw).toBe(0);
  });
});

describe('one outline rule and one light direction, whatever drew the sprite', () => {
  /** Mean lightness of the silhouette's inside (no outline ring), over its left and its right half. */
  function halves(img: RgbaImage): [number, number] {
    const inner: Array<[number, number]> = [];
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++)
        if (
          opaque(img, x, y) &&
          opaque(img, x - 1, y) &&
          opaque(img, x + 1, y) &&
          opaque(img, x, y - 1) &&
          opaque(img, x, y + 1)
        )
          inner.push([x, y]);
    const xs = inner.map(([x]) => x);
    const mid = (Math.min(...xs) + Math.max(...xs)) / 2;
    const left: number[] = [];
    const right: number[] = [];
    for (const [x, y] of inner) (x < mid ? left : right).push(lightnessAt(img, x, y));
    const mean = (v: number[]) => v.reduce((s, n) => s + n, 0) / v.length;
    return [mean(left), mean(right)];
  }
  it.each(SOURCES)(
    '%s (%s): lit from the left, the left half is lighter than when lit from the right',
    async (prompt) => {
      const fromLeft = halves(
        (await renderProcedural(request(prompt, { style: { lighting: 'from the left' } }))).frames[0]!,
      );
      const fromRight = halves(
        (await renderProcedural(request(prompt, { style: { lighting: 'from the right' } }))).frames[0]!,
      );
      expect(fromLeft[0]).toBeGreaterThan(fromRight[0]);
      expect(fromRight[1]).toBeGreaterThan(fromLeft[1]);
    },
  );
  it.each(SOURCES)('%s (%s): a dark outline all round, no orphan pixel, no detached dot', async (prompt) => {
    const out = await renderProcedural(
      request(prompt, { resolution: 64, directions: 4, framesPerDirection: 4 }),
    );
    for (const f of out.frames) {
      expect(craftFaults(f)).toEqual({ orphans: 0, detached: 0 });
      // the ring of the silhouette is darker than the pixel just inside it
      let darker = 0;
      let ring = 0;
      for (let y = 1; y < f.height - 1; y++)
        for (let x = 1; x < f.width - 1; x++) {
          if (!opaque(f, x, y)) continue;
          for (const [dx, dy] of [
            [1, 0],
            [-1, 0],
            [0, 1],
            [0, -1],
          ] as const) {
            if (opaque(f, x + dx, y + dy) || !opaque(f, x - dx, y - dy)) continue;
            ring++;
            if (lightnessAt(f, x, y) < lightnessAt(f, x - dx, y - dy) + 0.01) darker++;
            break;
          }
        }
      expect(darker / ring).toBeGreaterThan(0.85);
    }
  });
  it('lineWeight 0 draws no outline ring, as it asks', async () => {
    const lined = await renderProcedural(request('a red dragon'));
    const bare = await renderProcedural(request('a red dragon', { style: { lineWeight: '0' } }));
    const area = (img: RgbaImage) => img.data.filter((v, i) => i % 4 === 3 && v).length;
    expect(area(bare.frames[0]!)).toBeLessThan(area(lined.frames[0]!) * 0.92);
  });
});

describe('32 px keeps the silhouette, 128 px adds detail', () => {
  it.each(SOURCES.slice(0, 3))('%s: at 32 px the 64 px silhouette, without specks', async (prompt) => {
    const small = (await renderProcedural(request(prompt, { resolution: 32 }))).frames[0]!;
    const mid = (await renderProcedural(request(prompt, { resolution: 64 }))).frames[0]!;
    expect(iou(silhouette(small, 16), silhouette(mid, 16))).toBeGreaterThan(0.75);
    expect(craftFaults(small)).toEqual({ orphans: 0, detached: 0 });
  });
  it.each(SOURCES.slice(0, 3))('%s: at 128 px drawn at 128, not a 64 scaled', async (prompt) => {
    const big = (await renderProcedural(request(prompt, { resolution: 128 }))).frames[0]!;
    // aligned 2 × 2 blocks that are not one colour: none in a scaled 64
    let mixed = 0;
    let blocks = 0;
    for (let y = 0; y < 128; y += 2)
      for (let x = 0; x < 128; x += 2) {
        const ks = [0, 1, 2, 3].map((k) => {
          const i = ((y + (k >> 1)) * 128 + x + (k & 1)) * 4;
          return big.data[i + 3] ? (big.data[i]! << 16) | (big.data[i + 1]! << 8) | big.data[i + 2]! : -1;
        });
        if (ks.every((k) => k < 0)) continue;
        blocks++;
        if (new Set(ks).size > 1) mixed++;
      }
    expect(mixed / blocks).toBeGreaterThan(0.2);
  });
});

describe('named materials keep their hue family under every built-in palette (decision 0136)', () => {
  const hueTurn = (x: Rgb, y: Rgb) => {
    const [, a, b] = oklab(x);
    const [, c, d] = oklab(y);
    const t = Math.abs(Math.atan2(d, c) - Math.atan2(b, a));
    return ((t > Math.PI ? 2 * Math.PI - t : t) * 180) / Math.PI;
  };
  const chroma = (c: Rgb) => Math.hypot(oklab(c)[1], oklab(c)[2]);
  const MATERIALS: Array<[string, Rgb]> = [
    ['gold', [222, 170, 52]],
    ['red', [200, 36, 44]],
    ['crimson', [170, 20, 50]],
    ['blue', [50, 90, 200]],
    ['green', [60, 150, 60]],
  ];
  it.each(['pico8', 'sweetie16', 'endesga32', 'nes'])(
    '%s: the main tone and its lit step within 30° of the material and with 0.6 of its chroma',
    (name) => {
      const look = paletteColours(parsePalette(name)!.colors, 1);
      for (const [material, c] of MATERIALS) {
        const main = look.map(c);
        const lit = look.step(main, 1);
        for (const [what, got] of [
          ['main', main],
          ['lit', lit],
        ] as const) {
          expect(hueTurn(c, got), `${material} ${what} ${got}`).toBeLessThanOrEqual(30);
          expect(chroma(got), `${material} ${what} ${got}`).toBeGreaterThanOrEqual(0.6 * chroma(c));
        }
      }
    },
  );

  it.each(['pico8', 'sweetie16', 'endesga32', 'nes'])(
    '%s: a gold ramp, brass and bronze land in the yellow/orange family, never a peach or a grey (decision 0146)',
    (name) => {
      const look = paletteColours(parsePalette(name)!.colors, 1);
      const hue = (c: Rgb) => ((Math.atan2(oklab(c)[2], oklab(c)[1]) * 180) / Math.PI + 360) % 360;
      for (const [what, c] of [
        ['gold light', [246, 206, 86]],
        ['gold', [222, 170, 52]],
        ['gold shade', [176, 120, 36]],
        ['gold deep', [116, 72, 30]],
        ['brass', [196, 160, 70]],
        ['bronze', [176, 116, 60]],
      ] as Array<[string, Rgb]>) {
        const got = look.map(c);
        const [L] = oklab(got);
        // a colour with chroma, warm (a deep gold may lean to red-brown: its hue 0°–115°) …
        expect(chroma(got), `${what} ${got}`).toBeGreaterThanOrEqual(0.05);
        expect(hue(got), `${what} ${got}`).toBeLessThanOrEqual(115);
        // … and a light one is no muted peach or skin (endesga32's #e4a672 was gold's shade)
        if (L > 0.6) expect(chroma(got), `${what} ${got}`).toBeGreaterThanOrEqual(0.11);
      }
      // a skin or a tan is no gold: it keeps its own match (where the palette has a peach — pico8's
      // #ffccaa, endesga32's #e4a672 — it stays that peach)
      if (name === 'pico8' || name === 'endesga32')
        for (const skin of [
          [240, 190, 150],
          [224, 172, 130],
          [255, 204, 170],
        ] as Rgb[])
          expect(chroma(look.map(skin)), `skin ${skin}`).toBeLessThan(0.11);
      // a gold's glint is the palette's white where no yellow is as light (sweetie16: #f4f4f4)
      const glint = look.map([255, 236, 150]);
      expect(oklab(glint)[0], `glint ${glint}`).toBeGreaterThanOrEqual(0.9);
    },
  );

  it('a crimson shield has no pink (pico8) or orange (sweetie16) half: its lit face stays red', async () => {
    for (const [palette, stray] of [
      ['pico8', 'ff77a8'],
      ['sweetie16', 'ef7d57'],
    ] as const) {
      const got = await renderProcedural(request('a crimson shield', { resolution: 32, style: { palette } }));
      const f = got.frames[0]!;
      // the lit face: the field's upper left quarter, inside the rim (the shield's gold band is
      // sweetie16's gold, its #ef7d57 included: decisions 0122, 0148)
      const b = opaqueBox(f);
      let n = 0;
      let off = 0;
      for (let y = b.y0 + 2; y < b.y0 + (b.y1 - b.y0) * 0.35; y++)
        for (let x = b.x0 + 2; x < (b.x0 + b.x1) / 2 - 1; x++) {
          const i = (y * f.width + x) * 4;
          if (!f.data[i + 3]) continue;
          n++;
          const hex = [...f.data.subarray(i, i + 3)].map((v) => v.toString(16).padStart(2, '0')).join('');
          if (hex === stray) off++;
        }
      expect(n).toBeGreaterThan(10);
      expect(off / n, `${palette}: ${stray}`).toBeLessThan(0.03);
    }
  });
});

describe('an enforced palette: every PNG indexed (colour type 3) with exactly the palette, the palette beside', () => {
  const cases: Array<[string, PipelineRequest['assetType'], Record<string, unknown>]> = [
    ['a red dragon', 'sprite', {}],
    ['a knight walking', 'animation', { frames: { directions: 4, framesPerDirection: 2 } }],
    ['a forest at night', 'background', { width: 160, height: 90, format: 'individual' }],
    ['a red start button', 'ui', {}],
    ['grass and water', 'tileset', { tileset: { kind: 'wang16', tileSize: 16 } }],
  ];
  it.each(
    cases.flatMap(([p, t, params]) => ['pico8', 'sweetie16'].map((pal) => [p, t, pal, params] as const)),
  )('%s (%s) under %s', async (prompt, assetType, palette, params) => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      {
        prompt,
        assetType,
        projectStyle: { palette },
        params: { resolution: 64, format: 'spritesheet', seed: 3, ...params } as PipelineRequest['params'],
        keyPrefix: 'p/',
      },
      { storage },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const colours = parsePalette(palette)!.colors;
    const pngs = storage.keys().filter((k) => k.endsWith('.png'));
    expect(pngs.length).toBeGreaterThan(0);
    for (const key of pngs) {
      const bytes = storage.get(key)!.bytes;
      const read = PNG.sync.read(Buffer.from(bytes));
      expect(read.colorType, key).toBe(3);
      // PLTE: the palette's colours in order (and one transparent entry after them when needed)
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      let p = 8;
      let plte: number[] = [];
      while (p < bytes.length) {
        const len = view.getUint32(p);
        if (String.fromCharCode(...bytes.subarray(p + 4, p + 8)) === 'PLTE')
          plte = [...bytes.subarray(p + 8, p + 8 + len)];
        p += 12 + len;
      }
      expect(plte.slice(0, colours.length * 3)).toEqual(colours.flat());
      expect(plte.length === colours.length * 3 || plte.length === colours.length * 3 + 3).toBe(true);
    }
    // the palette travels with the engine files: a GIMP palette and a hex list, named in every asset
    const gpl = new TextDecoder().decode(storage.get('p/palette.gpl')!.bytes);
    expect(gpl.startsWith('GIMP Palette\n')).toBe(true);
    const rows = gpl.split('\n').filter((l) => /^\s*\d+\s+\d+\s+\d+/.test(l));
    expect(rows.map((l) => l.trim().split(/\s+/).slice(0, 3).map(Number))).toEqual(colours);
    const hex = new TextDecoder().decode(storage.get('p/palette.hex')!.bytes).trim().split('\n');
    expect(hex.length).toBe(colours.length);
    for (const a of result.assets)
      expect(a.metadata.atlas).toMatchObject({ palette: 'p/palette.gpl', paletteHex: 'p/palette.hex' });
  });
  it('without a palette nothing is indexed and no palette file is written', async () => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      {
        prompt: 'a red dragon',
        assetType: 'sprite',
        projectStyle: {},
        params: { resolution: 64, format: 'spritesheet' },
        keyPrefix: 'p/',
      },
      { storage },
    );
    expect(result.ok).toBe(true);
    expect(storage.keys().some((k) => k.includes('palette'))).toBe(false);
    expect(storage.get('p/sprite.png')!.bytes[25]).not.toBe(3);
  });
});

/** Issue #39, decision 0085: things of one set sit at one scale, off the frame's edges, without strays. */
const PROPS = [
  'a steel helmet',
  'a wooden round shield',
  'a golden crown',
  'a wizard’s wand',
  'a leather boot',
  'a fire hydrant',
  'a pointed wizard hat',
  'a cowboy hat',
  'a mailbox',
  'a bucket',
  'a sword',
] as const;

describe('one framing rule: the larger side ~80 % of the frame, a margin all round, no strays', () => {
  it.each(PROPS)('%s at 32 px, every row', async (prompt) => {
    const out = await renderProcedural(request(prompt, { resolution: 32, directions: 4 }));
    const s = frameStats(out.frames);
    expect(s.share).toBeGreaterThanOrEqual(0.7);
    // (a sword is the diagonal icon, decision 0110: its box's corners are empty, it fills 0.92)
    expect(s.share).toBeLessThanOrEqual(prompt === 'a sword' ? 0.95 : 0.86);
    expect(s.margin).toBeGreaterThanOrEqual(1);
    expect(s.strays).toBe(0);
  });
  it('a crown, a hat and a hydrant at 64 px come out at one scale, standing on one ground line', async () => {
    const stats = [];
    for (const prompt of [
      'a golden crown',
      'a pointed wizard hat',
      'a fire hydrant',
      'a wooden round shield',
    ])
      stats.push(frameStats((await renderProcedural(request(prompt))).frames));
    const shares = stats.map((s) => s.share);
    expect(Math.max(...shares) / Math.min(...shares)).toBeLessThan(1.15);
    const grounds = stats.map((s) => s.box[3]);
    expect(Math.max(...grounds) - Math.min(...grounds)).toBeLessThanOrEqual(1);
  });
  it('a seed that leans the drawing keeps it at the rule’s scale (a crown, a hydrant at seeds 1–4)', async () => {
    // a lean of 5° dipped a bottom corner under the ground line, and the drawing shrank to keep the
    // dip in the last row: a crown at seed 3 was 30 px of a 64 px cell, a hydrant at seed 2 was 24
    // (decision 0095)
    for (const prompt of ['a golden crown', 'a fire hydrant'])
      for (const seed of [1, 2, 3, 4]) {
        const s = frameStats((await renderProcedural(request(prompt, { seed }))).frames);
        expect(s.share, `${prompt} #${seed}`).toBeGreaterThanOrEqual(0.7);
        expect(s.margin, `${prompt} #${seed}`).toBeGreaterThanOrEqual(1);
      }
  });
  it.each(['a flag', 'a war hammer'])(
    '%s: a one-colour silhouette shows its pole or haft in a second material',
    async (prompt) => {
      const out = await renderProcedural(request(prompt));
      expect(out.interpretation?.source).toBe('drawing');
      expect(frameStats(out.frames).hues).toBeGreaterThanOrEqual(2);
    },
  );
  it.each(['a spear', 'a sword'])(
    '%s: its travelling glint stays on it, one piece in every frame',
    async (prompt) => {
      const out = await renderProcedural(request(prompt, { directions: 4, framesPerDirection: 4 }));
      // (a sword is the sword icon's drawing now, decision 0110; a spear is the rig's)
      expect(out.interpretation?.source).toBe(prompt === 'a sword' ? 'drawing' : 'rig');
      for (const f of out.frames) expect(opaqueGroups(f)).toHaveLength(1);
    },
  );
  it('a barrel silhouette has no see-through flecks between its hoops and staves', async () => {
    for (const seed of [2, 3, 4]) {
      const f = (await renderProcedural(request('a wooden barrel', { seed }))).frames[0]!;
      // the transparent pixels, as opaque, in groups: only the one outside the barrel
      const holes: RgbaImage = {
        width: f.width,
        height: f.height,
        data: f.data.map((v, i) => (i % 4 === 3 ? (v ? 0 : 255) : v)),
      };
      expect(opaqueGroups(holes)).toHaveLength(1);
    }
  });
});
