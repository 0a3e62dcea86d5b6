/**
 * The fixed list of requests whose output must not change when the code is moved (issue #38):
 * sprites, animations (every action), backgrounds (scenes, layered, textures, wide canvases), UI
 * pieces of every kind and tilesets of every kind, at 32, 64 and 128 px, on the built-in
 * generator; a few through a deterministic stand-in for an image model (pixelize, the model checks,
 * a tileset cut from terrain pictures) and a few from an input picture. `check.ts` runs them.
 */
import type { GenerationParams, PipelineRequest, StyleMap } from '../../packages/pipeline/src/index.js';

export interface HashCase {
  /** Unique, stable: the key of the recorded hashes. */
  name: string;
  request: PipelineRequest;
  /** `model`: the stand-in model provider (model.ts); default the built-in generator. */
  provider?: 'model';
  /**
   * An input picture made by model.ts: `pixelate` (strength 0), `vary` (strength 0.5), `palette`
   * (paletteFrom).
   */
  input?: 'pixelate' | 'vary' | 'palette';
}

const base = (
  assetType: PipelineRequest['assetType'],
  prompt: string,
  params: Partial<GenerationParams>,
  style: StyleMap = {},
): PipelineRequest => ({
  prompt,
  assetType,
  projectStyle: style,
  params: { resolution: 64, format: 'spritesheet', ...params },
  keyPrefix: 'p/t/',
});

const sprites: HashCase[] = [
  ['a red dragon', 32, 1],
  ['a red dragon', 64, 2],
  ['a red dragon', 128, 3],
  ['a wooden chest', 32, 4],
  ['a wooden chest', 64, 5],
  ['a dog', 64, 6],
  ['a cat', 32, 7],
  ['a fox', 128, 8],
  ['a gold coin', 32, 9],
  ['一只熊猫', 64, 10],
  ['a purple slime', 64, 11],
  ['a skeleton warrior', 128, 12],
  ['a pine tree', 64, 13],
  ['a potion bottle', 32, 14],
  ['a knight with a sword', 64, 15],
  ['an elf archer in green', 128, 16],
].map(([prompt, resolution, seed]) => ({
  name: `sprite ${prompt} ${resolution} #${seed}`,
  request: base('sprite', prompt as string, { resolution: resolution as number, seed: seed as number }),
}));

const spriteVariants: HashCase[] = [
  {
    name: 'sprite knight 4 directions individual',
    request: base('sprite', 'a knight', {
      resolution: 64,
      seed: 21,
      frames: { directions: 4, framesPerDirection: 1 },
      format: 'individual',
    }),
  },
  {
    name: 'sprite wizard 8 directions',
    request: base('sprite', 'a wizard with a staff', {
      resolution: 64,
      seed: 22,
      frames: { directions: 8, framesPerDirection: 1 },
    }),
  },
  { name: 'sprite refused', request: base('sprite', 'a zorblax', { seed: 23 }) },
  { name: 'sprite placeholder', request: base('sprite', 'a zorblax', { seed: 24, placeholder: true }) },
  {
    name: 'sprite pico8',
    request: base('sprite', 'a red dragon', { resolution: 64, seed: 25 }, { palette: 'pico8' }),
  },
  {
    name: 'sprite gameboy knight',
    request: base('sprite', 'a knight', { resolution: 32, seed: 26 }, { palette: 'gameboy' }),
  },
];

const animations: HashCase[] = [
  ['a knight walking', 64, 31, 4, 4],
  ['a knight running', 32, 32, 4, 6],
  ['an orc attacking', 64, 33, 4, 4],
  ['a frog jumping', 64, 34, 1, 6],
  ['a goblin getting hurt', 32, 35, 4, 3],
  ['a skeleton dying', 64, 36, 1, 6],
  ['a coin spinning', 32, 37, 1, 8],
  ['a campfire burning', 64, 38, 1, 4],
  ['a bat flying', 64, 39, 4, 4],
  ['a ghost floating', 64, 40, 1, 4],
  ['a crystal glowing', 32, 41, 1, 4],
  ['a dog walking', 128, 42, 1, 4],
  ['a robot idle', 64, 43, 4, 2],
  ['a horse running', 64, 44, 8, 4],
  ['a dragon flying', 128, 45, 4, 4],
  ['一个骑士在走路', 64, 46, 4, 4],
].map(([prompt, resolution, seed, directions, framesPerDirection]) => ({
  name: `animation ${prompt} ${resolution} #${seed}`,
  request: base('animation', prompt as string, {
    resolution: resolution as number,
    seed: seed as number,
    frames: { directions: directions as 1 | 4 | 8, framesPerDirection: framesPerDirection as number },
  }),
}));

const animationVariants: HashCase[] = [
  {
    name: 'animation pingpong 12 fps individual',
    request: base('animation', 'a slime bouncing', {
      resolution: 32,
      seed: 51,
      format: 'individual',
      frames: { directions: 1, framesPerDirection: 4 },
      animation: { fps: 12, loop: 'pingpong' },
    }),
  },
  {
    name: 'animation durations reverse',
    request: base('animation', 'a wizard casting a spell', {
      resolution: 64,
      seed: 52,
      frames: { directions: 4, framesPerDirection: 3 },
      animation: { frameDurations: [100, 150, 200], loop: 'reverse' },
    }),
  },
];

