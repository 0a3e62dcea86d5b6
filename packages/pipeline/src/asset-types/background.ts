import { canvasOf } from './layout.js';
import { pixelizeModelFrames } from './model.js';
import { backgroundFiles } from './output.js';
import type { AssetTypeModule } from './types.js';

/** Backgrounds: one opaque picture on the canvas asked for, with its depth layers when it has them. */
export const background: AssetTypeModule<'background'> = {
  type: 'background',
  canvas: true,
  framed: false,
  pixels: (params) => (params.width ?? params.resolution) * (params.height ?? params.resolution),
  problems: () => [],
  layout(params) {
    const canvas = canvasOf(params);
    return {
      frameWidth: canvas?.width ?? params.resolution,
      frameHeight: canvas?.height ?? params.resolution,
      directions: 1,
      framesPerDirection: 1,
      frameCount: 1,
      directionNames: ['down'],
      opaque: true,
    };
  },
  promptParts: (_p, language) =>
    language === 'en'
      ? ['opaque', 'layered depth', 'wraps side to side where needed']
      : ['不透明', '分层景深', '可横向平铺视需求'],
  modelPrompt: () => ['A full scene filling the whole picture, no border.'],
  fromModel: pixelizeModelFrames,
  // a landscape wraps side to side (a texture the generator marks tileable wraps both ways there)
  modelChecks: { tileable: 'x' },
  files: (ctx) => backgroundFiles(ctx, 'background'),
};
