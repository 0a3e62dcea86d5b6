/**
 * Schemathesis ends its sections with pytest-style banners (`==== No issues found in 3.70s ====`,
 * `==== 2 warnings in 50.64s ====`). A CI log reader that knows pytest takes such a line for a test
 * run that closed on no test at all, although Schemathesis just ran thousands of cases. The relay
 * prints every line as it comes and only restates the banners as `[schemathesis <name>] <text>`;
 * the counts Schemathesis prints above them are untouched.
 */
export function restateBanner(line, name) {
  const banner = /^=+ (.+?) =+$/.exec(line);
  return banner === null ? line : `[schemathesis ${name}] ${banner[1]}`;
}
