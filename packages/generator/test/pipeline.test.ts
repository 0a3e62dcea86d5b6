import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  createMemoryStorage,
  decodePng,
  type ImageProvider,
  type PipelineProgressEvent,
  type PipelineRequest,
} from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { createProceduralProvider, renderProcedural, runPipeline } from '../src/index.js';

const request = (over: Partial<PipelineRequest> = {}): PipelineRequest => ({
  prompt: 'a brave knight with a sword',
  assetType: 'sprite',
  projectStyle: { palette: 'sweetie16', lineWeight: 'thin', lighting: 'top-left', artStyle: 'pixel' },
  taskStyle: { mood: 'heroic' },
  params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
  keyPrefix: 'projects/p1/tasks/t1/',
  ...over,
});

const brief = (events: PipelineProgressEvent[]) => events.map((e) => `${e.stage}:${e.status}:${e.progress}`);

/** Produces blank frames `failures` times, then delegates to the procedural provider. */
function flakyProvider(failures: number): ImageProvider & { calls: number } {
  const real = createProceduralProvider();
  const p = {
    name: 'flaky',
    calls: 0,
    async generate(req: Parameters<ImageProvider['generate']>[0], ctx: { signal?: AbortSignal }) {
      p.calls++;
      if (p.calls <= failures) {
        const frames = Array.from({ length: req.directions * req.framesPerDirection }, () => ({
          width: req.resolution,
          height: req.resolution,
          data: new Uint8Array(req.resolution * req.resolution * 4),
        }));
        return { frames, animation: 'idle' };
      }
      return real.generate(req, ctx);
    },
  };
  return p;
}

const HAPPY = [
  'prompt_optimizer:running:0',
  'prompt_optimizer:completed:100',
  'asset_generator:running:0',
  'asset_generator:completed:100',
  'quality_supervisor:running:0',
  'quality_supervisor:completed:100',
  'format_adapter:running:0',
  'format_adapter:completed:100',
];

