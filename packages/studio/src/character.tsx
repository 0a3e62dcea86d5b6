import type { Asset, AssetClient, AssetloomApiError, Character, Task } from '@assetloom/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { href, navigate, useCapabilities, useStudio } from './context.js';
import type { Lang, MessageKey } from './i18n.js';
import { type ShownError, shownError, specMessage } from './messages.js';
import { TaskProgress, useTaskProgress } from './progress.js';
import { emptyPair, mapOf, type Pair, StyleEditor } from './style-editor.js';
import { Thumbnail, taskAssets } from './thumbnail.js';
import { baseName, downloadPrefix, fileBytes, formatTime, imageUrl, loadImage, saveFile } from './util.js';

/**
 * The character pages (issue #40): a project's kept characters and the form that makes one, and a
 * character's own page — its base view, its views in every direction (rotate), its actions playing
 * (animate) and every file of each of its tasks.
 */

/** The actions the built-in generator draws by name (the contract's CharacterAction). */
const CHARACTER_ACTIONS = ['idle', 'walk', 'run', 'jump', 'attack', 'cast', 'hurt', 'death'] as const;
/**
 * How the server says an action in the task's prompt (`<prompt>, walking`), to read it back for a
 * task without `params.character` (a character from an upload, or on a model provider).
 */
const ACTION_WORDS: Record<string, string> = {
  idle: 'idle',
  walking: 'walk',
  running: 'run',
  jumping: 'jump',
  attacking: 'attack',
  casting: 'cast',
  hurt: 'hurt',
  dying: 'death',
};
/** Direction rows of a sheet (the pipeline's DIRECTION_NAMES): `walk_down_left` ends in one. */
const DIRECTIONS = ['down_left', 'down_right', 'up_left', 'up_right', 'down', 'left', 'right', 'up'] as const;
const SIZES = [32, 64, 128] as const;
const PAGE = 100;

const CREATE_FIELDS = ['/name', '/prompt', '/uploadId', '/size', '/seed', '/style'];
const ANIMATE_FIELDS = ['/action', '/directions', '/framesPerDirection'];

