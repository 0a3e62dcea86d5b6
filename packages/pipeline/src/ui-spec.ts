import { interpret, tokenize, wordClass } from './interpret/index.js';

/**
 * What a UI prompt asks for, read the same way by the layout (the frame size and states the quality
 * check holds every provider to) and by the built-in drawing: the kind of piece, its states, the
 * words written on it, and its size when no canvas was asked for.
 */
export type UiKind = 'panel' | 'button' | 'bar' | 'icon' | 'label';

/** The states (frames) of each kind, in order. */
export const UI_STATES: Readonly<Record<UiKind, readonly string[]>> = {
  panel: ['panel'],
  button: ['normal', 'hover', 'pressed', 'disabled'],
  bar: ['empty', 'full'],
  icon: ['icon'],
  label: ['label'],
};

const ICON = /\b(icons?|emblems?|badges?|symbols?|pictograms?)\b|图标|徽章|标志/;
const BUTTON = /\b(buttons?|btns?)\b|按钮|按键/;
const BAR =
  /\b(bars?|health|hp|mana|mp|progress|slider|stamina|xp|exp|experience|loading|energy)\b|血条|蓝条|进度|经验条|能量条|条/;
const LABEL =
  /\b(labels?|signs?|plates?|plaques?|banners?|titles?|captions?|tags?|headers?|headings?)\b|标签|标题|横幅|牌子/;
const PANEL =
  /\b(panels?|windows?|dialog(ue)?s?|frames?|boxe?s?|menus?|inventory|popups?|pop-ups?|cards?|slots?|hud)\b|面板|窗口|对话框|菜单|背包|弹窗/;
/** Panels by what they hold (an inventory's slots, a quest log's lines): "a parchment quest log" is a panel, not a log. */
const HOLDING_PANEL =
  /\b(quest ?logs?|journals?|diary|diaries|inventory|inventories|backpacks?|hotbars?|stash)\b|任务日志|日志|物品栏|背包/;

/** Which UI piece a prompt asks for (lower-case text): its kind words, else an icon of a thing it names, else a panel. */
export function uiKindOf(text: string): UiKind {
  if (ICON.test(text)) return 'icon';
  if (BUTTON.test(text)) return 'button';
  if (BAR.test(text)) return 'bar';
  if (HOLDING_PANEL.test(text)) return 'panel';
  if (LABEL.test(text)) return 'label';
  if (PANEL.test(text)) return 'panel';
  // "a heart", "a gold coin": the thing as an icon
  const it = interpret({ assetType: 'sprite', userPrompt: text, tags: [], style: {} });
  return it.subject && it.kind !== undefined ? 'icon' : 'panel';
}

