import type { RgbaImage } from '../types/index.js';

/** Places direction-major frames on a sheet: rows are directions, columns are frames. */
export function composeSheet(frames: readonly RgbaImage[], columns: number, rows: number): RgbaImage {
  const fw = frames[0]!.width;
  const fh = frames[0]!.height;
  const width = fw * columns;
  const height = fh * rows;
  const data = new Uint8Array(width * height * 4);
  frames.forEach((f, i) => {
    const ox = (i % columns) * fw;
    const oy = Math.floor(i / columns) * fh;
    for (let y = 0; y < fh; y++) {
      data.set(f.data.subarray(y * fw * 4, (y + 1) * fw * 4), ((oy + y) * width + ox) * 4);
    }
  });
  return { width, height, data };
}
