import { drawBackground } from '../internal/art/background.js';
import { oklab, Painter } from '../internal/art/canvas.js';
import { drawSpriteFrames } from '../internal/art/sprite.js';
import { drawUi } from '../internal/art/ui.js';
import { Rng } from '../internal/random.js';
import { interpret, subjectText } from '../interpret/index.js';
import { mix, PaletteMatcher, parseHex, type Rgb } from '../palette.js';
import { resolveStyle } from '../style.js';
import { renderTileset } from '../tileset/generate.js';
import { tilesetParams } from '../tileset/params.js';
import type { GeneratedAsset, ImageProvider, ImageRequest } from './types.js';

/**
 * The palette with a ramp of `colour` added (deep shadow, shadow, base, light, highlight) when it has
 * no colour of that hue (OKLab hue within 20°, some chroma, lightness within 0.25), as the default
 * palette lacks purple and pink; unchanged otherwise, and for white, grey and black. The added base
 * is the asked colour tempered a little towards grey: CSS "blue" is #0000ff, harsher than any
 * pixel-art palette's blue.
 */
export function withColour(palette: readonly Rgb[], colour: Rgb): Rgb[] {
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

/** Renders one asset synchronously; deterministic in (seed, request). */
export function renderProcedural(request: ImageRequest): GeneratedAsset {
  const text = subjectText(request);
  const interpretation = interpret(request);
  const style = resolveStyle(request.style, `${request.userPrompt} ${request.tags.join(' ')}`);
  const rng = new Rng(request.seed);
  // With no palette asked for, the working palette can also say the colour the prompt names: the
  // default palette has no purple or pink, and "a purple dragon" must not come out brown.
  const asked = interpretation.colors[0] ? parseHex(interpretation.colors[0].hex) : null;
  const palette = style.paletteEnforced || asked === null ? style.palette : withColour(style.palette, asked);
  const painter = new Painter(palette, new PaletteMatcher(palette));
  switch (request.assetType) {
    case 'background': {
      const out = drawBackground({ rng, style, painter, text, interpretation, size: request.resolution });
      return {
        frames: [out.image],
        animation: 'background',
        subject: out.subject,
        tileable: out.tileable,
        interpretation,
      };
    }
    case 'ui': {
      const color = asked;
      const out = drawUi({
        rng,
        style,
        painter,
        text,
        resolution: request.resolution,
        ...(color ? { color } : {}),
      });
      return {
        frames: out.frames,
        animation: out.kind,
        frameNames: out.frameNames,
        subject: `${out.kind} ui piece`,
        nineSlice: out.nineSlice,
        uiKind: out.kind,
        interpretation,
      };
    }
    case 'tileset': {
      const params = tilesetParams(request.tileset);
      const out = renderTileset({
        ...params,
        userPrompt: request.userPrompt,
        tags: request.tags,
        style: request.style,
        seed: request.seed,
      });
      return {
        frames: out.tiles,
        animation: 'tileset',
        subject: out.interpretation.subject ?? 'tileset',
        interpretation: out.interpretation,
        tileset: { kind: params.kind, terrains: out.terrains.map((t) => t.name), colors: out.colors },
      };
    }
    default: {
      const out = drawSpriteFrames({
        rng,
        style,
        painter,
        interpretation,
        width: request.resolution,
        height: request.resolution,
        directions: request.directions,
        framesPerDirection: request.framesPerDirection,
        animate: request.assetType === 'animation' ? 'motion' : 'idle',
      });
      return { frames: out.frames, animation: out.motion, subject: out.subject, interpretation };
    }
  }
}

/**
 * The built-in provider: procedural, deterministic pixel art (characters, creatures and items;
 * layered landscapes and tileable textures; 9-slice UI pieces; motion cycles). Browser-safe.
 */
export function createProceduralProvider(): ImageProvider {
  return {
    name: 'procedural',
    async generate(request, { signal }) {
      signal?.throwIfAborted();
      return renderProcedural(request);
    },
  };
}
