import { type LlamaWireFixture, readFixture, wireShape } from '@assetloom/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { optimizePrompt, templatePrompt } from '../src/index.js';
import { buildMetaPrompt, DEFAULT_LLM_MAX_TOKENS, normalizeSections } from '../src/prompt.js';
import { type FakeServer, json, startFakeServer } from './helpers.js';

// The fake answers with the replies recorded from llama.cpp's real server (test/real-servers/llm.test.ts
// records them), only the assistant's text replaced.
const recorded = readFixture<LlamaWireFixture>('llama-wire.json');
function chatReply(content: string, finishReason = 'stop'): Record<string, unknown> {
  const body = structuredClone(recorded.reply.body) as {
    choices: Array<{ message: { content: string }; finish_reason: string }>;
  };
  body.choices[0]!.message.content = content;
  body.choices[0]!.finish_reason = finishReason;
  return body;
}

const input = {
  tags: ['pixel art', 'dark fantasy'],
  assetType: 'sprite' as const,
  prompt: 'a skeleton archer',
  userNote: 'bright eyes',
};
const GOOD =
  '**【主题】** 骷髅弓箭手, 手持长弓\n\n### 【风格】: 像素风, 暗黑奇幻配色\n【技术】64×64, 透明背景';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const llm = (url: string, over: Record<string, unknown> = {}) => ({
  baseUrl: `${url}/v1`,
  apiKey: 'sk-test',
  model: 'test-model',
  timeoutMs: 2000,
  retries: 0,
  ...over,
});

