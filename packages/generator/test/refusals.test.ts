import { createMemoryStorage, type PipelineError } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { preflightProcedural, renderProcedural, runPipeline } from '../src/index.js';
import { spriteRequest } from './support.js';

/** Issue #39: a phrase whose head alone would be something else is refused; a dropped word is said. */
const request = spriteRequest;

describe('phrases that are no compound are drawn, what is not shown said (issue #39)', () => {
  it.each([
    // what a quantity counts, what follows "of", a verb's object, a person's thing
    ['a stack of gold bars', 'bar', []],
    ['a pile of coins', 'coin', []],
    ['a bag of apples', 'bag', []],
    ['a knight swinging a sword', 'knight', []],
    ['a dog chasing a ball', 'dog', ['chasing']],
    // a hat of a person's kind is that hat (decision 0075): nothing left unsaid
    ['a purple wizard hat', 'hat', []],
    ['a pirate hat', 'hat', []],
  ] as const)('"%s" is drawn as a %s', async (prompt, subject, notDrawn) => {
    const pre = await preflightProcedural({ ...request(prompt), directions: 1 });
    expect(pre.ok, pre.ok ? '' : pre.message).toBe(true);
    const drawn = await renderProcedural(request(prompt));
    const it = drawn.interpretation!;
    expect(it.lemma ?? it.subject).toContain(subject);
    for (const word of notDrawn) expect(it.ignored).toContain(word);
  });
});

describe('never something else', () => {
  it.each([
    ['a space station', 'space station'],
    ['a frost giant with an ice axe', 'frost giant'],
    ['a mushroom creature', 'mushroom creature'],
    ['a cherry blossom tree', 'cherry blossom tree'],
    ['一棵樱花树', '樱花树'],
    ['a fish tank', 'fish tank'],
    // the thing's verb after a noun no table draws: the noun is named, never the verb as a noun
    ['a wardrobe opening', 'wardrobe'],
  ])('"%s" is refused naming "%s", in the preflight and the drawing alike', async (prompt, phrase) => {
    const pre = await preflightProcedural({ ...request(prompt), directions: 1 });
    expect(pre.ok).toBe(false);
    expect(pre.ok ? '' : pre.message).toContain(`"${phrase}"`);
    const failure = await renderProcedural(request(prompt)).then(
      () => null,
      (e: unknown) => e as PipelineError,
    );
    expect(failure?.code).toBe('subject_not_drawable');
    expect(failure?.message).toContain(`"${phrase}"`);
  });

  it('a background whose scene word begins a compound it does not draw is refused: a space station is not space', async () => {
    const bg = request('a space station interior', { assetType: 'background', resolution: 64 });
    const pre = await preflightProcedural({ ...bg, directions: 1 });
    expect(pre.ok ? '' : pre.message).toContain('"space station"');
    await expect(renderProcedural(bg)).rejects.toMatchObject({ code: 'subject_not_drawable' });
    expect((await renderProcedural({ ...bg, userPrompt: 'outer space' })).interpretation?.scene).toBe(
      'space',
    );
  });

  it.each([
    ['a cosy kitchen', 'kitchen'],
    ['a spaceship corridor', 'corridor'],
    ['an abandoned classroom', 'classroom'],
  ])('a background of a place it has no scene of is refused, never a meadow: "%s"', async (prompt, word) => {
    const bg = request(prompt, { assetType: 'background', resolution: 64 });
    const failure = await renderProcedural(bg).then(
      () => null,
      (e: unknown) => e as PipelineError,
    );
    expect(failure?.code).toBe('subject_not_drawable');
    expect(failure?.message).toContain(`"${word}"`);
    expect(failure?.message).toContain('never draws a meadow in its place');
    // asked for, the placeholder is the plain meadow
    expect((await renderProcedural({ ...bg, placeholder: true })).frames[0]!.width).toBe(64);
  });

  it('a background of a place it draws, or of things it draws on the default meadow, is drawn', async () => {
    for (const prompt of ['a dungeon corridor', 'a background with a wizard', 'a peaceful valley at dawn']) {
      const out = await renderProcedural(request(prompt, { assetType: 'background', resolution: 64 }));
      expect(out.frames[0]!.width, prompt).toBe(64);
    }
  });

  it('a noun the rig would draw as another thing of its kind is not the rig: a tank is no hand-cart', async () => {
    const tank = await renderProcedural(request('a tank'));
    expect(tank.interpretation?.source).toBe('drawing');
    expect(tank.interpretation?.drawing?.label).toMatch(/tank/);
    // the rig still draws the nouns its drawing shows
    expect((await renderProcedural(request('a wagon'))).interpretation?.source).toBe('rig');
    // a whale is no ogre (WordNet files it with the hulks): it is drawn from its own drawing
    expect((await renderProcedural(request('a whale'))).interpretation?.drawing?.label).toMatch(/whale/);
    expect((await renderProcedural(request('a troll'))).interpretation?.source).toBe('rig');
  });

  it.each([
    ['a pine tree', 'pine'],
    ['a treasure chest', 'treasure'],
    ['a sea turtle', null],
    ['a battle axe', null],
    ['an artist palette', 'artist'],
  ])(
    '"%s" is drawn: its modifier is shown by the drawing, or is a kind of the head',
    async (prompt, shown) => {
      const out = await renderProcedural(request(prompt));
      if (shown) expect(out.interpretation?.understood).toContain(shown);
    },
  );
});

