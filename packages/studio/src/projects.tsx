import type { AssetloomApiError, ProjectListItem } from '@assetloom/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { href, navigate, useStudio } from './context.js';
import { errorText, shownError } from './messages.js';
import { emptyPair, mapOf, type Pair, StyleEditor } from './style-editor.js';
import { formatTime } from './util.js';

const PAGE_SIZE = 12;

export function ProjectsView({ page }: { page: number }) {
  const { api, t, lang, onApiError } = useStudio();
  const [list, setList] = useState<{ total: number; projects: ProjectListItem[] } | null>(null);
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ProjectListItem | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void api.GET('/api/v1/projects', { params: { query: { page, pageSize: PAGE_SIZE } } }).then((result) => {
      if (!live) return;
      if (result.error) {
        onApiError(result.error);
        setError(errorText(result.error, lang));
      } else {
        setList(result.data);
        setError('');
      }
    });
    return () => {
      live = false;
    };
  }, [api, page, version]);

  const pages = list ? Math.max(1, Math.ceil(list.total / PAGE_SIZE)) : 1;
  const reload = () => setVersion((v) => v + 1);

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('projects')}</h1>
        <button type="button" class="primary" onClick={() => setCreating(true)} aria-expanded={creating}>
          + {t('newProject')}
        </button>
      </div>
      {creating && (
        <CreateProject
          onCancel={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            navigate(href('projects', id));
          }}
        />
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {list === null && !error && <p role="status">{t('loading')}</p>}
      {list !== null && list.projects.length === 0 && <p class="empty">{t('noProjects')}</p>}
      {list !== null && list.projects.length > 0 && (
        <ul class="project-grid" aria-label={t('projects')}>
          {list.projects.map((project) => (
            <li class="project-card panel" key={project.id} data-testid="project-card">
              {renaming === project.id ? (
                <RenameForm
                  project={project}
                  onDone={(changed) => {
                    setRenaming(null);
                    if (changed) reload();
                  }}
                />
              ) : (
                <h2>
                  <a href={href('projects', project.id)}>{project.name}</a>
                </h2>
              )}
              <dl class="facts">
                <div>
                  <dt class="sr-only">{t('history')}</dt>
                  <dd data-testid="task-count">{t('tasksCount', { n: project.taskCount })}</dd>
                </div>
                <div>
                  <dt>{t('lastActivity')}</dt>
                  <dd>
                    <time dateTime={project.lastActivityAt}>{formatTime(project.lastActivityAt, lang)}</time>
                  </dd>
                </div>
              </dl>
              <div class="card-actions">
                <button type="button" class="ghost small" onClick={() => setRenaming(project.id)}>
                  {t('rename')}
                  <span class="sr-only"> {project.name}</span>
                </button>
                <button type="button" class="danger small" onClick={() => setDeleting(project)}>
                  {t('delete')}
                  <span class="sr-only"> {project.name}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {list !== null && list.total > PAGE_SIZE && (
        <nav class="pager" aria-label={t('page', { page, pages })}>
          {page > 1 ? <a href={`${href('projects')}?page=${page - 1}`}>← {t('prev')}</a> : <span />}
          <span class="pager-label">{t('page', { page, pages })}</span>
          {page < pages ? <a href={`${href('projects')}?page=${page + 1}`}>{t('next')} →</a> : <span />}
        </nav>
      )}
      {deleting && (
        <ConfirmDelete
          project={deleting}
          onClose={(deleted) => {
            setDeleting(null);
            if (deleted) reload();
          }}
        />
      )}
    </section>
  );
}

function CreateProject(props: { onCancel: () => void; onCreated: (id: string) => void }) {
  const { api, t, lang, onApiError } = useStudio();
  const [name, setName] = useState('');
  const [pairs, setPairs] = useState<Pair[]>(() => [emptyPair()]);
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  const blank = name.trim() === '' || [...name].length > 100;
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    const style = mapOf(pairs);
    const result = await api.POST('/api/v1/projects', {
      body: { name, ...(Object.keys(style).length > 0 ? { style } : {}) },
    });
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(result.error);
      return;
    }
    props.onCreated(result.data.id);
  }
  const shown = shownError(error, lang, ['/name', '/style']);
  // The server's message for the name; a server without field messages: its message when the name breaks the rule.
  const nameError =
    shown.at('/name') ??
    (error !== undefined && !error.errors.length && blank ? `${shown.general}：${t('nameHint')}` : undefined);
  const styleError = error !== undefined && nameError === undefined ? shown : undefined;

  return (
    <form class="panel stack create-project" onSubmit={submit} aria-label={t('newProject')}>
      <h2>{t('newProject')}</h2>
      <label>
        {t('projectName')}
        <input
          ref={nameRef}
          name="name"
          value={name}
          aria-invalid={nameError !== undefined}
          aria-describedby="project-name-hint"
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <p
        id="project-name-hint"
        class={nameError !== undefined ? 'field-error' : 'hint'}
        data-testid="name-hint"
      >
        {nameError ?? t('nameHint')}
      </p>
      <StyleEditor idPrefix="create" base="/style" pairs={pairs} onChange={setPairs} apiError={styleError} />
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {t('create')}
        </button>
        <button type="button" class="ghost" onClick={props.onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

function RenameForm(props: { project: ProjectListItem; onDone: (changed: boolean) => void }) {
  const { api, t, lang, onApiError } = useStudio();
  const [name, setName] = useState(props.project.name);
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  async function submit(event: Event) {
    event.preventDefault();
    const result = await api.PUT('/api/v1/projects/{projectId}', {
      params: { path: { projectId: props.project.id } },
      body: { name },
    });
    if (result.error) {
      onApiError(result.error);
      setError(result.error);
      return;
    }
    props.onDone(true);
  }
  const errorId = `rename-err-${props.project.id}`;
  const shown = shownError(error, lang, ['/name']);
  const message = error && (shown.at('/name') ?? `${shown.general}：${t('nameHint')}`);
  return (
    <form class="rename" onSubmit={submit}>
      <label class="sr-only" for={`rename-${props.project.id}`}>
        {t('projectName')}
      </label>
      <input
        id={`rename-${props.project.id}`}
        ref={ref}
        value={name}
        aria-invalid={error !== undefined}
        aria-describedby={error ? errorId : undefined}
        onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onDone(false)}
      />
      <button type="submit" class="primary small">
        {t('save')}
      </button>
      <button type="button" class="ghost small" onClick={() => props.onDone(false)}>
        {t('cancel')}
      </button>
      {message && (
        <p class="field-error" id={errorId} role="alert">
          {message}
        </p>
      )}
    </form>
  );
}

/** A modal <dialog>: focus is trapped by the browser, Escape cancels. */
export function ConfirmDelete(props: {
  project: { id: string; name: string };
  onClose: (deleted: boolean) => void;
}) {
  const { api, t, lang, onApiError } = useStudio();
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  async function confirm() {
    setBusy(true);
    const result = await api.DELETE('/api/v1/projects/{projectId}', {
      params: { path: { projectId: props.project.id } },
    });
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(errorText(result.error, lang));
      return;
    }
    ref.current?.close();
    props.onClose(true);
  }
  return (
    <dialog
      ref={ref}
      class="panel"
      aria-labelledby="delete-title"
      onCancel={(e) => {
        e.preventDefault();
        ref.current?.close();
        props.onClose(false);
      }}
    >
      <h2 id="delete-title">{t('deleteProject')}</h2>
      <p>{t('deleteConfirm', { name: props.project.name })}</p>
      {error && (
        <p class="error" role="alert">
          {error}
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
