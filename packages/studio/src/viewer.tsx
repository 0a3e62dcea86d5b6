import type { Asset, Task } from '@assetloom/sdk';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { href, navigate, useStudio } from './context.js';
import type { MessageKey } from './i18n.js';
import { type LevelDescription, LevelPreview, type LoadedLevel } from './level.js';
import { errorText, serverText } from './messages.js';
import { TaskProgress, useTaskProgress } from './progress.js';
import { splitSections } from './project.js';
import { PictureNotes } from './results.js';
import { taskAssets } from './thumbnail.js';
import { paintCells } from './tilemap.js';
import {
  baseName,
  downloadPrefix,
  fileBytes,
  formatTime,
  imageUrl,
  loadImage,
  renameReferences,
  saveFile,
} from './util.js';

interface Frame {
  image: HTMLImageElement;
  x: number;
  y: number;
  w: number;
  h: number;
  /** ms */
  duration: number;
}
interface Animation {
  name: string;
  frames: Frame[];
}
/** A file the viewer offers: the PNGs, then every engine file named in their `metadata.atlas`. */
interface FileEntry {
  name: string;
  key: string;
  /** `png`, `json` (TexturePacker), `tres` (Godot) or the other `metadata.atlas` key (aseprite, phaser, …). */
  kind: string;
  label: MessageKey;
  type: string;
}
interface Loaded {
  assets: Asset[];
  images: Map<string, { url: string; image: HTMLImageElement }>;
  animations: Animation[];
  /** The playback rate the sheet was made for (Godot's `speed`), else the default. */
  fps: number;
  files: FileEntry[];
  /** A tileset's JSON description (`metadata.atlas.tileset`) with its image. */
  tileset?: { description: TilesetDescription; image: HTMLImageElement };
  /** A level's `level.json` with its tiles and props sheets (issue #42). */
  level?: LoadedLevel;
}

/** The parts of `tileset.json` (format assetloom-tileset, decision 0023) the viewer paints with. */
export interface TilesetDescription {
  kind: 'wang16' | 'blob47' | 'seamless';
  tileSize: number;
  columns: number;
  rows: number;
  terrains: { id: number; name: string; color: string }[];
  tiles: { id: number; x: number; y: number; corners: number[]; center: number; blobMask?: number }[];
}

/** `metadata.atlas` keys in the order the downloads list them, with their labels. */
const ATLAS_FILES: [string, MessageKey][] = [
  ['texturePacker', 'downloadJson'],
  ['godot', 'downloadTres'],
  ['aseprite', 'downloadAseprite'],
  ['phaser', 'downloadPhaser'],
  ['phaserAnimations', 'downloadPhaserAnimations'],
  ['unity', 'downloadUnity'],
  ['tiled', 'downloadTiled'],
  ['tileset', 'downloadTileset'],
  // a level's files (issue #42): `tiled` is then its TMX map and `godot` its scene
  ['tiledJson', 'downloadTmj'],
  ['tiledTileset', 'downloadTiled'],
  ['tiledProps', 'downloadTiledProps'],
  ['ldtk', 'downloadLdtk'],
  ['godotTileSet', 'downloadGodotTileSet'],
  ['tilesetImage', 'downloadTilesImage'],
  ['propsImage', 'downloadPropsImage'],
  ['level', 'downloadLevelJson'],
];
/** What a level's `tiled` and `godot` files are (its TMX map, its TileMapLayer scene). */
const LEVEL_LABELS: Record<string, MessageKey> = { tiled: 'downloadTmx', godot: 'downloadGodotScene' };
const contentTypeOf = (key: string) =>
  /\.(json|tmj|ldtk)$/.test(key)
    ? 'application/json'
    : /\.(tsx|tmx)$/.test(key)
      ? 'application/xml'
      : key.endsWith('.png')
        ? 'image/png'
        : 'text/plain';

const DEFAULT_FPS = 8;

interface QualityCheck {
  name: string;
  passed: boolean;
  value: number;
  expected: string;
  detail?: string;
}
interface Provenance {
  seed?: number;
  provider?: string;
  optimizedPrompt?: string;
  templateUsed?: boolean;
  attempt?: number;
  quality?: { passed: boolean; score: number; checks: QualityCheck[]; rejectReason?: string };
}

