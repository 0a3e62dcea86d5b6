import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runPipeline } from '@assetloom/generator';
import {
  createMemoryStorage,
  decodePng,
  encodePng,
  type PipelineRequest,
  type RgbaImage,
} from '@assetloom/pipeline';

export interface GalleryEntry {
  name: string;
  request: Omit<PipelineRequest, 'keyPrefix'>;
}

const sprite = (prompt: string, style: Record<string, string>, resolution = 32) => ({
  prompt,
  assetType: 'sprite' as const,
  projectStyle: style,
  params: {
    resolution,
    frames: { directions: 1 as const, framesPerDirection: 1 },
    format: 'spritesheet' as const,
  },
});

/** What the gallery draws: characters, creatures and items, backgrounds, UI pieces and a walk cycle. */
export const GALLERY: GalleryEntry[] = [
  { name: 'sprite-knight', request: sprite('a brave knight', { palette: 'sweetie16' }) },
  { name: 'sprite-mage', request: sprite('a wizard with a staff', { palette: 'endesga32' }) },
  { name: 'sprite-rogue', request: sprite('a hooded rogue', { palette: 'pico8' }) },
  {
    name: 'sprite-robot',
    request: sprite('a little robot', { palette: 'sweetie16', lighting: 'top-right' }),
  },
  { name: 'sprite-slime', request: sprite('a green slime', { palette: 'sweetie16' }) },
  { name: 'sprite-ghost', request: sprite('a spooky ghost', { lighting: 'night' }) },
  {
    name: 'sprite-monster',
    request: sprite('a horned monster', { palette: 'endesga32', lineWeight: 'thick' }),
  },
  { name: 'sprite-potion', request: sprite('a healing potion', { palette: 'pico8' }) },
  { name: 'sprite-sword', request: sprite('a steel sword', { palette: 'sweetie16' }) },
  { name: 'sprite-gem', request: sprite('a ruby gem', { palette: 'endesga32' }) },
  { name: 'sprite-gameboy-hero', request: sprite('a hero', { palette: 'gameboy', artStyle: '8-bit' }) },
  {
    name: 'background-forest-sunset',
    request: {
      prompt: 'a forest at sunset',
      assetType: 'background',
      projectStyle: { lighting: 'sunset' },
      params: { resolution: 256, format: 'spritesheet' },
    },
  },
  {
    name: 'background-snow-night',
    request: {
      prompt: 'snowy mountains',
      assetType: 'background',
      projectStyle: { lighting: 'night', palette: 'endesga32' },
      params: { resolution: 256, format: 'spritesheet' },
    },
  },
  {
    name: 'background-desert-tileable',
    request: {
      prompt: 'desert dunes, seamless',
      assetType: 'background',
      projectStyle: { palette: 'sweetie16' },
      params: { resolution: 256, format: 'spritesheet' },
    },
  },
  {
    name: 'background-grass-texture',
    request: {
      prompt: 'grass ground texture',
      assetType: 'background',
      projectStyle: {},
      params: { resolution: 128, format: 'spritesheet' },
    },
  },
  {
    name: 'ui-panel',
    request: {
      prompt: 'wooden inventory panel',
      assetType: 'ui',
      projectStyle: { palette: 'sweetie16' },
      params: { resolution: 64, format: 'spritesheet' },
    },
  },
  {
    name: 'ui-button',
    request: {
      prompt: 'play button',
      assetType: 'ui',
      projectStyle: { palette: 'sweetie16' },
      params: { resolution: 64, format: 'spritesheet' },
    },
  },
  {
    name: 'ui-health-bar',
    request: {
      prompt: 'health bar',
      assetType: 'ui',
      projectStyle: { palette: 'endesga32' },
      params: { resolution: 96, format: 'spritesheet' },
    },
  },
  {
    name: 'animation-knight-walk',
    request: {
      prompt: 'a knight walking',
      assetType: 'animation',
      projectStyle: { palette: 'sweetie16', lineWeight: 'thin' },
      params: { resolution: 32, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
    },
  },
  {
    name: 'animation-slime-hop',
    request: {
      prompt: 'a slime hopping',
      assetType: 'animation',
      projectStyle: { palette: 'pico8' },
      params: { resolution: 32, frames: { directions: 4, framesPerDirection: 6 }, format: 'spritesheet' },
    },
  },
];

/** Nearest-neighbour enlargement so small pixel art can be seen. */
export function enlarge(img: RgbaImage, factor: number): RgbaImage {
  const w = img.width * factor;
  const h = img.height * factor;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (Math.floor(y / factor) * img.width + Math.floor(x / factor)) * 4;
      data.set(img.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data };
}

export interface GalleryFile {
  path: string;
  width: number;
  height: number;
}

/**
 * Runs every gallery entry through the pipeline and writes, per entry, the original files under
 * `<outDir>/raw/` (PNG + atlas files) and an enlarged preview `<outDir>/<name>.png`.
 */
export async function writeGallery(
  outDir: string,
  entries: GalleryEntry[] = GALLERY,
): Promise<GalleryFile[]> {
  const written: GalleryFile[] = [];
  for (const entry of entries) {
    const storage = createMemoryStorage();
    const result = await runPipeline({ ...entry.request, keyPrefix: `raw/${entry.name}/` }, { storage });
    if (!result.ok) throw new Error(`[assetloom/example-gallery] ${entry.name}: ${result.error}`);
    for (const key of storage.keys()) {
      const path = join(outDir, key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, storage.get(key)!.bytes);
    }
    const asset = result.assets[0]!;
    const decoded = decodePng(storage.get(asset.key)!.bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    const factor = Math.max(1, Math.floor(512 / Math.max(asset.width, asset.height)));
    const big = enlarge(decoded.image, factor);
    const path = join(outDir, `${entry.name}.png`);
    await writeFile(path, encodePng(big.data, big.width, big.height));
    written.push({ path, width: big.width, height: big.height });
  }
  return written;
}
