/**
 * How usernames (asset API) and e-mails (asset API and review helper) are read, checked and compared
 * (issue #29; docs/decisions/0027-usernames-and-emails.md):
 *
 * - Stored and matched in Unicode NFC, so `café` typed as NFD and as NFC is one name.
 * - Refused (400): control characters (Cc), format characters (Cf: zero-width spaces and joiners,
 *   the bidi embeddings, overrides and isolates, BOM), surrogates, private-use and unassigned code
 *   points, line and paragraph separators, any white space but U+0020, and a space at either end.
 * - Unique case-insensitively, width-insensitively and across look-alike scripts: the uniqueness key
 *   is the name case-folded (NFKC, upper then lower case, NFKC: `ß` and `SS` meet), then its
 *   confusables skeleton (Unicode TR 39: every character replaced by its prototype, so Cyrillic `а`
 *   is Latin `a`, `0` is `O`), case-folded again. `ALICE`, `ａｌｉｃｅ` (full width) and `аlice`
 *   (Cyrillic а) cannot register beside `alice`. The name keeps the case it was registered with; a
 *   login finds the exact name first, else the one name with the same key.
 */
import { CONFUSABLE_PROTOTYPES } from './generated/confusables.js';

/** Spec 000: a username has 3-32 characters (counted as code points, after NFC). */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;

/** Characters no username or e-mail may hold (see the module comment). */
const REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\s/u;

/** The NFC form of a name or e-mail (what is stored and looked up). */
export function normalizeIdentifier(text: string): string {
  return text.normalize('NFC');
}

/** Why a (normalised) text may not be a username or e-mail, or undefined when it may. */
export function identifierCharacterProblem(text: string): string | undefined {
  const bad = REFUSED.exec(text);
  if (bad !== null) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return `contains U+${code} (a control, format, bidi, separator or unassigned character)`;
  }
  if (text.startsWith(' ') || text.endsWith(' ')) return 'starts or ends with a space';
  return undefined;
}

/** Why a username (already NFC) is not acceptable, or undefined when it is. */
export function usernameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < USERNAME_MIN_LENGTH || length > USERNAME_MAX_LENGTH) {
    return `must have ${USERNAME_MIN_LENGTH}-${USERNAME_MAX_LENGTH} characters (has ${length})`;
  }
  return identifierCharacterProblem(name);
}

/** NFKC, upper then lower case, NFKC: case- and width-insensitive. */
function caseFold(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

let prototypes: Map<number, string> | undefined;

/** The prototype of each confusable code point (read once from the generated table). */
function prototypeTable(): Map<number, string> {
  if (prototypes !== undefined) return prototypes;
  const table = new Map<number, string>();
  for (const entry of CONFUSABLE_PROTOTYPES.split(',')) {
    const [from = '', to = ''] = entry.split(':');
    table.set(
      Number.parseInt(from, 36),
      String.fromCodePoint(...to.split(' ').map((c) => Number.parseInt(c, 36))),
    );
  }
  prototypes = table;
  return table;
}

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The confusables skeleton of Unicode TR 39 (§4): NFD, default-ignorable code points removed, each
 * code point replaced by its prototype (confusables.txt, generated into `generated/confusables.ts`),
 * NFD again. Two strings that look alike share a skeleton; a skeleton is for comparing, never shown.
 */
export function confusablesSkeleton(text: string): string {
  const table = prototypeTable();
  let out = '';
  for (const char of text.normalize('NFD').replace(IGNORABLE, '')) {
    out += table.get(char.codePointAt(0) as number) ?? char;
  }
  return out.normalize('NFD');
}

/**
 * The uniqueness key of a username: case-folded, its confusables skeleton, case-folded again (the
 * skeleton's prototypes have both cases: `0` → `O`). Two names with one key cannot both be
 * registered (decisions 0027, 0043).
 */
export function usernameKeyOf(name: string): string {
  return caseFold(confusablesSkeleton(caseFold(name)));
}

/**
 * The key given to a user stored before usernames had keys whose name collides with an earlier
 * user's key: U+FFFF (a noncharacter no valid username holds) and the id, so it never meets a key of
 * `usernameKeyOf` and the user is found by the exact name only.
 */
export function legacyUsernameKey(id: number): string {
  return `\uFFFF${id}`;
}
