import { encodePng } from '../png.js';
import type { AssetMetadata, AtlasKeys, PipelineAsset, RgbaImage } from '../types/index.js';
import { asepriteSheet } from './aseprite.js';
import { godotSpriteFrames } from './godot.js';
import { composePage, layoutPages } from './pages.js';
import { phaserAnimations, phaserMultiAtlas } from './phaser.js';
import { type Playback, playOrder } from './playback.js';
import type { SheetAnimation, SheetDescription, SheetFrame } from './sheet.js';
import { type FrameRect, texturePackerAtlas } from './texturepacker.js';
import { unityTextureMeta } from './unity.js';

export type FileWrite = [key: string, bytes: Uint8Array, contentType: string];

export interface SheetInput {
  /** Direction-major frames, all `frameWidth × frameHeight`. */
  frames: readonly RgbaImage[];
  /** Name and animation of each frame (positions are computed here). */
  names: readonly Pick<FrameRect, 'name' | 'animation'>[];
  frameWidth: number;
  frameHeight: number;
  directions: number;
  framesPerDirection: number;
  /** File stem (`sprite`, `animation`, `ui-button`…) and storage key prefix. */
  stem: string;
  keyPrefix: string;
  playback: Playback;
  /** Metadata every page's asset carries (the atlas keys and page fields are added). */
  metadata: AssetMetadata;
  /** PNG text chunks. */
  text: Record<string, string>;
  /** The enforced palette: the pages are written indexed with exactly its colours. */
  palette?: readonly (readonly [number, number, number])[] | null;
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * A sprite sheet and its engine files: the PNG page(s) (wrapping past 4096 px, see layoutPages)
 * and, per page, a TexturePacker JSON hash (multipack: `related_multi_packs`), an Aseprite JSON
 * and a Unity `.meta`; over all pages one Godot SpriteFrames, one Phaser 3 multi-atlas and one
 * Phaser 3 animation JSON. One asset per page, each naming its files in `metadata.atlas`.
 */
export function sheetFiles(input: SheetInput): { writes: FileWrite[]; assets: PipelineAsset[] } {
  const { frames, names, frameWidth: fw, frameHeight: fh, stem, keyPrefix, playback } = input;
  const layout = layoutPages(fw, fh, input.directions, input.framesPerDirection);
  const paged = layout.pages.length > 1;
  const pageStem = (index: number) => (paged ? `${stem}-${index}` : stem);
  const sheetFrames: SheetFrame[] = names.map((n, i) => {
    const at = layout.placements[i]!;
    const duration = playback.durations[i % input.framesPerDirection] ?? playback.durations[0]!;
    return { name: n.name, animation: n.animation, page: at.page, x: at.x, y: at.y, w: fw, h: fh, duration };
  });
  const animations: SheetAnimation[] = [];
  sheetFrames.forEach((f, i) => {
    const current = animations.find((a) => a.name === f.animation);
    if (current) current.frames.push(i);
    else animations.push({ name: f.animation, frames: [i] });
  });
  const sheet: SheetDescription = {
    pages: layout.pages.map((p) => ({ image: `${pageStem(p.index)}.png`, width: p.width, height: p.height })),
    frames: sheetFrames,
    animations,
    playback,
  };
  const encoder = new TextEncoder();
  const writes: FileWrite[] = [];
  const assets: PipelineAsset[] = [];
  const shared = {
    godot: `${keyPrefix}${stem}.tres`,
    phaser: `${keyPrefix}${stem}.phaser.json`,
    phaserAnimations: `${keyPrefix}${stem}.phaser-anims.json`,
  };
  const tpName = (index: number) => `${pageStem(index)}.json`;
  const rectsOf = (page: number) => sheetFrames.filter((f) => f.page === page);
  for (const page of layout.pages) {
    const image = composePage(frames, layout, page);
    const png = sheet.pages[page.index]!.image;
    const pngKey = `${keyPrefix}${png}`;
    const keys: AtlasKeys = {
      texturePacker: `${keyPrefix}${tpName(page.index)}`,
      ...shared,
      aseprite: `${keyPrefix}${pageStem(page.index)}.aseprite.json`,
      unity: `${pngKey}.meta`,
    };
    writes.push([
      pngKey,
      encodePng(image.data, image.width, image.height, {
        text: input.text,
        ...(input.palette ? { palette: input.palette } : {}),
      }),
      'image/png',
    ]);
    // TexturePacker's `animations` has no loop mode: each lists its frames in playing order
    const tpAnimations: Record<string, string[]> = {};
    for (const a of animations) {
      if (sheetFrames[a.frames[0]!]!.page !== page.index) continue;
      tpAnimations[a.name] = playOrder(a.frames.length, playback.loop).map(
        (at) => sheetFrames[a.frames[at]!]!.name,
      );
    }
    const related = paged ? layout.pages.filter((p) => p !== page).map((p) => tpName(p.index)) : [];
    writes.push([
      keys.texturePacker!,
      encoder.encode(
        texturePackerAtlas(png, { w: image.width, h: image.height }, rectsOf(page.index), {
          animations: tpAnimations,
          relatedMultiPacks: related,
        }),
      ),
      JSON_TYPE,
    ]);
    writes.push([keys.aseprite!, encoder.encode(asepriteSheet(sheet, page.index)), JSON_TYPE]);
    writes.push([keys.unity!, encoder.encode(unityTextureMeta(sheet, page.index, pngKey)), TEXT_TYPE]);
    assets.push({
      key: pngKey,
      format: 'png',
      width: image.width,
      height: image.height,
      contentType: 'image/png',
      metadata: {
        ...input.metadata,
        ...(paged ? { page: page.index, pageCount: layout.pages.length } : {}),
        atlas: keys,
      },
    });
  }
  writes.push([
    shared.godot,
    encoder.encode(
      godotSpriteFrames(
        sheet.pages.map((p) => p.image),
        sheetFrames.map((f) => ({ ...f, image: f.page })),
        true,
        playback,
      ),
    ),
    TEXT_TYPE,
  ]);
  writes.push([shared.phaser, encoder.encode(phaserMultiAtlas(sheet)), JSON_TYPE]);
  writes.push([shared.phaserAnimations, encoder.encode(phaserAnimations(sheet, stem)), JSON_TYPE]);
  return { writes, assets };
}
