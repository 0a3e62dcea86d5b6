/**
 * WordNet's regular noun detachment rules (morphy): the candidate singulars of an English word,
 * the word itself first. Irregular plurals come from the generated PLURALS table.
 */
const RULES: ReadonlyArray<readonly [string, string]> = [
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
  ['ves', 'f'],
  ['ves', 'fe'],
  ['s', ''],
];

export function regularSingulars(word: string): string[] {
  const out = [word];
  for (const [suffix, replacement] of RULES) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      out.push(word.slice(0, word.length - suffix.length) + replacement);
    }
  }
  return out;
}
