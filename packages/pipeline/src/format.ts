import { errorMessage, exposedMessage, PipelineError } from './errors.js';
import { godotSpriteFrames } from './formats/godot.js';
import { godotParallaxScene, type ParallaxLayer, parallaxJson } from './formats/parallax.js';
import { ANIMATION_DEFAULTS, resolvePlayback } from './formats/playback.js';
import { sheetFiles } from './formats/sheets.js';
import type { FrameRect } from './formats/texturepacker.js';
import type { ExpectedLayout } from './layout.js';
import { encodePng } from './png.js';
import { tilesetFiles } from './tileset/files.js';
import type {
  AnimationParams,
  AssetType,
  GeneratedAsset,
  OutputFormat,
  PipelineAsset,
  Provenance,
  StoragePort,
} from './types/index.js';

export { composeSheet } from './formats/compose.js';
export { godotSpriteFrames } from './formats/godot.js';
export { type FrameRect, type TexturePackerOptions, texturePackerAtlas } from './formats/texturepacker.js';

/** Default playback rate written into the atlas files (the contract's `Animation.fps` default). */
export const FRAMES_PER_SECOND = ANIMATION_DEFAULTS.fps;

export interface FormatInput {
  generated: GeneratedAsset;
  layout: ExpectedLayout;
  assetType: AssetType;
  format: OutputFormat;
  keyPrefix: string;
  provenance: Provenance;
  storage: StoragePort;
  signal?: AbortSignal;
  /** Sprite and animation: the request's `params.animation` (durations, loop), written into every atlas. */
  animation?: AnimationParams | null;
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
  // a background asked for `individual` files gets its depth layers as files too (when it has them)
  const layered = single && input.format === 'individual' && (generated.layers?.length ?? 0) > 0;
  const layoutKind: OutputFormat = single ? (layered ? 'individual' : 'spritesheet') : input.format;
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
    ...(generated.views ? { views: generated.views } : {}),
    provenance,
  };
  const text = { Software: 'assetloom', Comment: `seed ${provenance.seed}` };
  const encoder = new TextEncoder();
  const animated = assetType === 'sprite' || assetType === 'animation';
  const playback = resolvePlayback(animated ? input.animation : undefined, cols);
  if (assetType === 'tileset' && layout.tileset) {
    // a tileset: the tiles on the set's grid with Godot, Tiled and JSON files (tileset/files.ts)
    const set = tilesetFiles({
      generated,
      layout,
      keyPrefix,
      metadata: meta,
      text,
      quality: provenance.quality,
    });
    writes.push(...set.writes);
    assets.push(...set.assets);
  } else if (layoutKind === 'spritesheet' && !single) {
    // the sheet, wrapped onto pages past 4096 px, with every engine's atlas (formats/sheets.ts)
    const sheet = sheetFiles({
      frames,
      names,
      frameWidth: fw,
      frameHeight: fh,
      directions: rows,
      framesPerDirection: cols,
      stem,
      keyPrefix,
      playback,
      metadata: meta,
      text,
    });
    writes.push(...sheet.writes);
    assets.push(...sheet.assets);
  } else if (single) {
    // a background: one picture; with `individual`, its depth layers beside it, a Godot parallax
    // scene and a JSON of the scroll factors (formats/parallax.ts)
    const image = frames[0]!;
    const pngKey = `${keyPrefix}${stem}.png`;
    const atlas: Record<string, string> = {};
    if (layered) {
      const layers: ParallaxLayer[] = [];
      for (const layer of generated.layers!) {
        if (!layer.image.data.some((v, i) => i % 4 === 3 && v !== 0)) continue;
        const key = `${keyPrefix}${stem}_${layer.name}.png`;
        layers.push({ name: layer.name, file: baseName(key), scroll: layer.scroll });
        writes.push([
          key,
          encodePng(layer.image.data, layer.image.width, layer.image.height, { text }),
          'image/png',
        ]);
        assets.push({
          key,
          format: 'png',
          width: layer.image.width,
          height: layer.image.height,
          contentType: 'image/png',
          metadata: { ...meta, layer: { name: layer.name, scroll: layer.scroll, index: layers.length - 1 } },
        });
      }
      const size = { width: image.width, height: image.height };
      const repeats = generated.tileable === true;
      atlas.godot = `${keyPrefix}${stem}.tscn`;
      atlas.parallax = `${keyPrefix}${stem}.parallax.json`;
      writes.push([
        atlas.godot,
        encoder.encode(godotParallaxScene(layers, size, repeats)),
        'text/plain; charset=utf-8',
      ]);
      writes.push([atlas.parallax, encoder.encode(parallaxJson(layers, size, repeats)), 'application/json']);
      for (const a of assets) a.metadata = { ...a.metadata, atlas };
    }
    writes.unshift([pngKey, encodePng(image.data, image.width, image.height, { text }), 'image/png']);
    assets.unshift({
      key: pngKey,
      format: 'png',
      width: image.width,
      height: image.height,
      contentType: 'image/png',
      metadata: layered ? { ...meta, atlas } : meta,
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
    const rects = names.map((n, i) => ({
      ...n,
      x: 0,
      y: 0,
      image: i,
      duration: playback.durations[i % cols],
    }));
    writes.push([
      gdKey,
      encoder.encode(godotSpriteFrames(files, rects, false, playback)),
      'text/plain; charset=utf-8',
    ]);
  }
  await putAll(storage, writes, signal);
  return assets;
}

/** How many of a task's files are handed to the storage port at once. */
const PUTS_IN_FLIGHT = 8;

/**
 * Writes a task's files through the storage port, up to PUTS_IN_FLIGHT at a time, started in order.
 * A durable store makes each file durable before it becomes visible (the filesystem driver syncs
 * each one); one after another, every file of a sheet waited for its own disk flush, while flushes
 * that overlap share the device (a journal merges them into one commit), and an object store's
 * uploads overlap too.
 * The first failure stops starting new writes, waits for those in flight, and is the one reported;
 * an abort is checked before each write starts.
 */
async function putAll(
  storage: FormatInput['storage'],
  writes: ReadonlyArray<[string, Uint8Array, string]>,
  signal: AbortSignal | undefined,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < writes.length) {
      if (signal?.aborted) {
        failure ??= { error: signal.reason };
        return;
      }
      const [key, bytes, type] = writes[next++] as [string, Uint8Array, string];
      try {
        await storage.put(key, bytes, type);
      } catch (error) {
        // A storage that names its failure for end users (`expose`, e.g. "storage full") is quoted.
        const exposed = exposedMessage(error);
        failure ??= {
          error: new PipelineError(
            'storage_failed',
            `the generated files could not be stored${exposed === undefined ? '' : `: ${exposed}`}`,
            {
              cause: error,
              detail: `storage.put(${JSON.stringify(key)}) failed: ${errorMessage(error)}; check the storage adapter`,
            },
          ),
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PUTS_IN_FLIGHT, writes.length) }, lane));
  if (failure !== undefined) throw failure.error;
}
