import { readFileSync } from 'node:fs';
import { runPipeline } from '@assetloom/generator';
import {
  type AnimationParams,
  createMemoryStorage,
  decodePng,
  type PipelineAsset,
  validateRequest,
} from '@assetloom/pipeline';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

/**
 * The engine files of a sheet, read back by their formats' own rules: Aseprite's JSON against a
 * schema written from Aseprite's exporter (aseprite-sheet.schema.json), Unity's `.meta` as YAML
 * with TextureImporter's fields, TexturePacker multipack pages in PixiJS, Godot's SpriteFrames.
 */

const asepriteSchema = JSON.parse(
  readFileSync(new URL('./aseprite-sheet.schema.json', import.meta.url), 'utf8'),
);
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateAseprite = ajv.compile(asepriteSchema);

// PixiJS 8 reads `navigator` while its modules load; Node 20 has none. Parsing needs no GPU.
(globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'node' };
let pixi: typeof import('pixi.js');
beforeAll(async () => {
  pixi = await import('pixi.js');
});

interface Generated {
  assets: PipelineAsset[];
  text(key: string): string;
  bytes(key: string): Uint8Array;
  keys: string[];
}

async function generate(
  resolution: number,
  directions: 1 | 4 | 8,
  framesPerDirection: number,
  animation?: AnimationParams,
): Promise<Generated> {
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt: 'a walking knight',
      assetType: 'animation',
      projectStyle: {},
      params: {
        resolution,
        frames: { directions, framesPerDirection },
        format: 'spritesheet',
        ...(animation ? { animation } : {}),
      },
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!r.ok) throw new Error(r.error);
  const bytes = (key: string) => {
    const object = storage.get(key);
    if (!object) throw new Error(`nothing stored at ${key}`);
    return object.bytes;
  };
  return {
    assets: r.assets,
    bytes,
    text: (key) => new TextDecoder().decode(bytes(key)),
    keys: storage.keys(),
  };
}

type AsepriteFrame = {
  filename: string;
  frame: { x: number; y: number; w: number; h: number };
  duration: number;
};
type AsepriteSheet = {
  frames: AsepriteFrame[];
  meta: {
    image: string;
    size: { w: number; h: number };
    frameTags: Array<{ name: string; from: number; to: number; direction: string }>;
  };
};