export function ViewerView({ projectId, taskId }: { projectId: string; taskId: string }) {
  const { api, t, lang, onApiError } = useStudio();
  const [finished, setFinished] = useState<Task | null>(null);
  const progress = useTaskProgress(taskId, (task) => setFinished(task));
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState('');
  const [backdrop, setBackdrop] = useState<Backdrop>('checker');

  useEffect(() => {
    if (finished?.status !== 'completed') return;
    let live = true;
    loadTask(api, taskId)
      .then((result) => live && setLoaded(result))
      .catch((e: Error & { httpStatus?: number }) => {
        if (!live) return;
        if ('httpStatus' in e) onApiError(e as never);
        setError(serverText(e.message, lang));
      });
    return () => {
      live = false;
    };
  }, [api, taskId, finished?.status]);

  const task = progress.task;
  const sheetAsset = loaded?.assets.find((a) => a.metadata.layout !== 'individual') ?? loaded?.assets[0];
  const provenance = (sheetAsset?.metadata.provenance ?? {}) as Provenance;
  return (
    <section class="page viewer">
      <div class="page-head">
        <p class="crumbs">
          <a href={href('projects')}>{t('projects')}</a> /{' '}
          <a href={`${href('projects', projectId)}?tab=history`}>{t('history')}</a> /
        </p>
        <h1 class="ellipsis">{task ? titleOf(task.prompt) : t('viewer')}</h1>
        {task && (
          <p class="muted">
            {t(`type_${task.assetType}` as MessageKey)} ·{' '}
            {task.params.level
              ? `${task.params.level.columns}×${task.params.level.rows} · ${task.params.level.tileSize}px · `
              : task.params.tileset
                ? `${t(`kind_${task.params.tileset.kind}` as MessageKey)} · ${task.params.tileset.tileSize}px · `
                : task.params.width !== undefined && task.params.height !== undefined
                  ? `${task.params.width}×${task.params.height}px · `
                  : `${task.params.resolution}px · `}
            {task.params.frames
              ? `${task.params.frames.directions}×${task.params.frames.framesPerDirection} · `
              : ''}
            {task.params.animation
              ? `${task.params.animation.fps} fps · ${t(`loop_${task.params.animation.loop}` as MessageKey)} · `
              : ''}
            {task.params.tileset || task.params.level
              ? ''
              : `${t(`format_${task.params.format}` as MessageKey)} · `}
            {t('generatedAt')} {formatTime(task.createdAt, lang)}
          </p>
        )}
      </div>
      {progress.done !== 'completed' && <TaskProgress taskId={taskId} state={progress} />}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {progress.done === 'completed' && loaded === null && !error && <p role="status">{t('loading')}</p>}
      {loaded && sheetAsset && <PictureNotes metadata={sheetAsset.metadata} />}
      {loaded && (
        <div class="viewer-grid">
          <SheetView loaded={loaded} backdrop={backdrop} onBackdrop={setBackdrop} />
          <div class="viewer-side">
            {loaded.level ? (
              <LevelPreview level={loaded.level} />
            ) : loaded.tileset ? (
              <MapPreview tileset={loaded.tileset} />
            ) : (
              // A still picture (a background, a one-frame sprite) has nothing to play: no player for it.
              loaded.animations.some((a) => a.frames.length > 1) && (
                <Preview
                  animations={loaded.animations}
                  fps={loaded.fps}
                  backdrop={backdrop}
                  loop={task?.params.animation?.loop}
                />
              )
            )}
            <Downloads loaded={loaded} task={task} />
            {task && <Variation task={task} />}
          </div>
          <QualityReport provenance={provenance} retryCount={task?.retryCount ?? 0} />
        </div>
      )}
    </section>
  );
}

/** A PNG the task wrote beside its asset (a level's sheets), as an image. */
async function sheetImage(api: ReturnType<typeof useStudio>['api'], key: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([(await fileBytes(api, key)) as BlobPart], { type: 'image/png' }));
  return loadImage(url);
}

/** The subject section of an optimized prompt, else the prompt itself. */
function titleOf(prompt: string): string {
  return splitSections(prompt)?.[0] || prompt;
}