/** Words a button says when the prompt names it by its action ("a start button" says START). */
const NAMED_TEXT: ReadonlyArray<[RegExp, string]> = [
  [/\bnew game\b/, 'NEW GAME'],
  [/\bgame over\b/, 'GAME OVER'],
  [/\bstart\b/, 'START'],
  [/\bplay\b/, 'PLAY'],
  [/\bcontinue\b/, 'CONTINUE'],
  [/\bresume\b/, 'RESUME'],
  [/\bpause\b/, 'PAUSE'],
  [/\boptions\b/, 'OPTIONS'],
  [/\bsettings\b/, 'SETTINGS'],
  [/\b(quit|exit)\b/, 'QUIT'],
  [/\bback\b/, 'BACK'],
  [/\bnext\b/, 'NEXT'],
  [/\bok(ay)?\b/, 'OK'],
  [/\bcancel\b/, 'CANCEL'],
  [/\byes\b/, 'YES'],
  [/\bno\b(?! text)/, 'NO'],
  [/\b(retry|try again)\b/, 'RETRY'],
  [/\brestart\b/, 'RESTART'],
  [/\bmenu\b/, 'MENU'],
  [/\bshop\b/, 'SHOP'],
  [/\bbuy\b/, 'BUY'],
  [/\bsell\b/, 'SELL'],
  [/\bload\b/, 'LOAD'],
  [/\bsave\b/, 'SAVE'],
  [/\bhelp\b/, 'HELP'],
  [/\bcredits\b/, 'CREDITS'],
  [/\bconfirm\b/, 'CONFIRM'],
  [/\bsubmit\b/, 'SUBMIT'],
  [/\bupgrade\b/, 'UPGRADE'],
  [/开始游戏/, '开始游戏'],
  [/开始/, '开始'],
  [/继续/, '继续'],
  [/暂停/, '暂停'],
  [/设置/, '设置'],
  [/退出/, '退出'],
  [/返回/, '返回'],
  [/确定|确认/, '确定'],
  [/取消/, '取消'],
  [/商店/, '商店'],
  [/重试|重新开始/, '重试'],
  [/保存/, '保存'],
  [/读取|加载/, '读取'],
];
/** Words that dress a label's plate rather than name its text. */
const DRESS =
  /^(red|orange|yellow|green|blue|purple|violet|pink|white|black|gr[ae]y|brown|gold|golden|silver|cyan|magenta|teal|dark|light|bright|big|small|large|tiny|wood|wooden|stone|metal|metallic|steel|iron|ice|icy|paper|parchment|pixel|retro|ui|gui|hud|game)$/;

/** A button that shows a symbol, not a word. */
const SYMBOLS: ReadonlyArray<[RegExp, UiSymbol]> = [
  // a close button, and an exit or dismiss button "with a cross" / "an X button": the cross every game
  // shows in a window's corner (decision 0107)
  [/\bclose\b|关闭|\bcross\b|\ban? x\b|\bx (?:button|mark|sign|symbol)\b|叉/, 'close'],
  [/\b(plus|add)\b|加号/, 'plus'],
  [/\bminus\b|减号/, 'minus'],
  // a pause button is the media sign every game shows (two bars), not the word PAUSE
  [/\bpause\b|暂停/, 'pause'],
];
export type UiSymbol = 'close' | 'plus' | 'minus' | 'pause';

/** The text a piece carries: quoted in the prompt ("says \"Play\"", 「开始」), else named ("a start button"). */
export interface UiText {
  text: string;
  /** Where it came from: the prompt's quotes, or a button's action word. */
  from: 'quoted' | 'named';
}

const QUOTED =
  /"([^"]{1,40})"|“([^”]{1,40})”|「([^」]{1,40})」|『([^』]{1,40})』|《([^》]{1,40})》|'([^']{1,40})'|‘([^’]{1,40})’/;

/** The words on a button or label (from the raw prompt, so quoted text keeps its case), or none. */
export function uiTextOf(prompt: string, kind: UiKind): UiText | null {
  if (kind !== 'button' && kind !== 'label' && kind !== 'panel') return null;
  const quoted = QUOTED.exec(prompt);
  if (quoted) {
    const text = quoted
      .slice(1)
      .find((g) => g !== undefined)!
      .trim();
    if (text) return { text, from: 'quoted' };
  }
  if (kind === 'panel') return null;
  // "a label that says Score", "a sign saying game over": the words after says/saying/reads
  const says =
    /\b(?:says|saying|reads|reading|with the (?:text|word|words)|text)\s+([a-z0-9][a-z0-9 !?.-]{0,30}?)\s*(?:$|[,.;]| on | in | with )/i.exec(
      `${prompt} `,
    );
  if (says?.[1]) return { text: says[1].trim().toUpperCase(), from: 'quoted' };
  // 写着开始的按钮 ("a button that says 开始"), unquoted: the words after 写着/写有/印着/标着/显示 up to 的
  const zhSays =
    /(?:写着|写有|印着|印有|标着|标有|显示着?)\s*([^\s，。、；,.;的]{1,8})(?:的|$|[，。、；,.;])/.exec(
      prompt,
    );
  if (zhSays?.[1]) return { text: zhSays[1], from: 'quoted' };
  const lower = prompt.toLowerCase();
  if (kind === 'label') {
    // "a score label", "a game over banner": the words before the label word, but colours, materials
    // and sizes (they dress the plate)
    const named =
      /([a-z0-9][a-z0-9 ]{0,24}?)\s+(?:labels?|signs?|plates?|plaques?|banners?|titles?|captions?|tags?|headers?|headings?)\b/.exec(
        lower,
      );
    if (named?.[1]) {
      const words = tokenize(named[1]).filter((t) => {
        const c = wordClass(t);
        if (DRESS.test(t.text)) return false;
        return c === 'noun' || c === 'unknown' || c === 'adjective' || c === 'action';
      });
      const text = words
        .map((t) => t.text)
        .join(' ')
        .toUpperCase();
      if (text && text.length <= 20) return { text, from: 'named' };
    }
  }
  if (kind === 'button' && uiSymbolOf(lower)) return null;
  for (const [re, text] of NAMED_TEXT) if (re.test(lower)) return { text, from: 'named' };
  return null;
}

