import { resolvePlayback } from '../formats/playback.js';
import { UI_STATES, uiFrameSize, uiKindOf, uiSymbolOf, uiTextOf } from '../ui-spec.js';
import { canvasOf } from './layout.js';
import { pixelizeModelFrames } from './model.js';
import { frameFiles } from './output.js';
import type { AssetTypeModule } from './types.js';

/** UI pieces: an icon, a button in its states, a bar, a panel or a label, each state a frame. */
export const ui: AssetTypeModule<'ui'> = {
  type: 'ui',
  canvas: true,
  framed: false,
  pixels: (params) => (params.width ?? params.resolution) * (params.height ?? params.resolution),
  problems: () => [],
  layout(params, text) {
    const kind = uiKindOf(text.toLowerCase());
    // a canvas asked for is every state's size; else the kind's shape at the resolution, widened
    // for the words it carries
    const { width, height } =
      canvasOf(params) ??
      uiFrameSize(
        kind,
        params.resolution,
        uiTextOf(text, kind)?.text,
        kind === 'button' ? uiSymbolOf(text.toLowerCase()) : null,
      );
    const count = UI_STATES[kind].length;
    return {
      frameWidth: width,
      frameHeight: height,
      directions: 1,
      framesPerDirection: count,
      frameCount: count,
      directionNames: ['down'],
      uiKind: kind,
      opaque: false,
    };
  },
  promptParts: (_p, language) =>
    language === 'en'
      ? ['transparent background', 'nine-slice stretchable', 'crisp corners and borders']
      : ['透明背景', '九宫格可拉伸', '边角与边框清晰'],
  modelPrompt: ({ layout, columns }) => [
    `A row of ${columns} ${layout.uiKind ?? 'panel'} UI elements of equal size in equal cells on a plain flat white background (states left to right).`,
  ],
  fromModel: pixelizeModelFrames,
  modelChecks: { tileable: 'xy' },
  files: (ctx) =>
    frameFiles(
      ctx,
      `ui-${ctx.generated.uiKind ?? 'piece'}`,
      resolvePlayback(undefined, ctx.layout.framesPerDirection),
    ),
};
