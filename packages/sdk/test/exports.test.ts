import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

// The package as bundlers resolve it (issue #32): a browser build (Vite, webpack, esbuild with
// platform browser) takes the `browser` condition, whose file must not import `ws` — Vite's dev server
// failed with `Failed to resolve import "ws"` on the one build there was. The ecosystem matrix runs
// the packed tarball under `vite` dev in Chromium; this checks the built files directly.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const root = (manifest.exports['.'] ?? {}) as Record<string, Record<string, unknown>>;
const fileOf = (target: unknown): string => {
  if (typeof target === 'string') return target;
  const record = target as Record<string, unknown>;
  return fileOf(record.default ?? record.import);
};
const importsOf = (code: string) =>
  [
    ...code.matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)?|\brequire\s*\(\s*)["']([^"']+)["']/g,
    ),
  ].map((m) => m[1]);

beforeAll(() => {
  const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs', '@assetloom/sdk'], {
    cwd: join(packageDir, '..', '..'),
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`ensure-built failed:\n${built.stderr}`);
}, 300_000);

describe('conditional exports', () => {
  test('browser comes first and names its own ESM file; node keeps import and require', () => {
    expect(Object.keys(root)[0]).toBe('browser');
    expect(fileOf(root.browser)).toBe('./dist/browser.js');
    expect(fileOf((root.node as Record<string, unknown>).import)).toBe('./dist/index.js');
    expect(fileOf((root.node as Record<string, unknown>).require)).toBe('./dist/index.cjs');
  });

  test('the browser file imports no `ws` (and no standardwebhooks: verifyWebhook is its own file)', () => {
    const browser = readFileSync(join(packageDir, 'dist', 'browser.js'), 'utf8');
    const imports = importsOf(browser);
    expect(imports).not.toContain('ws');
    expect(imports).not.toContain('standardwebhooks');
    expect(imports).toContain('./webhooks.js');
    expect(importsOf(readFileSync(join(packageDir, 'dist', 'webhooks.js'), 'utf8'))).toContain(
      'standardwebhooks',
    );
  });

  test('the node builds still load `ws` on first use (Node 20 has no global WebSocket)', () => {
    expect(importsOf(readFileSync(join(packageDir, 'dist', 'index.js'), 'utf8'))).toContain('ws');
    expect(importsOf(readFileSync(join(packageDir, 'dist', 'index.cjs'), 'utf8'))).toContain('ws');
  });
});
