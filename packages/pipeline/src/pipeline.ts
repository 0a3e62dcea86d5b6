import { RunClock, type RunDeadline } from './deadline.js';
import { errorMessage, exposedMessage, PipelineError } from './errors.js';
import { formatAssets } from './format.js';
import { loadImageInputs } from './image-input/load.js';
import { drawFromInputs, inputsRefusal, providerInputs, styleWithPaletteFrom } from './image-input/run.js';
import { subjectText } from './interpret/index.js';
import { expectedLayout } from './layout.js';
import { parsePalette } from './palette.js';
import { pixelizeFrames } from './pixelize-frames.js';
import { optimizePrompt, type PromptOptimizerOptions } from './prompt.js';
import { inspectQuality } from './quality.js';
import { inspectModelOutput, type ModelQualityThresholds, withChecks } from './quality-model.js';
import { deriveSeed } from './seed.js';
import { mergeStyles } from './style.js';
import { tilesetFromModel } from './tileset/model.js';
import { tilesetParams } from './tileset/params.js';
import type {
  GeneratedAsset,
  ImageProvider,
  PictureSource,
  PipelineErrorCode,
  PipelineProgressEvent,
  PipelineRequest,
  PipelineResult,
  PipelineStage,
  Provenance,
  QualityReport,
  StageStatus,
  StoragePort,
} from './types/index.js';
import { validateRequest } from './validate.js';

export interface RunPipelineOptions {
  providers?: {
    /** LLM settings for the prompt optimizer; absent → template. */
    prompt?: Omit<PromptOptimizerOptions, 'signal'> | null;
    /** Image generator; default: the built-in procedural provider. */
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

const STAGE_MESSAGES: Record<PipelineStage, string> = {
  prompt_optimizer: 'optimizing prompt',
  asset_generator: 'generating asset',
  quality_supervisor: 'checking quality',
  format_adapter: 'encoding and storing files',
};

class SinkError extends Error {}

/**
 * Runs prompt_optimizer → asset_generator → quality_supervisor (→ retry) → format_adapter and
 * emits PipelineProgress events as spec 000 lists them. Never rejects: failures come back as
 * `{ ok: false, code, error }` after a final `failed` event carrying `error`.
 *
 * The pipeline's core: it draws with the provider it is given and knows none itself (providers
 * depend on the core, never the reverse). `runPipeline` (run.ts) picks the default provider.
 */
export async function runPipelineWith(
  provider: ImageProvider,
  given: PipelineRequest,
  options: RunPipelineOptions,
): Promise<PipelineResult> {
  let request = given;
  let seq = Number.isInteger(options?.startSeq) ? (options.startSeq as number) : 1;
  const now = options?.now ?? (() => new Date());
  const signal = options?.signal;
  const maxRetries = Math.max(0, Math.min(10, Math.floor(options?.maxRetries ?? 2)));
  let retryCount = 0;
  let stage: PipelineStage = 'prompt_optimizer';
  const clock = new RunClock(options?.deadline, { wall: provider?.kind !== 'model' });

  const emit = async (
    s: PipelineStage,
    status: StageStatus,
    progress: number,
    extra: Partial<PipelineProgressEvent> = {},
  ): Promise<void> => {
    stage = s;
    const event: PipelineProgressEvent = {
      seq: seq++,
      at: now().toISOString(),
      stage: s,
      status,
      progress,
      message: extra.message ?? STAGE_MESSAGES[s],
      ...extra,
    };
    if (!options?.onEvent) return;
    try {
      await clock.wait(options.onEvent(event));
    } catch (error) {
      throw new SinkError(errorMessage(error), { cause: error });
    }
    // a failed event ends the run anyway: only the others are held to the deadline
    if (status !== 'failed') clock.check();
  };

  /** Ends the run: `message` goes to the failed event and the result; `detail` only to the result. */
  const failWith = async (
    code: PipelineErrorCode,
    message: string,
    extra: Partial<PipelineProgressEvent> = {},
    detail?: string,
  ): Promise<PipelineResult> => {
    const error = message.startsWith('[assetloom/pipeline]') ? message : `[assetloom/pipeline] ${message}`;
    if (code !== 'event_sink_failed') {
      try {
        await emit(stage, 'failed', 0, {
          ...extra,
          error,
          message: extra.message ?? `${STAGE_MESSAGES[stage]} failed`,
        });
      } catch {
        // the sink is broken as well; the result still carries the error
      }
    }
    return { ok: false, code, error, retryCount, ...(detail === undefined ? {} : { detail }) };
  };

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
      retryCount,
    };
  }
  const problems = validateRequest(request);
  if (problems.length) return failWith('invalid_request', `invalid request: ${problems.join('; ')}`);