/** The project's characters and the "new character" form (the project's Characters tab). */
export function CharactersPanel({ projectId }: { projectId: string }) {
  const { api, t, lang, onApiError } = useStudio();
  const [list, setList] = useState<Character[] | null>(null);
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    let live = true;
    void api.characters.list(projectId, { page: 1, pageSize: PAGE }).then((result) => {
      if (!live) return;
      if (result.error) {
        onApiError(result.error);
        setError(result.error.message);
      } else setList(result.data.characters);
    });
    return () => {
      live = false;
    };
  }, [api, projectId]);

  return (
    <section class="characters" aria-labelledby="characters-title">
      <div class="panel-head">
        <h2 id="characters-title">{t('characters')}</h2>
        <button
          type="button"
          class="primary"
          onClick={() => setCreating((open) => !open)}
          aria-expanded={creating}
          data-testid="new-character"
        >
          + {t('newCharacter')}
        </button>
      </div>
      {creating && (
        <CreateCharacter
          projectId={projectId}
          onCancel={() => setCreating(false)}
          onCreated={(character) => navigate(href('projects', projectId, 'characters', character.id))}
        />
      )}
      {error && (
        <p class="error" role="alert">
          {specMessage(error, lang)}
        </p>
      )}
      {list === null && !error && <p role="status">{t('loading')}</p>}
      {list !== null && list.length === 0 && <p class="empty">{t('noCharacters')}</p>}
      {list !== null && list.length > 0 && (
        <ul class="character-grid" aria-label={t('characters')}>
          {list.map((character) => (
            <li key={character.id} data-testid="character-card">
              <a class="task-card" href={href('projects', projectId, 'characters', character.id)}>
                <BaseThumbnail taskId={character.baseTaskId} />
                <span class="task-prompt">{character.name}</span>
                <span class="task-meta">
                  <span>{character.identity.size} px</span>
                  <time dateTime={character.createdAt}>{formatTime(character.createdAt, lang)}</time>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The base view's first frame once its task completed (the list shows characters still being drawn). */
function BaseThumbnail({ taskId }: { taskId: string }) {
  const { api } = useStudio();
  const [status, setStatus] = useState('running');
  useEffect(() => {
    let live = true;
    void api
      .waitForTask(taskId)
      .then((result) => live && setStatus(result.error ? 'failed' : result.data.status));
    return () => {
      live = false;
    };
  }, [api, taskId]);
  return <Thumbnail taskId={taskId} status={status} />;
}

function CreateCharacter(props: {
  projectId: string;
  onCancel: () => void;
  onCreated: (character: Character) => void;
}) {
  const { api, t, lang, onApiError } = useStudio();
  const [name, setName] = useState('');
  const [from, setFrom] = useState<'prompt' | 'upload'>('prompt');
  const [prompt, setPrompt] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [size, setSize] = useState<(typeof SIZES)[number]>(64);
  const [seed, setSeed] = useState('');
  const [pairs, setPairs] = useState<Pair[]>(() => [emptyPair()]);
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const [busy, setBusy] = useState<'' | 'uploading' | 'creating'>('');
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  async function submit(event: Event) {
    event.preventDefault();
    setError(undefined);
    let uploadId: string | undefined;
    if (from === 'upload' && file !== null) {
      setBusy('uploading');
      const uploaded = await api.uploadImage(file);
      if (uploaded.error) {
        setBusy('');
        onApiError(uploaded.error);
        setError(uploaded.error);
        return;
      }
      uploadId = uploaded.data.uploadId;
    }
    setBusy('creating');
    const style = mapOf(pairs);
    const result = await api.characters.create(props.projectId, {
      name,
      ...(from === 'prompt' && prompt !== '' ? { prompt } : {}),
      ...(from === 'upload' && prompt.trim() !== '' ? { prompt } : {}),
      ...(uploadId ? { uploadId } : {}),
      size,
      ...(seed.trim() === '' ? {} : { seed: Number(seed) }),
      ...(Object.keys(style).length > 0 ? { style } : {}),
    });
    setBusy('');
    if (result.error) {
      onApiError(result.error);
      setError(result.error);
      return;
    }
    props.onCreated(result.data);
  }

  const shown = shownError(error, lang, CREATE_FIELDS);
  const note = (path: string) => {
    const text = shown.at(path);
    return text === undefined ? null : (
      <span class="field-error" id={`character-error${path.replaceAll('/', '-')}`}>
        {text}
      </span>
    );
  };
  const attrs = (path: string, hint?: string) => {
    const text = shown.at(path);
    const ids = [hint, text === undefined ? undefined : `character-error${path.replaceAll('/', '-')}`]
      .filter(Boolean)
      .join(' ');
    return { 'aria-invalid': text !== undefined, 'aria-describedby': ids || undefined };
  };

  return (
    <form class="panel stack create-character" onSubmit={submit} aria-label={t('newCharacter')}>
      <h3>{t('newCharacter')}</h3>
      <div class="field">
        <label for="character-name">{t('characterName')}</label>
        <input
          ref={nameRef}
          id="character-name"
          name="characterName"
          value={name}
          maxLength={64}
          {...attrs('/name', 'character-name-hint')}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
        <span class="hint" id="character-name-hint">
          {t('characterNameHint')}
        </span>
        {note('/name')}
      </div>
      <fieldset class="choice">
        <legend>{t('characterFrom')}</legend>
        {(['prompt', 'upload'] as const).map((value) => (
          <label key={value} class="inline">
            <input
              type="radio"
              name="characterFrom"
              value={value}
              checked={from === value}
              onChange={() => setFrom(value)}
            />
            {t(value === 'prompt' ? 'fromPrompt' : 'fromUpload')}
          </label>
        ))}
      </fieldset>
      {from === 'upload' && (
        <div class="field">
          <label for="character-picture">{t('characterPicture')}</label>
          <input
            id="character-picture"
            name="characterPicture"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            {...attrs('/uploadId')}
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
          {note('/uploadId')}
        </div>
      )}
      <div class="field">
        <label for="character-prompt">{t('characterPrompt')}</label>
        <textarea
          id="character-prompt"
          name="characterPrompt"
          rows={2}
          value={prompt}
          placeholder={t('characterPromptPlaceholder')}
          {...attrs('/prompt')}
          onInput={(e) => setPrompt((e.currentTarget as HTMLTextAreaElement).value)}
        />
        {note('/prompt')}
      </div>
      <div class="grid3">
        <div class="field">
          <label for="character-size">{t('characterSize')}</label>
          <select
            id="character-size"
            name="characterSize"
            value={String(size)}
            {...attrs('/size')}
            onChange={(e) =>
              setSize(Number((e.currentTarget as HTMLSelectElement).value) as (typeof SIZES)[number])
            }
          >
            {SIZES.map((n) => (
              <option key={n} value={String(n)}>
                {n} × {n}
              </option>
            ))}
          </select>
          {note('/size')}
        </div>
        <div class="field">
          <label for="character-seed">{t('seedOptional')}</label>
          <input
            id="character-seed"
            name="characterSeed"
            inputMode="numeric"
            value={seed}
            placeholder={t('characterSeedRandom')}
            {...attrs('/seed')}
            onInput={(e) => setSeed((e.currentTarget as HTMLInputElement).value)}
          />
          {note('/seed')}
        </div>
      </div>
      <details class="character-style">
        <summary>{t('characterStyle')}</summary>
        <StyleEditor
          idPrefix="character"
          base="/style"
          pairs={pairs}
          onChange={setPairs}
          apiError={error !== undefined && shown.at('/style') !== undefined ? shown : undefined}
        />
      </details>
      {shown.general && error && (
        <p class="error" role="alert" data-testid="character-error">
          {generalOf(error, shown, lang)}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={busy !== ''} data-testid="create-character">
          {busy === 'uploading' ? t('uploading') : busy === 'creating' ? t('characterCreating') : t('create')}
        </button>
        <button type="button" class="ghost" onClick={props.onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * A form's general message: the spec's message with the UI's language ("Invalid parameters (参数错误)"),
 * then what the server said of fields the form has no control for.
 */
function generalOf(error: AssetloomApiError, shown: ShownError, lang: Lang): string {
  return [specMessage(error.message, lang), ...shown.general.split(' — ').slice(1)].join(' — ');
}

/** A task of the character, as its page lists it. */
interface CharacterTask {
  id: string;
  kind: 'rotate' | 'animate';
  /** The action's name (or free text); none for a turn. */
  action?: string;
  directions: number;
  frames: number;
}

/**
 * The character's tasks other than its base view: the tasks that name it (`characterId`, listed by
 * `GET /api/v1/characters/{characterId}/tasks`, decision 0057), read for their kind and layout. The
 * action is the task's `params.character.action` (a rigged character's), else the word after the
 * identity's prompt (`<prompt>, walking`: a character from an upload or on a model provider).
 */
async function findCharacterTasks(api: AssetClient, character: Character): Promise<CharacterTask[]> {
  const ids: string[] = [];
  for (let page = 1; page <= 20; page++) {
    const result = await api.characters.tasks(character.id, { page, pageSize: PAGE });
    if (result.error) throw result.error;
    for (const item of result.data.tasks) if (item.id !== character.baseTaskId) ids.push(item.id);
    if (page * PAGE >= result.data.total) break;
  }
  const tasks = await Promise.all(
    ids.map((taskId) => api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } })),
  );
  const { prompt } = character.identity;
  const found: CharacterTask[] = [];
  for (const result of tasks) {
    const task = result.data;
    if (!task) continue;
    const directions = task.params.frames?.directions ?? 1;
    const frames = task.params.frames?.framesPerDirection ?? 1;
    if (task.assetType === 'animation') {
      const words = task.prompt.startsWith(`${prompt}, `)
        ? task.prompt.slice(prompt.length + 2)
        : task.prompt;
      const action = task.params.character?.action ?? ACTION_WORDS[words] ?? words;
      found.push({ id: task.taskId, kind: 'animate', action, directions, frames });
    } else if (task.assetType === 'sprite') {
      found.push({ id: task.taskId, kind: 'rotate', directions, frames });
    }
  }
  return found;
}

/** A character's page: name, base view, views in every direction, actions playing, files. */
export function CharacterPage({ projectId, characterId }: { projectId: string; characterId: string }) {
  const { api, t, lang, onApiError } = useStudio();
  const [character, setCharacter] = useState<Character | null>(null);
  const [tasks, setTasks] = useState<CharacterTask[] | null>(null);
  const [error, setError] = useState('');
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [projectName, setProjectName] = useState('');

  useEffect(() => {
    let live = true;
    void api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId } } }).then((result) => {
      if (live && result.data) setProjectName(result.data.name);
    });
    void (async () => {
      const result = await api.characters.get(characterId);
      if (!live) return;
      if (result.error) {
        onApiError(result.error);
        setError(result.error.message);
        return;
      }
      setCharacter(result.data);
      try {
        const found = await findCharacterTasks(api, result.data);
        if (live) setTasks(found);
      } catch (e) {
        if (!live) return;
        const failure = e as AssetloomApiError;
        onApiError(failure);
        setError(failure.message);
      }
    })();
    return () => {
      live = false;
    };
  }, [api, characterId]);

  const back = `${href('projects', projectId)}?tab=characters`;
  if (error && character === null) {
    return (
      <section class="page">
        <p class="error" role="alert" data-testid="character-page-error">
          {specMessage(error, lang)}
        </p>
        <a href={back}>← {t('backToCharacters')}</a>
      </section>
    );
  }
  if (character === null) return <p role="status">{t('loading')}</p>;
  const added = (task: CharacterTask) => setTasks((old) => [task, ...(old ?? [])]);
  const turns = (tasks ?? []).filter((task) => task.kind === 'rotate');
  const actions = (tasks ?? []).filter((task) => task.kind === 'animate');
  const { identity } = character;
  // Downloads are named after the character (issue #41: two assets' files in one folder).
  const slug = downloadPrefix(character.name) || 'character';

  return (
    <section class="page character-page">
      <div class="page-head">
        <p class="crumbs">
          <a href={href('projects')}>{t('projects')}</a> /{' '}
          {projectName && (
            <>
              <a href={href('projects', projectId)}>{projectName}</a> /{' '}
            </>
          )}
          <a href={back}>{t('characters')}</a> /
        </p>
        {renaming ? (
          <RenameCharacter
            character={character}
            onDone={(renamed) => {
              setRenaming(false);
              if (renamed) setCharacter(renamed);
            }}
          />
        ) : (
          <h1 data-testid="character-name">{character.name}</h1>
        )}
        {!renaming && (
          <div class="row">
            <button type="button" class="ghost small" onClick={() => setRenaming(true)}>
              {t('rename')}
              <span class="sr-only"> {character.name}</span>
            </button>
            <button type="button" class="danger small" onClick={() => setDeleting(true)}>
              {t('delete')}
              <span class="sr-only"> {character.name}</span>
            </button>
          </div>
        )}
      </div>
      {error && (
        <p class="error" role="alert">
          {specMessage(error, lang)}
        </p>
      )}
      <div class="character-top">
        <section class="panel" aria-labelledby="base-title">
          <h2 id="base-title">{t('baseView')}</h2>
          <TaskResult
            taskId={character.baseTaskId}
            title={t('baseView')}
            name={character.name}
            projectId={projectId}
            zipName={`${slug}_base`}
          />
        </section>
        <section class="panel identity" aria-labelledby="identity-title">
          <h2 id="identity-title">{t('identity')}</h2>
          <dl class="facts">
            <div>
              <dt>{t('characterPrompt')}</dt>
              <dd>
                {character.source === 'upload'
                  ? `${t('fromUploadFact')} · ${identity.prompt}`
                  : identity.prompt}
              </dd>
            </div>
            <div>
              <dt>{t('characterSize')}</dt>
              <dd>
                {identity.size} × {identity.size}
              </dd>
            </div>
            <div>
              <dt>{t('seed')}</dt>
              <dd class="mono">{identity.seed}</dd>
            </div>
            <div>
              <dt>{t('provider')}</dt>
              <dd>{identity.provider}</dd>
            </div>
            {identity.palette && (
              <div>
                <dt>{t('palette')}</dt>
                <dd>{identity.palette}</dd>
              </div>
            )}
          </dl>
          <p class="hint">{t('identityHint')}</p>
        </section>
      </div>

      <section class="panel" aria-labelledby="views-title">
        <div class="panel-head">
          <h2 id="views-title">{t('views')}</h2>
          <RotateButtons character={character} onSubmitted={added} />
        </div>
        <p class="hint">{t('viewsHint')}</p>
        {tasks !== null && turns.length === 0 && <p class="empty">{t('noViews')}</p>}
        {turns.map((task) => (
          <TaskResult
            key={task.id}
            taskId={task.id}
            title={t('rotateSummary', { d: task.directions })}
            name={character.name}
            projectId={projectId}
            zipName={`${slug}_turn-${task.directions}`}
            heading
          />
        ))}
      </section>

      <section class="panel" aria-labelledby="actions-title">
        <h2 id="actions-title">{t('actions')}</h2>
        <AnimateForm character={character} onSubmitted={added} />
        {tasks === null && <p role="status">{t('loading')}</p>}
        {tasks !== null && actions.length === 0 && <p class="empty">{t('noActions')}</p>}
        {actions.map((task) => (
          <TaskResult
            key={task.id}
            taskId={task.id}
            title={t('actionSummary', {
              action: actionLabel(task.action ?? '', t),
              d: task.directions,
              n: task.frames,
            })}
            name={character.name}
            projectId={projectId}
            zipName={`${slug}_${downloadPrefix(task.action ?? '') || 'action'}-${task.directions}x${task.frames}`}
            heading
          />
        ))}
      </section>
      {deleting && (
        <ConfirmDeleteCharacter
          character={character}
          onClose={(deleted) => {
            setDeleting(false);
            if (deleted) navigate(back);
          }}
        />
      )}
    </section>
  );
}

function actionLabel(action: string, t: ReturnType<typeof useStudio>['t']): string {
  return (CHARACTER_ACTIONS as readonly string[]).includes(action)
    ? t(`action_${action}` as MessageKey)
    : action;
}

function RotateButtons({
  character,
  onSubmitted,
}: {
  character: Character;
  onSubmitted: (task: CharacterTask) => void;
}) {
  const { api, t, lang, onApiError } = useStudio();
  const capabilities = useCapabilities();
  // The built-in generator cannot turn an uploaded picture (the contract's 400 naming params.image).
  const cannot =
    character.source === 'upload' && capabilities !== null && capabilities.provider.kind !== 'model';
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function rotate(directions: 4 | 8) {
    setBusy(true);
    setError('');
    const result = await api.characters.rotate(character.id, { directions });
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(result.error.message);
      return;
    }
    onSubmitted({ id: result.data.taskId, kind: 'rotate', directions, frames: 1 });
  }
  return (
    <div class="row rotate">
      {([4, 8] as const).map((n) => (
        <button
          key={n}
          type="button"
          class="ghost"
          disabled={busy || cannot}
          aria-describedby={cannot ? 'rotate-upload-hint' : undefined}
          onClick={() => rotate(n)}
          data-testid={`rotate-${n}`}
        >
          ↻ {t('rotateTo', { n })}
        </button>
      ))}
      {cannot && (
        <p class="hint" id="rotate-upload-hint">
          {t('uploadOneView')}
        </p>
      )}
      {error && (
        <p class="error" role="alert" data-testid="rotate-error">
          {specMessage(error, lang)}
        </p>
      )}
    </div>
  );
}

function AnimateForm({
  character,
  onSubmitted,
}: {
  character: Character;
  onSubmitted: (task: CharacterTask) => void;
}) {
  const { api, t, lang, onApiError } = useStudio();
  const capabilities = useCapabilities();
  // Free text only where the server says a model provider draws (GET /api/v1/capabilities).
  const freeText = capabilities?.provider.kind === 'model';
  const [action, setAction] = useState<string>('walk');
  const [other, setOther] = useState('');
  const oneView = character.source === 'upload' && capabilities?.provider.kind === 'procedural';
  const [directions, setDirections] = useState<1 | 4 | 8>(4);
  useEffect(() => {
    if (oneView) setDirections(1);
  }, [oneView]);
  const [frames, setFrames] = useState(6);
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const chosen = action === 'other' ? other : action;

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await api.characters.animate(character.id, {
      action: chosen,
      directions,
      framesPerDirection: frames,
    });
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(result.error);
      return;
    }
    onSubmitted({ id: result.data.taskId, kind: 'animate', action: chosen, directions, frames });
  }
  const shown = shownError(error, lang, ANIMATE_FIELDS);
  const note = (path: string) => {
    const text = shown.at(path);
    return text === undefined ? null : (
      <span class="field-error" id={`animate-error${path.replace('/', '-')}`}>
        {text}
      </span>
    );
  };
  const described = (path: string, hint?: string) => {
    const ids = [hint, shown.at(path) === undefined ? undefined : `animate-error${path.replace('/', '-')}`]
      .filter(Boolean)
      .join(' ');
    return { 'aria-invalid': shown.at(path) !== undefined, 'aria-describedby': ids || undefined };
  };

  return (
    <form class="animate-form" onSubmit={submit} aria-labelledby="animate-title">
      <h3 id="animate-title">{t('animateTitle')}</h3>
      <div class="grid3">
        <div class="field">
          <label for="animate-action">{t('action')}</label>
          <select
            id="animate-action"
            name="action"
            value={action}
            {...described('/action', 'action-hint')}
            onChange={(e) => setAction((e.currentTarget as HTMLSelectElement).value)}
          >
            {CHARACTER_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {t(`action_${name}` as MessageKey)}
              </option>
            ))}
            {freeText && <option value="other">{t('actionOther')}</option>}
          </select>
          {note('/action')}
        </div>
        {freeText && action === 'other' && (
          <div class="field">
            <label for="animate-action-text">{t('actionText')}</label>
            <input
              id="animate-action-text"
              name="actionText"
              value={other}
              maxLength={64}
              required
              onInput={(e) => setOther((e.currentTarget as HTMLInputElement).value)}
            />
          </div>
        )}
        <div class="field">
          <label for="animate-directions">{t('directions')}</label>
          <select
            id="animate-directions"
            name="animateDirections"
            value={String(directions)}
            {...described('/directions')}
            onChange={(e) => setDirections(Number((e.currentTarget as HTMLSelectElement).value) as 1 | 4 | 8)}
          >
            {[4, 8, 1].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
          {note('/directions')}
        </div>
        <div class="field">
          <label for="animate-frames">{t('framesPerDirection')}</label>
          <input
            id="animate-frames"
            name="animateFrames"
            type="number"
            min={1}
            max={16}
            step={1}
            value={frames}
            {...described('/framesPerDirection')}
            onInput={(e) => setFrames(Number((e.currentTarget as HTMLInputElement).value))}
          />
          {note('/framesPerDirection')}
        </div>
      </div>
      <p class="hint" id="action-hint">
        {freeText ? t('actionFreeHint') : t('actionNamedHint')}
        {oneView && ` ${t('uploadOneView')}`}
      </p>
      {error && shown.general && (
        <p class="error" role="alert" data-testid="animate-error">
          {generalOf(error, shown, lang)}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy} data-testid="animate">
        {t('animate')}
      </button>
    </form>
  );
}

/** One drawn row of a sheet: its name (`walk_left`), its frames and how long each shows. */
interface Row {
  name: string;
  image: HTMLImageElement;
  frames: { x: number; y: number; w: number; h: number; duration: number }[];
}
interface FileLink {
  name: string;
  /** What the file is (the atlas entry's name, or the asset's format). */
  kind: string;
  url: string;
  /** Its path in the task's folder (`animation.png`, `rig/head.png`): its name in the zip. */
  path: string;
  /** What fileBytes reads it by: the asset (its signed URL) or its key. */
  ref: Asset | string;
}
interface LoadedTask {
  rows: Row[];
  files: FileLink[];
}

/** What each engine file is, by its `metadata.atlas` name (other names, such as rig files, show as named). */
const FILE_LABELS: Record<string, MessageKey> = {
  png: 'file_png',
  texturePacker: 'downloadJson',
  godot: 'downloadTres',
  aseprite: 'downloadAseprite',
  phaser: 'downloadPhaser',
  phaserAnimations: 'downloadPhaserAnimations',
  unity: 'downloadUnity',
};

/**
 * The files the task's metadata names beside its assets, with the name of the entry that names each
 * (`atlas.godot` → `godot`): storage keys in the task's own folder, wherever the metadata holds them
 * (`atlas` for the engine files; a rig's files too, however they are listed). Provenance and the
 * prompt's reading hold no files.
 */
export function namedKeys(metadata: Record<string, unknown>, folder: string): [string, string][] {
  const found: [string, string][] = [];
  const walk = (value: unknown, name: string, depth: number) => {
    if (typeof value === 'string') {
      if (value.startsWith(folder) && /\.\w+$/.test(value)) found.push([name, value]);
    } else if (Array.isArray(value)) {
      if (depth < 4) for (const item of value) walk(item, name, depth + 1);
    } else if (value !== null && typeof value === 'object' && depth < 4) {
      for (const [key, inner] of Object.entries(value)) walk(inner, key, depth + 1);
    }
  };
  for (const [key, value] of Object.entries(metadata)) {
    if (key !== 'provenance' && key !== 'interpretation') walk(value, key, 0);
  }
  return found;
}

/**
 * A finished task's sheets as rows of frames (its TexturePacker atlas: names, rectangles, durations;
 * else the metadata grid), and every file it lists: each asset with its signed URL, then every file
 * its metadata names (engine files, rig files), through the public key download.
 */
async function loadCharacterTask(api: AssetClient, taskId: string): Promise<LoadedTask> {
  const assets = await taskAssets(api, taskId);
  const files: FileLink[] = [];
  const seen = new Set<string>();
  for (const asset of assets) {
    if (seen.has(asset.key)) continue;
    seen.add(asset.key);
    const path = baseName(asset.key);
    files.push({ name: path, kind: asset.format, url: asset.url, path, ref: asset });
  }
  for (const asset of assets) {
    const folder = asset.key.slice(0, asset.key.lastIndexOf('/') + 1);
    for (const [kind, key] of namedKeys(asset.metadata, folder)) {
      if (seen.has(key)) continue;
      seen.add(key);
      files.push({
        name: baseName(key),
        kind,
        url: `/api/v1/assets/download?key=${encodeURIComponent(key)}`,
        path: key.slice(folder.length),
        ref: key,
      });
    }
  }
  const rows: Row[] = [];
  for (const sheet of assets.filter((a) => a.format === 'png' && a.metadata.layout !== 'individual')) {
    rows.push(...(await sheetRows(api, sheet)));
  }
  return { rows, files };
}

async function sheetRows(api: AssetClient, sheet: Asset): Promise<Row[]> {
  const image = await loadImage(await imageUrl(api, sheet));
  const m = sheet.metadata;
  const atlasKey = (m.atlas as { texturePacker?: string } | undefined)?.texturePacker;
  if (atlasKey) {
    const atlas = JSON.parse(new TextDecoder().decode(await fileBytes(api, atlasKey))) as {
      frames: Record<string, { frame: { x: number; y: number; w: number; h: number }; duration?: number }>;
      animations?: Record<string, string[]>;
    };
    const groups = atlas.animations ?? {
      [String((m.animations as string[] | undefined)?.[0] ?? '')]: Object.keys(atlas.frames),
    };
    return Object.entries(groups).map(([name, names]) => ({
      name,
      image,
      frames: names
        .map((frameName) => atlas.frames[frameName])
        .filter((f) => f !== undefined)
        .map((f) => ({ ...f.frame, duration: f.duration ?? 125 })),
    }));
  }
  const names = (m.animations as string[] | undefined) ?? [];
  const perRow = Math.max(1, Math.floor(image.naturalWidth / m.frameWidth));
  return Array.from({ length: m.directions }, (_, d) => ({
    name: names[d] ?? String(d),
    image,
    frames: Array.from({ length: perRow }, (_, c) => ({
      x: c * m.frameWidth,
      y: d * m.frameHeight,
      w: m.frameWidth,
      h: m.frameHeight,
      duration: 125,
    })),
  }));
}

/** The direction a row's name ends in (`walk_down_left` → `down_left`), or null (the base view). */
function directionOf(name: string): string | null {
  return DIRECTIONS.find((d) => name === d || name.endsWith(`_${d}`)) ?? null;
}

/**
 * A task of the character: its progress while it runs (over the WebSocket), then its rows — each
 * direction playing if it has frames — and its files.
 */
function TaskResult({
  taskId,
  title,
  name,
  heading,
  projectId,
  zipName,
}: {
  taskId: string;
  title: string;
  name: string;
  heading?: boolean;
  projectId: string;
  /** The zip of every file: `<character>_<what>.zip` (the files keep the engines' names inside). */
  zipName: string;
}) {
  const { api, t, lang, onApiError } = useStudio();
  const [zipping, setZipping] = useState(false);
  async function zip(files: FileLink[]) {
    setZipping(true);
    try {
      const [{ zipSync }, contents] = await Promise.all([
        import('fflate'),
        Promise.all(files.map(async (f) => [f.path, await fileBytes(api, f.ref)] as const)),
      ]);
      saveFile(`${zipName}.zip`, zipSync(Object.fromEntries(contents), { level: 6 }), 'application/zip');
    } catch (e) {
      const failure = e as AssetloomApiError;
      if (typeof failure.httpStatus === 'number') onApiError(failure);
      setError(failure.message);
    } finally {
      setZipping(false);
    }
  }
  const [finished, setFinished] = useState<Task | null>(null);
  const progress = useTaskProgress(taskId, (task) => setFinished(task));
  const [loaded, setLoaded] = useState<LoadedTask | null>(null);
  const [error, setError] = useState('');
  const [playing, setPlaying] = useState(true);

  useEffect(() => {
    if (finished?.status !== 'completed') return;
    let live = true;
    loadCharacterTask(api, taskId)
      .then((result) => live && setLoaded(result))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [api, taskId, finished?.status]);

  const moving = loaded?.rows.some((row) => row.frames.length > 1) ?? false;
  return (
    <article class="character-task" data-testid="character-task" data-task={taskId}>
      {heading && (
        <div class="panel-head">
          <h3>{title}</h3>
          {moving && (
            <button
              type="button"
              class="ghost small"
              aria-pressed={!playing}
              onClick={() => setPlaying((on) => !on)}
            >
              {playing ? `❚❚ ${t('pause')}` : `▶ ${t('play')}`}
              <span class="sr-only"> {title}</span>
            </button>
          )}
        </div>
      )}
      {loaded === null && <TaskProgress taskId={taskId} state={progress} />}
      {error && (
        <p class="error" role="alert">
          {specMessage(error, lang)}
        </p>
      )}
      {loaded !== null && (
        <>
          <ul class="direction-views" aria-label={title}>
            {loaded.rows.map((row) => {
              const direction = directionOf(row.name);
              const label = direction ? t(`dir_${direction}` as MessageKey) : title;
              return (
                <li key={row.name}>
                  <figure>
                    <PlayingRow
                      row={row}
                      playing={playing}
                      label={t('characterFrame', { name, dir: label })}
                    />
                    <figcaption data-testid="direction-label">{label}</figcaption>
                  </figure>
                </li>
              );
            })}
          </ul>
          <details class="character-files" open={heading}>
            <summary>
              {t('files')} ({loaded.files.length})
            </summary>
            <ul aria-label={t('filesOf', { title })} data-testid="task-files">
              {loaded.files.map((file) => (
                <li key={file.url}>
                  <a href={file.url} download={file.name} data-testid="file-link">
                    ⇩ {file.name}
                  </a>{' '}
                  <span class="hint">{FILE_LABELS[file.kind] ? t(FILE_LABELS[file.kind]!) : file.kind}</span>
                </li>
              ))}
            </ul>
            <div class="row">
              <button
                type="button"
                class="ghost small"
                disabled={zipping}
                onClick={() => zip(loaded.files)}
                data-testid="download-zip"
              >
                ⇩ {t('downloadZip')}
                <span class="sr-only"> {title}</span>
              </button>
              <a href={href('projects', projectId, 'tasks', taskId)}>
                {t('openViewer')}
                <span class="sr-only"> {title}</span> →
              </a>
            </div>
          </details>
        </>
      )}
    </article>
  );
}

/**
 * A row of frames playing at the durations the atlas gives (the engines' timing), drawn pixel-exact
 * at a whole zoom; `data-frame` is the frame shown.
 */
function PlayingRow({ row, playing, label }: { row: Row; playing: boolean; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [index, setIndex] = useState(0);
  const first = row.frames[0]!;
  // 192 px on a desktop (64 px at 3×, 32 px at 6×), drawn at 128 px on a phone (the stylesheet): whole zooms
  const zoom = Math.max(1, Math.floor(192 / Math.max(first.w, first.h)));
  useEffect(() => {
    if (!playing || row.frames.length < 2) return;
    const timer = setTimeout(
      () => setIndex((i) => (i + 1) % row.frames.length),
      row.frames[index]?.duration ?? 125,
    );
    return () => clearTimeout(timer);
  }, [playing, index, row]);
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    const frame = row.frames[index] ?? first;
    if (!ctx) return;
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, first.w * zoom, first.h * zoom);
    ctx.drawImage(row.image, frame.x, frame.y, frame.w, frame.h, 0, 0, frame.w * zoom, frame.h * zoom);
  }, [index, row, zoom]);
  return (
    <canvas
      ref={ref}
      class="pixelated bg-checker"
      width={first.w * zoom}
      height={first.h * zoom}
      role="img"
      aria-label={label}
      data-testid="row-canvas"
      data-frame={index}
      data-frames={row.frames.length}
    />
  );
}