async function loadTask(api: ReturnType<typeof useStudio>['api'], taskId: string): Promise<Loaded> {
  const assets = await taskAssets(api, taskId);
  const pngs = assets.filter((a) => a.format === 'png');
  const images = new Map<string, { url: string; image: HTMLImageElement }>();
  await Promise.all(
    pngs.map(async (asset) => {
      const url = await imageUrl(api, asset);
      images.set(asset.key, { url, image: await loadImage(url) });
    }),
  );
  const files: FileEntry[] = pngs.map((a) => ({
    name: baseName(a.key),
    key: a.key,
    kind: 'png',
    label: 'downloadPng',
    type: 'image/png',
  }));
  const isTileset = pngs.some((a) => a.metadata.tileset !== undefined);
  const isLevel = pngs.some((a) => a.metadata.level !== undefined);
  const seen = new Set<string>();
  for (const asset of pngs) {
    const atlas = (asset.metadata.atlas ?? {}) as Record<string, string | undefined>;
    for (const [name, label] of ATLAS_FILES) {
      const key = atlas[name];
      if (!key || seen.has(key)) continue;
      seen.add(key);
      files.push({
        name: baseName(key),
        key,
        kind: name === 'texturePacker' ? 'json' : name === 'godot' ? 'tres' : name,
        label: isLevel
          ? (LEVEL_LABELS[name] ?? label)
          : isTileset && name === 'godot'
            ? 'downloadGodotTileSet'
            : label,
        type: contentTypeOf(key),
      });
    }
  }

  const animations: Animation[] = [];
  const sheets = pngs
    .filter((a) => a.metadata.layout !== 'individual')
    .sort((a, b) => Number(a.metadata.page ?? 0) - Number(b.metadata.page ?? 0));
  const sheet = sheets[0];
  const atlasOf = (asset: Asset) =>
    (asset.metadata.atlas ?? {}) as { texturePacker?: string; godot?: string; tileset?: string };
  const levelAtlas = (sheet?.metadata.atlas ?? {}) as {
    level?: string;
    tilesetImage?: string;
    propsImage?: string;
  };
  if (sheet && levelAtlas.level && levelAtlas.tilesetImage && levelAtlas.propsImage) {
    // A level: its level.json drawn with its tiles and props sheets, layer by layer.
    const [description, tiles, props] = await Promise.all([
      fileBytes(api, levelAtlas.level).then(
        (b) => JSON.parse(new TextDecoder().decode(b)) as LevelDescription,
      ),
      sheetImage(api, levelAtlas.tilesetImage),
      sheetImage(api, levelAtlas.propsImage),
    ]);
    return { assets, images, animations, fps: DEFAULT_FPS, files, level: { description, tiles, props } };
  }
  const tilesetKey = sheet ? atlasOf(sheet).tileset : undefined;
  if (sheet && tilesetKey) {
    // A tileset: no animation; its JSON description paints the map preview.
    const description = JSON.parse(
      new TextDecoder().decode(await fileBytes(api, tilesetKey)),
    ) as TilesetDescription;
    return {
      assets,
      images,
      animations,
      fps: DEFAULT_FPS,
      files,
      tileset: { description, image: images.get(sheet.key)!.image },
    };
  }
  const jsonKey = sheet ? atlasOf(sheet).texturePacker : undefined;
  const tresKey = pngs.map((a) => atlasOf(a).godot).find(Boolean);
  let fps = DEFAULT_FPS;
  if (tresKey) {
    const tres = new TextDecoder().decode(await fileBytes(api, tresKey));
    const speed = /"speed":\s*([\d.]+)/.exec(tres);
    if (speed && Number(speed[1]) > 0) fps = Number(speed[1]);
  }
  if (sheet && jsonKey) {
    // The TexturePacker atlas of each page: frame rectangles, animations (in playing order, so
    // reverse and ping-pong play as asked) and per-frame durations. An animation lies on one page.
    for (const page of sheets) {
      const key = atlasOf(page).texturePacker;
      if (!key) continue;
      const atlas = JSON.parse(new TextDecoder().decode(await fileBytes(api, key))) as {
        frames: Record<string, { frame: { x: number; y: number; w: number; h: number }; duration?: number }>;
        animations?: Record<string, string[]>;
      };
      const image = images.get(page.key)!.image;
      const groups = atlas.animations ?? { [page.key]: Object.keys(atlas.frames) };
      for (const [name, frameNames] of Object.entries(groups)) {
        const frames = frameNames
          .map((frameName) => atlas.frames[frameName])
          .filter((f) => f !== undefined)
          .map((f) => ({ image, ...f.frame, duration: f.duration ?? 1000 / fps }));
        if (frames.length > 0) animations.push({ name, frames });
      }
    }
  } else if (sheet) {
    // No atlas (a background): the sheet is one frame, or a grid of directions × frames.
    const m = sheet.metadata as {
      frameWidth: number;
      frameHeight: number;
      directions: number;
      framesPerDirection?: number;
    };
    const image = images.get(sheet.key)!.image;
    const columns = Math.max(1, Math.floor(image.naturalWidth / m.frameWidth));
    for (let d = 0; d < Math.max(1, Math.floor(image.naturalHeight / m.frameHeight)); d++) {
      const frames: Frame[] = [];
      for (let c = 0; c < columns; c++)
        frames.push({
          image,
          x: c * m.frameWidth,
          y: d * m.frameHeight,
          w: m.frameWidth,
          h: m.frameHeight,
          duration: 1000 / fps,
        });
      animations.push({ name: `${d}`, frames });
    }
  } else {
    // Individual frames: one PNG per frame, grouped by direction in frame order.
    const byDirection = new Map<string, Frame[]>();
    const ordered = [...pngs].sort(
      (a, b) => Number(a.metadata.frameIndex ?? 0) - Number(b.metadata.frameIndex ?? 0),
    );
    for (const asset of ordered) {
      const direction = String(asset.metadata.direction ?? 'default');
      const image = images.get(asset.key)!.image;
      const list = byDirection.get(direction) ?? [];
      list.push({ image, x: 0, y: 0, w: image.naturalWidth, h: image.naturalHeight, duration: 1000 / fps });
      byDirection.set(direction, list);
    }
    for (const [name, frames] of byDirection) animations.push({ name, frames });
  }
  return { assets, images, animations, fps, files };
}

