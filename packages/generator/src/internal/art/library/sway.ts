/**
 * A plant in the wind ("a tree swaying", "tall grass in the wind", "a palm tree swaying", issue #39):
 * its rows lean with their height, the base still and the crown moving most, as a pixel artist sways
 * foliage — whole art pixels moved sideways row by row (no re-rasterising: every frame is the one
 * picture's own pixels), out and back over the cycle. Before this, "swaying" was listed as not
 * honoured and the tree sat still.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { gridFor } from '@assetloom/pipeline/pixel';

const SWAY_WORDS =
  /^(sway|sways|swaying|swayed|rustle|rustles|rustling|wind|windy|breeze|breezy|gust|gusty)$/;
/** Plants that bend in the wind (a cactus or a mushroom does not). */
const PLANTS =
  /\b(tree|trees|palm|grass|flower|flowers|sunflower|tulip|rose|hibiscus|blossom|bamboo|reed|reeds|bush|shrub|wheat|corn|plant|fern|sapling|willow|birch|oak|maple|pine|fir|conifer|evergreen|seaweed|kelp|herb|vine|cattail|dandelion|daisy|lily|clover|leaf|leaves|sprout|seedling)\b/;

/** The prompt's word that asks a plant to sway, or null (a plant's drawing only). */
export function swayWord(words: readonly string[], drawingWords: string): string | null {
  if (!PLANTS.test(drawingWords)) return null;
  return words.find((w) => SWAY_WORDS.test(w.toLowerCase())) ?? null;
}

/**
 * Each row's frames leaned from its first frame: an art row at height share `t` (0 at the plant's
 * foot, 1 at its top) moves `round(A · t^1.6 · sin(2π f / fpd))` art pixels sideways, A a fifteenth
 * of the plant's height (at least one pixel), so the trunk's foot never moves and the crown swings
 * out one way and back the other.
 */
export function sway(
  frames: readonly RgbaImage[],
  job: { width: number; height: number; gridHint: number; framesPerDirection: number },
): RgbaImage[] {
  const fpd = job.framesPerDirection;
  if (fpd < 2) return [...frames];
  const { gh, factor } = gridFor(job.width, job.height, job.gridHint);
  const oy = Math.floor((job.height - gh * factor) / 2);
  const out: RgbaImage[] = [];
  for (let row = 0; row * fpd < frames.length; row++) {
    const first = frames[row * fpd]!;
    const { width: w, height: h } = first;
    // the plant's top and foot, in output rows
    let top = h;
    let foot = -1;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (first.data[(y * w + x) * 4 + 3]! >= 128) {
          top = Math.min(top, y);
          foot = Math.max(foot, y);
          break;
        }
    const tall = foot - top + 1;
    const amp = Math.max(1, Math.round(tall / factor / 15));
    // room to the sides: the widest reach must stay inside the frame (a margin of one art pixel)
    let left = w;
    let right = -1;
    for (let y = top; y <= foot; y++)
      for (let x = 0; x < w; x++)
        if (first.data[(y * w + x) * 4 + 3]! >= 128) {
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
    const room = Math.floor(Math.min(left, w - 1 - right) / factor) - 1;
    const a = Math.max(0, Math.min(amp, room));
    for (let f = 0; f < fpd; f++) {
      const lean = Math.sin((2 * Math.PI * f) / fpd);
      if (!a || f === 0 || Math.abs(lean) < 1e-9) {
        out.push({ width: w, height: h, data: new Uint8Array(first.data) });
        continue;
      }
      const data = new Uint8Array(first.data.length);
      for (let gy = 0; gy < gh; gy++) {
        const y0 = oy + gy * factor;
        // the share of the plant's height this art row stands at
        const t = tall > 1 ? Math.max(0, Math.min(1, (foot - (y0 + factor - 1)) / (tall - 1))) : 0;
        const shift = Math.round(a * t ** 1.6 * lean) * factor;
        for (let y = y0; y < y0 + factor && y < h; y++) {
          const src = first.data.subarray(y * w * 4, (y + 1) * w * 4);
          if (!shift) data.set(src, y * w * 4);
          else if (shift > 0) data.set(src.subarray(0, (w - shift) * 4), (y * w + shift) * 4);
          else data.set(src.subarray(-shift * 4), y * w * 4);
        }
      }
      out.push({ width: w, height: h, data });
    }
  }
  return out;
}
