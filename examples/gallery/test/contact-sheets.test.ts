import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SHEET_COLOUR_SUBJECTS,
  SHEET_COLOURS,
  SHEET_SCENES,
  SHEET_SUBJECTS,
  writeContactSheets,
} from '../src/contact-sheets.js';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('contact sheets', () => {
  it('draws ≥ 60 subjects × 4 directions and ≥ 12 scenes, each read as its own subject or scene', async () => {
    expect(SHEET_SUBJECTS.length).toBeGreaterThanOrEqual(60);
    expect(SHEET_SCENES.length).toBeGreaterThanOrEqual(12);
    dir = await mkdtemp(join(tmpdir(), 'assetloom-sheets-'));
    const [subjects, scenes, colours] = await writeContactSheets(dir);
    for (const sheet of [subjects!, scenes!, colours!]) {
      const png = decodePng(new Uint8Array(await readFile(sheet.path)));
      expect(png.ok).toBe(true);
      if (png.ok) expect([png.image.width, png.image.height]).toEqual([sheet.width, sheet.height]);
    }
    // 16 columns of 64 px × 2 with 2 px gaps: 4 subjects per row, 4 directions each
    expect(subjects!.width).toBe(16 * 130 + 2);
    expect(subjects!.height).toBe(Math.ceil(SHEET_SUBJECTS.length / 4) * 130 + 2);
    for (const cell of subjects!.cells) expect(cell.interpretation?.kind, cell.prompt).toBeDefined();
    const sceneNames = new Set(scenes!.cells.map((c) => c.interpretation?.scene));
    expect(sceneNames.size).toBeGreaterThanOrEqual(12);
    // every colour × subject cell was read as that colour
    expect(colours!.cells).toHaveLength(SHEET_COLOURS.length * SHEET_COLOUR_SUBJECTS.length);
    for (const cell of colours!.cells) {
      const word = cell.prompt.split(' ')[1];
      expect(cell.interpretation?.colors[0]?.word, cell.prompt).toBe(word);
    }
  }, 60_000);
});