const ZOOMS = [1, 2, 3, 4, 6, 8];
type Zoom = number | 'fit';
/**
 * The "fit" zoom for pixels `width` × `height` in a box `room` wide: the largest whole scale that fits
 * (pixels stay square and crisp), or below 1× the exact fraction (a wide sheet on a phone).
 */
export function fitScale(width: number, height: number, room: number, maxHeight: number): number {
  const exact = Math.min(room / Math.max(1, width), maxHeight / Math.max(1, height));
  return exact >= 1 ? Math.min(8, Math.floor(exact)) : exact;
}
/** What the pixels are shown on: a transparency checkerboard, or a flat dark or light ground. */
const BACKDROPS = ['checker', 'dark', 'light'] as const;
type Backdrop = (typeof BACKDROPS)[number];

/** Keys typed into a field, or pressed on a button or link, are theirs. */
function ignoredTarget(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLButtonElement ||
    target instanceof HTMLAnchorElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

function SheetView({
  loaded,
  backdrop,
  onBackdrop,
}: {
  loaded: Loaded;
  backdrop: Backdrop;
  onBackdrop: (backdrop: Backdrop) => void;
}) {
  const { t } = useStudio();
  const [grid, setGrid] = useState(false);
  const pngs = loaded.assets.filter((a) => a.format === 'png');
  // A sheet wrapped past 4096 px is one asset per page: shown one page at a time.
  const pages = pngs
    .filter((a) => Number(a.metadata.pageCount ?? 1) > 1)
    .sort((a, b) => Number(a.metadata.page ?? 0) - Number(b.metadata.page ?? 0));
  const [pageIndex, setPageIndex] = useState(0);
  const shown = pages.length > 1 ? [pages[Math.min(pageIndex, pages.length - 1)]!] : pngs;
  const tileSize = loaded.tileset?.description.tileSize;
  // "Fit" (the default): the shown sheet(s) as large as the panel's width allows, at any screen width.
  const [zoomChoice, setZoom] = useState<Zoom>('fit');
  const scroller = useRef<HTMLElement>(null);
  const [room, setRoom] = useState(0);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => {
      const style = getComputedStyle(box);
      setRoom(box.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const widest = Math.max(1, ...shown.map((a) => loaded.images.get(a.key)?.image.naturalWidth ?? 1));
  const tallest = Math.max(1, ...shown.map((a) => loaded.images.get(a.key)?.image.naturalHeight ?? 1));
  const fit = room > 0 ? fitScale(widest, tallest, room, Math.max(160, window.innerHeight * 0.7 - 24)) : 1;
  const zoom = zoomChoice === 'fit' ? fit : zoomChoice;
  // + and − change the zoom from where it is (not while typing).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (ignoredTarget(event.target) && !(event.target instanceof HTMLButtonElement)) return;
      const step = event.key === '+' || event.key === '=' ? 1 : event.key === '-' ? -1 : 0;
      if (step === 0) return;
      setZoom((z) => {
        const now = z === 'fit' ? fit : z;
        const next = step > 0 ? ZOOMS.find((n) => n > now) : [...ZOOMS].reverse().find((n) => n < now);
        return next ?? (step > 0 ? ZOOMS[ZOOMS.length - 1]! : ZOOMS[0]!);
      });
      event.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [fit]);
  return (
    <section class="panel sheet-panel" aria-labelledby="sheet-title">
      <div class="panel-head">
        <h2 id="sheet-title">{t('sheet')}</h2>
        <fieldset class="segmented">
          <legend class="sr-only">{t('zoom')}</legend>
          <button
            type="button"
            aria-pressed={zoomChoice === 'fit'}
            aria-label={t('zoomFitLabel')}
            onClick={() => setZoom('fit')}
            data-testid="zoom-fit"
          >
            {t('zoomFit')}
          </button>
          {ZOOMS.map((z) => (
            <button key={z} type="button" aria-pressed={zoomChoice === z} onClick={() => setZoom(z)}>
              {z}×
            </button>
          ))}
        </fieldset>
        <fieldset class="segmented">
          <legend class="sr-only">{t('backdrop')}</legend>
          {BACKDROPS.map((b) => (
            <button key={b} type="button" aria-pressed={backdrop === b} onClick={() => onBackdrop(b)}>
              {t(`backdrop_${b}` as MessageKey)}
            </button>
          ))}
        </fieldset>
        <button type="button" class="ghost small" aria-pressed={grid} onClick={() => setGrid(!grid)}>
          {tileSize ? t('tileGrid') : t('frameGrid')}
        </button>
        {pages.length > 1 && (
          <fieldset class="segmented" data-testid="page-switcher">
            <legend class="sr-only">{t('pageOf', { i: pageIndex + 1, n: pages.length })}</legend>
            {pages.map((page, i) => (
              <button
                key={page.key}
                type="button"
                aria-pressed={pageIndex === i}
                aria-label={t('pageOf', { i: i + 1, n: pages.length })}
                onClick={() => setPageIndex(i)}
              >
                {i + 1}
              </button>
            ))}
          </fieldset>
        )}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (it scrolls with the arrow keys) */}
      <section ref={scroller} class={`sheet-scroll bg-${backdrop}`} tabIndex={0} aria-label={t('sheet')}>
        <div class="sheet-strip">
          {shown.map((asset) => {
            const entry = loaded.images.get(asset.key)!;
            const m = asset.metadata;
            return (
              <div class="sheet-cell" key={asset.key}>
                <img
                  class="pixelated"
                  src={entry.url}
                  alt={baseName(asset.key)}
                  width={Math.max(1, Math.round(entry.image.naturalWidth * zoom))}
                  height={Math.max(1, Math.round(entry.image.naturalHeight * zoom))}
                  data-testid="sheet-image"
                />
                {grid && (
                  // Set through the CSSOM (allowed by the CSP), one cell per frame.
                  <div
                    class="frame-grid"
                    data-testid="frame-grid"
                    style={{
                      backgroundSize: `${(tileSize ?? m.frameWidth) * zoom}px ${(tileSize ?? m.frameHeight) * zoom}px`,
                    }}
                  />
                )}
              </div>
            );
          })}
        </div>
      </section>
      <p class="muted mono">
        {shown[0]
          ? `${shown[0].width}×${shown[0].height}px · ${Number.isInteger(zoom) ? zoom : zoom.toFixed(2)}×${zoomChoice === 'fit' ? ` (${t('zoomFit')})` : ''}`
          : ''}
        {pages.length > 1 ? ` · ${t('pageOf', { i: pageIndex + 1, n: pages.length })}` : ''}
        {loaded.tileset
          ? ` · ${loaded.tileset.description.kind} · ${loaded.tileset.description.tiles.length} × ${tileSize}px · ${t('terrains')}: ${loaded.tileset.description.terrains.map((x) => x.name).join(' / ')}`
          : ''}
      </p>
    </section>
  );
}

function Preview({
  animations,
  fps,
  backdrop,
  loop,
}: {
  animations: Animation[];
  fps: number;
  backdrop: Backdrop;
  loop?: 'forward' | 'reverse' | 'pingpong';
}) {
  const { t } = useStudio();
  const [playing, setPlaying] = useState(true);
  const [index, setIndex] = useState(0);
  const longest = Math.max(1, ...animations.map((a) => a.frames.length));
  const duration =
    animations[0]?.frames[index % (animations[0]?.frames.length || 1)]?.duration ?? 1000 / DEFAULT_FPS;
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => setIndex((i) => (i + 1) % longest), duration);
    return () => clearTimeout(timer);
  }, [playing, index, longest, duration]);
  // Aseprite-style keys: Space plays/pauses, ← and → step (not while typing or on a button).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (ignoredTarget(event.target)) return;
      if (event.key === ' ') setPlaying((p) => !p);
      else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        setPlaying(false);
        const delta = event.key === 'ArrowLeft' ? -1 : 1;
        setIndex((i) => (i + delta + longest) % longest);
      } else return;
      event.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [longest]);
  return (
    <section class="panel preview-panel" aria-labelledby="preview-title">
      <div class="panel-head">
        <h2 id="preview-title">{t('preview')}</h2>
        <span class="muted mono" data-testid="fps">
          {t('fps', { fps })}
        </span>
        <span class="muted mono" data-testid="frame-ms">
          {t('frameMs', { ms: Math.round(duration) })}
        </span>
        {loop && loop !== 'forward' && (
          <span class="badge" data-testid="loop-mode">
            {t(`loop_${loop}` as MessageKey)}
          </span>
        )}
      </div>
      <div class="previews">
        {animations.map((animation) => (
          <figure key={animation.name}>
            <FrameCanvas
              frame={animation.frames[index % animation.frames.length]!}
              label={animation.name}
              backdrop={backdrop}
            />
            <figcaption class="mono">{animation.name}</figcaption>
          </figure>
        ))}
      </div>
      <fieldset class="row player">
        <legend class="sr-only">{t('preview')}</legend>
        <button
          type="button"
          class="ghost"
          aria-label={t('stepBack')}
          onClick={() => {
            setPlaying(false);
            setIndex((i) => (i - 1 + longest) % longest);
          }}
        >
          |◀
        </button>
        <button type="button" class="primary" onClick={() => setPlaying(!playing)} data-testid="play-pause">
          {playing ? `‖ ${t('pause')}` : `▶ ${t('play')}`}
        </button>
        <button
          type="button"
          class="ghost"
          aria-label={t('stepForward')}
          onClick={() => {
            setPlaying(false);
            setIndex((i) => (i + 1) % longest);
          }}
        >
          ▶|
        </button>
        <span class="mono" data-testid="frame-index" aria-live="polite">
          {playing ? '' : t('frame', { i: index + 1, n: longest })}
        </span>
        <span class="hint keys">{t('keys')}</span>
      </fieldset>
    </section>
  );
}

