import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IMAGE_PROVIDERS } from '@assetloom/generator';
import type { ImageProvider } from '@assetloom/pipeline';
import { createImageProvider as fromTable, type ImageProviderSettings } from '@assetloom/pipeline/providers';
import { WebSocket } from 'ws';
import { type IntSettingName, intSetting } from './settings.js';

/** IMAGE_PROVIDER and its variables (see the README, "Run with a real image model"). */
export type { ImageProviderSettings };

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
        message: `must be ${Object.keys(IMAGE_PROVIDERS)
          .join(', ')
          .replace(/, (?=[^,]*$)/, ' or ')} (got "${kind}")`,
      });
      return { value: { kind: 'procedural' }, issues };
  }
}

/**
 * The ImageProvider the settings choose, from the provider table (@assetloom/generator's
 * IMAGE_PROVIDERS: the built-in generator and the pipeline's model providers). The server only
 * chooses by setting; the table says how each provider is built.
 */
export function createImageProvider(s: ImageProviderSettings): ImageProvider {
  // the pipeline imports nothing Node-only; Node 20 has no global WebSocket, ws is ours
  return fromTable(IMAGE_PROVIDERS, s, { WebSocket });
}
