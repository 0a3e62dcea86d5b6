import { describe, expect, it } from 'vitest';
import {
  allDrawings,
  drawableLike,
  drawingById,
  findDrawings,
  provenanceOf,
  renderDrawing,
  SETS,
} from '../src/index.js';

describe('catalog', () => {
  it('holds drawings of all three sets, each with its licence', () => {
    const sets = new Set(allDrawings().map((d) => d.set));
    // (assetloom: composites of the sets' drawings, such as the campfire)
    expect([...sets].sort()).toEqual(['assetloom', 'fluent-emoji-flat', 'game-icons', 'noto']);
    expect(SETS.map((s) => s.license)).toEqual(['MIT', 'Apache-2.0', 'CC-BY-3.0']);
    expect(allDrawings().length).toBeGreaterThan(5000);
  });

  it.each([
    ['dog', [], 'dog'],
    ['spider', [], 'spider'],
    ['trophy', [], 'trophy'],
    ['windmill', [], 'windmill'],
    ['tree', ['pine'], 'pine'],
    ['熊猫', [], 'panda'],
    ['雪人', [], 'snowman'],
  ] as const)('finds %s (%j) as a drawing about it', (head, modifiers, word) => {
    const best = findDrawings({ head, modifiers })[0];
    expect(best, head).toBeDefined();
    expect(`${best!.drawing.label} ${best!.drawing.words.join(' ')}`).toContain(word);
  });

  it('finds nothing rather than something else', () => {
    expect(findDrawings({ head: 'zxqv' })).toEqual([]);
    // an English emoji keyword is an association, not a name: "lake" is a keyword of the
    // speedboat, "champion" of the trophy
    expect(findDrawings({ head: 'lake' })).toEqual([]);
    expect(findDrawings({ head: 'champion' })).toEqual([]);
    expect(findDrawings({ head: 'animal' })).toEqual([]);
  });

  it('composes what no single drawing shows from the sets own drawings, crediting each', () => {
    const [campfire] = findDrawings({ head: 'campfire' });
    expect(campfire?.drawing.id).toBe('x/campfire');
    const p = provenanceOf(campfire!.drawing);
    expect(p.parts?.map((x) => x.drawing).sort()).toEqual(['f/fire', 'f/wood']);
    expect(p.license).toBe('MIT');
  });

  it('prefers a whole animal to its face, and what is in the frame to what is cut by it', () => {
    const dog = findDrawings({ head: 'dog' })[0]!.drawing;
    expect(dog.face).toBe(false);
    expect(dog.cropped).toBe(false);
  });

  it('suggests drawable nouns spelt alike', () => {
    expect(drawableLike('dargon')).toContain('dragon');
    expect(drawableLike('spidr')).toContain('spider');
  });
});

describe('provenance', () => {
  it('carries the CC BY attribution of a game-icons drawing, with its author', () => {
    const p = provenanceOf(drawingById('g/windmill')!);
    expect(p.license).toBe('CC-BY-3.0');
    expect(p.author).toBe('Delapouite');
    expect(p.attribution).toMatch(/^Icons made by Delapouite, game-icons\.net/);
  });
  it('names the set and its licence for an emoji', () => {
    const p = provenanceOf(drawingById('f/dog')!);
    expect(p).toMatchObject({ set: 'fluent-emoji-flat', license: 'MIT', author: 'Microsoft Corporation' });
  });
});

describe('renderDrawing', () => {
  it('renders through resvg into straight-alpha RGBA, the same pixels every time', async () => {
    const dog = drawingById('f/dog')!;
    const a = await renderDrawing(dog, { width: 48, height: 48 });
    const b = await renderDrawing(dog, { width: 48, height: 48 });
    expect(a.width).toBe(48);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
    let opaque = 0;
    let edges = 0;
    for (let i = 3; i < a.data.length; i += 4) {
      if (a.data[i] === 255) opaque++;
      else if (a.data[i]! > 0) edges++;
    }
    expect(opaque).toBeGreaterThan(48 * 48 * 0.25);
    expect(edges).toBeGreaterThan(0);
    // straight alpha: an edge pixel keeps the colour of the dog, not a darkened premultiplied one
    const i = a.data.findIndex((v, k) => k % 4 === 3 && v > 20 && v < 120);
    expect(Math.max(a.data[i - 3]!, a.data[i - 2]!, a.data[i - 1]!)).toBeGreaterThan(120);
  });

  it('colours a silhouette with the fill it is given', async () => {
    const mill = drawingById('g/windmill')!;
    const r = await renderDrawing(mill, { width: 32, height: 32, fill: '#3366cc' });
    const i = r.data.findIndex((v, k) => k % 4 === 3 && v === 255);
    expect([r.data[i - 3], r.data[i - 2], r.data[i - 1]]).toEqual([0x33, 0x66, 0xcc]);
  });

  it('applies a transform: a mirrored drawing is the mirror image', async () => {
    const dog = drawingById('f/dog')!;
    const [x0, y0, x1, y1] = dog.box;
    const cx = (x0 + x1) / 2;
    const plain = await renderDrawing(dog, { width: 32, height: 32 });
    const mirrored = await renderDrawing(dog, {
      width: 32,
      height: 32,
      transform: `translate(${2 * cx} 0) scale(-1 1)`,
    });
    let same = 0;
    for (let y = 0; y < 32; y++)
      for (let x = 0; x < 32; x++)
        if (plain.data[(y * 32 + x) * 4 + 3] === mirrored.data[(y * 32 + 31 - x) * 4 + 3]) same++;
    expect(same / 1024).toBeGreaterThan(0.9);
    expect(y1 - y0).toBeGreaterThan(0);
  });
});
