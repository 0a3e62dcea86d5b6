import { chmod, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFsStorage,
  FileUrlSigner,
  type FsObjectStorage,
  ObjectStorageError,
} from '../../src/storage/index.js';
import { filesUnder, PNG_1X1, SECRET, tempDir } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let outside: Awaited<ReturnType<typeof tempDir>>;
let storage: FsObjectStorage;
const root = () => join(dir.path, 'objects');

beforeEach(async () => {
  dir = await tempDir('fs');
  outside = await tempDir('outside');
  storage = createFsStorage({ root: root(), secret: SECRET });
});
afterEach(async () => {
  await dir.remove();
  await outside.remove();
});

describe('filesystem driver: objects', () => {
  it('puts, gets, checks and deletes objects as plain files under the root', async () => {
    const key = 'projects/p1/tasks/t1/sprite.png';
    expect(storage.kind).toBe('fs');
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();

    await storage.put(key, PNG_1X1, 'image/png');
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got?.contentType).toBe('image/png');
    expect(Buffer.from(got?.bytes ?? []).equals(Buffer.from(PNG_1X1))).toBe(true);
    // The bytes are a plain file at <root>/<key>; .png implies the type, so there is no sidecar.
    expect(Buffer.from(await readFile(join(root(), key))).equals(Buffer.from(PNG_1X1))).toBe(true);
    expect(await filesUnder(root())).toEqual([key]);
    // A type the extension does not imply goes to the sidecar tree.
    await storage.put('projects/p1/tasks/t1/notes', PNG_1X1, 'application/x-custom');
    expect((await storage.get('projects/p1/tasks/t1/notes'))?.contentType).toBe('application/x-custom');
    expect(await filesUnder(root())).toEqual([
      '.meta/projects/p1/tasks/t1/notes.json',
      'projects/p1/tasks/t1/notes',
      key,
    ]);
    await storage.delete(['projects/p1/tasks/t1/notes']);

    await storage.delete([key, 'projects/p1/never-stored.png', key]);
    expect(await storage.exists(key)).toBe(false);
    // Emptied folders are pruned; the root and its service folders stay.
    expect((await readdir(root())).sort()).toEqual(['.meta', '.tmp']);
  });

  it('keeps the content type given on put, and overwrites atomically', async () => {
    const key = 'projects/p1/tasks/t1/sheet.tres';
    await storage.put(key, new TextEncoder().encode('[gd_resource]'), 'text/plain; charset=utf-8');
    expect((await storage.get(key))?.contentType).toBe('text/plain; charset=utf-8');
    await storage.put(key, new TextEncoder().encode('{"a":1}'), 'application/json');
    const got = await storage.get(key);
    expect(got?.contentType).toBe('application/json');
    expect(new TextDecoder().decode(got?.bytes)).toBe('{"a":1}');
    // Back to the type .tres implies: the sidecar of the previous put is gone, not stale.
    await storage.put(key, new TextEncoder().encode('[gd_resource]'), 'text/plain; charset=utf-8');
    expect((await storage.get(key))?.contentType).toBe('text/plain; charset=utf-8');
    expect(await filesUnder(root())).toEqual([key]);
    expect(await readdir(join(root(), '.tmp'))).toEqual([]);
  });

  it('falls back to the extension when the sidecar is missing or stale', async () => {
    await mkdir(join(root(), 'projects/p1'), { recursive: true });
    await writeFile(join(root(), 'projects/p1/copied.png'), PNG_1X1);
    await writeFile(join(root(), 'projects/p1/blob'), 'x');
    expect((await storage.get('projects/p1/copied.png'))?.contentType).toBe('image/png');
    expect((await storage.get('projects/p1/blob'))?.contentType).toBe('application/octet-stream');

    await storage.put('projects/p1/a.json', new TextEncoder().encode('{}'), 'application/vnd.custom+json');
    await writeFile(join(root(), 'projects/p1/a.json'), '{"changed":true}'); // changed behind the driver's back
    const opened = await storage.open('projects/p1/a.json');
    expect(opened?.contentType).toBe('application/json');
    expect(opened?.etag).toMatch(/^W\//);
    await opened?.close();
  });

  it('concurrent writers of one key leave one complete version, never a mix', async () => {
    const key = 'projects/p1/tasks/t1/race.bin';
    const versions = Array.from({ length: 12 }, (_, i) => new Uint8Array(256 * 1024).fill(i));
    const reads: Promise<unknown>[] = [];
    await Promise.all(
      versions.map(async (bytes, i) => {
        await storage.put(key, bytes, 'application/octet-stream');
        reads.push(
          storage.get(key).then((got) => {
            expect(got).not.toBeNull();
            const first = got?.bytes[0];
            expect(got?.bytes.length).toBe(256 * 1024);
            expect(got?.bytes.every((b) => b === first)).toBe(true);
          }),
        );
        return i;
      }),
    );
    await Promise.all(reads);
    expect(await readdir(join(root(), '.tmp'))).toEqual([]);
  });

  it('deletePrefix removes a folder of objects and nothing beside it', async () => {
    await storage.put('projects/p1/tasks/t1/a.png', PNG_1X1, 'image/png');
    await storage.put('projects/p1/tasks/t2/b.png', PNG_1X1, 'image/png');
    await storage.put('projects/p10/tasks/t3/c.png', PNG_1X1, 'image/png');
    await storage.put('projects/p1.png', PNG_1X1, 'image/png');
    await storage.deletePrefix('projects/p1');
    expect(await storage.exists('projects/p1/tasks/t1/a.png')).toBe(false);
    expect(await storage.exists('projects/p1/tasks/t2/b.png')).toBe(false);
    expect(await storage.exists('projects/p10/tasks/t3/c.png')).toBe(true);
    expect(await storage.exists('projects/p1.png')).toBe(true);
    expect(await filesUnder(root())).toEqual(['projects/p1.png', 'projects/p10/tasks/t3/c.png']);
    await storage.deletePrefix('projects/never/'); // nothing there: no error
    await expect(storage.deletePrefix('')).rejects.toThrow(/object prefix/);
    await expect(storage.deletePrefix('../')).rejects.toMatchObject({ code: 'invalid_key' });
  });

  it('puts racing deletePrefix of their folder never fail and leave whole objects or none', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `projects/p9/tasks/t${i % 5}/f${i}.png`);
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 4; round++) {
      for (const key of keys) work.push(storage.put(key, PNG_1X1, 'image/png'));
      work.push(storage.deletePrefix('projects/p9/'));
    }
    await Promise.all(work);
    for (const key of keys) {
      const got = await storage.get(key);
      if (got !== null) expect(Buffer.from(got.bytes).equals(Buffer.from(PNG_1X1)), key).toBe(true);
    }
    // And a put after the dust settles lands, even though its folder was removed and recreated.
    await storage.deletePrefix('projects/p9/');
    await storage.put(keys[0] as string, PNG_1X1, 'image/png');
    expect(await storage.exists(keys[0] as string)).toBe(true);
    expect(await readdir(join(root(), '.tmp'))).toEqual([]);
  });

  it('deletePrefix succeeds while another thread keeps writing files under the prefix', async () => {
    // The fuzzer's case: a project deleted while the worker still writes its task's files. Another
    // thread creates files under the folder between rm's listing and its rmdir (ENOTEMPTY).
    const folder = join(root(), 'projects', 'p7', 'tasks');
    const writer = new Worker(
      `const { mkdirSync, writeFileSync } = require('node:fs');
      const { workerData } = require('node:worker_threads');
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const until = Date.now() + 400;
      for (let i = 0; Date.now() < until; i++) {
        try {
          mkdirSync(workerData + '/t' + (i % 7), { recursive: true });
          writeFileSync(workerData + '/t' + (i % 7) + '/f' + i + '.png', 'x');
        } catch {}
        if (i % 4 === 3) Atomics.wait(pause, 0, 0, 1); // a file every ~0.25 ms, like a busy worker
      }`,
      { eval: true, workerData: folder },
    );
    let running = true;
    writer.once('exit', () => {
      running = false;
    });
    const failures: unknown[] = [];
    let deletes = 0;
    while (running && deletes < 5_000) {
      deletes += 1;
      await storage.deletePrefix('projects/p7/').catch((error: unknown) => failures.push(error));
    }
    expect(failures).toEqual([]);
    await storage.deletePrefix('projects/p7/');
    expect(await filesUnder(root())).toEqual([]);
  });

  it('a key that is also a folder of other keys is refused with a clear error', async () => {
    await storage.put('projects/p1/x/y.png', PNG_1X1, 'image/png');
    await expect(storage.put('projects/p1/x', PNG_1X1, 'image/png')).rejects.toMatchObject({
      code: 'invalid_key',
      message: expect.stringMatching(/collides with a folder/),
    });
    expect(await storage.exists('projects/p1/x')).toBe(false);
    expect(await storage.exists('projects/p1/x/y.png')).toBe(true);
  });

  it('refuses bad arguments before any I/O', async () => {
    const bad: [string, () => Promise<unknown>, RegExp][] = [
      ['a parent segment', () => storage.put('../x.png', PNG_1X1, 'image/png'), /object key/],
      ['an absolute path', () => storage.put('/etc/passwd', PNG_1X1, 'image/png'), /object key/],
      [
        'bytes as a string',
        () => storage.put('a.png', 'x' as unknown as Uint8Array, 'image/png'),
        /Uint8Array/,
      ],
      [
        'a header injection',
        () => storage.put('a.png', PNG_1X1, 'image/png\r\nSet-Cookie: x=1'),
        /media type/,
      ],
      ['no content type', () => storage.put('a.png', PNG_1X1, ''), /media type/],
      ['get with %2e%2e', () => storage.get('%2e%2e/x'), /object key/],
      ['exists with a backslash', () => storage.exists('a\\..\\b'), /object key/],
      ['delete of a bad key', () => storage.delete(['ok.png', '../x']), /object key/],
      ['delete of a non-array', () => storage.delete('a.png' as unknown as string[]), /array/],
      ['signedUrl with a bad key', () => storage.signedUrl('//x'), /object key/],
      ['signedUrl with a TTL of 0', () => storage.signedUrl('a.png', { ttlSeconds: 0 }), /ttlSeconds/],
      [
        'signedUrl with a javascript: base',
        () => storage.signedUrl('a.png', { baseUrl: 'javascript:x' }),
        /baseUrl/,
      ],
    ];
    for (const [name, call, message] of bad) {
      const error = await call().then(
        () => new Error(`${name}: resolved`),
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ObjectStorageError);
      expect((error as Error).message, name).toMatch(message);
    }
    // Nothing touched the disk: not even the root was created.
    expect(await readdir(dir.path)).toEqual([]);
  });
});

