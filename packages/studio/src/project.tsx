import type { AssetloomApiError, AssetType, TaskListItem } from '@assetloom/sdk';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { CharactersPanel } from './characters-lazy.js';
import { href, useStudio } from './context.js';
import type { MessageKey } from './i18n.js';
import { errorText, shownError } from './messages.js';
import { PalettePicker, StylePickers, useStyleCatalog } from './palette.js';
import { PictureInput, type PictureParams } from './picture-input.js';
import { LiveResults } from './results.js';
import { emptyPair, mapOf, type Pair, pairProblems, pairsOf, StyleEditor } from './style-editor.js';
import { Thumbnail } from './thumbnail.js';
import { formatTime } from './util.js';

const TABS = ['generate', 'history', 'characters', 'style'] as const;

/** What the project screens need: the detail (name) and the style (kvPairs). */
interface Project {
  id: string;
  name: string;
  kvPairs: Record<string, string>;
}

export function ProjectView({ projectId, tab }: { projectId: string; tab: string }) {
  const { api, t, lang, onApiError } = useStudio();
  const [project, setProject] = useState<Project | null>(null);
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const path = { params: { path: { projectId } } };
    void Promise.all([
      api.GET('/api/v1/projects/{projectId}', path),
      api.GET('/api/v1/projects/{projectId}/style', path),
    ]).then(([detail, style]) => {
      const failed = detail.error ?? style.error;
      if (failed) {
        onApiError(failed);
        setError(errorText(failed, lang));
      } else setProject({ id: detail.data!.id, name: detail.data!.name, kvPairs: style.data!.kvPairs });
    });
  }, [api, projectId, version]);

  const active = (TABS as readonly string[]).includes(tab) ? tab : 'generate';
  if (error) {
    return (
      <section class="page">
        <p class="error" role="alert">
          {error}
        </p>
        <a href={href('projects')}>← {t('projects')}</a>
      </section>
    );
  }
  if (project === null) return <p role="status">{t('loading')}</p>;
  return (
    <section class="page">
      <div class="page-head">
        <p class="crumbs">
          <a href={href('projects')}>{t('projects')}</a> /
        </p>
        <h1>{project.name}</h1>
      </div>
      <nav class="tabs" aria-label={project.name}>
        {TABS.map((name) => (
          <a
            key={name}
            href={`${href('projects', projectId)}?tab=${name}`}
            aria-current={active === name ? 'page' : undefined}
          >
            {t(name as MessageKey)}
          </a>
        ))}
      </nav>
      {active === 'generate' && (
        <GeneratePanel project={project} onSubmitted={() => setVersion((v) => v + 1)} />
      )}
      {active === 'history' && <History projectId={projectId} />}
      {active === 'characters' && <CharactersPanel projectId={projectId} />}
      {active === 'style' && <StylePanel project={project} onSaved={() => setVersion((v) => v + 1)} />}
    </section>
  );
}

const ASSET_TYPES: AssetType[] = ['sprite', 'animation', 'background', 'ui', 'tileset', 'level'];
const TILESET_KINDS = ['wang16', 'blob47', 'seamless'] as const;
type TilesetKind = (typeof TILESET_KINDS)[number];
const LOOPS = ['forward', 'reverse', 'pingpong'] as const;
type Loop = (typeof LOOPS)[number];
/**
 * Canvases a game uses for backgrounds and UI pieces (`params.width` × `params.height`, issue #28):
 * `square` sends neither (the resolution square, as spec 000 says), `custom` shows two inputs.
 */
export const CANVAS_PRESETS = ['320x180', '480x270', '640x360', '256x256'] as const;
type Canvas = 'square' | (typeof CANVAS_PRESETS)[number] | 'custom';
/** The width and height a canvas choice sends, or undefined for `square`. */
export function canvasParams(
  canvas: Canvas,
  custom: { width: number; height: number },
): { width: number; height: number } | undefined {
  if (canvas === 'square') return undefined;
  if (canvas === 'custom') return { width: custom.width, height: custom.height };
  const [width, height] = canvas.split('x').map(Number) as [number, number];
  return { width, height };
}
/** The contract's playback defaults (decision 0020): a request that keeps them sends no `animation`. */
const DEFAULT_FPS = 8;

