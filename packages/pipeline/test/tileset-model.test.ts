// Tilesets from a model's terrain pictures (tileset/model.ts): cut, blended to wrap and pixelized,
// through the whole pipeline with the AUTOMATIC1111 provider against a loopback fake.
import { describe, expect, it } from 'vitest';
import { measureSeams, SEAM_GOALS, seamScore, tilesetRules } from '../src/entries/tileset.js';
import { createMemoryStorage, decodePng, type RgbaImage, runPipeline } from '../src/index.js';

/** Cuts a sheet into `columns × rows` tiles of `size` (row-major). */
function cut(sheet: RgbaImage, size: number, columns: number, rows: number): RgbaImage[] {
  const out: RgbaImage[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      const data = new Uint8Array(size * size * 4);
      for (let y = 0; y < size; y++) {
        const from = ((r * size + y) * sheet.width + c * size) * 4;
        data.set(sheet.data.subarray(from, from + size * 4), y * size * 4);
      }
      out.push({ width: size, height: size, data });
    }
  return out;
}

describe('tilesets from a model drawing', () => {
  /** A native ground texture that does NOT wrap: clumps of three tones on a base, a gradient across. */
  function ground(base: [number, number, number], size: number, salt: number): RgbaImage {
    const data = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const h = Math.sin((x * 12.9898 + y * 78.233 + salt) * 0.7) * 43758.5453;
        const r = h - Math.floor(h);
        const tone = r < 0.15 ? -40 : r > 0.85 ? 35 : 0;
        const drift = Math.round((x / size) * 30); // left and right edges differ: no natural wrap
        data.set([base[0] + tone + drift, base[1] + tone, base[2] + tone - drift, 255], (y * size + x) * 4);
      }
    return { width: size, height: size, data };
  }

  it('cuts, blends and pixelizes the terrain pictures of an AUTOMATIC1111 loopback fake into a seamless set', {
    timeout: 60_000,
  }, async () => {
    const { createA1111Provider } = await import('../src/providers/a1111.js');
    const { startFakeServer, json } = await import('./helpers.js');
    const { hconcat, modelPicture, pngOf } = await import('./pixel-art.js');
    const picture = hconcat([
      modelPicture(ground([70, 150, 60], 64, 1), 8, { x: 0, y: 0 }, { pad: 0, jitter: 10 }),
      modelPicture(ground([50, 90, 190], 64, 2), 8, { x: 0, y: 0 }, { pad: 0, jitter: 10 }),
    ]);
    const fake = await startFakeServer((req, _body, res) => {
      if (req.url === '/sdapi/v1/txt2img')
        return json(res, 200, {
          images: [Buffer.from(pngOf(picture)).toString('base64')],
          parameters: {},
          info: '{}',
        });
      json(res, 200, { progress: 0.5, state: {} });
    });
    try {
      for (const kind of ['wang16', 'blob47'] as const) {
        const storage = createMemoryStorage();
        const result = await runPipeline(
          {
            prompt: 'grass and water',
            assetType: 'tileset',
            projectStyle: { palette: 'sweetie16' },
            params: { resolution: 64, format: 'spritesheet', tileset: { kind, tileSize: 16 } },
            keyPrefix: 'm/',
          },
          { storage, providers: { image: createA1111Provider({ baseUrl: fake.url, pollMs: 20 }) } },
        );
        expect(result.ok, result.ok ? '' : result.error).toBe(true);
        if (!result.ok) return;
        const body = JSON.parse(fake.requests.find((r) => r.url === '/sdapi/v1/txt2img')!.body);
        expect(body.prompt).toContain('left grass, right water');
        expect(body.width).toBeGreaterThan(body.height); // two terrain pictures side by side
        const png = decodePng(storage.objects.get('m/tileset.png')!.bytes);
        if (!png.ok) throw new Error('no png');
        const rules = tilesetRules(kind);
        const tiles = cut(png.image, 16, rules.columns, rules.rows).slice(0, rules.tiles.length);
        const seams = measureSeams(tiles, rules);
        expect(seams.worst).toBeLessThanOrEqual(SEAM_GOALS.worst);
        expect(seams.mean).toBeLessThanOrEqual(SEAM_GOALS.mean);
        // the model's colours, mapped to the project palette: the plain tiles are green and blue
        const meanOf = (t: RgbaImage) => {
          const m = [0, 0, 0];
          for (let i = 0; i < t.data.length; i += 4) for (let c = 0; c < 3; c++) m[c]! += t.data[i + c]!;
          return m.map((v) => v / (t.data.length / 4));
        };
        const plain0 = meanOf(tiles[rules.tiles.findIndex((t) => t.lattice.every((v) => v === 0))]!);
        const plain1 = meanOf(tiles[rules.tiles.findIndex((t) => t.lattice.every((v) => v === 1))]!);
        expect(plain0[1]!).toBeGreaterThan(plain0[2]!);
        expect(plain1[2]!).toBeGreaterThan(plain1[1]! - 10);
        expect(result.provenance.provider).toBe('a1111');
      }
    } finally {
      await fake.close();
    }
  });

  it('a picture that does not wrap is made to wrap by the cut and blend', async () => {
    const { blendToWrap } = await import('../src/tileset/model.js');
    const img = ground([120, 100, 80], 64, 3);
    const wrapped = blendToWrap(img);
    const self = (t: RgbaImage) => seamScore(t, t, 'x');
    expect(self(img)).toBeGreaterThan(1.5);
    expect(self(wrapped)).toBeLessThan(1.2);
  });
});
