import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderProcedural } from '@assetloom/generator';
import { encodePng, type Interpretation, type RgbaImage } from '@assetloom/pipeline';

/** 64 subjects across the body plans and object classes, each drawn facing down, left, right and up. */
export const SHEET_SUBJECTS = [
  'a red fox',
  'a gray wolf',
  'a black cat',
  'a lion',
  'a brown bear',
  'a horse',
  'a cow',
  'a sheep',
  'a deer',
  'a pig',
  'a white rabbit',
  'an elephant',
  'a monkey',
  'a crocodile',
  'a turtle',
  'a frog',
  'an owl',
  'an eagle',
  'a penguin',
  'a bat',
  'a goldfish',
  'a shark',
  'a snake',
  'a spider',
  'a bee',
  'a crab',
  'an octopus',
  'a snail',
  'a knight',
  'a wizard',
  'an archer',
  'a thief',
  'a king',
  'a pirate',
  'a farmer',
  'a chef',
  'an astronaut',
  'a red dragon',
  'a green slime',
  'a ghost',
  'a goblin',
  'a demon',
  'an angel',
  'a fairy',
  'a skeleton',
  'a zombie',
  'a robot',
  'a stone golem',
  'a steel sword',
  'a battle axe',
  'a magic staff',
  'a bow',
  'a shield',
  'a blue potion',
  'a wooden treasure chest',
  'a barrel',
  'a red apple',
  'a loaf of bread',
  'a ruby gem',
  'a gold coin',
  'a key',
  'a blue book',
  'a lantern',
  'a pine tree',
  'a flower',
  'a mushroom',
  'a cactus',
  'a rock',
  'a wooden chair',
  'a table',
  'a house',
  'a castle',
  'a red car',
  'a ship',
  'a rocket',
  'a train',
] as const;

/** 16 scenes: interiors without sky, underwater and space, open land, towns, time of day and weather. */
export const SHEET_SCENES = [
  'a dark stone dungeon interior',
  'a crystal cave',
  'a castle hall',
  'a cosy tavern',
  'underwater',
  'outer space',
  'a volcano',
  'a snowy mountain',
  'a desert',
  'a sunny beach',
  'a swamp',
  'a night city',
  'a village at dusk',
  'a forest',
  'a rainy forest',
  'a foggy meadow at dawn',
] as const;

/** 12 colour words × 4 subjects (colours.png): each subject drawn in the colour its prompt names. */
export const SHEET_COLOURS = [
  'red',
  'orange',
  'yellow',
  'green',
  'cyan',
  'blue',
  'purple',
  'pink',
  'brown',
  'white',
  'grey',
  'black',
] as const;
export const SHEET_COLOUR_SUBJECTS = ['knight', 'dragon', 'slime', 'fox'] as const;

export interface ContactSheet {
  path: string;
  width: number;
  height: number;
  /** What each cell shows, in reading order, with how the generator read its prompt. */
  cells: Array<{ prompt: string; interpretation?: Interpretation }>;
}

function tile(cells: RgbaImage[], columns: number, scale: number, gap: number): RgbaImage {
  const w = cells[0]!.width;
  const h = cells[0]!.height;
  const rows = Math.ceil(cells.length / columns);
  const W = columns * (w * scale + gap) + gap;
  const H = rows * (h * scale + gap) + gap;
  const data = new Uint8Array(W * H * 4);
  for (let i = 0; i < W * H; i++) data.set([38, 36, 46, 255], i * 4);
  cells.forEach((img, n) => {
    const ox = gap + (n % columns) * (w * scale + gap);
    const oy = gap + Math.floor(n / columns) * (h * scale + gap);
    for (let y = 0; y < h * scale; y++)
      for (let x = 0; x < w * scale; x++) {
        const s = (Math.floor(y / scale) * w + Math.floor(x / scale)) * 4;
        const d = ((oy + y) * W + ox + x) * 4;
        const a = img.data[s + 3]!;
        // transparent pixels on a light checkerboard, so outlines read as they would in an editor
        const bg = ((x >> 3) + (y >> 3)) % 2 ? 214 : 232;
        for (let k = 0; k < 3; k++) data[d + k] = a ? img.data[s + k]! : bg;
        data[d + 3] = 255;
      }
  });
  return { width: W, height: H, data };
}

const base = { tags: [], style: {}, seed: 1, attempt: 0 };

/** Writes subjects.png (every subject × 4 directions), scenes.png and colours.png, plus a JSON index of each. */
export async function writeContactSheets(outDir: string): Promise<ContactSheet[]> {
  await mkdir(outDir, { recursive: true });
  /** Draws each prompt: every frame goes into the sheet, and the cell records how it was read. */
  const draw = async (
    prompts: readonly string[],
    assetType: 'sprite' | 'background',
    resolution: number,
    directions: 1 | 4,
  ) => {
    const frames: RgbaImage[] = [];
    const cells: ContactSheet['cells'] = [];
    for (const prompt of prompts) {
      const out = await renderProcedural({
        ...base,
        assetType,
        prompt,
        userPrompt: prompt,
        resolution,
        directions,
        framesPerDirection: 1,
      });
      frames.push(...out.frames);
      cells.push({ prompt, ...(out.interpretation ? { interpretation: out.interpretation } : {}) });
    }
    return { frames, cells };
  };
  const subjects = await draw(SHEET_SUBJECTS, 'sprite', 64, 4);
  const scenes = await draw(SHEET_SCENES, 'background', 128, 1);
  const colours = await draw(
    SHEET_COLOURS.flatMap((colour) => SHEET_COLOUR_SUBJECTS.map((subject) => `a ${colour} ${subject}`)),
    'sprite',
    64,
    1,
  );
  const sheets: Array<[string, RgbaImage, ContactSheet['cells']]> = [
    // 4 subjects per row, each as down, left, right, up
    ['subjects', tile(subjects.frames, 16, 2, 2), subjects.cells],
    ['scenes', tile(scenes.frames, 4, 2, 4), scenes.cells],
    // one colour per row: knight, dragon, slime, fox
    ['colours', tile(colours.frames, SHEET_COLOUR_SUBJECTS.length, 2, 2), colours.cells],
  ];
  const written: ContactSheet[] = [];
  for (const [name, img, cells] of sheets) {
    const path = join(outDir, `${name}.png`);
    await writeFile(path, encodePng(img.data, img.width, img.height));
    await writeFile(join(outDir, `${name}.json`), `${JSON.stringify(cells, null, 2)}\n`);
    written.push({ path, width: img.width, height: img.height, cells });
  }
  return written;
}
