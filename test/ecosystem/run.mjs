#!/usr/bin/env node
/**
 * Ecosystem tests (issue #21): small real projects that install the packed tarballs of the public
 * packages (plus registry packages, never workspace links) and run their quick start.
 *
 *   node test/ecosystem/run.mjs                       every project but bun and deno
 *   node test/ecosystem/run.mjs --only bun,deno       just these
 *   node test/ecosystem/run.mjs --all                 every project
 *   node test/ecosystem/run.mjs --keep                keep the temp directory (printed) for a look
 *   node test/ecosystem/run.mjs --tarballs <file>     reuse the tarballs.json of a kept run (no packing)
 *   node test/ecosystem/run.mjs --jobs 1              one project at a time (default two)
 *
 * Each project lives in projects/<name>/ with a package.json whose "@assetloom/*" dependencies say
 * "tarball"; the runner copies the project to a temp directory, points those at the tarballs (plus
 * the @assetloom packages they depend on, which a registry install would bring), runs
 * `npm install`, then `npm test`. Projects that talk to a real server get ASSETLOOM_BASE_URL: the
 * reference server installed from its own tarball and started on 127.0.0.1.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installLineFor, installLines } from './lib/install-lines.mjs';
import { log, packAll, root } from './lib/pack.mjs';
import { BASE, extractReadmeBlocks, parseReadme } from './lib/readme-blocks.mjs';

const here = join(root, 'test', 'ecosystem');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
/** Bun and Deno download their own runtimes (tens of MB): a separate step, `--only bun,deno`. */
const SEPARATE = ['bun', 'deno'];
const allProjects = readdirSync(join(here, 'projects')).sort();
const only = option('--only')?.split(',');
for (const name of only ?? []) {
  if (!allProjects.includes(name)) {
    log(`unknown project "${name}"; the projects are: ${allProjects.join(', ')}`);
    process.exit(2);
  }
}
const selected = only ?? (flag('--all') ? allProjects : allProjects.filter((p) => !SEPARATE.includes(p)));

const work = mkdtempSync(join(tmpdir(), 'assetloom-ecosystem-'));
const started = Date.now();
const results = [];
let server;
let mongo;

/**
 * The environment of an outside project: ours without what the workspace's package managers add
 * (pnpm's NODE_PATH points into the workspace store, so `mongodb` would resolve from a project that
 * never installed it; npm_config_* carries pnpm's settings, such as another global config file).
 */
function outsideEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_PATH' || key === 'INIT_CWD' || /^(npm_|pnpm_)/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/** Runs a command to its end (its output kept, a timeout kills it): answers ok, seconds and output. */
function run(command, commandArgs, { cwd, env, timeoutMs = 300_000 } = {}) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd,
      env: { ...outsideEnv(), CI: 'true', NO_COLOR: '1', npm_config_update_notifier: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a timeout stops what it started too
    });
    let output = '';
    const keep = (d) => {
      if (output.length < 64 * 1024 * 1024) output += d;
    };
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    const end = (ok, extra = '') => {
      clearTimeout(timer);
      resolve({ ok, seconds: (Date.now() - t0) / 1000, output: `${output}${extra}` });
    };
    child.once('error', (error) => end(false, `\n${error.message}`));
    child.once('close', (code) =>
      end(code === 0 && !timedOut, timedOut ? `\n${command} timed out after ${timeoutMs / 1000} s` : ''),
    );
  });
}

/** The @assetloom packages a project needs: its own plus everything they depend on. */
function closure(names, manifests) {
  const out = new Set();
  const visit = (name) => {
    if (out.has(name)) return;
    out.add(name);
    for (const dep of Object.keys(manifests[name]?.dependencies ?? {})) {
      if (dep.startsWith('@assetloom/')) visit(dep);
    }
  };
  for (const name of names) visit(name);
  return [...out];
}