describe('runPipeline', () => {
  it('emits the spec order on the normal path and stores decodable PNG + atlases', async () => {
    const storage = createMemoryStorage();
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), { storage, onEvent: (e) => void events.push(e) });
    expect(result.ok).toBe(true);
    expect(brief(events)).toEqual(HAPPY);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const e of events) expect(new Date(e.at).toISOString()).toBe(e.at);
    const last = events.at(-1)!;
    expect(last.result?.assets).toHaveLength(1);
    if (!result.ok) return;
    const [asset] = result.assets;
    expect(asset!.key).toBe('projects/p1/tasks/t1/sprite.png');
    expect(asset!.metadata).toMatchObject({
      frameWidth: 64,
      frameHeight: 64,
      frameCount: 16,
      directions: 4,
      layout: 'spritesheet',
    });
    const png = decodePng(storage.get(asset!.key)!.bytes);
    expect(png.ok && [png.image.width, png.image.height]).toEqual([256, 256]);
    expect([asset!.width, asset!.height]).toEqual([256, 256]);
    expect(storage.get(asset!.metadata.atlas!.texturePacker!)?.contentType).toBe('application/json');
    expect(storage.get(asset!.metadata.atlas!.godot!)).toBeDefined();
    const prov = asset!.metadata.provenance;
    expect(prov).toMatchObject({ provider: 'procedural', templateUsed: true, attempt: 0 });
    expect(prov.style).toEqual({
      palette: 'sweetie16',
      lineWeight: 'thin',
      lighting: 'top-left',
      artStyle: 'pixel',
      mood: 'heroic',
    });
    expect(prov.optimizedPrompt).toMatch(/^【主题】.+\n【风格】.+\n【技术】.+$/);
    expect(prov.quality.passed).toBe(true);
    expect(prov.quality.checks.map((c) => c.name)).toContain('palette');
  });

  it('continues numbering from startSeq and uses the injected clock', async () => {
    const events: PipelineProgressEvent[] = [];
    await runPipeline(request({ assetType: 'ui', prompt: 'stone panel' }), {
      storage: createMemoryStorage(),
      startSeq: 41,
      now: () => new Date('2030-01-02T03:04:05.000Z'),
      onEvent: async (e) => {
        await new Promise((r) => setTimeout(r, 1));
        events.push(e);
      },
    });
    expect(events.map((e) => e.seq)).toEqual([41, 42, 43, 44, 45, 46, 47, 48]);
    expect(new Set(events.map((e) => e.at))).toEqual(new Set(['2030-01-02T03:04:05.000Z']));
  });

  it('goes round the retry loop when the provider produces blank frames, then succeeds', async () => {
    const provider = flakyProvider(2);
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), {
      storage: createMemoryStorage(),
      providers: { image: provider },
      maxRetries: 2,
      onEvent: (e) => void events.push(e),
    });
    expect(result.ok).toBe(true);
    expect(result.retryCount).toBe(2);
    const failure = [
      'prompt_optimizer:running:0',
      'prompt_optimizer:completed:100',
      'asset_generator:running:0',
      'asset_generator:completed:100',
      'quality_supervisor:running:0',
      'quality_supervisor:failed:0',
    ];
    expect(brief(events)).toEqual([...failure, ...failure, ...HAPPY]);
    const rejections = events.filter((e) => e.status === 'failed');
    expect(rejections.map((e) => e.retryCount)).toEqual([1, 2]);
    for (const r of rejections) expect(r.rejectReason).toMatch(/not_blank|alpha_coverage/);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    if (result.ok) expect(result.provenance.attempt).toBe(2);
  });

  it('fails with the last reject reason once retries are exhausted', async () => {
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), {
      storage: createMemoryStorage(),
      providers: { image: flakyProvider(10) },
      maxRetries: 1,
      onEvent: (e) => void events.push(e),
    });
    expect(result).toMatchObject({ ok: false, code: 'quality_rejected', retryCount: 1 });
    const last = events.at(-1)!;
    expect(last).toMatchObject({ stage: 'quality_supervisor', status: 'failed', retryCount: 1 });
    expect(last.error).toMatch(/^\[assetloom\/pipeline\] quality check failed/);
    expect(last.rejectReason).toBeTruthy();
    expect(events.filter((e) => e.stage === 'asset_generator' && e.status === 'running')).toHaveLength(2);
  });

  it('reports a throwing provider as provider_failed with a failed event', async () => {
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), {
      storage: createMemoryStorage(),
      providers: {
        image: {
          name: 'broken',
          generate: async () => {
            throw new Error('GPU on fire');
          },
        },
      },
      onEvent: (e) => void events.push(e),
    });
    expect(result).toMatchObject({ ok: false, code: 'provider_failed', detail: 'GPU on fire' });
    expect(events.at(-1)).toMatchObject({
      stage: 'asset_generator',
      status: 'failed',
      error: '[assetloom/pipeline] image provider "broken" failed',
    });
    if (!result.ok) expect(result.error).toBe(events.at(-1)!.error);
  });

  it('shows a provider error that marks itself fit for end users (expose: true)', async () => {
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), {
      storage: createMemoryStorage(),
      providers: {
        image: {
          name: 'picky',
          generate: async () => {
            throw Object.assign(new Error('the prompt was refused by the content policy'), { expose: true });
          },
        },
      },
      onEvent: (e) => void events.push(e),
    });
    expect(events.at(-1)!.error).toBe(
      '[assetloom/pipeline] image provider "picky" failed: the prompt was refused by the content policy',
    );
    expect(result).toMatchObject({ ok: false, code: 'provider_failed' });
  });

  it('stops on abort with code aborted', async () => {
    const controller = new AbortController();
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), {
      storage: createMemoryStorage(),
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.stage === 'asset_generator' && e.status === 'completed')
          controller.abort(new Error('user cancelled'));
      },
    });
    expect(result).toMatchObject({ ok: false, code: 'aborted', detail: 'user cancelled' });
    expect(events.at(-1)).toMatchObject({
      stage: 'quality_supervisor',
      status: 'failed',
      error: '[assetloom/pipeline] run aborted',
    });
  });

  it('reports storage failures without the storage error in the end-user text', async () => {
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(), {
      storage: {
        put: async () => {
          throw new Error("EACCES: permission denied, open '/srv/data/objects/.tmp/x.part'");
        },
      },
      onEvent: (e) => void events.push(e),
    });
    expect(result).toMatchObject({
      ok: false,
      code: 'storage_failed',
      error: '[assetloom/pipeline] the generated files could not be stored',
    });
    expect(events.at(-1)).toMatchObject({
      stage: 'format_adapter',
      status: 'failed',
      error: (result as { error: string }).error,
    });
    if (!result.ok) {
      expect(result.detail).toMatch(
        /^storage\.put\(".+"\) failed: EACCES: permission denied, open '\/srv\/data/,
      );
      expect(result.detail).toContain('check the storage adapter');
    }
    expect(JSON.stringify(events)).not.toContain('/srv/data');
  });

  it.each([
    ['empty prompt', { prompt: '  ' }],
    ['bad assetType', { assetType: 'video' as never }],
    ['resolution too big', { params: { resolution: 4096, format: 'spritesheet' as const } }],
    [
      'bad directions',
      {
        params: {
          resolution: 64,
          format: 'spritesheet' as const,
          frames: { directions: 3 as never, framesPerDirection: 2 },
        },
      },
    ],
    ['non-string style', { taskStyle: { x: 1 as unknown as string } }],
  ])('rejects %s without throwing', async (_name, over) => {
    const events: PipelineProgressEvent[] = [];
    const result = await runPipeline(request(over), {
      storage: createMemoryStorage(),
      onEvent: (e) => void events.push(e),
    });
    expect(result).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 'failed' });
  });

  describe("writing a task's files", () => {
    /** A storage port whose puts finish only when the test lets them, recording what it was given. */
    function gatedStorage(fail?: (key: string) => Error | undefined) {
      const memory = createMemoryStorage();
      const started: string[] = [];
      const waiting: Array<() => void> = [];
      let inFlight = 0;
      let maxInFlight = 0;
      const storage = {
        async put(key: string, bytes: Uint8Array, contentType: string) {
          started.push(key);
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise<void>((resolve) => waiting.push(resolve));
          inFlight -= 1;
          const error = fail?.(key);
          if (error !== undefined) throw error;
          await memory.put(key, bytes, contentType);
        },
      };
      /** Lets every waiting put finish, round after round, until the run settles. */
      const drive = async <T>(run: Promise<T>): Promise<T> => {
        let settled = false;
        const result = run.finally(() => {
          settled = true;
        });
        while (!settled) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          for (const release of waiting.splice(0)) release();
        }
        return result;
      };
      return { storage, memory, started, drive, maxInFlight: () => maxInFlight };
    }

    const individual = request({
      params: { resolution: 32, frames: { directions: 4, framesPerDirection: 4 }, format: 'individual' },
    });

    it('hands up to 8 files to storage at once, started in the order of the assets', async () => {
      const sequential = createMemoryStorage();
      const reference = await runPipeline(individual, { storage: sequential });
      const gated = gatedStorage();
      const result = await gated.drive(runPipeline(individual, { storage: gated.storage }));
      expect(result.ok).toBe(true);
      if (!result.ok || !reference.ok) return;
      // 16 frame files and a Godot resource: more than 8, so the limit is what holds them back.
      expect(gated.started.length).toBeGreaterThan(8);
      expect(gated.maxInFlight()).toBe(8);
      expect(gated.started.slice(0, 16)).toEqual(result.assets.slice(0, 16).map((a) => a.key));
      expect([...gated.started].sort()).toEqual(sequential.keys().sort());
      for (const key of sequential.keys()) expect(gated.memory.get(key)).toEqual(sequential.get(key));
    });

    it('reports the first failed file and starts no file after it', async () => {
      const gated = gatedStorage((key) =>
        key.endsWith('_1.png') && key.includes('down')
          ? new Error('ENOSPC: no space left on device')
          : undefined,
      );
      const events: PipelineProgressEvent[] = [];
      const result = await gated.drive(
        runPipeline(individual, { storage: gated.storage, onEvent: (e) => void events.push(e) }),
      );
      expect(result).toMatchObject({ ok: false, code: 'storage_failed' });
      if (result.ok) return;
      expect(result.detail).toMatch(/^storage\.put\(".+down_1\.png"\) failed: ENOSPC/);
      // The first 8 started together; the failure stopped the rest from starting.
      expect(gated.started.length).toBe(8);
      expect(events.at(-1)).toMatchObject({ stage: 'format_adapter', status: 'failed' });
    });

    it('starts no file once the run is aborted', async () => {
      const controller = new AbortController();
      const gated = gatedStorage();
      const storage = {
        put: (key: string, bytes: Uint8Array, type: string) => {
          if (gated.started.length === 3) controller.abort(new Error('user cancelled'));
          return gated.storage.put(key, bytes, type);
        },
      };
      const result = await gated.drive(runPipeline(individual, { storage, signal: controller.signal }));
      expect(result).toMatchObject({ ok: false, code: 'aborted', detail: 'user cancelled' });
      // Puts 1-4 started before the abort was seen; none after.
      expect(gated.started.length).toBe(4);
    });
  });

  it('survives garbage input', async () => {
    const r = await runPipeline(null as never, { storage: createMemoryStorage() });
    expect(r.ok).toBe(false);
    const r2 = await runPipeline(request(), undefined as never);
    expect(r2.ok).toBe(false);
  });

  it('returns event_sink_failed when onEvent throws', async () => {
    const r = await runPipeline(request(), {
      storage: createMemoryStorage(),
      onEvent: () => {
        throw new Error('db down');
      },
    });
    expect(r).toMatchObject({ ok: false, code: 'event_sink_failed' });
  });

  it('writes individual frames with a Godot resource referencing each file', async () => {
    const storage = createMemoryStorage();
    const result = await runPipeline(
      request({
        assetType: 'animation',
        params: { resolution: 32, frames: { directions: 8, framesPerDirection: 2 }, format: 'individual' },
      }),
      { storage },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.assets).toHaveLength(16);
    expect(result.assets.map((a) => a.metadata.frameIndex)).toEqual([...Array(16).keys()]);
    expect(result.assets[2]!.key).toBe('projects/p1/tasks/t1/animation_down_left_0.png');
    for (const a of result.assets) {
      const png = decodePng(storage.get(a.key)!.bytes);
      expect(png.ok && [png.image.width, png.image.height]).toEqual([32, 32]);
    }
    const tres = new TextDecoder().decode(storage.get(result.assets[0]!.metadata.atlas!.godot!)!.bytes);
    expect(tres.match(/\[ext_resource /g)).toHaveLength(16);
  });

  it.each([
    ['sprite', 'a slime'],
    ['animation', 'a walking wizard'],
    // a door swung open is mostly its dark doorway: the same door by its outline, not its colours
    ['animation', 'a door opening'],
    ['animation', 'a gate opening'],
    ['background', 'a snowy mountain landscape'],
    ['background', 'seamless grass texture'],
    ['ui', 'wooden button'],
    ['ui', 'health bar'],
    ['ui', 'inventory panel'],
  ] as const)(
    'passes its own quality check for %s "%s" at several resolutions',
    async (assetType, prompt) => {
      for (const resolution of [16, 48, 100]) {
        const r = await runPipeline(
          request({ assetType, prompt, params: { resolution, format: 'spritesheet' } }),
          {
            storage: createMemoryStorage(),
            maxRetries: 0,
          },
        );
        expect(r.ok, `${assetType} ${prompt} @${resolution}: ${r.ok ? '' : r.error}`).toBe(true);
      }
    },
  );
});

