// Image inputs through the real ComfyUI (issue #31, decision 0034): pictures uploaded through
// /upload/image, the txt2img graph turned img2img (LoadImage → VAEEncode, denoise = strength) and
// inpaint (LoadImageMask → SetLatentNoiseMask), checked in ComfyUI's own /history; the random-weight
// checkpoint draws noise, so the mask is shown honoured: outside it the picture is kept pixel for
// pixel, inside it is redrawn. References go into a workflow's LoadImage nodes titled "reference…",
// and a workflow without one is refused by name.

import { runPipeline } from '@assetloom/generator';
import { createMemoryStorage, type ImageRequest, type RgbaImage } from '@assetloom/pipeline';
import {
  type ComfyWorkflow,
  createComfyUIProvider,
  DEFAULT_COMFYUI_WORKFLOW,
} from '@assetloom/pipeline/providers';
import { waitFor } from '@assetloom/testing';
import { comfyuiUrl } from '@assetloom/testing/real-servers-inject';
import { describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';

const url = await comfyuiUrl();
const checkpoint = inject('comfyuiCheckpoint') ?? '';
if (!url) console.warn(`[real-servers] ⚠ SKIPPING the ComfyUI image suite: ${inject('comfyuiSkipReason')}`);

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

function recordingFetch(log: Call[]): typeof fetch {
  return async (input, init) => {
    const u = new URL(String(input));
    log.push({
      method: init?.method ?? 'GET',
      path: u.pathname,
      ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) } : {}),
    });
    return fetch(input, init);
  };
}

function provider(calls: Call[], workflow?: ComfyWorkflow) {
  return createComfyUIProvider({
    baseUrl: url!,
    checkpoint,
    steps: 2,
    maxEdge: 256,
    timeoutMs: 300_000,
    fetch: recordingFetch(calls),
    WebSocket: WebSocket as never,
    ...(workflow ? { workflow } : {}),
  });
}

/** 64 × 64: left half red, right half blue, opaque. */
function picture(): RgbaImage {
  const data = new Uint8Array(64 * 64 * 4);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) data.set(x < 32 ? [210, 40, 40, 255] : [30, 60, 200, 255], (y * 64 + x) * 4);
  }
  return { width: 64, height: 64, data };
}

/** White (edit) over the top half. */
function topMask(): RgbaImage {
  const data = new Uint8Array(64 * 64 * 4);
  for (let p = 0; p < 64 * 64; p++) data.set(p < 32 * 64 ? [255, 255, 255, 255] : [0, 0, 0, 255], p * 4);
  return { width: 64, height: 64, data };
}

let seed = Date.now() % 1_000_000_000;
const request = (over: Partial<ImageRequest>): ImageRequest => ({
  assetType: 'sprite',
  prompt: 'a knight',
  userPrompt: 'a knight',
  tags: [],
  style: {},
  resolution: 32,
  directions: 1,
  framesPerDirection: 1,
  seed: seed++,
  attempt: 0,
  ...over,
});

interface HistoryEntry {
  prompt: [number, string, ComfyWorkflow, Record<string, unknown>, string[]];
  outputs: Record<string, { images?: Array<{ filename: string; subfolder: string; type: string }> }>;
}
async function history(promptId: string): Promise<HistoryEntry> {
  return (await waitFor(
    async () =>
      ((await (await fetch(`${url}/history/${promptId}`)).json()) as Record<string, unknown>)[promptId],
    { timeoutMs: 120_000, intervalMs: 200, description: `ComfyUI's history of ${promptId}` },
  )) as HistoryEntry;
}
const promptIdOf = (calls: Call[]): string => {
  const posted = calls.find((c) => c.path === '/prompt')?.body as { prompt_id?: string } | undefined;
  if (!posted?.prompt_id) throw new Error('the provider posted no prompt to ComfyUI');
  return posted.prompt_id;
};

