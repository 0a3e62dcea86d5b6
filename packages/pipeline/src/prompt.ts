import { ASSET_TYPE_MODULES, assetTypeModule } from './asset-types/index.js';
import type { PromptLanguage } from './asset-types/types.js';
import { errorMessage, isAbortError } from './errors.js';
import { canvasSize } from './layout.js';

export type { PromptLanguage };

import { SECTION_MARKERS, TYPE_NAMES, TYPE_NAMES_EN } from './prompt-sections.js';
import type { AssetType, GenerationParams, StyleMap } from './types/index.js';

export interface LlmConfig {
  /** OpenAI-compatible base URL including the version, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string | null;
  model: string;
  /** Per attempt; default 15000. */
  timeoutMs?: number;
  /** Extra attempts after a network error, timeout, 429 or 5xx; default 1. */
  retries?: number;
  /** Injected fetch (tests, proxies); defaults to globalThis.fetch. */
  fetch?: typeof fetch;
  temperature?: number;
  /**
   * Longest reply asked for (`max_tokens`); default 512. Without it a local server such as
   * llama.cpp's writes until its context is full (80 s on a 2-core machine for SmolLM2-135M), so
   * every call ran into the time limit.
   */
  maxTokens?: number;
}

/** The `max_tokens` sent when {@link LlmConfig.maxTokens} is not set: room for three short sections. */
export const DEFAULT_LLM_MAX_TOKENS = 512;

export interface PromptOptimizerOptions {
  /** LLM settings; absent, or without an API key, the template builds the prompt. */
  llm?: LlmConfig | null;
  signal?: AbortSignal;
}

export interface OptimizePromptInput {
  tags: string[];
  assetType: AssetType;
  prompt?: string;
  userNote?: string;
  style?: StyleMap;
  /** Optional generation parameters for the technical section. */
  params?: Partial<GenerationParams>;
  /**
   * The language of the sections' bodies (the caller's `Accept-Language`): Chinese by default, as
   * spec 000's examples; the markers 【主题】【风格】【技术】 stay as the spec fixes them.
   */
  language?: PromptLanguage;
}

export interface OptimizedPrompt {
  /** Three sections: 【主题】…\n【风格】…\n【技术】… */
  prompt: string;
  /** The LLM's reply verbatim, or the template output. */
  rawText: string;
  source: 'llm' | 'template';
  /** Why the LLM path was not used (no key, HTTP error, timeout, malformed reply). */
  fallbackReason?: string;
}

const clean = (s: string | undefined, max = 2000) =>
  typeof s === 'string' ? s.replace(/\s+/g, ' ').trim().slice(0, max) : '';

function styleLine(style: StyleMap | undefined): string {
  if (!style) return '';
  return Object.entries(style)
    .filter(([, v]) => typeof v === 'string' && v.trim())
    .map(([k, v]) => `${clean(k, 64)}: ${clean(v, 256)}`)
    .join('; ');
}

const languageOf = (input: OptimizePromptInput): PromptLanguage => (input.language === 'en' ? 'en' : 'zh');

function technical(input: OptimizePromptInput): string {
  const p = input.params ?? {};
  const res = p.resolution ?? 64;
  const module = assetTypeModule(input.assetType);
  const language = languageOf(input);
  const px = language === 'en' ? 'px' : '像素';
  // a background's or UI piece's own canvas (params.width × params.height), else the square
  const canvas = canvasSize(input.assetType, { resolution: res, width: p.width, height: p.height });
  const size =
    module?.promptSize?.(p, language) ??
    (canvas ? `${canvas.width}×${canvas.height} ${px}` : `${res}×${res} ${px}`);
  return [size, ...(module ?? ASSET_TYPE_MODULES.ui).promptParts(p, language), 'PNG'].join(', ');
}

/** The deterministic template: the same three sections, built from the inputs alone. */
export function templatePrompt(input: OptimizePromptInput): string {
  const en = languageOf(input) === 'en';
  const tags = (Array.isArray(input.tags) ? input.tags : []).map((t) => clean(String(t), 64)).filter(Boolean);
  const desc = clean(input.prompt) || tags.join(', ') || (en ? 'game asset' : '游戏素材');
  const note = clean(input.userNote, 500);
  const lead = (en ? TYPE_NAMES_EN : TYPE_NAMES)[input.assetType] ?? input.assetType;
  const theme = `${lead}: ${desc}${note ? ` (${note})` : ''}`;
  const styleParts = [tags.join(', '), styleLine(input.style)].filter(Boolean);
  const style = styleParts.join('; ') || (en ? 'pixel style, bright colours' : '像素风格, 明快配色');
  return `${SECTION_MARKERS[0]}${theme}\n${SECTION_MARKERS[1]}${style}\n${SECTION_MARKERS[2]}${technical(input)}`;
}

