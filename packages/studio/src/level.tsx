import { useEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from './context.js';
import type { MessageKey } from './i18n.js';

/** The parts of `level.json` (format assetloom-level, issue #42) the viewer draws with. */
export interface LevelDescription {
  columns: number;
  rows: number;
  tileSize: number;
  terrains: { id: number; name: string; walkable: boolean }[];
  tiles: { columns: number; count: number; lattice: number[][] };
  /** Tile id per cell, row-major (-1: none). */
  map: number[];
  props: { kind: string; x: number; y: number; blocks: boolean }[];
  propSheet?: { size: number; kinds: string[] };
  places: { name: string; x: number; y: number }[];
  regions: { name: string; kind: string; x: number; y: number; width: number; height: number }[];
}

export interface LoadedLevel {
  description: LevelDescription;
  tiles: HTMLImageElement;
  props: HTMLImageElement;
}

/** The layers a person turns on and off, in drawing order. */
const LAYERS = ['tiles', 'props', 'collision', 'regions', 'places'] as const;
type Layer = (typeof LAYERS)[number];
const LAYER_WORDS: Record<Layer, MessageKey> = {
  tiles: 'layerTiles',
  props: 'layerProps',
  collision: 'layerCollision',
  regions: 'layerRegions',
  places: 'layerPlaces',
};

/** A tile blocks a walker when any of its corners' terrains is not walked on (the engine files' rule). */
function blockedTiles(level: LevelDescription): boolean[] {
  const walkable = level.terrains.map((t) => t.walkable);
  return level.map.map((id) => {
    const lattice = level.tiles.lattice[id];
    return lattice?.some((terrain) => walkable[terrain] === false) === true;
  });
}

/**
 * The level drawn from its own files as an engine would: its tiles by the map, its props as objects
 * over them, and the collision, regions and places a game reads; each a layer turned on or off.
 */
export function LevelPreview({ level }: { level: LoadedLevel }) {
  const { t } = useStudio();
  const ref = useRef<HTMLCanvasElement>(null);
  const [shown, setShown] = useState<Record<Layer, boolean>>({
    tiles: true,
    props: true,
    collision: false,
    regions: false,
    places: false,
  });
  const { description: d, tiles, props } = level;
  const s = d.tileSize;
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx) return;
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, d.columns * s, d.rows * s);
    if (shown.tiles)
      d.map.forEach((id, i) => {
        if (id < 0) return;
        const sx = (id % d.tiles.columns) * s;
        const sy = Math.floor(id / d.tiles.columns) * s;
        ctx.drawImage(tiles, sx, sy, s, s, (i % d.columns) * s, Math.floor(i / d.columns) * s, s, s);
      });
    if (shown.collision) {
      ctx.fillStyle = 'rgba(230, 40, 40, 0.45)';
      blockedTiles(d).forEach((blocked, i) => {
        if (blocked) ctx.fillRect((i % d.columns) * s, Math.floor(i / d.columns) * s, s, s);
      });
    }
    const sheet = d.propSheet;
    if (shown.props && sheet)
      for (const p of d.props) {
        const k = sheet.kinds.indexOf(p.kind);
        if (k < 0) continue;
        ctx.drawImage(
          props,
          k * sheet.size,
          0,
          sheet.size,
          sheet.size,
          p.x * s - s / 2,
          (p.y + 1) * s - 2 * s,
          sheet.size,
          sheet.size,
        );
        if (shown.collision && p.blocks) {
          ctx.fillStyle = 'rgba(230, 40, 40, 0.45)';
          ctx.fillRect(p.x * s, p.y * s, s, s);
        }
      }
    ctx.font = `${Math.max(8, s - 4)}px sans-serif`;
    if (shown.regions)
      for (const r of d.regions) {
        ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
        ctx.lineWidth = 1;
        ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.width - 1, r.height - 1);
        ctx.fillStyle = 'white';
        ctx.fillText(r.name, r.x + 2, r.y + s - 2);
      }
    if (shown.places)
      for (const p of d.places) {
        ctx.fillStyle = 'rgba(255, 220, 0, 0.95)';
        ctx.beginPath();
        ctx.arc(p.x, p.y, Math.max(2, s / 3), 0, 2 * Math.PI);
        ctx.fill();
        ctx.fillStyle = 'white';
        ctx.fillText(p.name, p.x + s / 2, p.y);
      }
  }, [d, tiles, props, s, shown]);
  return (
    <section class="panel preview-panel" aria-labelledby="level-title">
      <div class="panel-head">
        <h2 id="level-title">{t('levelPreview')}</h2>
      </div>
      <fieldset class="level-layers">
        <legend>{t('levelLayers')}</legend>
        {LAYERS.map((layer) => (
          <label key={layer}>
            <input
              type="checkbox"
              checked={shown[layer]}
              onChange={(e) => setShown({ ...shown, [layer]: (e.target as HTMLInputElement).checked })}
              data-testid={`layer-${layer}`}
            />{' '}
            {t(LAYER_WORDS[layer])}
          </label>
        ))}
      </fieldset>
      <canvas
        ref={ref}
        class="pixelated map-canvas"
        width={d.columns * s}
        height={d.rows * s}
        role="img"
        aria-label={t('levelPreview')}
        data-testid="level-canvas"
        data-layers={LAYERS.filter((l) => shown[l]).join(',')}
      />
      <p class="hint">{t('levelHint')}</p>
    </section>
  );
}
