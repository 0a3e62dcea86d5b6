import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkAndGrade, renderReports } from '../src/app.js';

const data = new URL('../sets/', import.meta.url);
const read = (f: string) => readFileSync(new URL(f, data), 'utf8');
const attempt = JSON.parse(
  readFileSync(new URL('../responses/attempt.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>>;

describe('example: question-set validator and grader embedded in an app', () => {
  it('grades a code_reading set sub-question by sub-question', () => {
    const report = checkAndGrade('closures.json', read('closures.json'), attempt['closures.json']);
    expect(report.valid).toBe(true);
    expect(report.grades?.[0]?.subGrades?.map((g) => g.status)).toEqual([
      'correct',
      'correct',
      'correct',
      'partial',
    ]);
    expect(report.score).toBe(5);
    expect(report.maxScore).toBe(6);
  });

  it('applies the fill_blank answer rules any, all and ordered', () => {
    const report = checkAndGrade('networking.json', read('networking.json'), attempt['networking.json']);
    expect(report.grades?.map((g) => [g.id, g.score, g.maxScore])).toEqual([
      ['fb-001', 1, 1],
      ['fb-002', 2, 3],
      ['fb-003', 1, 3],
    ]);
  });

  it('keeps unanswered apart and warns about responses to questions the set does not have', () => {
    const report = checkAndGrade('networking.json', read('networking.json'), attempt['networking.json']);
    expect(report.unknown?.map((u) => [u.questionId, u.severity])).toEqual([['fb-004', 'warning']]);
    expect([report.score, report.maxScore]).toEqual([4, 7]);
    const partial = checkAndGrade('networking.json', read('networking.json'), {
      'fb-001': 'TCP',
      'fb-002': [],
    });
    expect(partial.unanswered).toEqual(['fb-002', 'fb-003']);
    expect(partial.grades?.map((g) => g.status)).toEqual(['correct', 'unanswered', 'unanswered']);
    expect(renderReports([partial])).toContain('✓ networking.json: valid, score 1/7, 2 unanswered');
  });

  it('reports schema and strict-lint problems with line:column', () => {
    const report = checkAndGrade('broken.json', read('broken.json'), undefined);
    expect(report.valid).toBe(false);
    expect(report.issues.map((i) => [i.line, i.column, i.rule])).toEqual([
      [9, 7, 'question.difficulty/maximum'],
      [14, 28, 'lint/answer-in-options'],
      [17, 7, 'lint/unique-id'],
      [24, 7, 'question.answer/type'],
    ]);
    expect(renderReports([report])).toContain(
      'broken.json:24:7 questions[1] (mc-001): answer must be an array',
    );
  });

  it('runs as one command and prints the report', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd,
    });
    expect(stdout).toContain('✓ closures.json: valid, score 5/6');
    expect(stdout).toContain('✗ broken.json: 4 problem(s)');
    expect(stdout).toContain('Total over 2 valid set(s): 9/13');
    expect(stdout).toContain(
      '! [assetloom/question-set] the response for "fb-004" was not graded: the set has no question with that id',
    );
  }, 30_000);
});
