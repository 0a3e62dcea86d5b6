// Characters of the rig (issue #40): how fast frames are drawn, and how much of one character two
// tasks share.
//
//   tsx bench/character.bench.ts
//
// - frames per second: every action of a character in 8 directions × 8 frames at 32, 64 and 128 px,
//   against the pipeline's own run of one rig animation (`a cow walking`, 4 × 4 frames) measured in the
//   same run (a ratio, so the machine's speed cancels out);
// - identity shared by two tasks: the identity made in each task from the same (prompt, seed, style,
//   size), then each task's frames of one action compared pixel by pixel, and the palettes of two
//   different actions (walk in one task, attack in the other) against the character's look: both
//   must be 100 %.
import {
  CHARACTER_ACTIONS,
  characterIdentity,
  characterRig,
  drawCharacter,
  renderProcedural,
} from '../src/index.js';

const PROMPTS = ['a knight with a red cape', 'a wizard', '穿蓝色盔甲的骑士', 'a zombie', 'a ninja'];

const time = (f: () => void) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

// the baseline: the provider's rig animation of a quadruped, frames per second
const cow = {
  assetType: 'animation',
  prompt: 'a cow walking',
  userPrompt: 'a cow walking',
  tags: [],
  style: {},
};
// warm: the first run loads the drawings' index
await renderProcedural({
  ...cow,
  resolution: 64,
  directions: 4,
  framesPerDirection: 4,
  seed: 9,
  attempt: 0,
} as never);
let cowFrames = 0;
const cowT0 = performance.now();
for (let seed = 1; seed <= 4; seed++) {
  const out = await renderProcedural({
    ...cow,
    resolution: 64,
    directions: 4,
    framesPerDirection: 4,
    seed,
    attempt: 0,
  } as never);
  cowFrames += out.frames.length;
}
const cowFps = cowFrames / ((performance.now() - cowT0) / 1000);
console.log(`baseline (a cow walking, 64 px): ${cowFps.toFixed(0)} frames/s`);

for (const resolution of [32, 64, 128]) {
  let frames = 0;
  let ms = 0;
  for (const prompt of PROMPTS) {
    const req = { prompt, seed: 3, resolution };
    const id = characterIdentity(req)!;
    for (const action of CHARACTER_ACTIONS)
      ms += time(() => {
        frames += drawCharacter(req, id, action, 8, 8).frames.length;
      });
  }
  const fps = frames / (ms / 1000);
  console.log(
    `character frames at ${resolution} px: ${frames} in ${(ms / 1000).toFixed(1)} s = ${fps.toFixed(0)} frames/s (${(fps / cowFps).toFixed(2)} × baseline)`,
  );
}

{
  const req = { prompt: 'a knight with a red cape', seed: 3, resolution: 64 };
  const id = characterIdentity(req)!;
  const ms = time(() => characterRig(req, id, { directions: 8, framesPerDirection: 8 }));
  console.log(
    `rig export (8 actions × 8 directions × 8 frames, Spine + DragonBones + sheet files): ${ms.toFixed(0)} ms`,
  );
}

// identity shared between two tasks of one character
let samePixels = 0;
let pixels = 0;
let paletteIn = 0;
let paletteAll = 0;
let identities = 0;
for (const prompt of PROMPTS)
  for (const seed of [1, 2, 3]) {
    const req = { prompt, seed, resolution: 64 };
    // task one and task two each make (or read back) the character
    const one = characterIdentity(req)!;
    const two = JSON.parse(JSON.stringify(characterIdentity({ ...req })));
    if (JSON.stringify(one) === JSON.stringify(two)) identities++;
    const a = drawCharacter(req, one, 'walk', 8, 6).frames;
    const b = drawCharacter(req, two, 'walk', 8, 6).frames;
    a.forEach((f, i) => {
      for (let p = 0; p < f.data.length; p += 4) {
        pixels++;
        if (
          f.data[p] === b[i]!.data[p] &&
          f.data[p + 1] === b[i]!.data[p + 1] &&
          f.data[p + 2] === b[i]!.data[p + 2] &&
          f.data[p + 3] === b[i]!.data[p + 3]
        )
          samePixels++;
      }
    });
    // the palette of another action in the other task: every colour one of the first task's idle views has
    const colours = (frames: typeof a) => {
      const set = new Set<number>();
      for (const f of frames)
        for (let p = 0; p < f.data.length; p += 4)
          if (f.data[p + 3]) set.add((f.data[p]! << 16) | (f.data[p + 1]! << 8) | f.data[p + 2]!);
      return set;
    };
    const look = colours([...drawCharacter(req, one, 'idle', 8, 1).frames, ...a]);
    const other = colours(drawCharacter(req, two, 'attack', 8, 6).frames);
    for (const c of other) {
      paletteAll++;
      if (look.has(c)) paletteIn++;
    }
  }
console.log(`identity equal in two tasks: ${identities}/${PROMPTS.length * 3}`);
console.log(
  `part masks and pixels shared by two tasks of one action: ${((100 * samePixels) / pixels).toFixed(2)} %`,
);
console.log(
  `attack's colours (task two) within walk and idle's (task one): ${((100 * paletteIn) / paletteAll).toFixed(2)} %`,
);