function RenameCharacter(props: { character: Character; onDone: (renamed: Character | null) => void }) {
  const { api, t, lang, onApiError } = useStudio();
  const [name, setName] = useState(props.character.name);
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  async function submit(event: Event) {
    event.preventDefault();
    const result = await api.characters.rename(props.character.id, name);
    if (result.error) {
      onApiError(result.error);
      setError(result.error);
      return;
    }
    props.onDone(result.data);
  }
  const shown = shownError(error, lang, ['/name']);
  const message = error && (shown.at('/name') ?? generalOf(error, shown, lang));
  return (
    <form class="rename" onSubmit={submit}>
      <label class="sr-only" for="rename-character">
        {t('characterName')}
      </label>
      <input
        id="rename-character"
        ref={ref}
        value={name}
        maxLength={64}
        aria-invalid={error !== undefined}
        aria-describedby={error ? 'rename-character-error' : undefined}
        onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onDone(null)}
      />
      <button type="submit" class="primary small">
        {t('save')}
      </button>
      <button type="button" class="ghost small" onClick={() => props.onDone(null)}>
        {t('cancel')}
      </button>
      {message && (
        <p class="field-error" id="rename-character-error" role="alert">
          {message}
        </p>
      )}
    </form>
  );
}

/** A modal <dialog>: focus stays in it, Escape cancels. */
function ConfirmDeleteCharacter(props: { character: Character; onClose: (deleted: boolean) => void }) {
  const { api, t, lang, onApiError } = useStudio();
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  async function confirm() {
    setBusy(true);
    const result = await api.characters.delete(props.character.id);
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(result.error.message);
      return;
    }
    ref.current?.close();
    props.onClose(true);
  }
  return (
    <dialog
      ref={ref}
      class="panel"
      aria-labelledby="delete-character-title"
      onCancel={(e) => {
        e.preventDefault();
        ref.current?.close();
        props.onClose(false);
      }}
    >
      <h2 id="delete-character-title">{t('deleteCharacter')}</h2>
      <p>{t('deleteCharacterConfirm', { name: props.character.name })}</p>
      {error && (
        <p class="error" role="alert">
          {specMessage(error, lang)}
        </p>
      )}
      <div class="row">
        <button type="button" class="ghost" onClick={() => props.onClose(false)}>
          {t('cancel')}
        </button>
        <button type="button" class="danger" disabled={busy} onClick={confirm}>
          {t('delete')}
        </button>
      </div>
    </dialog>
  );
}
