// Figures in motion measured frame by frame (issue #39, decision 0097): for each prompt and action,
// per direction row (down, left, right, up) and frame, the body's height (weapon and shield left
// out), the pelvis's height over the feet, the legs' pixels changed since the row's first frame,
// the pixels where the left and the right leg touch, and the held weapon's pixels (0: lost).
//
//   tsx bench/motion-39aa.ts [walk|run|idle|attack|jump] "prompt" ["prompt" …]
//   (FRAMES=n frames per row, RES=64 the size, SEED=1)

import { drawingSetup } from '../src/drawing-setup.js';
import { characterIdentity } from '../src/index.js';
import { fitOf, posedRaster } from '../src/internal/art/figure/draw.js';
import { type FigureAction, motionPose } from '../src/internal/art/figure/motion.js';
import { attackOf } from '../src/internal/art/figure/pieces-held.js';
import { projector } from '../src/internal/art/rig.js';
import { spriteRequest } from '../test/support.js';

const [action, ...prompts] = process.argv.slice(2) as [FigureAction, ...string[]];
const frames = Number(process.env.FRAMES ?? 4);
const res = Number(process.env.RES ?? 64);
const seed = Number(process.env.SEED ?? 1);
const HELD = new Set(['weapon', 'shield', 'bow', 'bowstring', 'lantern', 'spell']);

for (const prompt of prompts) {
  const id = characterIdentity({ prompt, seed, resolution: res });
  if (!id) {
    console.log(`${prompt}: no figure`);
    continue;
  }
  const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: res }));
  const fit = fitOf(id, { width: res, height: res, style });
  const attack = attackOf(id.outfit.weapon);
  const held =
    action === 'attack'
      ? attack === 'swing' || attack === 'thrust'
        ? 'front'
        : 'posed'
      : action === 'idle' || action === 'walk' || action === 'run'
        ? 'rest'
        : 'posed';
  console.log(`${prompt} (${id.body}, ${id.outfit.weapon ?? 'no weapon'}, unit ${fit.unit.toFixed(2)})`);
  for (const [name, facing] of [
    ['down', 0],
    ['left', 270],
    ['right', 90],
    ['up', 180],
  ] as const) {
    const cells: string[] = [];
    let first: Set<number> | null = null;
    for (let f = 0; f < frames; f++) {
      const pose = motionPose(action, f, frames, attack);
      const { raster, cam, fig } = posedRaster(id, pose, facing, fit, style, held as never);
      const pieceOf = (i: number) => raster.pieces[raster.piece[i]! - 1] ?? '';
      let top = Infinity;
      let bottom = -Infinity;
      let weapon = 0;
      let edge = 0;
      const legs = new Set<number>();
      const L = new Set<number>();
      const R = new Set<number>();
      for (let i = 0; i < raster.piece.length; i++) {
        if (!raster.piece[i]) continue;
        const p = pieceOf(i);
        const x = i % raster.w;
        const y = Math.floor(i / raster.w);
        if (HELD.has(p) || fig.parts.some((q) => q.piece === p && q.bone === 'weapon')) {
          if (p === 'weapon') weapon++;
          if (x === 0 || y === 0 || x === raster.w - 1) edge++;
          continue;
        }
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        if (/^(leg|foot)_[lr]/.test(p)) legs.add(i);
        if (/^(leg|foot)_l/.test(p)) L.add(i);
        if (/^(leg|foot)_r/.test(p)) R.add(i);
      }
      let touch = 0;
      for (const i of L)
        if (R.has(i + 1) || R.has(i - 1) || R.has(i + raster.w) || R.has(i - raster.w)) touch++;
      const P = projector(cam);
      const u = fit.unit;
      const pelvisY = P([fig.j.pelvis[0] * u, fig.j.pelvis[1] * u, fig.j.pelvis[2] * u])[1];
      let changed = 0;
      if (!first) first = legs;
      else {
        for (const i of legs) if (!first.has(i)) changed++;
        for (const i of first) if (!legs.has(i)) changed++;
      }
      cells.push(
        `h${bottom - top + 1} hip${(fit.oy - pelvisY).toFixed(1)} d${changed} t${touch} w${weapon}${edge ? ` E${edge}` : ''}`,
      );
    }
    console.log(`  ${name.padEnd(5)} ${cells.join(' | ')}`);
  }
}

// OUT=dir: the drawn frames of each prompt (the generator's own animation, 4 rows), ×SCALE (6)
if (process.env.OUT) {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { encodePng } = await import('@assetloom/pipeline');
  const { renderProcedural } = await import('../src/index.js');
  const k = Number(process.env.SCALE ?? 6);
  mkdirSync(process.env.OUT, { recursive: true });
  const VERB: Record<string, string> = {
    walk: 'walking',
    run: 'running',
    jump: 'jumping',
    attack: 'attacking',
    idle: 'idle',
  };
  for (const prompt of prompts) {
    const text = `${prompt} ${VERB[action] ?? action}`;
    const got = await renderProcedural({
      ...spriteRequest(text, { assetType: 'animation', resolution: res, seed }),
      directions: 4,
      framesPerDirection: frames,
    } as never);
    const W = frames * (res * k + 4) + 4;
    const H = 4 * (res * k + 4) + 4;
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const bg = ((x >> 4) + (y >> 4)) % 2 ? 200 : 222;
        data.set([bg, bg, bg, 255], (y * W + x) * 4);
      }
    got.frames.forEach((im, n) => {
      const ox = 4 + (n % frames) * (res * k + 4);
      const oy = 4 + Math.floor(n / frames) * (res * k + 4);
      for (let y = 0; y < res * k; y++)
        for (let x = 0; x < res * k; x++) {
          const s = (Math.floor(y / k) * im.width + Math.floor(x / k)) * 4;
          if (im.data[s + 3])
            data.set([im.data[s]!, im.data[s + 1]!, im.data[s + 2]!, 255], ((oy + y) * W + ox + x) * 4);
        }
    });
    const file = `${process.env.OUT}/${text.replace(/[^a-z0-9]+/gi, '-')}.png`;
    writeFileSync(file, encodePng(data, W, H));
    console.log(file);
  }
}
