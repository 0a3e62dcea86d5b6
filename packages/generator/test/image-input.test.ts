import type { ImageInputs } from '@assetloom/pipeline';
import {
  createMemoryStorage,
  type ImageProvider,
  type PipelineRequest,
  type RgbaImage,
} from '@assetloom/pipeline';
import {
  animateSprite,
  inspectQuality,
  paletteFromPicture,
  SPRITE_MOTIONS,
  spriteMotionOf,
  tileVariation,
} from '@assetloom/pipeline/pixel';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../src/index.js';

/** A picture as a painting or a photo is: a soft-edged orange disc with a shaded side on white, noisy. */
function painting(size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = (x - size / 2) / (size * 0.32);
      const dy = (y - size / 2) / (size * 0.32);
      const r = Math.hypot(dx, dy);
      const inside = Math.max(0, Math.min(1, (1 - r) * 20));
      const shade = 0.6 + 0.4 * Math.max(0, -dx * 0.7 - dy * 0.7);
      const n = (rnd() - 0.5) * 12;
      const i = (y * size + x) * 4;
      const fg = [240 * shade + n, 130 * shade + n, 30 * shade + n];
      for (let c = 0; c < 3; c++)
        data[i + c] = Math.max(0, Math.min(255, fg[c]! * inside + (250 + n) * (1 - inside)));
      data[i + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/** A 16 × 20 pixel-art figure (4 colours, transparent around), drawn `k` times as large. */
function pixelSprite(k = 1): RgbaImage {
  const w = 16;
  const h = 20;
  const colours: Record<string, [number, number, number]> = {
    h: [250, 210, 160],
    b: [40, 90, 200],
    l: [30, 30, 60],
    e: [20, 20, 20],
  };
  const rows = [
    '................',
    '.....hhhhhh.....',
    '....hhhhhhhh....',
    '....hheehheh....',
    '....hhhhhhhh....',
    '.....hhhhhh.....',
    '...bbbbbbbbbb...',
    '..bbbbbbbbbbbb..',
    '..bbbbbbbbbbbb..',
    '..hbbbbbbbbbbh..',
    '..hbbbbbbbbbbh..',
    '....bbbbbbbb....',
    '....bbbbbbbb....',
    '....lll..lll....',
    '....lll..lll....',
    '....lll..lll....',
    '....lll..lll....',
    '...llll..llll...',
    '...llll..llll...',
    '................',
  ];
  const data = new Uint8Array(w * k * h * k * 4);
  for (let y = 0; y < h * k; y++) {
    for (let x = 0; x < w * k; x++) {
      const c = rows[Math.floor(y / k)]![Math.floor(x / k)]!;
      if (c === '.') continue;
      data.set([...colours[c]!, 255], (y * w * k + x) * 4);
    }
  }
  return { width: w * k, height: h * k, data };
}

function request(over: Partial<PipelineRequest> & { inputs: ImageInputs }): PipelineRequest {
  return {
    prompt: 'pixelate this',
    assetType: 'sprite',
    projectStyle: {},
    params: { resolution: 64, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
    keyPrefix: 't/',
    ...over,
  };
}

/** A model provider that must not be called (strength 0 is drawn by the pipeline on every provider). */
const untouchable: ImageProvider = {
  name: 'fake-model',
  kind: 'model',
  async generate() {
    throw new Error('the model was called for a pixelate');
  },
};

function opaqueColours(frames: readonly RgbaImage[]): Set<string> {
  const out = new Set<string>();
  for (const f of frames) {
    for (let i = 0; i < f.data.length; i += 4)
      if (f.data[i + 3]! >= 128) out.add(`${f.data[i]},${f.data[i + 1]},${f.data[i + 2]}`);
  }
  return out;
}

const alphaAt = (f: RgbaImage, x: number, y: number) => f.data[(y * f.width + x) * 4 + 3]!;

describe('pixelate (params.image.strength 0)', () => {
  it.each([
    ['the built-in generator', null],
    ['a model provider, never called', untouchable],
  ])(
    'turns a 1024² painting into a 64 px sprite on %s: backdrop gone, few colours, every engine file',
    async (_n, provider) => {
      const storage = createMemoryStorage();
      const req = request({ inputs: { image: { picture: painting(1024), strength: 0 } } });
      const result = provider
        ? await runPipeline(req, { storage, providers: { image: provider } })
        : await runPipeline(req, { storage });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (!result.ok) return;
      const [sheet] = result.assets;
      expect(sheet).toMatchObject({ width: 64, height: 64 });
      expect(sheet!.metadata.provenance.quality.passed).toBe(true);
      const png = storage.get(sheet!.key)!;
      const { decodePng } = await import('@assetloom/pipeline');
      const image = (decodePng(png.bytes) as { ok: true; image: RgbaImage }).image;
      expect(alphaAt(image, 0, 0)).toBe(0); // the white backdrop is gone
      expect(alphaAt(image, 32, 32)).toBe(255); // the disc is there
      expect(opaqueColours([image]).size).toBeLessThanOrEqual(32);
      expect(Object.keys(sheet!.metadata.atlas ?? {})).toEqual(
        expect.arrayContaining(['texturePacker', 'godot', 'aseprite', 'phaser', 'unity']),
      );
    },
  );

  it('reads pixel art drawn large at its native pixels, crisp (an 8× sprite is the sprite again)', async () => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        params: { resolution: 32, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
        inputs: { image: { picture: pixelSprite(8), strength: 0 } },
      }),
      { storage },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { decodePng } = await import('@assetloom/pipeline');
    const frame = (decodePng(storage.get(result.assets[0]!.key)!.bytes) as { ok: true; image: RgbaImage })
      .image;
    // the figure's 4 colours exactly, and its 16 × 18 body pixel for pixel
    expect(opaqueColours([frame])).toEqual(opaqueColours([pixelSprite(1)]));
    let opaque = 0;
    for (let i = 3; i < frame.data.length; i += 4) if (frame.data[i]! >= 128) opaque++;
    let source = 0;
    const s = pixelSprite(1);
    for (let i = 3; i < s.data.length; i += 4) if (s.data[i]! >= 128) source++;
    expect(opaque).toBe(source);
  });

  it('a background is covered edge to edge and keeps its backdrop', async () => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        assetType: 'background',
        params: { resolution: 64, width: 96, height: 54, format: 'spritesheet' },
        inputs: { image: { picture: painting(512), strength: 0 } },
      }),
      { storage },
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok) expect(result.assets[0]).toMatchObject({ width: 96, height: 54 });
  });

  it('maps to the palette of another picture (params.paletteFrom)', async () => {
    const palettePicture = pixelSprite(2);
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        inputs: {
          image: { picture: painting(256), strength: 0 },
          paletteFrom: { picture: palettePicture, maxColors: 8 },
        },
      }),
      { storage },
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const { decodePng } = await import('@assetloom/pipeline');
    const frame = (decodePng(storage.get(result.assets[0]!.key)!.bytes) as { ok: true; image: RgbaImage })
      .image;
    const allowed = opaqueColours([palettePicture]);
    for (const c of opaqueColours([frame])) expect(allowed.has(c), c).toBe(true);
    expect(result.provenance.quality.checks.find((c) => c.name === 'palette')?.passed).toBe(true);
  });
});

