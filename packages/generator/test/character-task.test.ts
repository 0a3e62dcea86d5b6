import { createMemoryStorage, decodePng, type RgbaImage } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { characterIdentity, runPipeline } from '../src/index.js';

/**
 * A kept character's task through the pipeline (decision 0055): `params.character` is drawn from the
 * identity it carries, whatever its prompt says, every view of one identity held to its own
 * direction's first frame.
 */
async function run(prompt: string, action: string, identity: Record<string, unknown>, size = 32) {
  const storage = createMemoryStorage();
  const result = await runPipeline(
    {
      prompt,
      assetType: 'animation',
      projectStyle: {},
      params: {
        resolution: size,
        format: 'spritesheet',
        frames: { directions: 4, framesPerDirection: 6 },
        seed: 1,
        character: { characterId: 'c1', action, identity },
      },
      keyPrefix: 't/',
    },
    { storage },
  );
  const sheet = storage.objects.get('t/animation.png');
  const image: RgbaImage | null = sheet
    ? (decodePng(sheet.bytes) as { ok: true; image: RgbaImage }).image
    : null;
  return { result, image, storage };
}

const stored = (prompt: string) =>
  JSON.parse(JSON.stringify(characterIdentity({ prompt, seed: 4, resolution: 32 }))) as Record<
    string,
    unknown
  >;

describe("a kept character's task", () => {
  it('draws the identity it carries, not its prompt: the same identity under another prompt is the same sheet', async () => {
    const knight = stored('a knight with a red cape');
    const a = await run('a knight with a red cape', 'hurt', knight);
    const b = await run('a green dragon', 'hurt', knight);
    expect(a.result.ok && b.result.ok).toBe(true);
    expect(Buffer.from(b.image!.data).equals(Buffer.from(a.image!.data))).toBe(true);
    // the anchor at the feet is in the asset's metadata and the rig files beside the sheet
    if (!a.result.ok) throw new Error('failed');
    const meta = a.result.assets[0]!.metadata;
    expect(meta.anchor?.y).toBeGreaterThan(24);
    expect(Object.keys(meta.atlas ?? {})).toEqual(
      expect.arrayContaining(['spine', 'spineAtlas', 'spineImage', 'dragonBones', 'dragonBonesAtlas']),
    );
    expect(a.storage.objects.has('t/animation-rig.json')).toBe(true);
  });

  it("completes where the prompt alone would not: a Chinese prompt's walk, a caped back view", async () => {
    // '穿蓝色盔甲的骑士' is refused on the generic route ('盔甲骑士'), yet it has an identity to draw
    const blue = await run('穿蓝色盔甲的骑士', 'walk', stored('穿蓝色盔甲的骑士'));
    expect(blue.result.ok, blue.result.ok ? '' : blue.result.error).toBe(true);
    // a red cape fills the back view: compared with the front it would look "unrelated"
    const vampire = await run('a vampire with a red cape', 'idle', stored('a vampire with a red cape'), 64);
    expect(vampire.result.ok, vampire.result.ok ? '' : vampire.result.error).toBe(true);
    const bad = await run('a knight', 'dance', stored('a knight'));
    expect(bad.result).toMatchObject({ ok: false, error: expect.stringContaining('cannot "dance"') });
  });
});