/** "100, 100, 200" → [100, 100, 200]; empty → undefined; anything else is sent as typed for the API to refuse. */
export function parseDurations(text: string): number[] | undefined {
  const parts = text
    .split(/[,，\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length === 0 ? undefined : parts.map(Number);
}
const SECTIONS = [
  ['【主题】', 'sectionSubject'],
  ['【风格】', 'sectionStyle'],
  ['【技术】', 'sectionTech'],
] as const;

/** Splits an optimized prompt into its three sections (null when it does not have them in order). */
export function splitSections(prompt: string): [string, string, string] | null {
  const positions = SECTIONS.map(([head]) => prompt.indexOf(head));
  if (positions.some((p) => p < 0) || !(positions[0]! < positions[1]! && positions[1]! < positions[2]!))
    return null;
  const body = (i: number) =>
    prompt.slice(positions[i]! + SECTIONS[i]![0].length, i < 2 ? positions[i + 1] : undefined).trim();
  return [body(0), body(1), body(2)];
}

/** The generate form's controls, by the JSON pointer of their value in the request (field messages go there). */
const GENERATE_FIELDS = [
  '/prompt',
  '/tags',
  '/userNote',
  '/assetType',
  '/taskStyle',
  '/params/resolution',
  '/params/width',
  '/params/height',
  '/params/format',
  '/params/frames/directions',
  '/params/frames/framesPerDirection',
  '/params/animation/fps',
  '/params/animation/loop',
  '/params/animation/frameDurations',
  '/params/tileset/kind',
  '/params/tileset/tileSize',
  '/params/level/columns',
  '/params/level/rows',
  '/params/level/tileSize',
  '/params/level/tilesetTaskId',
  '/params/seed',
] as const;
type GenerateField = (typeof GENERATE_FIELDS)[number];
/** How many variations one click makes (each with its own seed). */
const VARIATION_COUNTS = [1, 2, 4, 8] as const;
const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0]!;

/** What the Generate form holds, by project and field, for the page's life (issue #41). */
const keptFields = new Map<string, unknown>();

/**
 * `useState` whose value outlives the component: the Generate form is unmounted when another tab is
 * shown, and comes back as it was left (issue #41: "the form resets when switching tabs").
 */
function useKept<T>(
  scope: string,
  name: string,
  initial: T | (() => T),
): [T, (next: T | ((prev: T) => T)) => void] {
  const key = `${scope}\u0000${name}`;
  const [value, setValue] = useState<T>(() =>
    keptFields.has(key)
      ? (keptFields.get(key) as T)
      : typeof initial === 'function'
        ? (initial as () => T)()
        : initial,
  );
  useEffect(() => {
    keptFields.set(key, value);
  }, [key, value]);
  return [value, setValue];
}

function GeneratePanel({ project, onSubmitted }: { project: Project; onSubmitted: () => void }) {
  const { api, t, lang, onApiError } = useStudio();
  const catalog = useStyleCatalog();
  const [assetType, setAssetType] = useKept<AssetType>(project.id, 'assetType', 'sprite');
  const [description, setDescription] = useKept(project.id, 'description', '');
  // The optimizer needs at least one tag: the project's style values, else a pixel-art default.
  const [tags, setTags] = useKept(
    project.id,
    'tags',
    () => Object.values(project.kvPairs).join(', ') || 'pixel art',
  );
  const [note, setNote] = useKept(project.id, 'note', '');
  const [optimized, setOptimized] = useState<{
    sections: [string, string, string] | null;
    text: string;
    source: string;
  } | null>(null);
  const [optimizing, setOptimizing] = useState(false);
  const [resolution, setResolution] = useKept(project.id, 'resolution', 64);
  const [canvas, setCanvas] = useKept<Canvas>(project.id, 'canvas', 'square');
  const [customWidth, setCustomWidth] = useKept(project.id, 'customWidth', 320);
  const [customHeight, setCustomHeight] = useKept(project.id, 'customHeight', 180);
  const [directions, setDirections] = useKept<1 | 4 | 8>(project.id, 'directions', 4);
  const [frames, setFrames] = useKept(project.id, 'frames', 4);
  const [format, setFormat] = useKept<'spritesheet' | 'individual'>(project.id, 'format', 'spritesheet');
  const [seed, setSeed] = useKept(project.id, 'seed', '');
  const [tilesetKind, setTilesetKind] = useKept<TilesetKind>(project.id, 'tilesetKind', 'wang16');
  const [tileSize, setTileSize] = useKept(project.id, 'tileSize', 16);
  const [levelColumns, setLevelColumns] = useKept(project.id, 'levelColumns', 32);
  const [levelRows, setLevelRows] = useKept(project.id, 'levelRows', 24);
  const [levelTileset, setLevelTileset] = useKept(project.id, 'levelTileset', '');
  const [fps, setFps] = useKept(project.id, 'fps', DEFAULT_FPS);
  const [loop, setLoop] = useKept<Loop>(project.id, 'loop', 'forward');
  const [durations, setDurations] = useKept(project.id, 'durations', '');
  const [apiError, setApiError] = useState<AssetloomApiError | undefined>();
  const [localError, setLocalError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [taskIds, setTaskIds] = useKept<string[]>(project.id, 'taskIds', []);
  const [historyTick, setHistoryTick] = useState(0);
  // a picture to start from, a mask, a palette from a picture (issue #31)
  const [picture, setPicture] = useState<PictureParams>({});
  const [palette, setPalette] = useKept<string | undefined>(project.id, 'palette', undefined);
  const [variations, setVariations] = useKept<number>(project.id, 'variations', 1);
  const hasFrames = assetType === 'sprite' || assetType === 'animation';
  const isTileset = assetType === 'tileset';
  // a level (issue #42): its size in tiles, and a tileset task of the project or its own tiles at a tile size
  const isLevel = assetType === 'level';
  const hasCanvas = assetType === 'background' || assetType === 'ui';
  const size = hasCanvas ? canvasParams(canvas, { width: customWidth, height: customHeight }) : undefined;

  const finalPrompt = optimized
    ? optimized.sections
      ? SECTIONS.map(([head], i) => `${head}${optimized.sections![i]}`).join('\n')
      : optimized.text
    : description;
  const frameDurations = parseDurations(durations);
  // Checked here so the message can say what is wrong (the API answers a bare 参数错误).
  const durationsWrong =
    hasFrames &&
    frameDurations !== undefined &&
    (frameDurations.length !== frames ||
      frameDurations.some((ms) => !Number.isInteger(ms) || ms < 1 || ms > 65535));
  const animation =
    fps !== DEFAULT_FPS || loop !== 'forward' || frameDurations
      ? { fps, loop, ...(frameDurations ? { frameDurations } : {}) }
      : undefined;
  const params = {
    resolution,
    ...(size ?? {}),
    format,
    ...(hasFrames ? { frames: { directions, framesPerDirection: frames } } : {}),
    ...(hasFrames && animation ? { animation } : {}),
    ...(isTileset ? { tileset: { kind: tilesetKind, tileSize } } : {}),
    ...(isLevel
      ? {
          level: {
            columns: levelColumns,
            rows: levelRows,
            ...(levelTileset.trim() ? { tilesetTaskId: levelTileset.trim() } : { tileSize }),
          },
        }
      : {}),
    ...(seed.trim() === '' ? {} : { seed: Number(seed) }),
    ...picture,
  };
  const taskStyle = palette === undefined ? undefined : { palette };
  // One Idempotency-Key per distinct submission and variation: a double click (or a retried request)
  // sends the same keys and the server answers the same tasks. Variations get their seeds with the keys.
  const fingerprint = JSON.stringify([project.id, finalPrompt, assetType, params, taskStyle, variations]);
  // A submission that started its tasks is done: the next click is a new request (new keys, new
  // seeds), whether or not those tasks have ended. Keys used to turn over only when the tasks'
  // ends were seen, so a click that came between a task's last status and that moment was answered
  // with the finished task again instead of a new one.
  const [round, setRound] = useState(0);
  const submission = useMemo(
    () =>
      Array.from({ length: variations }, (_, i) => ({
        key: crypto.randomUUID(),
        seed: params.seed === undefined ? randomSeed() : (params.seed + i) % 2 ** 32,
      })),
    [fingerprint, round],
  );
  const shown = shownError(apiError, lang, GENERATE_FIELDS);
  /**
   * aria attributes and the message for the control of `path` (with its hint, if it has one). The
   * message sits inside the control's label, so it is hidden from the label's name and read as the
   * control's description instead.
   */
  const field = (path: GenerateField, hintId?: string) => {
    const text = shown.at(path);
    const id = `generate-error${path.replaceAll('/', '-')}`;
    const describedBy = [hintId, text === undefined ? undefined : id].filter(Boolean).join(' ');
    return {
      attrs: { 'aria-invalid': text !== undefined, 'aria-describedby': describedBy || undefined },
      note:
        text === undefined ? null : (
          <span class="field-error" id={id} aria-hidden="true" data-testid={`field-error${path}`}>
            {text}
          </span>
        ),
    };
  };
  const error = localError || shown.general;
  const prompt = field('/prompt');

  async function optimize() {
    setOptimizing(true);
    setApiError(undefined);
    setLocalError('');
    const tagList = tags
      .split(/[,，]/)
      .map((tag) => tag.trim())
      .filter(Boolean);
    const result = await api.POST('/api/v1/prompt/optimize', {
      body: {
        tags: tagList,
        assetType,
        ...(description.trim() ? { prompt: description } : {}),
        ...(note.trim() ? { userNote: note } : {}),
      },
    });
    setOptimizing(false);
    if (result.error) {
      onApiError(result.error);
      setApiError(result.error);
      return;
    }
    setOptimized({
      sections: splitSections(result.data.prompt),
      text: result.data.prompt,
      source: result.response.headers.get('x-prompt-source') ?? 'template',
    });
  }

  async function submit(event: Event) {
    event.preventDefault();
    setApiError(undefined);
    setLocalError('');
    if (durationsWrong) {
      setLocalError(t('durationsInvalid', { n: frames, got: frameDurations!.length }));
      return;
    }
    setSubmitting(true);
    // The last submission's results go: its "completed" must not stand for the new request's.
    setTaskIds([]);
    // One task a variation, each with its own seed; the first refusal is shown (at its field).
    const results = await Promise.all(
      submission.map(({ key, seed }) =>
        api.generate(
          {
            projectId: project.id,
            prompt: finalPrompt,
            assetType,
            params: variations === 1 ? params : { ...params, seed },
            ...(taskStyle ? { taskStyle } : {}),
          },
          { idempotencyKey: key },
        ),
      ),
    );
    setSubmitting(false);
    const failed = results.find((r) => r.error)?.error;
    if (failed) {
      onApiError(failed);
      setApiError(failed);
    }
    const started = results.flatMap((r) => (r.data ? [r.data.taskId] : []));
    if (started.length === 0) return;
    // Every variation started: new keys next time. A partial refusal keeps them, so submitting again
    // answers the started tasks and retries only the refused.
    if (!failed) setRound((n) => n + 1);
    setTaskIds(started);
    setHistoryTick((n) => n + 1);
    onSubmitted();
  }

  return (
    <div class="workspace">
      <form class="panel stack generate-form" onSubmit={submit} aria-labelledby="generate-title">
        <h2 id="generate-title">{t('generate')}</h2>
        <label>
          {t('prompt')}
          <textarea
            name="prompt"
            rows={3}
            value={description}
            placeholder={t('promptPlaceholder')}
            {...prompt.attrs}
            onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)}
          />
          {prompt.note}
        </label>
        <div class="grid2">
          <label>
            {t('tags')}
            <input
              name="tags"
              value={tags}
              {...field('/tags', 'tags-hint').attrs}
              onInput={(e) => setTags((e.currentTarget as HTMLInputElement).value)}
            />
            <span class="hint" id="tags-hint">
              {t('tagsHint')}
            </span>
            {field('/tags').note}
          </label>
          <label>
            {t('userNote')}
            <input
              name="userNote"
              value={note}
              {...field('/userNote').attrs}
              onInput={(e) => setNote((e.currentTarget as HTMLInputElement).value)}
            />
            {field('/userNote').note}
          </label>
        </div>
        <div class="row">
          <button type="button" class="ghost" onClick={optimize} disabled={optimizing}>
            ✦ {optimizing ? t('optimizing') : t('optimize')}
          </button>
          {optimized && (
            <button type="button" class="ghost" onClick={() => setOptimized(null)}>
              {t('useOriginal')}
            </button>
          )}
        </div>
        {optimized && (
          <fieldset class="optimized" data-testid="optimized">
            <legend>
              {t('optimized')}{' '}
              <span class={`badge source-${optimized.source}`} data-testid="prompt-source">
                {optimized.source === 'llm' ? t('promptByLlm') : t('promptByTemplate')}
              </span>
            </legend>
            {optimized.sections ? (
              SECTIONS.map(([head, key], i) => (
                <label key={head}>
                  {t(key)}
                  <textarea
                    rows={2}
                    data-section={head}
                    value={optimized.sections![i]}
                    onInput={(e) => {
                      const sections = [...optimized.sections!] as [string, string, string];
                      sections[i] = (e.currentTarget as HTMLTextAreaElement).value;
                      setOptimized({ ...optimized, sections });
                    }}
                  />
                </label>
              ))
            ) : (
              <textarea
                rows={5}
                aria-label={t('optimized')}
                value={optimized.text}
                onInput={(e) =>
                  setOptimized({ ...optimized, text: (e.currentTarget as HTMLTextAreaElement).value })
                }
              />
            )}
          </fieldset>
        )}
        <div class="grid3">
          <label>
            {t('assetType')}
            <select
              name="assetType"
              value={assetType}
              {...field('/assetType').attrs}
              onChange={(e) => setAssetType((e.currentTarget as HTMLSelectElement).value as AssetType)}
            >
              {ASSET_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`type_${type}` as MessageKey)}
                </option>
              ))}
            </select>
            {field('/assetType').note}
          </label>
          {hasCanvas && (
            <label>
              {t('canvas')}
              <select
                name="canvas"
                value={canvas}
                aria-describedby="canvas-hint"
                onChange={(e) => setCanvas((e.currentTarget as HTMLSelectElement).value as Canvas)}
              >
                <option value="square">{t('canvasSquare')}</option>
                {CANVAS_PRESETS.map((preset) => (
                  <option key={preset} value={preset}>
                    {preset.replace('x', ' × ')}
                  </option>
                ))}
                <option value="custom">{t('canvasCustom')}</option>
              </select>
              <span class="hint" id="canvas-hint">
                {t('canvasHint')}
              </span>
            </label>
          )}
          {hasCanvas && canvas === 'custom' && (
            <label>
              {t('canvasWidth')}
              <input
                name="width"
                type="number"
                min={16}
                max={1024}
                step={1}
                value={customWidth}
                {...field('/params/width').attrs}
                onInput={(e) => setCustomWidth(Number((e.currentTarget as HTMLInputElement).value))}
              />
              {field('/params/width').note}
            </label>
          )}
          {hasCanvas && canvas === 'custom' && (
            <label>
              {t('canvasHeight')}
              <input
                name="height"
                type="number"
                min={16}
                max={1024}
                step={1}
                value={customHeight}
                {...field('/params/height').attrs}
                onInput={(e) => setCustomHeight(Number((e.currentTarget as HTMLInputElement).value))}
              />
              {field('/params/height').note}
            </label>
          )}
          {isLevel && (
            <>
              <label>
                {t('levelColumns')}
                <input
                  name="levelColumns"
                  type="number"
                  min={8}
                  max={256}
                  step={1}
                  value={levelColumns}
                  {...field('/params/level/columns').attrs}
                  onInput={(e) => setLevelColumns(Number((e.currentTarget as HTMLInputElement).value))}
                />
                {field('/params/level/columns').note}
              </label>
              <label>
                {t('levelRows')}
                <input
                  name="levelRows"
                  type="number"
                  min={8}
                  max={256}
                  step={1}
                  value={levelRows}
                  {...field('/params/level/rows').attrs}
                  onInput={(e) => setLevelRows(Number((e.currentTarget as HTMLInputElement).value))}
                />
                {field('/params/level/rows').note}
              </label>
              <label>
                {t('levelTilesetTask')}
                <input
                  name="levelTilesetTask"
                  type="text"
                  value={levelTileset}
                  placeholder="tsk_…"
                  {...field('/params/level/tilesetTaskId', 'level-tileset-hint').attrs}
                  onInput={(e) => setLevelTileset((e.currentTarget as HTMLInputElement).value)}
                />
                <span class="hint" id="level-tileset-hint">
                  {t('levelTilesetHint')}
                </span>
                {field('/params/level/tilesetTaskId').note}
              </label>
              {levelTileset.trim() === '' && (
                <label>
                  {t('tileSize')}
                  <input
                    name="levelTileSize"
                    type="number"
                    min={8}
                    max={64}
                    step={1}
                    value={tileSize}
                    {...field('/params/level/tileSize').attrs}
                    onInput={(e) => setTileSize(Number((e.currentTarget as HTMLInputElement).value))}
                  />
                  {field('/params/level/tileSize').note}
                </label>
              )}
            </>
          )}
          {!isTileset && !isLevel && !size && (
            <label>
              {t('resolution')}
              <input
                name="resolution"
                type="number"
                min={16}
                max={1024}
                step={1}
                value={resolution}
                {...field('/params/resolution').attrs}
                onInput={(e) => setResolution(Number((e.currentTarget as HTMLInputElement).value))}
              />
              {field('/params/resolution').note}
            </label>
          )}
          {isTileset && (
            <label>
              {t('tilesetKind')}
              <select
                name="tilesetKind"
                value={tilesetKind}
                {...field('/params/tileset/kind').attrs}
                onChange={(e) => setTilesetKind((e.currentTarget as HTMLSelectElement).value as TilesetKind)}
              >
                {TILESET_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`kind_${kind}` as MessageKey)}
                  </option>
                ))}
              </select>
              {field('/params/tileset/kind').note}
            </label>
          )}
          {isTileset && (
            <label>
              {t('tileSize')}
              <input
                name="tileSize"
                type="number"
                min={8}
                max={64}
                step={1}
                value={tileSize}
                {...field('/params/tileset/tileSize', 'tile-size-hint').attrs}
                onInput={(e) => setTileSize(Number((e.currentTarget as HTMLInputElement).value))}
              />
              <span class="hint" id="tile-size-hint">
                {t('tileSizeHint')}
              </span>
              {field('/params/tileset/tileSize').note}
            </label>
          )}
          {!isTileset && !isLevel && (
            <label>
              {t('format')}
              <select
                name="format"
                value={format}
                {...field('/params/format').attrs}
                onChange={(e) =>
                  setFormat((e.currentTarget as HTMLSelectElement).value as 'spritesheet' | 'individual')
                }
              >
                <option value="spritesheet">{t('format_spritesheet')}</option>
                <option value="individual">{t('format_individual')}</option>
              </select>
              {field('/params/format').note}
            </label>
          )}
          {hasFrames && (
            <label>
              {t('directions')}
              <select
                name="directions"
                value={String(directions)}
                {...field('/params/frames/directions').attrs}
                onChange={(e) =>
                  setDirections(Number((e.currentTarget as HTMLSelectElement).value) as 1 | 4 | 8)
                }
              >
                {[1, 4, 8].map((n) => (
                  <option key={n} value={String(n)}>
                    {n}
                  </option>
                ))}
              </select>
              {field('/params/frames/directions').note}
            </label>
          )}
          {hasFrames && (
            <label>
              {t('framesPerDirection')}
              <input
                name="framesPerDirection"
                type="number"
                min={1}
                max={16}
                step={1}
                value={frames}
                {...field('/params/frames/framesPerDirection').attrs}
                onInput={(e) => setFrames(Number((e.currentTarget as HTMLInputElement).value))}
              />
              {field('/params/frames/framesPerDirection').note}
            </label>
          )}
          {hasFrames && (
            <label>
              {t('animFps')}
              <input
                name="fps"
                type="number"
                min={1}
                max={60}
                step={1}
                value={fps}
                {...field('/params/animation/fps').attrs}
                onInput={(e) => setFps(Number((e.currentTarget as HTMLInputElement).value))}
              />
              {field('/params/animation/fps').note}
            </label>
          )}
          {hasFrames && (
            <label>
              {t('loop')}
              <select
                name="loop"
                value={loop}
                {...field('/params/animation/loop').attrs}
                onChange={(e) => setLoop((e.currentTarget as HTMLSelectElement).value as Loop)}
              >
                {LOOPS.map((mode) => (
                  <option key={mode} value={mode}>
                    {t(`loop_${mode}` as MessageKey)}
                  </option>
                ))}
              </select>
              {field('/params/animation/loop').note}
            </label>
          )}
          {hasFrames && (
            <label>
              {t('frameDurations')}
              <input
                name="frameDurations"
                inputMode="numeric"
                value={durations}
                {...field('/params/animation/frameDurations', 'durations-hint').attrs}
                aria-invalid={
                  (durationsWrong && localError !== '') ||
                  shown.at('/params/animation/frameDurations') !== undefined
                }
                onInput={(e) => setDurations((e.currentTarget as HTMLInputElement).value)}
              />
              <span class="hint" id="durations-hint">
                {t('frameDurationsHint')}
              </span>
              {field('/params/animation/frameDurations').note}
            </label>
          )}
          <div class="field seed-field">
            <label for="seed">{t('seedOptional')}</label>
            <span class="with-button">
              <input
                id="seed"
                name="seed"
                inputMode="numeric"
                value={seed}
                placeholder={t('seedRandom')}
                {...field('/params/seed').attrs}
                onInput={(e) => setSeed((e.currentTarget as HTMLInputElement).value)}
              />
              <button
                type="button"
                class="ghost small"
                onClick={() => setSeed(String(crypto.getRandomValues(new Uint32Array(1))[0]))}
              >
                {t('seedDice')}
              </button>
            </span>
            {field('/params/seed').note}
          </div>
          <label>
            {t('variations')}
            <select
              name="variations"
              value={String(variations)}
              aria-describedby="variations-hint"
              onChange={(e) => setVariations(Number((e.currentTarget as HTMLSelectElement).value))}
            >
              {VARIATION_COUNTS.map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
            <span class="hint" id="variations-hint">
              {t('variationsHint')}
            </span>
          </label>
        </div>
        <PalettePicker
          catalog={catalog}
          name="task-palette"
          legend={t('palette')}
          emptyLabel={
            project.kvPairs.palette
              ? t('paletteProject', { name: project.kvPairs.palette })
              : t('paletteNone')
          }
          value={palette}
          onChange={setPalette}
        />
        {field('/taskStyle').note}
        {error && (
          <p class="error" role="alert" data-testid="generate-error">
            {error}
          </p>
        )}
        <PictureInput assetType={assetType} onChange={setPicture} />
        <button type="submit" class="primary big" disabled={submitting} data-testid="generate">
          {submitting ? t('submitting') : t('generate')}
        </button>
      </form>
      <div class="side">
        {taskIds.length > 0 && (
          <LiveResults
            key={taskIds.join()}
            taskIds={taskIds}
            onEnd={() => {
              setHistoryTick((n) => n + 1);
              onSubmitted();
            }}
          />
        )}
        <History projectId={project.id} compact refresh={historyTick} />
      </div>
    </div>
  );
}