  let style = mergeStyles(request.projectStyle, request.taskStyle);
  // image inputs (decision 0034): inputs the provider cannot honour fail now, naming the param,
  // before any picture is read or any stage runs; then each distinct picture is read and decoded
  // once, here (a pipeline thread), at its working size (issue #37); a palette from a picture binds
  // everything
  const refusal = inputsRefusal(provider, request);
  if (refusal) return failWith(refusal.code, refusal.message);
  try {
    if (request.inputRefs !== undefined && request.inputs === undefined) {
      if (options.pictures === undefined) {
        return failWith(
          'invalid_request',
          'the request names stored pictures but options.pictures cannot read them',
        );
      }
      const inputs = await loadImageInputs(request.inputRefs, options.pictures, {
        ...(signal ? { signal } : {}),
        wait: (p) => clock.wait(p),
      });
      request = { ...request, inputs };
      clock.check();
    }
    style = styleWithPaletteFrom(style, request.inputs);
  } catch (error) {
    if (signal?.aborted) return failWith('aborted', 'run aborted', {}, errorMessage(signal.reason ?? error));
    if (error instanceof PipelineError) return failWith(error.code, error.message, {}, error.detail);
    throw error;
  }
  const tags = request.tags?.length ? request.tags : Object.values(style).filter(Boolean).slice(0, 16);
  const layout = expectedLayout(
    request.assetType,
    request.params,
    subjectText({ userPrompt: request.prompt, tags, style }),
  );
  const enforced = parsePalette(style.palette);

  // a subject the provider cannot draw fails here, before any stage runs, and is never retried
  // (a picture to start from is the subject)
  if (provider.preflight && !request.inputs?.image) {
    let answer: Awaited<ReturnType<NonNullable<ImageProvider['preflight']>>>;
    try {
      answer = await provider.preflight({
        assetType: request.assetType,
        userPrompt: request.prompt,
        tags,
        style,
        directions: layout.directions,
        placeholder: request.params.placeholder === true,
      });
    } catch (error) {
      return failWith('provider_failed', `image provider "${provider.name}" failed`, {}, errorMessage(error));
    }
    if (!answer.ok) return failWith('subject_not_drawable', answer.message);
  }

