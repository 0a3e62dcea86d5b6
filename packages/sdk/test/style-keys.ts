/** The style keys the contract lists (`StyleKey`), in its order: what the SDK's tests expect. */
export const KNOWN_STYLE_KEYS = [
  'palette',
  'artStyle',
  'lineWeight',
  'lighting',
  'tileable',
  'scene',
  'subject',
  'mood',
  'theme',
  'biome',
] as const;
