import type { Asset, Task } from '@assetloom/sdk';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { filesOf, fileUri, mimeOf, type WrittenFile } from './files.js';
import { type Language, say } from './messages.js';

/** The largest PNG shown as image content (larger ones are read through their resource link). */
const MAX_IMAGE_BYTES = 1_000_000;
/** At most this many pictures in one answer (a task of individual frames has many). */
export const MAX_IMAGES = 4;

/** A task and its assets without signed URLs (they carry a download credential): what answers show. */
export function publicAsset(asset: Asset) {
  const { url: _url, ...rest } = asset;
  return { ...rest, uri: fileUri(asset.key) };
}

function describeAsset(asset: Asset): string {
  const m = asset.metadata;
  const frames =
    m.frameCount !== undefined && m.frameCount > 1
      ? ` — ${m.directions ?? 1} direction(s) × ${Math.round(m.frameCount / Math.max(1, m.directions ?? 1))} frame(s) of ${m.frameWidth}×${m.frameHeight}`
      : '';
  const name = asset.key.slice(asset.key.lastIndexOf('/') + 1);
  return `${name} ${asset.width}×${asset.height}${frames}`;
}

function attribution(assets: readonly Asset[]): string | undefined {
  for (const asset of assets) {
    const drawing = (
      asset.metadata.provenance as { drawing?: { attribution?: unknown; license?: unknown } } | undefined
    )?.drawing;
    if (drawing && typeof drawing.attribution === 'string') {
      return `Credits: ${drawing.attribution}${typeof drawing.license === 'string' ? ` (${drawing.license})` : ''}`;
    }
  }
  return undefined;
}

/**
 * The answer of a completed task: a summary, the PNGs as image content (so the agent sees them), a
 * resource link for every file, and the structured task; the files written when it was asked to.
 */
export function taskAnswer(input: {
  task: Task;
  assets: readonly Asset[];
  pictures: ReadonlyMap<string, Uint8Array>;
  written?: readonly WrittenFile[];
  language: Language;
}): CallToolResult {
  const { task, assets, pictures, written, language } = input;
  const files = filesOf(assets);
  const lines = [
    `Task ${task.taskId} ${task.status}: ${task.assetType} "${task.prompt}", ${files.length} file(s).`,
    ...assets.map(describeAsset),
  ];
  const engine = files.filter((f) => f.kind !== 'png');
  if (engine.length > 0) lines.push(`Engine files: ${engine.map((f) => `${f.name} (${f.kind})`).join(', ')}`);
  const credits = attribution(assets);
  if (credits) lines.push(credits);
  if (written && written.length > 0) {
    lines.push(`Written: ${written.map((w) => (w.res ? `${w.path} (${w.res})` : w.path)).join(', ')}`);
  }
  const content: CallToolResult['content'] = [{ type: 'text', text: lines.join('\n') }];
  let shown = 0;
  for (const asset of assets) {
    const bytes = pictures.get(asset.key);
    if (bytes === undefined) continue;
    const name = asset.key.slice(asset.key.lastIndexOf('/') + 1);
    if (bytes.length > MAX_IMAGE_BYTES) {
      content.push({
        type: 'text',
        text: say(language, 'imageTooLarge', { file: name, kb: Math.round(bytes.length / 1024) }),
      });
      continue;
    }
    if (shown >= MAX_IMAGES) break;
    shown++;
    content.push({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: 'image/png' });
  }
  for (const file of files) {
    content.push({
      type: 'resource_link',
      uri: fileUri(file.key),
      name: file.name,
      mimeType: mimeOf(file.name),
      description:
        file.kind === 'png' ? `PNG of task ${task.taskId}` : `${file.kind} file of task ${task.taskId}`,
    });
  }
  return {
    content,
    structuredContent: {
      task,
      assets: assets.map(publicAsset),
      files: files.map((f) => ({ key: f.key, name: f.name, kind: f.kind, uri: fileUri(f.key) })),
      ...(written ? { written } : {}),
    },
  };
}
