import type { PipelineProgress, Task } from '@assetloom/sdk';
import { overallProgress } from '@assetloom/sdk';
import cliProgress from 'cli-progress';
import { type CliIo, lineProgress, type ProgressView } from './cli.js';

const STAGE_LABEL: Record<string, string> = {
  prompt_builder: 'prompt',
  prompt_optimizer: 'prompt',
  asset_generator: 'drawing',
  quality_supervisor: 'checking',
  format_adapter: 'packing',
};

/**
 * A cli-progress bar on a terminal (stderr, redrawn in place); the plain line view elsewhere, so
 * logs and CI output stay readable.
 */
export function terminalProgress(io: CliIo): ProgressView {
  if (!io.stderr.isTTY) return lineProgress(io);
  const bar = new cliProgress.SingleBar(
    {
      format: ' {bar} {percentage}% | {stage} {retry}',
      hideCursor: true,
      stream: io.stderr as NodeJS.WriteStream,
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
