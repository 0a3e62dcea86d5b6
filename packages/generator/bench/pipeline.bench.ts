// In-process end-to-end benchmark: p50/p95 of runPipeline for a 64 px sprite as a 4×4 sheet and a
// 512 px background, tasks per second on one core, and ratios against a baseline measured in the
// same run (encoding the same pixels with the PNG encoder alone, i.e. the floor any pipeline pays).
import { createMemoryStorage, encodePng, type PipelineRequest } from '@assetloom/pipeline';
import { renderProcedural, runPipeline } from '../src/index.js';

const spriteReq: PipelineRequest = {
  prompt: 'a brave knight',
  assetType: 'sprite',
  projectStyle: { palette: 'sweetie16', lineWeight: 'thin', lighting: 'top-left' },
  params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
  keyPrefix: 'bench/',
};
const bgReq: PipelineRequest = {
  prompt: 'a forest landscape',
  assetType: 'background',
  projectStyle: { lighting: 'sunset' },
  params: { resolution: 512, format: 'spritesheet' },
  keyPrefix: 'bench/',
};

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: q(0.5), p95: q(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

async function time(fn: () => unknown, iterations: number, warmup: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function case_(name: string, req: PipelineRequest, iterations: number, goalMs: number) {
  // vary the prompt so each run draws new art (no caching anywhere, but keep the work honest)
  let n = 0;
  const samples = await time(
    async () => {
      const r = await runPipeline(
        { ...req, prompt: `${req.prompt} ${n++}` },
        { storage: createMemoryStorage() },
      );
      if (!r.ok) throw new Error(r.error);
    },
    iterations,
    5,
  );
  const frames = (
    await renderProcedural({
      assetType: req.assetType,
      prompt: req.prompt,
      userPrompt: req.prompt,
      tags: [],
      style: req.projectStyle,
      resolution: req.params.resolution,
      directions: req.params.frames?.directions ?? 1,
      framesPerDirection: req.params.frames?.framesPerDirection ?? 1,
      seed: 1,
      attempt: 0,
    })
  ).frames;
  const side = req.params.frames ? req.params.resolution * 4 : req.params.resolution;
  const pixels = new Uint8Array(side * side * 4);
  pixels.set(frames[0]!.data.subarray(0, Math.min(pixels.length, frames[0]!.data.length)));
  const baseline = await time(() => encodePng(pixels, side, side), iterations, 5);
  const s = stats(samples);
  const b = stats(baseline);
  console.log(
    `${name.padEnd(34)} p50 ${s.p50.toFixed(2).padStart(7)} ms  p95 ${s.p95.toFixed(2).padStart(7)} ms  ` +
      `goal p50 < ${goalMs} ms: ${s.p50 < goalMs ? 'met' : 'MISSED'}  ` +
      `baseline (PNG encode only) p50 ${b.p50.toFixed(2)} ms, ratio ${(s.p50 / b.p50).toFixed(1)}×`,
  );
  return s;
}

const sprite = await case_('sprite 64 px, 4×4 spritesheet', spriteReq, 200, 20);
const bg = await case_('background 512 px', bgReq, 60, 150);
console.log(
  `tasks/s on one core: sprite sheets ${(1000 / sprite.mean).toFixed(1)}, backgrounds ${(1000 / bg.mean).toFixed(1)}`,
);
