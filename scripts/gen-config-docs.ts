/**
 * Writes the settings tables of docs/deployment.md (§ 3) from the definitions every setting is read
 * with (reference-server/src/settings.ts). Each table sits between
 * `<!-- settings: <section> (generated …) -->` and `<!-- /settings -->`; the prose around them is
 * the document's own.
 *
 *   tsx scripts/gen-config-docs.ts           rewrite the tables
 *   tsx scripts/gen-config-docs.ts --check   exit 1 when the document differs (`pnpm run check:gen`, part of `pnpm test`)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DOC_SECTIONS, SETTINGS, type SettingDefinition } from '../reference-server/src/settings.ts';

const DOC = fileURLToPath(new URL('../docs/deployment.md', import.meta.url));
const MARKER = /<!-- settings: (.+?) \(generated from [^)]*\) -->\n[\s\S]*?<!-- \/settings -->/g;

/** The table of one section: one row per setting, or per group of settings that share one. */
function tableOf(section: string): string {
  const all: readonly SettingDefinition[] = SETTINGS;
  const lines = ['| variable | default | |', '| --- | --- | --- |'];
  for (const head of all) {
    if (head.doc?.section !== section) continue;
    const names = [head, ...all.filter((s) => s.row === head.name)].map((s) => `\`${s.name}\``);
    const description = head.description ?? '';
    lines.push(
      `| ${head.doc.label ?? names.join(', ')} | ${head.doc.shown} |${description ? ` ${description} ` : ' '}|`,
    );
  }
  return lines.join('\n');
}

export function generate(text: string): string {
  const found = new Set<string>();
  const out = text.replace(MARKER, (whole, section: string) => {
    if (!(DOC_SECTIONS as readonly string[]).includes(section)) {
      throw new Error(`docs/deployment.md names a settings section the definitions lack: ${section}`);
    }
    found.add(section);
    const opening = whole.slice(0, whole.indexOf('\n') + 1);
    return `${opening}${tableOf(section)}\n<!-- /settings -->`;
  });
  const missing = DOC_SECTIONS.filter((s) => !found.has(s));
  if (missing.length > 0) {
    throw new Error(`docs/deployment.md has no table for the settings sections: ${missing.join(', ')}`);
  }
  return out;
}

const current = readFileSync(DOC, 'utf8');
const next = generate(current);
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error(
      '[check:gen] the settings tables of docs/deployment.md differ from reference-server/src/settings.ts: run `pnpm run gen` (and edit descriptions in settings.ts, not in the document)',
    );
    process.exit(1);
  }
  console.log(`[check:gen] docs/deployment.md lists all ${SETTINGS.length} settings as defined`);
} else if (next !== current) {
  writeFileSync(DOC, next);
  console.log('[gen] docs/deployment.md updated');
}
