import { DIRECTION_NAMES } from '../directions.js';
import { anchorIn } from '../formats/anchor.js';
import { resolvePlayback } from '../formats/playback.js';
import { DEFAULT_FRAMES } from './layout.js';
import { pixelizeModelFrames } from './model.js';
import { frameFiles } from './output.js';
import type { AssetTypeModule } from './types.js';

/**
 * Sprites and animations: a subject on transparency, directions × frames, a sheet or one file per
 * frame with every engine's atlas and the request's playback.
 */
function framedModule<T extends 'sprite' | 'animation'>(type: T): AssetTypeModule<T> {
  return {
    type,
    canvas: false,
    framed: true,
    pixels: (params) =>
      params.resolution ** 2 *
      (params.frames ? params.frames.directions * params.frames.framesPerDirection : 1),
    problems: (params) => {
      const c = params.character;
      if (c === undefined || c === null) return [];
      return typeof c === 'object' &&
        typeof c.characterId === 'string' &&
        typeof c.action === 'string' &&
        c.identity !== null &&
        typeof c.identity === 'object'
        ? []
        : ['params.character must name the characterId, the action and the rig identity'];
    },
    // a kept character: the action drawn from its identity, and its rig beside the sheet of an
    // animation or a turn (4 or 8 directions); a base view (one picture to show) has none
    providerRequest(params) {
      const c = params.character;
      if (!c) return {};
      const fps = resolvePlayback(params.animation, params.frames?.framesPerDirection ?? 1).fps;
      const rig = type === 'animation' || (params.frames?.directions ?? 1) > 1;
      return { character: { identity: c.identity, action: c.action, rig, stem: type, fps } };
    },
    layout(params) {
      const frames = params.frames ?? DEFAULT_FRAMES;
      const directions = frames.directions;
      return {
        frameWidth: params.resolution,
        frameHeight: params.resolution,
        directions,
        framesPerDirection: frames.framesPerDirection,
        frameCount: directions * frames.framesPerDirection,
        directionNames: [...DIRECTION_NAMES[directions]],
        opaque: false,
      };
    },
    promptParts(p, language) {
      const f = p.frames;
      if (language === 'en') {
        const parts = ['transparent background', 'subject centred', 'clean outline', 'one light source'];
        if (f) parts.push(`${f.directions} directions × ${f.framesPerDirection} frames each`);
        if (type === 'animation')
          parts.push('a smooth looping motion', 'the same proportions in every frame');
        parts.push(
          p.format === 'individual'
            ? 'each frame exported alone'
            : 'sprite sheet (rows = directions, columns = frames)',
        );
        return parts;
      }
      const parts = ['透明背景', '主体居中', '清晰轮廓', '统一光源'];
      if (f) parts.push(`${f.directions} 个方向 × 每方向 ${f.framesPerDirection} 帧`);
      if (type === 'animation') parts.push('动作循环连贯', '帧间角色比例一致');
      parts.push(p.format === 'individual' ? '逐帧单独导出' : '精灵表排布 (行=方向, 列=帧)');
      return parts;
    },
    modelPrompt({ layout, columns: cols, rows, total, directionWords }) {
      const parts = ['Plain flat white background.'];
      if (total > 1) {
        const dirs = layout.directionNames.map(directionWords);
        parts.push(
          `A sprite sheet of the SAME character, same size and proportions in every cell: a grid of ${cols} columns × ${rows} rows of equal cells, one pose per cell, nothing crossing cell borders.`,
          rows > 1 ? `Row by row: ${dirs.join('; ')}.` : `${dirs[0] ?? ''}.`,
          cols > 1 ? `Left to right: ${cols} consecutive frames of a looping motion.` : '',
        );
      } else {
        parts.push(`A single character, centred, ${directionWords(layout.directionNames[0] ?? 'down')}.`);
      }
      return parts;
    },
    fromModel: pixelizeModelFrames,
    modelChecks: { tileable: 'xy' },
    files(ctx) {
      const out = frameFiles(ctx, type, resolvePlayback(ctx.animation, ctx.layout.framesPerDirection));
      return keptCharacterFiles(ctx.generated, ctx.keyPrefix, ctx.layout, out);
    },
  };
}

/**
 * A kept character's frames (issue #40): the anchor at its feet in every engine file and in each
 * asset's metadata, and its rig's files (Spine, DragonBones) beside the sheet, named in `atlas`.
 */
function keptCharacterFiles(
  generated: Parameters<AssetTypeModule['files']>[0]['generated'],
  keyPrefix: string,
  layout: { frameWidth: number; frameHeight: number },
  out: ReturnType<AssetTypeModule['files']>,
): ReturnType<AssetTypeModule['files']> {
  const anchor = generated.anchor;
  if (anchor === undefined && generated.rig === undefined) return out;
  const writes = anchor ? anchorIn(out.writes, anchor, layout.frameWidth, layout.frameHeight) : out.writes;
  const atlas: Record<string, string> = {};
  for (const file of generated.rig ?? []) {
    const key = `${keyPrefix}${file.name}`;
    atlas[file.role] = key;
    writes.push([key, file.bytes, file.contentType]);
  }
  const assets = out.assets.map((a) => ({
    ...a,
    metadata: {
      ...a.metadata,
      ...(anchor ? { anchor: { ...anchor } } : {}),
      ...(generated.rig ? { atlas: { ...a.metadata.atlas, ...atlas } } : {}),
    },
  }));
  return { writes, assets };
}

export const sprite = framedModule('sprite');
export const animation = framedModule('animation');
