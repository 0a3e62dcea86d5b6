import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodePng, type RgbaImage } from '@assetloom/pipeline';
import { DIRECTION_NAMES } from '@assetloom/pipeline/pixel';
import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import {
  AnimationState,
  AnimationStateData,
  AtlasAttachmentLoader,
  Physics,
  Skeleton,
  SkeletonJson,
  TextureAtlas,
} from '@esotericsoftware/spine-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, uniqueName } from './helpers.js';

/**
 * A kept character's tasks drawn from its stored rig identity (issue #40, decision 0055), end to end
 * over a real server on 127.0.0.1: the rig files of an animate task downloaded through the API and
 * read by Spine's own runtime and godot-parser, and two tasks of one character sharing its identity.
 */
const DIRS8 = [...DIRECTION_NAMES[8]];
const DIRS4 = [...DIRECTION_NAMES[4]];

interface SheetMeta {
  atlas: Record<string, string>;
  anchor: { x: number; y: number };
  animations: string[];
}

/** The distinct opaque colours of a picture. */
function coloursOf(image: RgbaImage): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < image.data.length; i += 4)
    if (image.data[i + 3]) out.add((image.data[i]! << 16) | (image.data[i + 1]! << 8) | image.data[i + 2]!);
  return out;
}

/** Cell (column, row) of a sheet of `size` frames, as RGBA bytes. */
function cell(image: RgbaImage, column: number, row: number, size: number): Buffer {
  const out = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    const from = ((row * size + y) * image.width + column * size) * 4;
    out.set(image.data.subarray(from, from + size * 4), y * size * 4);
  }
  return out;
}