describe('words the picture does not show are named, beside it', () => {
  it.each([
    ['a rusty sword', 'rusty'],
    ['a shield with a lion', 'lion'],
    ['a haunted house', 'haunted'],
    // a place or weather word a sprite cannot show, before the subject or after it
    ['a snow globe', 'snow'],
    ['a knight in the snow', 'snow'],
  ])('"%s" is drawn without "%s", and metadata.notHonoured says so', async (prompt, word) => {
    const out = await renderProcedural(request(prompt));
    expect(out.interpretation?.ignored).toContain(word);
  });

  it('a verb after the subject ends its phrase: "a wizard casting a spell" is the wizard, the spell said', async () => {
    const out = await renderProcedural(request('a wizard casting a spell', { assetType: 'animation' }));
    expect(out.interpretation?.subject).toBe('wizard');
    expect(out.interpretation?.action).toBe('attack');
    expect(out.interpretation?.ignored).toEqual(['spell']);
  });

  it('a palette named in the prompt is no scene word and no subject', async () => {
    const sprite = await renderProcedural(request('a red dragon, pico-8 palette'));
    expect(sprite.interpretation?.subject).toBe('dragon');
    expect(sprite.interpretation?.ignored).toEqual([]);
    const scene = await renderProcedural(
      request('a forest with the pico8 palette', { assetType: 'background', resolution: 64 }),
    );
    expect(scene.interpretation?.ignored).toEqual([]);
    expect(scene.interpretation?.elements ?? []).toEqual([]);
  });

  it('the task result carries notHonoured on every asset; absent when every word is drawn', async () => {
    const run = async (prompt: string) => {
      const result = await runPipeline(
        {
          prompt,
          assetType: 'sprite',
          params: {
            resolution: 32,
            frames: { directions: 1, framesPerDirection: 1 },
            seed: 3,
            format: 'spritesheet',
          },
          projectStyle: {},
          keyPrefix: 'p/t/',
        },
        { storage: createMemoryStorage() },
      );
      if (!result.ok) throw new Error(`${prompt}: ${result.error}`);
      return result.assets;
    };
    const rusty = await run('a rusty sword');
    expect(rusty.length).toBeGreaterThan(0);
    for (const a of rusty) expect(a.metadata.notHonoured).toEqual(['rusty']);
    for (const a of await run('a wooden chest')) expect(a.metadata.notHonoured).toBeUndefined();
  });
});
