import type { AssetClient, AssetRef } from '@assetloom/sdk';
import type { Lang } from './i18n.js';

export function formatTime(iso: string, lang: Lang): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
}

export const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/**
 * The start of a downloaded file's name, from the task's prompt (issue #41): "A red fox" →
 * `red-fox`, so that `red-fox_sprite.png` and `red-fox_sprite.tres` sit beside another asset's files
 * in one engine folder. Letters and digits of any script, joined by `-`, the leading article dropped,
 * at most 40 characters; '' when nothing is left.
 */
export function downloadPrefix(prompt: string): string {
  const words = prompt
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length > 1 && ['a', 'an', 'the'].includes(words[0]!)) words.shift();
  let out = '';
  for (const word of words) {
    const next = out ? `${out}-${word}` : word;
    if (next.length > 40) break;
    out = next;
  }
  return out || (words[0] ?? '').slice(0, 40);
}

/**
 * A text file's references to the files renamed for download (`res://sprite.png` →
 * `res://red-fox_sprite.png`, `"image": "sprite.png"`), whole names only.
 */
export function renameReferences(text: string, renamed: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [from, to] of renamed) {
    const name = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![\\w.-])${name}(?![\\w-]|\\.\\w)`, 'g'), to);
  }
  return out;
}

/** Generated files never change under a key, so their bytes are kept for the page's life. */
const bytesByKey = new Map<string, Promise<Uint8Array>>();

export function fileBytes(api: AssetClient, asset: AssetRef): Promise<Uint8Array> {
  const key = typeof asset === 'string' ? asset : asset.key;
  let pending = bytesByKey.get(key);
  if (pending === undefined) {
    pending = api.downloadAsset(asset).then((result) => {
      if (result.error) throw result.error;
      return result.data.bytes;
    });
    pending.catch(() => bytesByKey.delete(key));
    bytesByKey.set(key, pending);
  }
  return pending;
}

const urlsByKey = new Map<string, Promise<string>>();

/** A blob: URL of a generated PNG (the CSP allows blob: images). */
export function imageUrl(api: AssetClient, asset: AssetRef): Promise<string> {
  const key = typeof asset === 'string' ? asset : asset.key;
  let pending = urlsByKey.get(key);
  if (pending === undefined) {
    pending = fileBytes(api, asset).then((bytes) =>
      URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'image/png' })),
    );
    pending.catch(() => urlsByKey.delete(key));
    urlsByKey.set(key, pending);
  }
  return pending;
}

export function loadImage(url: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.src = url;
  return image.decode().then(() => image);
}

/** Saves bytes as a file through a temporary link (no navigation, no server round trip). */
export function saveFile(name: string, bytes: Uint8Array, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