function readAseprite(g: Generated, asset: PipelineAsset): AsepriteSheet {
  const data = JSON.parse(g.text(asset.metadata.atlas!.aseprite!));
  const valid = validateAseprite(data);
  expect(validateAseprite.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  return data as AsepriteSheet;
}

describe('Aseprite JSON', () => {
  it('follows Aseprite’s exporter: frames array, a tag per direction, per-frame durations, meta.size/image', async () => {
    const g = await generate(32, 4, 3, { frameDurations: [80, 240, 120], loop: 'pingpong' });
    const [asset] = g.assets;
    const sheet = readAseprite(g, asset!);
    const png = decodePng(g.bytes(asset!.key));
    if (!png.ok) throw new Error('the sheet is not a PNG');
    expect(sheet.meta.image).toBe('animation.png');
    expect(sheet.meta.size).toEqual({ w: png.image.width, h: png.image.height });
    expect(sheet.frames).toHaveLength(12);
    expect(sheet.frames.map((f) => f.duration)).toEqual([
      80, 240, 120, 80, 240, 120, 80, 240, 120, 80, 240, 120,
    ]);
    expect(sheet.meta.frameTags.map((t) => t.name)).toEqual(asset!.metadata.animations);
    sheet.meta.frameTags.forEach((tag, d) => {
      expect(tag).toEqual({ name: tag.name, from: d * 3, to: d * 3 + 2, direction: 'pingpong' });
      for (let i = tag.from; i <= tag.to; i++)
        expect(sheet.frames[i]!.filename.startsWith(`${tag.name}_`)).toBe(true);
    });
    for (const f of sheet.frames) {
      expect(f.frame.x + f.frame.w).toBeLessThanOrEqual(png.image.width);
      expect(f.frame.y + f.frame.h).toBeLessThanOrEqual(png.image.height);
    }
  });

  it('writes 1000/fps ms per frame and the loop as the tags’ direction', async () => {
    const g = await generate(16, 1, 4, { fps: 12, loop: 'reverse' });
    const sheet = readAseprite(g, g.assets[0]!);
    expect(sheet.frames.map((f) => f.duration)).toEqual([83, 83, 83, 83]);
    expect(sheet.meta.frameTags).toEqual([
      { name: expect.any(String), from: 0, to: 3, direction: 'reverse' },
    ]);
  });

  it('the schema rejects what Aseprite would never write', () => {
    const good = {
      frames: [
        {
          filename: 'a 0.aseprite',
          frame: { x: 0, y: 0, w: 8, h: 8 },
          rotated: false,
          trimmed: false,
          spriteSourceSize: { x: 0, y: 0, w: 8, h: 8 },
          sourceSize: { w: 8, h: 8 },
          duration: 100,
        },
      ],
      meta: {
        app: 'https://www.aseprite.org/',
        version: '1.3.15',
        image: 'a.png',
        format: 'RGBA8888',
        size: { w: 8, h: 8 },
        scale: '1',
        frameTags: [{ name: 'idle', from: 0, to: 0, direction: 'pingpong' }],
      },
    };
    expect(validateAseprite(good)).toBe(true);
    const bad = structuredClone(good);
    bad.meta.frameTags[0]!.direction = 'yoyo';
    expect(validateAseprite(bad)).toBe(false);
    const noDuration = structuredClone(good) as { frames: Array<Record<string, unknown>> };
    delete noDuration.frames[0]!.duration;
    expect(validateAseprite(noDuration)).toBe(false);
  });
});

describe('sheets past 4096 px', () => {
  it('wrap onto pages: every page within 4096 px, every format names its page, a direction never split', async () => {
    // 8 directions × 2 frames of 600 px: 1200 × 4800 on one sheet → 6 directions on page 0, 2 on page 1
    const g = await generate(600, 8, 2, { frameDurations: [100, 300], loop: 'pingpong' });
    expect(g.assets.map((a) => a.key)).toEqual(['p/t/animation-0.png', 'p/t/animation-1.png']);
    expect(g.assets.map((a) => [a.width, a.height])).toEqual([
      [1200, 3600],
      [1200, 1200],
    ]);
    const tagged: string[] = [];
    for (const [page, asset] of g.assets.entries()) {
      expect(asset.metadata).toMatchObject({ page, pageCount: 2 });
      const png = decodePng(g.bytes(asset.key));
      if (!png.ok) throw new Error('not a PNG');
      expect([png.image.width, png.image.height]).toEqual([asset.width, asset.height]);
      expect(Math.max(png.image.width, png.image.height)).toBeLessThanOrEqual(4096);
      // every frame cell holds a drawing (no page left empty or half-filled)
      const sheet = readAseprite(g, asset);
      expect(sheet.meta.image).toBe(`animation-${page}.png`);
      for (const f of sheet.frames) {
        let opaque = 0;
        for (let y = f.frame.y; y < f.frame.y + f.frame.h; y += 4)
          for (let x = f.frame.x; x < f.frame.x + f.frame.w; x += 4)
            if (png.image.data[(y * png.image.width + x) * 4 + 3]! > 0) opaque++;
        expect(opaque, `${f.filename} on page ${page} is empty`).toBeGreaterThan(0);
      }
      for (const tag of sheet.meta.frameTags) {
        expect(tag.to - tag.from).toBe(1);
        tagged.push(tag.name);
      }
      expect(sheet.frames.map((f) => f.duration)).toEqual(sheet.frames.map((_, i) => (i % 2 ? 300 : 100)));
    }
    expect(tagged).toEqual(g.assets[0]!.metadata.animations);
    expect(g.assets[0]!.metadata.animations).toHaveLength(8);

    // TexturePacker multipack: each page names the others; PixiJS parses every page
    const pageJson = g.assets.map((a) => JSON.parse(g.text(a.metadata.atlas!.texturePacker!)));
    expect(pageJson[0].meta.related_multi_packs).toEqual(['animation-1.json']);
    expect(pageJson[1].meta.related_multi_packs).toEqual(['animation-0.json']);
    let textures = 0;
    for (const [page, data] of pageJson.entries()) {
      const asset = g.assets[page]!;
      const source = new pixi.TextureSource({
        width: asset.width,
        height: asset.height,
        resource: null as never,
      });
      const sheet = new pixi.Spritesheet(new pixi.Texture({ source }), data);
      await sheet.parse();
      textures += Object.keys(sheet.textures).length;
      // pingpong of 2 frames plays 0,1,0,1…: the list is the frames once
      for (const frames of Object.values(sheet.animations)) expect(frames).toHaveLength(2);
    }
    expect(textures).toBe(16);

    // Godot: one SpriteFrames over both pages
    const tres = g.text(g.assets[0]!.metadata.atlas!.godot!);
    expect(tres.match(/^\[ext_resource type="Texture2D" path="res:\/\/animation-\d\.png"/gm)).toHaveLength(2);
    expect(tres.match(/atlas = ExtResource\("2_tex"\)/g)).toHaveLength(4);
    // Phaser multi-atlas: one texture entry per page
    const phaser = JSON.parse(g.text(g.assets[0]!.metadata.atlas!.phaser!));
    expect(phaser.textures.map((t: { image: string }) => t.image)).toEqual([
      'animation-0.png',
      'animation-1.png',
    ]);
    expect(phaser.textures.map((t: { frames: unknown[] }) => t.frames.length)).toEqual([12, 4]);
  });

  it('a sheet wider than 4096 px wraps a direction onto more rows of the same page', async () => {
    // 1 direction × 16 frames of 272 px = 4352 px wide → 15 columns, 2 rows
    const g = await generate(272, 1, 16);
    expect(g.assets).toHaveLength(1);
    const [asset] = g.assets;
    expect([asset!.width, asset!.height]).toEqual([15 * 272, 2 * 272]);
    expect(asset!.metadata.page).toBeUndefined();
    const sheet = readAseprite(g, asset!);
    expect(sheet.frames[15]!.frame).toEqual({ x: 0, y: 272, w: 272, h: 272 });
    expect(sheet.meta.frameTags).toEqual([
      { name: expect.any(String), from: 0, to: 15, direction: 'forward' },
    ]);
  });
});

describe('Unity .meta', () => {
  it('is a TextureImporter in sprite mode Multiple whose rects (from the bottom-left) cover the frames', async () => {
    const g = await generate(32, 4, 3);
    const [asset] = g.assets;
    const meta = parseYaml(g.text(asset!.metadata.atlas!.unity!));
    expect(asset!.metadata.atlas!.unity).toBe(`${asset!.key}.meta`);
    expect(meta.fileFormatVersion).toBe(2);
    expect(meta.guid).toMatch(/^[0-9a-f]{32}$/);
    const ti = meta.TextureImporter;
    expect(ti).toMatchObject({
      textureType: 8, // Sprite (2D and UI)
      spriteMode: 2, // Multiple
      textureSettings: { filterMode: 0 }, // Point: pixel art stays crisp
      nPOTScale: 0,
      alphaIsTransparency: 1,
      spritePixelsToUnits: 32,
    });
    expect(ti.maxTextureSize).toBeGreaterThanOrEqual(Math.max(asset!.width, asset!.height));
    for (const p of ti.platformSettings) expect(p.maxTextureSize).toBeGreaterThanOrEqual(asset!.width);
    const sprites = ti.spriteSheet.sprites as Array<{
      name: string;
      rect: { x: number; y: number; width: number; height: number };
      internalID: number;
      spriteID: string;
    }>;
    expect(sprites).toHaveLength(12);
    const aseprite = readAseprite(g, asset!);
    sprites.forEach((s, i) => {
      const f = aseprite.frames[i]!;
      expect(s.name).toBe(f.filename);
      // Unity measures y from the bottom edge of the texture
      expect(s.rect).toEqual({
        serializedVersion: 2,
        x: f.frame.x,
        y: asset!.height - f.frame.y - f.frame.h,
        width: 32,
        height: 32,
      });
      expect(s.spriteID).toMatch(/^[0-9a-f]{32}$/);
    });
    expect(new Set(sprites.map((s) => s.name)).size).toBe(12);
    expect(new Set(sprites.map((s) => String(s.internalID))).size).toBe(12);
    // nameFileIdTable maps every sprite name to its internalID
    const table = ti.spriteSheet.nameFileIdTable as Record<string, number>;
    expect(Object.keys(table)).toEqual(sprites.map((s) => s.name));
    for (const s of sprites) expect(String(table[s.name])).toBe(String(s.internalID));
    // the same file gets the same guid (Unity keeps references across re-imports)
    const again = await generate(32, 4, 3);
    expect(parseYaml(again.text(again.assets[0]!.metadata.atlas!.unity!)).guid).toBe(meta.guid);
  });
});

describe('Godot SpriteFrames and TexturePacker carry the playback', () => {
  it('pingpong is written as the played sequence; durations relative to the speed', async () => {
    const g = await generate(16, 1, 4, { fps: 10, frameDurations: [100, 200, 100, 400], loop: 'pingpong' });
    const tres = g.text(g.assets[0]!.metadata.atlas!.godot!);
    const animations = /^animations = (.*)$/ms.exec(tres)![1]!;
    const parsed = JSON.parse(
      animations.replace(/&"/g, '"').replace(/(Sub|Ext)Resource\("([^"]+)"\)/g, '"$1:$2"'),
    ) as Array<{ speed: number; loop: boolean; frames: Array<{ duration: number; texture: string }> }>;
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.speed).toBe(10);
    expect(parsed[0]!.loop).toBe(true);
    // 0,1,2,3,2,1 — a frame of d ms lasts d × speed / 1000
    expect(parsed[0]!.frames.map((f) => f.texture)).toEqual(
      [0, 1, 2, 3, 2, 1].map((i) => `Sub:AtlasTexture_${i}`),
    );
    expect(parsed[0]!.frames.map((f) => f.duration)).toEqual([1, 2, 1, 4, 1, 2]);
    const tp = JSON.parse(g.text(g.assets[0]!.metadata.atlas!.texturePacker!));
    const names = Object.keys(tp.frames);
    expect(Object.values(tp.animations)[0]).toEqual([0, 1, 2, 3, 2, 1].map((i) => names[i]));
    expect(names.map((n) => tp.frames[n].duration)).toEqual([100, 200, 100, 400]);
  });
});

describe('individual frames', () => {
  it('get the playback in their Godot SpriteFrames', async () => {
    const storage = createMemoryStorage();
    const r = await runPipeline(
      {
        prompt: 'a walking knight',
        assetType: 'animation',
        projectStyle: {},
        params: {
          resolution: 16,
          frames: { directions: 1, framesPerDirection: 3 },
          format: 'individual',
          animation: { fps: 5, frameDurations: [200, 400, 600], loop: 'reverse' },
        },
        keyPrefix: 'i/',
      },
      { storage },
    );
    if (!r.ok) throw new Error(r.error);
    expect(r.assets).toHaveLength(3);
    const tres = new TextDecoder().decode(storage.get(r.assets[0]!.metadata.atlas!.godot!)!.bytes);
    const animations = JSON.parse(
      /^animations = (.*)$/ms
        .exec(tres)![1]!
        .replace(/&"/g, '"')
        .replace(/ExtResource\("([^"]+)"\)/g, '"$1"'),
    ) as Array<{ speed: number; frames: Array<{ duration: number; texture: string }> }>;
    expect(animations[0]!.speed).toBe(5);
    // reverse: frame 2, 1, 0 — each d × fps / 1000
    expect(animations[0]!.frames).toEqual([
      { duration: 3, texture: '3_tex' },
      { duration: 2, texture: '2_tex' },
      { duration: 1, texture: '1_tex' },
    ]);
  });
});

describe('the pipeline’s own request check', () => {
  const request = (animation: unknown, framesPerDirection = 4) => ({
    prompt: 'a knight',
    assetType: 'animation',
    projectStyle: {},
    params: {
      resolution: 32,
      frames: { directions: 4, framesPerDirection },
      format: 'spritesheet',
      animation,
    },
    keyPrefix: 'p/',
  });
  it('names each bad playback option', () => {
    expect(validateRequest(request({ fps: 0 }))).toEqual([
      'params.animation.fps must be an integer from 1 to 60',
    ]);
    expect(validateRequest(request({ loop: 'yoyo' }))).toEqual([
      'params.animation.loop must be forward, reverse, pingpong',
    ]);
    expect(validateRequest(request({ frameDurations: [100, 100] }))).toEqual([
      'params.animation.frameDurations must have one entry per frame of a direction (4), not 2',
    ]);
    expect(validateRequest(request({ frameDurations: [100, 0, 100, 100] }))).toHaveLength(1);
    expect(validateRequest(request({ speed: 2 }))).toEqual(['params.animation.speed is not known']);
    expect(validateRequest(request({ fps: 24, loop: 'pingpong', frameDurations: [1, 2, 3, 4] }))).toEqual([]);
  });
  it('a run with bad options fails as invalid_request, writing nothing', async () => {
    const storage = createMemoryStorage();
    const r = await runPipeline(request({ frameDurations: [100] }) as never, { storage });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe('invalid_request');
    expect(storage.keys()).toEqual([]);
  });
});
