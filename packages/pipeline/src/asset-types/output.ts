/**
 * The files an asset type writes, as helpers the asset-type modules pick from: a sheet of frames or
 * one file per frame (with every engine's atlas), a background and its depth layers. Each returns
 * the writes (key, bytes, content type) and the assets the run reports, in the order they are made;
 * the format adapter (format.ts) puts them through the storage port.
 */
import { godotSpriteFrames } from '../formats/godot.js';
import { godotParallaxScene, type ParallaxLayer, parallaxJson } from '../formats/parallax.js';
import type { Playback } from '../formats/playback.js';
import { sheetFiles } from '../formats/sheets.js';
import type { FrameRect } from '../formats/texturepacker.js';
import type { Rgb } from '../palette.js';
import { encodePng } from '../png.js';
import type {
  AnimationParams,
  AssetMetadata,
  GeneratedAsset,
  OutputFormat,
  PipelineAsset,
  Provenance,
  RgbaImage,
} from '../types/index.js';
import type { ExpectedLayout } from './layout.js';

/** What an asset type's `files` is given: the run's drawing, its layout and where the files go. */
export interface OutputContext {
  generated: GeneratedAsset;
  layout: ExpectedLayout;
  /** `params.format`. */
  format: OutputFormat;
  keyPrefix: string;
  provenance: Provenance;
  /** `params.animation` (durations, loop), for the types that write playback. */
  animation: AnimationParams | null | undefined;
  /** The PNG text chunks every picture carries. */
  text: Record<string, string>;
  /** The enforced palette, or null: every PNG is then written indexed with exactly its colours. */
  palette: readonly Rgb[] | null;
}

/** A picture of the run as a PNG: its text chunks, indexed with the enforced palette when there is one. */
function pngOf(ctx: Pick<OutputContext, 'text' | 'palette'>, image: RgbaImage): Uint8Array {
  return encodePng(image.data, image.width, image.height, {
    text: ctx.text,
    ...(ctx.palette ? { palette: ctx.palette } : {}),
  });
}

