import type { ImageRequest, PipelineError, RgbaImage } from '@assetloom/pipeline';
import { oklab } from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { renderProcedural } from '../src/index.js';
import { opaqueBox, opaqueGroups, spriteRequest } from './support.js';

/**
 * Issue #39, decision 0083: staple subjects a game maker asks for (a longsword, a jack-o'-lantern, a
 * fire hydrant, a gift box, a castle courtyard, a sci-fi lab) are drawn, by the drawing that shows
 * them, with nothing left unsaid; what the generator cannot show is still refused by name. The
 * prompts are this test's own.
 */
const STAPLES: Array<[prompt: string, drawn: string, notDrawn?: string[]]> = [
  // a longsword is the sword icon on the diagonal (decision 0110); a greatsword is still the rig's
  ['a longsword', 'x/sword'],
  ['a greatsword', 'item.blade'],
  ['一把长剑', 'x/sword'],
  ["a jack-o'-lantern", 'jack-o-lantern'],
  ['一个南瓜灯', 'jack-o-lantern'],
  ['a fire hydrant', 'x/fire-hydrant'],
  // a mallet is a wooden barrel head with iron hoops, not game-icons' toy mallet (decision 0148)
  ['a mallet', 'x/mallet'],
  ['一把木槌', 'x/mallet'],
  // a seer's crystal ball on its claw stand, not Fluent's snow globe on a plinth (decision 0136)
  ['a crystal ball', 'x/crystal-ball'],
  ['一个水晶球', 'x/crystal-ball'],
  ['一个消防栓', 'x/fire-hydrant'],
  ['a gift box', 'f/wrapped-gift'],
  ['a space helmet', 'g/astronaut-helmet'],
  ['a robot arm', 'g/mechanical-arm'],
  ['a lamp post', 'g/street-light'],
  ['a signpost', 'g/direction-sign'],
  ['an energy cell', 'f/battery'],
  ['a laser gun', 'g/ray-gun'],
  ['a spell book', 'g/spell-book'],
  ['a roast chicken', 'g/roast-chicken'],
  ['a slice of pizza', 'g/pizza-slice'],
  // a miner's pick is the pick, never the hair pick (the drawings' word is "pick")
  ['a pickaxe', '/pick'],
  ['a pickax', '/pick'],
  ['一把铁镐', '/pick'],
  // game-icons' air balloon is the hot-air balloon (envelope, ropes, basket), not the party balloon
  ['a hot air balloon', 'g/air-balloon'],
  ['a hot-air balloon', 'g/air-balloon'],
  // one-word names the drawings label otherwise
  ['a spellbook', 'g/spell-book'],
  ['a chestplate', 'g/breastplate'],
  ['an airship', 'g/zeppelin'],
  ['a blimp', 'g/zeppelin'],
  ['a runestone', 'g/rune-stone'],
  ['a lockpick', 'g/lockpicks'],
  ['a fishing rod', '/fishing-pole'],
  // a size word that is the only noun is the being ("a giant" found no subject)
  ['a giant', 'creature.ogre'],
  ['a giant with a club', 'creature.ogre'],
  // the cheese is drawn; its wheel shape is not, and said so
  ['a wheel of cheese', 'food.cheese', ['wheel']],
  // props of Assetloom's own (decision 0105): a rubber ball was Fluent's confetti ball
  ['a rubber ball', 'x/rubber-ball'],
  ['a lighthouse', 'x/lighthouse'],
  // (WordNet's first sense of a trawler is a fisherman: it was drawn as a person)
  ['a trawler', 'x/fishing-boat'],
  // refused by the blind review after 1130b though drawn under other names (decision 0115)
  ['a jester cap', 'g/jester-hat'],
  ['a poison vial', 'g/poison-bottle'],
  ['a rune stone', 'g/rune-stone'],
  ['a tree stump', 'g/stump-regrowth'],
  // a lich is the rig's skeleton in its crown, robe and staff; a noun of the same being is no other thing
  ['a lich', 'creature.skeleton'],
  ['a skeleton lich', 'creature.skeleton'],
  ['a necromancer skeleton', 'creature.skeleton'],
  // an android and a cyborg are the rig's robot figure (the robot emoji's head; a plain person)
  ['an android', 'creature.robot'],
  ['a cyborg', 'creature.robot'],
  // (a skeleton key is a key: the same-being rule is the rig's, never a drawing's)
  ['a skeleton key', 'g/skeleton-key'],
];

