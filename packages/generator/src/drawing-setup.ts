import type { ImageRequest } from '@assetloom/pipeline';
import { type Interpretation, interpret } from '@assetloom/pipeline/interpret';
import {
  mix,
  oklab,
  Painter,
  PaletteMatcher,
  parseHex,
  type ResolvedStyle,
  type Rgb,
  resolveStyle,
} from '@assetloom/pipeline/pixel';

/**
 * The palette with a ramp of `colour` added (deep shadow, shadow, base, light, highlight) when it has
 * no colour of that hue (OKLab hue within 20°, some chroma, lightness within 0.25), as the default
 * palette lacks purple and pink; unchanged otherwise, and for white, grey and black. The added base
 * is the asked colour tempered a little towards grey: CSS "blue" is #0000ff, harsher than any
 * pixel-art palette's blue.
 */
function withColour(palette: readonly Rgb[], colour: Rgb): Rgb[] {
  const [L, A, B] = oklab(colour);
  const chroma = Math.hypot(A, B);
  if (chroma < 0.04) return [...palette];
  const hue = Math.atan2(B, A);
  for (const c of palette) {
    const [l, a, b] = oklab(c);
    const turn = Math.abs(((Math.atan2(b, a) - hue + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
    if (Math.hypot(a, b) >= 0.06 && turn <= Math.PI / 9 && Math.abs(l - L) <= 0.25) return [...palette];
  }
  const base = mix(colour, [128, 128, 128], 0.12);
  const black: Rgb = [12, 8, 20];
  const white: Rgb = [255, 250, 240];
  return [
    ...palette,
    mix(base, black, 0.6),
    mix(base, black, 0.35),
    base,
    mix(base, white, 0.3),
    mix(base, white, 0.55),
  ];
}

/** What every drawing of a request starts from: the prompt read, the style resolved, the painter. */
export function drawingSetup(request: ImageRequest): {
  interpretation: Interpretation;
  style: ResolvedStyle;
  asked: Rgb | null;
  painter: Painter;
} {
  const interpretation = interpret(request);
  const style = resolveStyle(request.style, `${request.userPrompt} ${request.tags.join(' ')}`);
  // With no palette asked for, the working palette can also say the colour the prompt names: the
  // default palette has no purple or pink, and "a purple dragon" must not come out brown.
  const asked = interpretation.colors[0] ? parseHex(interpretation.colors[0].hex) : null;
  const palette = style.paletteEnforced || asked === null ? style.palette : withColour(style.palette, asked);
  const painter = new Painter(palette, new PaletteMatcher(palette), !style.paletteEnforced);
  return { interpretation, style, asked, painter };
}
