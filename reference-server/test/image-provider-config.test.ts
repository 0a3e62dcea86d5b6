import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createImageProvider, readImageProviderSettings } from '../src/image-provider.js';

const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(48) };

describe('IMAGE_PROVIDER', () => {
  it('defaults to the procedural provider', () => {
    const r = loadConfig(base, '/tmp');
    expect(r.ok && r.value.generation.imageProvider).toEqual({ kind: 'procedural' });
    // the built-in generator's row of the provider table (it was undefined: the pipeline's own default)
    expect(createImageProvider({ kind: 'procedural' }).name).toBe('procedural');
  });

  it('selects comfyui, a1111 and openai providers with their settings', () => {
    const c = readImageProviderSettings(
      { IMAGE_PROVIDER: 'comfyui', COMFYUI_URL: 'http://127.0.0.1:8188/' },
      '/',
    );
    expect(c.issues).toEqual([]);
    expect(createImageProvider(c.value)?.name).toBe('comfyui');
    const small = readImageProviderSettings(
      { IMAGE_PROVIDER: 'comfyui', COMFYUI_STEPS: '4', COMFYUI_MAX_EDGE: '512' },
      '/',
    );
    expect(small).toMatchObject({ value: { kind: 'comfyui', steps: 4, maxEdge: 512 }, issues: [] });
    const a = readImageProviderSettings({ IMAGE_PROVIDER: 'a1111', A1111_URL: 'http://gpu:7860' }, '/');
    expect(createImageProvider(a.value)?.kind).toBe('model');
    const o = readImageProviderSettings({ IMAGE_PROVIDER: 'openai', IMAGE_API_KEY: 'sk' }, '/');
    expect(createImageProvider(o.value)?.name).toBe('openai-images:gpt-image-1');
  });

  it('refuses to start with a clear error for bad settings', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ IMAGE_PROVIDER: 'midjourney' }, /IMAGE_PROVIDER: must be procedural, openai, comfyui or a1111/],
      [{ IMAGE_PROVIDER: 'openai' }, /IMAGE_API_KEY: is required/],
      [{ IMAGE_PROVIDER: 'comfyui', COMFYUI_URL: 'ftp://x' }, /COMFYUI_URL: must be an http\(s\) URL/],
      [{ IMAGE_PROVIDER: 'a1111', IMAGE_TIMEOUT_MS: 'soon' }, /IMAGE_TIMEOUT_MS/],
      [{ IMAGE_PROVIDER: 'comfyui', COMFYUI_STEPS: '0' }, /COMFYUI_STEPS: must be an integer from 1 to 150/],
      [
        { IMAGE_PROVIDER: 'comfyui', COMFYUI_MAX_EDGE: '64' },
        /COMFYUI_MAX_EDGE: must be an integer from 256/,
      ],
      [
        { IMAGE_PROVIDER: 'comfyui', COMFYUI_WORKFLOW: 'missing.json' },
        /COMFYUI_WORKFLOW: must be a readable/,
      ],
    ];
    for (const [env, message] of cases) {
      const r = loadConfig({ ...base, ...env }, '/tmp');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
  });

  it('checks a user workflow at start-up', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wf-'));
    writeFileSync(join(dir, 'wf.json'), JSON.stringify({ '1': { class_type: 'SaveImage', inputs: {} } }));
    const r = loadConfig({ ...base, IMAGE_PROVIDER: 'comfyui', COMFYUI_WORKFLOW: 'wf.json' }, dir);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/COMFYUI_WORKFLOW: the ComfyUI workflow has no KSampler/);
  });
});
