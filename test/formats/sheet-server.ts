import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runPipeline } from '@assetloom/generator';
import { type AnimationParams, createMemoryStorage } from '@assetloom/pipeline';

/** A file the loopback server answers with. */
export interface ServedFile {
  bytes: Uint8Array | string;
  type: string;
}

/** A generated animation sheet: its files under `/files/<name>/…` and what its metadata says. */
export interface GeneratedSheet {
  name: string;
  files: Map<string, ServedFile>;
  animations: string[];
  frames: number;
  pages: number;
}

/** Runs the pipeline for an animation sheet and keeps every file it stored, by URL path. */
export async function generateSheet(
  name: string,
  resolution: number,
  directions: 1 | 4 | 8,
  framesPerDirection: number,
  animation?: AnimationParams,
): Promise<GeneratedSheet> {
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt: 'a walking knight',
      assetType: 'animation',
      projectStyle: {},
      params: {
        resolution,
        frames: { directions, framesPerDirection },
        format: 'spritesheet',
        ...(animation ? { animation } : {}),
      },
      keyPrefix: `${name}/`,
    },
    { storage },
  );
  if (!r.ok) throw new Error(r.error);
  const files = new Map<string, ServedFile>();
  for (const key of storage.keys()) {
    const object = storage.get(key)!;
    files.set(`/files/${key}`, { bytes: object.bytes, type: object.contentType });
  }
  return {
    name,
    files,
    animations: r.assets[0]!.metadata.animations ?? [],
    frames: r.assets[0]!.metadata.frameCount,
    pages: r.assets.length,
  };
}

/** Serves `files` (path → file) on 127.0.0.1 and a free port; anything else is 404 (the favicon 204). */
export async function serveFiles(
  files: Map<string, ServedFile>,
): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = files.get(path);
    if (file) res.writeHead(200, { 'content-type': file.type }).end(file.bytes);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