describe.skipIf(!url)('ComfyUI image inputs (real server)', () => {
  it('inpaints: uploads the picture and mask, denoises the strength, keeps the picture outside the mask', async () => {
    const calls: Call[] = [];
    const out = await provider(calls).generate(
      request({ inputs: { image: { picture: picture(), strength: 0.8 }, mask: topMask() } }),
      {},
    );
    expect(calls.filter((c) => c.path === '/upload/image')).toHaveLength(2);
    const entry = await history(promptIdOf(calls));
    const graph = entry.prompt[2];
    const classes = Object.values(graph).map((n) => n.class_type);
    expect(classes).toEqual(
      expect.arrayContaining(['LoadImage', 'VAEEncode', 'LoadImageMask', 'SetLatentNoiseMask']),
    );
    expect(classes).not.toContain('EmptyLatentImage');
    const sampler = Object.values(graph).find((n) => n.class_type === 'KSampler')!;
    expect(sampler.inputs.denoise).toBe(0.8);
    expect(String(graph.assetloom_image?.inputs.image)).toMatch(/^assetloom\/.+-image\.png$/);
    // the frame is the 256 px picture: its bottom half (black in the mask) is the picture drawn
    // 4× as sent, pixel for pixel; its top half is ComfyUI's (noise from random weights)
    const frame = out.frames[0]!;
    expect([frame.width, frame.height]).toEqual([256, 256]);
    let kept = 0;
    let redrawn = 0;
    for (let y = 0; y < 256; y++) {
      for (let x = 0; x < 256; x++) {
        const i = (y * 256 + x) * 4;
        const sent = x < 128 ? [210, 40, 40] : [30, 60, 200];
        const same =
          frame.data[i] === sent[0] && frame.data[i + 1] === sent[1] && frame.data[i + 2] === sent[2];
        if (y >= 128 && same) kept++;
        if (y < 128 && !same) redrawn++;
      }
    }
    expect(kept).toBe(128 * 256);
    expect(redrawn).toBeGreaterThan(128 * 256 * 0.9);
  });

  it('img2img without a mask: denoise is the strength, the graph starts from the upload', async () => {
    const calls: Call[] = [];
    const out = await provider(calls).generate(
      request({ inputs: { image: { picture: picture(), strength: 0.3 } } }),
      {},
    );
    expect(out.frames).toHaveLength(1);
    const graph = (await history(promptIdOf(calls))).prompt[2];
    expect(Object.values(graph).find((n) => n.class_type === 'KSampler')!.inputs.denoise).toBe(0.3);
    expect(Object.values(graph).some((n) => n.class_type === 'SetLatentNoiseMask')).toBe(false);
  });

  it('references go into a workflow’s LoadImage nodes titled "reference…"; the default workflow refuses them', async () => {
    const refused = await runPipeline(
      {
        prompt: 'a knight like this',
        assetType: 'sprite',
        projectStyle: {},
        params: { resolution: 32, format: 'spritesheet', frames: { directions: 1, framesPerDirection: 1 } },
        keyPrefix: 't/',
        inputs: { references: [picture()] },
      },
      { storage: createMemoryStorage(), providers: { image: provider([]) } },
    );
    expect(refused).toMatchObject({ ok: false, code: 'unsupported' });
    if (!refused.ok) expect(refused.error).toMatch(/params\.references.*LoadImage node titled "reference/);

    const workflow: ComfyWorkflow = {
      ...DEFAULT_COMFYUI_WORKFLOW,
      r1: { class_type: 'LoadImage', inputs: { image: 'none.png' }, _meta: { title: 'Reference 1' } },
      r1_preview: { class_type: 'PreviewImage', inputs: { images: ['r1', 0] } },
    };
    const calls: Call[] = [];
    await provider(calls, workflow).generate(request({ inputs: { references: [picture()] } }), {});
    const entry = await history(promptIdOf(calls));
    expect(String(entry.prompt[2].r1?.inputs.image)).toMatch(/^assetloom\/.+-reference-1\.png$/);
    // ComfyUI loaded it: the preview of the reference is among the prompt's outputs
    expect(entry.outputs.r1_preview?.images?.length).toBe(1);
  });
});
