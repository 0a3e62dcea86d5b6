// Props at their size (issue #39, decision 0121): a chest's lid per frame (its pixels above the box
// that are neither gold nor outline, the picture's top, the pieces), and which drawing a race car and
// an old chair are, with what was left unsaid. Own prompts, never the held-out list.
//
//   cd packages/generator && npx tsx bench/probe-39au.ts
import { oklab } from '@assetloom/pipeline/pixel';
import { renderProcedural } from '../src/index.js';
import { opaqueBox, opaqueGroups, spriteRequest } from '../test/support.js';

for (const [prompt, resolution] of [
  ['a treasure chest opening', 64],
  ['a chest opening', 32],
] as const) {
  const got = await renderProcedural(
    spriteRequest(prompt, { assetType: 'animation', resolution, framesPerDirection: 4 }),
  );
  const fs = got.frames;
  const b = opaqueBox(fs[0]!);
  const boxFrom = b.y0 + Math.ceil((b.y1 - b.y0 + 1) * 0.45);
  const lid = (f: (typeof fs)[number]) => {
    let n = 0;
    for (let y = 0; y < boxFrom; y++)
      for (let x = 0; x < f.width; x++) {
        const i = (y * f.width + x) * 4;
        if (!f.data[i + 3]) continue;
        const [l, a, bb] = oklab([f.data[i]!, f.data[i + 1]!, f.data[i + 2]!]);
        if (l > 0.3 && !(Math.atan2(bb, a) > 1.19 && Math.hypot(a, bb) > 0.07)) n++;
      }
    return n;
  };
  console.log(
    `${prompt} ${resolution} px ${got.interpretation?.drawing?.id}: lid px ${fs.map(lid).join('/')}, tops ${fs
      .map((f) => opaqueBox(f).y0)
      .join('/')}, pieces ${fs.map((f) => opaqueGroups(f).length).join('/')}`,
  );
}
for (const prompt of ['a race car', 'an old wooden chair', 'a rickety chair', 'a wooden chair']) {
  const got = await renderProcedural(spriteRequest(prompt, { resolution: 128 }));
  const f = got.frames[0]!;
  const colours = new Set<number>();
  for (let i = 0; i < f.data.length; i += 4)
    if (f.data[i + 3]) colours.add((f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!);
  console.log(
    `${prompt} 128 px: ${got.interpretation?.drawing?.id}, unsaid ${JSON.stringify(got.interpretation?.ignored ?? [])}, ${colours.size} colours`,
  );
}
