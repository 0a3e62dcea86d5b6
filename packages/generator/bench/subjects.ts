import { readFileSync } from 'node:fs';
import type { AssetType, GeneratedAsset, RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { craftFaults } from '../src/internal/look/passes.js';

/**
 * The subjects bench of issue #27: common game nouns (bench/nouns.en.txt, nouns.zh.txt, built from
 * frequency lists and a game asset catalogue by scripts/gen-bench-nouns.mjs) drawn by the built-in
 * generator, each as a sprite and as an animation. Counted per asset type: drawn from a licensed
 * drawing, drawn by the rig, or refused with the word named; silent substitutes (a task that
 * completes without drawing its noun); distinct silhouettes; native detail (no exact 2× block
 * upscale); craft faults (orphan pixels and detached dots). Counts, not clocks: they hold on every
 * machine.
 */
export function loadNouns(): { en: string[]; zh: Array<[string, string]> } {
  const lines = (file: string) =>
    readFileSync(new URL(file, import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
  return {
    en: lines('./nouns.en.txt'),
    zh: lines('./nouns.zh.txt').map((l) => l.split('\t') as [string, string]),
  };
}

/** Silhouette of a frame: its opaque cells, cropped to the bounding box, resampled to n × n. */
export function silhouette(img: RgbaImage, n = 16): Uint8Array {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[(y * img.width + x) * 4 + 3]! > 0) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  const out = new Uint8Array(n * n);
  if (x1 < 0) return out;
  // keep the aspect ratio: a tall figure and a long animal must not stretch into the same square
  const side = Math.max(x1 - x0 + 1, y1 - y0 + 1);
  const cx = (x0 + x1 + 1) / 2;
  const by = y1 + 1;
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const x = Math.floor(cx - side / 2 + ((i + 0.5) * side) / n);
      const y = Math.floor(by - side + ((j + 0.5) * side) / n);
      if (x >= 0 && y >= 0 && x < img.width && y < img.height)
        out[j * n + i] = img.data[(y * img.width + x) * 4 + 3]! > 0 ? 1 : 0;
    }
  return out;
}

/** Intersection over union of two silhouettes (1 = the same shape). */
export function iou(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i]! & b[i]!;
    union += a[i]! | b[i]!;
  }
  return union ? inter / union : 1;
}

/** Whether a frame is an exact 2× block upscale (every 2 × 2 block one colour): no native detail. */
export function isBlockUpscale(img: RgbaImage): boolean {
  const { width: w, height: h, data: d } = img;
  let opaque = 0;
  for (let y = 0; y + 1 < h; y += 2)
    for (let x = 0; x + 1 < w; x += 2) {
      const i = (y * w + x) * 4;
      if (d[i + 3]) opaque++;
      for (const j of [i + 4, i + w * 4, i + w * 4 + 4])
        for (let k = 0; k < 4; k++) if (d[i + k] !== d[j + k]) return false;
    }
  return opaque > 0;
}

export interface SubjectOutcome {
  noun: string;
  /** The English noun a Chinese one glosses. */
  gloss?: string;
  assetType: AssetType;
  source: 'drawing' | 'rig' | 'refused';
  /** A drawing's id, or the rig's kind. */
  drawnWith?: string;
  /** The refusal, naming the word. */
  refusal?: string;
  /** Completed without drawing its noun: another subject, or no subject at all. */
  silentSubstitute: boolean;
  silhouettes: Uint8Array[];
  blockUpscaled: boolean;
  orphans: number;
  detached: number;
  frames: RgbaImage[];
}