export function uiSymbolOf(lower: string): UiSymbol | null {
  for (const [re, symbol] of SYMBOLS) if (re.test(lower)) return symbol;
  return null;
}

/** Whether text needs the CJK font (any ideograph, kana, hangul or full-width form). */
const needsCjk = (text: string) => /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(text);

/**
 * The text's size in font pixels, before any scaling: the Latin font (assetloom-8) is 8 px a
 * character and 8 px tall; text with Chinese in it is set in Unifont, 16 px tall, 16 px an
 * ideograph and 8 px other characters. Both fonts are monospaced, so this needs no font file.
 */
export function textBox(text: string): { width: number; height: number; font: 'assetloom-8' | 'unifont' } {
  const cjk = needsCjk(text);
  let width = 0;
  for (const ch of text) width += cjk && needsCjk(ch) ? 16 : 8;
  return { width, height: cjk ? 16 : 8, font: cjk ? 'unifont' : 'assetloom-8' };
}

/** Side padding around a label's text, in art pixels: the border and a little air. */
const TEXT_PAD = 6;
/**
 * 16-px CJK glyphs fill their cell edge to edge (Latin capitals leave a column and a row of air), so
 * their words get more room on each side and above and below: a blind review saw Chinese words
 * touching a button's border.
 */
const CJK_PAD = 10;

/**
 * The frame size of a UI piece when no canvas is asked for: icons and panels square at the
 * resolution; buttons 2:1 and bars 4:1 (at least 8 px tall); a button or label with words is
 * widened (and heightened) until its words fit inside its border.
 */
export function uiFrameSize(
  kind: UiKind,
  resolution: number,
  text?: string | null,
  symbol?: UiSymbol | null,
): { width: number; height: number } {
  let width = resolution;
  let height =
    kind === 'button'
      ? Math.max(8, Math.round(resolution / 2))
      : kind === 'bar' || kind === 'label'
        ? Math.max(8, Math.round(resolution / 4))
        : resolution;
  // a button that shows a symbol and no words (close, plus, minus, pause) is square
  if (kind === 'button' && !text && symbol) return { width: height, height };
  if (text && (kind === 'button' || kind === 'label')) {
    const box = textBox(text);
    const cjk = box.font === 'unifont';
    width = Math.max(width, box.width + 2 * (cjk ? CJK_PAD : TEXT_PAD));
    // (a CJK line is 16 px of ink and its shadow: a pixel of face above and below it, clear of the
    // bevel lines — the glyphs touched them: decision 0122)
    height = Math.max(height, box.height + (kind === 'button' ? 10 : 8) + (cjk ? 6 : 0));
  }
  return { width, height };
}

/** The padding the drawing keeps around text (exported for the drawing's layout). */
export const UI_TEXT_PAD = TEXT_PAD;
