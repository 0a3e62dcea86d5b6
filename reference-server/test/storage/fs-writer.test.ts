/**
 * The pipeline threads' writer (storage/fs-writer.ts) against the filesystem driver it stands in for:
 * what it writes, the driver reads back exactly as if the driver had put it; it refuses what the
 * driver refuses, with the same errors, and leaves no temporary file behind a failure.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsObjectWriter, type FsObjectWriter } from '../../src/storage/fs-writer.js';
import { createFsStorage, type FsObjectStorage, ObjectStorageError } from '../../src/storage/index.js';
import { filesUnder, PNG_1X1, SECRET, tempDir } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let outside: Awaited<ReturnType<typeof tempDir>>;
let driver: FsObjectStorage;
let writer: FsObjectWriter;
const root = () => join(dir.path, 'objects');

beforeEach(async () => {
  dir = await tempDir('fs-writer');
  outside = await tempDir('outside');
  driver = createFsStorage({ root: root(), secret: SECRET });
  await driver.check(); // as the server does at start: the folders exist before a thread writes
  writer = createFsObjectWriter({ root: driver.root, fsync: driver.fsync });
});
afterEach(async () => {
  await dir.remove();
  await outside.remove();
});

describe('the pipeline threads’ file writer', () => {
  it('writes what the driver reads back: bytes, types, sidecars and their removal', async () => {
    const key = 'projects/p1/tasks/t1/sheet.png';
    await writer.put(key, PNG_1X1, 'image/png');
    const got = await driver.get(key);
    expect(got?.contentType).toBe('image/png');
    expect(Buffer.from(got?.bytes ?? []).equals(Buffer.from(PNG_1X1))).toBe(true);
    expect(await filesUnder(root())).toEqual([key]);

    // A type the extension does not imply: a sidecar, read by the driver (strong ETag from its SHA-256).
    const tres = 'projects/p1/tasks/t1/sheet.tres';
    await writer.put(tres, new TextEncoder().encode('{"a":1}'), 'application/json');
    expect((await driver.get(tres))?.contentType).toBe('application/json');
    const opened = await driver.open(tres);
    expect(opened?.etag).toMatch(/^"/);
    await opened?.close();
    expect(await filesUnder(root())).toContain('.meta/projects/p1/tasks/t1/sheet.tres.json');
    // Back to the implied type: the earlier sidecar goes, as with the driver's own put.
    await writer.put(tres, new TextEncoder().encode('[gd_resource]'), 'text/plain; charset=utf-8');
    expect((await driver.get(tres))?.contentType).toBe('text/plain; charset=utf-8');
    expect(await filesUnder(root())).toEqual([key, tres].sort());

    // The driver's own put and the writer's agree file for file.
    const mirror = await tempDir('fs-writer-mirror');
    try {
      const other = createFsStorage({ root: mirror.path, secret: SECRET });
      await other.check();
      await other.put(key, PNG_1X1, 'image/png');
      await other.put(tres, new TextEncoder().encode('{"a":1}'), 'application/json');
      await writer.put(tres, new TextEncoder().encode('{"a":1}'), 'application/json');
      expect(await filesUnder(mirror.path)).toEqual(await filesUnder(root()));
      for (const file of await filesUnder(root())) {
        expect(await readFile(join(root(), file), 'utf8'), file).toBe(
          await readFile(join(mirror.path, file), 'utf8'),
        );
      }
    } finally {
      await mirror.remove();
    }
    expect(await readdir(join(root(), '.tmp'))).toEqual([]);
  });

  it('refuses what the driver refuses, with the same errors, and leaves no temporary file', async () => {
    await writeFile(join(outside.path, 'secret.png'), 'outside secret');
    await mkdir(join(root(), 'projects'), { recursive: true });
    await symlink(outside.path, join(root(), 'projects/evil'));
    await writer.put('projects/p1/x/y.png', PNG_1X1, 'image/png');

    const cases: [string, () => Promise<unknown>, () => Promise<unknown>, string, RegExp][] = [
      [
        'a folder linked out of the root',
        () => writer.put('projects/evil/dropped.png', PNG_1X1, 'image/png'),
        () => driver.put('projects/evil/dropped.png', PNG_1X1, 'image/png'),
        'invalid_key',
        /leaves the storage root/,
      ],
      [
        'a key that is a folder of other keys',
        () => writer.put('projects/p1/x', PNG_1X1, 'image/png'),
        () => driver.put('projects/p1/x', PNG_1X1, 'image/png'),
        'invalid_key',
        /collides with a folder/,
      ],
      [
        'a parent segment',
        () => writer.put('../x.png', PNG_1X1, 'image/png'),
        () => driver.put('../x.png', PNG_1X1, 'image/png'),
        'invalid_key',
        /object key/,
      ],
      [
        'bytes as a string',
        () => writer.put('a.png', 'x' as unknown as Uint8Array, 'image/png'),
        () => driver.put('a.png', 'x' as unknown as Uint8Array, 'image/png'),
        'invalid_argument',
        /Uint8Array/,
      ],
      [
        'a header injection',
        () => writer.put('a.png', PNG_1X1, 'image/png\r\nSet-Cookie: x=1'),
        () => driver.put('a.png', PNG_1X1, 'image/png\r\nSet-Cookie: x=1'),
        'invalid_argument',
        /media type/,
      ],
    ];
    for (const [name, viaWriter, viaDriver, code, message] of cases) {
      const fromWriter = await viaWriter().then(
        () => new Error(`${name}: resolved`),
        (e: unknown) => e,
      );
      const fromDriver = await viaDriver().then(
        () => new Error(`${name}: resolved`),
        (e: unknown) => e,
      );
      expect(fromWriter, name).toBeInstanceOf(ObjectStorageError);
      expect(fromWriter, name).toMatchObject({ code, message: expect.stringMatching(message) });
      expect((fromWriter as Error).message, name).toBe((fromDriver as Error).message);
    }
    expect(await readdir(outside.path)).toEqual(['secret.png']);
    expect(await readdir(join(root(), '.tmp'))).toEqual([]);
    expect(await driver.exists('projects/p1/x/y.png')).toBe(true);
  });

  it('answers io when the folder cannot be written, and the driver still serves what was there', async () => {
    await writer.put('projects/p1/kept.png', PNG_1X1, 'image/png');
    await dir.remove(); // the whole data folder vanishes under a running server
    await expect(writer.put('projects/p1/new.png', PNG_1X1, 'image/png')).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(/writing "projects\/p1\/new.png" in the storage folder failed/),
    });
  });
});