function tarballManifest(tarball) {
  const result = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cannot read package.json in ${tarball}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Copies projects/<name> to the work dir with its tarball dependencies resolved; answers its dir. */
function prepare(name, tarballs, manifests) {
  const dir = join(work, name);
  cpSync(join(here, 'projects', name), dir, { recursive: true });
  cpSync(join(here, 'lib', 'project-helpers.mjs'), join(dir, 'project-helpers.mjs'));
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  // The Vite projects share one page that generates a sprite (and its dev and preview drivers).
  if (manifest.assetloomEcosystem?.vitePage === true) {
    cpSync(join(here, 'lib', 'vite-page'), dir, { recursive: true });
  }
  const wanted = Object.entries(manifest.dependencies ?? {})
    .filter(([, spec]) => spec === 'tarball')
    .map(([dep]) => dep);
  const uses = manifest.assetloomEcosystem?.install ?? [];
  if (uses.length > 0 && wanted.length > 0) {
    throw new Error(`${name} installs the README's lines: its package.json must not also say "tarball"`);
  }
  // Projects that install a README line get the packed folder where the line says: ./assetloom-packages
  if (uses.length > 0)
    symlinkSync(dirname(Object.values(tarballs)[0]), join(dir, 'assetloom-packages'), 'dir');
  for (const dep of closure(wanted, manifests)) {
    if (!tarballs[dep]) throw new Error(`${name} needs ${dep}, which is not a packed public package`);
    manifest.dependencies[dep] = `file:${tarballs[dep]}`;
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

/** npm's quiet, cache-first settings, as environment (so a README line runs exactly as written). */
const NPM_QUIET = {
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_loglevel: 'error',
  npm_config_prefer_offline: 'true',
};

/**
 * Installs a project: the root README's install lines it names (`"assetloomEcosystem": { "install":
 * ["the SDK and the mock"] }`), each run as written, in the README's order; else `npm install`.
 */
async function install(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const uses = manifest.assetloomEcosystem?.install ?? [];
  if (uses.length === 0) return await run('npm', ['install'], { cwd: dir, env: NPM_QUIET });
  // in the README's order, whatever the order the project names them in
  const order = installLines().map((l) => l.line);
  const lines = uses
    .map((use) => installLineFor(use))
    .sort((a, b) => order.indexOf(a.line) - order.indexOf(b.line));
  let seconds = 0;
  let output = '';
  for (const { line } of lines) {
    const result = await run('sh', ['-c', line], { cwd: dir, env: NPM_QUIET });
    seconds += result.seconds;
    output += `$ ${line}\n${result.output}`;
    if (!result.ok) return { ok: false, seconds, output };
  }
  return { ok: true, seconds, output };
}

/**
 * A newcomer project (`"assetloomEcosystem": { "newcomer": "packages/mock/README.md" }`) follows
 * that README top to bottom in an empty folder, as written (issue #41): the packed folder linked as
 * ./assetloom-packages (the README says to copy it there), each `npm install` line of its ```sh
 * blocks run as it stands, then each block marked `<!-- ecosystem: run -->` run in order with
 * `node`, from the folder — its types stripped by TypeScript's transpileModule, as any TS runner
 * does; nothing else is installed or written. A project that also says `"server": true` has the
 * README's server URL ('http://127.0.0.1:8080', where `pnpm start` listens) pointed at the server
 * the runner started from its tarball — the one edit a reader makes. Answers the install and the run
 * as run() does.
 */
async function followReadme(name, readme, tarballs, baseUrl) {
  const dir = join(work, name);
  mkdirSync(dir);
  symlinkSync(dirname(Object.values(tarballs)[0]), join(dir, 'assetloom-packages'), 'dir');
  const text = readFileSync(join(root, readme), 'utf8');
  const lines = [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1].split('\n'))
    .filter((line) => line.startsWith('npm install '));
  if (lines.length === 0) throw new Error(`${readme} has no npm install line to follow`);
  const installed = { ok: true, seconds: 0, output: '' };
  for (const line of lines) {
    const result = await run('sh', ['-c', line], { cwd: dir, env: NPM_QUIET });
    installed.seconds += result.seconds;
    installed.output += `$ ${line}\n${result.output}`;
    if (!result.ok) return { installed: { ...installed, ok: false }, tested: undefined };
  }
  const ts = createRequire(import.meta.url)('typescript');
  const tested = { ok: true, seconds: 0, output: '' };
  const blocks = parseReadme(text).filter((b) => b.mode === 'run');
  if (blocks.length === 0) throw new Error(`${readme} has no block marked <!-- ecosystem: run -->`);
  for (const block of blocks) {
    const file = `readme-line-${block.line}.mjs`;
    const code = baseUrl ? block.code.replace(BASE, `'${baseUrl}'`) : block.code;
    const { outputText } = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, file), outputText);
    const result = await run(process.execPath, [file], { cwd: dir, timeoutMs: 120_000 });
    tested.seconds += result.seconds;
    tested.output += `$ node ${file}   # ${readme} line ${block.line}\n${result.output}`;
    // what the README says a console.log prints (`console.log(x); // completed …`) must come out
    const promised = [...block.code.matchAll(/console\.log\(.*\);?[ \t]*\/\/[ \t]*(.+)$/gm)].map((m) =>
      m[1].trim(),
    );
    const missing = promised.filter((line) => !result.output.includes(line));
    if (missing.length > 0)
      tested.output += `the README promises output it did not print: ${missing.join(' | ')}\n`;
    if (!result.ok || missing.length > 0) return { installed, tested: { ...tested, ok: false } };
  }
  return { installed, tested };
}

