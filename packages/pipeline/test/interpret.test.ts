import { describe, expect, it } from 'vitest';
import { NOUNS } from '../src/interpret/generated/lexicon.js';
import { interpret, kindSpec, tokenize } from '../src/interpret/index.js';
import { templatePrompt } from '../src/prompt.js';
import { promptSubjectPart } from '../src/prompt-sections.js';
import type { AssetType } from '../src/types/index.js';

const read = (prompt: string, assetType: AssetType = 'sprite', style: Record<string, string> = {}) =>
  interpret({ assetType, userPrompt: prompt, tags: [], style });

describe('interpret: English and Chinese prompts into a structured request', () => {
  const cases: Array<
    [
      string,
      AssetType,
      {
        subject: string | null;
        kind?: string;
        color?: string;
        scene?: string;
        time?: string;
        action?: string;
        ignored?: string[];
      },
    ]
  > = [
    ['a red fox', 'sprite', { subject: 'fox', kind: 'animal.canine', color: '#ff0000' }],
    ['a red dragon', 'sprite', { subject: 'dragon', kind: 'creature.dragon', color: '#ff0000' }],
    ['a green slime', 'sprite', { subject: 'slime', kind: 'creature.slime', color: '#008000' }],
    ['a wooden treasure chest', 'sprite', { subject: 'chest', kind: 'item.chest', color: '#a0522d' }],
    ['a dark stone dungeon interior', 'background', { subject: 'dungeon', scene: 'dungeon' }],
    ['a night city', 'background', { subject: 'city', scene: 'city', time: 'night' }],
    ['a knight walking', 'animation', { subject: 'knight', kind: 'person.knight', action: 'walk' }],
    ['an owl', 'sprite', { subject: 'owl', kind: 'animal.bird' }],
    ['a spider', 'sprite', { subject: 'spider', kind: 'animal.spider' }],
    ['a sailing ship', 'sprite', { subject: 'ship', kind: 'vehicle.boat' }],
    // plurals: regular, -ves, irregular
    ['three wolves', 'sprite', { subject: 'wolf', kind: 'animal.canine' }],
    ['mice', 'sprite', { subject: 'mouse', kind: 'animal.rodent' }],
    ['potions', 'sprite', { subject: 'potion', kind: 'item.potion' }],
    ['geese', 'sprite', { subject: 'goose', kind: 'animal.bird' }],
    // Chinese
    ['一只红色的狐狸', 'sprite', { subject: '狐狸', kind: 'animal.canine', color: '#ff0000' }],
    ['森林里的骑士', 'sprite', { subject: '骑士', kind: 'person.knight', ignored: ['森林'] }],
    ['夜晚的城市', 'background', { subject: '城市', scene: 'city', time: 'night' }],
    ['蓝色的史莱姆', 'sprite', { subject: '史莱姆', kind: 'creature.slime', color: '#0000ff' }],
    ['宝箱', 'sprite', { subject: '宝箱', kind: 'item.chest' }],
    ['奔跑的狼', 'animation', { subject: '狼', kind: 'animal.canine', action: 'run' }],
    // unknown words land in `ignored`, never in a subject
    // a word no table knows is still the subject when it heads the phrase: the generator then draws
    // it or refuses it by name; the words before it stay ignored
    ['a blorptastic zibber', 'sprite', { subject: 'zibber', ignored: ['blorptastic'] }],
    ['a fox with a glorbnax', 'sprite', { subject: 'fox', ignored: ['glorbnax'] }],
    ['㐀㐁㐂', 'sprite', { subject: '㐀㐁㐂', ignored: [] }],
    ['a shiny one', 'sprite', { subject: 'one', ignored: ['shiny'] }],
    ['very shiny', 'sprite', { subject: null, ignored: ['shiny'] }],
    ['a pirate captain', 'sprite', { subject: 'captain', kind: 'person.pirate' }],
    ['a skeleton warrior', 'sprite', { subject: 'warrior', kind: 'creature.skeleton' }],
    // the role before a being of a body of its own reads as after it (a human mage was drawn: 0115)
    ['a necromancer skeleton', 'sprite', { subject: 'necromancer', kind: 'creature.skeleton' }],
    ['a knight zombie', 'sprite', { subject: 'knight', kind: 'creature.zombie' }],
    // a size in the prompt is the request's resolution, no word of the picture ("sword px" was refused)
    ['a steel sword 32px', 'sprite', { subject: 'sword', ignored: [] }],
    ['a gear, 64 x 64 px', 'sprite', { subject: 'gear', ignored: [] }],
    ['a potion 16 pixels', 'sprite', { subject: 'potion', ignored: [] }],
    ['a coin spinning', 'animation', { subject: 'coin', action: 'spin' }],
    ['a campfire burning', 'animation', { subject: 'campfire', action: 'flicker' }],
    // what a thing does, after it, is no part of its name (WordNet has "fluttering" as a noun too)
    ['a red flag fluttering', 'animation', { subject: 'flag', ignored: ['fluttering'] }],
    ['a banner fluttering', 'animation', { subject: 'banner', ignored: ['fluttering'] }],
    ['一只熊猫', 'sprite', { subject: '熊猫' }],
  ];
  it.each(cases)('%s (%s)', (prompt, type, want) => {
    const got = read(prompt, type);
    expect(got.subject).toBe(want.subject);
    if (want.kind) expect(got.kind).toBe(want.kind);
    if (want.color) expect(got.colors[0]?.hex).toBe(want.color);
    if (want.scene) expect(got.scene).toBe(want.scene);
    if (want.time) expect(got.time).toBe(want.time);
    if (want.action) expect(got.action).toBe(want.action);
    for (const w of want.ignored ?? []) expect(got.ignored).toContain(w);
    if (got.subject && got.kind) expect(got.understood).toContain(got.subject);
    expect(got.understood.filter((w) => got.ignored.includes(w))).toEqual([]);
  });

  it('does not read style values (palette, line weight) as subject words', () => {
    const got = interpret({
      assetType: 'sprite',
      userPrompt: 'a cat',
      tags: ['sweetie16', 'thin', 'top-left'],
      style: { palette: 'sweetie16', lineWeight: 'thin', lighting: 'top-left' },
    });
    expect(got.ignored).toEqual([]);
    expect(got.subject).toBe('cat');
  });

  it('says so when a sprite cannot show a scene or weather', () => {
    const got = read('a fox in a rainy forest');
    expect(got.subject).toBe('fox');
    expect(got.ignored).toEqual(expect.arrayContaining(['forest', 'rainy']));
  });

  it('segments Chinese into known words and unknown runs', () => {
    const tokens = tokenize('㐀㐁的狐狸');
    expect(tokens.map((t) => [t.text, t.known])).toEqual([
      ['㐀㐁', false],
      ['的', true],
      ['狐狸', true],
    ]);
  });

  it('every kind in the generated lexicon has a drawing', () => {
    const kinds = NOUNS()
      .split('|')
      .map((g) => g.split(':')[0]!);
    expect(kinds.length).toBeGreaterThan(50);
    for (const k of kinds) expect(kindSpec(k), k).toBeDefined();
  });
});

