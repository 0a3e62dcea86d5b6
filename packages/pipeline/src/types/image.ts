/** Pictures and colours: the plain types every layer shares (no code, no imports). */

/** An 8-bit RGBA raster, row-major, `data.length === width * height * 4`, not premultiplied. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An sRGB colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];
