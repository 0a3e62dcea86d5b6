import { describe, expect, it } from 'vitest';
import { isJsonContentType, readJsonBody } from './body.js';
import { createClock } from './clock.js';
import { createUrlSigner } from './crypto.js';

describe('body reader', () => {
  it.each([
    ['application/json', true],
    ['application/merge-patch+json; charset=UTF-8', true],
    ['application/json, application/json', true],
    ['application/json; charset=latin1', false],
    ['text/json', false],
    ['application/json, text/plain', false],
  ])('content type %j → %s', (type, want) => {
    expect(isJsonContentType(type)).toBe(want);
  });

  const post = (
    body: BodyInit | null,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) => readJsonBody(new Request('http://x/', { method: 'POST', body, headers }), 16);

  it.each([
    ['no body', null, { ok: true, value: undefined }],
    ['an empty body', '', { ok: true, value: undefined }],
    ['valid JSON', '{"a":1}', { ok: true, value: { a: 1 } }],
    ['malformed JSON', '{"a":', { ok: false, error: 'malformed' }],
    ['invalid UTF-8', new Uint8Array([0x22, 0xff, 0x22]), { ok: false, error: 'malformed' }],
    ['too many bytes', JSON.stringify({ long: 'x'.repeat(20) }), { ok: false, error: 'too-large' }],
  ])('%s', async (_name, body, want) => {
    expect(await post(body as BodyInit | null)).toEqual(want);
  });

  it('refuses a non-JSON content type with 415', async () => {
    expect(await post('a=1', { 'content-type': 'application/x-www-form-urlencoded' })).toEqual({
      ok: false,
      error: 'unsupported-media-type',
    });
  });
});

describe('manual clock', () => {
  it('wakes sleepers in due order and never goes backwards', async () => {
    const clock = createClock('manual', 1000);
    const woke: string[] = [];
    void clock.sleep(300).then(() => woke.push('b'));
    void clock.sleep(100).then(() => woke.push('a'));
    const abort = new AbortController();
    void clock.sleep(200, abort.signal).then(() => woke.push('aborted'));
    abort.abort();
    expect(clock.nextDue()).toBe(1100);
    clock.moveTo(1250);
    await Promise.resolve();
    await Promise.resolve();
    expect(woke).toEqual(['aborted', 'a']);
    clock.moveTo(900);
    expect(clock.now().getTime()).toBe(1250);
    clock.moveTo(1300);
    await Promise.resolve();
    expect(woke).toEqual(['aborted', 'a', 'b']);
    expect(clock.nextDue()).toBeUndefined();
  });
});

describe('URL signer', () => {
  it('accepts its own tokens until they expire and refuses tampering', async () => {
    const signer = createUrlSigner();
    const token = await signer.token('projects/p/tasks/t/sprite.png', 2000);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await signer.verify('projects/p/tasks/t/sprite.png', '2000', token, 1999)).toBe(true);
    expect(await signer.verify('projects/p/tasks/t/sprite.png', '2000', token, 2001)).toBe(false);
    expect(await signer.verify('projects/p/tasks/t/other.png', '2000', token, 1999)).toBe(false);
    expect(await signer.verify('projects/p/tasks/t/sprite.png', '2001', token, 1999)).toBe(false);
    expect(await signer.verify('projects/p/tasks/t/sprite.png', null, token, 1999)).toBe(false);
    expect(await signer.verify('projects/p/tasks/t/sprite.png', '2000', 'short', 1999)).toBe(false);
  });
});