const backgrounds: HashCase[] = [
  ['a sunny beach with palm trees', { resolution: 128, seed: 61 }],
  ['a beach with palm trees at sunset', { resolution: 64, width: 160, height: 90, seed: 62 }],
  ['night city street in the rain, neon signs', { resolution: 128, seed: 63 }],
  ['a dungeon corridor with torches', { resolution: 64, seed: 64 }],
  ['snowy mountains under a full moon', { resolution: 128, width: 192, height: 108, seed: 65 }],
  ['a forest with a waterfall', { resolution: 32, seed: 66 }],
  ['an underwater coral reef with fish', { resolution: 64, seed: 67 }],
  ['a castle on a hill', { resolution: 128, seed: 68, format: 'individual' }],
  [
    'a village with a windmill at dawn',
    { resolution: 64, width: 128, height: 64, seed: 69, format: 'individual' },
  ],
  ['outer space with planets and asteroids', { resolution: 64, seed: 70 }],
  ['a stone floor texture', { resolution: 64, seed: 71 }],
  ['grass tiles top-down', { resolution: 32, seed: 72 }],
  ['a tavern interior', { resolution: 128, seed: 73 }],
  ['a graveyard at night under a full moon', { resolution: 64, seed: 74 }],
  ['沙漠里的金字塔', { resolution: 64, seed: 75 }],
  ['a foggy swamp with dead trees', { resolution: 128, width: 128, height: 72, seed: 76 }],
].map(([prompt, params]) => ({
  name: `background ${prompt} ${JSON.stringify(params)}`,
  request: base('background', prompt as string, params as Partial<GenerationParams>),
}));

const ui: HashCase[] = [
  ['a heart icon', { resolution: 32, seed: 81 }],
  ['a heart icon', { resolution: 64, seed: 82 }],
  ['a red close button', { resolution: 64, seed: 83 }],
  ['a start button that says Play', { resolution: 128, seed: 84 }],
  ['a health bar', { resolution: 64, seed: 85 }],
  ['a wooden panel', { resolution: 128, seed: 86 }],
  ['a label that says Score', { resolution: 64, seed: 87 }],
  ['a gold coin icon', { resolution: 32, seed: 88 }],
  ['a blue mana bar', { resolution: 128, width: 128, height: 16, seed: 89 }],
  ['a stone dialog window', { resolution: 64, seed: 90, format: 'individual' }],
  ['a green button', { resolution: 32, seed: 91, format: 'individual' }],
  ['一个关闭按钮', { resolution: 64, seed: 92 }],
].map(([prompt, params]) => ({
  name: `ui ${prompt} ${JSON.stringify(params)}`,
  request: base('ui', prompt as string, params as Partial<GenerationParams>),
}));

const tilesets: HashCase[] = [
  ['grass and dirt', 'wang16', 16, 101],
  ['water and sand', 'blob47', 16, 102],
  ['stone floor', 'seamless', 32, 103],
  ['snow and ice', 'wang16', 32, 104],
  ['lava and rock', 'blob47', 8, 105],
  ['forest floor', 'seamless', 64, 106],
  ['grass and water', 'wang16', 8, 107],
].map(([prompt, kind, tileSize, seed]) => ({
  name: `tileset ${prompt} ${kind} ${tileSize}`,
  request: base('tileset', prompt as string, {
    resolution: 64,
    seed: seed as number,
    tileset: { kind: kind as 'wang16', tileSize: tileSize as number },
  }),
}));

const model: HashCase[] = [
  {
    name: 'model sprite',
    provider: 'model',
    request: base('sprite', 'a knight', { resolution: 32, seed: 111 }),
  },
  {
    name: 'model animation',
    provider: 'model',
    request: base('animation', 'a knight walking', {
      resolution: 32,
      seed: 112,
      frames: { directions: 1, framesPerDirection: 2 },
    }),
  },
  {
    name: 'model background',
    provider: 'model',
    request: base('background', 'a forest', { resolution: 64, seed: 113 }),
  },
  {
    name: 'model ui button',
    provider: 'model',
    request: base('ui', 'a red button', { resolution: 64, seed: 114 }),
  },
  {
    name: 'model tileset wang16',
    provider: 'model',
    request: base('tileset', 'grass and dirt', { seed: 115, tileset: { kind: 'wang16', tileSize: 16 } }),
  },
  {
    name: 'model tileset seamless pico8',
    provider: 'model',
    request: base(
      'tileset',
      'stone',
      { seed: 116, tileset: { kind: 'seamless', tileSize: 16 } },
      { palette: 'pico8' },
    ),
  },
];

const inputs: HashCase[] = [
  {
    name: 'input pixelate sprite',
    input: 'pixelate',
    request: base('sprite', 'a knight', {
      resolution: 32,
      seed: 121,
      frames: { directions: 1, framesPerDirection: 1 },
    }),
  },
  {
    name: 'input pixelate animation spinning',
    input: 'pixelate',
    request: base('animation', 'a gem spinning', {
      resolution: 32,
      seed: 122,
      frames: { directions: 1, framesPerDirection: 4 },
    }),
  },
  {
    name: 'input refused walking',
    input: 'pixelate',
    request: base('animation', 'a knight walking', {
      resolution: 32,
      seed: 125,
      frames: { directions: 1, framesPerDirection: 4 },
    }),
  },
  {
    name: 'input palette background',
    input: 'palette',
    request: base('background', 'a forest at dusk', { resolution: 64, seed: 123 }),
  },
  {
    name: 'input pixelate seamless tile',
    input: 'pixelate',
    request: base('tileset', 'stone', { seed: 124, tileset: { kind: 'seamless', tileSize: 16 } }),
  },
  {
    name: 'input seamless tile variation',
    input: 'vary',
    request: base('tileset', 'stone', { seed: 126, tileset: { kind: 'seamless', tileSize: 16 } }),
  },
];

export const HASH_CASES: readonly HashCase[] = [
  ...sprites,
  ...spriteVariants,
  ...animations,
  ...animationVariants,
  ...backgrounds,
  ...ui,
  ...tilesets,
  ...model,
  ...inputs,
];
