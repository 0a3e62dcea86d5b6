import { overallProgress, type PipelineProgress, type Task } from '@assetloom/sdk';
import type { Context } from './context.js';

/** A progress display: a bar on a terminal, one line per stage change otherwise (logs, CI). */
export interface ProgressView {
  /** The task as it moves (every poll that changed something, and after every stream event). */
  update(task: Task): void;
  /** One event of the progress WebSocket (before the matching `update`). */
  event(event: PipelineProgress): void;
  stop(): void;
}

const STAGE_LABEL: Record<string, string> = {
  prompt_builder: 'prompt',
  prompt_optimizer: 'prompt',
  asset_generator: 'drawing',
  quality_supervisor: 'checking',
  format_adapter: 'packing',
};

/** Lines for non-TTY output (stderr): a line per stage and status change, never a redraw. */
export function lineProgress(ctx: Context): ProgressView {
  let last = '';
  let streamed = false;
  const print = (line: string) => {
    if (line === last) return;
    last = line;
    ctx.note(line);
  };
  return {
    update(task) {
      // With the stream, events say more; the task line is printed when polling, and at the end.
      if (streamed && task.status !== 'completed' && task.status !== 'failed') return;
      print(`${task.status} ${task.stage} — ${task.progress}%`);
    },
    event(event) {
      streamed = true;
      const retry = event.retryCount ? ` (retry ${event.retryCount})` : '';
      const reason = event.rejectReason ? `: ${event.rejectReason}` : '';
      print(`${event.stage} ${event.status}${retry}${reason} — ${overallProgress(event)}%`);
    },
    stop() {},
  };
}

/** Whether bars may be drawn: stderr is a terminal and the output is not --json. */
function drawsBars(ctx: Context): boolean {
  return ctx.io.stderr.isTTY === true && !ctx.json;
}

/**
 * The task's progress: a cli-progress bar on a terminal (stderr, redrawn in place; the most used
 * maintained Node progress bar, loaded only then), lines otherwise.
 */
export async function taskProgress(ctx: Context): Promise<ProgressView> {
  if (!drawsBars(ctx)) return lineProgress(ctx);
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      format: ' {bar} {percentage}% | {stage} {retry}',
      hideCursor: true,
      stream: ctx.io.stderr as NodeJS.WriteStream,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(100, 0, { stage: 'queued', retry: '' });
  return {
    update(task: Task) {
      const retry = task.retryCount > 0 ? `(retry ${task.retryCount})` : '';
      bar.update(task.progress, {
        stage: `${STAGE_LABEL[task.stage] ?? task.stage} (${task.status})`,
        retry,
      });
    },
    event(event: PipelineProgress) {
      const retry = event.retryCount ? `(retry ${event.retryCount})` : '';
      bar.update(overallProgress(event), {
        stage: `${STAGE_LABEL[event.stage] ?? event.stage} ${event.status}`,
        retry,
      });
    },
    stop() {
      bar.stop();
    },
  };
}

/** A bar over the files of a download on a terminal (file n of N and its name); nothing otherwise. */
export async function filesProgress(
  ctx: Context,
  total: number,
): Promise<{ step(name: string): void; stop(): void } | undefined> {
  if (!drawsBars(ctx)) return undefined;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      format: ' {bar} {value}/{total} files | {file}',
      hideCursor: true,
      stream: ctx.io.stderr as NodeJS.WriteStream,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { file: '' });
  let done = 0;
  return {
    step(name) {
      bar.update(done++, { file: name });
    },
    stop() {
      bar.update(total, { file: 'done' });
      bar.stop();
    },
  };
}
