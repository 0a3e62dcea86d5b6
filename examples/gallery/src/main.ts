import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBackgroundSheets } from './backgrounds.js';
import { writeBeforeAfter } from './before-after.js';
import { writeContactSheets } from './contact-sheets.js';
import { writeGallery } from './gallery.js';
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
console.log(
  `[assetloom/example-gallery] wrote ${files.length} previews (and the raw PNG + atlas files under raw/) to ${outDir}`,
);
