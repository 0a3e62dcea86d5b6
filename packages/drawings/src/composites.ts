/**
 * Drawings composed of the sets' own drawings, for common game subjects no single drawing shows:
 * a campfire is two Fluent logs crossed under a Fluent fire; a torch is a Fluent fire on a wooden
 * handle. Each part keeps its own licence; the composite's provenance lists them.
 *
 * Coordinates are the composite's own 32 × 32 units; a part's transform places its drawing (scaled
 * from the drawing's own units to 32) in them, or `svg` is markup drawn in those units.
 */
export interface CompositePart {
  /** A drawing of the catalog, placed by `transform` (its own 32-unit square around 16,16). */
  id?: string;
  transform?: string;
  /** Markup of Assetloom's own in the composite's units (a handle, a shadow). */
  svg?: string;
}

export interface CompositeDef {
  id: string;
  label: string;
  heads: string[];
  words: string[];
  zh: string[];
  group: string;
  box: [number, number, number, number];
  color: [number, number, number];
  parts: CompositePart[];
}

export const COMPOSITES: readonly CompositeDef[] = [
  {
    id: 'x/campfire',
    label: 'campfire',
    heads: ['campfire', 'bonfire', 'campfires', 'fire-pit'],
    words: ['camp', 'fire', 'logs', 'burning'],
    zh: ['篝火', '营火', '火堆'],
    group: 'composite',
    box: [3, 3, 29, 30],
    color: [255, 140, 40],
    parts: [
      { svg: '<ellipse cx="16" cy="28.2" rx="12.5" ry="2.2" fill="#5b5560"/>' },
      { id: 'f/wood', transform: 'translate(16 25) rotate(62) scale(0.42 0.9) translate(-16 -16)' },
      { id: 'f/wood', transform: 'translate(16 25) rotate(-62) scale(0.42 0.9) translate(-16 -16)' },
      { id: 'f/fire', transform: 'translate(16 13.8) scale(0.58) translate(-16 -16)' },
    ],
  },
  {
    id: 'x/torch',
    label: 'torch',
    heads: ['torch', 'firebrand'],
    words: ['fire', 'flame', 'burning', 'wall'],
    zh: ['火把', '火炬'],
    group: 'composite',
    box: [10, 1, 22, 31],
    color: [255, 140, 40],
    parts: [
      {
        svg: '<path fill="#8a5633" d="M14.6 14h2.8l-0.4 16.2c0 .5-.4.8-.9.8h-.2c-.5 0-.9-.3-.9-.8z"/><path fill="#6b3f22" d="M15.9 14h1.5l-0.4 16.2c0 .5-.3.8-.7.8z"/><rect x="13" y="12.5" width="6" height="3.2" rx="1.2" fill="#5a5f6e"/><rect x="13" y="12.5" width="6" height="1.2" rx=".6" fill="#9aa1b2"/>',
      },
      { id: 'f/fire', transform: 'translate(16 7.6) scale(0.42) translate(-16 -16)' },
    ],
  },
  ...(
    [
      ['breakfast', ['breakfast', 'brunch'], ['早餐', '早饭'], 'f/pancakes'],
      ['lunch', ['lunch', 'luncheon'], ['午餐', '午饭'], 'f/sandwich'],
      ['dinner', ['dinner', 'supper', 'meal', 'feast'], ['晚餐', '晚饭', '饭菜', '一餐'], 'f/poultry-leg'],
    ] as const
  ).map(
    ([name, heads, zh, food]): CompositeDef => ({
      // a meal: its food on a plate between a fork and a knife
      id: `x/${name}`,
      label: name,
      heads: [...heads],
      words: ['meal', 'plate', 'food'],
      zh: [...zh],
      group: 'composite',
      box: [1, 5, 31, 27],
      color: [235, 150, 70],
      parts: [
        { id: 'f/fork-and-knife-with-plate' },
        { id: food, transform: 'translate(16 16) scale(0.5) translate(-16 -16)' },
      ],
    }),
  ),
];
