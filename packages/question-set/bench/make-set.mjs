/** Builds a schema-valid question set of `count` questions cycling through all seven types. */
export function makeQuestionSet(count) {
  const types = ['sc', 'mc', 'tf', 'fb', 'sa', 'cr', 'sn'];
  const questions = [];
  for (let i = 0; i < count; i++) {
    const code = types[i % types.length];
    const id = `${code}-${String(i % 1000).padStart(3, '0')}`;
    const base = {
      id,
      difficulty: (i % 5) + 1,
      tags: ['bench', `t${i % 13}`],
      question: `Question ${i}?`,
      explanation: 'Because.',
    };
    const options = { A: 'first', B: 'second', C: 'third', D: 'fourth' };
    const sub = [
      {
        index: 1,
        type: 'single_choice',
        question: 'Pick one',
        options: { A: 'x', B: 'y' },
        answer: 'A',
        explanation: 'e',
      },
      { index: 2, type: 'true_false', question: 'True?', answer: true, explanation: 'e' },
    ];
    switch (code) {
      case 'sc':
        questions.push({ ...base, type: 'single_choice', options, answer: 'B', source: null, related: [] });
        break;
      case 'mc':
        questions.push({ ...base, type: 'multiple_choice', options, answer: ['A', 'C'] });
        break;
      case 'tf':
        questions.push({ ...base, type: 'true_false', answer: i % 2 === 0 });
        break;
      case 'fb':
        questions.push({ ...base, type: 'fill_blank', answer: ['alpha', 'beta'], answer_rule: 'all' });
        break;
      case 'sa':
        questions.push({
          ...base,
          type: 'short_answer',
          answer: 'A long answer',
          keywords: ['long', 'answer'],
          scoring_rubric: 'r',
        });
        break;
      case 'cr':
        questions.push({
          ...base,
          type: 'code_reading',
          code: 'let x = 1;',
          language: 'javascript',
          sub_questions: sub,
        });
        break;
      default:
        questions.push({ ...base, type: 'scenario', context: 'A scenario', code: null, sub_questions: sub });
    }
  }
  return {
    topic: 'bench',
    type: 'single_choice',
    schema_version: '1.0.0',
    generated: '2025-01-01T00:00:00Z',
    questions,
  };
}
