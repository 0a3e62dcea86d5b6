/**
 * How usernames (asset API) and e-mails (asset API and review helper) are read, checked and compared
 * (issue #29; docs/decisions/0027-usernames-and-emails.md):
 *
 * - Stored and matched in Unicode NFC, so `café` typed as NFD and as NFC is one name.
 * - Refused (400): control characters (Cc), format characters (Cf: zero-width spaces and joiners,
 *   the bidi embeddings, overrides and isolates, BOM), surrogates, private-use and unassigned code
 *   points, line and paragraph separators, any white space but U+0020, and a space at either end.
 * - Unique case-insensitively and width-insensitively: the uniqueness key is NFKC, case-folded
 *   (upper then lower case, so `ß` and `SS` meet), NFKC again. `ALICE` cannot register beside
 *   `alice`, and `ａｌｉｃｅ` (full width) cannot either. The name keeps the case it was registered
 *   with; a login finds the exact name first, else the one name with the same key.
 */

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

/**
 * The uniqueness key of a username: NFKC, case-folded (upper then lower case), NFKC again. Two names
 * with one key cannot both be registered.
 */
export function usernameKeyOf(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * The key given to a user stored before usernames had keys whose name collides with an earlier
 * user's key: U+FFFF (a noncharacter no valid username holds) and the id, so it never meets a key of
 * `usernameKeyOf` and the user is found by the exact name only.
 */
export function legacyUsernameKey(id: number): string {
  return `\uFFFF${id}`;
}