const MAP_COLUMNS = 12;
const MAP_ROWS = 8;

/** A small map painted from random terrain by the set's own autotile rules (its tileset.json). */
function MapPreview({ tileset }: { tileset: NonNullable<Loaded['tileset']> }) {
  const { t } = useStudio();
  const ref = useRef<HTMLCanvasElement>(null);
  const [seed, setSeed] = useState(1);
  const { description, image } = tileset;
  const size = description.tileSize;
  const painted = useMemo(() => paintCells(description, MAP_COLUMNS, MAP_ROWS, seed), [description, seed]);
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx) return;
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, MAP_COLUMNS * size, MAP_ROWS * size);
    const byId = new Map(description.tiles.map((tile) => [tile.id, tile]));
    painted.tiles.forEach((id, i) => {
      const tile = byId.get(id);
      if (!tile) return;
      const x = (i % MAP_COLUMNS) * size;
      const y = Math.floor(i / MAP_COLUMNS) * size;
      ctx.drawImage(image, tile.x, tile.y, size, size, x, y, size, size);
    });
  }, [painted, image, size, description]);
  return (
    <section class="panel preview-panel" aria-labelledby="map-title">
      <div class="panel-head">
        <h2 id="map-title">{t('mapPreview')}</h2>
        <button
          type="button"
          class="ghost small"
          onClick={() => setSeed((n) => n + 1)}
          data-testid="map-repaint"
        >
          ↻ {t('mapRepaint')}
        </button>
      </div>
      <canvas
        ref={ref}
        class="pixelated map-canvas"
        width={MAP_COLUMNS * size}
        height={MAP_ROWS * size}
        role="img"
        aria-label={t('mapPreview')}
        data-testid="map-canvas"
        data-columns={MAP_COLUMNS}
        data-tiles={painted.tiles.join(',')}
      />
      <p class="hint">{t('mapHint')}</p>
    </section>
  );
}