const HISTORY_PAGE = 12;

export function History({
  projectId,
  compact,
  refresh = 0,
}: {
  projectId: string;
  compact?: boolean;
  refresh?: number;
}) {
  const { api, t, lang, onApiError } = useStudio();
  const [tasks, setTasks] = useState<TaskListItem[] | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    void api
      .GET('/api/v1/projects/{projectId}/tasks', {
        params: { path: { projectId }, query: { page, pageSize: HISTORY_PAGE } },
      })
      .then((result) => {
        if (!live) return;
        if (result.error) {
          onApiError(result.error);
          setError(errorText(result.error, lang));
          return;
        }
        setTotal(result.data.total);
        setTasks((old) => (page === 1 ? result.data.tasks : [...(old ?? []), ...result.data.tasks]));
      });
    return () => {
      live = false;
    };
  }, [api, projectId, page, tick, refresh]);

  // While a task of the list still runs, look again every 2 s (status and thumbnail follow).
  const running = tasks?.some((task) => task.status === 'running' || task.status === 'saving') ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => {
      setPage(1);
      setTick((n) => n + 1);
    }, 2000);
    return () => clearTimeout(timer);
  }, [running, tasks]);

  return (
    <section class={`history ${compact ? 'compact' : ''}`} aria-labelledby={`history-${projectId}`}>
      <h2 id={`history-${projectId}`}>{t('history')}</h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {tasks !== null && tasks.length === 0 && <p class="empty">{t('noTasks')}</p>}
      <ul class="task-grid">
        {tasks?.map((task) => (
          <li key={task.id} data-testid="history-item" data-status={task.status}>
            <a class="task-card" href={href('projects', projectId, 'tasks', task.id)}>
              <Thumbnail taskId={task.id} status={task.status} />
              <span class="task-prompt">{splitSections(task.prompt)?.[0] || task.prompt}</span>
              <span class="task-meta">
                <span class={`badge status-${task.status}`}>{t(`status_${task.status}` as MessageKey)}</span>
                <span>{t(`type_${task.assetType}` as MessageKey)}</span>
                <time dateTime={task.createdAt}>{formatTime(task.createdAt, lang)}</time>
              </span>
            </a>
          </li>
        ))}
      </ul>
      {tasks !== null && tasks.length < total && (
        <button type="button" class="ghost" onClick={() => setPage((p) => p + 1)}>
          {t('loadMore')}
        </button>
      )}
    </section>
  );
}

