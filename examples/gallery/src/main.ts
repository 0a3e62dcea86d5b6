import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBackgroundSheets } from './backgrounds.js';
import { writeBeforeAfter } from './before-after.js';
import { writeContactSheets } from './contact-sheets.js';
import { writeGallery } from './gallery.js';
import { writeImageInputs } from './image-inputs.js';
import { writeTilesetMaps } from './tilesets.js';

const outDir = resolve(process.argv[2] ?? fileURLToPath(new URL('../out', import.meta.url)));
const files = await writeGallery(outDir);
for (const f of files) console.log(`${f.path}  ${f.width}×${f.height}`);
for (const s of await writeContactSheets(outDir))
  console.log(`${s.path}  ${s.width}×${s.height}  (${s.cells.length} prompts)`);
for (const s of await writeBackgroundSheets(outDir))
  console.log(`${s.path}  ${s.width}×${s.height}  (${s.rows.length} rows)`);
for (const t of await writeTilesetMaps(outDir))
  console.log(
    `${t.map}  (map painted by the rules; worst seam ${t.seams.worst.toFixed(2)}, mean ${t.seams.mean.toFixed(2)})`,
  );
const pixelized = await writeBeforeAfter(outDir);
for (const b of pixelized)
  console.log(
    `${b.path}  ${b.width}×${b.height}  (pixelize: scale ${b.scale}, ${b.colors} colours, ${(b.right * 100).toFixed(1)} % of pixels right)`,
  );
if (!pixelized.length)
  console.log('pixelize before/after skipped: install crawl-tiles-data (the CC0 sprites it starts from)');
// images in (issue #31): pixelate, palette from a picture, a given sprite animated, and inpaint on the
// real ComfyUI when it is installed (bash scripts/install-real-servers.sh) or COMFYUI_URL names one
const comfyui = await startComfyUI();
try {
  const inputs = await writeImageInputs(outDir, comfyui ? { comfyui } : {});
  for (const f of inputs) console.log(`${f.path}  ${f.width}×${f.height}  (${f.note})`);
  if (!comfyui)
    console.log('inpaint before/after skipped: no ComfyUI (install the real servers or set COMFYUI_URL)');
} finally {
  await comfyui?.stop();
}
console.log(
  `[assetloom/example-gallery] wrote ${files.length} previews (and the raw PNG + atlas files under raw/) to ${outDir}`,
);

/** ComfyUI for the inpaint pair: COMFYUI_URL (+ COMFYUI_CHECKPOINT), else the installed real server. */
async function startComfyUI(): Promise<{ url: string; checkpoint: string; stop(): Promise<void> } | null> {
  if (process.env.COMFYUI_URL) {
    return {
      url: process.env.COMFYUI_URL,
      checkpoint: process.env.COMFYUI_CHECKPOINT ?? '',
      stop: async () => {},
    };
  }
  if (process.env.ASSETLOOM_GALLERY_COMFYUI === '0') return null;
  const { findRealServer, startRealServer } = await import('@assetloom/testing');
  const install = findRealServer('comfyui');
  if (!('entry' in install)) return null;
  const running = await startRealServer(install);
  return { url: running.url, checkpoint: install.model, stop: () => running.stop() };
}