/** The chat messages sent to the LLM: a role setting plus tags, description, asset type and note. */
export function buildMetaPrompt(
  input: OptimizePromptInput,
): Array<{ role: 'system' | 'user'; content: string }> {
  const system = [
    '你是一名资深 2D 游戏美术总监和 AI 绘图提示词工程师。',
    '根据用户给出的风格标签、描述、素材类型和备注, 写出一段用于图像生成模型的优化提示词。',
    '只输出三个小节, 依次以 【主题】、【风格】、【技术】 开头, 每节一段, 不要输出其他内容。',
    '【主题】写清主体与动作; 【风格】写画风、配色、线条与光照; 【技术】写分辨率、背景透明度、构图与帧布局等技术要求。',
    ...(languageOf(input) === 'en'
      ? [
          '三个小节的标记保持 【主题】、【风格】、【技术】 不变, 但每节的内容用英语写 (write every section body in English).',
        ]
      : []),
  ].join('\n');
  const user = [
    `素材类型: ${TYPE_NAMES[input.assetType] ?? input.assetType}`,
    `风格标签: ${(input.tags ?? []).map((t) => clean(String(t), 64)).join(', ') || '(无)'}`,
    `描述: ${clean(input.prompt) || '(无)'}`,
    `工程风格: ${styleLine(input.style) || '(无)'}`,
    `备注: ${clean(input.userNote, 500) || '(无)'}`,
    `技术参考: ${technical(input)}`,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/**
 * Normalises an LLM reply into the three sections. Accepts markdown decoration (`**【主题】**`,
 * `### 【风格】`), colons after the markers and stray text around them. Returns null when a
 * section is missing or empty.
 */
export function normalizeSections(text: string): string | null {
  if (typeof text !== 'string') return null;
  const positions = SECTION_MARKERS.map((m) => text.indexOf(m));
  if (positions.some((p) => p < 0)) return null;
  if (!(positions[0]! < positions[1]! && positions[1]! < positions[2]!)) return null;
  const sections: string[] = [];
  for (let i = 0; i < 3; i++) {
    const start = positions[i]! + SECTION_MARKERS[i]!.length;
    const end = i < 2 ? positions[i + 1]! : text.length;
    const body = text
      .slice(start, end)
      .replace(/^[\s*#:：\-—]+/, '')
      .replace(/[\s*#]+$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!body) return null;
    sections.push(`${SECTION_MARKERS[i]}${body}`);
  }
  return sections.join('\n');
}

class RetryableError extends Error {}

async function callChat(
  llm: LlmConfig,
  input: OptimizePromptInput,
  signal?: AbortSignal,
): Promise<{ content: string; cutOff: boolean }> {
  const doFetch = llm.fetch ?? globalThis.fetch;
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const attempts = 1 + Math.max(0, Math.min(5, Math.floor(llm.retries ?? 1)));
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    signal?.throwIfAborted();
    if (attempt > 0) await sleep(Math.min(2000, 150 * 2 ** (attempt - 1)), signal);
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => controller.abort(new DOMException('LLM request timed out', 'TimeoutError')),
      Math.max(1, llm.timeoutMs ?? 15000),
    );
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${llm.apiKey}` },
        body: JSON.stringify({
          model: llm.model,
          messages: buildMetaPrompt(input),
          temperature: llm.temperature ?? 0.7,
          max_tokens: Math.max(1, Math.floor(llm.maxTokens ?? DEFAULT_LLM_MAX_TOKENS)),
        }),
        signal: controller.signal,
      });
      const body = await res.text();
      if (res.status === 429 || res.status >= 500) throw new RetryableError(`HTTP ${res.status}`);
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${body.slice(0, 200)}`);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new Error('reply is not JSON');
      }
      const choice = (
        json as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }> }
      )?.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string') throw new Error('reply has no choices[0].message.content');
      return { content, cutOff: choice?.finish_reason === 'length' };
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      lastError = isAbortError(error) ? new RetryableError('timed out') : error;
      if (!(lastError instanceof RetryableError) && !(error instanceof TypeError)) throw lastError;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Optimises a prompt into 【主题】【风格】【技术】. Uses the LLM when configured with an API key;
 * falls back to the template when there is no key, or the LLM fails or answers in the wrong
 * shape. Never rejects except on abort (the signal's reason is rethrown).
 */
export async function optimizePrompt(
  input: OptimizePromptInput,
  options: PromptOptimizerOptions = {},
): Promise<OptimizedPrompt> {
  const safe: OptimizePromptInput = {
    ...input,
    tags: Array.isArray(input?.tags) ? input.tags.filter((t) => typeof t === 'string') : [],
    assetType: input?.assetType,
  };
  const template = (fallbackReason?: string): OptimizedPrompt => {
    const text = templatePrompt(safe);
    return { prompt: text, rawText: text, source: 'template', ...(fallbackReason ? { fallbackReason } : {}) };
  };
  const llm = options.llm;
  if (!llm?.apiKey) return template(llm ? 'no API key configured' : undefined);
  try {
    const { content: raw, cutOff } = await callChat(llm, safe, options.signal);
    const normalized = normalizeSections(raw);
    if (!normalized)
      return template(
        `LLM reply lacks the 【主题】【风格】【技术】 sections${cutOff ? ' (it was cut off at max_tokens)' : ''}`,
      );
    return { prompt: normalized, rawText: raw, source: 'llm' };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    return template(`LLM call failed: ${errorMessage(error)}`);
  }
}