function StylePanel({ project, onSaved }: { project: Project; onSaved: () => void }) {
  const { api, t, onApiError } = useStudio();
  const [pairs, setPairs] = useState<Pair[]>(() => {
    const list = pairsOf(project.kvPairs);
    return list.length > 0 ? list : [emptyPair()];
  });
  const { lang } = useStudio();
  const [apiError, setApiError] = useState<AssetloomApiError | undefined>();
  const [saved, setSaved] = useState(false);

  async function save(event: Event) {
    event.preventDefault();
    setSaved(false);
    // Duplicate keys cannot be sent as a map at all: say so before asking the API.
    if ([...pairProblems(pairs).values()].some((p) => p.reason === 'keyDuplicate')) {
      setApiError(undefined);
      return;
    }
    const result = await api.PUT('/api/v1/projects/{projectId}/style', {
      params: { path: { projectId: project.id } },
      body: { kvPairs: mapOf(pairs) },
    });
    if (result.error) {
      onApiError(result.error);
      setApiError(result.error);
      return;
    }
    setApiError(undefined);
    setPairs(pairsOf(result.data.kvPairs));
    setSaved(true);
    onSaved();
  }

  return (
    <form class="panel stack narrow-panel" onSubmit={save}>
      <StylePickers pairs={pairs} onChange={setPairs} />
      <StyleEditor
        idPrefix="style"
        base="/kvPairs"
        pairs={pairs}
        onChange={setPairs}
        apiError={apiError && shownError(apiError, lang, ['/kvPairs'])}
      />
      <p class="success" role="status">
        {saved ? t('styleSaved') : ''}
      </p>
      <button type="submit" class="primary">
        {t('saveStyle')}
      </button>
    </form>
  );
}
