// The config file, the server and token overrides, --json, and the errors of the account, project
// and style commands, in-process against a real reference server on 127.0.0.1.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { type CliIo, EXIT } from '../src/context.js';
import { startToolServer } from './server.js';

let server: Awaited<ReturnType<typeof startToolServer>>;
let dir: string;

beforeAll(async () => {
  server = await startToolServer('assetloom-cli-account-');
  dir = await mkdtemp(join(tmpdir(), 'assetloom-cli-account-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(env: Record<string, string> = {}, stdin?: string) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    env: { XDG_CONFIG_HOME: join(dir, 'config'), ASSETLOOM_SERVER: server.url, LANG: 'C', ...env },
    cwd: dir,
    ...(stdin === undefined
      ? {}
      : {
          stdin: (async function* () {
            yield stdin;
          })(),
        }),
  };
  return { run: (...argv: string[]) => runCli(argv, io), out: () => out, err: () => err };
}

const configFile = () => join(dir, 'config', 'assetloom', 'config.json');

describe('capabilities', () => {
  it('says what the server can do without a login; --json is what the API answers', async () => {
    const c = cli();
    expect(await c.run('capabilities'), c.err()).toBe(EXIT.ok);
    expect(c.out()).toContain(`${server.url}: image provider procedural (the built-in generator)`);
    expect(c.out()).toMatch(/^--image {6}no \(redrawing a picture needs a model provider\)$/m);
    expect(c.out()).toMatch(/^pixelate {5}yes/m);
    const j = cli();
    expect(await j.run('capabilities', '--json'), j.err()).toBe(EXIT.ok);
    const answer = JSON.parse(j.out());
    const direct = (await (await fetch(`${server.url}/api/v1/capabilities`)).json()) as { data: object };
    expect(answer).toEqual({ server: server.url, ...direct.data });
    expect(answer.assetTypes).toContain('sprite');
    const bad = cli();
    expect(await bad.run('capabilities', 'now')).toBe(EXIT.usage);
    expect(bad.err()).toContain('capabilities takes no arguments');
  });
});

describe('register, login, logout and the config file', () => {
  it('register keeps the token in a 0600 file; --json answers without the token', async () => {
    const c = cli();
    expect(await c.run('register', '--username', 'grace', '--password', 'secret123', '--json'), c.err()).toBe(
      EXIT.ok,
    );
    const answer = JSON.parse(c.out());
    expect(answer).toMatchObject({ server: server.url, username: 'grace', registered: true });
    expect(JSON.stringify(answer)).not.toContain('token');
    expect((await stat(configFile())).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(configFile(), 'utf8'));
    expect(saved.server).toBe(server.url);
    expect(saved.sessions[server.url].token).toMatch(/^ey/);
    const who = cli();
    expect(await who.run('whoami')).toBe(EXIT.ok);
    expect(who.out()).toBe(`grace on ${server.url}\n`);
  });

  it('login reads the password from stdin; a wrong one exits 3 and keeps the old token', async () => {
    const ok = cli({}, 'secret123\n');
    expect(await ok.run('login', '--username', 'grace', '--password-stdin'), ok.err()).toBe(EXIT.ok);
    const before = await readFile(configFile(), 'utf8');
    const wrong = cli();
    expect(await wrong.run('login', '--username', 'grace', '--password', 'wrong-one')).toBe(EXIT.auth);
    expect(wrong.err()).toContain('login failed: Wrong username or password (401)');
    expect(await readFile(configFile(), 'utf8')).toBe(before);
  });

  it('ASSETLOOM_TOKEN and --token win over the kept token; a refused one exits 3 saying how to log in', async () => {
    const c = cli({ ASSETLOOM_TOKEN: 'not-a-token' });
    expect(await c.run('projects')).toBe(EXIT.auth);
    expect(c.err()).toContain('Not logged in, or the token has expired (401)');
    expect(c.err()).toContain('Log in with: assetloom login --username <name>');
    const t = cli();
    expect(await t.run('whoami', '--token', 'another-bad-one')).toBe(EXIT.auth);
  });

  it('--server and ASSETLOOM_SERVER choose the server: no token kept for another one, no server there', async () => {
    const c = cli();
    expect(await c.run('whoami', '--server', 'http://127.0.0.1:9')).toBe(EXIT.auth);
    expect(c.err()).toContain('not logged in to http://127.0.0.1:9');
    const down = cli({ ASSETLOOM_SERVER: 'http://127.0.0.1:9', ASSETLOOM_TOKEN: 'x' });
    expect(await down.run('projects', '--json')).toBe(EXIT.api);
    expect(down.err()).toContain('Is the server running?');
    expect(JSON.parse(down.out()).error.exit).toBe(EXIT.api);
  });

  it('a broken config file stops with its path and the fix (exit 5)', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{ not json');
    const c = cli({ ASSETLOOM_CONFIG: file });
    expect(await c.run('projects')).toBe(EXIT.io);
    expect(c.err()).toContain(`the config file ${file} is not valid JSON`);
    expect(c.err()).toContain('delete it and log in again');
  });

  it('logout forgets the token of this server only', async () => {
    const c = cli();
    expect(await c.run('logout', '--json')).toBe(EXIT.ok);
    expect(JSON.parse(c.out())).toEqual({ server: server.url, loggedOut: true });
    const again = cli();
    expect(await again.run('projects')).toBe(EXIT.auth);
    expect(again.err()).toContain(`not logged in to ${server.url}`);
    expect(await cli({}, 'secret123').run('login', '--username', 'grace', '--password-stdin')).toBe(EXIT.ok);
  });
});

describe('projects and styles', () => {
  it('create, list as JSON, rename, and a name that is not there', async () => {
    expect(await cli().run('projects', 'create', 'Caves', '--palette', 'pico8')).toBe(EXIT.ok);
    const list = cli();
    expect(await list.run('projects', 'list', '--json')).toBe(EXIT.ok);
    const projects = JSON.parse(list.out());
    expect(projects.map((p: { name: string }) => p.name)).toContain('Caves');
    expect(await cli().run('projects', 'rename', 'Caves', 'Deep', 'caves')).toBe(EXIT.ok);
    const missing = cli();
    expect(await missing.run('style', 'show', 'Caves')).toBe(EXIT.usage);
    expect(missing.err()).toContain('no project with id or name "Caves"');
    const refuse = cli();
    expect(await refuse.run('projects', 'delete', 'Deep caves')).toBe(EXIT.usage);
    expect(refuse.err()).toContain('add --yes to confirm');
  });

  it('style set merges keys, k= removes one; a palette the generator does not read names the allowed ones (exit 2)', async () => {
    expect(await cli().run('style', 'set', 'Deep caves', 'mood=gloomy', 'lighting=night')).toBe(EXIT.ok);
    const show = cli();
    expect(await show.run('style', 'show', 'Deep caves', '--json')).toBe(EXIT.ok);
    expect(JSON.parse(show.out())).toEqual({
      kvPairs: { palette: 'pico8', mood: 'gloomy', lighting: 'night' },
    });
    expect(await cli().run('style', 'set', 'Deep caves', 'mood=')).toBe(EXIT.ok);
    const bad = cli();
    expect(await bad.run('style', 'set', 'Deep caves', '--palette', 'sweetie-61')).toBe(EXIT.usage);
    expect(bad.err()).toMatch(
      /the server refused the style: .*\(400\)\n {2}\/kvPairs\/palette: .*\(allowed: .*sweetie16/,
    );
    const picker = cli();
    expect(await picker.run('style', 'pick', 'Deep caves')).toBe(EXIT.usage);
    expect(picker.err()).toContain('style set <project> --palette <name>');
  });

  it.each([
    [['projects', 'fly'], 'unknown projects action "fly"'],
    [['style'], 'style needs an action'],
    [['style', 'set', 'Deep caves'], 'style set needs key=value pairs'],
    [['style', 'set', 'Deep caves', 'palette'], '--style takes key=value'],
    [['tasks', 'list'], 'tasks list needs --project'],
    [['tasks', 'show'], 'tasks show needs one task id'],
    [['download'], 'download needs one task id'],
    [['upload'], 'upload needs one or more picture files'],
    [['login'], '--username is required'],
    [['projects', '--lang', 'fr'], '--lang must be en or zh'],
    [['projects', '--server'], '--server needs a value'],
    [['whoami', 'now'], 'whoami takes no arguments'],
  ])('%j is a usage error (exit 2) that says what to pass', async (argv, message) => {
    const c = cli();
    expect(await c.run(...argv)).toBe(EXIT.usage);
    expect(c.err()).toContain(message);
    expect(c.err()).toContain('--help" for the options');
  });

  it('an unknown task is exit 2; upload of a file that is not there is exit 2 naming it', async () => {
    const c = cli();
    expect(await c.run('tasks', 'show', 'no-such-task')).toBe(EXIT.usage);
    expect(c.err()).toContain('could not read the task');
    const u = cli();
    expect(await u.run('upload', 'nothing.png')).toBe(EXIT.usage);
    expect(u.err()).toContain('could not upload nothing.png');
  });
});