describe('filesystem driver: the root cannot be left', () => {
  it('a symlinked folder inside the root that points outside is neither read, written nor emptied', async () => {
    await writeFile(join(outside.path, 'secret.png'), 'outside secret');
    await mkdir(join(root(), 'projects'), { recursive: true });
    await symlink(outside.path, join(root(), 'projects/evil'));

    expect(await storage.get('projects/evil/secret.png')).toBeNull();
    expect(await storage.exists('projects/evil/secret.png')).toBe(false);
    expect(await storage.open('projects/evil/secret.png')).toBeNull();
    await expect(storage.put('projects/evil/dropped.png', PNG_1X1, 'image/png')).rejects.toMatchObject({
      code: 'invalid_key',
      message: expect.stringMatching(/leaves the storage root/),
    });
    await storage.delete(['projects/evil/secret.png']);
    await storage.deletePrefix('projects/evil/');
    // deletePrefix removed the link itself, never what it pointed at.
    expect(await readFile(join(outside.path, 'secret.png'), 'utf8')).toBe('outside secret');
    expect(await readdir(outside.path)).toEqual(['secret.png']);
  });

  it('a symlinked file is not served, even when it points inside the root', async () => {
    await storage.put('projects/p1/real.png', PNG_1X1, 'image/png');
    await writeFile(join(outside.path, 'passwd'), 'root:x:0:0');
    await symlink(join(outside.path, 'passwd'), join(root(), 'projects/p1/link.png'));
    await symlink(join(root(), 'projects/p1/real.png'), join(root(), 'projects/p1/inner-link.png'));
    expect(await storage.get('projects/p1/link.png')).toBeNull();
    expect(await storage.get('projects/p1/inner-link.png')).toBeNull();
    expect(await storage.get('projects/p1/real.png')).not.toBeNull();
  });

  it('a root that is itself a symlink works (the check uses the real path of the root)', async () => {
    await mkdir(join(outside.path, 'real-root'));
    await symlink(join(outside.path, 'real-root'), join(dir.path, 'linked-root'));
    const linked = createFsStorage({ root: join(dir.path, 'linked-root'), secret: SECRET });
    await linked.put('a/b.png', PNG_1X1, 'image/png');
    expect((await linked.get('a/b.png'))?.contentType).toBe('image/png');
    expect(await readdir(join(outside.path, 'real-root/a'))).toEqual(['b.png']);
  });
});

