// Prints, per prompt of a list, what the built-in generator drew: the drawing id or the rig's kind,
// the words said not honoured, or the refusal (issue #39, decision 0084). tsx bench/probe-39p.ts <list.json>
import { readFileSync } from 'node:fs';
import { PipelineError } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const list: { prompt: string }[] = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
for (const { prompt } of list) {
  try {
    const a = await renderProcedural(spriteRequest(prompt));
    const it = a.interpretation!;
    const named = it.drawing ? it.drawing.id : `rig:${it.kind}`;
    // metadata.notHonoured is the interpretation's ignored words (pipeline asset-types/output.ts)
    console.log(`${prompt}\t${named}\theld=${it.held ?? ''}\tnotHonoured=${it.ignored.join(',')}`);
  } catch (e) {
    if (e instanceof PipelineError) console.log(`${prompt}\tREFUSED ${e.code}: ${e.message.slice(0, 100)}`);
    else throw e;
  }
}