function FrameCanvas({ frame, label, backdrop }: { frame: Frame; label: string; backdrop: Backdrop }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const zoom = Math.max(1, Math.floor(128 / Math.max(frame.w, frame.h)));
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx) return;
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, frame.w * zoom, frame.h * zoom);
    ctx.drawImage(frame.image, frame.x, frame.y, frame.w, frame.h, 0, 0, frame.w * zoom, frame.h * zoom);
  }, [frame, zoom]);
  return (
    <canvas
      ref={ref}
      class={`bg-${backdrop} pixelated`}
      width={frame.w * zoom}
      height={frame.h * zoom}
      role="img"
      aria-label={label}
      data-testid="preview-canvas"
    />
  );
}

/** The quality supervisor's checks in plain words (its own names are for logs). */
const CHECK_WORDS: Record<string, MessageKey> = {
  frame_count: 'check_frame_count',
  size: 'check_size',
  not_blank: 'check_not_blank',
  alpha_coverage: 'check_alpha_coverage',
  palette: 'check_palette',
  frames_distinct: 'check_frames_distinct',
  frames_consistent: 'check_frames_consistent',
  prompt_adherence: 'check_prompt_adherence',
};

/** Checks whose value is a share (0–1), shown as a percentage. */
const SHARES = new Set(['alpha_coverage', 'palette', 'frames_consistent', 'prompt_adherence']);

