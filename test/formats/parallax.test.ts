import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import type { AssetClient } from '@assetloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTarget, mockTarget, serverTarget } from '../contract/targets.js';

/**
 * Layered backgrounds (issue #28) through the API, on the msw mock and on the reference server: a
 * background asked for `format: individual` comes with its depth layers as PNGs, a Godot scene of
 * Parallax2D nodes and a JSON of the scroll factors. The scene is read by godot-parser (a
 * third-party reader of Godot's format, in .tools/venv from scripts/python-tools.sh): every node's
 * texture resolves to a layer file that downloads, back to front in the order of the factors, and the
 * layers laid over each other are the flattened picture, pixel for pixel.
 */
const PYTHON = resolve(import.meta.dirname, '../../.tools/venv/bin/python');
const READER = resolve(import.meta.dirname, 'godot_scene.py');
if (!existsSync(PYTHON) && process.env.CI)
  throw new Error('.tools/venv is missing: run bash scripts/python-tools.sh (bootstrap.sh --test does)');

interface SceneNode {
  name: string;
  type: string;
  parent?: string;
  properties: Record<string, unknown>;
}

describe.each([
  ['mock', mockTarget],
  ['server', serverTarget],
] as const)('layered backgrounds on the %s', (_name, factory) => {
  let target: ContractTarget;
  let api: AssetClient;
  let projectId: string;

  beforeAll(async () => {
    target = await factory();
    api = target.client();
    const username = `parallax_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const reg = await api.POST('/auth/register', { body: { username, password: 'parallax-pass-1' } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: 'parallax-pass-1' });
    if (login.error) throw login.error;
    const created = await api.POST('/api/v1/projects', { body: { name: 'Parallax' } });
    if (created.error) throw created.error;
    projectId = created.data.id;
  }, 60_000);
  afterAll(() => target?.stop());

  const generate = async (prompt: string, format: 'spritesheet' | 'individual') => {
    const submitted = await api.generate({
      projectId,
      prompt,
      assetType: 'background',
      params: { width: 320, height: 180, format },
    });
    if (submitted.error) throw submitted.error;
    const done = await api.waitForTask(submitted.data.taskId, {
      transport: 'poll',
      pollIntervalMs: 20,
      timeoutMs: 60_000,
    });
    if (done.error) throw done.error;
    expect(done.data.status).toBe('completed');
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', {
      params: { path: { taskId: submitted.data.taskId } },
    });
    if (listed.error) throw listed.error;
    return listed.data.assets;
  };
  const bytes = async (key: string) => {
    const file = await api.downloadAsset(key);
    if (file.error) throw file.error;
    return file.data.bytes;
  };

  it('the default is one flattened picture', async () => {
    const assets = await generate('a harbour with boats at sunset', 'spritesheet');
    expect(assets).toHaveLength(1);
    expect(assets[0]).toMatchObject({ width: 320, height: 180 });
    expect(assets[0]!.metadata.atlas).toBeUndefined();
  }, 60_000);

  it('individual: the layers, a Godot parallax scene and a JSON that agree, and add up to the picture', async () => {
    const assets = await generate('a harbour with boats at sunset', 'individual');
    const name = (key: string) => key.slice(key.lastIndexOf('/') + 1);
    const picture = assets.find((a) => name(a.key) === 'background.png');
    // the layer files, back to front by their index
    const layers = assets
      .filter((a) => a.metadata.layer)
      .sort((a, b) => a.metadata.layer!.index - b.metadata.layer!.index);
    expect(layers.length).toBe(assets.length - 1);
    expect(layers.length).toBeGreaterThanOrEqual(4);
    const atlas = picture!.metadata.atlas!;
    expect(name(atlas.godot!)).toBe('background.tscn');
    expect(name(atlas.parallax!)).toBe('background.parallax.json');

    // the JSON: the layers back to front, their factors rising from the sky's to the ground's
    const json = JSON.parse(new TextDecoder().decode(await bytes(atlas.parallax!)));
    expect(json).toMatchObject({ width: 320, height: 180, repeatX: false });
    expect(json.layers.map((l: { image: string }) => l.image)).toEqual(layers.map((l) => name(l.key)));
    const factors = json.layers.map((l: { scrollFactor: number }) => l.scrollFactor);
    expect(factors).toEqual([...factors].sort((a, b) => a - b));
    expect(factors[0]).toBeLessThan(0.2);
    expect(factors.at(-1)).toBe(1);

    // the Godot scene as godot-parser reads it: one Parallax2D per layer, each with a Sprite2D whose
    // texture is that layer's file, at that layer's factor
    const dir = mkdtempSync(join(tmpdir(), 'assetloom-parallax-'));
    try {
      const scenePath = join(dir, 'background.tscn');
      writeFileSync(scenePath, await bytes(atlas.godot!));
      const read = JSON.parse(execFileSync(PYTHON, [READER, scenePath], { encoding: 'utf8' })) as {
        header: { load_steps: number; format: number };
        nodes: SceneNode[];
      };
      expect(read.header).toEqual({ load_steps: layers.length + 1, format: 3 });
      const parallax = read.nodes.filter((n) => n.type === 'Parallax2D');
      expect(parallax.map((n) => n.properties.scroll_scale)).toEqual(factors.map((f: number) => [f, f]));
      for (const [i, node] of parallax.entries()) {
        const sprite = read.nodes.find((n) => n.type === 'Sprite2D' && n.parent === node.name)!;
        expect(sprite.properties.texture).toEqual({
          ext: expect.objectContaining({ type: 'Texture2D', path: `res://${name(layers[i]!.key)}` }),
        });
        expect(sprite.properties.centered).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // the layers, each the whole canvas, laid back to front, are the picture
    const image = async (key: string) => {
      const decoded = decodePng(await bytes(key));
      if (!decoded.ok) throw new Error(`${key}: ${decoded.error}`);
      return decoded.image;
    };
    const flat = await image(picture!.key);
    const stack = new Uint8Array(320 * 180 * 4);
    for (const [i, layer] of layers.entries()) {
      expect(layer.metadata.layer).toEqual({ name: json.layers[i].name, scroll: factors[i], index: i });
      const png = await image(layer.key);
      expect([png.width, png.height]).toEqual([320, 180]);
      for (let p = 0; p < png.data.length; p += 4)
        if (png.data[p + 3]) stack.set(png.data.subarray(p, p + 4), p);
    }
    expect(Buffer.from(stack).equals(Buffer.from(flat.data))).toBe(true);
  }, 60_000);
});