describe('a kept character on the built-in rig, through the real server', () => {
  let server: TestServer;
  let api: AssetClient<true>;
  let projectId: string;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' });
    api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    const username = uniqueName('rig');
    await api.POST('/auth/register', { body: { username, password: 'secret-pass' } });
    await api.login({ username, password: 'secret-pass' });
    projectId = (await api.POST('/api/v1/projects', { body: { name: 'Heroes' } })).id;
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const bytes = async (key: string) => (await api.downloadAsset(key)).bytes;
  const text = async (key: string) => new TextDecoder().decode(await bytes(key));
  const png = async (key: string) => {
    const got = decodePng(await bytes(key));
    if (!got.ok) throw new Error(got.error);
    return got.image;
  };
  async function finished(taskId: string) {
    const task = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 50, timeoutMs: 120_000 });
    expect(task.status, String(task.error)).toBe('completed');
    const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    const sheet = assets.find((a) => a.format === 'png')!;
    return { task, sheet, meta: sheet.metadata as unknown as SheetMeta, image: await png(sheet.key) };
  }
  async function animate(characterId: string, action: string, directions: 4 | 8, framesPerDirection = 6) {
    const { taskId } = await api.POST('/api/v1/characters/{characterId}/animate', {
      params: { path: { characterId } },
      body: { action, directions, framesPerDirection },
    });
    return finished(taskId);
  }
  /** Spine 4.2's runtime loads a task's downloaded skeleton over its atlas and part images. */
  async function spineOf(meta: SheetMeta) {
    const atlas = new TextureAtlas(await text(meta.atlas.spineAtlas!));
    const page = await png(meta.atlas.spineImage!);
    expect(atlas.pages[0]!.name).toBe(meta.atlas.spineImage!.split('/').pop());
    expect([atlas.pages[0]!.width, atlas.pages[0]!.height]).toEqual([page.width, page.height]);
    return new SkeletonJson(new AtlasAttachmentLoader(atlas)).readSkeletonData(await text(meta.atlas.spine!));
  }
  /** godot-parser reads a task's SpriteFrames: each animation's name and frame count, and the anchor. */
  async function godotOf(meta: SheetMeta): Promise<{ anims: Array<[string, number]>; anchor: number[] }> {
    const python = resolve(import.meta.dirname, '../../.tools/venv/bin/python');
    if (!existsSync(python)) throw new Error('.tools/venv is missing: run bash scripts/python-tools.sh');
    const dir = mkdtempSync(join(tmpdir(), 'rig-task-'));
    try {
      writeFileSync(join(dir, 'frames.tres'), await bytes(meta.atlas.godot!));
      const read = execFileSync(
        python,
        [
          '-c',
          [
            'import json, sys',
            'from godot_parser import GDResource',
            // godot-parser 0.1.7 predates Godot 4's StringName literal (&"walk"): read as a string
            "r = GDResource.parse(open(sys.argv[1]).read().replace('&\"', '\"'))",
            'res = r.get_sections()[-1]',
            'v = res["metadata/anchor"]',
            'print(json.dumps({"anims": [[a["name"], len(a["frames"])] for a in res["animations"]], "anchor": [v.x, v.y]}))',
          ].join('\n'),
          join(dir, 'frames.tres'),
        ],
        { encoding: 'utf8' },
      );
      return JSON.parse(read);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  async function character(prompt: string, seed: number) {
    return api.POST('/api/v1/projects/{projectId}/characters', {
      params: { path: { projectId } },
      body: { name: prompt, prompt, size: 32, seed },
    });
  }

  it("an animate task's outputs carry the action's rig: Spine's runtime plays it, godot-parser reads the sheet, one anchor at the feet", async () => {
    const knight = await character('a knight with a red cape', 7);
    expect(knight.identity.rig).toMatchObject({ rig: 'figure', version: 1 });
    const { task, sheet, meta, image } = await animate(knight.id, 'cast', 8);
    // the task carries the identity and the action (its prompt's words only label it)
    expect(task.prompt).toBe('a knight with a red cape, casting');
    expect(task.params.character).toEqual({
      characterId: knight.id,
      action: 'cast',
      identity: knight.identity.rig,
    });
    expect([image.width, image.height]).toEqual([6 * 32, 8 * 32]);
    expect(meta.animations).toEqual(DIRS8.map((d) => `cast_${d}`));
    for (const role of ['spine', 'spineAtlas', 'spineImage', 'dragonBones', 'dragonBonesAtlas', 'godot'])
      expect(meta.atlas[role], role).toMatch(new RegExp(`^projects/${projectId}/tasks/${task.taskId}/`));
    // the feet: low in the frame, near its middle
    expect(meta.anchor.y).toBeGreaterThan(32 * 0.8);
    expect(Math.abs(meta.anchor.x - 16)).toBeLessThan(4);

    // Spine 4.2's runtime loads the downloaded skeleton over its atlas and plays every direction
    const data = await spineOf(meta);
    expect(data.animations.map((a) => a.name).sort()).toEqual(DIRS8.map((d) => `cast_${d}`).sort());
    const sk = new Skeleton(data);
    const state = new AnimationState(new AnimationStateData(data));
    for (const anim of data.animations) {
      state.setAnimation(0, anim.name, false);
      state.update(1 / 16);
      const hands = new Set<string>();
      for (let f = 0; f < 6; f++) {
        state.apply(sk);
        sk.updateWorldTransform(Physics.update);
        // the rig's root is the anchor at the feet in every frame
        expect([sk.findBone('root')!.worldX, sk.findBone('root')!.worldY]).toEqual([0, 0]);
        const hand = sk.findBone('hand_r')!;
        hands.add(`${Math.round(hand.worldX)},${Math.round(hand.worldY)}`);
        state.update(1 / 8);
      }
      expect(hands.size, `${anim.name} moves the casting hand`).toBeGreaterThan(1);
    }
    // DragonBones: the same bones, one animation per direction, its atlas over the same PNG
    const ske = JSON.parse(await text(meta.atlas.dragonBones!));
    const tex = JSON.parse(await text(meta.atlas.dragonBonesAtlas!));
    expect(ske.armature[0].animation.map((a: { name: string }) => a.name).sort()).toEqual(
      DIRS8.map((d) => `cast_${d}`).sort(),
    );
    expect(tex.imagePath).toBe(meta.atlas.spineImage!.split('/').pop());

    // godot-parser reads the sheet's SpriteFrames: an animation per direction, the anchor the same
    const godot = await godotOf(meta);
    expect(godot.anims).toEqual(DIRS8.map((d) => [`cast_${d}`, 6]));
    expect(godot.anchor).toEqual([meta.anchor.x, meta.anchor.y]);
    const tp = JSON.parse(await text(meta.atlas.texturePacker!));
    for (const frame of Object.values(tp.frames as Record<string, { pivot: { x: number; y: number } }>))
      expect([frame.pivot.x * 32, frame.pivot.y * 32]).toEqual([meta.anchor.x, meta.anchor.y]);
    expect(await text(meta.atlas.unity!)).toContain(
      `pivot: {x: ${meta.anchor.x / 32}, y: ${1 - meta.anchor.y / 32}}`,
    );
    expect(sheet.key.endsWith('/animation.png')).toBe(true);
  });

  it('two tasks of one character (walk, attack, a turn) draw one identity; another character is another drawing', async () => {
    const hero = await character('a knight with a red cape', 21);
    const walk = await animate(hero.id, 'walk', 4);
    const attack = await animate(hero.id, 'attack', 4);
    const idle = await animate(hero.id, 'idle', 4);
    const turned = await api.POST('/api/v1/characters/{characterId}/rotate', {
      params: { path: { characterId: hero.id } },
      body: { directions: 4 },
    });
    const views = await finished(turned.taskId);
    // every task carries the same identity, the character's
    for (const t of [walk, attack, idle, views])
      expect(t.task.params.character?.identity).toEqual(hero.identity.rig);
    expect(views.task.params.character?.action).toBe('idle');
    // a turn carries the rig as an animate does (decision 0057): Spine's runtime poses it in each
    // direction with the root on the anchor, DragonBones names the same, godot-parser reads the sheet
    for (const role of ['spine', 'spineAtlas', 'spineImage', 'dragonBones', 'dragonBonesAtlas'])
      expect(views.meta.atlas[role], role).toMatch(
        new RegExp(`^projects/${projectId}/tasks/${views.task.taskId}/sprite-rig`),
      );
    const turnRig = await spineOf(views.meta);
    expect(turnRig.animations.map((a) => a.name).sort()).toEqual(DIRS4.map((d) => `idle_${d}`).sort());
    const pose = new Skeleton(turnRig);
    const posing = new AnimationState(new AnimationStateData(turnRig));
    for (const anim of turnRig.animations) {
      posing.setAnimation(0, anim.name, false);
      posing.apply(pose);
      pose.updateWorldTransform(Physics.update);
      expect([pose.findBone('root')!.worldX, pose.findBone('root')!.worldY], anim.name).toEqual([0, 0]);
      expect(pose.findBone('head')!.worldY, `${anim.name}: the head above the feet`).toBeGreaterThan(0);
    }
    const turnSke = JSON.parse(await text(views.meta.atlas.dragonBones!));
    expect(turnSke.armature[0].animation.map((a: { name: string }) => a.name).sort()).toEqual(
      DIRS4.map((d) => `idle_${d}`).sort(),
    );
    const turnGodot = await godotOf(views.meta);
    expect(turnGodot.anims.map(([name, frames]) => [name, frames])).toEqual(
      DIRS4.map((d) => [`idle_${d}`, 1]),
    );
    expect(turnGodot.anchor).toEqual([views.meta.anchor.x, views.meta.anchor.y]);
    // one palette: each action's colours are the character's (walk's, idle's and its views' together)
    const walkColours = coloursOf(walk.image);
    const attackColours = coloursOf(attack.image);
    const own = new Set([...walkColours, ...coloursOf(idle.image), ...coloursOf(views.image)]);
    expect([...attackColours].filter((c) => !own.has(c))).toEqual([]);
    expect([...walkColours].filter((c) => !attackColours.has(c) && !own.has(c))).toEqual([]);
    // one body: each direction's first idle frame is the turn's view of that direction, pixel for pixel
    DIRS4.forEach((dir, row) => {
      expect(cell(idle.image, 0, row, 32).equals(cell(views.image, 0, row, 32)), dir).toBe(true);
    });
    // another character (another prompt and seed) is another identity and another drawing
    const wizard = await character('a wizard', 5);
    expect(wizard.identity.rig).not.toEqual(hero.identity.rig);
    const other = await animate(wizard.id, 'idle', 4);
    expect(cell(other.image, 0, 0, 32).equals(cell(idle.image, 0, 0, 32))).toBe(false);
    const otherColours = coloursOf(other.image);
    expect([...otherColours].filter((c) => !own.has(c)).length).toBeGreaterThan(0);
  });

  it('refuses, by name, a prompt the rig does not keep as a character (400 in the envelope)', async () => {
    const res = await fetch(`${server.url}/api/v1/projects/${projectId}/characters`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.token}`,
        'content-type': 'application/json',
        'accept-language': 'en',
      },
      body: JSON.stringify({ name: 'Tom', prompt: 'a cat' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 400,
      data: {
        errors: [{ in: 'body', path: '/prompt', rule: 'rig', message: expect.stringContaining('"a cat"') }],
      },
    });
  });
});
