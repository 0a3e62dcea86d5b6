/**
 * What `uploadImage` sends (issue #31, decision 0034): the picture's bytes from a Blob or File, bytes
 * or (Node, Deno, Bun) a file path, with an image content type read from the bytes.
 */
export type UploadSource = Blob | Uint8Array | ArrayBuffer | string;

/** How far an upload is: bytes handed to the connection of all bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** The image content type of a picture's bytes (its signature), else `application/octet-stream`. */
export function sniffImageType(bytes: Uint8Array): string {
  const ascii = (at: number, n: number) => String.fromCharCode(...bytes.subarray(at, at + n));
  if (bytes[0] === 0x89 && ascii(1, 3) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return 'image/webp';
  return 'application/octet-stream';
}

/** The bytes of an upload source; a string is a file path (read with `node:fs` where it exists). */
export async function bytesOf(source: UploadSource): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (typeof Blob !== 'undefined' && source instanceof Blob)
    return new Uint8Array(await source.arrayBuffer());
  if (typeof source === 'string') {
    const specifier = 'node:fs/promises';
    let fs: { readFile(path: string): Promise<Uint8Array> };
    try {
      fs = (await import(/* @vite-ignore */ specifier)) as typeof fs;
    } catch {
      throw new TypeError(
        '[assetloom/sdk] uploadImage got a file path, but this runtime has no file system: pass a Blob, a File or bytes.',
      );
    }
    const data = await fs.readFile(source);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  throw new TypeError(
    '[assetloom/sdk] uploadImage takes a Blob, a File, a Uint8Array, an ArrayBuffer or a file path.',
  );
}

/**
 * A body that reports its progress as the connection reads it (64 KiB at a time), where the runtime
 * sends streamed request bodies (Node, Deno, Bun; browsers over HTTP/2). Null where it does not: the
 * caller then sends the bytes whole and reports the end.
 */
export function progressBody(
  bytes: Uint8Array,
  onProgress: (p: UploadProgress) => void,
): ReadableStream<Uint8Array> | null {
  if (typeof ReadableStream === 'undefined') return null;
  const total = bytes.byteLength;
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= total) {
        controller.close();
        return;
      }
      const next = Math.min(total, at + 65536);
      controller.enqueue(bytes.subarray(at, next));
      at = next;
      onProgress({ loaded: at, total });
    },
  });
}

/** Whether fetch here takes a streamed body (`duplex: 'half'`): Chrome over HTTP/1.1 does not. */
export function streamsRequests(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}
