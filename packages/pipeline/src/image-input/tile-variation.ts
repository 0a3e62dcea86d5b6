import type { RgbaImage } from '../types/index.js';
import { blank } from './picture.js';

/**
 * A variation of a seamless tile (decision 0034): the tile's border band (2 px) stays exactly as it
 * is, so the variation joins itself and the original on every side; inside it, square patches are
 * copied from other places of the tile (toroidally, so they come from the whole texture) until
 * `strength` of the inside is new. Same seed, same variation. Colours are the tile's own.
 */
export function tileVariation(tile: RgbaImage, strength: number, seed: number): RgbaImage {
  const { width: w, height: h } = tile;
  const out: RgbaImage = { width: w, height: h, data: tile.data.slice() };
  const band = Math.min(2, Math.floor(Math.min(w, h) / 4));
  const inner = (w - 2 * band) * (h - 2 * band);
  if (inner <= 0 || strength <= 0) return out;
  let state = (seed ^ 0x9e3779b9) >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x6d2b79f5) >>> 0;
    return state / 4294967296;
  };
  const size = Math.max(2, Math.round(Math.min(w, h) / 5));
  const changed = blank(w, h).data;
  let count = 0;
  const want = Math.min(1, strength) * inner;
  for (let tries = 0; count < want && tries < 4000; tries++) {
    const tx = band + Math.floor(next() * Math.max(1, w - 2 * band - size + 1));
    const ty = band + Math.floor(next() * Math.max(1, h - 2 * band - size + 1));
    const sx = Math.floor(next() * w);
    const sy = Math.floor(next() * h);
    for (let y = 0; y < size; y++) {
      const oy = ty + y;
      if (oy >= h - band) break;
      for (let x = 0; x < size; x++) {
        const ox = tx + x;
        if (ox >= w - band) break;
        const s = (((sy + y) % h) * w + ((sx + x) % w)) * 4;
        const o = (oy * w + ox) * 4;
        out.data.set(tile.data.subarray(s, s + 4), o);
        if (changed[o] === 0) {
          changed[o] = 1;
          count++;
        }
      }
    }
  }
  return out;
}