/** Uniform RGB noise, opaque: the worst case of colour quantisation (every colour cell is used). */
function noise(size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let s = 12345;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = (s >>> 16) & 255;
  }
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { width: size, height: size, data };
}

describe('pictures that cost the most (issue #37)', () => {
  it('a noise picture pixelated at its own size finishes (it took 88 s at 256² before)', async () => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        assetType: 'background',
        params: { resolution: 256, format: 'spritesheet' },
        inputs: { image: { picture: noise(256), strength: 0 } },
      }),
      { storage },
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
  }, 30_000);

  it('a failed check of an asset drawn from the picture alone is not retried (same picture, same frames)', async () => {
    const flat: RgbaImage = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(200) };
    const events: Array<{ stage: string; status: string }> = [];
    const result = await runPipeline(request({ inputs: { image: { picture: flat, strength: 0 } } }), {
      storage: createMemoryStorage(),
      onEvent: (e) => {
        events.push({ stage: e.stage, status: e.status });
      },
    });
    expect(result).toMatchObject({ ok: false, code: 'quality_rejected', retryCount: 0 });
    if (result.ok) return;
    expect(result.error).toMatch(/not retried/);
    // one generation, one check: no second attempt
    expect(events.filter((e) => e.stage === 'asset_generator' && e.status === 'running')).toHaveLength(1);
  });
});

describe('params.paletteFrom on the built-in generator', () => {
  it('draws a generated sprite in the picture’s colours only', async () => {
    const palettePicture = painting(128);
    const palette = paletteFromPicture(palettePicture, 6);
    expect(palette.length).toBeGreaterThanOrEqual(2);
    expect(palette.length).toBeLessThanOrEqual(6);
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({ prompt: 'a knight', inputs: { paletteFrom: { picture: palettePicture, maxColors: 6 } } }),
      { storage },
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const { decodePng } = await import('@assetloom/pipeline');
    const frame = (decodePng(storage.get(result.assets[0]!.key)!.bytes) as { ok: true; image: RgbaImage })
      .image;
    const allowed = new Set(palette.map((c) => c.join(',')));
    for (const c of opaqueColours([frame])) expect(allowed.has(c), c).toBe(true);
  });
});

