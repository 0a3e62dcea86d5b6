// `npx assetloom` as a user runs it after the README's CLI line, in a folder outside the repository,
// against the reference server installed from its tarball (ASSETLOOM_SERVER). Every command that
// talks to the server once, with --json where a script would read the result.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseUrl, check, isPng, uniqueName } from './project-helpers.mjs';

const home = mkdtempSync(join(tmpdir(), 'assetloom-cli-home-'));
const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), ASSETLOOM_SERVER: baseUrl(), LANG: 'C' };
delete env.ASSETLOOM_TOKEN;

function assetloom(...args) {
  const r = spawnSync('npx', ['assetloom', ...args], { env, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function ok(...args) {
  const r = assetloom(...args);
  check(r.code === 0, `assetloom ${args.join(' ')} exited ${r.code}:\n${r.err}`);
  return args.includes('--json') ? JSON.parse(r.out) : r.out;
}

const version = JSON.parse(readFileSync('node_modules/@assetloom/cli/package.json', 'utf8')).version;
check(ok('--version').trim() === version, 'npx assetloom --version is the installed version');

const username = uniqueName('cli');
ok('register', '--username', username, '--password', 'secret123', '--json');
check(
  (statSync(join(home, 'config', 'assetloom', 'config.json')).mode & 0o777) === 0o600,
  'the config file is 0600',
);
check(ok('whoami', '--json').username === username, 'whoami names the user');
const project = ok('projects', 'create', 'Ecosystem', '--json');
const style = ok('style', 'set', 'Ecosystem', '--palette', 'sweetie16', '--json');
check(style.kvPairs.palette === 'sweetie16', 'style set keeps the palette');
check(
  ok('style', 'palettes', '--json').some((p) => p.name === 'sweetie16'),
  'style palettes lists sweetie16',
);

const generated = ok(
  'generate',
  '--project',
  project.id,
  '--prompt',
  'a knight',
  '--resolution',
  '32',
  '--frames',
  '2',
  '--out',
  'sprites',
  '--json',
);
check(generated.status === 'completed', 'the task completed');
const png = generated.files.find((f) => f.endsWith('sprite.png'));
check(png && isPng(readFileSync(png)), 'sprite.png is a PNG');
check(
  generated.files.some((f) => f.endsWith('sprite.tres')),
  'the Godot file came with it',
);
check(ok('tasks', 'list', '--project', 'Ecosystem', '--json').length === 1, 'tasks list shows the task');
const again = ok('download', generated.taskId, '--out', 'again', '--json');
check(again.files.length === generated.files.length, 'download writes the same files');
const pixelized = ok('pixelize', png, '-o', 'native.png', '--colors', '8', '--json');
check(isPng(readFileSync(pixelized.output)), 'pixelize writes a PNG');

// bad arguments: exit 2 with what to pass, never a stack trace
const bad = assetloom('generate', '--project', 'Ecosystem', '--prompt', 'x', '--type', 'statue');
check(bad.code === 2, `an unknown --type exits 2 (got ${bad.code})`);
check(bad.err.includes('--type must be sprite, animation, background, ui, tileset or level'), bad.err);
check(!/\n\s+at /.test(bad.err), `no stack trace:\n${bad.err}`);
const missing = assetloom('style', 'show', 'Nowhere', '--json');
check(
  missing.code === 2 && JSON.parse(missing.out).error.exit === 2,
  'an unknown project is exit 2, as JSON too',
);
ok('logout');
check(assetloom('projects').code === 3, 'after logout, projects exits 3');
console.log(
  `cli: npx assetloom ${version} — register, projects, style, generate (${generated.files.length} files), tasks, download, pixelize, exit codes`,
);
