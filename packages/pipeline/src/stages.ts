/**
 * The parts of a run the stage loop (pipeline.ts) is made of: the run's event log (`RunLog`), the
 * checks before any stage, and the asset_generator and quality_supervisor stages. What differs by
 * asset type is its module's (asset-types/), never a branch here.
 */
import { ASSET_TYPE_MODULES } from './asset-types/index.js';
import type { ExpectedLayout } from './asset-types/layout.js';
import type { FromModel } from './asset-types/types.js';
import { RunClock, type RunDeadline } from './deadline.js';
import { errorMessage, exposedMessage, PipelineError } from './errors.js';
import { loadImageInputs } from './image-input/load.js';
import { drawFromInputs, inputsRefusal, providerInputs, styleWithPaletteFrom } from './image-input/run.js';
import { subjectText } from './interpret/index.js';
import { expectedLayout } from './layout.js';
import { parsePalette, type Rgb } from './palette.js';
import { inspectQuality } from './quality.js';
import { inspectModelOutput, type ModelQualityThresholds, withChecks } from './quality-model.js';
import { mergeStyles } from './style.js';
import type {
  GeneratedAsset,
  ImageProvider,
  PictureSource,
  PipelineErrorCode,
  PipelineProgressEvent,
  PipelineRequest,
  PipelineResult,
  PipelineStage,
  QualityReport,
  StageStatus,
  StoragePort,
  StyleMap,
} from './types/index.js';
import { validateRequest } from './validate.js';

const STAGE_MESSAGES: Record<PipelineStage, string> = {
  prompt_optimizer: 'optimizing prompt',
  asset_generator: 'generating asset',
  quality_supervisor: 'checking quality',
  format_adapter: 'encoding and storing files',
};

/** The event sink threw: the run ends with event_sink_failed and tries no further event. */
export class SinkError extends Error {}

/**
 * A run's progress events: numbered from `startSeq`, stamped, handed to `onEvent` in order; and its
 * clock against the run's deadline (issue #37), checked after every event but a failed one.
 */
export class RunLog {
  stage: PipelineStage = 'prompt_optimizer';
  retryCount = 0;
  readonly clock: RunClock;
  private seq: number;
  constructor(
    private readonly options: {
      startSeq?: number;
      now?: () => Date;
      onEvent?: (event: PipelineProgressEvent) => void | Promise<void>;
      deadline?: RunDeadline;
    },
    provider: ImageProvider,
  ) {
    this.seq = Number.isInteger(options.startSeq) ? (options.startSeq as number) : 1;
    this.clock = new RunClock(options.deadline, { wall: provider?.kind !== 'model' });
  }

  async emit(
    stage: PipelineStage,
    status: StageStatus,
    progress: number,
    extra: Partial<PipelineProgressEvent> = {},
  ): Promise<void> {
    this.stage = stage;
    const event: PipelineProgressEvent = {
      seq: this.seq++,
      at: (this.options.now?.() ?? new Date()).toISOString(),
      stage,
      status,
      progress,
      message: extra.message ?? STAGE_MESSAGES[stage],
      ...extra,
    };
    if (!this.options.onEvent) return;
    try {
      await this.clock.wait(this.options.onEvent(event));
    } catch (error) {
      throw new SinkError(errorMessage(error), { cause: error });
    }
    // a failed event ends the run anyway: only the others are held to the deadline
    if (status !== 'failed') this.clock.check();
  }

  /** The storage port with the deadline checked before each file and the writes counted as waits. */
  storage(storage: StoragePort): StoragePort {
    return {
      put: async (key, bytes, contentType) => {
        this.clock.check();
        await this.clock.wait(storage.put(key, bytes, contentType));
      },
    };
  }

  /** Ends the run: `message` goes to the failed event and the result; `detail` only to the result. */
  async fail(
    code: PipelineErrorCode,
    message: string,
    extra: Partial<PipelineProgressEvent> = {},
    detail?: string,
  ): Promise<PipelineResult> {
    const error = message.startsWith('[assetloom/pipeline]') ? message : `[assetloom/pipeline] ${message}`;
    if (code !== 'event_sink_failed') {
      try {
        await this.emit(this.stage, 'failed', 0, {
          ...extra,
          error,
          message: extra.message ?? `${STAGE_MESSAGES[this.stage]} failed`,
        });
      } catch {
        // the sink is broken as well; the result still carries the error
      }
    }
    const retryCount = this.retryCount;
    return { ok: false, code, error, retryCount, ...(detail === undefined ? {} : { detail }) };
  }
}

