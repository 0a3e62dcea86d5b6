import {
  createMemoryStorage,
  type ImageProvider,
  type ImageRequest,
  NAMED_PALETTES,
  type PipelineError,
  type RgbaImage,
} from '@assetloom/pipeline';
import { interpret } from '@assetloom/pipeline/interpret';
import { matchColourWord, toHex } from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { renderProcedural, runPipeline } from '../src/index.js';

const request = (prompt: string, over: Partial<ImageRequest> = {}): ImageRequest => ({
  assetType: 'sprite',
  prompt,
  userPrompt: prompt,
  tags: [],
  style: {},
  resolution: 64,
  directions: 4,
  framesPerDirection: 4,
  seed: 11,
  attempt: 0,
  ...over,
});

function hsv(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d) h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, max ? d / max : 0, max / 255];
}
/** Share of opaque pixels whose hue lies within ±tol° of `hue` (saturated ones only). */
function hueShare(img: RgbaImage, hue: number, tol = 30, minV = 0.15): number {
  let n = 0;
  let hit = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    if (img.data[i + 3]! < 128) continue;
    n++;
    const [h, s, v] = hsv(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!);
    const dh = Math.min(Math.abs(h - hue), 360 - Math.abs(h - hue));
    if (s > 0.25 && v > minV && dh <= tol) hit++;
  }
  return n ? hit / n : 0;
}
const meanLuma = (img: RgbaImage) => {
  let s = 0;
  for (let i = 0; i < img.data.length; i += 4)
    s += 0.2126 * img.data[i]! + 0.7152 * img.data[i + 1]! + 0.0722 * img.data[i + 2]!;
  return s / (img.data.length / 4) / 255;
};
const same = (a: RgbaImage, b: RgbaImage) => a.data.every((v, i) => v === b.data[i]);
/** Opaque cells of a band of rows. */
function rows(img: RgbaImage, y0: number, y1: number): string {
  let out = '';
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < img.width; x++) out += img.data[(y * img.width + x) * 4 + 3]! > 0 ? '#' : '.';
  return out;
}
function bbox(img: RgbaImage): [number, number, number, number] {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[(y * img.width + x) * 4 + 3]! > 0) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return [x0, y0, x1, y1];
}