/**
 * A newcomer who follows a README's first ```sh block line by line (`"assetloomEcosystem":
 * { "newcomer": "reference-server/README.md", "shell": true }`), in an empty folder with the packed
 * folder linked as ./assetloom-packages: `npm install …` as written; `npx assetloom-server` started and
 * kept running (on a free port instead of 8080 — the one edit, so the run never meets another server);
 * any other `npx …` run to exit 0; `curl -s <url>` run, its answer JSON with code 0; `open <url>`
 * fetched as a browser would, an HTML page answered 200. A line it does not know fails the project,
 * so a README that grows a step grows its check. The server is stopped at the end, and the folder must
 * then hold the embedded store the README promises (./data).
 */
async function followShellReadme(name, readme, tarballs) {
  const dir = join(work, name);
  mkdirSync(dir);
  symlinkSync(dirname(Object.values(tarballs)[0]), join(dir, 'assetloom-packages'), 'dir');
  const text = readFileSync(join(root, readme), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(text);
  if (!block) throw new Error(`${readme} has no \`\`\`sh block to follow`);
  const port = await freePort();
  const local = (url) => url.replace('http://127.0.0.1:8080', `http://127.0.0.1:${port}`);
  const installed = { ok: true, seconds: 0, output: '' };
  const tested = { ok: true, seconds: 0, output: '' };
  let server;
  const fail = (into, line) => {
    into.ok = false;
    into.output += `the newcomer could not follow: ${line}\n`;
  };
  try {
    for (const raw of block[1].split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim(); // the README's comments after two spaces or more
      if (line === '') continue;
      if (line.startsWith('npm install ')) {
        const result = await run('sh', ['-c', line], { cwd: dir, env: NPM_QUIET });
        installed.seconds += result.seconds;
        installed.output += `$ ${line}\n${result.output}`;
        if (!result.ok) return { installed: { ...installed, ok: false }, tested: undefined };
        continue;
      }
      const t0 = Date.now();
      tested.output += `$ ${line}\n`;
      if (line === 'npx assetloom-server') {
        server = spawn('npx', ['assetloom-server'], {
          cwd: dir,
          env: { ...outsideEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true, // its own process group: npx's child, the server, is stopped with it
        });
        let log = '';
        server.stdout.on('data', (d) => {
          log += d;
        });
        server.stderr.on('data', (d) => {
          log += d;
        });
        let up = false;
        for (let i = 0; i < 600 && !up && server.exitCode === null; i++) {
          up = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
            (r) => r.ok,
            () => false,
          );
          if (!up) await new Promise((r) => setTimeout(r, 100));
        }
        tested.output += log;
        if (!up) fail(tested, `${line} (no health answer within 60 s)`);
      } else if (line.startsWith('npx ')) {
        const result = await run('sh', ['-c', line], { cwd: dir, timeoutMs: 60_000 });
        tested.output += result.output;
        if (!result.ok) fail(tested, line);
      } else if (line.startsWith('curl -s ')) {
        const result = await run('sh', ['-c', local(line)], { cwd: dir, timeoutMs: 60_000 });
        tested.output += `${result.output}\n`;
        let code;
        try {
          code = JSON.parse(result.output).code;
        } catch {}
        if (!result.ok || code !== 0) fail(tested, `${line} (answered: ${result.output.slice(0, 200)})`);
      } else if (line.startsWith('open ')) {
        const url = local(line.slice('open '.length).trim());
        const page = await fetch(url, { headers: { accept: 'text/html' } }).catch((error) => error);
        const type = page instanceof Response ? (page.headers.get('content-type') ?? '') : '';
        tested.output += `${page instanceof Response ? `${page.status} ${type}` : page}\n`;
        if (!(page instanceof Response) || page.status !== 200 || !type.startsWith('text/html'))
          fail(tested, line);
      } else {
        fail(tested, `${line} (a line this runner does not know: teach test/ecosystem/run.mjs the step)`);
      }
      tested.seconds += (Date.now() - t0) / 1000;
      if (!tested.ok) break;
    }
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM'); // npx and the server it started (SIGTERM to npx alone left it running)
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
  }
  if (tested.ok && server && readdirSync(dir).indexOf('data') < 0)
    fail(tested, 'the embedded store is not in ./data');
  return { installed, tested };
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A MongoDB-wire server for projects that say `"assetloomEcosystem": { "mongodb": true }`:
 * MONGODB_URI when set, else FerretDB started by @assetloom/testing (its cached binary; the same
 * helpers the vitest global setup uses, run through tsx in that package).
 */
async function startMongo() {
  const given = process.env.MONGODB_URI?.trim();
  if (given) return { uri: given, stop: async () => {} };
  const script = [
    "import { ensureFerretDB, startFerretDB } from './src/ferretdb.ts';",
    'const built = await ensureFerretDB();',
    'const server = await startFerretDB(built.binary);',
    "process.stdout.write(JSON.stringify({ uri: server.uri }) + '\\n');",
    "process.stdin.on('end', () => server.stop().then(() => process.exit(0)));",
    'process.stdin.resume();',
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: join(root, 'packages', 'testing'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const uri = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('FerretDB did not start within 300 s')), 300_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).uri);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the FerretDB helper exited with ${code}`));
    });
  });
  return {
    uri,
    stop: async () => {
      child.stdin.end();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** The reference server from its tarball, on 127.0.0.1 with the embedded store in the work dir. */
async function startServer(tarballs, manifests) {
  const dir = prepare('server', tarballs, manifests);
  const installed = await install(dir);
  if (!installed.ok) throw new Error(`installing the server tarball failed:\n${installed.output}`);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(dir, 'node_modules', '@assetloom', 'server', 'bin', 'assetloom-server.js')],
    {
      cwd: dir,
      env: {
        ...outsideEnv(),
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: join(dir, 'data'),
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        SCRYPT_COST: '12',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    let healthy = false;
    try {
      healthy = (await fetch(`${baseUrl}/api/v1/health`)).ok;
    } catch {}
    if (healthy) {
      // The tarball carries the built studio (dist/studio), which the server answers at /studio/.
      const studio = await fetch(`${baseUrl}/studio/`);
      const type = studio.headers.get('content-type') ?? '';
      if (studio.status !== 200 || !type.startsWith('text/html')) {
        child.kill();
        throw new Error(
          `GET /studio/ of the installed server answered ${studio.status} ${type}:\n${await studio.text()}`,
        );
      }
      return { child, baseUrl, installSeconds: installed.seconds, output: () => output };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`the server did not answer /api/v1/health within 60 s:\n${output}`);
}

try {
  log(`work dir ${work}; projects: ${selected.join(', ')}`);
  const reuse = option('--tarballs');
  const tarballs = reuse ? JSON.parse(readFileSync(reuse, 'utf8')) : packAll(join(work, 'tarballs'));
  const manifests = Object.fromEntries(
    Object.entries(tarballs).map(([name, file]) => [name, tarballManifest(file)]),
  );
  writeFileSync(join(work, 'tarballs.json'), `${JSON.stringify(tarballs, null, 2)}\n`);
  // README code blocks, written where the TypeScript projects pick them up.
  const blocks = extractReadmeBlocks(join(work, 'readme-blocks'));
  log(`${blocks.length} README code blocks extracted`);

  const needsServer = selected.some((name) => {
    const manifest = JSON.parse(readFileSync(join(here, 'projects', name, 'package.json'), 'utf8'));
    return manifest.assetloomEcosystem?.server === true;
  });
  if (needsServer) {
    server = await startServer(tarballs, manifests);
    log(
      `reference server (from its tarball) on ${server.baseUrl}, installed in ${server.installSeconds.toFixed(1)} s`,
    );
  }
  const needsMongo = selected.some((name) => {
    const manifest = JSON.parse(readFileSync(join(here, 'projects', name, 'package.json'), 'utf8'));
    return manifest.assetloomEcosystem?.mongodb === true;
  });
  if (needsMongo) {
    mongo = await startMongo();
    log(`MongoDB-wire server for the projects that ask for one: ${mongo.uri}`);
  }
  // Two projects at a time: most of a project's time is npm installing and servers answering, not
  // the CPU (17 projects one after another took 361 s of CI's longer lane).
  const queue = selected.filter((name) => name !== 'server');
  const one = async (name) => {
    const t0 = Date.now();
    const project = JSON.parse(readFileSync(join(here, 'projects', name, 'package.json'), 'utf8'));
    const readme = project.assetloomEcosystem?.newcomer;
    const followed = !readme
      ? undefined
      : project.assetloomEcosystem?.shell
        ? await followShellReadme(name, readme, tarballs)
        : await followReadme(
            name,
            readme,
            tarballs,
            project.assetloomEcosystem?.server ? server?.baseUrl : undefined,
          );
    const installed = followed ? followed.installed : await install(prepare(name, tarballs, manifests));
    let tested = followed?.tested ?? { ok: false, seconds: 0, output: '' };
    if (installed.ok && !followed) {
      const dir = join(work, name);
      tested = await run('npm', ['test'], {
        cwd: dir,
        env: {
          ASSETLOOM_BASE_URL: server?.baseUrl ?? '',
          ASSETLOOM_README_BLOCKS: join(work, 'readme-blocks'),
          ...(mongo ? { MONGODB_URI: mongo.uri } : {}),
        },
      });
    }
    const ok = installed.ok && tested.ok;
    results.push({
      name,
      ok,
      install: installed.seconds,
      test: tested.seconds,
      total: (Date.now() - t0) / 1000,
    });
    log(
      `${ok ? 'ok  ' : 'FAIL'} ${name} (install ${installed.seconds.toFixed(1)} s, test ${tested.seconds.toFixed(1)} s)`,
    );
    if (!ok) process.stderr.write(`${(installed.ok ? tested : installed).output}\n`);
    else if (flag('--verbose')) process.stderr.write(`${tested.output}\n`);
  };
  const jobs = Math.max(1, Number(option('--jobs') ?? 2));
  await Promise.all(
    Array.from({ length: Math.min(jobs, queue.length) }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await one(name);
    }),
  );
} catch (error) {
  log(`stopped: ${error?.stack ?? error}`);
  results.push({ name: 'setup', ok: false });
} finally {
  if (server) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (results.some((r) => !r.ok)) process.stderr.write(`--- server output ---\n${server.output()}\n`);
  }
  await mongo?.stop();
  if (flag('--keep')) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((r) => !r.ok);
log(
  `${results.length - failed.length}/${results.length} passed in ${((Date.now() - started) / 1000).toFixed(0)} s` +
    (failed.length ? `; failed: ${failed.map((r) => r.name).join(', ')}` : ''),
);
process.exit(failed.length ? 1 : 0);