describe('optimizePrompt over a local OpenAI-compatible fake', () => {
  it('uses a good reply, normalised to the three sections', async () => {
    server = await startFakeServer((_req, _body, res) => json(res, 200, chatReply(GOOD)));
    const out = await optimizePrompt(input, { llm: llm(server.url) });
    expect(out.source).toBe('llm');
    expect(out.rawText).toBe(GOOD);
    expect(out.prompt).toBe(
      '【主题】骷髅弓箭手, 手持长弓\n【风格】像素风, 暗黑奇幻配色\n【技术】64×64, 透明背景',
    );
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    const body = JSON.parse(req.body);
    expect(body.model).toBe('test-model');
    // without max_tokens llama.cpp's server writes until its context is full (80 s for SmolLM2)
    expect(body.max_tokens).toBe(DEFAULT_LLM_MAX_TOKENS);
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[1].content).toContain('a skeleton archer');
    expect(body.messages[1].content).toContain('dark fantasy');
    expect(body.messages[1].content).toContain('bright eyes');
  });

  it.each([
    [
      'malformed reply',
      (res: Parameters<typeof json>[0]) => json(res, 200, chatReply('Sure! Here is a prompt: skeleton')),
      /sections$/,
    ],
    [
      'reply cut at max_tokens',
      (res: Parameters<typeof json>[0]) =>
        json(res, 200, chatReply('【主题】骷髅弓箭手 【风格】像素', 'length')),
      /lacks the 【主题】【风格】【技术】 sections \(it was cut off at max_tokens\)/,
    ],
    ['non-JSON reply', (res: Parameters<typeof json>[0]) => res.end('<html>oops</html>'), /not JSON/],
    ['HTTP 500', (res: Parameters<typeof json>[0]) => json(res, 500, { error: 'boom' }), /HTTP 500/],
    [
      'HTTP 401',
      (res: Parameters<typeof json>[0]) =>
        json(res, recorded.unauthorized.status, recorded.unauthorized.body),
      /HTTP 401/,
    ],
    [
      'HTTP 400',
      (res: Parameters<typeof json>[0]) => json(res, recorded.badRequest.status, recorded.badRequest.body),
      /HTTP 400: .*Expected 'messages' to be an array/,
    ],
  ])('falls back to the template on a %s', async (_name, answer, reason) => {
    server = await startFakeServer((_req, _body, res) => answer(res));
    const out = await optimizePrompt(input, { llm: llm(server.url) });
    expect(out.source).toBe('template');
    expect(out.prompt).toBe(templatePrompt(input));
    expect(out.fallbackReason).toMatch(reason);
  });

  it('falls back on a timeout', async () => {
    server = await startFakeServer(() => {
      // never answers
    });
    const out = await optimizePrompt(input, { llm: llm(server.url, { timeoutMs: 150 }) });
    expect(out.source).toBe('template');
    expect(out.fallbackReason).toMatch(/timed out/);
  });

  it('retries a 500 and then uses the good reply', async () => {
    server = await startFakeServer((_req, _body, res, i) =>
      // llama.cpp answers 503 { error: { message: 'Loading model' } } until its model is loaded
      i === 0
        ? json(res, 503, { error: { message: 'Loading model', type: 'unavailable_error', code: 503 } })
        : json(res, 200, chatReply(GOOD)),
    );
    const out = await optimizePrompt(input, { llm: llm(server.url, { retries: 2 }) });
    expect(out.source).toBe('llm');
    expect(server.requests).toHaveLength(2);
  });

  it('falls back when the server is unreachable', async () => {
    server = await startFakeServer(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const out = await optimizePrompt(input, { llm: llm(url) });
    expect(out.source).toBe('template');
  });

  it('uses the template without an API key and says so', async () => {
    const out = await optimizePrompt(input, {
      llm: { baseUrl: 'http://127.0.0.1:9', apiKey: '', model: 'm' },
    });
    expect(out).toMatchObject({ source: 'template', fallbackReason: 'no API key configured' });
    const none = await optimizePrompt(input);
    expect(none.source).toBe('template');
    expect(none.fallbackReason).toBeUndefined();
  });

  it('rethrows an abort instead of falling back', async () => {
    server = await startFakeServer(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(optimizePrompt(input, { llm: llm(server.url), signal: controller.signal })).rejects.toThrow(
      'stop',
    );
  });
});

describe('the fake LLM replays the real wire format', () => {
  it('its replies have the shape recorded from llama.cpp', () => {
    expect(wireShape(chatReply(GOOD))).toEqual(wireShape(recorded.reply.body));
    expect(recorded.reply.status).toBe(200);
    expect(recorded.unauthorized.status).toBe(401);
  });

  it('maxTokens is sent as max_tokens', async () => {
    server = await startFakeServer((_req, _body, res) => json(res, 200, chatReply(GOOD)));
    await optimizePrompt(input, { llm: llm(server.url, { maxTokens: 64 }) });
    expect(JSON.parse(server.requests[0]!.body).max_tokens).toBe(64);
  });
});

describe('template and normalisation', () => {
  it('builds all three sections from the inputs', () => {
    const t = templatePrompt({ ...input, style: { palette: 'pico8' }, params: { resolution: 32 } });
    const lines = t.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^【主题】.*a skeleton archer.*bright eyes/);
    expect(lines[1]).toMatch(/^【风格】pixel art, dark fantasy; palette: pico8/);
    expect(lines[2]).toMatch(/^【技术】32×32/);
  });

  it("writes the sections' text in English when asked, the spec's markers unchanged", () => {
    const t = templatePrompt({
      tags: [],
      assetType: 'animation',
      prompt: 'a red fox',
      params: { resolution: 48, frames: { directions: 4, framesPerDirection: 6 } },
      language: 'en',
    });
    expect(t).toBe(
      [
        '【主题】2D game frame animation (animation): a red fox',
        '【风格】pixel style, bright colours',
        '【技术】48×48 px, transparent background, subject centred, clean outline, one light source, 4 directions × 6 frames each, a smooth looping motion, the same proportions in every frame, sprite sheet (rows = directions, columns = frames), PNG',
      ].join('\n'),
    );
    // no Chinese in the text, only in the markers
    expect(t.replace(/【(主题|风格|技术)】/g, '')).not.toMatch(/[\u4e00-\u9fff]/);
    for (const assetType of ['sprite', 'background', 'ui', 'tileset', 'level'] as const) {
      const text = templatePrompt({ tags: ['pixel'], assetType, prompt: 'x', language: 'en' });
      expect(text.replace(/【(主题|风格|技术)】/g, ''), assetType).not.toMatch(/[\u4e00-\u9fff]/);
    }
    // the LLM is asked to write in English, keeping the markers
    expect(buildMetaPrompt({ tags: [], assetType: 'sprite', language: 'en' })[0]!.content).toContain(
      'write every section body in English',
    );
    expect(buildMetaPrompt({ tags: [], assetType: 'sprite' })[0]!.content).not.toContain('English');
  });

  it('handles hostile input', () => {
    expect(templatePrompt({ tags: null as never, assetType: 'ui' })).toMatch(/^【主题】/);
    expect(normalizeSections(42 as never)).toBeNull();
    expect(normalizeSections('【技术】a【风格】b【主题】c')).toBeNull();
    expect(normalizeSections('【主题】\n【风格】b【技术】c')).toBeNull();
    expect(buildMetaPrompt({ tags: [], assetType: 'background' })[1]!.content).toContain('background');
  });
});