describe('procedural art passes its own quality checks on the first attempt', () => {
  // Every subject the procedural provider draws, with the spec's defaults (4 directions x 4 frames),
  // at small and default resolutions: a user's first generation must not fail a retry loop.
  const subjects = [
    'a brave knight',
    'a wise mage',
    'a sneaky rogue',
    'a robot',
    'a green slime',
    'a ghost',
    'a masked monster',
    'a healing potion',
    'a sword',
    'a ruby gem',
    'a gold coin',
    'a round shield',
  ];
  const cases = subjects.flatMap((prompt) =>
    (['sprite', 'animation'] as const).flatMap((assetType) =>
      [16, 32, 64].map(
        (resolution) =>
          [`${assetType} "${prompt}" at ${resolution} px`, { prompt, assetType, resolution }] as const,
      ),
    ),
  );
  it.each(cases)('%s', async (_name, { prompt, assetType, resolution }) => {
    const result = await runPipeline(
      request({
        prompt,
        assetType,
        params: { resolution, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
      }),
      { storage: createMemoryStorage(), maxRetries: 0 },
    );
    expect(result.ok ? 'ok' : result.error).toBe('ok');
  });
});

describe('determinism', () => {
  it('gives byte-identical files for the same request and different ones for another prompt', async () => {
    const run = async (prompt: string) => {
      const storage = createMemoryStorage();
      const r = await runPipeline(request({ assetType: 'animation', prompt }), { storage });
      expect(r.ok).toBe(true);
      return storage;
    };
    const a = await run('a robot');
    const b = await run('a robot');
    expect(a.keys()).toEqual(b.keys());
    for (const k of a.keys())
      expect(Buffer.from(a.get(k)!.bytes).equals(Buffer.from(b.get(k)!.bytes))).toBe(true);
    const c = await run('a ghost');
    const key = 'projects/p1/tasks/t1/animation.png';
    expect(Buffer.from(a.get(key)!.bytes).equals(Buffer.from(c.get(key)!.bytes))).toBe(false);
  });

  it('makes tileable textures whose opposite edges match', async () => {
    const out = await renderProcedural({
      assetType: 'background',
      prompt: '',
      userPrompt: 'stone floor texture',
      tags: [],
      style: {},
      resolution: 64,
      directions: 1,
      framesPerDirection: 1,
      seed: 7,
      attempt: 0,
    });
    expect(out.tileable).toBe(true);
    const { data, width } = out.frames[0]!;
    // compare the colour statistics of the wrap seam with an interior seam: a tiling texture has no jump
    let seam = 0;
    let inner = 0;
    for (let y = 0; y < width; y++) {
      const diff = (a: number, b: number) =>
        Math.abs(data[a]! - data[b]!) +
        Math.abs(data[a + 1]! - data[b + 1]!) +
        Math.abs(data[a + 2]! - data[b + 2]!);
      seam += diff((y * width + width - 1) * 4, y * width * 4);
      inner += diff((y * width + 31) * 4, (y * width + 32) * 4);
    }
    expect(seam).toBeLessThan(inner * 3 + 2000);
  });
});

describe('browser safety', () => {
  it('has no node: imports or Node globals in library sources', async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.test-d.ts')) files.push(p);
      }
    };
    walk(join(__dirname, '../src'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toMatch(/from ['"]node:|require\(|\bBuffer\.|\bprocess\./);
    }
  });
});