/** What every attempt of a run shares, read once before any stage. */
export interface Prepared {
  /** The request, its stored pictures read and decoded (`inputs`) when it named them. */
  request: PipelineRequest;
  style: StyleMap;
  tags: string[];
  layout: ExpectedLayout;
  /** The enforced palette (style `palette` or `paletteFrom`), or null. */
  palette: readonly Rgb[] | null;
}

/**
 * The checks before any stage runs: the request, the image inputs the provider cannot honour, a
 * palette from a picture, and a subject the provider cannot draw (never retried). A failure is the
 * run's result.
 */
export async function prepare(
  provider: ImageProvider,
  given: PipelineRequest,
  log: RunLog,
  options: { pictures?: PictureSource; signal?: AbortSignal },
): Promise<Prepared | PipelineResult> {
  let request = given;
  const { signal } = options;
  const problems = validateRequest(request);
  if (problems.length) return log.fail('invalid_request', `invalid request: ${problems.join('; ')}`);
  let style = mergeStyles(request.projectStyle, request.taskStyle);
  // image inputs (decision 0034): inputs the provider cannot honour fail now, naming the param,
  // before any picture is read or any stage runs; then each distinct picture is read and decoded
  // once, here (a pipeline thread), at its working size (issue #37); a palette from a picture binds
  // everything
  const refusal = inputsRefusal(provider, request);
  if (refusal) return log.fail(refusal.code, refusal.message);
  const modelRefusal = ASSET_TYPE_MODULES[request.assetType]?.modelRefusal;
  if (modelRefusal && provider.kind === 'model')
    return log.fail('unsupported', `unsupported: ${modelRefusal}`);
  try {
    if (request.inputRefs !== undefined && request.inputs === undefined) {
      if (options.pictures === undefined) {
        return log.fail(
          'invalid_request',
          'the request names stored pictures but options.pictures cannot read them',
        );
      }
      const inputs = await loadImageInputs(request.inputRefs, options.pictures, {
        ...(signal ? { signal } : {}),
        wait: (p) => log.clock.wait(p),
      });
      request = { ...request, inputs };
      log.clock.check();
    }
    style = styleWithPaletteFrom(style, request.inputs);
  } catch (error) {
    if (signal?.aborted) return log.fail('aborted', 'run aborted', {}, errorMessage(signal.reason ?? error));
    if (error instanceof PipelineError) return log.fail(error.code, error.message, {}, error.detail);
    throw error;
  }
  const tags = request.tags?.length ? request.tags : Object.values(style).filter(Boolean).slice(0, 16);
  const layout = expectedLayout(
    request.assetType,
    request.params,
    subjectText({ userPrompt: request.prompt, tags, style }),
  );
  const palette = parsePalette(style.palette)?.colors ?? null;
  // a subject the provider cannot draw fails here, before any stage runs, and is never retried
  // (a picture to start from is the subject; a kept character's is its stored identity, not the prompt)
  if (provider.preflight && !request.inputs?.image && !request.params.character) {
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
      return log.fail('provider_failed', `image provider "${provider.name}" failed`, {}, errorMessage(error));
    }
    if (!answer.ok) return log.fail('subject_not_drawable', answer.message);
  }
  return { request, style, tags, layout, palette };
}

/** The asset_generator stage's drawing: native pixel art, and where it came from. */
export interface Drawn extends FromModel {
  /** Drawn from the picture by the pipeline itself (pixelate, a sprite animated, a tile varied). */
  fromPicture: boolean;
}

/** Errors of the provider that no retry helps: passed on as they are, never as provider_failed. */
const FINAL_CODES: ReadonlySet<PipelineErrorCode> = new Set([
  'subject_not_drawable',
  'unsupported',
  // the run's limit (issue #37)
  'deadline_exceeded',
  // a request the provider cannot honour as asked (words wider than the canvas)
  'invalid_request',
]);

/**
 * asset_generator: the pipeline draws from the picture, or the provider draws (its progress becomes
 * asset_generator running events, in order); a model's pictures become native pixel art through the
 * asset type's module. Emits the stage's running and completed events.
 */
