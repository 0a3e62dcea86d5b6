import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type RunningServer, startServer } from '@assetloom/server';
import { unzipSync } from 'fflate';
import type { Download, Page } from 'playwright-core';
import { build } from 'vite';
import { expect } from 'vitest';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

/** Builds the studio (production or `mock` mode) into `outDir`. */
export async function buildStudio(outDir: string, mode: 'production' | 'mock' = 'production'): Promise<void> {
  await build({ root, mode, logLevel: 'error', build: { outDir, emptyOutDir: true } });
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/**
 * Runs axe-core in the page (evaluated over the DevTools protocol, so the studio's CSP stays on)
 * and answers the serious and critical violations as readable lines.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<AxeResult> } }).axe;
    return axe.run(document);
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** Asserts that axe finds nothing serious or critical on the current screen. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe on ${screen}`).toEqual([]);
}

/** Reads a downloaded zip and answers its files by name. */
export async function unzipDownload(download: Download, saveAs: string): Promise<Record<string, Uint8Array>> {
  await download.saveAs(saveAs);
  return unzipSync(new Uint8Array(await readFile(saveAs)));
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The width and height of a PNG (its IHDR), after checking the signature. */
export function pngSize(bytes: Uint8Array): [number, number] {
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

/**
 * Presses Tab until the focused element matches `selector` (at most `limit` presses): the
 * keyboard-only pass reaches controls the way a user without a mouse does.
 */
export async function tabTo(page: Page, selector: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const matches = await page.evaluate((s) => document.activeElement?.matches(s) === true, selector);
    if (matches) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} within ${limit} presses`);
}

/** Collects page errors and console errors, except the HTTP error answers a test provokes on purpose. */
export function watchProblems(page: Page, expected: readonly RegExp[] = []): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    if (expected.some((pattern) => pattern.test(text))) return;
    problems.push(`console: ${text}`);
  });
  return problems;
}

/** A one-page sheet's files (decision 0020): the PNG and every engine file its metadata.atlas names. */
export const SPRITE_FILES = [
  'sprite.aseprite.json',
  'sprite.json',
  'sprite.phaser-anims.json',
  'sprite.phaser.json',
  'sprite.png',
  'sprite.png.meta',
  'sprite.tres',
];

interface TilesetJson {
  kind: string;
  tiles: { id: number; corners: number[]; sides?: number[] }[];
}

/**
 * Checks the studio's painted map (`data-tiles`, row-major) against the rules of the set's own
 * tileset.json: every cell has a tile, and every joint joins the same terrains on both sides — the
 * shared corners (TL, TR, BR, BL order) and, for blob47, the shared side too. Answers the cells.
 */
export async function expectMapFollowsRules(page: Page, set: TilesetJson): Promise<number[]> {
  const map = page.getByTestId('map-canvas');
  const columns = Number(await map.getAttribute('data-columns'));
  const cells = (await map.getAttribute('data-tiles'))!.split(',').map(Number);
  expect(cells.length).toBeGreaterThan(columns);
  expect(cells.every((id) => id >= 0)).toBe(true);
  const tile = (id: number) => set.tiles.find((t) => t.id === id)!;
  for (let i = 0; i < cells.length; i++) {
    const a = tile(cells[i]!);
    const [, tr, br, bl] = a.corners;
    if ((i + 1) % columns !== 0) {
      const b = tile(cells[i + 1]!);
      expect([b.corners[0], b.corners[3]], `cell ${i} → right`).toEqual([tr, br]);
      if (set.kind === 'blob47') expect(b.sides![3], `cell ${i} → right side`).toBe(a.sides![1]);
    }
    if (i + columns < cells.length) {
      const b = tile(cells[i + columns]!);
      expect([b.corners[0], b.corners[1]], `cell ${i} → below`).toEqual([bl, br]);
      if (set.kind === 'blob47') expect(b.sides![0], `cell ${i} → lower side`).toBe(a.sides![2]);
    }
  }
  // Both terrains and their transitions appear: a map of one tile would prove nothing.
  expect(new Set(cells).size).toBeGreaterThan(2);
  return cells;
}

export interface StudioServer {
  server: RunningServer;
  /** The temporary folder holding the studio build and the server's data. */
  work: string;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

/**
 * The built studio on a real reference server (embedded store, filesystem storage, 127.0.0.1, port
 * 0) in a temporary folder; `shots` is created for the screenshots.
 */
export async function startStudioServer(
  prefix: string,
  shots: string,
  options: Parameters<typeof startServer>[1] = {},
): Promise<StudioServer> {
  const work = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(shots, { recursive: true });
  const studioDir = join(work, 'studio');
  await buildStudio(studioDir);
  process.env.STUDIO_DIR = studioDir;
  const loaded = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET: 'studio-test-secret-0123456789-abcdefghijklmnop',
    SCRYPT_COST: '10',
    LOG_LEVEL: 'silent',
    DATA_DIR: join(work, 'data'),
  });
  if (!loaded.ok) throw loaded.error;
  const server = await startServer(loaded.value, options);
  return {
    server,
    work,
    async close() {
      await server.close();
      delete process.env.STUDIO_DIR;
      await rm(work, { recursive: true, force: true });
    },
  };
}
