import { execFile } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogDestination, createLogger } from './logger.js';

const run = promisify(execFile);

function capture(): { stream: DestinationStream; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  return {
    stream: { write: (chunk: string) => void chunks.push(chunk) },
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('redacts credentials logged by accident, at the top and under body, input and headers', () => {
    const out = capture();
    const logger = createLogger('info', out.stream);
    logger.info(
      {
        password: 'pw-top',
        token: 'tok-top',
        body: { oldPassword: 'pw-old', newPassword: 'pw-new', username: 'alice' },
        input: { password: 'pw-input' },
        headers: { authorization: 'Bearer secret-header', cookie: 'assetloom_token=secret-cookie' },
        req: { headers: { authorization: 'Bearer secret-req' } },
      },
      'oops',
    );
    const text = JSON.stringify(out.lines());
    for (const secret of [
      'pw-top',
      'tok-top',
      'pw-old',
      'pw-new',
      'pw-input',
      'secret-header',
      'secret-cookie',
      'secret-req',
    ]) {
      expect(text).not.toContain(secret);
    }
    const [line] = out.lines();
    expect(line).toMatchObject({
      password: '[redacted]',
      body: { username: 'alice', newPassword: '[redacted]' },
    });
  });

  it('writes a request line as given, with an ISO time, the level and the service', () => {
    const out = capture();
    createLogger('info', out.stream).info(
      { reqId: 'r-1', method: 'GET', path: '/api/v1/projects', status: 200, ms: 0.4, userId: 'u1' },
      'request completed',
    );
    const [line] = out.lines();
    expect(line).toMatchObject({
      level: 30,
      service: 'assetloom-server',
      reqId: 'r-1',
      path: '/api/v1/projects',
      status: 200,
      msg: 'request completed',
    });
    expect(Math.abs(Date.parse(line?.time as string) - Date.now())).toBeLessThan(5_000);
    expect(line?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('createLogDestination', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-log-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('with LOG_FLUSH_MS 0 writes every line at once', () => {
    const file = join(dir, 'sync.log');
    const fd = openSync(file, 'w');
    createLogger('info', createLogDestination(0, fd)).info('one');
    expect(readFileSync(file, 'utf8')).toContain('"msg":"one"');
    closeSync(fd);
  });

  it('buffers lines and writes them within LOG_FLUSH_MS, or at once when 8 KB have gathered', async () => {
    const file = join(dir, 'buffered.log');
    const fd = openSync(file, 'w');
    const logger = createLogger('info', createLogDestination(50, fd));
    logger.info('first');
    expect(readFileSync(file, 'utf8')).toBe('');
    await expect
      .poll(() => readFileSync(file, 'utf8'), { timeout: 2_000, interval: 10 })
      .toContain('"msg":"first"');

    const before = readFileSync(file, 'utf8').length;
    for (let i = 0; i < 60; i++) logger.info({ i, pad: 'x'.repeat(150) }, 'bulk');
    const after = readFileSync(file, 'utf8');
    expect(after.length).toBeGreaterThan(before + 8_000); // written without waiting for the timer
    logger.flush();
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(61);
    closeSync(fd);
  });

  it('writes the buffered lines when the process exits, a fatal exit included', async () => {
    const script = join(dir, 'exit.ts');
    const logger = join(import.meta.dirname, 'logger.ts');
    await writeFile(
      script,
      `import { createLogDestination, createLogger } from ${JSON.stringify(logger)};\n` +
        `const log = createLogger('info', createLogDestination(60_000));\n` +
        `log.info('before exit');\n` +
        `log.fatal('could not start');\n` +
        `process.exit(1);\n`,
    );
    // cwd: the package, where `--import tsx` resolves
    const result = await run(process.execPath, ['--import', 'tsx', script], {
      cwd: join(import.meta.dirname, '..'),
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    const msgs = (result as { stdout: string }).stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(msgs).toEqual(['before exit', 'could not start']);
  });
});
