import { drawBackground } from '../internal/art/background.js';
import { Painter } from '../internal/art/canvas.js';
import { drawSpriteFrames } from '../internal/art/sprite.js';
import { drawUi } from '../internal/art/ui.js';
import { Rng } from '../internal/random.js';
import { interpret, subjectText } from '../interpret/index.js';
import { PaletteMatcher, parseHex } from '../palette.js';
import { resolveStyle } from '../style.js';
import { renderTileset } from '../tileset/generate.js';
import { tilesetParams } from '../tileset/params.js';
import type { GeneratedAsset, ImageProvider, ImageRequest } from './types.js';

/** Renders one asset synchronously; deterministic in (seed, request). */
export function renderProcedural(request: ImageRequest): GeneratedAsset {
  const text = subjectText(request);
  const interpretation = interpret(request);
  const style = resolveStyle(request.style, `${request.userPrompt} ${request.tags.join(' ')}`);
  const rng = new Rng(request.seed);
  const painter = new Painter(style.palette, new PaletteMatcher(style.palette));
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
      const color = interpretation.colors[0] ? parseHex(interpretation.colors[0].hex) : null;
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