/** Draws one noun ("a {noun}" or the Chinese word) as a sprite or an animation at 64 px, 4 × 4. */
export async function drawSubject(
  noun: string,
  assetType: 'sprite' | 'animation',
  options: { gloss?: string; seed?: number; resolution?: number; framesPerDirection?: number } = {},
): Promise<SubjectOutcome> {
  const zh = /[\u3400-\u9fff]/.test(noun);
  const prompt = zh ? noun : `a ${noun}`;
  let out: GeneratedAsset;
  const base = {
    noun,
    ...(options.gloss ? { gloss: options.gloss } : {}),
    assetType,
    silhouettes: [],
    blockUpscaled: false,
    orphans: 0,
    detached: 0,
    frames: [],
  };
  try {
    out = await renderProcedural({
      assetType,
      prompt,
      userPrompt: prompt,
      tags: [],
      style: {},
      resolution: options.resolution ?? 64,
      directions: 4,
      framesPerDirection: options.framesPerDirection ?? 4,
      seed: options.seed ?? 1,
      attempt: 0,
    });
  } catch (error) {
    const message = (error as Error).message;
    return { ...base, source: 'refused', refusal: message, silentSubstitute: false };
  }
  const it = out.interpretation!;
  const fpd = options.framesPerDirection ?? 4;
  // the noun is drawn when it is the subject read; a drawing must name it (or the noun it is a kind of)
  const singular = (w: string) => w.replace(/(ies)$/, 'y').replace(/(s)$/, '');
  const subjectIsNoun =
    it.subject !== null &&
    (it.subject === noun || singular(it.subject) === singular(noun) || it.lemma === noun);
  const drawing = it.drawing;
  let named = subjectIsNoun;
  if (named && it.source === 'drawing' && drawing) {
    const words = `${drawing.label} ${it.drawnAs ?? ''} ${it.lemma ?? ''}`.toLowerCase();
    named = words.includes(singular(it.lemma ?? noun)) || it.drawnAs !== undefined || zh;
  }
  let orphans = 0;
  let detached = 0;
  for (const f of out.frames) {
    const c = craftFaults(f);
    orphans += c.orphans;
    detached += c.detached;
  }
  return {
    ...base,
    source: it.source === 'drawing' ? 'drawing' : 'rig',
    drawnWith: drawing?.id ?? it.kind,
    silentSubstitute: !named,
    silhouettes: Array.from({ length: 4 }, (_, d) => silhouette(out.frames[d * fpd]!)),
    blockUpscaled: out.frames.some(isBlockUpscale),
    orphans,
    detached,
    frames: out.frames,
  };
}

export interface SubjectFigures {
  assetType: AssetType;
  nouns: number;
  drawing: number;
  rig: number;
  refused: number;
  silentSubstitutes: string[];
  distinct: number;
  /** Completed subjects whose silhouettes are alike in every direction (mean IoU ≥ 0.85). */
  alike: Array<[string, string]>;
  blockUpscaled: string[];
  orphans: number;
  detached: number;
  refusals: string[];
}

/** The bench's counts for one asset type over outcomes. */
export function summarize(assetType: AssetType, outcomes: readonly SubjectOutcome[]): SubjectFigures {
  const done = outcomes.filter((o) => o.source !== 'refused');
  const alike: Array<[string, string]> = [];
  const notDistinct = new Set<string>();
  for (let i = 0; i < done.length; i++)
    for (let j = i + 1; j < done.length; j++) {
      const a = done[i]!;
      const b = done[j]!;
      // the same drawing for two nouns (a synonym) is one subject drawn twice, not two alike subjects
      if (a.drawnWith === b.drawnWith && a.source === 'drawing') continue;
      const mean = a.silhouettes.reduce((s, d, k) => s + iou(d, b.silhouettes[k]!), 0) / a.silhouettes.length;
      if (mean >= 0.85) {
        alike.push([a.noun, b.noun]);
        notDistinct.add(a.noun);
        notDistinct.add(b.noun);
      }
    }
  return {
    assetType,
    nouns: outcomes.length,
    drawing: outcomes.filter((o) => o.source === 'drawing').length,
    rig: outcomes.filter((o) => o.source === 'rig').length,
    refused: outcomes.filter((o) => o.source === 'refused').length,
    silentSubstitutes: outcomes.filter((o) => o.silentSubstitute).map((o) => o.noun),
    distinct: done.length - notDistinct.size,
    alike,
    blockUpscaled: outcomes.filter((o) => o.blockUpscaled).map((o) => o.noun),
    orphans: outcomes.reduce((s, o) => s + o.orphans, 0),
    detached: outcomes.reduce((s, o) => s + o.detached, 0),
    refusals: outcomes.filter((o) => o.source === 'refused').map((o) => o.noun),
  };
}
