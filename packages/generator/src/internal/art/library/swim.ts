/**
 * A fish swimming ("a fish swimming", "a shark swimming", issue #39): a wave runs down its body from
 * the head to the tail, whole art columns moved up and down more the nearer the tail they are, so the
 * head holds its line and the tail fin beats — as a pixel artist animates a swimmer in profile. Every
 * frame is the one picture's own pixels (no re-rasterising). Before this, "swimming" was listed as not
 * honoured and the fish wobbled as a whole.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { gridFor } from '@assetloom/pipeline/pixel';

const SWIM_WORDS = /^(swim|swims|swimming|swam|swimmer)$/;
/** Swimmers whose body drives them (a turtle paddles, a duck floats: no body wave). */
const SWIMMERS =
  /\b(fish|fishes|shark|whale|dolphin|eel|tuna|salmon|trout|carp|koi|goldfish|piranha|swordfish|marlin|blowfish|pufferfish|angelfish|clownfish|orca|porpoise|minnow|cod|pike|barracuda|manta|ray|stingray|seahorse|tadpole|mermaid|merman|merperson|merpeople)\b/;

/** The prompt's word that asks a swimmer to swim, or null (a swimmer's drawing only). */
export function swimWord(words: readonly string[], drawingWords: string): string | null {
  if (!SWIMMERS.test(drawingWords)) return null;
  return words.find((w) => SWIM_WORDS.test(w.toLowerCase())) ?? null;
}

/** Which side each row's head is on: a side row's own, a repeated row's that of the drawn side view. */
export function headSides(
  views: ReadonlyArray<{ direction: string; view: string }>,
  facing?: string,
): Array<'left' | 'right' | null> {
  const source = views.find((v) => v.view === 'source' && /left|right/.test(v.direction));
  // (a sheet with no side row: the way the drawing faces, as the catalog has it)
  const hint = facing === 'left' || facing === 'right' ? facing : null;
  const drawn: 'left' | 'right' | null = source
    ? source.direction.includes('left')
      ? 'left'
      : 'right'
    : hint;
  return views.map(({ direction, view }) => {
    if (view === 'source' || view === 'mirror') {
      if (direction.includes('left')) return 'left';
      if (direction.includes('right')) return 'right';
    }
    return view === 'repeat' ? drawn : null;
  });
}

/**
 * Each row's frames waved from its first frame: an art column at body share `u` (0 at the head's
 * end, 1 at the tail's) moves `round(A · u² · sin(2π f / fpd − 1.6 u))` art pixels up or down, A a
 * seventh of the body's height (at least one pixel, never past the frame's one-pixel margin). A row
 * whose head side is unknown keeps its still frames.
 */
export function swim(
  frames: readonly RgbaImage[],
  sides: ReadonlyArray<'left' | 'right' | null>,
  job: { width: number; height: number; gridHint: number; framesPerDirection: number },
): RgbaImage[] {
  const fpd = job.framesPerDirection;
  if (fpd < 2) return [...frames];
  const { gw, factor } = gridFor(job.width, job.height, job.gridHint);
  const ox = Math.floor((job.width - gw * factor) / 2);
  const out: RgbaImage[] = [];
  for (let row = 0; row * fpd < frames.length; row++) {
    const first = frames[row * fpd]!;
    const { width: w, height: h } = first;
    const side = sides[row] ?? null;
    let left = w;
    let right = -1;
    let top = h;
    let bottom = -1;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (first.data[(y * w + x) * 4 + 3]! >= 128) {
          left = Math.min(left, x);
          right = Math.max(right, x);
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
        }
    const long = right - left + 1;
    const tall = bottom - top + 1;
    // a swimmer is in the water, not on the ground: centred in the frame's height (whole art pixels)
    const centre = Math.trunc((h - 1 - bottom - top) / 2 / factor) * factor;
    const room = Math.floor(Math.min(top + centre, h - 1 - bottom - centre) / factor) - 1;
    const a = side && long > 0 ? Math.max(0, Math.min(Math.max(1, Math.round(tall / factor / 7)), room)) : 0;
    for (let f = 0; f < fpd; f++) {
      if (!side) {
        out.push({ width: w, height: h, data: new Uint8Array(first.data) });
        continue;
      }
      const data = new Uint8Array(first.data.length);
      for (let gx = 0; gx * factor + ox < w; gx++) {
        const x0 = ox + gx * factor;
        const mid = x0 + (factor - 1) / 2;
        const fromHead = side === 'left' ? mid - left : right - mid;
        const u = Math.max(0, Math.min(1, fromHead / Math.max(1, long - 1)));
        const shift = centre + Math.round(a * u * u * Math.sin((2 * Math.PI * f) / fpd - 1.6 * u)) * factor;
        for (let x = x0; x < x0 + factor && x < w; x++)
          for (let y = 0; y < h; y++) {
            const sy = y - shift;
            if (sy < 0 || sy >= h) continue;
            const s = (sy * w + x) * 4;
            const d = (y * w + x) * 4;
            data[d] = first.data[s]!;
            data[d + 1] = first.data[s + 1]!;
            data[d + 2] = first.data[s + 2]!;
            data[d + 3] = first.data[s + 3]!;
          }
      }
      out.push({ width: w, height: h, data });
    }
  }
  return out;
}
