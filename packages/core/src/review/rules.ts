import type { AssetloomError } from '../errors.js';
import type { FieldProblem } from '../messages.js';
import { identifierCharacterProblem, normalizeIdentifier } from '../usernames.js';
import { reviewErrors } from './messages.js';

/** Spec 001: a password has at least 6 bytes (UTF-8 length). */
export const MIN_PASSWORD_BYTES = 6;
/** openapi/review-auth.yaml: a password has at most 1024 bytes (longer ones are never hashed). */
export const MAX_PASSWORD_BYTES = 1024;
/** openapi/review-auth.yaml: an e-mail has at most 254 characters (after trimming). */
export const MAX_EMAIL_LENGTH = 254;

/** The settings every user receives at registration (spec 001); values are strings. */
export const DEFAULT_SETTINGS: ReadonlyArray<{ readonly key: string; readonly value: string }> = [
  { key: 'llm.endpoint', value: 'https://api.openai.com/v1' },
  { key: 'llm.api_key', value: '' },
  { key: 'llm.model', value: 'gpt-4o-mini' },
  { key: 'review.top_n', value: '20' },
  { key: 'review.concurrency', value: '5' },
  { key: 'cache.max_age_days', value: '7' },
  { key: 'cache.max_size_mb', value: '5000' },
];

export type Result<T, E = AssetloomError> = { ok: true; value: T } | { ok: false; error: E };

/** Login or registration input after the body rules: the e-mail trimmed and lower-cased. */
export interface Credentials {
  email: string;
  password: string;
}

const encoder = new TextEncoder();

/** The UTF-8 length of a string in bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Spec 001: the e-mail is trimmed and lower-cased before anything else; it is also put in Unicode
 * NFC, as asset API usernames are (decision 0027), so one address typed in two forms is one user.
 */
export function normalizeEmail(email: string): string {
  return normalizeIdentifier(email.trim().toLowerCase());
}

/**
 * Spec 001: an e-mail is valid only when it contains both `@` and `.` (and has ≤ 254 characters);
 * control, format (zero-width, bidi), separator and unassigned characters are refused as well.
 */
export function isValidEmail(normalized: string): boolean {
  return (
    normalized.length > 0 &&
    normalized.length <= MAX_EMAIL_LENGTH &&
    normalized.includes('@') &&
    normalized.includes('.') &&
    identifierCharacterProblem(normalized) === undefined
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The body rules shared by login and registration: the body must be a JSON object with a
 * non-empty string `email` (after trimming) and a non-empty string `password` of at most 1024
 * bytes; anything else is 400 邮箱和密码为必填项. The e-mail comes back trimmed and lower-cased.
 */
export function readCredentials(body: unknown): Result<Credentials> {
  if (!isPlainObject(body)) {
    return {
      ok: false,
      error: reviewErrors.required({ reason: 'not an object' }, [{ in: 'body', path: '', rule: 'json' }]),
    };
  }
  const { email, password } = body;
  // Each field's own problem, in the form's order (decision 0037); the message stays spec 001's.
  const fields: FieldProblem[] = [];
  const normalized = typeof email === 'string' ? normalizeEmail(email) : '';
  if (typeof email === 'string' ? normalized.length === 0 : email === undefined || email === null) {
    fields.push({ in: 'body', path: '/email', rule: 'required' });
  } else if (typeof email !== 'string') {
    fields.push({ in: 'body', path: '/email', rule: 'type', type: 'string' });
  }
  if (password === undefined || password === null || password === '') {
    fields.push({ in: 'body', path: '/password', rule: 'required' });
  } else if (typeof password !== 'string') {
    fields.push({ in: 'body', path: '/password', rule: 'type', type: 'string' });
  } else if (utf8Length(password) > MAX_PASSWORD_BYTES) {
    fields.push({ in: 'body', path: '/password', rule: 'maxLength', limit: MAX_PASSWORD_BYTES });
  }
  if (fields.length > 0 || typeof email !== 'string' || typeof password !== 'string') {
    return {
      ok: false,
      error: reviewErrors.required({ fields: fields.map((f) => `${f.path} ${f.rule}`) }, fields),
    };
  }
  return { ok: true, value: { email: normalized, password } };
}

/**
 * Registration rules in the spec's order: body (400 邮箱和密码为必填项), e-mail format
 * (400 邮箱格式不正确), password length in bytes (400 密码长度至少为 6 位).
 */
export function checkRegistration(body: unknown): Result<Credentials> {
  const read = readCredentials(body);
  if (!read.ok) return read;
  if (!isValidEmail(read.value.email)) return { ok: false, error: reviewErrors.invalidEmail() };
  if (utf8Length(read.value.password) < MIN_PASSWORD_BYTES) {
    return { ok: false, error: reviewErrors.passwordTooShort(MIN_PASSWORD_BYTES) };
  }
  return read;
}

/** Login rules: only the body rules (an e-mail that cannot exist simply fails with 401 later). */
export function checkLogin(body: unknown): Result<Credentials> {
  return readCredentials(body);
}

/** The paths spec 001 gives the review helper: its pages and its JSON endpoints. */
export const REVIEW_ROUTE_PATHS: readonly string[] = Object.freeze([
  '/',
  '/login',
  '/register',
  '/api/auth/login',
  '/api/auth/register',
  '/api/auth/logout',
]);