describe('staples are drawn (issue #39)', () => {
  it.each(STAPLES)('"%s" is drawn as %s', async (prompt, drawn, notDrawn = []) => {
    const got = await renderProcedural(spriteRequest(prompt));
    const it = got.interpretation!;
    const as = it.drawing?.id ?? it.kind;
    expect(as, `drawn as ${as}`).toContain(drawn);
    expect(it.ignored).toEqual(notDrawn);
    // a picture, not an empty frame
    const f = got.frames[0]!;
    let opaque = 0;
    for (let i = 3; i < f.data.length; i += 4) if (f.data[i]) opaque++;
    expect(opaque).toBeGreaterThan(f.width * f.height * 0.08);
  });

  it("a lich's skull is bone under its crown, over a dark robe (a purple main colour made it a purple ball)", async () => {
    const got = await renderProcedural(spriteRequest('a lich', { resolution: 64 }));
    const f = got.frames[0]!;
    let top = f.height;
    let bottom = 0;
    for (let y = 0; y < f.height; y++)
      for (let x = 0; x < f.width; x++)
        if (f.data[(y * f.width + x) * 4 + 3]) {
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
        }
    const h = bottom - top + 1;
    // the head: the top third of the figure; the robe: its lower half
    const head = labs(f, top, top + Math.round(h / 3));
    const robe = labs(f, top + Math.round(h / 2), bottom + 1);
    const bone = head.filter(([L, a, b]) => L > 0.85 && Math.hypot(a, b) < 0.04).length;
    expect(bone, 'bone-white skull pixels').toBeGreaterThanOrEqual(30);
    const dark = robe.filter(([L]) => L < 0.5).length;
    expect(dark / robe.length, 'dark robe').toBeGreaterThan(0.6);
  });

  it.each([
    ['a castle courtyard', 'castle courtyard'],
    ['城堡庭院', 'castle courtyard'],
    ['a sci-fi laboratory', 'laboratory'],
    ['科幻实验室', 'laboratory'],
  ])('the background "%s" is its scene, nothing unsaid', async (prompt, subject) => {
    const bg: ImageRequest = { ...spriteRequest(prompt), assetType: 'background', resolution: 96 };
    const got = await renderProcedural(bg);
    expect(got.subject).toContain(subject);
    expect(got.interpretation?.ignored ?? []).toEqual([]);
  });
});

describe('what it cannot show stays refused by name (issue #39)', () => {
  it.each([
    // curved, single-edged blades: the rig's sword is straight, and no drawing shows one alone
    ['a scimitar', 'scimitar'],
    ['a cutlass', 'cutlass'],
    // a rapier's narrow blade and swept hilt are not the rig's broad sword
    ['a rapier', 'rapier'],
  ])('"%s" is refused naming "%s"', async (prompt, word) => {
    const failure = await renderProcedural(spriteRequest(prompt)).then(
      () => null,
      (e: unknown) => e as PipelineError,
    );
    expect(failure?.code).toBe('subject_not_drawable');
    expect(failure?.message).toContain(`"${word}"`);
  });
});

/** Runs of opaque pixels along row y of a frame. */
function runsOf(f: RgbaImage, y: number): number {
  let runs = 0;
  for (let x = 0; x < f.width; x++)
    if (f.data[(y * f.width + x) * 4 + 3] && (x === 0 || !f.data[(y * f.width + x - 1) * 4 + 3])) runs++;
  return runs;
}
/** The opaque pixels of a frame's rows y0 … y1 − 1 as OKLab (lightness, a, b). */
function labs(f: RgbaImage, y0: number, y1: number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < f.width; x++) {
      const i = (y * f.width + x) * 4;
      if (f.data[i + 3]) out.push(oklab([f.data[i]!, f.data[i + 1]!, f.data[i + 2]!]));
    }
  return out;
}

