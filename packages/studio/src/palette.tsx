import { useEffect, useState } from 'preact/hooks';
import { builtInCatalog, type StyleCatalog, styleCatalog } from './catalog.js';
import { useStudio } from './context.js';
import type { MessageKey } from './i18n.js';
import { emptyPair, type Pair } from './style-editor.js';

/** The style catalogue (the server's, else the built-in one); the built-in one until the server answers. */
export function useStyleCatalog(): StyleCatalog {
  const { api } = useStudio();
  const [catalog, setCatalog] = useState<StyleCatalog>(builtInCatalog);
  useEffect(() => {
    let live = true;
    void styleCatalog(api).then((c) => live && setCatalog(c));
    return () => {
      live = false;
    };
  }, [api]);
  return catalog;
}

/** `Sweetie-16`, `sweetie 16` and `sweetie16` name one palette, as the generator reads them. */
const normal = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
const HEX = /#?[0-9a-f]{6}\b|#[0-9a-f]{3}\b/gi;

/** The colours a custom `palette` value lists (`#1a1c2c, #5d275d, …`), for its swatches. */
function customColors(value: string): string[] {
  return (value.match(HEX) ?? []).map((h) => {
    const hex = h.replace('#', '');
    return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`.toLowerCase();
  });
}

function Swatches({ colors }: { colors: string[] }) {
  const shown = colors.slice(0, 16);
  return (
    <span class="swatches" aria-hidden="true">
      {shown.map((color, i) => (
        // Set through the CSSOM (allowed by the CSP), as the viewer's grid is.
        <span key={`${i}-${color}`} class="swatch" style={{ backgroundColor: color }} />
      ))}
      {colors.length > shown.length && <span class="swatch-more">+{colors.length - shown.length}</span>}
    </span>
  );
}

/**
 * A palette chosen by its swatches: one radio a palette of the catalogue, "none" (or the project's,
 * in the generate form) first, and a custom value (hex colours) when the style holds one.
 */
export function PalettePicker(props: {
  catalog: StyleCatalog;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  name: string;
  legend: string;
  /** The first choice: no palette (style tab) or the project's own (generate form). */
  emptyLabel: string;
  hint?: string;
}) {
  const { t } = useStudio();
  const { catalog, value, onChange, name } = props;
  const current = value?.trim() ? value : undefined;
  const known =
    current === undefined ? undefined : catalog.palettes.find((p) => normal(p.name) === normal(current));
  const custom = current !== undefined && known === undefined ? customColors(current) : [];
  const hintId = `${name}-hint`;
  return (
    <fieldset
      class="palette-picker"
      data-testid="palette-picker"
      aria-describedby={props.hint ? hintId : undefined}
    >
      <legend>{props.legend}</legend>
      {props.hint && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      <div class="palette-options">
        <label class="palette-option" data-palette="">
          <input
            type="radio"
            name={name}
            checked={current === undefined}
            onChange={() => onChange(undefined)}
          />
          <span class="palette-name">{props.emptyLabel}</span>
        </label>
        {catalog.palettes.map((palette) => (
          <label class="palette-option" key={palette.name} data-palette={palette.name}>
            <input
              type="radio"
              name={name}
              value={palette.name}
              checked={known?.name === palette.name}
              onChange={() => onChange(palette.name)}
            />
            <span class="palette-name">
              {palette.name}
              <span class="muted"> · {t('colorsCount', { n: palette.colors.length })}</span>
            </span>
            <Swatches colors={palette.colors} />
          </label>
        ))}
        {current !== undefined && known === undefined && (
          <label class="palette-option" data-palette="custom">
            <input type="radio" name={name} checked onChange={() => onChange(current)} />
            <span class="palette-name">
              {t('paletteCustom')}
              <span class="muted"> · {t('colorsCount', { n: custom.length })}</span>
            </span>
            <Swatches colors={custom} />
          </label>
        )}
      </div>
    </fieldset>
  );
}

/** Style presets an artist starts from: each sets several keys at once (any can be changed after). */
export const PRESETS: { id: string; label: MessageKey; style: Record<string, string> }[] = [
  {
    id: 'gameboy',
    label: 'preset_gameboy',
    style: { artStyle: '8-bit', palette: 'gameboy', lineWeight: 'thin' },
  },
  { id: 'pico8', label: 'preset_pico8', style: { artStyle: 'pixel', palette: 'pico8', lineWeight: 'thin' } },
  { id: 'nes', label: 'preset_nes', style: { artStyle: '8-bit', palette: 'nes', lineWeight: 'thick' } },
  {
    id: 'sweetie16',
    label: 'preset_sweetie16',
    style: { artStyle: 'pixel', palette: 'sweetie16', lineWeight: 'thin', lighting: 'top-left' },
  },
  {
    id: 'night',
    label: 'preset_night',
    style: { artStyle: 'pixel', palette: 'endesga32', lineWeight: 'thin', lighting: 'night' },
  },
  {
    id: 'cartoon',
    label: 'preset_cartoon',
    style: { artStyle: 'cartoon', palette: 'endesga32', lineWeight: 'thick', lighting: 'soft' },
  },
];

/** The pairs with `key` set to `value` (its row kept in place, else a new row), or removed for undefined. */
export function withKey(pairs: Pair[], key: string, value: string | undefined): Pair[] {
  const rows = pairs.filter((p) => !(p.key === '' && p.value === ''));
  const at = rows.findIndex((p) => p.key === key);
  if (value === undefined) return at < 0 ? rows : rows.filter((_, i) => i !== at);
  if (at >= 0) return rows.map((p, i) => (i === at ? { ...p, value } : p));
  return [...rows, { ...emptyPair(), key, value }];
}

/** The artist's side of the style: presets, the palette by its swatches, the art style. The key/value editor follows for the rest. */
export function StylePickers({ pairs, onChange }: { pairs: Pair[]; onChange: (pairs: Pair[]) => void }) {
  const { t } = useStudio();
  const catalog = useStyleCatalog();
  const get = (key: string) => pairs.find((p) => p.key === key)?.value;
  const artStyle = get('artStyle');
  const artStyles =
    artStyle && !catalog.artStyles.includes(artStyle) ? [...catalog.artStyles, artStyle] : catalog.artStyles;
  return (
    <div class="stack style-pickers">
      <fieldset class="presets" data-testid="presets">
        <legend>{t('presets')}</legend>
        <p class="hint">{t('presetsHint')}</p>
        <div class="row">
          {PRESETS.map((preset) => (
            <button
              key={preset.id}
              type="button"
              class="ghost small"
              data-preset={preset.id}
              onClick={() =>
                onChange(
                  Object.entries(preset.style).reduce(
                    (rows, [key, value]) => withKey(rows, key, value),
                    pairs,
                  ),
                )
              }
            >
              {t(preset.label)}
            </button>
          ))}
        </div>
      </fieldset>
      <PalettePicker
        catalog={catalog}
        name="style-palette"
        legend={t('palette')}
        hint={t('paletteHint')}
        emptyLabel={t('paletteNone')}
        value={get('palette')}
        onChange={(value) => onChange(withKey(pairs, 'palette', value))}
      />
      <label>
        {t('artStyle')}
        <select
          name="artStyle"
          value={artStyle ?? ''}
          onChange={(e) =>
            onChange(withKey(pairs, 'artStyle', (e.currentTarget as HTMLSelectElement).value || undefined))
          }
        >
          <option value="">{t('artStyleNone')}</option>
          {artStyles.map((style) => (
            <option key={style} value={style}>
              {style}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
