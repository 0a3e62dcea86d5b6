// Issue #39, decision 0122: how far a gear's and a heart's silhouettes are from their symmetry, through
// the whole pipeline (UI icons, sprites, a heart's beat): for each frame its drawn box, the opaque
// pixels unlike their mirror image about the box's middle column (`mir`) and unlike their quarter turn
// about its middle (`rot`, meaningful for a square box: the gear). Own prompts, never a held-out list.
//
//   tsx bench/probe-39av.ts
import { createMemoryStorage, decodePng } from '@assetloom/pipeline';
import { runPipeline } from '../src/index.js';

const cases: Array<[string, string, number]> = [
  ['a cog icon', 'ui', 32],
  ['a cog icon', 'ui', 24],
  ['a cog icon', 'ui', 16],
  ['a settings gear', 'sprite', 32],
  ['a heart icon', 'ui', 32],
  ['a heart icon', 'ui', 24],
  ['a heart icon', 'ui', 16],
  ['a life heart', 'sprite', 32],
  ['a heart beating', 'animation', 64],
];
for (const [prompt, assetType, resolution] of cases) {
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt,
      assetType: assetType as never,
      projectStyle: {},
      params: { resolution, format: 'individual', seed: 1 } as never,
      keyPrefix: 'p/',
    },
    { storage },
  );
  if (!r.ok) {
    console.log(prompt, r.error);
    continue;
  }
  const out: string[] = [];
  for (const a of r.assets.slice(0, 8)) {
    const d = decodePng(storage.get(a.key)!.bytes);
    if (!d.ok) continue;
    const f = d.image;
    const s = (x: number, y: number) =>
      x >= 0 && y >= 0 && x < f.width && y < f.height && f.data[(y * f.width + x) * 4 + 3]! > 0;
    let x0 = 1e9,
      x1 = -1,
      y0 = 1e9,
      y1 = -1;
    for (let y = 0; y < f.height; y++)
      for (let x = 0; x < f.width; x++)
        if (s(x, y)) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
    let mir = 0,
      rot = 0;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        if (s(x, y) !== s(x0 + x1 - x, y)) mir++;
        const dx = x - x0,
          dy = y - y0;
        if (s(x, y) !== s(x0 + (y1 - y0) - dy, y0 + dx)) rot++;
      }
    out.push(`${x1 - x0 + 1}x${y1 - y0 + 1} mir=${mir} rot=${rot}`);
  }
  console.log(
    prompt,
    assetType,
    resolution,
    (r.assets[0]!.metadata.provenance as { drawing?: { drawing?: string } })?.drawing?.drawing ?? '',
    out.join(' | '),
  );
}
