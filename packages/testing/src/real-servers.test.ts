import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestingError } from './errors.js';
import { findRealServer, requireRealServer } from './real-servers.js';
import { messageShapes, wireShape } from './wire.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function fakeRoot(parts: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'assetloom-root-'));
  roots.push(root);
  for (const [path, text] of Object.entries(parts)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('findRealServer / requireRealServer', () => {
  it('finds what the install script left in .tools/', () => {
    const root = fakeRoot({
      '.tools/comfyui/installed.json': JSON.stringify({ comfyui: '0.30.0', checkpoint: 'ck.safetensors' }),
      '.tools/comfyui/venv/bin/python': '',
      '.tools/comfyui/src/main.py': '',
      '.tools/comfyui/src/models/checkpoints/ck.safetensors': '',
      '.tools/llama/installed.json': JSON.stringify({ model: 'm.gguf' }),
      '.tools/llama/venv/bin/python': '',
      '.tools/llama/models/m.gguf': '',
      'scripts/real-servers/llama_server.py': '',
    });
    const env = { ASSETLOOM_ROOT: root };
    expect(findRealServer('comfyui', env)).toMatchObject({
      kind: 'comfyui',
      python: join(root, '.tools/comfyui/venv/bin/python'),
      entry: join(root, '.tools/comfyui/src/main.py'),
      model: 'ck.safetensors',
      versions: { comfyui: '0.30.0' },
    });
    expect(findRealServer('llama', env)).toMatchObject({
      entry: join(root, 'scripts/real-servers/llama_server.py'),
      model: join(root, '.tools/llama/models/m.gguf'),
    });
  });

  it.each([
    [
      'nothing installed',
      {},
      /comfyui is not installed .*run "bash scripts\/install-real-servers\.sh comfyui"/,
    ],
    [
      'the checkpoint gone',
      {
        '.tools/comfyui/installed.json': JSON.stringify({ checkpoint: 'ck.safetensors' }),
        '.tools/comfyui/venv/bin/python': '',
        '.tools/comfyui/src/main.py': '',
      },
      /comfyui's model .*ck\.safetensors is missing/,
    ],
  ])('%s: missing, with the command that installs it', (_name, parts, reason) => {
    const env = { ASSETLOOM_ROOT: fakeRoot(parts) };
    const found = findRealServer('comfyui', env);
    expect('missing' in found && found.reason).toMatch(reason);
  });

  it('in CI a missing server throws; elsewhere it is null and a loud warning', () => {
    const root = fakeRoot({});
    expect(() => requireRealServer('comfyui', 'suite', { ASSETLOOM_ROOT: root, CI: 'true' })).toThrow(
      TestingError,
    );
    expect(() => requireRealServer('comfyui', 'suite', { ASSETLOOM_ROOT: root, CI: 'true' })).toThrow(
      /CI must run "suite" against the real comfyui server/,
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(requireRealServer('llama', 'suite', { ASSETLOOM_ROOT: root, CI: 'false' })).toBeNull();
    expect(warn.mock.calls[0]?.[0]).toMatch(/SKIPPING "suite": llama is not installed/);
  });
});

describe('wireShape', () => {
  it.each([
    [
      'scalars by type',
      { a: 1, b: 'x', c: null, d: true },
      { a: 'number', b: 'string', c: 'null', d: 'boolean' },
    ],
    ['keys sorted, values ignored', { z: 1, a: 'q' }, { a: 'string', z: 'number' }],
    ['arrays by their distinct item shapes', [1, 2, 'x'], ['number', 'string']],
    [
      'nested',
      { images: [{ filename: 'a.png', type: 'output' }] },
      { images: [{ filename: 'string', type: 'string' }] },
    ],
  ] as const)('%s', (_name, given, want) => {
    expect(wireShape(given)).toEqual(want);
  });

  it('messageShapes: each type once per shape, runs of a type as one step of the order', () => {
    const shapes = messageShapes([
      { type: 'progress', data: { value: 1, max: 2 } },
      { binary: 10 },
      { type: 'progress', data: { value: 2, max: 2 } },
      { type: 'executed', data: { node: '9' } },
    ]);
    expect(shapes.order).toEqual(['progress', '<binary preview>', 'progress', 'executed']);
    expect(shapes.shapes).toEqual({
      progress: [{ max: 'number', value: 'number' }],
      executed: [{ node: 'string' }],
    });
  });

  it("messageShapes: progress_state's nodes are their entries' shapes, not which ids ran (ComfyUI's cache decides)", () => {
    const node = (id: string) => ({ node_id: id, state: 'running', value: 0, max: 1 });
    const allRan = messageShapes([
      {
        type: 'progress_state',
        data: { prompt_id: 'p', nodes: { '3': node('3'), '6': node('6'), '7': node('7') } },
      },
    ]);
    const encodersCached = messageShapes([
      { type: 'progress_state', data: { prompt_id: 'q', nodes: { '3': node('3') } } },
    ]);
    expect(encodersCached.shapes).toEqual(allRan.shapes);
    // a changed entry is still a changed format
    const changed = messageShapes([
      { type: 'progress_state', data: { prompt_id: 'q', nodes: { '3': { ...node('3'), value: '0' } } } },
    ]);
    expect(changed.shapes).not.toEqual(allRan.shapes);
  });
});