describe('the procedural provider draws what was asked', () => {
  it.each([
    ['a red fox', 0],
    ['a red dragon', 0],
    ['a green slime', 120],
    ['a blue potion', 240],
    ['一只红色的狐狸', 0],
  ])('%s: the dominant hue is the asked one', async (prompt, hue) => {
    const out = await renderProcedural(request(prompt, { framesPerDirection: 1 }));
    for (const f of out.frames) {
      // the 30° hue sector holding most saturated pixels (outlines aside), against the asked hue
      const share = Array.from({ length: 12 }, (_, k) => hueShare(f, k * 30 + 15, 15, 0.25));
      const top = share.indexOf(Math.max(...share)) * 30 + 15;
      expect(Math.min(Math.abs(top - hue), 360 - Math.abs(top - hue))).toBeLessThanOrEqual(30);
      expect(hueShare(f, hue)).toBeGreaterThan(0.2);
    }
  });

  it('a subject no source can draw is refused by name, with close drawable subjects, never drawn as another', async () => {
    for (const [prompt, word] of [
      ['a blorptastic zibber', 'zibber'],
      ['a snorgle wobbit', 'wobbit'],
    ] as const) {
      const failure = await renderProcedural(request(prompt)).then(
        () => null,
        (e: unknown) => e as PipelineError,
      );
      expect(failure?.code, prompt).toBe('subject_not_drawable');
      expect(failure?.message).toContain(`"${word}"`);
      expect(failure?.message).toContain('params.placeholder');
    }
    // a typo is answered with the word it probably meant
    const typo = await renderProcedural(request('a dargon')).catch((e: PipelineError) => e.message);
    expect(typo).toMatch(/cannot draw "dargon".*dragon/);
    // no noun at all: the refusal says to name one
    const none = await renderProcedural(request('very shiny and red')).catch((e: PipelineError) => e.message);
    expect(none).toMatch(/found no subject/);
  });

  it('with params.placeholder a refused subject is a marked placeholder, named in interpretation.substitute', async () => {
    const out = await renderProcedural(
      request('a snorgle wobbit', { placeholder: true, framesPerDirection: 1 }),
    );
    expect(out.interpretation?.substitute).toEqual({ for: 'wobbit', drawn: 'placeholder (question mark)' });
    expect(out.interpretation?.drawing?.label).toContain('question mark');
    expect(out.frames.every((f) => bbox(f)[2] > 0)).toBe(true);
  });

  it('modifiers that are not drawn stay under ignored; the head noun is drawn, never replaced quietly', async () => {
    const out = await renderProcedural(request('a rusty zxqv sword', { framesPerDirection: 1 }));
    expect(out.interpretation?.subject).toBe('sword');
    expect(out.interpretation?.ignored).toEqual(expect.arrayContaining(['rusty', 'zxqv']));
  });

  it('a night background is clearly darker than the same scene at noon; rain, snow and fog change it', async () => {
    const bg = async (p: string) =>
      (await renderProcedural(request(p, { assetType: 'background', resolution: 128 }))).frames[0]!;
    const noon = meanLuma(await bg('a city at noon'));
    const night = meanLuma(await bg('a city at night'));
    expect(night).toBeLessThan(noon * 0.6);
    expect(night).toBeLessThan(0.32);
    const plain = await bg('a forest');
    for (const w of ['a rainy forest', 'a snowy forest', 'a foggy forest'])
      expect(same(await bg(w), plain)).toBe(false);
    // interiors have no sky: the top rows of a dungeon are dark stone, not blue
    const dungeon = await bg('a dark stone dungeon interior');
    expect(
      hueShare({ ...dungeon, data: dungeon.data.slice(0, 128 * 20 * 4), height: 20 }, 210, 25),
    ).toBeLessThan(0.2);
    expect(meanLuma(dungeon)).toBeLessThan(0.3);
  });

  it('the rig draws 8 directions as 8 different drawings with true diagonals', async () => {
    for (const prompt of ['a knight', 'a slime', 'a skeleton', 'a goblin']) {
      const out = await renderProcedural(request(prompt, { directions: 8, framesPerDirection: 1 }));
      expect(out.interpretation?.source, prompt).toBe('rig');
      expect(out.frames).toHaveLength(8);
      for (let i = 0; i < 8; i++)
        for (let j = i + 1; j < 8; j++)
          expect(same(out.frames[i]!, out.frames[j]!), `${prompt} ${i}/${j}`).toBe(false);
    }
  });

  it('a drawing has one view: its directions repeat it or mirror it, and the metadata says which', async () => {
    for (const prompt of ['a dog', 'a trophy', 'a key']) {
      const out = await renderProcedural(request(prompt, { directions: 4, framesPerDirection: 1 }));
      expect(out.interpretation?.source, prompt).toBe('drawing');
      expect(out.views?.map((v) => v.direction)).toEqual(['down', 'left', 'right', 'up']);
      out.views!.forEach((v, i) => {
        const f = out.frames[i]!;
        const src = out.frames[out.views!.findIndex((w) => w.view === 'source')]!;
        // a repeat is the view again, marked (issue #39: no row claims a side it does not face)
        if (v.view === 'source' || v.view === 'repeat')
          expect(same(f, src), `${prompt} ${v.direction}`).toBe(true);
        else {
          // a mirror image of the view, pixel for pixel
          let equal = 0;
          for (let y = 0; y < f.height; y++)
            for (let x = 0; x < f.width; x++)
              if (f.data[(y * f.width + x) * 4 + 3] === src.data[(y * f.width + f.width - 1 - x) * 4 + 3])
                equal++;
          expect(equal / (f.width * f.height), `${prompt} ${v.direction}`).toBeGreaterThan(0.97);
        }
      });
    }
    // a dog's emoji faces left: right is its mirror
    const dog = await renderProcedural(request('a dog', { directions: 4, framesPerDirection: 1 }));
    expect(dog.views?.find((v) => v.direction === 'right')?.view).toBe('mirror');
  });

  it('a walk cycle steps: the legs move between frames while the feet stay on one baseline and the head does not sway', async () => {
    for (const prompt of ['a knight walking', 'a wolf walking', 'a person walking']) {
      const out = await renderProcedural(
        request(prompt, { assetType: 'animation', directions: 4, framesPerDirection: 4 }),
      );
      expect(out.animation).toBe('walk');
      const left = out.frames.slice(4, 8); // direction row "left": a side view
      const legBands = new Set(left.map((f) => rows(f, 48, 62)));
      expect(legBands.size).toBeGreaterThan(1);
      // the baseline: within each direction's cycle the lowest row never moves
      for (let d = 0; d < 4; d++) {
        // (drawn at the frame's own 64 px, one art pixel is one pixel: a foot may settle by one)
        const bottoms = out.frames.slice(d * 4, d * 4 + 4).map((f) => bbox(f)[3]);
        expect(Math.max(...bottoms) - Math.min(...bottoms), `direction ${d}`).toBeLessThanOrEqual(1);
      }
      if (prompt.includes('person')) {
        // head: the horizontal centre of the head rows (below the helmet's plume) moves at most 1 px
        const centres = left.map((f) => {
          const [, top] = bbox(f);
          let x0 = 64;
          let x1 = -1;
          for (let y = top + 4; y < top + 12; y++)
            for (let x = 0; x < 64; x++)
              if (f.data[(y * 64 + x) * 4 + 3]! > 0) {
                x0 = Math.min(x0, x);
                x1 = Math.max(x1, x);
              }
          return (x0 + x1) / 2;
        });
        expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('actions from the prompt are distinct cycles', async () => {
    const sheet = (p: string) =>
      renderProcedural(request(p, { assetType: 'animation', directions: 1, framesPerDirection: 4 }));
    const names = ['idle', 'walk', 'run', 'attack', 'jump', 'hurt', 'death'];
    const words = ['idle', 'walking', 'running', 'attacking', 'jumping', 'hurt', 'dying'];
    const drawn = await Promise.all(words.map((w) => sheet(`a knight ${w}`)));
    expect(drawn.map((d) => d.animation)).toEqual(names);
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++)
        expect(same(drawn[i]!.frames[1]!, drawn[j]!.frames[1]!)).toBe(false);
    // death ends lying down: the last frame is wider than it is tall
    const [x0, y0, x1, y1] = bbox(drawn[6]!.frames[3]!);
    expect(x1 - x0).toBeGreaterThan(y1 - y0);
  });
});

describe('params.seed selects a variation', () => {
  const run = async (seed: number | undefined) => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      {
        prompt: 'a red fox',
        assetType: 'sprite',
        projectStyle: {},
        params: { resolution: 32, format: 'spritesheet', ...(seed === undefined ? {} : { seed }) },
        keyPrefix: 't/',
      },
      { storage },
    );
    if (!result.ok) throw new Error(result.error);
    return { result, png: storage.objects.get('t/sprite.png')!.bytes };
  };

  it('gives the same bytes for the same seed and another drawing for another seed', async () => {
    const a = await run(5);
    const b = await run(5);
    const c = await run(6);
    expect(Buffer.from(a.png).equals(Buffer.from(b.png))).toBe(true);
    expect(Buffer.from(a.png).equals(Buffer.from(c.png))).toBe(false);
    expect(a.result.provenance.seed).not.toBe(c.result.provenance.seed);
    const meta = a.result.assets[0]!.metadata;
    expect(meta.interpretation?.subject).toBe('fox');
    expect(meta.provenance.quality.checks.find((k) => k.name === 'prompt_adherence')?.passed).toBe(true);
  });

  it('rejects a seed that is not an integer in range', async () => {
    for (const seed of [-1, 1.5, 2 ** 32]) {
      const result = await runPipeline(
        {
          prompt: 'a fox',
          assetType: 'sprite',
          projectStyle: {},
          params: { resolution: 32, format: 'spritesheet', seed },
          keyPrefix: 't/',
        },
        { storage: createMemoryStorage() },
      );
      expect(result.ok ? 'ok' : result.code).toBe('invalid_request');
    }
  });
});

describe('prompt_adherence', () => {
  it('retries a drawing that misses the colour it understood, like any rejection', async () => {
    const asked = interpret({ assetType: 'sprite', userPrompt: 'a red fox', tags: [], style: {} });
    const seen: number[] = [];
    const fill = (rgb: [number, number, number]): RgbaImage => {
      const data = new Uint8Array(32 * 32 * 4);
      for (let y = 8; y < 24; y++) for (let x = 8; x < 24; x++) data.set([...rgb, 255], (y * 32 + x) * 4 + 0);
      data.set([250, 250, 250, 255], (10 * 32 + 10) * 4);
      return { width: 32, height: 32, data };
    };
    const provider: ImageProvider = {
      name: 'blue-then-red',
      async generate(req) {
        seen.push(req.attempt);
        const frame = fill(req.attempt === 0 ? [40, 60, 220] : [220, 40, 40]);
        return { frames: [frame], animation: 'idle', interpretation: asked };
      },
    };
    const result = await runPipeline(
      {
        prompt: 'a red fox',
        assetType: 'sprite',
        projectStyle: {},
        params: { resolution: 32, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
        keyPrefix: 't/',
      },
      { storage: createMemoryStorage(), providers: { image: provider } },
    );
    expect(result.ok).toBe(true);
    expect(seen).toEqual([0, 1]);
    expect(result.retryCount).toBe(1);
  });

  it("a part's colour must show, not cover a fifth of the subject: a red cape passes at 6 %, a red fox does not", async () => {
    // a 16 × 16 grey body with a 4 × 4 red patch: 6.25 % red
    const frame = (): RgbaImage => {
      const data = new Uint8Array(32 * 32 * 4);
      for (let y = 8; y < 24; y++)
        for (let x = 8; x < 24; x++)
          data.set(x < 12 && y < 12 ? [220, 40, 40, 255] : [120, 120, 130, 255], (y * 32 + x) * 4);
      return { width: 32, height: 32, data };
    };
    const run = async (prompt: string) => {
      const it = interpret({ assetType: 'sprite', userPrompt: prompt, tags: [], style: {} });
      const provider: ImageProvider = {
        name: 'patch',
        async generate() {
          return { frames: [frame()], animation: 'idle', interpretation: it };
        },
      };
      return runPipeline(
        {
          prompt,
          assetType: 'sprite',
          projectStyle: {},
          params: { resolution: 32, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
          keyPrefix: 't/',
        },
        { storage: createMemoryStorage(), providers: { image: provider }, maxRetries: 0 },
      );
    };
    const cape = await run('a knight with a red cape');
    expect(cape.ok).toBe(true);
    const fox = await run('a red fox');
    expect(fox.ok).toBe(false);
    expect(fox.ok ? '' : fox.error).toMatch(/prompt_adherence: only 6\.\d% of the pixels are red/);
  });
});

describe('colour words come out in the asked colour (tasks do not fail on them)', () => {
  const colours = [
    'red',
    'blue',
    'green',
    'yellow',
    'purple',
    'orange',
    'white',
    'black',
    'pink',
    'brown',
    'grey',
    'cyan',
  ];
  const subjects = ['knight', 'fox', 'slime', 'dragon', 'treasure chest', 'wizard'];
  // Before session 7: 45 of 504 such prompts failed after every retry ("blue knight" grey steel with
  // blue legs, "purple X" brown in the default palette, "black slime" judged by saturation).
  it.each([
    ['no palette', {}],
    ['an enforced palette (endesga32)', { palette: 'endesga32' }],
  ] as const)(
    '%s: the first drawing of every colour × subject passes prompt_adherence',
    async (_name, style) => {
      const misses: string[] = [];
      for (const colour of colours) {
        for (const subject of subjects) {
          const prompt = `${colour} ${subject}`;
          const result = await runPipeline(
            {
              prompt,
              assetType: 'sprite',
              projectStyle: { ...style },
              params: {
                resolution: 32,
                format: 'spritesheet',
                frames: { directions: 1, framesPerDirection: 1 },
                seed: 3,
              },
              keyPrefix: 't/',
            },
            { storage: createMemoryStorage(), maxRetries: 0 },
          );
          if (!result.ok) misses.push(`${prompt}: ${result.error}`);
        }
      }
      expect(misses).toEqual([]);
    },
  );

  it('an enforced palette gives a colour word its own hue: "green" under sweetie16 is a green, not its blue-grey', async () => {
    const sweetie = NAMED_PALETTES.sweetie16!;
    // plain RGB distance puts CSS green (#008000) nearest to sweetie16's #333c57
    expect(toHex(matchColourWord(sweetie, [0, 128, 0]))).toBe('#38b764');
    expect(toHex(matchColourWord(sweetie, [255, 255, 255]))).toBe('#f4f4f4');
    const slime = (
      await renderProcedural(
        request('a green slime', {
          style: { palette: 'sweetie16' },
          resolution: 32,
          directions: 1,
          framesPerDirection: 1,
        }),
      )
    ).frames[0]!;
    expect(hueShare(slime, 140, 32)).toBeGreaterThanOrEqual(0.5);
  });

  it('a knight wears the asked colour on armour and shield; a colour of another noun stays on it', async () => {
    const share = async (prompt: string) =>
      hueShare(
        (await renderProcedural(request(prompt, { resolution: 32, directions: 1, framesPerDirection: 1 })))
          .frames[0]!,
        240,
        32,
      );
    const blueKnight = await share('a blue knight');
    expect(blueKnight).toBeGreaterThanOrEqual(0.35);
    expect(await share('a knight in blue armour')).toBeGreaterThanOrEqual(0.35);
    // the shield and the cloth are blue, the armour stays steel
    const blueShield = await share('a knight with a blue shield');
    expect(blueShield).toBeGreaterThanOrEqual(0.15);
    expect(blueShield).toBeLessThan(blueKnight - 0.1);
    expect(await share('a knight')).toBeLessThan(0.1);
    const read = (prompt: string) =>
      interpret({ assetType: 'sprite', userPrompt: prompt, tags: [], style: {} }).colors;
    expect(read('a knight with a blue shield')).toEqual([{ word: 'blue', hex: '#0000ff', of: 'shield' }]);
    expect(read('a knight with a long sword, red cape')[0]?.of).toBe('cape');
    expect(read('a red fox with a white tail').map((c) => c.of)).toEqual([undefined, 'tail']);
  });
});

describe('materials keep their colour in the shade', () => {
  // Before: with no palette enforced, ramps came from the default palette's nearest colours, which
  // has no dark gold: a king's crown shaded green, his crimson robe brown.
  it('a king wears a gold crown, not a green one', async () => {
    const frame = (
      await renderProcedural(request('a king', { resolution: 64, directions: 1, framesPerDirection: 1 }))
    ).frames[0]!;
    // the crown: the top quarter of the figure's rows
    let top = frame.height;
    for (let i = 3; i < frame.data.length; i += 4)
      if (frame.data[i]! >= 128) top = Math.min(top, Math.floor(i / 4 / frame.width));
    const crown: RgbaImage = {
      width: frame.width,
      height: 8,
      data: frame.data.slice(top * frame.width * 4, (top + 8) * frame.width * 4),
    };
    expect(hueShare(crown, 48, 16)).toBeGreaterThan(0.25);
    expect(hueShare(crown, 110, 30)).toBe(0);
  });
});

describe('two-frame cycles move in every direction', () => {
  // Before session 7, 76 of 300 direction strips of this sweep were one picture twice (a white
  // horse seen from the front: its two contact poses mirror each other), and such animations failed
  // frames_distinct after every retry.
  it('walk and run with 2 frames per direction: the two frames differ in all 4 directions', async () => {
    const same: string[] = [];
    const subjects = [
      'brown dog',
      'white horse',
      'golden dragon',
      'white sheep',
      'white deer',
      'knight',
      'slime',
      'white spider',
      'bat',
      'cow',
    ];
    for (const seed of [1, 2, 3]) {
      for (const subject of subjects) {
        for (const action of ['walking', 'running']) {
          const prompt = `a ${subject} ${action}`;
          const out = await renderProcedural(
            request(prompt, {
              assetType: 'animation',
              resolution: 32,
              directions: 4,
              framesPerDirection: 2,
              seed,
            }),
          );
          for (let d = 0; d < 4; d++) {
            const a = Buffer.from(out.frames[d * 2]!.data);
            if (a.equals(Buffer.from(out.frames[d * 2 + 1]!.data)))
              same.push(`${prompt} seed ${seed} direction ${d}`);
          }
        }
      }
    }
    expect(same).toEqual([]);
  });
});

describe('sprites read as game sprites (frame filling, stepping legs)', () => {
  const lum = (img: RgbaImage, i: number) =>
    0.2126 * img.data[i]! + 0.7152 * img.data[i + 1]! + 0.0722 * img.data[i + 2]!;

  it('a standing figure fills ≥ 70 % of the frame height, centred, feet a few pixels above the bottom', async () => {
    for (const prompt of ['a knight', 'a wizard', 'a person', 'a zombie', 'a farmer']) {
      for (const resolution of [32, 64, 128]) {
        const out = await renderProcedural(request(prompt, { resolution, framesPerDirection: 1 }));
        for (const f of out.frames) {
          const [x0, y0, x1, y1] = bbox(f);
          expect((y1 - y0 + 1) / resolution, `${prompt} ${resolution}`).toBeGreaterThanOrEqual(0.7);
          expect(resolution - 1 - y1, `${prompt} ${resolution} baseline`).toBeGreaterThan(0);
          expect(resolution - 1 - y1).toBeLessThanOrEqual(Math.ceil(resolution * 0.1));
          expect(Math.abs((x0 + x1) / 2 - resolution / 2), `${prompt} centred`).toBeLessThanOrEqual(
            resolution * 0.12,
          );
        }
      }
    }
  });

  it('the same character has one scale in every action, so its sheets match', async () => {
    const height = async (p: string) => {
      const f = (
        await renderProcedural(request(p, { assetType: 'animation', directions: 1, framesPerDirection: 4 }))
      ).frames[0]!;
      const [, y0, , y1] = bbox(f);
      return y1 - y0;
    };
    const idle = await height('a knight idle');
    expect(Math.abs((await height('a knight walking')) - idle)).toBeLessThanOrEqual(4);
  });

  it('walking, the feet swap between the two contact frames (the far leg is the darker one)', async () => {
    for (const prompt of ['a person walking', 'a knight walking', 'a farmer walking']) {
      const out = await renderProcedural(
        request(prompt, { assetType: 'animation', directions: 4, framesPerDirection: 4 }),
      );
      // direction "right": frames 8–11; 8 and 10 are the contacts (left foot forward, then right)
      const feet = [out.frames[8]!, out.frames[10]!].map((f) => {
        const [, , , y1] = bbox(f);
        // the feet: separate runs of opaque pixels on the bottom row
        const runs: Array<[number, number]> = [];
        for (let x = 0; x < 64; x++) {
          if (!f.data[(y1 * 64 + x) * 4 + 3]) continue;
          if (runs.length && runs[runs.length - 1]![1] === x - 1) runs[runs.length - 1]![1] = x;
          else runs.push([x, x]);
        }
        // how light each foot is: its columns over the boots (one material for both), outline pixels
        // included
        const shade = (r: [number, number]) => {
          let sum = 0;
          let n = 0;
          for (let y = y1 - 4; y < y1; y++)
            for (let x = r[0]; x <= r[1]; x++)
              if (f.data[(y * 64 + x) * 4 + 3]) {
                sum += lum(f, (y * 64 + x) * 4);
                n++;
              }
          return sum / Math.max(1, n);
        };
        // facing right: the front foot is the rightmost run
        return { runs: runs.length, front: shade(runs[runs.length - 1]!), back: shade(runs[0]!) };
      });
      for (const c of feet) expect(c.runs, `${prompt}: feet apart at contact`).toBe(2);
      // plate sabatons shine on both feet: their far foot is a tone darker in the shade, but the
      // shine decides the columns' mean
      if (prompt.includes('knight')) continue;
      // first contact: the far (left) foot leads, darker in front; second: the near foot leads
      expect(feet[0]!.front, prompt).toBeLessThan(feet[0]!.back);
      expect(feet[1]!.front, prompt).toBeGreaterThan(feet[1]!.back);
    }
  });

  it('a quadruped seen from the front shows its width and four legs, not a pillar', async () => {
    const out = await renderProcedural(request('a red fox', { framesPerDirection: 1 }));
    const [x0, y0, x1, y1] = bbox(out.frames[0]!);
    expect((x1 - x0 + 1) / (y1 - y0 + 1)).toBeGreaterThan(0.5);
  });

  it('default colours follow the animal: a penguin is black and white, a brown bear is brown', async () => {
    const penguin = (await renderProcedural(request('a penguin', { framesPerDirection: 1 }))).frames[0]!;
    let dark = 0;
    let light = 0;
    let blue = 0;
    for (let i = 0; i < penguin.data.length; i += 4) {
      if (!penguin.data[i + 3]) continue;
      const l = lum(penguin, i) / 255;
      if (l < 0.25) dark++;
      if (l > 0.75) light++;
      const [h, s] = hsv(penguin.data[i]!, penguin.data[i + 1]!, penguin.data[i + 2]!);
      if (s > 0.4 && h > 190 && h < 250 && l > 0.35) blue++;
    }
    expect(dark).toBeGreaterThan(light * 0.6);
    expect(light).toBeGreaterThan(20);
    expect(blue).toBeLessThan(10);
    expect(
      interpret({ assetType: 'sprite', userPrompt: 'a brown bear', tags: [], style: {} }).colors[0]?.hex,
    ).toBe('#8b5a2b');
    // brown is a brown, not the palette's red
    const bear = (await renderProcedural(request('a brown bear', { framesPerDirection: 1 }))).frames[1]!;
    expect(hueShare(bear, 25, 20)).toBeGreaterThan(0.4);
  });
});
