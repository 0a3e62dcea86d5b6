// The framing of object sprites (issue #39, decision 0085): for each prompt of a list, the subject's
// box over every frame of a 4 × 4 sheet, its larger side as a share of the cell, its least margin,
// the stray pixels (groups of ≤ 2) and its hue families (test/support.ts frameStats). Never run it on
// a held-out list.
//
//   tsx bench/framing-39q.ts <list.json> [resolution]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderProcedural } from '../src/index.js';
import { frameStats, spriteRequest } from '../test/support.js';

interface Row {
  prompt: string;
  assetType?: 'sprite' | 'animation';
  params?: { resolution?: number };
}
const list: Row[] = JSON.parse(readFileSync(resolve(process.argv[2]!), 'utf8'));
const res = Number(process.argv[3] ?? 64);
for (const row of list) {
  const out = await renderProcedural(
    spriteRequest(row.prompt, {
      assetType: row.assetType ?? 'sprite',
      resolution: row.params?.resolution ?? res,
      directions: 4,
      framesPerDirection: 4,
    }),
  ).catch((e: Error) => e);
  if (out instanceof Error) {
    console.log(`${row.prompt.padEnd(24)}\trefused: ${out.message.slice(0, 80)}`);
    continue;
  }
  const it = out.interpretation as { source?: string; drawing?: { id: string }; kind?: string } | undefined;
  const s = frameStats(out.frames);
  console.log(
    [
      row.prompt.padEnd(24),
      `${it?.source ?? ''}:${it?.drawing?.id ?? it?.kind ?? ''}`.padEnd(30),
      `share=${(s.share * 100).toFixed(0)}%`,
      `box=${s.box.join(',')}`,
      `margin=${s.margin}`,
      `strays=${s.strays}`,
      `hues=${s.hues}`,
    ].join('\t'),
  );
}