describe('animating a given sprite (assetType animation, strength 0)', () => {
  it.each(SPRITE_MOTIONS)('%s: distinct frames that pass the quality checks', (motion) => {
    const view = pixelSprite(2);
    const frame: RgbaImage = { width: 48, height: 48, data: new Uint8Array(48 * 48 * 4) };
    for (let y = 0; y < view.height; y++)
      frame.data.set(
        view.data.subarray(y * view.width * 4, (y + 1) * view.width * 4),
        ((y + 4) * 48 + 8) * 4,
      );
    const frames = animateSprite(frame, motion, 4, 1);
    expect(frames).toHaveLength(4);
    const distinct = new Set(frames.map((f) => Buffer.from(f.data).toString('base64')));
    expect(distinct.size).toBeGreaterThan(1);
    const report = inspectQuality({
      frames,
      expected: {
        frameWidth: 48,
        frameHeight: 48,
        directions: 1,
        framesPerDirection: 4,
        frameCount: 4,
        directionNames: ['down'],
        opaque: false,
      },
      motion,
    });
    expect(report.passed, JSON.stringify(report.checks.filter((c) => !c.passed))).toBe(true);
    // the sprite's own colours only (an enforced palette stays honoured)
    const own = opaqueColours([frame]);
    for (const c of opaqueColours(frames)) expect(own.has(c), `${motion}: ${c}`).toBe(true);
  });

  it('reads the motion from the prompt and refuses one that needs a model, naming the word', () => {
    expect(spriteMotionOf('make it hurt')).toEqual({ motion: 'hurt' });
    expect(spriteMotionOf('a coin spinning')).toEqual({ motion: 'spin' });
    expect(spriteMotionOf('slime dissolving')).toEqual({ motion: 'death' });
    expect(spriteMotionOf('animate it')).toEqual({ motion: 'idle' });
    expect(spriteMotionOf('walking to the left')).toEqual({ refused: 'walking' });
  });

  it('animates every direction of a sheet of views through the pipeline', async () => {
    const views = pixelSprite(4);
    const sheet: RgbaImage = {
      width: views.width,
      height: views.height * 4,
      data: new Uint8Array(views.width * views.height * 4 * 4),
    };
    for (let d = 0; d < 4; d++) sheet.data.set(views.data, d * views.data.length);
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        prompt: 'hover',
        assetType: 'animation',
        params: { resolution: 48, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
        inputs: { image: { picture: sheet, strength: 0 } },
      }),
      { storage },
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok)
      expect(result.assets[0]!.metadata).toMatchObject({
        directions: 4,
        framesPerDirection: 4,
        frameCount: 16,
      });
  });

  it('fails a motion that needs a model as unsupported, naming params.image and the word', async () => {
    const result = await runPipeline(
      request({
        prompt: 'walking',
        assetType: 'animation',
        params: { resolution: 32, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 4 } },
        inputs: { image: { picture: pixelSprite(2), strength: 0 } },
      }),
      { storage: createMemoryStorage() },
    );
    expect(result).toMatchObject({ ok: false, code: 'unsupported' });
    if (!result.ok) expect(result.error).toMatch(/params\.image.*"walking"/);
  });
});

describe('a seamless tile’s variation (tileset seamless, strength above 0, built-in generator)', () => {
  it('keeps the border, so it joins the original on every side, and changes the inside', async () => {
    const tile = pixelSprite(1);
    const square: RgbaImage = { width: 16, height: 16, data: tile.data.slice(0, 16 * 16 * 4) };
    for (let i = 3; i < square.data.length; i += 4)
      if (square.data[i] === 0) square.data.set([90, 160, 70, 255], i - 3);
    const varied = tileVariation(square, 0.6, 3);
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) {
        const border = x < 2 || y < 2 || x >= 14 || y >= 14;
        if (border)
          expect(varied.data.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4)).toEqual(
            square.data.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4),
          );
      }
    }
    expect(Buffer.from(varied.data).equals(Buffer.from(square.data))).toBe(false);
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        prompt: 'a variation',
        assetType: 'tileset',
        params: { resolution: 64, format: 'spritesheet', tileset: { kind: 'seamless', tileSize: 16 } },
        inputs: { image: { picture: square, strength: 0.5 } },
      }),
      { storage },
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });
});

describe('what a provider cannot honour is refused by name, never ignored', () => {
  const pic = () => painting(64);
  it.each([
    [
      'a redraw on the built-in generator',
      { image: { picture: pic(), strength: 0.5 } },
      'params.image.strength',
    ],
    [
      'a mask on the built-in generator',
      { image: { picture: pic(), strength: 0.5 }, mask: pic() },
      'params.mask',
    ],
    ['references on the built-in generator', { references: [pic()] }, 'params.references'],
  ] as const)('%s', async (_n, inputs, param) => {
    const result = await runPipeline(request({ prompt: 'a knight', inputs: inputs as ImageInputs }), {
      storage: createMemoryStorage(),
    });
    expect(result).toMatchObject({ ok: false, code: 'unsupported' });
    if (!result.ok) expect(result.error).toContain(param);
  });

  it('a model provider that declares no image inputs is refused too, before it is called', async () => {
    const result = await runPipeline(request({ inputs: { image: { picture: pic(), strength: 0.7 } } }), {
      storage: createMemoryStorage(),
      providers: { image: untouchable },
    });
    expect(result).toMatchObject({ ok: false, code: 'unsupported' });
  });
});