describe('filesystem driver: signed URLs and start-up', () => {
  it('signs /files/<key>?e=&token= against the base URL, PUBLIC_BASE_URL winning', async () => {
    let now = 1_700_000_000_500;
    const clocked = createFsStorage({
      root: root(),
      secret: SECRET,
      now: () => now,
      defaultTtlSeconds: 3600,
    });
    const key = 'projects/p1/tasks/t1/a.png';
    const signer = new FileUrlSigner(SECRET);

    const relativeUrl = await clocked.signedUrl(key);
    expect(relativeUrl).toBe(`/files/${key}?e=1700003600&token=${signer.token(key, 1_700_003_600)}`);

    const absolute = new URL(
      await clocked.signedUrl(key, { baseUrl: 'http://127.0.0.1:9/', ttlSeconds: 60 }),
    );
    expect(absolute.origin).toBe('http://127.0.0.1:9');
    expect(absolute.pathname).toBe(`/files/${key}`);
    expect(absolute.searchParams.get('e')).toBe('1700000060');
    expect(
      signer.verify(key, absolute.searchParams.get('e'), absolute.searchParams.get('token'), 1_700_000_000)
        .ok,
    ).toBe(true);

    const fixed = createFsStorage({
      root: root(),
      secret: SECRET,
      now: () => now,
      publicBaseUrl: 'https://cdn.example.com/assetloom/',
    });
    now += 1000;
    const url = await fixed.signedUrl(key, { baseUrl: 'http://evil.example' });
    expect(url.startsWith(`https://cdn.example.com/assetloom/files/${key}?e=1700003601&token=`)).toBe(true);
    expect(() => createFsStorage({ root: root(), secret: SECRET, publicBaseUrl: 'ftp://x' })).toThrow(
      /publicBaseUrl/,
    );
  });

  it('check() passes on a writable folder and sweeps stale temporary files', async () => {
    await storage.check();
    const stale = join(root(), '.tmp', 'left-by-a-crash.part');
    const fresh = join(root(), '.tmp', 'in-flight.part');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'y');
    const old = new Date(Date.now() - 2 * 3_600_000);
    await utimes(stale, old, old);
    await storage.check();
    expect(await readdir(join(root(), '.tmp'))).toEqual(['in-flight.part']);
  });

  it('check() explains an unusable folder', async () => {
    await writeFile(join(dir.path, 'a-file'), 'x');
    const broken = createFsStorage({ root: join(dir.path, 'a-file', 'objects'), secret: SECRET });
    await expect(broken.check()).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(/^\[assetloom\/server\] cannot use the storage folder .*DATA_DIR/),
    });
    await expect(broken.put('a.png', PNG_1X1, 'image/png')).rejects.toBeInstanceOf(ObjectStorageError);

    if (process.getuid?.() !== 0) {
      const readOnly = join(dir.path, 'read-only');
      await mkdir(join(readOnly, '.tmp'), { recursive: true });
      await mkdir(join(readOnly, '.meta'), { recursive: true });
      await chmod(join(readOnly, '.tmp'), 0o500);
      const ro = createFsStorage({ root: readOnly, secret: SECRET });
      await expect(ro.check()).rejects.toThrow(/is not writable/);
      await chmod(join(readOnly, '.tmp'), 0o700);
    }
    expect((await stat(dir.path)).isDirectory()).toBe(true);
  });
});
