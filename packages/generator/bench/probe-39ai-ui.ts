// Renders brief 39ai's own UI probes (never the held-out list) through the pipeline, 64 px, each state
// side by side, scaled 4x: tsx bench/probe-39ai-ui.ts <out dir>. Prints each piece's size, kind,
// symbol/words, contents and notHonoured.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryStorage, decodePng, encodePng, type RgbaImage } from '@assetloom/pipeline';
import { runPipeline } from '../src/index.js';

const out = process.argv[2] ?? '/tmp/39ai-ui';
mkdirSync(out, { recursive: true });
const prompts = (
  process.env.UI ??
  'an exit button with a cross|a back button|a scroll dialog panel|a shop window panel|a close button|a pause button|a parchment quest log|a quest log panel with a checklist|an X button|a red close button|a cancel button'
)
  .split('|')
  .filter(Boolean);
const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
for (const prompt of prompts) {
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt,
      assetType: 'ui',
      projectStyle: {},
      params: { resolution: 64, format: 'individual' },
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!r.ok) {
    console.log(`${prompt}: refused: ${r.error}`);
    continue;
  }
  const imgs: RgbaImage[] = r.assets.map((a) => {
    const d = decodePng(storage.get(a.key)!.bytes);
    if (!d.ok) throw new Error(d.error);
    return d.image;
  });
  const s = 4;
  const fw = imgs[0]!.width;
  const fh = imgs[0]!.height;
  const w = (fw + 2) * imgs.length * s;
  const h = fh * s;
  const data = new Uint8Array(w * h * 4);
  imgs.forEach((img, k) => {
    for (let y = 0; y < h; y++)
      for (let x = 0; x < fw * s; x++) {
        const i = (Math.floor(y / s) * fw + Math.floor(x / s)) * 4;
        data.set(img.data.subarray(i, i + 4), (y * w + k * (fw + 2) * s + x) * 4);
      }
  });
  writeFileSync(join(out, `${slug(prompt)}.png`), encodePng(data, w, h));
  const m = r.assets[0]!.metadata;
  console.log(
    `${prompt}: ${m.uiKind} ${fw}x${fh}, text ${JSON.stringify(m.interpretation?.text)}, notHonoured ${JSON.stringify(m.notHonoured ?? [])}, contents ${JSON.stringify((m as { uiContents?: unknown }).uiContents)}`,
  );
}