/** The files of one run: what to write, and the assets it reports. */
export interface OutputFiles {
  writes: Array<[key: string, bytes: Uint8Array, contentType: string]>;
  assets: PipelineAsset[];
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const encoder = new TextEncoder();

/** Each frame's name, animation and place on the sheet (rows are directions, columns frames). */
export function frameRects(generated: GeneratedAsset, layout: ExpectedLayout): FrameRect[] {
  const cols = layout.framesPerDirection;
  const fw = layout.frameWidth;
  const fh = layout.frameHeight;
  return generated.frames.map((_, i) => {
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
}

/** The metadata every asset of the run carries (`animations` absent: a background has none). */
export function runMetadata(
  ctx: OutputContext,
  layoutKind: OutputFormat,
  animations: string[] | null,
): Omit<AssetMetadata, 'atlas' | 'tileset'> {
  const { generated, layout } = ctx;
  return {
    frameWidth: layout.frameWidth,
    frameHeight: layout.frameHeight,
    frameCount: generated.frames.length,
    directions: layout.directions,
    framesPerDirection: layout.framesPerDirection,
    layout: layoutKind,
    ...(animations === null ? {} : { animations }),
    ...(generated.nineSlice ? { nineSlice: generated.nineSlice } : {}),
    ...(generated.uiKind ? { uiKind: generated.uiKind } : {}),
    ...(generated.tileable !== undefined ? { tileable: generated.tileable } : {}),
    ...(generated.interpretation ? { interpretation: generated.interpretation } : {}),
    ...(generated.interpretation?.ignored.length
      ? { notHonoured: [...generated.interpretation.ignored] }
      : {}),
    ...(generated.views ? { views: generated.views } : {}),
    provenance: ctx.provenance,
  };
}

/**
 * Frames as a sheet (wrapped onto pages past 4096 px, with every engine's atlas: formats/sheets.ts)
 * or, with `format: individual`, one PNG per frame and a Godot SpriteFrames over them.
 */
export function frameFiles(ctx: OutputContext, stem: string, playback: Playback): OutputFiles {
  const { generated, layout, keyPrefix, text } = ctx;
  const names = frameRects(generated, layout);
  const metadata = runMetadata(ctx, ctx.format, [...new Set(names.map((n) => n.animation))]);
  const cols = layout.framesPerDirection;
  if (ctx.format === 'spritesheet') {
    return sheetFiles({
      frames: generated.frames,
      names,
      frameWidth: layout.frameWidth,
      frameHeight: layout.frameHeight,
      directions: layout.directions,
      framesPerDirection: cols,
      stem,
      keyPrefix,
      playback,
      metadata,
      text,
      palette: ctx.palette,
    });
  }
  const out: OutputFiles = { writes: [], assets: [] };
  const gdKey = `${keyPrefix}${stem}.tres`;
  const files: string[] = [];
  generated.frames.forEach((frame, i) => {
    const d = Math.floor(i / cols);
    const dir = layout.directionNames[d] ?? 'down';
    const label = generated.frameNames?.[i] ?? `${layout.directions > 1 ? `${dir}_` : ''}${i % cols}`;
    const key = `${keyPrefix}${stem}_${label}.png`;
    files.push(baseName(key));
    out.writes.push([key, pngOf(ctx, frame), 'image/png']);
    out.assets.push({
      key,
      format: 'png',
      width: frame.width,
      height: frame.height,
      contentType: 'image/png',
      metadata: { ...metadata, frameIndex: i, direction: dir, atlas: { godot: gdKey } },
    });
  });
  const rects = names.map((n, i) => ({ ...n, x: 0, y: 0, image: i, duration: playback.durations[i % cols] }));
  out.writes.push([
    gdKey,
    encoder.encode(godotSpriteFrames(files, rects, false, playback)),
    'text/plain; charset=utf-8',
  ]);
  return out;
}

/**
 * A background: one picture; with `format: individual`, its depth layers beside it (when it has
 * them), a Godot parallax scene and a JSON of the scroll factors (formats/parallax.ts).
 */
export function backgroundFiles(ctx: OutputContext, stem: string): OutputFiles {
  const { generated, keyPrefix } = ctx;
  const layered = ctx.format === 'individual' && (generated.layers?.length ?? 0) > 0;
  const metadata = runMetadata(ctx, layered ? 'individual' : 'spritesheet', null);
  const out: OutputFiles = { writes: [], assets: [] };
  const image = generated.frames[0]!;
  const pngKey = `${keyPrefix}${stem}.png`;
  const atlas: Record<string, string> = {};
  if (layered) {
    const layers: ParallaxLayer[] = [];
    for (const layer of generated.layers!) {
      if (!layer.image.data.some((v, i) => i % 4 === 3 && v !== 0)) continue;
      const key = `${keyPrefix}${stem}_${layer.name}.png`;
      layers.push({ name: layer.name, file: baseName(key), scroll: layer.scroll });
      out.writes.push([key, pngOf(ctx, layer.image), 'image/png']);
      out.assets.push({
        key,
        format: 'png',
        width: layer.image.width,
        height: layer.image.height,
        contentType: 'image/png',
        metadata: {
          ...metadata,
          layer: { name: layer.name, scroll: layer.scroll, index: layers.length - 1 },
        },
      });
    }
    const size = { width: image.width, height: image.height };
    const repeats = generated.tileable === true;
    atlas.godot = `${keyPrefix}${stem}.tscn`;
    atlas.parallax = `${keyPrefix}${stem}.parallax.json`;
    out.writes.push([
      atlas.godot,
      encoder.encode(godotParallaxScene(layers, size, repeats)),
      'text/plain; charset=utf-8',
    ]);
    out.writes.push([
      atlas.parallax,
      encoder.encode(parallaxJson(layers, size, repeats)),
      'application/json',
    ]);
    for (const a of out.assets) a.metadata = { ...a.metadata, atlas };
  }
  out.writes.unshift([pngKey, pngOf(ctx, image), 'image/png']);
  out.assets.unshift({
    key: pngKey,
    format: 'png',
    width: image.width,
    height: image.height,
    contentType: 'image/png',
    metadata: layered ? { ...metadata, atlas } : metadata,
  });
  return out;
}
