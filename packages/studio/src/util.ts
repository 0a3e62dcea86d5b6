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
