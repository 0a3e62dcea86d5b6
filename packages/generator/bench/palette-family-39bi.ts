// Named materials under the built-in palettes (decision 0136): the palette colour a material's main
// tone and its lit tone become, and how far their hue turns from the material's own.
//   tsx bench/palette-family-39bi.ts
import { NAMED_PALETTES } from '@assetloom/pipeline';
import { fromOklab as fromLab, oklab, type Rgb } from '@assetloom/pipeline/pixel';
import { paletteColours } from '../src/internal/look/index.js';

const MATERIALS: Array<[string, Rgb]> = [
  ['gold', [222, 170, 52]],
  ['silver', [192, 196, 204]],
  ['red', [200, 36, 44]],
  ['crimson', [170, 20, 50]],
  ['blue', [50, 90, 200]],
  ['green', [60, 150, 60]],
  ['purple', [120, 60, 170]],
  ['brown', [130, 84, 46]],
];
const hex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const hue = (c: Rgb) => {
  const [, a, b] = oklab(c);
  return Math.atan2(b, a);
};
const chroma = (c: Rgb) => Math.hypot(oklab(c)[1], oklab(c)[2]);
const turn = (x: Rgb, y: Rgb) =>
  chroma(x) < 0.04
    ? 0
    : (Math.abs(((hue(y) - hue(x) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI) * 180) / Math.PI;
const lit = (c: Rgb): Rgb => {
  const [L, a, b] = oklab(c);
  return fromLab(Math.min(0.97, L + 0.12), a * 0.9, b + 0.01);
};
let worst = 0;
for (const name of ['pico8', 'sweetie16', 'endesga32', 'nes']) {
  const look = paletteColours(NAMED_PALETTES[name]!, 1);
  for (const [m, c] of MATERIALS) {
    const main = look.map(c);
    const litMapped = look.map(lit(c));
    const step = look.step(main, 1);
    const t = [turn(c, main), turn(c, litMapped), turn(c, step)];
    const gray = chroma(c) < 0.04;
    const lose = gray ? 0 : Math.min(chroma(main), chroma(litMapped), chroma(step)) / chroma(c);
    worst = Math.max(worst, ...t);
    console.log(
      `${name.padEnd(10)} ${m.padEnd(8)} main ${hex(main)} ${t[0]!.toFixed(0).padStart(3)}°  lit ${hex(litMapped)} ${t[1]!.toFixed(0).padStart(3)}°  step ${hex(step)} ${t[2]!.toFixed(0).padStart(3)}°  chroma kept ${gray ? '-' : lose.toFixed(2)}`,
    );
  }
}
console.log(`worst hue turn ${worst.toFixed(0)}°`);
