import type { PipelineProgress, Task } from '@assetloom/sdk';
import { useEffect, useState } from 'preact/hooks';
import { href, useStudio } from './context.js';
import type { MessageKey } from './i18n.js';
import { errorText } from './messages.js';

const STAGES = ['prompt_optimizer', 'asset_generator', 'quality_supervisor', 'format_adapter'] as const;
type Stage = (typeof STAGES)[number];
type StageState = 'pending' | 'running' | 'completed' | 'failed';

export interface ProgressState {
  task: Task | null;
  events: PipelineProgress[];
  done: 'completed' | 'failed' | null;
  error: string;
}

/**
 * Follows a task over the progress WebSocket (the SDK's waitForTask: it reconnects with `?since=`
 * the last seq it saw, so a drop loses no event; events are also de-duplicated by seq here).
 */
export function useTaskProgress(taskId: string, onEnd?: (task: Task | null) => void): ProgressState {
  const { api, lang, onApiError } = useStudio();
  const [state, setState] = useState<ProgressState>({ task: null, events: [], done: null, error: '' });
  useEffect(() => {
    const stop = new AbortController();
    setState({ task: null, events: [], done: null, error: '' });
    void api
      .waitForTask(taskId, {
        signal: stop.signal,
        onProgress: (task) => setState((s) => ({ ...s, task })),
        onEvent: (event) =>
          setState((s) =>
            s.events.some((e) => e.seq === event.seq)
              ? s
              : { ...s, events: [...s.events, event].sort((a, b) => a.seq - b.seq) },
          ),
      })
      .then((result) => {
        if (stop.signal.aborted) return;
        if (result.error) {
          onApiError(result.error);
          const task = result.error.task ?? null;
          setState((s) => ({
            ...s,
            task: task ?? s.task,
            done: task ? 'failed' : null,
            error: errorText(result.error, lang),
          }));
          onEnd?.(task);
        } else {
          setState((s) => ({ ...s, task: result.data, done: 'completed' }));
          onEnd?.(result.data);
        }
      });
    return () => stop.abort();
  }, [api, taskId]);
  return state;
}

/**
 * The stage a task's error names (issue #41: an image provider's failure, or an input it refused
 * before any stage ran, was marked on "Prompt", the pipeline's stage before the first event).
 */
export function stageNamedBy(error: string): Stage | null {
  for (const stage of STAGES) if (error.includes(stage)) return stage;
  if (error.includes('prompt_builder')) return 'prompt_optimizer';
  if (/quality/i.test(error)) return 'quality_supervisor';
  if (/image provider|unsupported: params\.|provider|cannot draw|not drawable|model/i.test(error)) {
    return 'asset_generator';
  }
  if (/could not be stored|storage|encod/i.test(error)) return 'format_adapter';
  if (/prompt|LLM/i.test(error)) return 'prompt_optimizer';
  return null;
}

/**
 * The stage a failure belongs to: the one its error names, else the one that was running when it
 * came (an event `running` was seen for it), else none — never "Prompt" by default.
 */
function failedStage(
  error: string | null | undefined,
  reported: Stage | null,
  ran: ReadonlySet<Stage>,
): Stage | null {
  const named = error ? stageNamedBy(error) : null;
  if (named !== null) return named;
  return reported !== null && ran.has(reported) ? reported : null;
}

