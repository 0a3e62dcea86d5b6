// A kept character's tasks (issue #40, decision 0055): each task draws the named action from the
// identity it carries (params.character), through the whole pipeline run, as a server's worker does.
//
//   tsx bench/character-tasks.bench.ts
//
// - frames per second of character tasks (every action, 4 directions × 6 frames, 64 px, each a
//   pipeline run with its sheet, engine files and rig), against the pipeline's run of the generic
//   route's 'a cow walking' (4 × 4 frames) measured in the same run (a ratio: the machine cancels out);
// - identity two tasks share, for five characters: the walk task's and the attack task's identities
//   (each read back from JSON as a store would), the attack task's colours within the character's
//   (walk's, idle's and its turn's), and each direction's first idle frame equal, pixel for pixel, to
//   the turn task's view — both must be 100 %. The same figures for the route used before (tasks
//   drawn from '<prompt>, <action words>') show what the stored identity fixes.
import { createMemoryStorage, decodePng, type RgbaImage } from '@assetloom/pipeline';
import { CHARACTER_ACTIONS, characterIdentity, runPipeline } from '../src/index.js';

const PROMPTS = ['a knight with a red cape', 'a wizard', '穿蓝色盔甲的骑士', 'a zombie', 'a ninja'];
const SIZE = 64;
const WORDS: Record<string, string> = {
  idle: 'idle',
  walk: 'walking',
  attack: 'attacking',
};

interface Sheet {
  image: RgbaImage;
  frames: number;
}

async function task(
  prompt: string,
  assetType: 'sprite' | 'animation',
  directions: 4,
  framesPerDirection: number,
  character?: { action: string; identity: Record<string, unknown> },
): Promise<Sheet> {
  const storage = createMemoryStorage();
  const result = await runPipeline(
    {
      prompt,
      assetType,
      projectStyle: {},
      params: {
        resolution: SIZE,
        format: 'spritesheet',
        frames: { directions, framesPerDirection },
        seed: 3,
        ...(character ? { character: { characterId: 'bench', ...character } } : {}),
      },
      keyPrefix: 'bench/',
    },
    { storage },
  );
  if (!result.ok) throw new Error(`${prompt} (${assetType}): ${result.error}`);
  const png = decodePng(storage.objects.get(`bench/${assetType}.png`)!.bytes);
  if (!png.ok) throw new Error(png.error);
  return { image: png.image, frames: directions * framesPerDirection };
}

const coloursOf = (image: RgbaImage) => {
  const set = new Set<number>();
  for (let i = 0; i < image.data.length; i += 4)
    if (image.data[i + 3]) set.add((image.data[i]! << 16) | (image.data[i + 1]! << 8) | image.data[i + 2]!);
  return set;
};
/** Pixels equal (colour and alpha) between column 0 of two sheets, every row. */
function firstColumnEqual(a: RgbaImage, b: RgbaImage): [same: number, all: number] {
  let same = 0;
  let all = 0;
  for (let y = 0; y < Math.min(a.height, b.height); y++)
    for (let x = 0; x < SIZE; x++) {
      const i = (y * a.width + x) * 4;
      const j = (y * b.width + x) * 4;
      all++;
      if ([0, 1, 2, 3].every((k) => a.data[i + k] === b.data[j + k])) same++;
    }
  return [same, all];
}

// warm: the drawings' index and the look's caches
await task('a cow walking', 'animation', 4, 4);
let cowFrames = 0;
const cowT0 = performance.now();
for (let n = 0; n < 3; n++) cowFrames += (await task('a cow walking', 'animation', 4, 4)).frames;
const cowFps = cowFrames / ((performance.now() - cowT0) / 1000);
console.log(`baseline (pipeline run of 'a cow walking', ${SIZE} px, 4 × 4): ${cowFps.toFixed(0)} frames/s`);

{
  const identity = characterIdentity({ prompt: PROMPTS[0]!, seed: 3, resolution: SIZE })!;
  const id = JSON.parse(JSON.stringify(identity)) as Record<string, unknown>;
  let frames = 0;
  const t0 = performance.now();
  for (const action of CHARACTER_ACTIONS)
    frames += (await task(PROMPTS[0]!, 'animation', 4, 6, { action, identity: id })).frames;
  const fps = frames / ((performance.now() - t0) / 1000);
  console.log(
    `character tasks (8 actions × 4 directions × 6 frames, sheet + engine files + rig): ${fps.toFixed(0)} frames/s (${(fps / cowFps).toFixed(2)} × baseline)`,
  );
}

for (const route of ['identity', 'prompt words (before)'] as const) {
  let identities = 0;
  let paletteIn = 0;
  let paletteAll = 0;
  let maskSame = 0;
  let maskAll = 0;
  const failed: string[] = [];
  for (const prompt of PROMPTS) {
    const made = characterIdentity({ prompt, seed: 3, resolution: SIZE })!;
    // each task reads the stored identity back from JSON
    const stored = () => JSON.parse(JSON.stringify(made)) as Record<string, unknown>;
    const one = stored();
    const two = stored();
    if (JSON.stringify(one) === JSON.stringify(two)) identities++;
    const draw = (
      action: string,
      identity: Record<string, unknown>,
      frames: number,
      type: 'animation' | 'sprite',
    ) =>
      route === 'identity'
        ? task(prompt, type, 4, frames, { action, identity })
        : task(type === 'sprite' ? prompt : `${prompt}, ${WORDS[action]}`, type, 4, frames);
    let walk: Sheet;
    let attack: Sheet;
    let idle: Sheet;
    let turn: Sheet;
    try {
      walk = await draw('walk', one, 6, 'animation');
      attack = await draw('attack', two, 6, 'animation');
      idle = await draw('idle', two, 6, 'animation');
      turn = await draw('idle', one, 1, 'sprite');
    } catch (error) {
      // the route used before can fail a task of a character the other tasks drew
      failed.push(`${prompt}: ${String((error as Error).message).slice(0, 120)}`);
      continue;
    }
    const own = new Set([...coloursOf(walk.image), ...coloursOf(idle.image), ...coloursOf(turn.image)]);
    for (const c of coloursOf(attack.image)) {
      paletteAll++;
      if (own.has(c)) paletteIn++;
    }
    const [same, all] = firstColumnEqual(idle.image, turn.image);
    maskSame += same;
    maskAll += all;
  }
  console.log(
    `${route}: ${route === 'identity' ? `identities equal ${identities}/${PROMPTS.length}; ` : ''}attack's colours within the character's ${((100 * paletteIn) / paletteAll).toFixed(2)} %; first idle frame = the turn's view ${((100 * maskSame) / maskAll).toFixed(2)} % of pixels; tasks failed for ${failed.length}/${PROMPTS.length} characters`,
  );
  for (const f of failed) console.log(`  failed: ${f}`);
}
