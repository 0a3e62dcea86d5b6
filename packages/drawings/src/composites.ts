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
  /** The colour a one-colour silhouette part is drawn in (its `currentColor`), e.g. an emblem on cloth. */
  color?: string;
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
    // a pirate flag (issue #39, decision 0095): black cloth with its skull-and-swords emblem in bone
    // white, flying from a steel pole with a gold finial (game-icons' pirate flag is the emblem alone)
    id: 'x/pirate-flag',
    label: 'pirate flag',
    heads: ['flag', 'jolly-roger'],
    words: ['pirate', 'jolly', 'roger', 'skull', 'crossbones'],
    zh: ['海盗旗'],
    group: 'composite',
    box: [4, 1, 29, 30],
    color: [42, 39, 48],
    parts: [
      {
        svg:
          '<ellipse cx="5.8" cy="30" rx="3" ry=".8" fill="#5b5560"/>' +
          '<rect x="5" y="2.6" width="1.6" height="27.4" fill="#7d8392"/>' +
          '<rect x="5" y="2.6" width=".6" height="27.4" fill="#c3c8d2"/>' +
          '<circle cx="5.8" cy="2.4" r="1.4" fill="#d9b44a"/>' +
          '<path fill="#2a2730" d="M6.6 4.2C12 3.2 16 5.6 21 4.6C24 4 26.4 4.4 28.6 5V19.8C26.2 19.2 24 19.4 21 20C16 21 12 18.8 6.6 19.8Z"/>' +
          '<path fill="#1b1920" d="M21 4.6C22.4 4.3 23.4 4.2 24 4.2V19.4C23 19.4 22 19.6 21 20Z"/>' +
          '<path fill="#3e3a47" d="M6.6 4.2C9 3.8 10.6 4 12 4.4V19.2C10.4 19.2 8.6 19.4 6.6 19.8Z"/>',
      },
      {
        id: 'g/pirate-flag',
        transform: 'translate(17.4 12.2) scale(0.44) translate(-16 -16)',
        color: '#ece6d4',
      },
    ],
  },
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
  {
    // a fire hydrant (issue #39, decision 0083): a red squat post on a flange, a domed bonnet with its
    // nut, a cap on each side and a larger one in front; lit from the upper left like the sets
    id: 'x/fire-hydrant',
    label: 'fire hydrant',
    heads: ['hydrant', 'fireplug', 'fire-hydrant', 'firehydrant'],
    words: ['fire', 'street', 'water', 'plug'],
    zh: ['消防栓', '消火栓'],
    group: 'composite',
    box: [5, 3, 27, 30],
    color: [214, 40, 44],
    parts: [
      {
        svg:
          '<ellipse cx="16" cy="29.4" rx="9" ry="1.4" fill="#5b5560"/>' +
          '<rect x="9" y="26.6" width="14" height="2.6" rx=".6" fill="#8e1c22"/>' +
          '<rect x="11" y="12" width="10" height="15" fill="#d8282e"/>' +
          '<rect x="11.6" y="12" width="2" height="15" fill="#f0624e"/>' +
          '<rect x="18.6" y="12" width="2.4" height="15" fill="#a41c24"/>' +
          '<rect x="11" y="23.6" width="10" height="1.3" fill="#a41c24"/>' +
          '<path d="M10.6 11.6a5.4 5.6 0 0 1 10.8 0z" fill="#d8282e"/>' +
          '<path d="M11.6 11.2a4.4 4.8 0 0 1 3.4-4.4a5 5.6 0 0 0-1.6 4.4z" fill="#f0624e"/>' +
          '<rect x="14.8" y="3.8" width="2.4" height="2.6" rx=".5" fill="#8e1c22"/>' +
          '<rect x="9.4" y="10.4" width="13.2" height="2.4" rx=".6" fill="#b0202a"/>' +
          '<rect x="9.4" y="10.4" width="13.2" height=".8" rx=".4" fill="#e8574a"/>' +
          '<rect x="6.4" y="15.6" width="4.8" height="4" rx=".8" fill="#c4242c"/>' +
          '<rect x="5.2" y="15" width="1.8" height="5.2" rx=".6" fill="#8e1c22"/>' +
          '<rect x="20.8" y="15.6" width="4.8" height="4" rx=".8" fill="#b0202a"/>' +
          '<rect x="25" y="15" width="1.8" height="5.2" rx=".6" fill="#7a161c"/>' +
          '<circle cx="16" cy="18.6" r="2.8" fill="#b0202a"/>' +
          '<circle cx="16" cy="18.6" r="1.3" fill="#7a161c"/>' +
          '<path d="M6.4 16.2h4.8" stroke="#e8574a" stroke-width=".6"/>',
      },
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