describe('interpret: an elided hyphenated word', () => {
  it.each(["a jack-o'-lantern", 'a jack-o’-lantern', 'a jack-o-lantern'])(
    '%s reads as the jack-o-lantern the lexicon spells without the apostrophe',
    (userPrompt) => {
      const it = interpret({ assetType: 'sprite', userPrompt, tags: [], style: {} });
      expect(it.subject).toBe('jack-o-lantern');
      expect(it.kind).toBe('thing.drawing');
    },
  );

  it.each([
    ['an elven archer', 'elf archer'],
    ['a dwarven blacksmith', 'dwarf blacksmith'],
    ['an orcish shaman', 'orc shaman'],
  ])("%s reads as %s (a people's adjective is its noun, never an ignored word)", (adjective, noun) => {
    const a = interpret({ assetType: 'sprite', userPrompt: adjective, tags: [], style: {} });
    const n = interpret({ assetType: 'sprite', userPrompt: noun, tags: [], style: {} });
    expect(a.subject).toBe(n.subject);
    expect(a.kind).toBe(n.kind);
    expect(a.ignored).toEqual(n.ignored);
  });

  it("keeps other apostrophes (a knight's sword) as they were", () => {
    const it = interpret({ assetType: 'sprite', userPrompt: "a knight's sword", tags: [], style: {} });
    expect(it.subject).not.toContain('-');
  });
});