describe('props a pixel artist would ship (issue #39, decision 0105)', () => {
  it.each([32, 64])(
    'a lighthouse at %i px is a banded tower with a lit lamp room and a cap, a chair stands on straight legs, a fishing boat has its own drawing',
    async (resolution) => {
      const lighthouse = await renderProcedural(spriteRequest('a lighthouse on the coast', { resolution }));
      expect(lighthouse.interpretation?.drawing?.id).toBe('x/lighthouse');
      const f = lighthouse.frames[0]!;
      const b = opaqueBox(f);
      const h = b.y1 - b.y0 + 1;
      // the lamp: a warm light near the top (yellow, lighter than anything of the tower below it)
      const top = labs(f, b.y0, b.y0 + Math.round(h * 0.3));
      expect(top.some(([l, , bb]) => l > 0.85 && bb > 0.04)).toBe(true);
      // the tower's bands: down its middle column, red and white alternate at least four times
      const cx = Math.round((b.x0 + b.x1) / 2) - 1;
      let changes = 0;
      let was: boolean | null = null;
      for (let y = b.y0 + Math.round(h * 0.35); y < b.y0 + Math.round(h * 0.85); y++) {
        const i = (y * f.width + cx) * 4;
        if (!f.data[i + 3]) continue;
        const [, a] = oklab([f.data[i]!, f.data[i + 1]!, f.data[i + 2]!]);
        const red = a > 0.08;
        if (was !== null && red !== was) changes++;
        was = red;
      }
      expect(changes).toBeGreaterThanOrEqual(4);

      const chair = await renderProcedural(spriteRequest('a chair', { resolution }));
      expect(chair.interpretation?.drawing?.id).toBe('x/chair');
      const c = chair.frames[0]!;
      const cb = opaqueBox(c);
      // under the seat its legs stand apart: every row of the bottom sixth is two or more runs
      for (let y = cb.y1 - Math.round((cb.y1 - cb.y0) / 6); y <= cb.y1; y++)
        expect(runsOf(c, y), `row ${y}`).toBeGreaterThanOrEqual(2);

      // a flag's pole is solid: across it, no see-through pixel between its two edges, all the way down
      const flag = await renderProcedural(spriteRequest('a flag', { resolution }));
      expect(flag.interpretation?.drawing?.id).toBe('x/flag');
      const g = flag.frames[0]!;
      const gb = opaqueBox(g);
      for (let y = gb.y0 + Math.round((gb.y1 - gb.y0) * 0.7); y <= gb.y1; y++) expect(runsOf(g, y)).toBe(1);
      // a witch's hat is drawn (it was refused), in a second ramp at its band
      expect(
        (await renderProcedural(spriteRequest("a witch's hat", { resolution }))).interpretation?.drawing?.id,
      ).toBe('x/witch-hat');

      const boat = await renderProcedural(spriteRequest('a fishing boat', { resolution }));
      expect(boat.interpretation?.drawing?.id).toBe('x/fishing-boat');
    },
  );

  it('a still prop is one shape: no stray pixel or blob apart from the thing', async () => {
    // (a ball bouncing has its shadow apart: object-verbs.test.ts)
    for (const prompt of [
      'a wooden stool',
      'an armchair',
      'a lighthouse',
      'a chair',
      'a fishing boat',
      'a potion',
      'a silver tiara',
      'a crown',
      'a flag',
      'a banner',
      "a witch's hat",
      'a mana potion',
      'a rubber ball',
      'a top hat',
      'a parchment scroll',
      'a battle axe',
      'a flask',
    ])
      for (const resolution of [32, 64]) {
        const got = await renderProcedural(spriteRequest(prompt, { resolution }));
        expect(opaqueGroups(got.frames[0]!).length, `${prompt} at ${resolution} px`).toBe(1);
      }
  });
});

/** Opaque at (x, y) (false outside the frame). */
const solid = (f: RgbaImage, x: number, y: number) =>
  x >= 0 && y >= 0 && x < f.width && y < f.height && f.data[(y * f.width + x) * 4 + 3]! > 0;
/** Yellow-gold pixels (warm, light) of rows y0 … y1 − 1. */
function golds(f: RgbaImage, y0: number, y1: number): number {
  return labs(f, y0, y1).filter(([l, a, b]) => l > 0.72 && b > 0.1 && a < 0.06).length;
}

