import { ASSET_TYPE_MODULES } from './asset-types/index.js';
import type { ExpectedLayout } from './asset-types/layout.js';
import { errorMessage, exposedMessage, PipelineError } from './errors.js';
import { ANIMATION_DEFAULTS } from './formats/playback.js';
import { type Rgb, toHex } from './palette.js';
import type {
  AnimationParams,
  AssetType,
  GeneratedAsset,
  OutputFormat,
  PipelineAsset,
  Provenance,
  StoragePort,
} from './types/index.js';

const encoder = new TextEncoder();

/** Default playback rate written into the atlas files (the contract's `Animation.fps` default). */
export const FRAMES_PER_SECOND = ANIMATION_DEFAULTS.fps;

export interface FormatInput {
  generated: GeneratedAsset;
  layout: ExpectedLayout;
  assetType: AssetType;
  format: OutputFormat;
  keyPrefix: string;
  provenance: Provenance;
  storage: StoragePort;
  signal?: AbortSignal;
  /** Sprite and animation: the request's `params.animation` (durations, loop), written into every atlas. */
  animation?: AnimationParams | null;
  /** The enforced palette, or null: every PNG indexed with exactly its colours, the palette files beside them. */
  palette?: readonly Rgb[] | null;
}

/** A palette as a GIMP palette file (`.gpl`): Aseprite, Krita, GIMP and Godot's palette tools read it. */
function gimpPalette(colours: readonly Rgb[], name: string): string {
  const rows = colours.map(
    (c) =>
      `${String(c[0]).padStart(3)} ${String(c[1]).padStart(3)} ${String(c[2]).padStart(3)}\t${toHex(c).slice(1)}`,
  );
  return `GIMP Palette\nName: ${name}\nColumns: ${Math.min(16, colours.length)}\n#\n${rows.join('\n')}\n`;
}

/** A palette as one `rrggbb` a line (Lospec's `.hex`). */
function hexPalette(colours: readonly Rgb[]): string {
  return `${colours.map((c) => toHex(c).slice(1)).join('\n')}\n`;
}

/** Encodes PNGs and atlas files (each asset type's own, asset-types/) and writes them through the storage port. */
export async function formatAssets(input: FormatInput): Promise<PipelineAsset[]> {
  const { writes, assets } = ASSET_TYPE_MODULES[input.assetType].files({
    generated: input.generated,
    layout: input.layout,
    format: input.format,
    keyPrefix: input.keyPrefix,
    provenance: input.provenance,
    animation: input.animation,
    text: { Software: 'assetloom', Comment: `seed ${input.provenance.seed}` },
    palette: input.palette ?? null,
  });
  if (input.palette?.length) {
    // the palette travels with the engine files: every asset names it in its atlas keys
    const name = String(input.provenance.style?.palette ?? 'palette').slice(0, 60);
    const gpl = `${input.keyPrefix}palette.gpl`;
    const hex = `${input.keyPrefix}palette.hex`;
    writes.push([
      gpl,
      encoder.encode(gimpPalette(input.palette, name.includes('#') ? 'custom' : name)),
      'text/plain; charset=utf-8',
    ]);
    writes.push([hex, encoder.encode(hexPalette(input.palette)), 'text/plain; charset=utf-8']);
    for (const a of assets)
      a.metadata = { ...a.metadata, atlas: { ...a.metadata.atlas, palette: gpl, paletteHex: hex } };
  }
  await putAll(input.storage, writes, input.signal);
  return assets;
}

/** How many of a task's files are handed to the storage port at once. */
const PUTS_IN_FLIGHT = 8;

/**
 * Writes a task's files through the storage port, up to PUTS_IN_FLIGHT at a time, started in order.
 * A durable store makes each file durable before it becomes visible (the filesystem driver syncs
 * each one); one after another, every file of a sheet waited for its own disk flush, while flushes
 * that overlap share the device (a journal merges them into one commit), and an object store's
 * uploads overlap too.
 * The first failure stops starting new writes, waits for those in flight, and is the one reported;
 * an abort is checked before each write starts.
 */
async function putAll(
  storage: FormatInput['storage'],
  writes: ReadonlyArray<[string, Uint8Array, string]>,
  signal: AbortSignal | undefined,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < writes.length) {
      if (signal?.aborted) {
        failure ??= { error: signal.reason };
        return;
      }
      const [key, bytes, type] = writes[next++] as [string, Uint8Array, string];
      try {
        await storage.put(key, bytes, type);
      } catch (error) {
        // A storage that names its failure for end users (`expose`, e.g. "storage full") is quoted.
        const exposed = exposedMessage(error);
        failure ??= {
          error: new PipelineError(
            'storage_failed',
            `the generated files could not be stored${exposed === undefined ? '' : `: ${exposed}`}`,
            {
              cause: error,
              detail: `storage.put(${JSON.stringify(key)}) failed: ${errorMessage(error)}; check the storage adapter`,
            },
          ),
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PUTS_IN_FLIGHT, writes.length) }, lane));
  if (failure !== undefined) throw failure.error;
}
