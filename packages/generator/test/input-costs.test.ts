import {
  createMemoryStorage,
  encodePng,
  type ImageProvider,
  type PipelineRequest,
  type RgbaImage,
} from '@assetloom/pipeline';
import {
  type ImageInputRefs,
  INPUT_WORKING_SIDE,
  loadImageInputs,
  type PictureRef,
} from '@assetloom/pipeline/inputs';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../src/index.js';

/**
 * Issue #37: what one task's inputs and drawing may cost. Stored pictures are read and decoded by
 * the run itself (a pipeline thread on the server), each distinct upload once, at a bounded working
 * size; a run is held to a computing and an end-to-end deadline.
 */

function disc(size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inside = Math.hypot(x - size / 2, y - size / 2) < size * 0.3;
      data.set(inside ? [220, 60, 40, 255] : [255, 255, 255, 255], i);
    }
  }
  return { width: size, height: size, data };
}

const refOf = (uploadId: string, size: number): PictureRef => ({
  uploadId,
  key: `users/1/uploads/${uploadId}.png`,
  width: size,
  height: size,
});

/** A picture source over PNGs in memory that counts its reads. */
function source(pictures: Record<string, RgbaImage>) {
  const reads: string[] = [];
  const png = new Map(Object.entries(pictures).map(([id, p]) => [id, encodePng(p.data, p.width, p.height)]));
  return {
    reads,
    source: {
      async read(ref: PictureRef) {
        reads.push(ref.uploadId);
        const bytes = png.get(ref.uploadId);
        if (bytes === undefined) throw new Error('no such object');
        return bytes;
      },
    },
  };
}

describe('stored pictures are read where the run is (issue #37)', () => {
  it('reads and decodes each distinct upload once, however many params name it', async () => {
    const { reads, source: pictures } = source({ a: disc(64), b: disc(32) });
    const refs: ImageInputRefs = {
      image: { ref: refOf('a', 64), strength: 0 },
      references: [refOf('a', 64), refOf('b', 32), refOf('a', 64), refOf('b', 32)],
      paletteFrom: { ref: refOf('a', 64), maxColors: 8 },
    };
    const inputs = await loadImageInputs(refs, pictures);
    expect(reads).toEqual(['a', 'b']);
    expect(inputs.image?.picture.width).toBe(64);
    expect(inputs.references?.map((r) => r.width)).toEqual([64, 32, 64, 32]);
    expect(inputs.paletteFrom?.picture).toBe(inputs.image?.picture);
  });

  it(`brings a picture larger than ${INPUT_WORKING_SIDE} px down by a whole factor before anything reads it`, async () => {
    const big = INPUT_WORKING_SIDE + 1;
    const { source: pictures } = source({ big: disc(big) });
    const inputs = await loadImageInputs({ image: { ref: refOf('big', big), strength: 0 } }, pictures);
    expect(inputs.image?.picture.width).toBe(Math.round(big / 2));
    expect(inputs.image?.picture.height).toBe(Math.round(big / 2));
  });

  it('runs the pipeline from references, and fails a picture that is gone without retrying', async () => {
    const { source: pictures } = source({ a: disc(256) });
    const request = (uploadId: string): PipelineRequest => ({
      prompt: 'pixelate',
      assetType: 'sprite',
      projectStyle: {},
      params: { resolution: 48, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
      keyPrefix: 't/',
      inputRefs: { image: { ref: refOf(uploadId, 256), strength: 0 } },
    });
    const done = await runPipeline(request('a'), { storage: createMemoryStorage(), pictures });
    expect(done.ok, JSON.stringify(done)).toBe(true);
    const gone = await runPipeline(request('missing'), { storage: createMemoryStorage(), pictures });
    expect(gone).toMatchObject({ ok: false, code: 'invalid_request', retryCount: 0 });
    if (!gone.ok) expect(gone.error).toMatch(/uploaded picture missing is gone/);
  });

  it('refuses an input the provider cannot honour before reading any picture', async () => {
    const { reads, source: pictures } = source({ a: disc(64) });
    const result = await runPipeline(
      {
        prompt: 'a hat',
        assetType: 'sprite',
        projectStyle: {},
        params: { resolution: 48, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
        keyPrefix: 't/',
        inputRefs: { image: { ref: refOf('a', 64), strength: 0.5 }, mask: refOf('a', 64) },
      },
      { storage: createMemoryStorage(), pictures },
    );
    expect(result).toMatchObject({ ok: false, code: 'unsupported' });
    expect(reads).toEqual([]);
  });
});

describe('deadlines of a run (issue #37)', () => {
  const sprite: PipelineRequest = {
    prompt: 'a treasure chest',
    assetType: 'animation',
    projectStyle: {},
    params: { resolution: 64, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
    keyPrefix: 't/',
  };

  it('fails a run past its computing limit with deadline_exceeded, once, naming the limit', async () => {
    const events: string[] = [];
    const result = await runPipeline(sprite, {
      storage: createMemoryStorage(),
      deadline: { cpuMs: 1 },
      onEvent: (e) => {
        events.push(`${e.stage}:${e.status}`);
      },
    });
    expect(result).toMatchObject({ ok: false, code: 'deadline_exceeded', retryCount: 0 });
    if (!result.ok) expect(result.error).toMatch(/computed for .* past its limit of 0\.0 s/);
    expect(events.at(-1)).toMatch(/:failed$/);
    expect(events.filter((e) => e === 'asset_generator:running').length).toBeLessThanOrEqual(1);
  });

  it("does not count a model server's time or the event sink's as computing", async () => {
    const slowModel: ImageProvider = {
      name: 'slow-model',
      kind: 'model',
      async generate(req) {
        await new Promise((r) => setTimeout(r, 2_500));
        const frames = Array.from({ length: req.directions * req.framesPerDirection }, () => disc(256));
        return { frames, animation: 'idle' };
      },
    };
    const result = await runPipeline(
      {
        ...sprite,
        prompt: 'a red ball',
        params: { ...sprite.params, frames: { directions: 1, framesPerDirection: 1 } },
      },
      {
        storage: createMemoryStorage(),
        providers: { image: slowModel },
        // 2.5 s waiting for the model, 1.5 s in the sink: far past 2 s end to end, far below in computing
        deadline: { cpuMs: 2_000, wallMs: 2_000 },
        maxRetries: 0,
        onEvent: () => new Promise((r) => setTimeout(r, 100)),
      },
    );
    expect(result.ok ? 'completed' : `${result.code}: ${result.error}`).not.toMatch(/deadline/);
  });
});