  try {
    let lastReject: string | undefined;
    for (let attempt = 0; ; attempt++) {
      // prompt_optimizer
      await emit('prompt_optimizer', 'running', 0);
      signal?.throwIfAborted();
      const optimized = await clock.wait(
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
      await emit('prompt_optimizer', 'completed', 100, {
        message: optimized.source === 'llm' ? 'prompt optimized by LLM' : 'prompt built from template',
      });

      // asset_generator
      await emit('asset_generator', 'running', 0);
      signal?.throwIfAborted();
      const seed = deriveSeed(
        { prompt: request.prompt, assetType: request.assetType, style, params: request.params },
        attempt,
      );
      let generated: GeneratedAsset;
      // provider progress → asset_generator running events, in order, awaited below
      let progressChain: Promise<void> = Promise.resolve();
      let lastProgress = 0;
      const onProgress = (p: number, message?: string) => {
        clock.check();
        const value = Math.max(1, Math.min(99, Math.round(Number.isFinite(p) ? p : 0)));
        if (value <= lastProgress) return;
        lastProgress = value;
        progressChain = progressChain.then(() =>
          emit('asset_generator', 'running', value, message ? { message } : {}),
        );
      };
      let modelSources: Parameters<typeof inspectModelOutput>[0]['sources'];
      // drawn from the picture by the pipeline itself (pixelate, a sprite animated, a tile varied)
      let fromPicture = false;
      try {
        const drawn = drawFromInputs(provider, request, layout, enforced?.colors ?? null, seed);
        fromPicture = drawn !== null;
        const toProvider = providerInputs(request.inputs);
        // a model's time is waiting for its server; the built-in generator's is computing
        const fromProvider =
          drawn === null
            ? clock.wait(
                provider.generate(
                  {
                    assetType: request.assetType,
                    prompt: optimized.prompt,
                    userPrompt: request.prompt,
                    tags,
                    style,
                    resolution: request.params.resolution,
                    width: layout.frameWidth,
                    height: layout.frameHeight,
                    directions: layout.directions,
                    framesPerDirection: layout.framesPerDirection,
                    seed,
                    attempt,
                    ...(request.assetType === 'tileset'
                      ? { tileset: tilesetParams(request.params.tileset) }
                      : {}),
                    ...(request.params.placeholder === true ? { placeholder: true } : {}),
                    ...(toProvider ? { inputs: toProvider } : {}),
                  },
                  signal ? { signal, onProgress } : { onProgress },
                ),
                provider.kind === 'model',
              )
            : null;
        generated = drawn ?? (await (fromProvider as Promise<GeneratedAsset>));
        if (!generated || !Array.isArray(generated.frames)) throw new Error('provider returned no frames');
        if (fromPicture) {
          // native pixels already: no second pixelize, no model-output checks
        } else if (provider.kind === 'model' && request.assetType === 'tileset') {
          // terrain pictures → a tileset: cut, blended to wrap, read as native pixels (tileset/model.ts)
          const params = tilesetParams(request.params.tileset);
          const set = tilesetFromModel(generated.frames, {
            ...params,
            userPrompt: request.prompt,
            tags,
            style,
            seed,
            palette: enforced?.colors ?? null,
          });
          generated = {
            frames: set.tiles,
            animation: 'tileset',
            interpretation: set.interpretation,
            tileset: { kind: params.kind, terrains: set.terrains.map((t) => t.name), colors: set.colors },
          };
        } else if (provider.kind === 'model') {
          // model pictures → native pixel art: one scale, one palette, one baseline for the sheet
          const pictures = generated.frames;
          const px = pixelizeFrames(pictures, {
            frameWidth: layout.frameWidth,
            frameHeight: layout.frameHeight,
            palette: enforced?.colors ?? null,
            opaque: layout.opaque,
          });
          generated = { ...generated, frames: px.frames };
          modelSources = pictures.map((picture, i) => ({
            picture,
            native: px.native[i]!,
            scale: px.scale,
            offset: px.offsets[i]!,
          }));
        }
      } catch (error) {
        await progressChain.catch(() => {});
        if (signal?.aborted) throw error;
        if (error instanceof PipelineError && error.code === 'subject_not_drawable') throw error;
        if (error instanceof PipelineError && error.code === 'unsupported') throw error;
        if (error instanceof PipelineError && error.code === 'deadline_exceeded') throw error;
        // a request the provider cannot honour as asked (words wider than the canvas): no retry helps
        if (error instanceof PipelineError && error.code === 'invalid_request') throw error;
        const exposed = exposedMessage(error);
        throw new PipelineError(
          'provider_failed',
          `image provider "${provider.name}" failed${exposed === undefined ? '' : `: ${exposed}`}`,
          { cause: error, detail: errorMessage(error) },
        );
      }
      await progressChain;
      await emit('asset_generator', 'completed', 100);

      // quality_supervisor
      await emit('quality_supervisor', 'running', 0, { retryCount });
      signal?.throwIfAborted();
      let quality: QualityReport = inspectQuality({
        frames: generated.frames,
        expected: layout,
        palette: enforced?.colors ?? null,
        interpretation: generated.interpretation ?? null,
        motion: generated.animation,
      });
      if (provider.kind === 'model' && request.assetType !== 'tileset' && !fromPicture) {
        // (a tileset's own model check is the seam check: its tiles are drawn, not cut from the picture)
        quality = withChecks(
          quality,
          inspectModelOutput({
            frames: generated.frames,
            ...(modelSources ? { sources: modelSources } : {}),
            opaque: layout.opaque,
            palette: enforced?.colors ?? null,
            tileable: generated.tileable ? (request.assetType === 'background' ? 'x' : 'xy') : null,
            thresholds: options.modelQuality ?? null,
          }),
        );
      }
      if (!quality.passed) {
        lastReject = quality.rejectReason ?? 'quality check failed';
        if (fromPicture) {
          // drawn from the picture alone: another attempt gives the same frames (issue #37)
          return await failWith(
            'quality_rejected',
            `quality check failed: ${lastReject} (the asset is drawn from the picture alone, so a retry would draw the same: not retried)`,
            { retryCount, rejectReason: lastReject },
          );
        }
        if (retryCount >= maxRetries) {
          return await failWith(
            'quality_rejected',
            `quality check failed after ${retryCount} retries: ${lastReject}`,
            { retryCount, rejectReason: lastReject },
          );
        }
        retryCount++;
        await emit('quality_supervisor', 'failed', 0, {
          retryCount,
          rejectReason: lastReject,
          message: 'quality check rejected the asset; retrying',
        });
        continue;
      }
      await emit('quality_supervisor', 'completed', 100, { retryCount });

      // format_adapter
      await emit('format_adapter', 'running', 0);
      signal?.throwIfAborted();
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
        storage: {
          put: async (key, bytes, contentType) => {
            clock.check();
            await clock.wait(options.storage.put(key, bytes, contentType));
          },
        },
        ...(signal ? { signal } : {}),
      });
      await emit('format_adapter', 'completed', 100, { result: { assets } });
      return { ok: true, assets, provenance, retryCount };
    }
  } catch (error) {
    if (error instanceof SinkError) {
      return {
        ok: false,
        code: 'event_sink_failed',
        error: '[assetloom/pipeline] the progress events could not be recorded',
        retryCount,
        detail: `onEvent threw: ${error.message}`,
      };
    }
    if (signal?.aborted) {
      const reason = signal.reason ?? error;
      const exposed = exposedMessage(reason);
      return failWith(
        'aborted',
        `run aborted${exposed === undefined ? '' : `: ${exposed}`}`,
        {},
        errorMessage(reason),
      );
    }
    if (error instanceof PipelineError) return failWith(error.code, error.message, {}, error.detail);
    return failWith('provider_failed', `unexpected failure in ${stage}`, {}, errorMessage(error));
  }
}
