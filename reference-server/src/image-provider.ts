import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createA1111Provider,
  createComfyUIProvider,
  createOpenAIImageProvider,
  type ImageProvider,
} from '@assetloom/pipeline';
import { WebSocket } from 'ws';
import { type IntSettingName, intSetting } from './settings.js';

/** IMAGE_PROVIDER and its variables (see the README, "Run with a real image model"). */
export type ImageProviderSettings =
  | { kind: 'procedural' }
  | { kind: 'openai'; baseUrl: string; apiKey: string; model: string; timeoutMs: number; quality?: string }
  | {
      kind: 'comfyui';
      baseUrl: string;
      /** Parsed API-format workflow from COMFYUI_WORKFLOW (a file), or undefined for the default. */
      workflow?: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
      checkpoint?: string;
      timeoutMs: number;
      /** COMFYUI_STEPS: the sampler's steps (the workflow's own when unset). */
      steps?: number;
      /** COMFYUI_MAX_EDGE: longest edge of the picture asked for (default 1024; a CPU box wants 256-512). */
      maxEdge?: number;
    }
  | { kind: 'a1111'; baseUrl: string; timeoutMs: number; steps?: number; samplerName?: string };

type Env = Record<string, string | undefined>;
export interface ImageProviderIssue {
  variable: string;
  message: string;
}

const URL_RE = /^https?:\/\/[^\s]+$/;

/**
 * Reads IMAGE_PROVIDER = procedural (default) | openai | comfyui | a1111 and the variables of the
 * chosen one; every problem comes back as an issue for the start-up error.
 */
export function readImageProviderSettings(
  env: Env,
  cwd: string,
): { value: ImageProviderSettings; issues: ImageProviderIssue[] } {
  const issues: ImageProviderIssue[] = [];
  const raw = (n: string) => {
    const v = env[n]?.trim();
    return v ? v : undefined;
  };
  const int = (n: IntSettingName) => {
    const { fallback, min, max } = intSetting(n);
    const v = raw(n);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      issues.push({ variable: n, message: `must be an integer from ${min} to ${max} (got "${v}")` });
      return fallback;
    }
    return Number(v);
  };
  const url = (n: string, fallback?: string) => {
    const v = raw(n) ?? fallback;
    if (v === undefined) {
      issues.push({ variable: n, message: `is required when IMAGE_PROVIDER=${raw('IMAGE_PROVIDER')}` });
      return '';
    }
    if (!URL_RE.test(v)) issues.push({ variable: n, message: `must be an http(s) URL (got "${v}")` });
    return v.replace(/\/+$/, '');
  };
  const kind = (raw('IMAGE_PROVIDER') ?? 'procedural').toLowerCase();
  const timeoutMs = int('IMAGE_TIMEOUT_MS');
  switch (kind) {
    case 'procedural':
      return { value: { kind: 'procedural' }, issues };
    case 'openai': {
      const apiKey = raw('IMAGE_API_KEY') ?? raw('OPENAI_API_KEY');
      if (!apiKey)
        issues.push({
          variable: 'IMAGE_API_KEY',
          message: 'is required when IMAGE_PROVIDER=openai (or set OPENAI_API_KEY)',
        });
      const quality = raw('IMAGE_QUALITY');
      return {
        value: {
          kind: 'openai',
          baseUrl: url('IMAGE_BASE_URL', 'https://api.openai.com/v1'),
          apiKey: apiKey ?? '',
          model: raw('IMAGE_MODEL') ?? 'gpt-image-1',
          timeoutMs,
          ...(quality ? { quality } : {}),
        },
        issues,
      };
    }
    case 'comfyui': {
      const baseUrl = url('COMFYUI_URL', 'http://127.0.0.1:8188');
      const file = raw('COMFYUI_WORKFLOW');
      let workflow: Extract<ImageProviderSettings, { kind: 'comfyui' }>['workflow'];
      if (file) {
        try {
          workflow = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
          if (!workflow || typeof workflow !== 'object' || Array.isArray(workflow))
            throw new Error('not an object');
        } catch (error) {
          issues.push({
            variable: 'COMFYUI_WORKFLOW',
            message: `must be a readable API-format workflow JSON file (ComfyUI: Export (API)): ${(error as Error).message}`,
          });
          workflow = undefined;
        }
      }
      const checkpoint = raw('COMFYUI_CHECKPOINT');
      const steps = raw('COMFYUI_STEPS') ? int('COMFYUI_STEPS') : undefined;
      const maxEdge = raw('COMFYUI_MAX_EDGE') ? int('COMFYUI_MAX_EDGE') : undefined;
      const value: ImageProviderSettings = {
        kind: 'comfyui',
        baseUrl,
        timeoutMs,
        ...(workflow ? { workflow } : {}),
        ...(checkpoint ? { checkpoint } : {}),
        ...(steps !== undefined ? { steps } : {}),
        ...(maxEdge !== undefined ? { maxEdge } : {}),
      };
      // a workflow the provider cannot fill is a start-up error, not a failed first task
      if (!issues.length) {
        try {
          createImageProvider(value);
        } catch (error) {
          issues.push({ variable: 'COMFYUI_WORKFLOW', message: (error as Error).message });
        }
      }
      return { value, issues };
    }
    case 'a1111': {
      const steps = raw('A1111_STEPS') ? int('A1111_STEPS') : undefined;
      const samplerName = raw('A1111_SAMPLER');
      return {
        value: {
          kind: 'a1111',
          baseUrl: url('A1111_URL', 'http://127.0.0.1:7860'),
          timeoutMs,
          ...(steps !== undefined ? { steps } : {}),
          ...(samplerName ? { samplerName } : {}),
        },
        issues,
      };
    }
    default:
      issues.push({
        variable: 'IMAGE_PROVIDER',
        message: `must be procedural, openai, comfyui or a1111 (got "${kind}")`,
      });
      return { value: { kind: 'procedural' }, issues };
  }
}

/** The ImageProvider for validated settings; undefined for procedural (the pipeline's default). */
export function createImageProvider(s: ImageProviderSettings): ImageProvider | undefined {
  switch (s.kind) {
    case 'procedural':
      return undefined;
    case 'openai':
      return createOpenAIImageProvider({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        model: s.model,
        timeoutMs: s.timeoutMs,
        ...(s.quality ? { quality: s.quality } : {}),
      });
    case 'comfyui':
      return createComfyUIProvider({
        baseUrl: s.baseUrl,
        // the pipeline imports nothing Node-only; Node 20 has no global WebSocket, ws is ours
        WebSocket,
        timeoutMs: s.timeoutMs,
        ...(s.workflow ? { workflow: s.workflow } : {}),
        ...(s.checkpoint ? { checkpoint: s.checkpoint } : {}),
        ...(s.steps !== undefined ? { steps: s.steps } : {}),
        ...(s.maxEdge !== undefined ? { maxEdge: s.maxEdge } : {}),
      });
    case 'a1111':
      return createA1111Provider({
        baseUrl: s.baseUrl,
        timeoutMs: s.timeoutMs,
        ...(s.steps !== undefined ? { steps: s.steps } : {}),
        ...(s.samplerName ? { samplerName: s.samplerName } : {}),
      });
  }
}
