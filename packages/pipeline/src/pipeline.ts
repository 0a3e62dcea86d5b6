import type { RunDeadline } from './deadline.js';
import { errorMessage, exposedMessage, PipelineError } from './errors.js';
import { formatAssets } from './format.js';
import { optimizePrompt, type PromptOptimizerOptions } from './prompt.js';
import type { ModelQualityThresholds } from './quality-model.js';
import { deriveSeed } from './seed.js';
import { generate, prepare, RunLog, SinkError, supervise } from './stages.js';
import type {
  ImageProvider,
  PictureSource,
  PipelineProgressEvent,
  PipelineRequest,
  PipelineResult,
  Provenance,
  StoragePort,
} from './types/index.js';

export interface RunPipelineOptions {
  providers?: {
    /** LLM settings for the prompt optimizer; absent → template. */
    prompt?: Omit<PromptOptimizerOptions, 'signal'> | null;
    /** Image generator (`runPipeline` needs one; `runPipelineWith` takes it as its first argument). */
    image?: ImageProvider | null;
  };
  storage: StoragePort;
  signal?: AbortSignal;
  /** Called for every progress event, awaited in order. A throw ends the run (event_sink_failed). */
  onEvent?: (event: PipelineProgressEvent) => void | Promise<void>;
  /** Thresholds of the model-output quality checks (defaults: DEFAULT_MODEL_THRESHOLDS). */
  modelQuality?: Partial<ModelQualityThresholds> | null;
  /** Quality retries before the task fails; default 2. */
  maxRetries?: number;
  /** First sequence number (so a resumed task continues its numbering); default 1. */
  startSeq?: number;
  /**
   * Limits of the run (issue #37): `cpuMs` of its own computing, `wallMs` end to end (the built-in
   * generator only: model providers keep their own timeouts). Passing one fails the run with
   * `deadline_exceeded`, never retried. Default: none.
   */
  deadline?: RunDeadline;
  /** Reads the stored pictures `request.inputRefs` names (the server's object storage; issue #37). */
  pictures?: PictureSource;
  now?: () => Date;
}

/**
 * Runs prompt_optimizer → asset_generator → quality_supervisor (→ retry) → format_adapter and
 * emits PipelineProgress events as spec 000 lists them. Never rejects: failures come back as
 * `{ ok: false, code, error }` after a final `failed` event carrying `error`.
 *
 * The pipeline's core: it draws with the provider it is given and knows none itself (providers
 * depend on the core, never the reverse). What differs by asset type is its module's
 * (asset-types/); the stages' parts are in stages.ts.
 */
export async function runPipelineWith(
  provider: ImageProvider,
  given: PipelineRequest,
  options: RunPipelineOptions,
): Promise<PipelineResult> {
  if (
    !options ||
    typeof options !== 'object' ||
    !options.storage ||
    typeof options.storage.put !== 'function'
  ) {
    return {
      ok: false,
      code: 'invalid_request',
      error: '[assetloom/pipeline] options.storage with a put() method is required',
      retryCount: 0,
    };
  }
  const signal = options.signal;
  const maxRetries = Math.max(0, Math.min(10, Math.floor(options.maxRetries ?? 2)));
  const log = new RunLog(options, provider);
  const prepared = await prepare(provider, given, log, {
    ...(options.pictures ? { pictures: options.pictures } : {}),
    ...(signal ? { signal } : {}),
  });
  if ('ok' in prepared) return prepared;
  const { request, style, tags, layout, palette } = prepared;
  try {
    let lastReject: string | undefined;
    for (let attempt = 0; ; attempt++) {
      // prompt_optimizer
      await log.emit('prompt_optimizer', 'running', 0);
      signal?.throwIfAborted();
      const optimized = await log.clock.wait(
        optimizePrompt(
          {
            tags,
            assetType: request.assetType,
            prompt: request.prompt,
            style,
            params: request.params,
            ...(lastReject ? { userNote: `上次结果未通过质检 (${lastReject}), 请规避` } : {}),
          },
          { llm: options.providers?.prompt?.llm ?? null, ...(signal ? { signal } : {}) },
        ),
      );
      await log.emit('prompt_optimizer', 'completed', 100, {
        message: optimized.source === 'llm' ? 'prompt optimized by LLM' : 'prompt built from template',
      });

      // asset_generator
      const seed = deriveSeed(
        { prompt: request.prompt, assetType: request.assetType, style, params: request.params },
        attempt,
      );
      const drawn = await generate(provider, request, {
        log,
        prepared,
        prompt: optimized.prompt,
        seed,
        attempt,
        ...(signal ? { signal } : {}),
      });

      // quality_supervisor
      await log.emit('quality_supervisor', 'running', 0, { retryCount: log.retryCount });
      signal?.throwIfAborted();
      const quality = supervise(provider, request, prepared, drawn, options.modelQuality);
      if (!quality.passed) {
        lastReject = quality.rejectReason ?? 'quality check failed';
        if (drawn.fromPicture) {
          // drawn from the picture alone: another attempt gives the same frames (issue #37)
          return await log.fail(
            'quality_rejected',
            `quality check failed: ${lastReject} (the asset is drawn from the picture alone, so a retry would draw the same: not retried)`,
            { retryCount: log.retryCount, rejectReason: lastReject },
          );
        }
        if (log.retryCount >= maxRetries) {
          return await log.fail(
            'quality_rejected',
            `quality check failed after ${log.retryCount} retries: ${lastReject}`,
            { retryCount: log.retryCount, rejectReason: lastReject },
          );
        }
        log.retryCount++;
        await log.emit('quality_supervisor', 'failed', 0, {
          retryCount: log.retryCount,
          rejectReason: lastReject,
          message: 'quality check rejected the asset; retrying',
        });
        continue;
      }
      await log.emit('quality_supervisor', 'completed', 100, { retryCount: log.retryCount });

      // format_adapter
      await log.emit('format_adapter', 'running', 0);
      signal?.throwIfAborted();
      const { generated } = drawn;
      const provenance: Provenance = {
        seed,
        provider: provider.name,
        optimizedPrompt: optimized.prompt,
        templateUsed: optimized.source === 'template',
        style,
        quality,
        attempt,
        ...(generated.drawing ? { drawing: generated.drawing } : {}),
      };
      const assets = await formatAssets({
        generated,
        layout,
        assetType: request.assetType,
        format: request.params.format,
        animation: request.params.animation ?? null,
        keyPrefix: request.keyPrefix,
        provenance,
        storage: log.storage(options.storage),
        palette,
        ...(signal ? { signal } : {}),
      });
      await log.emit('format_adapter', 'completed', 100, { result: { assets } });
      return { ok: true, assets, provenance, retryCount: log.retryCount };
    }
  } catch (error) {
    if (error instanceof SinkError) {
      return {
        ok: false,
        code: 'event_sink_failed',
        error: '[assetloom/pipeline] the progress events could not be recorded',
        retryCount: log.retryCount,
        detail: `onEvent threw: ${error.message}`,
      };
    }
    if (signal?.aborted) {
      const reason = signal.reason ?? error;
      const exposed = exposedMessage(reason);
      return log.fail(
        'aborted',
        `run aborted${exposed === undefined ? '' : `: ${exposed}`}`,
        {},
        errorMessage(reason),
      );
    }
    if (error instanceof PipelineError) return log.fail(error.code, error.message, {}, error.detail);
    return log.fail('provider_failed', `unexpected failure in ${log.stage}`, {}, errorMessage(error));
  }
}