describe('interpret: an optimized three-section prompt submitted as the task prompt', () => {
  // The studio lets a user edit the optimizer's 【主题】【风格】【技术】 text and generate with it. Before
  // session 7 the 【技术】 section's fixed words were read too: "a green slime" became a person (方).
  it.each([
    ['a green slime', 'sprite', 'slime', 'green', 'zh'],
    ['a red fox', 'animation', 'fox', 'red', 'zh'],
    ['一只蓝色的猫', 'sprite', '猫', '蓝色', 'zh'],
    // the English UI's optimized prompt (Accept-Language: en): English words in the same sections
    ['a green slime', 'sprite', 'slime', 'green', 'en'],
    ['a red fox', 'animation', 'fox', 'red', 'en'],
    ['a wooden chest', 'sprite', 'chest', 'wooden', 'en'],
  ] as const)(
    '%s (%s, %s): the subject and colour of its theme section',
    (prompt, assetType, subject, colour, language) => {
      const optimized = templatePrompt({
        tags: ['pixel', 'sweetie16'],
        assetType,
        prompt,
        params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
        language,
      });
      expect(optimized).toContain('【技术】');
      const it = interpret({ assetType, userPrompt: optimized, tags: [], style: { palette: 'sweetie16' } });
      expect(it.subject).toBe(subject);
      expect(it.colors[0]?.word).toBe(colour);
    },
  );

  it('leaves a plain prompt as it is', () => {
    expect(promptSubjectPart('a knight 【主题】 without the other markers')).toBe(
      'a knight 【主题】 without the other markers',
    );
  });
});

describe('interpret: a size word in the held phrase sizes what is held (issue #40)', () => {
  it('"a warrior with a huge sword" has a huge sword, not a huge warrior; "a big knight with a sword" a big knight', () => {
    const held = read('a warrior with a huge sword');
    expect([held.held, held.heldSize, held.size]).toEqual(['sword', 1.25, undefined]);
    expect(read('a soldier with a great axe').heldSize).toBe(1.25);
    const big = read('a big knight with a sword');
    expect([big.held, big.heldSize, big.size]).toEqual(['sword', undefined, 1.15]);
  });
});

describe('interpret: a weapon or tool after "with" is held whatever the lexicon files it as (issue #40)', () => {
  it('"an ogre with a heavy hammer", "a troll with a heavy club", "a miner with a pickaxe" hold them', () => {
    const table: Array<[string, string]> = [
      ['an ogre with a heavy hammer', 'hammer'],
      ['a troll with a heavy club', 'club'],
      ['a knight with a rusty old hammer', 'hammer'],
      ['a goblin with a big wooden club', 'club'],
      ['a dwarf with a pickaxe', 'pickaxe'],
      ['a samurai holding a katana', 'katana'],
      ['a knight with a shield and a hammer', 'hammer'],
    ];
    for (const [prompt, held] of table) {
      const it = read(prompt);
      expect([prompt, it.held, it.ignored.includes(held)]).toEqual([prompt, held, false]);
    }
    // no holding word, no held thing: "a hammer" is the drawing itself
    expect(read('a hammer').held).toBeUndefined();
  });
});

describe('a colour before a compound (issue #39)', () => {
  it('colours the whole thing, while a colour in a "with"/"in" phrase stays its part’s', () => {
    // "a green wizard hat" is a green hat: the colour stood before "wizard", a word of the hat's own
    // phrase, and was read as the (ignored) wizard's, so the hat kept its drawing's purple
    expect(read('a green wizard hat').colors).toEqual([{ word: 'green', hex: '#008000' }]);
    expect(read('a red pirate captain').colors).toEqual([{ word: 'red', hex: '#ff0000' }]);
    expect(read('a knight with a red cape').colors).toEqual([{ word: 'red', hex: '#ff0000', of: 'cape' }]);
    expect(read('a wizard with a green hat').colors).toEqual([{ word: 'green', hex: '#008000', of: 'hat' }]);
    expect(read('a girl in a red dress').colors).toEqual([{ word: 'red', hex: '#ff0000', of: 'dress' }]);
  });
});