/** A check's measure as a person reads it: shares as percentages, counts as counts. */
function measured(check: QualityCheck, t: ReturnType<typeof useStudio>['t']): string {
  if (check.name === 'size') return check.value === 0 ? '✓' : t('wrongSizeFrames', { n: check.value });
  if (check.name === 'frames_distinct') return check.value === 0 ? '✓' : t('stillCycles', { n: check.value });
  if (check.name === 'not_blank') return t('colorsCount', { n: check.value });
  if (SHARES.has(check.name) || !Number.isInteger(check.value)) return `${Math.round(check.value * 100)}%`;
  return String(check.value);
}

function QualityReport({ provenance, retryCount }: { provenance: Provenance; retryCount: number }) {
  const { t } = useStudio();
  const quality = provenance.quality;
  return (
    <section class="panel quality-panel" aria-labelledby="quality-title">
      <div class="panel-head">
        <h2 id="quality-title">{t('quality')}</h2>
        {quality && (
          <span
            class={`badge ${quality.passed ? 'status-completed' : 'status-failed'}`}
            data-testid="quality-verdict"
          >
            {quality.passed ? t('qualityPassed') : t('qualityFailed')} · {t('score')}{' '}
            {Math.round(quality.score * 100)}%
          </span>
        )}
      </div>
      {quality && (
        <table class="checks">
          <thead>
            <tr>
              <th scope="col">{t('check')}</th>
              <th scope="col">{t('value')}</th>
            </tr>
          </thead>
          <tbody>
            {quality.checks.map((check) => (
              <tr key={check.name} class={check.passed ? 'pass' : 'fail'} data-testid="quality-check">
                <th scope="row">
                  <span aria-hidden="true">{check.passed ? '✓' : '✗'}</span>{' '}
                  {CHECK_WORDS[check.name] ? t(CHECK_WORDS[check.name]!) : check.name.replaceAll('_', ' ')}
                  <span class="sr-only">{check.passed ? t('qualityPassed') : t('qualityFailed')}</span>
                </th>
                <td>{measured(check, t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl class="facts">
        <div>
          <dt>{t('retries')}</dt>
          <dd class="mono">{retryCount}</dd>
        </div>
        <div>
          <dt>{t('seed')}</dt>
          <dd class="mono">{provenance.seed ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('provider')}</dt>
          <dd class="mono">{provenance.provider ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('source')}</dt>
          <dd>{provenance.templateUsed ? t('promptByTemplate') : t('promptByLlm')}</dd>
        </div>
      </dl>
      {provenance.optimizedPrompt && (
        <details>
          <summary>{t('optimizedPrompt')}</summary>
          <pre class="prompt-text">{provenance.optimizedPrompt}</pre>
        </details>
      )}
    </section>
  );
}

/**
 * The same request with another seed: a new drawing of the same subject, followed in a new viewer.
 * One Idempotency-Key per seed, so a double click is one task.
 */
function Variation({ task }: { task: Task }) {
  const { api, t, lang, onApiError } = useStudio();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const seed = useMemo(() => crypto.getRandomValues(new Uint32Array(1))[0]!, []);
  const key = useMemo(() => crypto.randomUUID(), []);
  async function submit() {
    setBusy(true);
    const result = await api.generate(
      {
        projectId: task.projectId,
        prompt: task.prompt,
        assetType: task.assetType,
        taskStyle: task.taskStyle,
        params: { ...task.params, seed },
      },
      { idempotencyKey: key },
    );
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(errorText(result.error, lang));
      return;
    }
    navigate(href('projects', task.projectId, 'tasks', result.data.taskId));
  }
  return (
    <section class="panel" aria-labelledby="variation-title">
      <h2 id="variation-title">{t('variation')}</h2>
      <p class="hint">{t('variationHint', { seed })}</p>
      <button type="button" class="ghost" disabled={busy} onClick={submit} data-testid="variation">
        ↻ {t('variation')}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function Downloads({ loaded, task }: { loaded: Loaded; task: Task | null }) {
  const { api, t, lang, onApiError } = useStudio();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // One file is named after the prompt (`red-fox_sprite.png`, `red-fox_sprite.tres`), its text naming
  // the renamed files, so that two assets' files sit in one engine folder (issue #41); the zip keeps
  // the engine's own names, for a folder of their own.
  const prefix = task ? downloadPrefix(titleOf(task.prompt)) : '';
  const nameOf = (name: string) => (prefix ? `${prefix}_${name}` : name);
  const renamed = new Map(loaded.files.map((f) => [f.name, nameOf(f.name)] as const));
  async function one(file: Loaded['files'][number]) {
    try {
      let bytes = await fileBytes(api, file.key);
      if (prefix && !file.type.startsWith('image/'))
        bytes = new TextEncoder().encode(renameReferences(new TextDecoder().decode(bytes), renamed));
      saveFile(nameOf(file.name), bytes, file.type);
    } catch (e) {
      fail(e);
    }
  }
  function fail(e: unknown) {
    if (e && typeof e === 'object' && 'httpStatus' in e) onApiError(e as never);
    setError(serverText((e as Error).message, lang));
  }
  async function zip() {
    setBusy(true);
    try {
      const [{ zipSync }, contents] = await Promise.all([
        import('fflate'),
        Promise.all(loaded.files.map(async (f) => [f.name, await fileBytes(api, f.key)] as const)),
      ]);
      const archive = zipSync(Object.fromEntries(contents), { level: 6 });
      saveFile(
        prefix
          ? `${prefix}_${task?.assetType ?? 'asset'}.zip`
          : `${task?.assetType ?? 'asset'}-${task?.taskId ?? 'task'}.zip`,
        archive,
        'application/zip',
      );
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="panel downloads" aria-labelledby="downloads-title">
      <h2 id="downloads-title">{t('downloads')}</h2>
      <ul>
        {loaded.files.map((file) => (
          <li key={file.key}>
            <button
              type="button"
              class="ghost file"
              onClick={() => one(file)}
              data-testid={`download-${file.kind}`}
            >
              <span>{t(file.label)}</span>
              <span class="mono muted">{nameOf(file.name)}</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" class="primary" disabled={busy} onClick={zip} data-testid="download-zip">
        ⇩ {t('downloadZip')}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
