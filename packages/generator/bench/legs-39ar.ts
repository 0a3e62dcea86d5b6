// Side-view legs passing (issue #39, decision 0118): for each prompt's walk (4, 6 and 8 frames) and
// run (6 frames), facing left (270) and right (90), each frame: `X` where the left and right shins'
// centre lines cross (the left one's lead over the right one, in px forward, flips sign by > 1 px),
// then where the far shin's visible pixels lie against the near one's below the knees (front, back,
// X for both, `.` hidden), then the left shin's lead at the top, middle and bottom of the shared rows.
// Own prompts only (never the held-out lists).
//
//   tsx bench/legs-39ar.ts "prompt" ["prompt" …]
import { drawingSetup } from '../src/drawing-setup.js';
import { characterIdentity } from '../src/index.js';
import { fitOf, posedRaster } from '../src/internal/art/figure/draw.js';
import { type FigureAction, motionPose } from '../src/internal/art/figure/motion.js';
import { attackOf } from '../src/internal/art/figure/pieces-held.js';
import { projector, type V3 } from '../src/internal/art/rig.js';
import { spriteRequest } from '../test/support.js';

export function shinsCross(prompt: string, action: FigureAction, frames: number) {
  const id = characterIdentity({ prompt, seed: 1, resolution: 64 })!;
  const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: 64 }));
  const fit = fitOf(id, { width: 64, height: 64, style });
  const out: string[] = [];
  for (const facing of [270, 90])
    for (let f = 0; f < frames; f++) {
      const { raster, cam, fig } = posedRaster(
        id,
        motionPose(action, f, frames, attackOf(id.outfit.weapon)),
        facing,
        fit,
        style,
        'rest' as never,
      );
      const P = projector(cam);
      const u = fit.unit;
      const at = (p: V3) => P([p[0] * u, p[1] * u, p[2] * u]);
      // the shins as screen segments (knee → ankle), x flipped so forward is +x
      const dir = facing === 270 ? -1 : 1;
      const seg = (k: V3, a: V3) => [at(k), at(a)].map(([x, y]) => [x * dir, y] as [number, number]);
      const [nk, na] = seg(fig.j.kneeL, fig.j.ankleL);
      const [rk, ra] = seg(fig.j.kneeR, fig.j.ankleR);
      // the left shin's forward lead over the right one at the top, middle and bottom (px)
      const xAt = (a: [number, number], b: [number, number], y: number) =>
        Math.abs(b[1] - a[1]) < 1e-6
          ? (a[0] + b[0]) / 2
          : a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]);
      const y0 = Math.max(nk![1], rk![1]);
      const y1 = Math.min(na![1], ra![1]);
      const leads = [y0, (y0 + y1) / 2, y1].map((y) => xAt(nk!, na!, y) - xAt(rk!, ra!, y));
      const crossed = Math.min(...leads) < -1 && Math.max(...leads) > 1;
      // the pixels: every row below both knees where both shins show, the far shin's visible pixels
      // forward of the near one's, behind it, or on both sides; an X has both kinds of row
      const near = facing === 270 ? 'l' : 'r';
      const far = near === 'l' ? 'r' : 'l';
      const ky = Math.max(at(fig.j.kneeL)[1], at(fig.j.kneeR)[1]);
      const rowsOf = (leg: string) => {
        const m = new Map<number, number[]>();
        raster.piece.forEach((k, i) => {
          if (!k || raster.pieces[k - 1] !== `leg_${leg}`) return;
          const y = Math.floor(i / raster.w);
          if (y > ky + 1) m.set(y, [...(m.get(y) ?? []), (i % raster.w) * dir]);
        });
        return m;
      };
      const N = rowsOf(near);
      const F = rowsOf(far);
      const sides = new Set<string>();
      for (const [y, xs] of N) {
        const fx = F.get(y);
        if (!fx) continue;
        const lo = Math.min(...xs);
        const hi = Math.max(...xs);
        if (fx.some((x) => x > hi)) sides.add('front');
        if (fx.some((x) => x < lo)) sides.add('back');
      }
      const px = sides.size > 1 ? 'X' : [...sides].join('') || '.';
      out.push(`${facing} f${f}: ${crossed ? 'X' : '-'}${px} ${leads.map((v) => v.toFixed(1)).join(',')}`);
    }
  return out;
}

if (process.argv[1]?.endsWith('legs-39ar.ts'))
  for (const prompt of process.argv.slice(2))
    for (const [action, n] of [
      ['walk', 4],
      ['walk', 6],
      ['walk', 8],
      ['run', 6],
    ] as const)
      console.log(`${prompt} ${action}×${n}: ${shinsCross(prompt, action, n).join(' | ')}`);
