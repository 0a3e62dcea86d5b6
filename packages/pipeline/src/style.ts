import { NAMED_PALETTES, parsePalette, type Rgb } from './palette.js';
import type { StyleMap } from './types/index.js';

/** Project style overridden by task style: same-named task keys win. Non-string values are dropped. */
export function mergeStyles(project: StyleMap | null | undefined, task?: StyleMap | null): StyleMap {
  const out: StyleMap = {};
  for (const source of [project, task]) {
    if (!source || typeof source !== 'object') continue;
    for (const [k, v] of Object.entries(source)) {
      if (typeof v === 'string' && k !== '__proto__') out[k] = v;
    }
  }
  return out;
}

export interface ResolvedStyle {
  palette: Rgb[];
  paletteName: string;
  /** True when the style named a palette: every opaque pixel must then come from it. */
  paletteEnforced: boolean;
  /** Outline thickness in art pixels: 0 none, 1 thin, 2 thick. */
  lineWeight: 0 | 1 | 2;
  /** Unit vector pointing from the scene towards the light, in screen coordinates (y down). */
  light: { x: number; y: number };
  mood: 'day' | 'night' | 'sunset' | 'dramatic' | 'soft' | 'flat';
  /** pixel: coarse pixel grid; smooth: fine grid, softer shading. */
  artStyle: 'pixel' | 'smooth';
  /**
   * Art pixels per side at most (the grid is upscaled with nearest-neighbour to the resolution): 256
   * (a 128 px sprite is drawn at 128 px, with the detail of 128 px), 24 for a retro style that asks
   * for chunky pixels.
   */
  gridHint: number;
  tileable: boolean;
}

const has = (text: string, ...words: string[]) => words.some((w) => text.includes(w));

/** Interprets the style keys the generator honours: palette, lineWeight, lighting, artStyle, tileable. */
export function resolveStyle(style: StyleMap, prompt = ''): ResolvedStyle {
  const lower = (k: string) => (style[k] ?? '').toLowerCase();
  const parsed = parsePalette(style.palette);
  const lw = lower('lineWeight');
  const lwNum = Number.parseFloat(lw);
  const lineWeight: 0 | 1 | 2 = Number.isFinite(lwNum)
    ? lwNum <= 0
      ? 0
      : lwNum < 2
        ? 1
        : 2
    : has(lw, 'none', 'no', '无')
      ? 0
      : has(lw, 'thick', 'bold', 'heavy', '粗')
        ? 2
        : 1;
  const lighting = lower('lighting');
  let lx = -0.6;
  let ly = -0.8;
  if (has(lighting, 'right', '右')) lx = 0.6;
  if (has(lighting, 'left', '左')) lx = -0.6;
  if (has(lighting, 'top', 'above', 'overhead', '顶', '上') && !has(lighting, 'left', 'right', '左', '右'))
    lx = 0;
  if (has(lighting, 'bottom', 'below', '下')) ly = 0.8;
  const n = Math.hypot(lx, ly) || 1;
  const mood: ResolvedStyle['mood'] = has(lighting, 'night', 'moon', 'dark', '夜')
    ? 'night'
    : has(lighting, 'sunset', 'dusk', 'dawn', 'warm', 'golden', '黄昏', '夕')
      ? 'sunset'
      : has(lighting, 'dramatic', 'rim', 'contrast', 'harsh', '戏剧')
        ? 'dramatic'
        : has(lighting, 'soft', 'ambient', 'diffuse', '柔')
          ? 'soft'
          : has(lighting, 'flat', 'none', 'unlit')
            ? 'flat'
            : 'day';
  const art = lower('artStyle');
  const smooth = has(
    art,
    'smooth',
    'hd',
    'vector',
    'flat',
    'cartoon',
    'painterly',
    'hand',
    '手绘',
    '矢量',
    '卡通',
  );
  const retro = has(art, '8-bit', '8bit', 'retro', 'lowres', 'low-res', 'gameboy', 'nes');
  const tileValue = lower('tileable');
  const tileable =
    tileValue === 'true' ||
    tileValue === 'yes' ||
    tileValue === '1' ||
    (tileValue === '' && /\b(tileable|seamless|tiling|repeat(ing)?)\b|无缝|平铺/i.test(prompt));
  return {
    palette: parsed ? parsed.colors : [...NAMED_PALETTES.default!],
    paletteName: parsed ? parsed.name : 'default',
    paletteEnforced: parsed !== null,
    lineWeight,
    light: { x: lx / n, y: ly / n },
    mood,
    artStyle: smooth ? 'smooth' : 'pixel',
    gridHint: retro ? 24 : 256,
    tileable,
  };
}
