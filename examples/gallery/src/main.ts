import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeContactSheets } from './contact-sheets.js';
import { writeGallery } from './gallery.js';

const outDir = resolve(process.argv[2] ?? fileURLToPath(new URL('../out', import.meta.url)));
const files = await writeGallery(outDir);
for (const f of files) console.log(`${f.path}  ${f.width}×${f.height}`);
for (const s of await writeContactSheets(outDir))
  console.log(`${s.path}  ${s.width}×${s.height}  (${s.cells.length} prompts)`);
console.log(
  `[assetloom/example-gallery] wrote ${files.length} previews (and the raw PNG + atlas files under raw/) to ${outDir}`,
);
