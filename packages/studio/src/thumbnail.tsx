import type { Asset } from '@assetloom/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from './context.js';
import { imageUrl, loadImage } from './util.js';

const SIZE = 64;
const assetsByTask = new Map<string, Promise<Asset[]>>();

/** The assets of a finished task (they never change once it completed), remembered for the page's life. */
export function taskAssets(api: ReturnType<typeof useStudio>['api'], taskId: string): Promise<Asset[]> {
  let pending = assetsByTask.get(taskId);
  if (pending === undefined) {
    pending = api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } }).then((result) => {
      if (result.error) throw result.error;
      return result.data.assets;
    });
    pending.catch(() => assetsByTask.delete(taskId));
    assetsByTask.set(taskId, pending);
  }
  return pending;
}

/** The first frame of a completed task, drawn pixel-exact into a 64×64 canvas. */
export function Thumbnail({ taskId, status }: { taskId: string; status: string }) {
  const { api } = useStudio();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (status !== 'completed') return;
    let live = true;
    void (async () => {
      const assets = await taskAssets(api, taskId);
      const png = assets.find((a) => a.format === 'png');
      if (!png || !live || !canvas.current) return;
      const image = await loadImage(await imageUrl(api, png));
      const fw = Math.min(png.metadata.frameWidth, image.naturalWidth);
      const fh = Math.min(png.metadata.frameHeight, image.naturalHeight);
      const ctx = canvas.current?.getContext('2d');
      if (!ctx || !live) return;
      const scale = Math.min(SIZE / fw, SIZE / fh);
      const zoom = scale >= 1 ? Math.floor(scale) : scale;
      ctx.imageSmoothingEnabled = false;
      ctx.clearRect(0, 0, SIZE, SIZE);
      const w = fw * zoom;
      const h = fh * zoom;
      ctx.drawImage(image, 0, 0, fw, fh, Math.round((SIZE - w) / 2), Math.round((SIZE - h) / 2), w, h);
      setDrawn(true);
    })().catch(() => {});
    return () => {
      live = false;
    };
  }, [api, taskId, status]);
  return (
    <canvas
      ref={canvas}
      class={`thumb checker ${drawn ? 'drawn' : ''}`}
      width={SIZE}
      height={SIZE}
      data-testid="thumbnail"
    />
  );
}
