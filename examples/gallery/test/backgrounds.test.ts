import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BACKGROUND_PROMPTS,
  PARALLAX_PROMPTS,
  UI_SHEET_PROMPTS,
  writeBackgroundSheets,
} from '../src/backgrounds.js';

const dir = mkdtempSync(join(tmpdir(), 'assetloom-gallery-bg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('backgrounds, parallax layers and UI pieces gallery', () => {
  it('writes each sheet as a decodable PNG of its stated size, with every named element drawn', async () => {
    const sheets = await writeBackgroundSheets(dir);
    expect(sheets.map((s) => s.path.slice(dir.length + 1))).toEqual([
      'backgrounds.png',
      ...PARALLAX_PROMPTS.map((_, i) => `parallax-${i}.png`),
      'ui-pieces.png',
    ]);
    for (const sheet of sheets) {
      const png = decodePng(readFileSync(sheet.path));
      expect(png.ok).toBe(true);
      if (png.ok) expect([png.image.width, png.image.height]).toEqual([sheet.width, sheet.height]);
    }
    const rows = sheets[0]!.rows;
    expect(rows).toHaveLength(BACKGROUND_PROMPTS.length);
    for (const row of rows)
      for (const e of row.elements as Array<{ word: string; drawn: boolean }>)
        expect(e.drawn, `${row.prompt}: ${e.word}`).toBe(true);
    // the parallax sets carry the Godot scene and the JSON beside the layers
    for (const [i] of PARALLAX_PROMPTS.entries()) {
      const json = JSON.parse(readFileSync(join(dir, `raw/parallax-${i}/background.parallax.json`), 'utf8'));
      expect(json.layers.length).toBeGreaterThanOrEqual(4);
      expect(readFileSync(join(dir, `raw/parallax-${i}/background.tscn`), 'utf8')).toMatch(
        /type="Parallax2D"/,
      );
    }
    expect(sheets.at(-1)!.rows).toHaveLength(UI_SHEET_PROMPTS.length);
  }, 120_000);
});
