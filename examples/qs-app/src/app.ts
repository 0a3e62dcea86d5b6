import {
  type Grade,
  gradeQuestionSet,
  type LocatedIssue,
  parseQuestionSet,
  type UnknownResponse,
} from '@assetloom/question-set';

export interface SetReport {
  file: string;
  valid: boolean;
  issues: LocatedIssue[];
  score?: number;
  maxScore?: number;
  grades?: Grade[];
  /** Ids of the questions with no (or an empty) response. */
  unanswered?: string[];
  /** Responses under ids the set does not have: not graded, shown as warnings. */
  unknown?: UnknownResponse[];
}

/** Validates one question set (strict) and, when it is valid, grades the responses to it. */
export function checkAndGrade(
  file: string,
  text: string,
  responses: Record<string, unknown> | undefined,
): SetReport {
  const parsed = parseQuestionSet(text, { strict: true });
  if (!parsed.ok) return { file, valid: false, issues: parsed.errors };
  const result = gradeQuestionSet(parsed.value, responses ?? {});
  return {
    file,
    valid: true,
    issues: [],
    score: result.score,
    maxScore: result.maxScore,
    grades: result.grades,
    unanswered: result.unanswered,
    unknown: result.unknown,
  };
}

function gradeLines(grade: Grade, indent: string): string[] {
  const head = `${indent}${grade.id ?? '?'} ${grade.type ?? ''}: ${grade.score}/${grade.maxScore} ${grade.status} — ${grade.feedback}`;
  return [head, ...(grade.subGrades ?? []).flatMap((g) => gradeLines(g, `${indent}  `))];
}

/** Renders reports as the text the example prints. */
export function renderReports(reports: SetReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (!r.valid) {
      lines.push(`✗ ${r.file}: ${r.issues.length} problem(s)`);
      for (const i of r.issues) lines.push(`    ${r.file}:${i.line}:${i.column} ${i.message} [${i.rule}]`);
      continue;
    }
    const skipped = r.unanswered?.length ? `, ${r.unanswered.length} unanswered` : '';
    lines.push(`✓ ${r.file}: valid, score ${r.score}/${r.maxScore}${skipped}`);
    for (const g of r.grades ?? []) lines.push(...gradeLines(g, '    '));
    for (const u of r.unknown ?? []) lines.push(`    ! ${u.message}`);
  }
  const graded = reports.filter((r) => r.valid);
  const score = graded.reduce((s, r) => s + (r.score ?? 0), 0);
  const max = graded.reduce((s, r) => s + (r.maxScore ?? 0), 0);
  lines.push('', `Total over ${graded.length} valid set(s): ${score}/${max}`);
  return `${lines.join('\n')}\n`;
}
