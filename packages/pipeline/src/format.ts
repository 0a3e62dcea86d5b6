import { errorMessage, PipelineError } from './errors.js';
import type { ExpectedLayout } from './layout.js';
import { encodePng } from './png.js';
import type { GeneratedAsset } from './providers/types.js';
import type { AssetType, OutputFormat, PipelineAsset, Provenance, RgbaImage, StoragePort } from './types.js';

/** Default playback rate written into the atlas files. */
export const FRAMES_PER_SECOND = 8;

export interface FrameRect {
  name: string;
  animation: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Places direction-major frames on a sheet: rows are directions, columns are frames. */
export function composeSheet(frames: readonly RgbaImage[], columns: number, rows: number): RgbaImage {
  const fw = frames[0]!.width;
  const fh = frames[0]!.height;
  const width = fw * columns;
  const height = fh * rows;
  const data = new Uint8Array(width * height * 4);
  frames.forEach((f, i) => {
    const ox = (i % columns) * fw;
    const oy = Math.floor(i / columns) * fh;
    for (let y = 0; y < fh; y++) {
      data.set(f.data.subarray(y * fw * 4, (y + 1) * fw * 4), ((oy + y) * width + ox) * 4);
    }
  });
  return { width, height, data };
}

/** The TexturePacker "JSON (Hash)" atlas that Phaser (`load.atlas`) and PixiJS (`Spritesheet`) read. */
export function texturePackerAtlas(
  image: string,
  size: { w: number; h: number },
  rects: readonly FrameRect[],
): string {
  const frames: Record<string, unknown> = {};
  const animations: Record<string, string[]> = {};
  for (const r of rects) {
    frames[r.name] = {
      frame: { x: r.x, y: r.y, w: r.w, h: r.h },
      rotated: false,
      trimmed: false,
      spriteSourceSize: { x: 0, y: 0, w: r.w, h: r.h },
      sourceSize: { w: r.w, h: r.h },
      pivot: { x: 0.5, y: 0.5 },
      duration: Math.round(1000 / FRAMES_PER_SECOND),
    };
    const list = animations[r.animation] ?? [];
    list.push(r.name);
    animations[r.animation] = list;
  }
  return `${JSON.stringify(
    {
      frames,
      animations,
      meta: {
        app: 'https://github.com/assetloom/assetloom',
        version: '1.0',
        image,
        format: 'RGBA8888',
        size,
        scale: '1',
      },
    },
    null,
    2,
  )}\n`;
}

/** A Godot 4 SpriteFrames resource (text .tres). `images` are file names beside the .tres. */
export function godotSpriteFrames(
  images: readonly string[],
  rects: ReadonlyArray<FrameRect & { image: number }>,
  atlas: boolean,
): string {
  const lines: string[] = [];
  const subCount = atlas ? rects.length : 0;
  lines.push(`[gd_resource type="SpriteFrames" load_steps=${images.length + subCount + 1} format=3]`, '');
  images.forEach((img, i) => {
    lines.push(`[ext_resource type="Texture2D" path="res://${img.replace(/"/g, '')}" id="${i + 1}_tex"]`);
  });
  lines.push('');
  if (atlas) {
    rects.forEach((r, i) => {
      lines.push(`[sub_resource type="AtlasTexture" id="AtlasTexture_${i}"]`);
      lines.push(`atlas = ExtResource("${r.image + 1}_tex")`);
      lines.push(`region = Rect2(${r.x}, ${r.y}, ${r.w}, ${r.h})`, '');
    });
  }
  const byAnim = new Map<string, number[]>();
  rects.forEach((r, i) => {
    const list = byAnim.get(r.animation) ?? [];
    list.push(i);
    byAnim.set(r.animation, list);
  });
  const anims = [...byAnim.entries()].map(([name, idx]) => {
    const frames = idx
      .map((i) => {
        const tex = atlas ? `SubResource("AtlasTexture_${i}")` : `ExtResource("${rects[i]!.image + 1}_tex")`;
        return `{\n"duration": 1.0,\n"texture": ${tex}\n}`;
      })
      .join(', ');
    return `{\n"frames": [${frames}],\n"loop": true,\n"name": &"${name}",\n"speed": ${FRAMES_PER_SECOND.toFixed(1)}\n}`;
  });
  lines.push('[resource]', `animations = [${anims.join(', ')}]`, '');
  return lines.join('\n');
}

export interface FormatInput {
  generated: GeneratedAsset;
  layout: ExpectedLayout;
  assetType: AssetType;
  format: OutputFormat;
  keyPrefix: string;
  provenance: Provenance;
  storage: StoragePort;
  signal?: AbortSignal;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Encodes PNGs and atlas files and writes them through the storage port. */
export async function formatAssets(input: FormatInput): Promise<PipelineAsset[]> {
  const { generated, layout, assetType, keyPrefix, provenance, storage, signal } = input;
  const frames = generated.frames;
  const fw = layout.frameWidth;
  const fh = layout.frameHeight;
  const stem = assetType === 'ui' ? `ui-${generated.uiKind ?? 'piece'}` : assetType;
  const single = assetType === 'background';
  const layoutKind: OutputFormat = single ? 'spritesheet' : input.format;
  const cols = layout.framesPerDirection;
  const rows = layout.directions;
  const names: FrameRect[] = frames.map((_, i) => {
    const d = Math.floor(i / cols);
    const f = i % cols;
    const dir = layout.directionNames[d] ?? 'down';
    const anim = generated.frameNames
      ? generated.animation
      : layout.directions > 1
        ? `${generated.animation}_${dir}`
        : generated.animation;
    const name = generated.frameNames?.[i]
      ? `${generated.animation}_${generated.frameNames[i]}`
      : `${anim}_${f}`;
    return { name, animation: anim, x: f * fw, y: d * fh, w: fw, h: fh };
  });
  const animations = [...new Set(names.map((n) => n.animation))];
  const writes: Array<[string, Uint8Array, string]> = [];
  const assets: PipelineAsset[] = [];
  const meta = {
    frameWidth: fw,
    frameHeight: fh,
    frameCount: frames.length,
    directions: layout.directions,
    framesPerDirection: layout.framesPerDirection,
    layout: layoutKind,
    ...(single ? {} : { animations }),
    ...(generated.nineSlice ? { nineSlice: generated.nineSlice } : {}),
    ...(generated.uiKind ? { uiKind: generated.uiKind } : {}),
    ...(generated.tileable !== undefined ? { tileable: generated.tileable } : {}),
    ...(generated.interpretation ? { interpretation: generated.interpretation } : {}),
    provenance,
  };
  const text = { Software: 'assetloom', Comment: `seed ${provenance.seed}` };
  const encoder = new TextEncoder();
  if (layoutKind === 'spritesheet') {
    const sheet = single ? frames[0]! : composeSheet(frames, cols, rows);
    const pngKey = `${keyPrefix}${stem}.png`;
    writes.push([pngKey, encodePng(sheet.data, sheet.width, sheet.height, { text }), 'image/png']);
    let atlas: PipelineAsset['metadata']['atlas'];
    if (!single) {
      const tpKey = `${keyPrefix}${stem}.json`;
      const gdKey = `${keyPrefix}${stem}.tres`;
      const png = baseName(pngKey);
      writes.push([
        tpKey,
        encoder.encode(texturePackerAtlas(png, { w: sheet.width, h: sheet.height }, names)),
        'application/json',
      ]);
      writes.push([
        gdKey,
        encoder.encode(
          godotSpriteFrames(
            [png],
            names.map((n) => ({ ...n, image: 0 })),
            true,
          ),
        ),
        'text/plain; charset=utf-8',
      ]);
      atlas = { texturePacker: tpKey, godot: gdKey };
    }
    assets.push({
      key: pngKey,
      format: 'png',
      width: sheet.width,
      height: sheet.height,
      contentType: 'image/png',
      metadata: { ...meta, ...(atlas ? { atlas } : {}) },
    });
  } else {
    const gdKey = `${keyPrefix}${stem}.tres`;
    const files: string[] = [];
    frames.forEach((frame, i) => {
      const d = Math.floor(i / cols);
      const dir = layout.directionNames[d] ?? 'down';
      const label = generated.frameNames?.[i] ?? `${layout.directions > 1 ? `${dir}_` : ''}${i % cols}`;
      const key = `${keyPrefix}${stem}_${label}.png`;
      files.push(baseName(key));
      writes.push([key, encodePng(frame.data, frame.width, frame.height, { text }), 'image/png']);
      assets.push({
        key,
        format: 'png',
        width: frame.width,
        height: frame.height,
        contentType: 'image/png',
        metadata: { ...meta, frameIndex: i, direction: dir, atlas: { godot: gdKey } },
      });
    });
    const rects = names.map((n, i) => ({ ...n, x: 0, y: 0, image: i }));
    writes.push([gdKey, encoder.encode(godotSpriteFrames(files, rects, false)), 'text/plain; charset=utf-8']);
  }
  for (const [key, bytes, type] of writes) {
    signal?.throwIfAborted();
    try {
      await storage.put(key, bytes, type);
    } catch (error) {
      throw new PipelineError('storage_failed', 'the generated files could not be stored', {
        cause: error,
        detail: `storage.put(${JSON.stringify(key)}) failed: ${errorMessage(error)}; check the storage adapter`,
      });
    }
  }
  return assets;
}
