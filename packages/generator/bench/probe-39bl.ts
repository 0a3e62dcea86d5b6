// Probe for decision 0140 (issue #39, wt39bl): side-row swings and walks of humanoid figures, as piece maps
// and measures. Own wordings only, never the held-out list.
//   tsx bench/probe-39bl.ts [map] [prompt…]
import { drawingSetup } from '../src/drawing-setup.js';
import { characterIdentity } from '../src/index.js';
import { fitOf, posedRaster } from '../src/internal/art/figure/draw.js';
import { type FigureAction, motionPose } from '../src/internal/art/figure/motion.js';
import { attackOf } from '../src/internal/art/figure/pieces-held.js';
import { spriteRequest } from '../test/support.js';

const args = process.argv.slice(2);
const map = args[0] === 'map';
const prompts = (map ? args.slice(1) : args).length
  ? map
    ? args.slice(1)
    : args
  : [
      'a paladin slashing',
      'a guard attacking with an axe',
      'a barbarian chopping',
      'a knight swinging a sword',
    ];

function frames(prompt: string, action: FigureAction, n: number, facing: number) {
  const id = characterIdentity({ prompt, seed: 1, resolution: 64 })!;
  const { style } = drawingSetup(spriteRequest(prompt, { assetType: 'animation', resolution: 64 }));
  const fit = fitOf(id, { width: 64, height: 64, style });
  const attack = attackOf(id.outfit.weapon);
  return Array.from({ length: n }, (_, f) =>
    posedRaster(
      id,
      motionPose(action, f, n, attack, facing),
      facing,
      fit,
      style,
      action === 'attack' ? 'front' : 'rest',
    ),
  );
}

for (const prompt of prompts) {
  const fr = frames(prompt, 'attack', 4, 90);
  const out: string[] = [];
  for (const [f, { raster }] of fr.entries()) {
    const { w, h } = raster;
    const name = (i: number) => (raster.piece[i] ? raster.pieces[raster.piece[i]! - 1]! : '');
    const isW = (i: number) =>
      /^(weapon|blade|axe|hammer|sword)/.test(name(i)) || weaponNames(raster).has(name(i));
    const body = new Set<number>();
    const weapon: number[] = [];
    for (let i = 0; i < w * h; i++) if (name(i) && !isW(i)) body.add(i);
    for (let i = 0; i < w * h; i++) if (name(i) && isW(i)) weapon.push(i);
    // weapon pixels with no body pixel within 1 px: clear of the silhouette
    const clear = weapon.filter((i) => {
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) if (body.has(i + dy * w + dx)) return false;
      return true;
    });
    out.push(`${prompt} f${f}: weapon ${weapon.length} px, clear of body ${clear.length}`);
    if (map) {
      let y0 = h,
        y1 = 0,
        x0 = w,
        x1 = 0;
      for (let i = 0; i < w * h; i++)
        if (name(i)) {
          y0 = Math.min(y0, (i / w) | 0);
          y1 = Math.max(y1, (i / w) | 0);
          x0 = Math.min(x0, i % w);
          x1 = Math.max(x1, i % w);
        }
      for (let y = y0; y <= y1; y++) {
        let s = '';
        for (let x = x0; x <= x1; x++) {
          const n = name(y * w + x);
          s += !n
            ? '.'
            : isW(y * w + x)
              ? 'W'
              : /hand_r|arm_r|fore_r/.test(n)
                ? 'a'
                : /leg|foot|shin/.test(n)
                  ? n.endsWith('_l')
                    ? 'L'
                    : 'R'
                  : /head|helm|hat|face/.test(n)
                    ? 'h'
                    : /shield|kite/.test(n)
                      ? 's'
                      : 'b';
        }
        out.push(s);
      }
    }
  }
  console.log(out.join('\n'));
}
function weaponNames(raster: { pieces: string[] }): Set<string> {
  return new Set(raster.pieces.filter((p) => /weapon|blade|grip|guard|pommel|axe|haft|hammer/.test(p)));
}
