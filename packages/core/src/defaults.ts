import { nodeBuiltin } from './internal/node-builtin.js';
import type { Clock, IdGenerator } from './ports.js';

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function webCrypto(): Crypto {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new Error(
      '[assetloom/core] globalThis.crypto.getRandomValues is missing; run on Node ≥ 20 or a modern browser',
    );
  }
  return c;
}

/**
 * 22 URL-safe characters, each uniform (about 131.9 random bits in all). The first is a letter or a
 * digit, never `-` or `_`, so an id can follow a command-line option (`--project <id>`) without
 * being taken for an option itself.
 */
export function randomId(): string {
  const c = webCrypto();
  const bytes = c.getRandomValues(new Uint8Array(22));
  // rejection sampling keeps the first character uniform over the 62 alphanumerics
  let first = (bytes[0] as number) & 63;
  while (first >= 62) first = (c.getRandomValues(new Uint8Array(1))[0] as number) & 63;
  let out = URL_SAFE[first] as string;
  for (let i = 1; i < bytes.length; i++) out += URL_SAFE[(bytes[i] as number) & 63];
  return out;
}

/** Opaque URL-safe ids: 22 characters of base64url alphabet, 132 random bits. */
export const randomIds: IdGenerator = { id: randomId };

/** The shape of every id this package issues (and the only shape lookups accept). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** node:crypto under Node, looked up once (null elsewhere). */
let nodeCrypto: typeof import('node:crypto') | null | undefined;

/**
 * Lower-case hex SHA-256 of a string: Node's synchronous hash where there is one (Web Crypto's
 * digest runs on libuv's thread pool, a cross-thread round trip that costs far more than hashing a
 * prompt; decision 0026), else Web Crypto (browsers, Deno). Same digest either way.
 */
export async function sha256Hex(text: string): Promise<string> {
  if (nodeCrypto === undefined) nodeCrypto = nodeBuiltin<typeof import('node:crypto')>('node:crypto') ?? null;
  const node = nodeCrypto;
  if (node !== null) return node.createHash('sha256').update(text, 'utf8').digest('hex');
  const digest = await webCrypto().subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
