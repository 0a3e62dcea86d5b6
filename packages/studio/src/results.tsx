import type { Asset, Task } from '@assetloom/sdk';
import { useEffect, useState } from 'preact/hooks';
import { href, useStudio } from './context.js';
import type { MessageKey } from './i18n.js';
import { TaskProgress, useTaskProgress } from './progress.js';
import { taskAssets } from './thumbnail.js';
import { imageUrl, loadImage } from './util.js';

/**
 * What the generate panel shows after a submission: one task's live progress then its result
 * inline, or a grid of variations (one card a seed), each with the viewer one click away.
 */
export function LiveResults({ taskIds, onEnd }: { taskIds: string[]; onEnd: (task: Task | null) => void }) {
  const { t } = useStudio();
  if (taskIds.length === 1) return <LiveTask key={taskIds[0]} taskId={taskIds[0]!} onEnd={onEnd} />;
  return (
    <section class="panel" aria-labelledby="results-title" data-testid="variations">
      <h2 id="results-title">{t('variationsTitle', { n: taskIds.length })}</h2>
      <ul class="result-grid">
        {taskIds.map((taskId, i) => (
          <li key={taskId}>
            <ResultCard taskId={taskId} index={i + 1} onEnd={onEnd} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function LiveTask({ taskId, onEnd }: { taskId: string; onEnd: (task: Task | null) => void }) {
  const state = useTaskProgress(taskId, onEnd);
  return (
    <>
      <TaskProgress taskId={taskId} state={state} showLink={false} />
      {state.done === 'completed' && state.task && <InlineResult task={state.task} />}
    </>
  );
}

/** One variation: its progress while it runs, then its picture and a link to the viewer. */
function ResultCard({
  taskId,
  index,
  onEnd,
}: {
  taskId: string;
  index: number;
  onEnd: (task: Task | null) => void;
}) {
  const { t } = useStudio();
  const state = useTaskProgress(taskId, onEnd);
  const task = state.task;
  const status = state.done ?? task?.status ?? 'running';
  const label = t('variationN', { i: index, seed: task?.params.seed ?? '—' });
  return (
    <article class="result-card" data-testid="result-card" data-status={status} aria-label={label}>
      {state.done === 'completed' && task ? (
        <ResultPicture task={task} />
      ) : (
        <div class="result-wait">
          <progress
            max={100}
            value={state.done === 'failed' ? 0 : (task?.progress ?? 0)}
            aria-label={label}
          />
        </div>
      )}
      <p class="result-line">
        <span class="mono">{label}</span>
        <span class={`badge status-${status}`}>{t(`status_${status}` as MessageKey)}</span>
      </p>
      {state.done === 'failed' && (
        <p class="error" role="alert">
          {task?.error ?? state.error}
        </p>
      )}
      {state.done === 'completed' && task && (
        <a
          class="button ghost small"
          href={href('projects', task.projectId, 'tasks', taskId)}
          data-testid="open-viewer"
        >
          {t('openViewer')} →<span class="sr-only"> ({label})</span>
        </a>
      )}
    </article>
  );
}

/** The result right under the progress: the sheet at a crisp scale and the viewer one click away. */
export function InlineResult({ task }: { task: Task }) {
  const { t } = useStudio();
  return (
    <section
      class="panel inline-result"
      aria-labelledby={`result-${task.taskId}`}
      data-testid="inline-result"
    >
      <div class="panel-head">
        <h2 id={`result-${task.taskId}`}>{t('result')}</h2>
        <a
          class="button primary"
          href={href('projects', task.projectId, 'tasks', task.taskId)}
          data-testid="open-viewer"
        >
          {t('openViewer')} →
        </a>
      </div>
      <ResultPicture task={task} />
    </section>
  );
}

/** The task's first sheet (or first file), drawn pixel-exact at the largest whole scale up to 4×. */
function ResultPicture({ task }: { task: Task }) {
  const { api, t } = useStudio();
  const [picture, setPicture] = useState<{ url: string; asset: Asset; width: number } | null>(null);
  const [failed, setFailed] = useState('');
  useEffect(() => {
    let live = true;
    void (async () => {
      const assets = await taskAssets(api, task.taskId);
      const pngs = assets.filter((a) => a.format === 'png');
      const asset = pngs.find((a) => a.metadata.layout !== 'individual') ?? pngs[0];
      if (!asset) return;
      const url = await imageUrl(api, asset);
      const image = await loadImage(url);
      if (live) setPicture({ url, asset, width: image.naturalWidth });
    })().catch((e: Error) => live && setFailed(e.message));
    return () => {
      live = false;
    };
  }, [api, task.taskId]);
  if (failed)
    return (
      <p class="error" role="alert">
        {failed}
      </p>
    );
  if (!picture) return <p role="status">{t('loading')}</p>;
  // the prompt's words the picture does not show and the rows that repeat a view, beside it
  return (
    <>
      <PictureNotes metadata={picture.asset.metadata} />
      <div class="result-picture bg-checker">
        <img
          class="pixelated"
          src={picture.url}
          alt={t('resultAlt', { prompt: task.prompt })}
          data-testid="result-image"
          // Set through the CSSOM (the CSP allows it): never wider than 4× the pixels, always within the panel.
          style={{ maxWidth: `${picture.width * 4}px` }}
        />
      </div>
    </>
  );
}

/**
 * What the picture does not do, said beside it as the CLI says it: the prompt's words it does not show
 * (`metadata.notHonoured`), the direction rows that only repeat the drawing's one view, and those turned
 * from its front view (`metadata.views`).
 */
export function PictureNotes({ metadata }: { metadata: Asset['metadata'] }) {
  const { t } = useStudio();
  const meta = metadata as {
    notHonoured?: string[];
    views?: Array<{ direction: string; view: string }>;
  };
  const missing = meta.notHonoured ?? [];
  const rowsWith = (view: string) =>
    (meta.views ?? [])
      .filter((v) => v.view === view)
      .map((v) => t(`dir_${v.direction.replace('-', '_')}` as MessageKey))
      .join(', ');
  const repeated = rowsWith('repeat');
  const turned = rowsWith('turned');
  const rotated = rowsWith('rotated');
  return (
    <>
      {missing.length > 0 && (
        <p class="hint" data-testid="not-honoured">
          {t('notHonoured', { words: missing.map((w) => `“${w}”`).join(', ') })}
        </p>
      )}
      {repeated && (
        <p class="hint" data-testid="views-repeated">
          {t('viewsRepeated', { rows: repeated })}
        </p>
      )}
      {turned && (
        <p class="hint" data-testid="views-turned">
          {t('viewsTurned', { rows: turned })}
        </p>
      )}
      {rotated && (
        <p class="hint" data-testid="views-rotated">
          {t('viewsRotated', { rows: rotated })}
        </p>
      )}
    </>
  );
}
