import { type Rgb, toHex } from '../palette.js';
import { quantizeAdaptive } from '../pixelize.js';
import type { RgbaImage } from '../types/index.js';
import { resampleArea } from './picture.js';

/**
 * The palette of a picture: at most `maxColors` colours of its opaque pixels (the picture brought
 * to at most 256 px a side by area averaging first, so a photo's noise does not spend the
 * palette), by the adaptive quantizer pixelize uses. Ordered dark to light. Throws when the picture
 * has fewer than 2 opaque colours (a palette of one colour draws nothing).
 */
export function paletteFromPicture(picture: RgbaImage, maxColors: number): Rgb[] {
  const scale = Math.min(1, 256 / Math.max(picture.width, picture.height));
  const small =
    scale < 1
      ? resampleArea(
          picture,
          Math.max(1, Math.round(picture.width * scale)),
          Math.max(1, Math.round(picture.height * scale)),
        )
      : { width: picture.width, height: picture.height, data: picture.data.slice() };
  const colours = quantizeAdaptive(small, maxColors);
  const unique = colours.filter(
    (c, i) => colours.findIndex((o) => o[0] === c[0] && o[1] === c[1] && o[2] === c[2]) === i,
  );
  if (unique.length < 2) {
    throw new RangeError(
      'params.paletteFrom: the picture has fewer than 2 opaque colours to make a palette of',
    );
  }
  const lum = (c: Rgb) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  return unique.sort((a, b) => lum(a) - lum(b));
}

/** The palette as the style's `palette` value (hex colours, comma-separated). */
export function paletteStyleValue(palette: readonly Rgb[]): string {
  return palette.map((c) => toHex(c)).join(',');
}
