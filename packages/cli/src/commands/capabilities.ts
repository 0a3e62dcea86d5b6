import { type Context, EXIT, parseCommand, UsageError } from '../context.js';

export const CAPABILITIES_HELP = `assetloom capabilities

What the server's image provider can do (GET /api/v1/capabilities; no login needed): its name and
kind, the asset types it draws, the picture inputs it honours (--image redraws and --mask need a
model provider; pixelate and --palette-from work everywhere), whether it takes uploads, and its
limits. Ask it before a generate that a provider may refuse.`;

const yes = (on: boolean) => (on ? 'yes' : 'no');

/** Bytes as people read them: 8 MiB, 512 KiB, 300 B. */
function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export async function capabilities(ctx: Context, argv: string[]): Promise<number> {
  const { positionals } = parseCommand(argv, {});
  if (positionals.length > 0)
    throw new UsageError(`capabilities takes no arguments; got ${positionals.join(' ')}`);
  const caps = ctx.unwrap('could not read what the server can do', await ctx.api.getCapabilities());
  const { provider, inputs, limits } = caps;
  const model = provider.kind === 'model';
  ctx.print(
    [
      `${ctx.server}: image provider ${provider.name} (${model ? 'an image model, pixelized' : 'the built-in generator'})`,
      `asset types  ${caps.assetTypes.join(', ')}`,
      `--image      ${yes(inputs.image)}${inputs.image ? '' : ' (redrawing a picture needs a model provider)'}`,
      `--mask       ${yes(inputs.mask)}`,
      `--reference  ${yes(inputs.references)}`,
      `pixelate     ${yes(inputs.pixelate)} (--image at --strength 0)`,
      `--palette-from ${yes(inputs.paletteFrom)}`,
      `uploads      ${yes(caps.uploads ?? false)}`,
      `limits       resolution ≤ ${limits.maxResolution} px; uploads ≤ ${limits.maxUploadSide} px a side, ${limits.maxUploadPixels.toLocaleString('en')} pixels, ${size(limits.maxUploadBytes)}`,
    ].join('\n'),
  );
  ctx.result({ server: ctx.server, ...caps });
  return EXIT.ok;
}