describe('32 px icons and props drawn for their size (issue #39, decision 0110)', () => {
  it('a gear at 32 px has eight even teeth (widths within a pixel), a clean hub hole and a few flat colours', async () => {
    for (const prompt of ['a cog icon', 'a settings gear']) {
      const got = await renderProcedural(spriteRequest(prompt));
      expect(got.interpretation?.drawing?.id).toBe('x/gear');
      const f = got.frames[0]!;
      const b = opaqueBox(f);
      const cx = (b.x0 + b.x1 + 1) / 2;
      const cy = (b.y0 + b.y1 + 1) / 2;
      const R = (b.x1 - b.x0 + 1) / 2;
      // round a circle through the teeth (between the rim and the tips): the runs of opaque pixels
      const r = R * 0.88;
      const steps = 1440;
      const on = Array.from({ length: steps }, (_, k) => {
        const a = (2 * Math.PI * k) / steps;
        return solid(f, Math.floor(cx + r * Math.cos(a)), Math.floor(cy + r * Math.sin(a)));
      });
      const start = on.indexOf(false);
      const widths: number[] = [];
      let run = 0;
      for (let k = 1; k <= steps; k++) {
        if (on[(start + k) % steps]) run++;
        else if (run) {
          widths.push((run / steps) * 2 * Math.PI * r);
          run = 0;
        }
      }
      expect(widths, prompt).toHaveLength(8);
      expect(
        Math.max(...widths) - Math.min(...widths),
        `${prompt}: ${widths.map((w) => w.toFixed(1))}`,
      ).toBeLessThanOrEqual(1);
      // the hub's hole: the middle 2 × 2 see-through
      for (const [dx, dy] of [
        [-1, -1],
        [0, -1],
        [-1, 0],
        [0, 0],
      ] as const)
        expect(solid(f, Math.floor(cx) + dx, Math.floor(cy) + dy), prompt).toBe(false);
      // flat steel in one ramp and its outline, not a noisy fill
      const colours = new Set<number>();
      for (let i = 0; i < f.data.length; i += 4)
        if (f.data[i + 3]) colours.add((f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!);
      expect(colours.size, prompt).toBeLessThanOrEqual(8);
    }
  });

  it('a sword icon at 32 px lies on the diagonal and spans at least 80 % of it', async () => {
    for (const prompt of ['a sword icon', 'a longsword', 'a broadsword']) {
      const got = await renderProcedural(spriteRequest(prompt));
      expect(got.interpretation?.drawing?.id).toBe('x/sword');
      const f = got.frames[0]!;
      // its reach along the diagonal from the lower left to the upper right, in pixels
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (let y = 0; y < f.height; y++)
        for (let x = 0; x < f.width; x++)
          if (solid(f, x, y)) {
            lo = Math.min(lo, x - y);
            hi = Math.max(hi, x - y);
          }
      const reach = (hi - lo + 1) / Math.SQRT2;
      expect(reach, prompt).toBeGreaterThanOrEqual(0.8 * f.width * Math.SQRT2);
    }
  });

  it('a heart icon is exactly mirror-symmetric in its outline at 32 and 64 px', async () => {
    for (const prompt of ['a heart icon', 'a health heart'])
      for (const resolution of [32, 64]) {
        const got = await renderProcedural(spriteRequest(prompt, { resolution }));
        // (a health heart is the heart symbol, not the anatomical heart)
        expect(got.interpretation?.drawing?.id).toBe('x/heart');
        const f = got.frames[0]!;
        const b = opaqueBox(f);
        for (let y = b.y0; y <= b.y1; y++)
          for (let x = b.x0; x <= b.x1; x++)
            expect(solid(f, x, y), `${prompt} ${resolution} (${x}, ${y})`).toBe(solid(f, b.x0 + b.x1 - x, y));
      }
  });

  it('a 32 px gear and heart have no one-pixel horn on their outline (a pixel with one neighbour of its shape, off a flat edge)', async () => {
    // the blind review (after-1130i): "a gear with stray spike pixels and uneven teeth; a heart with two
    // stray pixels on the lobes" — the symmetry vote kept line pixels whose fill it dropped
    for (const prompt of ['a cog icon', 'a settings gear', 'a heart icon', 'a health heart']) {
      const got = await renderProcedural(spriteRequest(prompt, { resolution: 32 }));
      expect(['x/gear', 'x/heart']).toContain(got.interpretation?.drawing?.id);
      const f = got.frames[0]!;
      const horns: string[] = [];
      for (let y = 0; y < f.height; y++)
        for (let x = 0; x < f.width; x++) {
          if (!solid(f, x, y)) continue;
          const n = [solid(f, x - 1, y), solid(f, x + 1, y), solid(f, x, y - 1), solid(f, x, y + 1)].filter(
            Boolean,
          );
          if (n.length <= 1) horns.push(`(${x}, ${y})`);
        }
      expect(horns, prompt).toEqual([]);
    }
  });

  it.each([32, 64])(
    'a chest opening at %i px: one box in every frame, a shut lid with no gold, gold heaped when open',
    async (resolution) => {
      const got = await renderProcedural(
        spriteRequest('a treasure chest opening', {
          assetType: 'animation',
          resolution,
          framesPerDirection: 6,
        }),
      );
      expect(got.interpretation?.drawing?.id).toBe('x/treasure-chest');
      const fs = got.frames;
      const b = opaqueBox(fs[0]!);
      const h = b.y1 - b.y0 + 1;
      // the box (below the lid's lip) is the same pixels in every frame
      const boxFrom = b.y0 + Math.ceil(h * 0.45);
      const rows = (f: RgbaImage) => Buffer.from(f.data.subarray(boxFrom * f.width * 4)).toString('hex');
      for (const f of fs.slice(1)) expect(rows(f)).toBe(rows(fs[0]!));
      // shut: no gold above the lock; open: gold heaped in the mouth
      const lid = b.y0 + Math.floor(h * 0.3);
      expect(golds(fs[0]!, 0, lid)).toBe(0);
      expect(golds(fs.at(-1)!, 0, boxFrom)).toBeGreaterThanOrEqual(resolution / 2);
      // the lid rises about its back edge: no frame's top below the shut one's, and the last stands
      // above the box (it sweeps highest at mid-swing, then tips back: decision 0121)
      const tops = fs.map((f) => opaqueBox(f).y0);
      for (let i = 1; i < tops.length; i++) expect(tops[i]!).toBeLessThanOrEqual(tops[0]!);
      expect(tops[0]! - tops.at(-1)!).toBeGreaterThanOrEqual(2);
      // the open lid stands on its hinge: every row from its top down to the box is opaque across the
      // middle, and its row on the hinge is the lid's full rim (its crown's narrow top row on the
      // hinge left the lid floating above the box as a detached plank); set back from the box's sides
      // by a twenty-fifth of its width each side (decision 0132: as wide as the box, the box seemed to
      // grow as it opened), so 0.8 of the box (0.9 before)
      const last = fs.at(-1)!;
      const opaque = (y: number, x: number) => last.data[(y * last.width + x) * 4 + 3]! > 0;
      const mid = Math.round((b.x0 + b.x1) / 2);
      for (let y = tops.at(-1)!; y < b.y0 + 2; y++)
        expect(opaque(y, mid), `${resolution}: row ${y} of the lid`).toBe(true);
      const wide = (y: number) => {
        let n = 0;
        for (let x = b.x0; x <= b.x1; x++) if (opaque(y, x)) n++;
        return n;
      };
      expect(wide(b.y0 - 1), `${resolution}: the lid's row on the hinge`).toBeGreaterThanOrEqual(
        0.8 * (b.x1 - b.x0 + 1),
      );
    },
  );
});

describe('props at their size (issue #39, decision 0121)', () => {
  it('a chest lid turns on its hinge: a drawn solid joined to the box in every frame, tipped back over gold at the end', async () => {
    const got = await renderProcedural(
      spriteRequest('a treasure chest opening', {
        assetType: 'animation',
        resolution: 64,
        framesPerDirection: 4,
      }),
    );
    expect(got.interpretation?.drawing?.id).toBe('x/treasure-chest');
    const fs = got.frames;
    const b = opaqueBox(fs[0]!);
    const boxFrom = b.y0 + Math.ceil((b.y1 - b.y0 + 1) * 0.45);
    // the lid: what is above the box that is neither gold (a yellow hue) nor its dark outline
    const lidPixels = (f: RgbaImage) =>
      labs(f, 0, boxFrom).filter(
        ([l, a, bb]) => l > 0.3 && !(Math.atan2(bb, a) > 1.19 && Math.hypot(a, bb) > 0.07),
      ).length;
    const shut = lidPixels(fs[0]!);
    for (const [i, f] of fs.entries()) {
      // never a 1-px line: at mid-swing the lid's inside stands under its foreshortened front (main
      // before decision 0121: 0.34 of the shut lid's pixels in frame 2, a line over the gold)
      expect(lidPixels(f), `frame ${i}: the lid's pixels`).toBeGreaterThanOrEqual(0.6 * shut);
      // never apart from the box: the chest is one 4-connected shape in every frame
      expect(opaqueGroups(f).length, `frame ${i}: pieces`).toBe(1);
    }
    // open, gold shows in front of the lid, and the lid stands above the shut chest's top
    expect(golds(fs.at(-1)!, 0, boxFrom)).toBeGreaterThanOrEqual(32);
    expect(opaqueBox(fs.at(-1)!).y0).toBeLessThan(b.y0 - 2);
  });

  it('an old, rickety or broken chair is the old chair (weathered, cracked, a slat gone), nothing unsaid; a wooden chair stays the plain one', async () => {
    const old = await renderProcedural(spriteRequest('an old wooden chair', { resolution: 64 }));
    expect(old.interpretation?.drawing?.id).toBe('x/old-chair');
    expect(old.interpretation?.ignored ?? []).toEqual([]);
    const plain = await renderProcedural(spriteRequest('a wooden chair', { resolution: 64 }));
    expect(plain.interpretation?.drawing?.id).toBe('x/chair');
    // "rickety" and "broken" are the old chair too, said as drawn
    for (const prompt of ['a rickety chair', 'a broken chair']) {
      const got = await renderProcedural(spriteRequest(prompt, { resolution: 32 }));
      expect(got.interpretation?.drawing?.id, prompt).toBe('x/old-chair');
      expect(got.interpretation?.ignored ?? [], prompt).toEqual([]);
    }
  });

  it('a race car at 128 px has a driver, a number, dark tyres round pale hubs and a body in three tones', async () => {
    const got = await renderProcedural(spriteRequest('a race car', { resolution: 128 }));
    expect(got.interpretation?.drawing?.id).toBe('x/race-car');
    const f = got.frames[0]!;
    const b = opaqueBox(f);
    const h = b.y1 - b.y0 + 1;
    const all = labs(f, b.y0, b.y1 + 1);
    // the body: three or more reds a step apart in lightness
    const reds = new Set(all.filter(([, a]) => a > 0.1).map(([l]) => Math.round(l * 12)));
    expect(reds.size).toBeGreaterThanOrEqual(3);
    // the driver's yellow helmet in the top half; the white roundel and stripe
    expect(
      labs(f, b.y0, b.y0 + Math.round(h / 2)).filter(([l, a, bb]) => l > 0.7 && bb > 0.08 && a < 0.05).length,
    ).toBeGreaterThanOrEqual(20);
    expect(all.filter(([l, a, bb]) => l > 0.9 && Math.hypot(a, bb) < 0.03).length).toBeGreaterThanOrEqual(20);
    // tyres: near-black rubber in the bottom third, and pale grey hubs inside them
    const low = labs(f, b.y1 - Math.round(h / 3), b.y1 + 1);
    expect(low.filter(([l, a, bb]) => l < 0.32 && Math.hypot(a, bb) < 0.04).length).toBeGreaterThanOrEqual(
      80,
    );
    expect(low.filter(([l, a, bb]) => l > 0.7 && Math.hypot(a, bb) < 0.04).length).toBeGreaterThanOrEqual(20);
  });
});

/** Opaque pixels unlike their image under `map` about the drawn box (0 when the silhouette keeps it). */
function unlike(
  f: RgbaImage,
  map: (x: number, y: number, sx: number, sy: number) => [number, number],
): number {
  const b = opaqueBox(f);
  let n = 0;
  for (let y = b.y0; y <= b.y1; y++)
    for (let x = b.x0; x <= b.x1; x++) {
      const [u, v] = map(x, y, b.x0 + b.x1, b.y0 + b.y1);
      if (solid(f, x, y) !== solid(f, u, v)) n++;
    }
  return n;
}
const mirrored = (x: number, y: number, sx: number): [number, number] => [sx - x, y];
/** A quarter turn about the box's middle (a square box: the gear's). */
const quarter = (x: number, y: number, sx: number, sy: number): [number, number] => [
  (sx - (2 * y - sy)) / 2,
  (sy + (2 * x - sx)) / 2,
];

describe('icons exact on the pixel grid, gold that stays gold under a palette (issue #39, decision 0122)', () => {
  it('a gear at 16 and 32 px is the same under a quarter turn and a mirror, leaning seed or not', async () => {
    for (const resolution of [16, 32])
      for (const seed of [1, 2]) {
        const got = await renderProcedural(spriteRequest('a settings gear', { resolution, seed }));
        expect(got.interpretation?.drawing?.id).toBe('x/gear');
        const f = got.frames[0]!;
        const b = opaqueBox(f);
        expect(b.x1 - b.x0, `${resolution} seed ${seed}: a square box`).toBe(b.y1 - b.y0);
        expect(unlike(f, mirrored), `${resolution} seed ${seed}: mirror`).toBe(0);
        expect(unlike(f, quarter), `${resolution} seed ${seed}: quarter turn`).toBe(0);
      }
  });

  it('a heart is its own mirror image at 16 and 32 px, leaning seed or not, and in every frame of its beat', async () => {
    for (const prompt of ['a life heart', 'a heart'])
      for (const resolution of [16, 32])
        for (const seed of [1, 2]) {
          const got = await renderProcedural(spriteRequest(prompt, { resolution, seed }));
          expect(unlike(got.frames[0]!, mirrored), `${prompt} ${resolution} seed ${seed}`).toBe(0);
        }
    const beat = await renderProcedural(
      spriteRequest('a heart beating', { assetType: 'animation', resolution: 64, framesPerDirection: 4 }),
    );
    expect(beat.frames.length).toBeGreaterThanOrEqual(4);
    for (const [i, f] of beat.frames.entries()) expect(unlike(f, mirrored), `frame ${i}`).toBe(0);
  });

  it('a golden crown under sweetie16 keeps to its yellow-orange ramp: no white rim, no stray cyan', async () => {
    const got = await renderProcedural(
      spriteRequest('a golden crown', { resolution: 32, style: { palette: 'sweetie16' } }),
    );
    const f = got.frames[0]!;
    const counts = new Map<string, number>();
    for (let i = 0; i < f.data.length; i += 4)
      if (f.data[i + 3]) {
        const hex = [...f.data.subarray(i, i + 3)].map((v) => v.toString(16).padStart(2, '0')).join('');
        counts.set(hex, (counts.get(hex) ?? 0) + 1);
      }
    // sweetie16's white and pale blue-grey are no gold's light (its cyan lights the blue gems only)
    for (const stray of ['f4f4f4', '94b0c2']) expect(counts.get(stray) ?? 0, stray).toBe(0);
    // its yellow and orange carry the crown
    expect((counts.get('ffcd75') ?? 0) + (counts.get('ef7d57') ?? 0)).toBeGreaterThan(
      0.5 * [...counts.values()].reduce((s, n) => s + n, 0),
    );
  });

  it('an iron hammer: a dark neutral grey head (no steel-cyan) on its wooden haft', async () => {
    const got = await renderProcedural(spriteRequest('an iron hammer', { resolution: 32 }));
    const f = got.frames[0]!;
    let grey = 0;
    let warm = 0;
    let cool = 0;
    let n = 0;
    for (let i = 0; i < f.data.length; i += 4) {
      if (!f.data[i + 3]) continue;
      n++;
      const [L, a, b] = oklab([f.data[i]!, f.data[i + 1]!, f.data[i + 2]!]);
      const C = Math.hypot(a, b);
      if (C < 0.035 && L > 0.3) grey++;
      else if (b > 0.03 && a > 0) warm++;
      else if (C >= 0.035 && b < -0.01) cool++;
    }
    // the iron is grey, the haft is wood, and nothing is the blue of steel
    expect(grey / n).toBeGreaterThan(0.15);
    expect(warm / n).toBeGreaterThan(0.15);
    expect(cool).toBe(0);
  });
});

/** OKLab lightness, chroma and hue (degrees) of the pixel at (x, y). */
function lch(f: RgbaImage, x: number, y: number): [number, number, number] {
  const i = (y * f.width + x) * 4;
  const [L, a, b] = oklab([f.data[i]!, f.data[i + 1]!, f.data[i + 2]!] as never) as unknown as number[];
  return [L!, Math.hypot(a!, b!), (Math.atan2(b!, a!) * 180) / Math.PI];
}
/** The opaque pixels of a frame with their OKLab lightness, chroma and hue. */
function opaquePixels(f: RgbaImage): Array<[x: number, y: number, L: number, C: number, h: number]> {
  const out: Array<[number, number, number, number, number]> = [];
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++) if (solid(f, x, y)) out.push([x, y, ...lch(f, x, y)]);
  return out;
}

