// Brief 39br (decision 0146): where gold lands under each fixed palette. For every named palette, a
// gold ramp (the colours a gold thing is drawn in: its highlight, base, shade, deep) and brass and
// bronze are mapped by the look (`paletteColours`), and each mapped colour's OKLab hue, chroma and
// lightness printed; and "a gold ring" / "a king's crown with rubies" drawn under the palette, with the
// share of their coloured pixels in the yellow/orange hue band (OKLab 40°–115°) and in a peach/skin
// band (chroma < 0.1, L > 0.75). tsx bench/gold-39br.ts
import { createMemoryStorage, decodePng, NAMED_PALETTES } from '@assetloom/pipeline';
import { oklab } from '@assetloom/pipeline/pixel';
import { runPipeline } from '../src/index.js';
import { paletteColours } from '../src/internal/look/index.js';

type Rgb = [number, number, number];
const hex = (c: readonly number[]) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const lch = (c: readonly number[]) => {
  const [L, a, b] = oklab(c as Rgb);
  return { L, C: Math.hypot(a, b), h: ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360 };
};
const GOLD: Record<string, Rgb> = {
  'gold hi': [255, 236, 150],
  'gold light': [246, 206, 86],
  gold: [222, 170, 52],
  'gold shade': [176, 120, 36],
  'gold deep': [116, 72, 30],
  brass: [196, 160, 70],
  bronze: [176, 116, 60],
};
for (const [name, palette] of Object.entries(NAMED_PALETTES)) {
  if (name === 'default') continue;
  const look = paletteColours(palette as Rgb[], 1);
  const row = Object.entries(GOLD).map(([k, c]) => {
    const m = look.map(c);
    const { L, C, h } = lch(m);
    return `${k} ${hex(m)} h${h.toFixed(0)} C${C.toFixed(2)} L${L.toFixed(2)}`;
  });
  console.log(`${name}:\n  ${row.join('\n  ')}`);
  for (const prompt of ['a gold ring', "a king's crown with rubies"]) {
    const storage = createMemoryStorage();
    const r = await runPipeline(
      {
        prompt,
        assetType: 'sprite',
        projectStyle: { palette: name },
        params: { resolution: 64, format: 'individual', seed: 1 } as never,
        keyPrefix: 'p/t/',
      },
      { storage },
    );
    if (!r.ok) {
      console.log(`  ${prompt}: ${r.error}`);
      continue;
    }
    const d = decodePng(storage.get(r.assets[0]!.key)!.bytes);
    if (!d.ok) throw new Error(d.error);
    let n = 0;
    let yellow = 0;
    let peach = 0;
    const hist = new Map<string, number>();
    for (let i = 0; i < d.image.data.length; i += 4) {
      if (!d.image.data[i + 3]) continue;
      const c = [...d.image.data.subarray(i, i + 3)];
      const { L, C, h } = lch(c);
      hist.set(hex(c), (hist.get(hex(c)) ?? 0) + 1);
      if (C < 0.05) continue;
      n++;
      if (h >= 40 && h <= 115 && C >= 0.1) yellow++;
      else if (h >= 30 && h <= 90 && L > 0.75) peach++;
    }
    const top = [...hist]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => `${k}×${v}`);
    console.log(
      `  ${prompt}: yellow/orange ${((100 * yellow) / n).toFixed(0)} %, peach ${((100 * peach) / n).toFixed(0)} % of coloured; top ${top.join(' ')}`,
    );
  }
}
