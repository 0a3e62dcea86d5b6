import { createMemoryStorage, decodePng, type PipelineAsset } from '@assetloom/pipeline';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../src/index.js';

// PixiJS 8 reads `navigator` while its modules load; Node 20 has none. Parsing needs no GPU.
(globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'node' };
let pixi: typeof import('pixi.js');
beforeAll(async () => {
  pixi = await import('pixi.js');
});

async function generate(directions: 1 | 4 | 8, framesPerDirection: number) {
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt: 'a green slime',
      assetType: 'animation',
      projectStyle: {},
      params: { resolution: 32, frames: { directions, framesPerDirection }, format: 'spritesheet' },
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!r.ok) throw new Error(r.error);
  const asset = r.assets[0] as PipelineAsset;
  const text = (key: string) => new TextDecoder().decode(storage.get(key)!.bytes);
  return {
    storage,
    asset,
    json: text(asset.metadata.atlas!.texturePacker!),
    tres: text(asset.metadata.atlas!.godot!),
  };
}

describe('TexturePacker JSON hash', () => {
  it.each([
    [4, 4],
    [8, 3],
    [1, 1],
  ] as const)('is parsed by PixiJS Spritesheet (%i directions × %i frames)', async (directions, fpd) => {
    const { asset, json, storage } = await generate(directions, fpd);
    const data = JSON.parse(json);
    const png = decodePng(storage.get(asset.key)!.bytes);
    expect(png.ok).toBe(true);
    if (!png.ok) return;
    expect(data.meta).toMatchObject({
      image: 'animation.png',
      size: { w: png.image.width, h: png.image.height },
    });
    const source = new pixi.TextureSource({
      width: png.image.width,
      height: png.image.height,
      resource: null as never,
    });
    const sheet = new pixi.Spritesheet(new pixi.Texture({ source }), data);
    await sheet.parse();
    expect(Object.keys(sheet.textures)).toHaveLength(directions * fpd);
    expect(Object.keys(sheet.animations)).toEqual(asset.metadata.animations);
    for (const frames of Object.values(sheet.animations)) expect(frames).toHaveLength(fpd);
    // rows are directions, columns are frames
    const names = Object.keys(data.frames);
    const last = sheet.textures[names.at(-1)!]!;
    expect([last.frame.x, last.frame.y, last.frame.width, last.frame.height]).toEqual([
      (fpd - 1) * 32,
      (directions - 1) * 32,
      32,
      32,
    ]);
    // the same checks Phaser's JSONHash parser relies on: every frame has frame/trimmed/sourceSize/spriteSourceSize
    for (const f of Object.values<Record<string, unknown>>(data.frames)) {
      expect(f).toMatchObject({ rotated: false, trimmed: false });
      expect(f.frame).toMatchObject({ w: 32, h: 32 });
      expect(f.sourceSize).toEqual({ w: 32, h: 32 });
      expect(f.spriteSourceSize).toEqual({ x: 0, y: 0, w: 32, h: 32 });
    }
  });
});

/** A parser for Godot's text resource format, enough for SpriteFrames files. */
function parseTres(text: string) {
  const sections: Array<{ tag: string; attrs: Record<string, string>; props: Record<string, string> }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^\[(\w+)((?:\s+\w+=(?:"[^"]*"|\S+?))*)\]$/.exec(line);
    if (header) {
      const attrs: Record<string, string> = {};
      for (const m of header[2]!.matchAll(/(\w+)=("([^"]*)"|(\S+))/g)) attrs[m[1]!] = m[3] ?? m[4]!;
      sections.push({ tag: header[1]!, attrs, props: {} });
      continue;
    }
    const prop = /^(\w+) = (.*)$/.exec(line);
    if (prop) {
      let value = prop[2]!;
      // values such as arrays span lines until brackets balance
      let depth = (value.match(/[[{]/g) ?? []).length - (value.match(/[\]}]/g) ?? []).length;
      while (depth > 0 && i + 1 < lines.length) {
        const next = lines[++i]!;
        value += `\n${next}`;
        depth += (next.match(/[[{]/g) ?? []).length - (next.match(/[\]}]/g) ?? []).length;
      }
      const current = sections.at(-1);
      if (!current) throw new Error(`property before any section: ${line}`);
      current.props[prop[1]!] = value;
    } else if (line.trim() !== '') {
      throw new Error(`unexpected line ${i + 1}: ${line}`);
    }
  }
  return sections;
}

describe('Godot SpriteFrames .tres', () => {
  it('is a well-formed SpriteFrames resource whose regions cover the sheet', async () => {
    const { tres, asset } = await generate(4, 3);
    const sections = parseTres(tres);
    const head = sections[0]!;
    expect(head).toMatchObject({ tag: 'gd_resource', attrs: { type: 'SpriteFrames', format: '3' } });
    const ext = sections.filter((s) => s.tag === 'ext_resource');
    const subs = sections.filter((s) => s.tag === 'sub_resource');
    expect(Number(head.attrs.load_steps)).toBe(ext.length + subs.length + 1);
    expect(ext).toHaveLength(1);
    expect(ext[0]!.attrs).toMatchObject({ type: 'Texture2D', path: 'res://animation.png' });
    expect(subs).toHaveLength(12);
    const regions = subs.map((s) => {
      expect(s.attrs.type).toBe('AtlasTexture');
      expect(s.props.atlas).toBe(`ExtResource("${ext[0]!.attrs.id}")`);
      const m = /^Rect2\((\d+), (\d+), (\d+), (\d+)\)$/.exec(s.props.region!);
      expect(m).not.toBeNull();
      return m!.slice(1).map(Number);
    });
    for (const [x, y, w, h] of regions) {
      expect(x! + w!).toBeLessThanOrEqual(asset.width);
      expect(y! + h!).toBeLessThanOrEqual(asset.height);
    }
    const resource = sections.find((s) => s.tag === 'resource')!;
    const asJson = resource.props
      .animations!.replace(/&"/g, '"')
      .replace(/(Sub|Ext)Resource\("([^"]+)"\)/g, '"$1:$2"');
    const animations = JSON.parse(asJson) as Array<{
      name: string;
      loop: boolean;
      speed: number;
      frames: Array<{ texture: string; duration: number }>;
    }>;
    expect(animations.map((a) => a.name)).toEqual(asset.metadata.animations);
    const ids = new Set(subs.map((s) => `Sub:${s.attrs.id}`));
    for (const a of animations) {
      expect(a.frames).toHaveLength(3);
      expect(a.speed).toBeGreaterThan(0);
      for (const f of a.frames) expect(ids.has(f.texture)).toBe(true);
    }
  });
});