describe('set drawings that read: hammer, shield, crown, apple (issue #39, decision 0148)', () => {
  it.each([32, 64])(
    'a hammer at %i px has a steel block for a head, not a hatchet’s notched wedge',
    async (resolution) => {
      for (const prompt of ['a hammer', "a blacksmith's hammer", '一把锤'] as const) {
        const got = await renderProcedural(spriteRequest(prompt, { resolution }));
        expect(got.interpretation?.drawing?.id, prompt).toBe('x/hammer');
        const f = got.frames[0]!;
        // the head's steel (light, grey) pixels fill most of their box along and across the haft's
        // diagonal: Fluent's notched hammer head filled 0.61 (32 px) and 0.64 (64 px) of it, x/hammer 0.83
        const steel = opaquePixels(f).filter(([, , L, C]) => C < 0.035 && L > 0.45);
        const u = steel.map(([x, y]) => x + y);
        const v = steel.map(([x, y]) => x - y);
        const box =
          ((Math.max(...u) - Math.min(...u)) / Math.SQRT2 + 1) *
          ((Math.max(...v) - Math.min(...v)) / Math.SQRT2 + 1);
        expect(steel.length / box, prompt).toBeGreaterThan(0.75);
        expect(opaqueGroups(f).length, prompt).toBe(1);
      }
    },
  );

  it.each([32, 64])(
    'a shield at %i px has a steel boss in its middle, its field in the asked colour',
    async (resolution) => {
      for (const prompt of ['a shield', "a knight's shield", 'a blue shield', '一面盾牌']) {
        const got = await renderProcedural(spriteRequest(prompt, { resolution }));
        expect(got.interpretation?.drawing?.id, prompt).toBe('x/shield');
        const f = got.frames[0]!;
        const b = opaqueBox(f);
        const cx = (b.x0 + b.x1) / 2;
        const cy = b.y0 + (b.y1 - b.y0) * 0.45;
        const rx = (b.x1 - b.x0) * 0.18;
        const ry = (b.y1 - b.y0) * 0.18;
        // light steel pixels round the middle (Fluent's shield: none, its field ran through)
        const boss = opaquePixels(f).filter(
          ([x, y, L, C]) => Math.abs(x - cx) <= rx && Math.abs(y - cy) <= ry && L > 0.7 && C < 0.04,
        );
        expect(boss.length, prompt).toBeGreaterThanOrEqual(resolution === 32 ? 6 : 24);
        const field = opaquePixels(f).filter(([, , L, C]) => C > 0.1 && L < 0.75);
        const hues = field.map(([, , , , h]) => h);
        const blue = hues.filter((h) => h < -80 && h > -140).length;
        if (prompt === 'a blue shield') expect(blue / hues.length, prompt).toBeGreaterThan(0.5);
        else expect(blue, prompt).toBe(0);
      }
    },
  );

  it.each([32, 64])('a crown at %i px keeps its gems inside its outline', async (resolution) => {
    for (const prompt of ['a crown', "a king's crown", "a queen's crown", '一顶皇冠']) {
      const got = await renderProcedural(spriteRequest(prompt, { resolution }));
      expect(got.interpretation?.drawing?.id, prompt).toBe('x/crown');
      const f = got.frames[0]!;
      // a gem (a blue or a ruby red, lighter than the outline) with a clear pixel two or fewer away
      // sits on the silhouette's edge: Fluent's crown had 6 (32 px) and 17 (64 px), its side gems
      // bulging out of the band
      const gems = opaquePixels(f).filter(
        ([, , L, C, h]) => L > 0.4 && C > 0.08 && (h < -60 || (h > -20 && h < 40 && C > 0.12)),
      );
      expect(gems.length, prompt).toBeGreaterThan(0);
      const near = gems.filter(([x, y]) => {
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++) if (!solid(f, x + dx, y + dy)) return true;
        return false;
      });
      expect(near.length, prompt).toBe(0);
    }
  });

  it.each([32, 64])(
    'an apple at %i px has a brown stem and a small leaf, framed like other objects',
    async (resolution) => {
      for (const prompt of ['an apple', 'a green apple', '一个苹果']) {
        const got = await renderProcedural(spriteRequest(prompt, { resolution }));
        expect(got.interpretation?.drawing?.id, prompt).toBe('x/apple');
        const f = got.frames[0]!;
        const px = opaquePixels(f);
        const b = opaqueBox(f);
        if (prompt === 'a green apple') {
          // dyed whole: the fruit green (the stem and leaf follow the dye's ramp)
          const coloured = px.filter(([, , , C]) => C > 0.06);
          expect(
            coloured.filter(([, , , , h]) => h > 100 && h < 170).length / coloured.length,
            prompt,
          ).toBeGreaterThan(0.7);
          continue;
        }
        // the stem: dark brown pixels in the top quarter (Fluent's apple: none)
        const stem = px.filter(
          ([, y, L, C, h]) =>
            y < b.y0 + (b.y1 - b.y0) / 4 && L > 0.2 && L < 0.5 && C > 0.03 && h > 45 && h < 100,
        );
        expect(stem.length, prompt).toBeGreaterThanOrEqual(resolution === 32 ? 2 : 6);
        // the leaf is small: light green pixels are under 6 % of a red apple (Fluent's leaf: 6.8–7.7 %)
        const leaf = px.filter(([, , , C, h]) => C > 0.06 && h > 100 && h < 170);
        expect(leaf.length / px.length, prompt).toBeLessThan(0.06);
        expect(leaf.length, prompt).toBeGreaterThan(0);
      }
    },
  );
});