export async function generate(
  provider: ImageProvider,
  request: PipelineRequest,
  run: {
    log: RunLog;
    prepared: Prepared;
    prompt: string;
    seed: number;
    attempt: number;
    signal?: AbortSignal;
  },
): Promise<Drawn> {
  const { log, prepared, seed, signal } = run;
  const { layout, palette, style, tags } = prepared;
  const module = ASSET_TYPE_MODULES[request.assetType];
  await log.emit('asset_generator', 'running', 0);
  signal?.throwIfAborted();
  let progressChain: Promise<void> = Promise.resolve();
  let lastProgress = 0;
  const onProgress = (p: number, message?: string) => {
    log.clock.check();
    const value = Math.max(1, Math.min(99, Math.round(Number.isFinite(p) ? p : 0)));
    if (value <= lastProgress) return;
    lastProgress = value;
    progressChain = progressChain.then(() =>
      log.emit('asset_generator', 'running', value, message ? { message } : {}),
    );
  };
  let drawn: Drawn;
  try {
    const fromPicture = drawFromInputs(provider, request, layout, palette, seed);
    const toProvider = providerInputs(request.inputs);
    // a model's time is waiting for its server; the built-in generator's is computing
    const generated: GeneratedAsset =
      fromPicture ??
      (await log.clock.wait(
        provider.generate(
          {
            assetType: request.assetType,
            prompt: run.prompt,
            userPrompt: request.prompt,
            tags,
            style,
            resolution: request.params.resolution,
            width: layout.frameWidth,
            height: layout.frameHeight,
            directions: layout.directions,
            framesPerDirection: layout.framesPerDirection,
            seed,
            variation: request.params.seed ?? 1,
            attempt: run.attempt,
            ...module.providerRequest?.(request.params, {
              userPrompt: request.prompt,
              tags,
              style,
              ...(request.inputs ? { inputs: request.inputs } : {}),
            }),
            ...(request.params.placeholder === true ? { placeholder: true } : {}),
            ...(toProvider ? { inputs: toProvider } : {}),
          },
          signal ? { signal, onProgress } : { onProgress },
        ),
        provider.kind === 'model',
      ));
    if (!generated || !Array.isArray(generated.frames)) throw new Error('provider returned no frames');
    // native pixels already when drawn from the picture or by a procedural provider
    drawn =
      fromPicture === null && provider.kind === 'model'
        ? {
            fromPicture: false,
            ...module.fromModel({
              generated,
              layout,
              params: request.params,
              userPrompt: request.prompt,
              tags,
              style,
              seed,
              palette,
            }),
          }
        : { fromPicture: fromPicture !== null, generated };
  } catch (error) {
    await progressChain.catch(() => {});
    if (signal?.aborted) throw error;
    if (error instanceof PipelineError && FINAL_CODES.has(error.code)) throw error;
    const exposed = exposedMessage(error);
    throw new PipelineError(
      'provider_failed',
      `image provider "${provider.name}" failed${exposed === undefined ? '' : `: ${exposed}`}`,
      { cause: error, detail: errorMessage(error) },
    );
  }
  await progressChain;
  if (module.assemble) {
    // the asset put together from the drawing (a level grown with this attempt's seed)
    drawn = {
      ...drawn,
      generated: module.assemble(drawn.generated, {
        params: request.params,
        layout,
        userPrompt: request.prompt,
        tags,
        style,
        seed,
        ...(request.inputs ? { inputs: request.inputs } : {}),
      }),
    };
    log.clock.check();
  }
  await log.emit('asset_generator', 'completed', 100);
  return drawn;
}

/**
 * quality_supervisor's report: the checks every asset gets, and a model's picture's checks when its
 * asset type has them (asset-types/).
 */
export function supervise(
  provider: ImageProvider,
  request: PipelineRequest,
  prepared: Prepared,
  drawn: Drawn,
  thresholds: Partial<ModelQualityThresholds> | null | undefined,
): QualityReport {
  const { generated, sources } = drawn;
  const { layout, palette } = prepared;
  const quality = inspectQuality({
    frames: generated.frames,
    expected: layout,
    palette,
    interpretation: generated.interpretation ?? null,
    motion: generated.animation,
    ...(generated.still ? { still: true } : {}),
    // a kept character's views are one stored identity: each direction is held to its own first frame
    ...(request.params.character ? { perDirection: true } : {}),
  });
  const module = ASSET_TYPE_MODULES[request.assetType];
  const own = module.checks?.(generated);
  const checked = own ? withChecks(quality, own) : quality;
  const checks = module.modelChecks;
  if (provider.kind !== 'model' || checks === null || drawn.fromPicture) return checked;
  return withChecks(
    checked,
    inspectModelOutput({
      frames: generated.frames,
      ...(sources ? { sources } : {}),
      opaque: layout.opaque,
      palette,
      tileable: generated.tileable ? checks.tileable : null,
      thresholds: thresholds ?? null,
    }),
  );
}