function stageStates(events: PipelineProgress[], task: Task | null): Record<Stage, StageState> {
  const states = Object.fromEntries(STAGES.map((s) => [s, 'pending'])) as Record<Stage, StageState>;
  const ran = new Set<Stage>();
  for (const event of events) {
    const index = STAGES.indexOf(event.stage);
    // The task's failure (it carries `error`): on the stage the error names (a quality rejection,
    // `failed` without `error`, is a retry and stays on quality_supervisor).
    if (event.status === 'failed' && typeof event.error === 'string') {
      const stage = failedStage(event.error, event.stage, ran);
      if (stage !== null) {
        for (const earlier of STAGES.slice(0, STAGES.indexOf(stage))) states[earlier] = 'completed';
        states[stage] = 'failed';
      }
      continue;
    }
    // A quality retry runs the earlier stages again: later stages go back to waiting.
    if (event.status === 'running') {
      ran.add(event.stage);
      for (const later of STAGES.slice(index + 1)) states[later] = 'pending';
    }
    states[event.stage] = event.status;
  }
  if (events.length === 0 && task) {
    const current: Stage | null =
      task.stage === 'prompt_builder' ? 'prompt_optimizer' : ((task.stage as Stage | null) ?? null);
    const reached =
      task.status === 'failed'
        ? failedStage(
            task.error,
            current,
            new Set(current && current !== 'prompt_optimizer' ? [current] : []),
          )
        : current;
    const at = reached === null ? -1 : STAGES.indexOf(reached);
    STAGES.forEach((stage, i) => {
      if (task.status === 'completed' || i < at) states[stage] = 'completed';
      else if (i === at) states[stage] = task.status === 'failed' ? 'failed' : 'running';
    });
  }
  return states;
}

export function TaskProgress({
  taskId,
  state,
  showLink,
}: {
  taskId: string;
  state: ProgressState;
  showLink?: boolean;
}) {
  const { t, lang } = useStudio();
  const { task, events, done, error } = state;
  const states = stageStates(events, task);
  const retries = events.filter((e) => e.stage === 'quality_supervisor' && e.status === 'failed');
  const percent = done === 'completed' ? 100 : (task?.progress ?? 0);
  return (
    <section class="progress panel" aria-labelledby={`progress-${taskId}`} data-testid="task-progress">
      <div class="progress-head">
        <h2 id={`progress-${taskId}`}>{t('progress')}</h2>
        <span class={`badge status-${task?.status ?? 'running'}`} data-testid="task-status">
          {t(`status_${task?.status ?? 'running'}` as MessageKey)}
        </span>
        <span class="mono" data-testid="task-percent">
          {percent}%
        </span>
      </div>
      <progress max={100} value={percent} aria-label={t('progress')} />
      <ol class="stages">
        {STAGES.map((stage) => (
          <li key={stage} class={`stage stage-${states[stage]}`} data-testid={`stage-${stage}`}>
            <span class="dot" aria-hidden="true" />
            <span>{t(`stage_${stage}` as MessageKey)}</span>
            <span class="sr-only">: </span>
            <span class="stage-state">{t(`status_${states[stage]}` as MessageKey)}</span>
          </li>
        ))}
      </ol>
      {retries.length > 0 && (
        <div class="retries" data-testid="retries">
          <h3>{t('retries')}</h3>
          <ul>
            {retries.map((event) => (
              <li key={event.seq}>
                <strong>{t('retry', { n: event.retryCount ?? retries.indexOf(event) + 1 })}</strong>{' '}
                {event.rejectReason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {(error || task?.error) && (
        <p class="error" role="alert" data-testid="task-error">
          {task?.error ?? error}
        </p>
      )}
      {/* A task that ended before the stream opened has no events to show (its stages come from the task). */}
      {events.length > 0 && (
        <details class="events">
          <summary>
            {t('events')} ({events.length})
          </summary>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls, so it must be reachable by keyboard */}
          <ol class="mono" tabIndex={0} aria-label={t('events')}>
            {events.map((event) => (
              <li key={event.seq}>
                #{event.seq} {new Date(event.at).toLocaleTimeString(lang === 'zh' ? 'zh-CN' : 'en-GB')}{' '}
                {event.stage} {event.status}
                {event.message ? ` · ${event.message}` : ''}
                {event.rejectReason ? ` · ${event.rejectReason}` : ''}
              </li>
            ))}
          </ol>
        </details>
      )}
      {showLink && done === 'completed' && task && (
        <a class="button primary" href={href('projects', task.projectId, 'tasks', taskId)}>
          {t('openViewer')} →
        </a>
      )}
    </section>
  );
}
