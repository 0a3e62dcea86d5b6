/**
 * The three sections of an optimised prompt and the asset-type leads of the template's first one,
 * and how the subject is read back out of such a prompt. Below the interpretation of a prompt, which
 * reads subjects through `promptSubjectPart`, and below the prompt builder (prompt.ts), which writes
 * the sections: neither imports the other (no import cycle).
 */
import type { AssetType } from './types/index.js';

/** The section markers, in order: theme, style, technique. */
export const SECTION_MARKERS = ['【主题】', '【风格】', '【技术】'] as const;

/** The asset type's lead in the 【主题】 section of a template prompt. */
export const TYPE_NAMES: Record<AssetType, string> = {
  sprite: '2D 游戏角色/物品精灵图 (sprite)',
  background: '2D 游戏场景背景 (background)',
  ui: '2D 游戏界面元素 (UI)',
  animation: '2D 游戏帧动画 (animation)',
  tileset: '2D 游戏地形图块集 (tileset)',
  level: '2D 游戏关卡地图 (level)',
};

/** The asset type's lead in an English template prompt's 【主题】 section. */
export const TYPE_NAMES_EN: Record<AssetType, string> = {
  sprite: '2D game character/item sprite (sprite)',
  background: '2D game scene background (background)',
  ui: '2D game UI element (UI)',
  animation: '2D game frame animation (animation)',
  tileset: '2D game terrain tileset (tileset)',
  level: '2D game level map (level)',
};

/**
 * What a prompt asks to be drawn: for a three-section prompt (an optimized one, as the studio lets a
 * user edit and submit), the 【主题】 and 【风格】 sections without the 【技术】 one, whose fixed
 * words (像素, 透明背景, 方向 …) name no subject, and without the template's asset-type lead
 * ("2D 游戏角色/物品精灵图 (sprite):", whose 精灵 would read as an elf); any other prompt as it is.
 */
export function promptSubjectPart(prompt: string): string {
  const [theme, style, tech] = SECTION_MARKERS;
  const at = prompt.indexOf(theme);
  if (at < 0 || !prompt.includes(tech)) return prompt;
  const section = (marker: string): string => {
    const start = prompt.indexOf(marker);
    if (start < 0) return '';
    const from = start + marker.length;
    const ends = SECTION_MARKERS.map((m) => prompt.indexOf(m, from)).filter((i) => i >= 0);
    return prompt.slice(from, ends.length ? Math.min(...ends) : prompt.length).trim();
  };
  let subject = section(theme);
  for (const lead of [...Object.values(TYPE_NAMES), ...Object.values(TYPE_NAMES_EN)]) {
    if (subject.startsWith(`${lead}:`)) {
      subject = subject.slice(lead.length + 1).trim();
      break;
    }
  }
  return `${subject}\n${section(style)}`.trim();
}
